/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-server-editor"

/* PlugboardServerEditor's validation: the fields checked by the engine
 * as they change, the row a message is about marked, the message shown,
 * Save and Try made sensitive; the groups the transport shows, the file
 * the scope saves in; the name Try gives a server not named yet. */

#include "config.h"

#include "plugboard-server-editor-private.h"

#include <string.h>

#include <glib/gi18n.h>

#include "plugboard-common.h"

void
plugboard_server_editor_set_notice (PlugboardServerEditor *self,
                                    const char            *notice)
{
  g_free (self->notice);
  self->notice = g_strdup (notice);
  plugboard_server_editor_validate (self);
}

static void
show_message (PlugboardServerEditor *self,
              const char            *message)
{
  if (message != NULL)
    gtk_label_set_text (self->message_label, message);
  gtk_revealer_set_reveal_child (self->message_revealer, message != NULL);
}

/* Whether errors of @row show: every row of a server that exists (its
 * file says what it says), a new server's once the person changed it. */
static gboolean
touched (PlugboardServerEditor *self,
         GtkWidget             *row)
{
  return self->config != NULL || g_hash_table_contains (self->touched, row);
}

/* Marks the row @message is about, when it shows; returns whether the
 * message shows. */
static gboolean
mark_error_rows (PlugboardServerEditor *self,
                 const char            *message,
                 const char            *json_path)
{
  static const struct {
    const char *member;
    gsize offset;
  } members[] = {
    { ".command: ", G_STRUCT_OFFSET (PlugboardServerEditor, command_row) },
    { ".cwd: ", G_STRUCT_OFFSET (PlugboardServerEditor, cwd_row) },
    { ".url: ", G_STRUCT_OFFSET (PlugboardServerEditor, url_row) },
    { ".timeout: ", G_STRUCT_OFFSET (PlugboardServerEditor, connect_timeout_row) },
    { ".toolTimeout: ", G_STRUCT_OFFSET (PlugboardServerEditor, tool_timeout_row) },
    { ".oauth.clientId: ", G_STRUCT_OFFSET (PlugboardServerEditor, oauth_client_id_row) },
    { ".oauth.callbackPort: ", G_STRUCT_OFFSET (PlugboardServerEditor, oauth_port_row) },
    { ".oauth.grant: ", G_STRUCT_OFFSET (PlugboardServerEditor, oauth_method_row) },
    { ".oauth.tokenEndpointAuthMethod: ", G_STRUCT_OFFSET (PlugboardServerEditor, oauth_auth_method_row) },
    { ".oauth.clientSecret: ", G_STRUCT_OFFSET (PlugboardServerEditor, client_secret.entry_row) },
    { ".oauth.privateKey: ", G_STRUCT_OFFSET (PlugboardServerEditor, oauth_key_row) },
    { ".oauth.assertion", G_STRUCT_OFFSET (PlugboardServerEditor, oauth_assertion_row) },
    { ".oauth.idp.issuer: ", G_STRUCT_OFFSET (PlugboardServerEditor, oauth_idp_issuer_row) },
    { ".oauth.idp.tokenEndpoint: ", G_STRUCT_OFFSET (PlugboardServerEditor, oauth_idp_token_endpoint_row) },
    { ".oauth.idp.clientId: ", G_STRUCT_OFFSET (PlugboardServerEditor, oauth_idp_client_id_row) },
    { ".oauth.idp.clientSecret: ", G_STRUCT_OFFSET (PlugboardServerEditor, idp_secret.entry_row) },
    { ".oauth.idp.idToken", G_STRUCT_OFFSET (PlugboardServerEditor, oauth_id_token_row) },
    { ".oauth.dpop: ", G_STRUCT_OFFSET (PlugboardServerEditor, oauth_dpop_row) },
  };

  GtkWidget *concerned = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (members); i++)
    {
      GtkWidget *row = G_STRUCT_MEMBER (GtkWidget *, self, members[i].offset);
      g_autofree char *needle = NULL;

      needle = g_strconcat (": ", json_path, members[i].member, NULL);
      if (message != NULL && strstr (message, needle) != NULL)
        concerned = row;
      gtk_widget_remove_css_class (row, "error");
    }
  if (message != NULL && strstr (message, "non-empty name") != NULL)
    concerned = GTK_WIDGET (self->name_row);
  gtk_widget_remove_css_class (GTK_WIDGET (self->name_row), "error");

  if (concerned != NULL && touched (self, concerned))
    gtk_widget_add_css_class (concerned, "error");

  /* the message shows when it is about a row the person changed, or about
   * no row and anything was changed */
  return message != NULL &&
         (concerned != NULL ? touched (self, concerned)
                            : self->config != NULL || g_hash_table_size (self->touched) > 0);
}

static gboolean
name_taken (PlugboardServerEditor *self,
            const char            *name,
            McpConfigScope         scope)
{
  if (self->config != NULL &&
      g_strcmp0 (name, mcp_server_config_get_name (self->config)) == 0 &&
      scope == mcp_server_config_get_scope (self->config))
    return FALSE;

  return mcp_settings_lookup_in_scope (self->settings, name, scope) != NULL;
}

/* A name for a server tried before it was named: the address's host, or
 * the program (the last argument that is not an option: npx -y
 * @scope/server-everything is "server-everything"), made free in the
 * settings with "-2", "-3"… */
char *
plugboard_server_editor_dup_tried_name (PlugboardServerEditor *self,
                                        JsonObject            *entry)
{
  const char *url = plugboard_server_editor_string_member (entry, "url");
  const char *command = plugboard_server_editor_string_member (entry, "command");
  g_autofree char *base = NULL;
  g_autofree char *name = NULL;

  if (*url != '\0')
    {
      g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);

      if (uri != NULL && g_uri_get_host (uri) != NULL && *g_uri_get_host (uri) != '\0')
        base = g_strdup (g_uri_get_host (uri));
    }
  else if (*command != '\0')
    {
      JsonNode *args = json_object_get_member (entry, "args");
      const char *program = command;

      if (args != NULL && JSON_NODE_HOLDS_ARRAY (args))
        {
          JsonArray *array = json_node_get_array (args);

          for (guint i = json_array_get_length (array); i > 0; i--)
            {
              JsonNode *arg = json_array_get_element (array, i - 1);

              if (JSON_NODE_HOLDS_VALUE (arg) && json_node_get_value_type (arg) == G_TYPE_STRING &&
                  json_node_get_string (arg)[0] != '-' && json_node_get_string (arg)[0] != '\0')
                {
                  program = json_node_get_string (arg);
                  break;
                }
            }
        }
      base = g_path_get_basename (program);
      /* a package's version is not part of its name: server-x@1.2 */
      if (strchr (base + 1, '@') != NULL)
        *strchr (base + 1, '@') = '\0';
    }

  if (base == NULL || *base == '\0' || strcmp (base, ".") == 0 || strcmp (base, "/") == 0)
    {
      g_free (base);
      base = g_strdup ("server");
    }

  name = g_strdup (base);
  for (guint i = 2; mcp_settings_lookup (self->settings, name) != NULL; i++)
    {
      g_free (name);
      name = g_strdup_printf ("%s-%u", base, i);
    }

  return g_steal_pointer (&name);
}

/* What Try needs: a valid entry, the name may still be empty (Try makes
 * one). */
gboolean
plugboard_server_editor_can_try (PlugboardServerEditor *self)
{
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(McpServerConfig) check = NULL;
  g_autofree char *name = NULL;
  g_autofree char *sign_in = NULL;
  GtkWidget *row;

  /* a new secret is stored on Save only; a try would not find it */
  if (self->saving || plugboard_server_editor_has_new_secrets (self))
    return FALSE;
  sign_in = plugboard_server_editor_check_sign_in (self, &row);
  if (sign_in != NULL)
    return FALSE;

  name = plugboard_server_editor_dup_stripped (GTK_EDITABLE (self->name_row));
  entry = plugboard_server_editor_build_entry (self);
  check = mcp_server_config_new_from_json (*name != '\0' ? name : "server", MCP_CONFIG_SCOPE_USER,
                                           entry, NULL, NULL, NULL);
  return check != NULL;
}

void
plugboard_server_editor_validate (PlugboardServerEditor *self)
{
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *json_path = NULL;
  g_autofree char *taken = NULL;
  McpConfigScope scope;
  gboolean shown;

  if (self->loading || self->settings == NULL)
    return;

  name = plugboard_server_editor_dup_stripped (GTK_EDITABLE (self->name_row));
  scope = plugboard_server_editor_selected_scope (self);
  json_path = plugboard_server_editor_entry_json_path (self, name, scope);
  entry = plugboard_server_editor_dup_entry (self, &error);
  shown = mark_error_rows (self, error != NULL ? error->message : NULL, json_path);
  if (entry != NULL)
    {
      GtkWidget *row = NULL;
      g_autofree char *sign_in = plugboard_server_editor_check_sign_in (self, &row);

      /* the engine took the entry; what the Sign-In group needs besides */
      if (sign_in != NULL)
        {
          g_clear_pointer (&entry, json_object_unref);
          g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, sign_in);
          shown = touched (self, row) || g_hash_table_size (self->touched) > 0;
          if (touched (self, row))
            gtk_widget_add_css_class (row, "error");
        }
    }

  if (entry != NULL && name_taken (self, name, scope))
    {
      g_autofree char *file = plugboard_dup_display_path (mcp_settings_get_file (self->settings, scope));

      /* Translators: %s is a server's name, the second %s a file */
      taken = g_strdup_printf (_("There is already a server “%s” in this scope (%s). Choose another name or scope."),
                               name, file);
      gtk_widget_add_css_class (GTK_WIDGET (self->name_row), "error");
    }

  if (self->notice != NULL)
    show_message (self, self->notice);
  else if (error != NULL)
    show_message (self, shown ? error->message : NULL);
  else
    show_message (self, taken);

  gtk_widget_set_sensitive (GTK_WIDGET (self->save_button),
                            entry != NULL && taken == NULL && !self->saving);
  gtk_widget_set_sensitive (GTK_WIDGET (self->try_button), plugboard_server_editor_can_try (self));
}

void
plugboard_server_editor_update_transport_groups (PlugboardServerEditor *self)
{
  gboolean stdio = plugboard_server_editor_selected_transport (self) == TRANSPORT_STDIO;

  gtk_widget_set_visible (GTK_WIDGET (self->command_group), stdio);
  gtk_widget_set_visible (GTK_WIDGET (self->args_group), stdio);
  gtk_widget_set_visible (GTK_WIDGET (self->env_group), stdio);
  gtk_widget_set_visible (GTK_WIDGET (self->remote_group), !stdio);
  gtk_widget_set_visible (GTK_WIDGET (self->headers_group), !stdio);
  gtk_widget_set_visible (GTK_WIDGET (self->oauth_group), !stdio);
  plugboard_server_editor_update_sign_in_rows (self);
}

void
plugboard_server_editor_update_saved_in (PlugboardServerEditor *self)
{
  g_autofree char *file = NULL;
  g_autofree char *description = NULL;

  if (self->settings == NULL)
    return;

  file = plugboard_dup_display_path (mcp_settings_get_file (self->settings,
                                                            plugboard_server_editor_selected_scope (self)));
  /* Translators: %s is a settings file */
  description = g_strdup_printf (_("Saved in %s"), file);
  adw_preferences_group_set_description (self->server_group, description);
}

void
plugboard_server_editor_field_changed (PlugboardServerEditor *self,
                                       GtkWidget             *row)
{
  AdwEntryRow *variable_rows[] = { self->command_row, self->cwd_row, self->url_row };

  if (row != NULL && !self->loading)
    g_hash_table_add (self->touched, row);
  g_clear_pointer (&self->notice, g_free);
  for (guint i = 0; i < G_N_ELEMENTS (variable_rows); i++)
    plugboard_server_editor_update_variable_tooltip (GTK_WIDGET (variable_rows[i]),
                                                     gtk_editable_get_text (GTK_EDITABLE (variable_rows[i])),
                                                     FALSE);
  plugboard_server_editor_validate (self);
}

static void
on_scope_changed_cb (PlugboardServerEditor *self)
{
  plugboard_server_editor_update_saved_in (self);
  plugboard_server_editor_field_changed (self, NULL);
}

static void
on_transport_changed_cb (PlugboardServerEditor *self)
{
  plugboard_server_editor_update_transport_groups (self);
  plugboard_server_editor_field_changed (self, NULL);
}

void
plugboard_server_editor_class_init_validate (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback_full (widget_class, "on_field_changed_cb",
                                                G_CALLBACK (plugboard_server_editor_field_changed));
  gtk_widget_class_bind_template_callback (widget_class, on_scope_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_transport_changed_cb);
}
