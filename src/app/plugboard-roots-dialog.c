/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "plugboard-roots-dialog.h"

#include <glib/gi18n.h>

/* PLACEHOLDER: the contract only; the widget is being written. */

struct _PlugboardRootsDialog
{
  AdwWindow parent_instance;
};

G_DEFINE_FINAL_TYPE (PlugboardRootsDialog, plugboard_roots_dialog, ADW_TYPE_WINDOW)

static void
plugboard_roots_dialog_class_init (PlugboardRootsDialogClass *klass)
{
  gtk_widget_class_set_template_from_resource (GTK_WIDGET_CLASS (klass),
                                               "/org/plugboard/Plugboard/plugboard-roots-dialog.ui");
}

static void
plugboard_roots_dialog_init (PlugboardRootsDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

PlugboardRootsDialog *
plugboard_roots_dialog_new (GtkWindow  *parent,
                            McpRoots   *roots,
                            const char *server_name)
{
  return g_object_new (PLUGBOARD_TYPE_ROOTS_DIALOG, "transient-for", parent, NULL);
}
