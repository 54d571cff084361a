/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-list-detail"

#include "config.h"

#include "plugboard-list-detail-private.h"

#include <glib/gi18n.h>

#include "plugboard-completion.h"

/* The detail's action (the resource browser's Read, the prompt browser's
 * Get): when it can run, Enter in its fields, its start, its errors. */

void
plugboard_list_detail_set_action (PlugboardListDetail *self,
                                  GtkWidget           *button,
                                  GtkSpinner          *spinner,
                                  GtkLabel            *error_label)
{
  PlugboardListDetailPrivate *priv;

  g_return_if_fail (PLUGBOARD_IS_LIST_DETAIL (self));
  g_return_if_fail (GTK_IS_WIDGET (button));
  g_return_if_fail (GTK_IS_SPINNER (spinner));
  g_return_if_fail (GTK_IS_LABEL (error_label));

  priv = PRIV (self);
  priv->action_button = button;
  priv->action_spinner = spinner;
  priv->error_label = error_label;
}

void
plugboard_list_detail_update_action (PlugboardListDetail *self,
                                     gboolean             busy,
                                     const char          *missing)
{
  PlugboardListDetailPrivate *priv;
  gboolean connected;

  g_return_if_fail (PLUGBOARD_IS_LIST_DETAIL (self));

  priv = PRIV (self);
  if (priv->action_button == NULL)
    return;

  connected = plugboard_list_detail_get_server_info (self) != NULL;
  gtk_widget_set_sensitive (priv->action_button, connected && !busy && missing == NULL);
  gtk_widget_set_tooltip_text (priv->action_button,
                               !connected ? _("The server is not connected") : missing);
  gtk_widget_set_visible (GTK_WIDGET (priv->action_spinner), busy);
  gtk_spinner_set_spinning (priv->action_spinner, busy);
}

void
plugboard_list_detail_activate_action (PlugboardListDetail *self)
{
  PlugboardListDetailPrivate *priv;

  g_return_if_fail (PLUGBOARD_IS_LIST_DETAIL (self));

  priv = PRIV (self);
  if (priv->action_button != NULL && gtk_widget_is_sensitive (priv->action_button))
    gtk_widget_activate (priv->action_button);
}

McpClient *
plugboard_list_detail_begin_action (PlugboardListDetail *self,
                                    const char          *not_connected)
{
  PlugboardListDetailPrivate *priv;
  McpClient *client;

  g_return_val_if_fail (PLUGBOARD_IS_LIST_DETAIL (self), NULL);

  priv = PRIV (self);
  client = plugboard_list_detail_get_client (self);
  if (client == NULL)
    {
      plugboard_list_detail_show_error (self, not_connected);
      return NULL;
    }

  plugboard_list_detail_show_error (self, NULL);
  /* the suggestions stayed open over the result */
  if (priv->detail != NULL)
    plugboard_completion_dismiss (priv->detail);
  return client;
}

void
plugboard_list_detail_show_error (PlugboardListDetail *self,
                                  const char          *message)
{
  PlugboardListDetailPrivate *priv;

  g_return_if_fail (PLUGBOARD_IS_LIST_DETAIL (self));

  priv = PRIV (self);
  if (priv->error_label == NULL)
    return;

  gtk_label_set_text (priv->error_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (priv->error_label), message != NULL);
}
