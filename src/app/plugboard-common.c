/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-common"

#include "config.h"

#include "plugboard-common.h"

#include <glib/gi18n.h>

#include "mcp-config-file.h"
#include "mcp-json-private.h"
#include "mcp-redact.h"
#include "mcp-url-policy.h"

#include <string.h>

void
plugboard_style_ensure (GtkWidget *widget)
{
  GdkDisplay *display = gtk_widget_get_display (widget);
  g_autoptr(GtkCssProvider) provider = NULL;

  if (display == NULL || g_object_get_data (G_OBJECT (display), "plugboard-css") != NULL)
    return;

  provider = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (provider, "/org/plugboard/Plugboard/plugboard.css");
  gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  g_object_set_data_full (G_OBJECT (display), "plugboard-css",
                          g_steal_pointer (&provider), g_object_unref);
}

char *
plugboard_dup_display_path (const char *path)
{
  const char *home = g_get_home_dir ();
  gsize len = strlen (home);

  if (path == NULL)
    return g_strdup ("");

  if (len > 1 && g_str_has_prefix (path, home) && path[len] == G_DIR_SEPARATOR)
    return g_strconcat ("~", path + len, NULL);

  return g_strdup (path);
}

const char *
plugboard_role_label (const char *role,
                      const char *missing)
{
  if (g_strcmp0 (role, "user") == 0)
    return _("User");
  if (g_strcmp0 (role, "assistant") == 0)
    return _("Assistant");
  return role != NULL ? role : missing;
}

const char *
plugboard_config_place_label (McpServerConfig *config)
{
  if (!mcp_server_config_get_saved (config))
    /* Translators: where the scope ("User") of a server is said, for a server being tried */
    return _("Not saved");

  return plugboard_scope_label (mcp_server_config_get_scope (config));
}

const char *
plugboard_scope_label (McpConfigScope scope)
{
  switch (scope)
    {
    case MCP_CONFIG_SCOPE_USER:
      return _("User");
    case MCP_CONFIG_SCOPE_PROJECT:
      return _("Project");
    case MCP_CONFIG_SCOPE_LOCAL:
      return _("Local");
    default:
      return "";
    }
}

void
plugboard_append_shell_word (GString    *line,
                             const char *word)
{
  gboolean plain = *word != '\0';

  for (const char *p = word; *p != '\0' && plain; p++)
    plain = g_ascii_isalnum (*p) || strchr ("-_./:=@%+,", *p) != NULL;

  if (line->len > 0)
    g_string_append_c (line, ' ');

  if (plain)
    {
      g_string_append (line, word);
    }
  else
    {
      g_autofree char *quoted = g_shell_quote (word);

      g_string_append (line, quoted);
    }
}

char *
plugboard_dup_json (JsonNode *node,
                    gboolean  pretty)
{
  GString *text;

  g_return_val_if_fail (node != NULL, NULL);

  /* The protocol's writer, not json-glib's generator: numbers as servers
   * wrote them (0.7, not 0.69999999999999996), as plugboard-cli prints
   * them. */
  text = g_string_new (NULL);
  if (pretty)
    mcp_json_append_pretty (text, node);
  else
    mcp_json_append (text, node);
  return g_string_free (text, FALSE);
}

char *
plugboard_dup_what_runs (McpServerConfig *config)
{
  const char * const *args;
  GString *line;

  switch (mcp_server_config_get_transport (config))
    {
    case MCP_TRANSPORT_KIND_STDIO:
      line = g_string_new (NULL);
      plugboard_append_shell_word (line, mcp_server_config_get_command (config));
      args = mcp_server_config_get_args (config);
      for (guint i = 0; args != NULL && args[i] != NULL; i++)
        plugboard_append_shell_word (line, args[i]);
      return g_string_free (line, FALSE);

    case MCP_TRANSPORT_KIND_HTTP:
    case MCP_TRANSPORT_KIND_SSE:
    case MCP_TRANSPORT_KIND_WS:
      /* Shown, never its user info or query values (the editor has them) */
      return mcp_redact_url (mcp_server_config_get_url (config));

    case MCP_TRANSPORT_KIND_SSE_IDE:
    case MCP_TRANSPORT_KIND_WS_IDE:
    default:
      return g_strdup (_("The editor’s own server, found through its lock file"));
    }
}

static gboolean
guarded_link_cb (GtkLabel   *label,
                 const char *uri,
                 gpointer    user_data)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (label));
  g_autoptr(GError) refused = NULL;

  if (!mcp_url_policy_check (uri, MCP_URL_USE_BROWSER, NULL, &refused))
    {
      gtk_widget_activate_action (GTK_WIDGET (label), "win.toast", "s", refused->message);
      return TRUE;
    }

  gtk_show_uri (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, uri, GDK_CURRENT_TIME);
  return TRUE;
}

void
plugboard_label_guard_links (GtkLabel *label)
{
  g_return_if_fail (GTK_IS_LABEL (label));

  g_signal_connect (label, "activate-link", G_CALLBACK (guarded_link_cb), NULL);
}

GtkWidget *
plugboard_message_label_new (const char *text,
                             const char *css_class,
                             gboolean    selectable)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), selectable);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

char *
plugboard_json_object_to_text (JsonObject *object,
                               gboolean    pretty)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);

  json_node_set_object (node, object);
  return plugboard_dup_json (node, pretty);
}

static void
on_url_command_done_cb (GObject      *object,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!g_subprocess_wait_check_finish (G_SUBPROCESS (object), result, &error))
    g_debug ("Opening an address: %s", error->message);
}

gboolean
plugboard_run_url_command (const char  *command,
                           const char  *url,
                           char       **out_program,
                           GError     **error)
{
  g_auto(GStrv) argv = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) full = NULL;
  g_autoptr(GSubprocess) process = NULL;

  g_return_val_if_fail (command != NULL && url != NULL, FALSE);

  if (!g_shell_parse_argv (command, NULL, &argv, error))
    return FALSE;
  g_strv_builder_addv (builder, (const char **) argv);
  g_strv_builder_add (builder, url);
  full = g_strv_builder_end (builder);
  if (out_program != NULL)
    *out_program = g_strdup (full[0]);

  process = g_subprocess_newv ((const char * const *) full, G_SUBPROCESS_FLAGS_NONE, error);
  if (process == NULL)
    return FALSE;
  g_subprocess_wait_check_async (process, NULL, on_url_command_done_cb, NULL);
  return TRUE;
}

static void
write_file_thread (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  GFile *target = source_object;
  g_autofree char *path = g_file_get_path (target);
  g_autoptr(GError) error = NULL;

  if (!mcp_config_file_replace (path, task_data, 0644, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

static void
write_file_gio_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!g_file_replace_contents_finish (G_FILE (object), result, NULL, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

void
plugboard_write_file_async (GFile               *target,
                            GBytes              *bytes,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (G_IS_FILE (target));
  g_return_if_fail (bytes != NULL);

  task = g_task_new (target, cancellable, callback, user_data);
  g_task_set_source_tag (task, plugboard_write_file_async);
  g_task_set_task_data (task, g_bytes_ref (bytes), (GDestroyNotify) g_bytes_unref);

  if (g_file_is_native (target))
    {
      g_task_run_in_thread (task, write_file_thread);
      return;
    }
  g_file_replace_contents_bytes_async (target, bytes, NULL, FALSE,
                                       G_FILE_CREATE_REPLACE_DESTINATION,
                                       cancellable, write_file_gio_cb, g_steal_pointer (&task));
}

gboolean
plugboard_write_file_finish (GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == plugboard_write_file_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
plugboard_show_url (GtkWindow  *parent,
                    const char *url)
{
  const char *command = g_getenv ("PLUGBOARD_TEST_OPEN_URL_COMMAND");

  if (command != NULL && command[0] != '\0')
    {
      g_autoptr(GError) error = NULL;

      if (!plugboard_run_url_command (command, url, NULL, &error))
        g_debug ("PLUGBOARD_TEST_OPEN_URL_COMMAND: %s", error->message);
      return;
    }
  gtk_show_uri (parent, url, GDK_CURRENT_TIME);
}
