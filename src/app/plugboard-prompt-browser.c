/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "plugboard-prompt-browser.h"

#include <glib/gi18n.h>

/* PLACEHOLDER: the contract only; the widget is being written. */

struct _PlugboardPromptBrowser
{
  AdwBin parent_instance;
};

G_DEFINE_FINAL_TYPE (PlugboardPromptBrowser, plugboard_prompt_browser, ADW_TYPE_BIN)

static void
plugboard_prompt_browser_class_init (PlugboardPromptBrowserClass *klass)
{
  gtk_widget_class_set_template_from_resource (GTK_WIDGET_CLASS (klass),
                                               "/org/plugboard/Plugboard/plugboard-prompt-browser.ui");
}

static void
plugboard_prompt_browser_init (PlugboardPromptBrowser *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
plugboard_prompt_browser_new (void)
{
  return g_object_new (PLUGBOARD_TYPE_PROMPT_BROWSER, NULL);
}

void
plugboard_prompt_browser_set_connection (PlugboardPromptBrowser *self,
                                         McpServerConnection    *connection)
{
}
