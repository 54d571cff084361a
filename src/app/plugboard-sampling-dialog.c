/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "plugboard-sampling-dialog.h"

#include <glib/gi18n.h>

/* PLACEHOLDER: the contract only; the widget is being written. */

struct _PlugboardSamplingDialog
{
  AdwWindow parent_instance;
};

G_DEFINE_FINAL_TYPE (PlugboardSamplingDialog, plugboard_sampling_dialog, ADW_TYPE_WINDOW)

static void
plugboard_sampling_dialog_class_init (PlugboardSamplingDialogClass *klass)
{
  gtk_widget_class_set_template_from_resource (GTK_WIDGET_CLASS (klass),
                                               "/org/plugboard/Plugboard/plugboard-sampling-dialog.ui");
}

static void
plugboard_sampling_dialog_init (PlugboardSamplingDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

PlugboardSamplingDialog *
plugboard_sampling_dialog_new (GtkWindow  *parent,
                               const char *server_name,
                               JsonObject *params)
{
  return g_object_new (PLUGBOARD_TYPE_SAMPLING_DIALOG, "transient-for", parent, NULL);
}

void
plugboard_sampling_dialog_set_reply (PlugboardSamplingDialog *self,
                                     const char              *text)
{
}

void
plugboard_sampling_dialog_respond (PlugboardSamplingDialog *self,
                                   gboolean                 approve)
{
}
