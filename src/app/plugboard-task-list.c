/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "plugboard-task-list.h"

#include <glib/gi18n.h>

/* PLACEHOLDER: the contract only; the widget is being written. */

struct _PlugboardTaskList
{
  AdwBin parent_instance;
};

G_DEFINE_FINAL_TYPE (PlugboardTaskList, plugboard_task_list, ADW_TYPE_BIN)

static void
plugboard_task_list_class_init (PlugboardTaskListClass *klass)
{
  gtk_widget_class_set_template_from_resource (GTK_WIDGET_CLASS (klass),
                                               "/org/plugboard/Plugboard/plugboard-task-list.ui");
}

static void
plugboard_task_list_init (PlugboardTaskList *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
plugboard_task_list_new (void)
{
  return g_object_new (PLUGBOARD_TYPE_TASK_LIST, NULL);
}

void
plugboard_task_list_set_connection (PlugboardTaskList   *self,
                                    McpServerConnection *connection)
{
}
