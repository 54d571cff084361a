/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-server-editor"

/* PlugboardServerEditor's Paste JSON: an entry from the clipboard, in the
 * "mcpServers" shape or as { "name": {…} } or a member copied out of a
 * file, checked by the engine and filled into the fields. */

#include "config.h"

#include "plugboard-server-editor-private.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-server-config-private.h"

static void
on_clipboard_text_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(PlugboardServerEditor) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, &error);
  /* the dialog was closed meanwhile */
  if (self->name_row == NULL || self->settings == NULL)
    return;

  if (text == NULL || text[0] == '\0')
    {
      plugboard_server_editor_set_notice (self,
                                          _("The clipboard holds no text. Copy a server entry, such as "
                                            "{\"command\": \"npx\", \"args\": [\"-y\", \"…\"]}, and paste again."));
      return;
    }

  if (!plugboard_server_editor_load_json (self, text, &error))
    plugboard_server_editor_set_notice (self, error->message);
}

static void
on_paste_clicked_cb (PlugboardServerEditor *self)
{
  GdkClipboard *clipboard = gtk_widget_get_clipboard (GTK_WIDGET (self));

  gdk_clipboard_read_text_async (clipboard, NULL, on_clipboard_text_cb, g_object_ref (self));
}

static gboolean
is_entry_object (JsonObject *object)
{
  return json_object_has_member (object, "command") ||
         json_object_has_member (object, "type") ||
         json_object_has_member (object, "url");
}

static JsonNode *
parse_pasted (const char  *json,
              GError     **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) local_error = NULL;
  g_autofree char *text = g_strstrip (g_strdup (json));

  if (json_parser_load_from_data (parser, text, -1, &local_error))
    return json_node_ref (json_parser_get_root (parser));

  /* a member copied out of a file: "name": { … }, */
  if (text[0] == '"')
    {
      g_autoptr(JsonParser) wrapped_parser = json_parser_new ();
      g_autofree char *wrapped = NULL;
      gsize len = strlen (text);

      if (len > 0 && text[len - 1] == ',')
        text[len - 1] = '\0';
      wrapped = g_strconcat ("{", text, "}", NULL);
      if (json_parser_load_from_data (wrapped_parser, wrapped, -1, NULL))
        return json_node_ref (json_parser_get_root (wrapped_parser));
    }

  g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
               _("The pasted text is not JSON (%s). Paste a server entry, such as "
                 "{\"command\": \"npx\", \"args\": [\"-y\", \"…\"]}."),
               local_error->message);
  return NULL;
}

gboolean
plugboard_server_editor_load_json (PlugboardServerEditor  *self,
                                   const char             *json,
                                   GError                **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(McpServerConfig) check = NULL;
  g_autofree char *name = NULL;
  g_autofree char *json_path = NULL;
  JsonObject *object;

  g_return_val_if_fail (PLUGBOARD_IS_SERVER_EDITOR (self), FALSE);
  g_return_val_if_fail (json != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  root = parse_pasted (json, error);
  if (root == NULL)
    return FALSE;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   _("The pasted JSON is not an object. Paste a server entry, such as "
                     "{\"command\": \"npx\", \"args\": [\"-y\", \"…\"]}."));
      return FALSE;
    }

  object = json_node_get_object (root);
  json_path = g_strdup ("$");

  if (!is_entry_object (object) && json_object_has_member (object, "mcpServers") &&
      JSON_NODE_HOLDS_OBJECT (json_object_get_member (object, "mcpServers")))
    {
      object = json_object_get_object_member (object, "mcpServers");
      g_free (json_path);
      json_path = g_strdup ("$.mcpServers");
    }

  if (!is_entry_object (object) && json_object_get_size (object) > 0)
    {
      g_autoptr(GList) members = json_object_get_members (object);
      guint n = json_object_get_size (object);
      JsonNode *member = json_object_get_member (object, members->data);

      if (n > 1)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                       ngettext ("The pasted JSON holds %u server. Paste one server at a time.",
                                 "The pasted JSON holds %u servers. Paste one server at a time.",
                                 n),
                       n);
          return FALSE;
        }

      if (JSON_NODE_HOLDS_OBJECT (member))
        {
          g_autofree char *inner_path = mcp_json_path_append_member (json_path, members->data);

          name = g_strdup (members->data);
          object = json_node_get_object (member);
          g_free (json_path);
          json_path = g_steal_pointer (&inner_path);
        }
    }

  /* the engine says what is wrong with an entry */
  check = mcp_server_config_new_from_json (name != NULL && name[0] != '\0' ? name : "pasted",
                                           plugboard_server_editor_selected_scope (self), object,
                                           _("(pasted JSON)"), json_path, error);
  if (check == NULL)
    return FALSE;

  plugboard_server_editor_fill_fields (self, name, object);
  plugboard_server_editor_update_transport_groups (self);
  g_clear_pointer (&self->notice, g_free);
  plugboard_server_editor_field_changed (self, NULL);

  return TRUE;
}

void
plugboard_server_editor_class_init_paste (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, on_paste_clicked_cb);
}
