/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-server-page"

/* PlugboardServerPage's Overview cards: what the server says of itself
 * (name, version, protocol, capabilities, instructions), its settings
 * (transport, command or URL, scope, file), its own permission rule, the
 * roots it is offered, and its latency with the Ping button. */

#include "config.h"

#include "plugboard-server-page-private.h"

#include <glib/gi18n.h>

#include "mcp-server-info.h"
#include "plugboard-common.h"
#include "plugboard-markdown.h"

static const char *
transport_to_label (McpTransportKind kind)
{
  switch (kind)
    {
    case MCP_TRANSPORT_KIND_STDIO:
      return _("Local program (stdio)");
    case MCP_TRANSPORT_KIND_HTTP:
      return _("Remote server (HTTP)");
    case MCP_TRANSPORT_KIND_SSE:
      return _("Remote server (server-sent events)");
    case MCP_TRANSPORT_KIND_WS:
      return _("Remote server (WebSocket)");
    case MCP_TRANSPORT_KIND_SSE_IDE:
      return _("Editor or IDE (server-sent events)");
    case MCP_TRANSPORT_KIND_WS_IDE:
      return _("Editor or IDE (WebSocket)");
    default:
      g_assert_not_reached ();
    }
}

static const char *
capability_to_label (const char *member)
{
  static const struct { const char *member; const char *label; } labels[] = {
    { "tools", N_("Tools") },
    { "resources", N_("Resources") },
    { "prompts", N_("Prompts") },
    { "logging", N_("Logging") },
    { "completions", N_("Completions") },
    { "tasks", N_("Tasks") },
    { "experimental", N_("Experimental") },
  };

  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    if (g_str_equal (member, labels[i].member))
      return _(labels[i].label);

  return member;
}

static void
add_tag (PlugboardServerPage *self,
         const char          *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_widget_add_css_class (label, "plugboard-tag");
  gtk_flow_box_append (self->capabilities_box, label);
  gtk_widget_set_focusable (gtk_widget_get_parent (label), FALSE);
  gtk_widget_set_halign (gtk_widget_get_parent (label), GTK_ALIGN_START);
}

/* The settings' transport, and the one in use when the engine fell back
 * from it (a "type": "http" server that speaks only legacy HTTP+SSE). */
static void
update_transport_label (PlugboardServerPage *self)
{
  McpServerConfig *config = mcp_server_connection_get_config (self->connection);
  const char *configured = transport_to_label (mcp_server_config_get_transport (config));
  g_autofree char *description = NULL;
  g_autofree char *text = NULL;

  if (mcp_server_connection_get_transport_fallback (self->connection) == NULL)
    {
      gtk_label_set_text (self->transport_label, configured);
      return;
    }

  description = mcp_server_connection_dup_transport_description (self->connection);
  /* Translators: the transport of the settings, then the one in use, e.g.
   * “Remote server (HTTP), connected over legacy HTTP+SSE (the server
   * refused Streamable HTTP: HTTP 404)”. */
  text = g_strdup_printf (_("%s, connected over %s"), configured, description);
  gtk_label_set_text (self->transport_label, text);
}

void
plugboard_server_page_update_info (PlugboardServerPage *self)
{
  McpClient *client = mcp_server_connection_get_client (self->connection);
  McpServerInfo *info = client != NULL ? mcp_client_get_server_info (client) : NULL;
  GtkWidget *child;
  JsonObject *capabilities;
  g_autoptr(GList) members = NULL;
  const char *name;
  const char *title;
  const char *version;
  const char *instructions;

  update_transport_label (self);
  if (info == NULL || mcp_server_connection_get_state (self->connection) != MCP_SERVER_STATE_CONNECTED)
    {
      gtk_widget_set_visible (self->info_group, FALSE);
      return;
    }

  name = mcp_server_info_get_name (info);
  title = mcp_server_info_get_title (info);
  if (title != NULL && g_strcmp0 (title, name) != 0)
    {
      g_autofree char *text = g_strdup_printf ("%s (%s)", title, name != NULL ? name : "");

      gtk_label_set_text (self->server_name_label, text);
    }
  else
    {
      gtk_label_set_text (self->server_name_label, name != NULL ? name : "");
    }

  version = mcp_server_info_get_version (info);
  gtk_label_set_text (self->server_version_label, version != NULL ? version : "");
  gtk_widget_set_visible (self->server_version_row, version != NULL && *version != '\0');

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->capabilities_box))) != NULL)
    gtk_flow_box_remove (self->capabilities_box, child);

  capabilities = mcp_server_info_get_capabilities (info);
  if (capabilities != NULL)
    members = json_object_get_members (capabilities);
  for (GList *l = members; l != NULL; l = l->next)
    add_tag (self, capability_to_label (l->data));
  if (members == NULL)
    add_tag (self, _("None"));

  instructions = mcp_server_info_get_instructions (info);
  /* Markdown, as servers write them (they showed raw) */
  if (instructions != NULL && plugboard_markdown_detect (instructions))
    {
      g_autofree char *markup = plugboard_markdown_to_pango (instructions);

      gtk_label_set_markup (self->instructions_label, markup);
    }
  else
    gtk_label_set_text (self->instructions_label, instructions != NULL ? instructions : "");
  gtk_widget_set_visible (self->instructions_row, instructions != NULL && *instructions != '\0');

  gtk_widget_set_visible (self->info_group, TRUE);
}

/* The server's own rule ("mcp__NAME") as the settings hold it. */
void
plugboard_server_page_update_server_rule (PlugboardServerPage *self)
{
  g_autofree char *rule = NULL;
  guint selected = 0;

  if (self->settings == NULL || self->connection == NULL)
    return;

  rule = mcp_tool_pool_make_server_rule (mcp_server_connection_get_name (self->connection));
  /* deny > ask > allow, as the evaluator reads them */
  if (g_strv_contains (mcp_settings_get_permissions_deny (self->settings), rule))
    selected = 3;
  else if (g_strv_contains (mcp_settings_get_permissions_ask (self->settings), rule))
    selected = 2;
  else if (g_strv_contains (mcp_settings_get_permissions_allow (self->settings), rule))
    selected = 1;
  self->setting_rule = TRUE;
  gtk_drop_down_set_selected (self->server_rule_dropdown, selected);
  self->setting_rule = FALSE;
}

static void
on_server_rule_selected_cb (PlugboardServerPage *self)
{
  static const char * const lists[] = { "none", "allow", "ask", "deny" };
  guint selected = gtk_drop_down_get_selected (self->server_rule_dropdown);

  if (self->setting_rule || self->connection == NULL || selected >= G_N_ELEMENTS (lists))
    return;
  gtk_widget_activate_action (GTK_WIDGET (self), "win.set-server-rule", "(ss)",
                              mcp_server_connection_get_name (self->connection), lists[selected]);
}

void
plugboard_server_page_update_settings (PlugboardServerPage *self)
{
  McpServerConfig *config = mcp_server_connection_get_config (self->connection);
  McpConfigScope scope = mcp_server_config_get_scope (config);
  g_autofree char *what = plugboard_dup_what_runs (config);
  g_autofree char *file = plugboard_dup_display_path (mcp_server_config_get_file (config));
  g_autofree char *subtitle = NULL;
  const char *cwd = mcp_server_config_get_cwd (config);
  const char *scope_label = plugboard_scope_label (scope);
  gboolean saved = mcp_server_config_get_saved (config);

  gtk_label_set_text (self->name_label, mcp_server_connection_get_name (self->connection));
  if (saved)
    /* Translators: "User scope · Local program (stdio)". */
    subtitle = g_strdup_printf (_("%s scope · %s"), scope_label,
                                transport_to_label (mcp_server_config_get_transport (config)));
  else
    /* Translators: a server tried without saving it: "Not saved · Local program (stdio)". */
    subtitle = g_strdup_printf (_("Not saved · %s"),
                                transport_to_label (mcp_server_config_get_transport (config)));
  gtk_widget_set_visible (self->tried_list, !saved);
  gtk_label_set_text (self->subtitle_label, subtitle);

  update_transport_label (self);
  gtk_label_set_text (self->command_title_label,
                      mcp_server_config_get_transport (config) == MCP_TRANSPORT_KIND_STDIO
                        ? _("Command")
                        : mcp_server_config_is_remote (config) ? _("URL") : _("Connection"));
  gtk_label_set_text (self->command_setting_label, what);
  gtk_label_set_text (self->cwd_label, cwd != NULL ? cwd : "");
  gtk_widget_set_visible (self->cwd_row, cwd != NULL && *cwd != '\0');
  gtk_label_set_text (self->scope_label, saved ? scope_label : _("None: not saved"));
  gtk_label_set_text (self->file_label, saved ? file : _("None: not saved"));
}

/* The folders the server is offered when it asks (roots/list): the
 * engine decides them by the server's scope. */
void
plugboard_server_page_update_roots (PlugboardServerPage *self)
{
  McpServerConfig *config = self->connection != NULL ? mcp_server_connection_get_config (self->connection) : NULL;
  g_auto(GStrv) paths = NULL;
  g_autofree char *text = NULL;

  gtk_widget_set_visible (self->roots_row, self->roots != NULL && config != NULL);
  if (self->roots == NULL || config == NULL)
    return;

  paths = mcp_roots_dup_paths (self->roots, mcp_server_connection_get_name (self->connection),
                               mcp_server_config_get_scope (config));
  if (paths[0] == NULL)
    text = g_strdup (_("None: the server works where its own settings say"));
  else
    text = g_strjoinv ("\n", paths);
  gtk_label_set_text (self->roots_label, text);
}

/* The last ping's round trip, and when the server was last heard from
 * (any message). */
void
plugboard_server_page_update_latency (PlugboardServerPage *self)
{
  McpClient *client = self->connection != NULL ? mcp_server_connection_get_client (self->connection) : NULL;
  gint64 last = client != NULL ? mcp_client_get_last_contact (client) : 0;
  g_autofree char *contact = NULL;
  g_autofree char *text = NULL;

  gtk_widget_set_sensitive (self->ping_button, client != NULL && self->ping_cancellable == NULL);
  if (last > 0)
    {
      g_autoptr(GDateTime) when = g_date_time_new_from_unix_local (last / G_USEC_PER_SEC);
      g_autofree char *time = g_date_time_format (when, "%X");

      /* Translators: %s is a time of day */
      contact = g_strdup_printf (_("last message at %s"), time);
    }

  if (self->ping_cancellable != NULL)
    text = g_strdup (_("Pinging…"));
  else if (self->latency != NULL && contact != NULL)
    /* Translators: the first %s is a ping's outcome ("12 ms"), the second when the server was last heard from */
    text = g_strdup_printf (_("%s; %s"), self->latency, contact);
  else if (self->latency != NULL)
    text = g_strdup (self->latency);
  else if (contact != NULL)
    text = g_strdup_printf (_("Not measured; %s"), contact);
  else
    text = g_strdup (_("Not measured"));
  gtk_label_set_text (self->latency_label, text);
}

typedef struct
{
  PlugboardServerPage *self;
  McpServerConnection *connection;
  gint64               started;
} Ping;

static void
on_ping_done_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  Ping *ping = user_data;
  PlugboardServerPage *self = ping->self;
  g_autoptr(GError) error = NULL;
  gboolean ok = mcp_client_ping_finish (MCP_CLIENT (object), result, &error);
  gint64 elapsed = g_get_monotonic_time () - ping->started;

  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && self->connection == ping->connection)
    {
      g_clear_object (&self->ping_cancellable);
      g_free (self->latency);
      if (ok)
        /* Translators: a ping's round trip in milliseconds */
        self->latency = g_strdup_printf (_("%.1f ms"), elapsed / 1000.0);
      else
        /* Translators: %s says why */
        self->latency = g_strdup_printf (_("the ping failed: %s"), error->message);
      plugboard_server_page_update_latency (self);
    }

  g_object_unref (ping->connection);
  g_object_unref (ping->self);
  g_free (ping);
}

static void
on_ping_clicked_cb (PlugboardServerPage *self)
{
  McpClient *client = self->connection != NULL ? mcp_server_connection_get_client (self->connection) : NULL;
  Ping *ping;

  if (client == NULL || self->ping_cancellable != NULL)
    return;

  ping = g_new0 (Ping, 1);
  ping->self = g_object_ref (self);
  ping->connection = g_object_ref (self->connection);
  ping->started = g_get_monotonic_time ();
  self->ping_cancellable = g_cancellable_new ();
  plugboard_server_page_update_latency (self);
  mcp_client_ping_async (client, self->ping_cancellable, on_ping_done_cb, ping);
}

/* Closures of the template: the protocol version and how the server
 * speaks it, which follow the connection's client. */
static char *
protocol_version_text (PlugboardServerPage *self,
                       const char          *protocol,
                       McpProtocolEra       era)
{
  /* TRANSLATORS: how the server speaks MCP: the stateless revision
   * (2026-07-28 and later) or the handshake ones (initialize and a
   * session, up to 2025-11-25). */
  const char *era_text = era == MCP_PROTOCOL_ERA_MODERN ? _("stateless") : _("handshake");

  /* TRANSLATORS: a protocol version such as “2026-07-28”, then “stateless”
   * or “handshake”. */
  return g_strdup_printf (_("%s (%s)"), protocol != NULL ? protocol : "", era_text);
}

static char *
protocol_era_tooltip (PlugboardServerPage *self,
                      McpProtocolEra       era)
{
  return g_strdup (era == MCP_PROTOCOL_ERA_MODERN
                   ? _("Every request carries the protocol version and Plugboard’s capabilities; "
                       "there is no session")
                   : _("Connected with the initialize handshake; the server keeps a session"));
}

void
plugboard_server_page_class_init_info (GtkWidgetClass *widget_class)
{
  /* named by the template's expressions */
  g_type_ensure (MCP_TYPE_CLIENT);
  g_type_ensure (MCP_TYPE_SERVER_INFO);
  gtk_widget_class_bind_template_callback (widget_class, protocol_version_text);
  gtk_widget_class_bind_template_callback (widget_class, protocol_era_tooltip);
  gtk_widget_class_bind_template_callback (widget_class, on_server_rule_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_ping_clicked_cb);
}
