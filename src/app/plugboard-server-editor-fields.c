/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-server-editor"

/* PlugboardServerEditor's fields and the entry: the "mcpServers" entry
 * the fields make (keeping the keys the editor does not know), the fields
 * filled from an entry, and the entry checked by the engine. */

#include "config.h"

#include "plugboard-server-editor-private.h"

char *
plugboard_server_editor_dup_stripped (GtkEditable *editable)
{
  return g_strstrip (g_strdup (gtk_editable_get_text (editable)));
}

static char *
object_to_string (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonGenerator) generator = json_generator_new ();

  json_node_set_object (node, object);
  json_generator_set_root (generator, node);

  return json_generator_to_data (generator, NULL);
}

/* A deep copy that keeps member order (json_node_copy() shares objects:
 * the engine's configs must never change under it). */
static JsonObject *
copy_object (JsonObject *object)
{
  g_autofree char *text = object_to_string (object);
  g_autoptr(JsonNode) copy = json_from_string (text, NULL);

  g_assert (copy != NULL && JSON_NODE_HOLDS_OBJECT (copy));

  return json_object_ref (json_node_get_object (copy));
}

/* A whole number when the text is one, else the text itself, so that the
 * engine says what is wrong with it. */
static void
set_number_member (JsonObject *object,
                   const char *member,
                   const char *text)
{
  gint64 value;

  if (text[0] == '\0')
    {
      json_object_remove_member (object, member);
      return;
    }

  if (g_ascii_string_to_signed (text, 10, G_MININT64, G_MAXINT64, &value, NULL))
    json_object_set_int_member (object, member, value);
  else
    json_object_set_string_member (object, member, text);
}

static char *
number_member_to_text (JsonObject *object,
                       const char *member)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return g_strdup ("");

  if (json_node_get_value_type (node) == G_TYPE_INT64)
    return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
  if (json_node_get_value_type (node) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (node));

  return g_strdup ("");
}

const char *
plugboard_server_editor_string_member (JsonObject *object,
                                       const char *member)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return "";

  return json_node_get_string (node);
}

guint
plugboard_server_editor_selected_transport (PlugboardServerEditor *self)
{
  guint selected = adw_combo_row_get_selected (self->transport_row);

  return selected <= TRANSPORT_WS ? selected : TRANSPORT_STDIO;
}

McpConfigScope
plugboard_server_editor_selected_scope (PlugboardServerEditor *self)
{
  GObject *item = adw_combo_row_get_selected_item (self->scope_row);

  return item != NULL ? GPOINTER_TO_UINT (g_object_get_data (item, "scope")) : MCP_CONFIG_SCOPE_USER;
}

static gboolean
scope_offered (gpointer item,
               gpointer user_data)
{
  PlugboardServerEditor *self = user_data;

  return self->settings == NULL ||
         mcp_settings_has_scope (self->settings, GPOINTER_TO_UINT (g_object_get_data (item, "scope")));
}

void
plugboard_server_editor_set_up_scopes (PlugboardServerEditor *self)
{
  GListModel *scopes = adw_combo_row_get_model (self->scope_row);
  GtkFilterListModel *offered;

  /* the template's items are the scopes in enum order */
  for (guint i = 0; i < g_list_model_get_n_items (scopes); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (scopes, i);

      g_object_set_data (item, "scope", GUINT_TO_POINTER (i));
    }

  offered = gtk_filter_list_model_new (g_object_ref (scopes),
                                       GTK_FILTER (gtk_custom_filter_new (scope_offered, self, NULL)));
  adw_combo_row_set_model (self->scope_row, G_LIST_MODEL (offered));
  g_object_unref (offered);
}

void
plugboard_server_editor_select_scope (PlugboardServerEditor *self,
                                      McpConfigScope         scope)
{
  GListModel *offered = adw_combo_row_get_model (self->scope_row);

  for (guint i = 0; i < g_list_model_get_n_items (offered); i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (offered, i);

      if (GPOINTER_TO_UINT (g_object_get_data (item, "scope")) == scope)
        {
          adw_combo_row_set_selected (self->scope_row, i);
          return;
        }
    }

  adw_combo_row_set_selected (self->scope_row, 0);
}

static guint
transport_index_for_type (const char *type)
{
  if (g_strcmp0 (type, "http") == 0)
    return TRANSPORT_HTTP;
  if (g_strcmp0 (type, "sse") == 0 || g_strcmp0 (type, "sse-ide") == 0)
    return TRANSPORT_SSE;
  if (g_strcmp0 (type, "ws") == 0 || g_strcmp0 (type, "ws-ide") == 0)
    return TRANSPORT_WS;
  return TRANSPORT_STDIO;
}

static JsonObject *
pairs_to_object (PlugboardServerEditor *self,
                 GtkListBox            *list)
{
  g_autoptr(GPtrArray) rows = plugboard_server_editor_list_rows (self, list);
  JsonObject *object = json_object_new ();

  for (guint i = 0; i < rows->len; i++)
    {
      GtkEditable *name_entry = g_object_get_data (G_OBJECT (rows->pdata[i]), "name-entry");
      g_autofree char *name = plugboard_server_editor_dup_stripped (name_entry);
      const char *value = gtk_editable_get_text (GTK_EDITABLE (rows->pdata[i]));

      /* a row added and left empty is no entry */
      if (name[0] == '\0' && value[0] == '\0')
        continue;
      json_object_set_string_member (object, name, value);
    }

  return object;
}

static void
set_or_remove_object (JsonObject *entry,
                      const char *member,
                      JsonObject *value)
{
  if (json_object_get_size (value) > 0)
    json_object_set_object_member (entry, member, json_object_ref (value));
  else if (json_object_has_member (entry, member))
    json_object_remove_member (entry, member);
}

static void
remove_members (JsonObject         *object,
                const char * const *members)
{
  for (guint i = 0; members[i] != NULL; i++)
    {
      if (json_object_has_member (object, members[i]))
        json_object_remove_member (object, members[i]);
    }
}

/* The entry the fields make, without checking it. */
JsonObject *
plugboard_server_editor_build_entry (PlugboardServerEditor *self)
{
  static const char * const stdio_members[] = { "command", "args", "env", "cwd", NULL };
  static const char * const remote_members[] = { "url", "headers", "oauth", NULL };
  g_autoptr(JsonObject) entry = NULL;
  guint transport = plugboard_server_editor_selected_transport (self);
  const char *base_type = plugboard_server_editor_string_member (self->base, "type");
  g_autofree char *connect_timeout = NULL;
  g_autofree char *tool_timeout = NULL;

  entry = self->base != NULL ? copy_object (self->base) : json_object_new ();
  connect_timeout = plugboard_server_editor_dup_stripped (GTK_EDITABLE (self->connect_timeout_row));
  tool_timeout = plugboard_server_editor_dup_stripped (GTK_EDITABLE (self->tool_timeout_row));

  if (transport == TRANSPORT_STDIO)
    {
      g_autofree char *command = plugboard_server_editor_dup_stripped (GTK_EDITABLE (self->command_row));
      g_autofree char *cwd = plugboard_server_editor_dup_stripped (GTK_EDITABLE (self->cwd_row));
      g_autoptr(GPtrArray) rows = plugboard_server_editor_list_rows (self, self->args_list);
      g_autoptr(JsonObject) env = pairs_to_object (self, self->env_list);

      remove_members (entry, remote_members);
      /* "type" stays out unless the entry had one */
      if (json_object_has_member (entry, "type"))
        json_object_set_string_member (entry, "type", "stdio");
      json_object_set_string_member (entry, "command", command);

      if (rows->len > 0)
        {
          JsonArray *args = json_array_new ();

          for (guint i = 0; i < rows->len; i++)
            json_array_add_string_element (args, gtk_editable_get_text (rows->pdata[i]));
          json_object_set_array_member (entry, "args", args);
        }
      else if (json_object_has_member (entry, "args"))
        {
          json_object_remove_member (entry, "args");
        }

      set_or_remove_object (entry, "env", env);

      if (cwd[0] != '\0')
        json_object_set_string_member (entry, "cwd", cwd);
      else if (json_object_has_member (entry, "cwd"))
        json_object_remove_member (entry, "cwd");
    }
  else
    {
      static const char * const types[] = { "stdio", "http", "sse", "ws" };
      g_autofree char *url = plugboard_server_editor_dup_stripped (GTK_EDITABLE (self->url_row));
      g_autofree char *client_id = plugboard_server_editor_dup_stripped (GTK_EDITABLE (self->oauth_client_id_row));
      g_autofree char *port = plugboard_server_editor_dup_stripped (GTK_EDITABLE (self->oauth_port_row));
      g_autofree char *scopes_text = plugboard_server_editor_dup_stripped (GTK_EDITABLE (self->oauth_scopes_row));
      g_autoptr(JsonObject) headers = pairs_to_object (self, self->headers_list);
      g_autoptr(JsonObject) oauth = NULL;
      g_autofree char *name = NULL;
      JsonObject *base_oauth = NULL;
      const char *type = types[transport];

      remove_members (entry, stdio_members);

      /* an IDE entry keeps its own kind while the transport is not changed */
      if (transport_index_for_type (base_type) == transport && g_str_has_suffix (base_type, "-ide"))
        type = base_type;

      json_object_set_string_member (entry, "type", type);
      json_object_set_string_member (entry, "url", url);
      set_or_remove_object (entry, "headers", headers);

      if (self->base != NULL && json_object_has_member (self->base, "oauth") &&
          JSON_NODE_HOLDS_OBJECT (json_object_get_member (self->base, "oauth")))
        base_oauth = json_object_get_object_member (self->base, "oauth");
      oauth = base_oauth != NULL ? copy_object (base_oauth) : json_object_new ();

      if (client_id[0] != '\0')
        json_object_set_string_member (oauth, "clientId", client_id);
      else if (json_object_has_member (oauth, "clientId"))
        json_object_remove_member (oauth, "clientId");

      if (port[0] != '\0' || json_object_has_member (oauth, "callbackPort"))
        set_number_member (oauth, "callbackPort", port);

      if (scopes_text[0] != '\0')
        {
          g_auto(GStrv) scopes = g_strsplit_set (scopes_text, " \t\n", -1);
          JsonArray *array = json_array_new ();

          for (guint i = 0; scopes[i] != NULL; i++)
            {
              if (scopes[i][0] != '\0')
                json_array_add_string_element (array, scopes[i]);
            }
          json_object_set_array_member (oauth, "scopes", array);
        }
      else if (json_object_has_member (oauth, "scopes"))
        {
          json_object_remove_member (oauth, "scopes");
        }

      name = plugboard_server_editor_dup_stripped (GTK_EDITABLE (self->name_row));
      plugboard_server_editor_build_oauth (self, name, oauth);

      if (json_object_get_size (oauth) > 0 || base_oauth != NULL)
        json_object_set_object_member (entry, "oauth", g_steal_pointer (&oauth));
    }

  if (connect_timeout[0] != '\0' || json_object_has_member (entry, "timeout"))
    set_number_member (entry, "timeout", connect_timeout);
  if (tool_timeout[0] != '\0' || json_object_has_member (entry, "toolTimeout"))
    set_number_member (entry, "toolTimeout", tool_timeout);

  return g_steal_pointer (&entry);
}

char *
plugboard_server_editor_entry_json_path (PlugboardServerEditor *self,
                                         const char            *name,
                                         McpConfigScope         scope)
{
  return mcp_settings_dup_entry_json_path (self->settings, name, scope);
}

static void
fill_pairs (PlugboardServerEditor *self,
            GtkListBox            *list,
            JsonObject            *entry,
            const char            *member)
{
  JsonNode *node = json_object_get_member (entry, member);
  JsonObjectIter iter;
  const char *key;
  JsonNode *value;

  plugboard_server_editor_clear_list (self, list);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return;

  json_object_iter_init_ordered (&iter, json_node_get_object (node));
  while (json_object_iter_next_ordered (&iter, &key, &value))
    {
      if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING)
        plugboard_server_editor_add_pair_row (self, list, key, json_node_get_string (value), -1);
    }
}

/* Fills every field from @entry, which the engine accepted. */
void
plugboard_server_editor_fill_fields (PlugboardServerEditor *self,
                                     const char            *name,
                                     JsonObject            *entry)
{
  JsonObject *oauth = NULL;
  JsonNode *node;
  g_autofree char *port = NULL;
  g_autofree char *connect_timeout = NULL;
  g_autofree char *tool_timeout = NULL;

  self->loading = TRUE;

  g_clear_pointer (&self->base, json_object_unref);
  self->base = copy_object (entry);

  if (name != NULL)
    gtk_editable_set_text (GTK_EDITABLE (self->name_row), name);

  adw_combo_row_set_selected (self->transport_row,
                              transport_index_for_type (json_object_has_member (entry, "type")
                                                        ? plugboard_server_editor_string_member (entry, "type")
                                                        : NULL));

  gtk_editable_set_text (GTK_EDITABLE (self->command_row),
                         plugboard_server_editor_string_member (entry, "command"));
  gtk_editable_set_text (GTK_EDITABLE (self->cwd_row),
                         plugboard_server_editor_string_member (entry, "cwd"));
  gtk_editable_set_text (GTK_EDITABLE (self->url_row),
                         plugboard_server_editor_string_member (entry, "url"));

  plugboard_server_editor_clear_list (self, self->args_list);
  node = json_object_get_member (entry, "args");
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *args = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (args); i++)
        plugboard_server_editor_add_arg_row (self, json_array_get_string_element (args, i));
    }

  fill_pairs (self, self->env_list, entry, "env");
  fill_pairs (self, self->headers_list, entry, "headers");

  node = json_object_get_member (entry, "oauth");
  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    oauth = json_node_get_object (node);
  gtk_editable_set_text (GTK_EDITABLE (self->oauth_client_id_row),
                         plugboard_server_editor_string_member (oauth, "clientId"));
  port = number_member_to_text (oauth, "callbackPort");
  gtk_editable_set_text (GTK_EDITABLE (self->oauth_port_row), port);
  node = oauth != NULL ? json_object_get_member (oauth, "scopes") : NULL;
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
      g_auto(GStrv) scopes = NULL;
      g_autofree char *joined = NULL;

      for (guint i = 0; i < json_array_get_length (array); i++)
        g_strv_builder_add (builder, json_array_get_string_element (array, i));
      scopes = g_strv_builder_end (builder);
      joined = g_strjoinv (" ", scopes);
      gtk_editable_set_text (GTK_EDITABLE (self->oauth_scopes_row), joined);
    }
  else
    {
      gtk_editable_set_text (GTK_EDITABLE (self->oauth_scopes_row), "");
    }
  plugboard_server_editor_fill_sign_in (self, oauth);

  connect_timeout = number_member_to_text (entry, "timeout");
  tool_timeout = number_member_to_text (entry, "toolTimeout");
  gtk_editable_set_text (GTK_EDITABLE (self->connect_timeout_row), connect_timeout);
  gtk_editable_set_text (GTK_EDITABLE (self->tool_timeout_row), tool_timeout);

  self->loading = FALSE;
}

JsonObject *
plugboard_server_editor_dup_entry (PlugboardServerEditor  *self,
                                   GError                **error)
{
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(McpServerConfig) check = NULL;
  g_autofree char *name = NULL;
  g_autofree char *json_path = NULL;
  McpConfigScope scope;

  g_return_val_if_fail (PLUGBOARD_IS_SERVER_EDITOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  name = plugboard_server_editor_dup_stripped (GTK_EDITABLE (self->name_row));
  scope = plugboard_server_editor_selected_scope (self);
  json_path = plugboard_server_editor_entry_json_path (self, name, scope);
  entry = plugboard_server_editor_build_entry (self);

  check = mcp_server_config_new_from_json (name, scope, entry,
                                           mcp_settings_get_file (self->settings, scope),
                                           json_path, error);
  if (check == NULL)
    return NULL;

  return g_steal_pointer (&entry);
}
