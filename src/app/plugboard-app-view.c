/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-app-view"

#include "config.h"

#include "plugboard-app-view.h"

/* STUB: the contract; the parts are being written. */

struct _PlugboardAppView
{
  GtkWidget parent_instance;
};

G_DEFINE_FINAL_TYPE (PlugboardAppView, plugboard_app_view, GTK_TYPE_WIDGET)

static void
plugboard_app_view_class_init (PlugboardAppViewClass *klass)
{
}

static void
plugboard_app_view_init (PlugboardAppView *self)
{
}
