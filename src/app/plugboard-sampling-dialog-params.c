/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-sampling-dialog"

#include "config.h"

#include "plugboard-sampling-dialog.h"

#include <glib/gi18n.h>

#include "plugboard-common.h"

#include "plugboard-sampling-dialog-private.h"

/* PlugboardSamplingDialog's "Request Details": the system prompt, maximum
 * tokens, temperature, stop sequences, model preferences, context and
 * metadata, each in a row of its own, and any other parameter as JSON. */

/* The parameters shown in their own rows; any other is shown as JSON. */
static const char * const known_params[] = {
  "messages", "systemPrompt", "maxTokens", "temperature", "stopSequences",
  "modelPreferences", "includeContext", "metadata",
};

/* A value as a person reads it: strings and numbers as they are, objects
 * and arrays as JSON. */
static char *
dup_value_text (JsonNode *node)
{
  if (JSON_NODE_HOLDS_VALUE (node))
    {
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_STRING:
          return g_strdup (json_node_get_string (node));
        case G_TYPE_INT64:
          return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
        case G_TYPE_DOUBLE:
          {
            char buffer[G_ASCII_DTOSTR_BUF_SIZE];

            return g_strdup (g_ascii_formatd (buffer, sizeof buffer, "%g", json_node_get_double (node)));
          }
        case G_TYPE_BOOLEAN:
          return g_strdup (json_node_get_boolean (node) ? "true" : "false");
        default:
          break;
        }
    }

  return plugboard_dup_json (node, TRUE);
}

/* One row of "Request Details": a caption, then the value in full. */
static void
add_param_row (PlugboardSamplingDialog *self,
               const char              *title,
               const char              *value,
               gboolean                 monospace,
               const char              *note)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);

  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_widget_set_margin_top (box, 9);
  gtk_widget_set_margin_bottom (box, 9);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_box_append (GTK_BOX (box), plugboard_sampling_dialog_caption_label_new (title));
  gtk_box_append (GTK_BOX (box), plugboard_sampling_dialog_value_label_new (value, monospace));
  if (note != NULL)
    {
      GtkWidget *label = plugboard_sampling_dialog_value_label_new (note, FALSE);

      gtk_label_set_selectable (GTK_LABEL (label), FALSE);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_widget_add_css_class (label, "caption");
      gtk_box_append (GTK_BOX (box), label);
    }
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_list_box_append (self->params_list, row);
}

static void
add_model_preferences (PlugboardSamplingDialog *self,
                       JsonNode                *node)
{
  static const struct {
    const char *member;
    const char *label;
  } priorities[] = {
    { "costPriority", N_("cost") },
    { "speedPriority", N_("speed") },
    { "intelligencePriority", N_("intelligence") },
  };
  g_autoptr(GString) hints = g_string_new (NULL);
  g_autoptr(GString) wanted = g_string_new (NULL);
  g_autofree char *json = NULL;
  JsonObject *preferences;
  JsonNode *hint_node;
  gboolean other = FALSE;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      json = plugboard_dup_json (node, TRUE);
      add_param_row (self, _("Model preferences"), json, TRUE, NULL);
      return;
    }

  preferences = json_node_get_object (node);
  hint_node = json_object_get_member (preferences, "hints");
  if (hint_node != NULL && JSON_NODE_HOLDS_ARRAY (hint_node))
    {
      JsonArray *array = json_node_get_array (hint_node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *hint = json_array_get_element (array, i);
          const char *name = JSON_NODE_HOLDS_OBJECT (hint) ?
            plugboard_sampling_dialog_member_string (json_node_get_object (hint), "name") : NULL;
          g_autofree char *text = name != NULL ? g_strdup (name) : plugboard_dup_json (hint, FALSE);

          if (hints->len > 0)
            g_string_append (hints, ", ");
          g_string_append (hints, text);
        }
    }

  for (guint i = 0; i < G_N_ELEMENTS (priorities); i++)
    {
      JsonNode *value = json_object_get_member (preferences, priorities[i].member);
      g_autofree char *text = NULL;

      if (value == NULL)
        continue;
      text = dup_value_text (value);
      if (wanted->len > 0)
        g_string_append (wanted, " · ");
      /* Translators: e.g. "speed 0.5": what the server weighs in choosing a model */
      g_string_append_printf (wanted, _("%s %s"), _(priorities[i].label), text);
    }

  {
    GList *members = json_object_get_members (preferences);

    for (GList *l = members; l != NULL; l = l->next)
      if (!g_str_equal (l->data, "hints") &&
          !g_str_equal (l->data, "costPriority") &&
          !g_str_equal (l->data, "speedPriority") &&
          !g_str_equal (l->data, "intelligencePriority"))
        other = TRUE;
    g_list_free (members);
  }

  if (hints->len > 0)
    add_param_row (self, _("Model hints"), hints->str, FALSE,
                   _("Models the server would prefer, best first"));
  if (wanted->len > 0)
    add_param_row (self, _("Model priorities"), wanted->str, FALSE,
                   _("From 0 (unimportant) to 1 (most important)"));
  if (other || (hints->len == 0 && wanted->len == 0))
    {
      json = plugboard_dup_json (node, TRUE);
      add_param_row (self, _("Model preferences"), json, TRUE, NULL);
    }
}

void
plugboard_sampling_dialog_show_params (PlugboardSamplingDialog *self,
                                       JsonObject              *params)
{
  JsonNode *node;
  GList *members;
  guint n_messages = 0;

  node = json_object_get_member (params, "messages");
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *messages = json_node_get_array (node);

      n_messages = json_array_get_length (messages);
      for (guint i = 0; i < n_messages; i++)
        plugboard_sampling_dialog_add_message (self, json_array_get_element (messages, i));
    }
  else if (node != NULL)
    {
      /* Not an array: shown as it came, rather than hidden. */
      plugboard_sampling_dialog_add_message (self, node);
      n_messages = 1;
    }

  if (n_messages == 0)
    {
      GtkWidget *label = plugboard_sampling_dialog_value_label_new (_("The server sent no messages."), FALSE);

      gtk_widget_add_css_class (label, "dim-label");
      gtk_box_append (self->messages_box, label);
    }

  if ((node = json_object_get_member (params, "systemPrompt")) != NULL)
    {
      g_autofree char *text = dup_value_text (node);

      add_param_row (self, _("System prompt"), text, FALSE, NULL);
    }

  if ((node = json_object_get_member (params, "maxTokens")) != NULL)
    {
      g_autofree char *text = dup_value_text (node);

      add_param_row (self, _("Maximum tokens"), text, FALSE,
                     _("How long the server allows the reply to be"));
    }

  if ((node = json_object_get_member (params, "temperature")) != NULL)
    {
      g_autofree char *text = dup_value_text (node);

      add_param_row (self, _("Temperature"), text, FALSE, NULL);
    }

  if ((node = json_object_get_member (params, "stopSequences")) != NULL)
    {
      g_autoptr(GString) text = g_string_new (NULL);

      /* As JSON strings, so that a newline or a space in one shows. */
      if (JSON_NODE_HOLDS_ARRAY (node))
        {
          JsonArray *array = json_node_get_array (node);

          for (guint i = 0; i < json_array_get_length (array); i++)
            {
              g_autofree char *item = plugboard_dup_json (json_array_get_element (array, i), FALSE);

              if (text->len > 0)
                g_string_append (text, "  ");
              g_string_append (text, item);
            }
        }
      else
        {
          g_autofree char *json = plugboard_dup_json (node, FALSE);

          g_string_append (text, json);
        }
      add_param_row (self, _("Stop sequences"), text->len > 0 ? text->str : _("None"), TRUE, NULL);
    }

  if ((node = json_object_get_member (params, "modelPreferences")) != NULL)
    add_model_preferences (self, node);

  if ((node = json_object_get_member (params, "includeContext")) != NULL)
    {
      g_autofree char *text = dup_value_text (node);

      add_param_row (self, _("Include context"), text, TRUE,
                     _("Plugboard keeps no conversation of its own to add: the messages above are all that the reply is about"));
    }

  if ((node = json_object_get_member (params, "metadata")) != NULL)
    {
      g_autofree char *text = plugboard_dup_json (node, TRUE);

      add_param_row (self, _("Metadata"), text, TRUE, NULL);
    }

  members = json_object_get_members (params);
  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *name = l->data;
      g_autofree char *text = NULL;

      if (g_strv_contains (known_params, name))
        continue;
      text = plugboard_dup_json (json_object_get_member (params, name), TRUE);
      add_param_row (self, name, text, TRUE, NULL);
    }
  g_list_free (members);

  gtk_widget_set_visible (self->params_group,
                          gtk_widget_get_first_child (GTK_WIDGET (self->params_list)) != NULL);
}
