/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-server-page"

#include "config.h"

#include "plugboard-server-page.h"
#include "plugboard-common.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-roots.h"
#include "mcp-server-info.h"
#include "plugboard-markdown.h"
#include "plugboard-prompt-browser.h"
#include "plugboard-resource-browser.h"
#include "plugboard-task-list.h"
#include "plugboard-tool-list.h"

/* What the engine puts between the reason and the stderr lines of a stdio
 * server's failure (mcp-server-connection.c, describe_failure). */
#define STDERR_MARKER "\nLast lines on stderr:"

struct _PlugboardServerPage
{
  AdwBin               parent_instance;

  /* Template widgets */
  GtkLabel            *name_label;
  GtkLabel            *subtitle_label;
  GtkButton           *edit_button;
  GtkButton           *roots_button;
  GtkMenuButton       *menu_button;
  GtkStack            *state_icon_stack;
  GtkImage            *state_image;
  GtkSpinner          *state_spinner;
  GtkLabel            *state_title_label;
  GtkLabel            *state_detail_label;
  GtkLabel            *stderr_label;
  GtkLabel            *command_label;
  GtkLabel            *sign_in_error_label;
  GtkButton           *sign_in_button;
  GtkButton           *cancel_sign_in_button;
  GtkButton           *approve_button;
  GtkButton           *reject_button;
  GtkButton           *enable_button;
  GtkButton           *reconnect_button;
  GtkWidget           *info_group;
  GtkLabel            *server_name_label;
  GtkLabel            *server_version_label;
  GtkWidget           *server_version_row;
  GtkLabel            *protocol_version_label;
  GtkWidget           *roots_row;
  GtkDropDown         *server_rule_dropdown;
  GtkLabel            *latency_label;
  GtkWidget           *ping_button;
  GtkLabel            *roots_label;
  GtkWidget           *copy_sign_in_url_button;
  GtkFlowBox          *capabilities_box;
  GtkWidget           *instructions_row;
  GtkLabel            *instructions_label;
  GtkLabel            *transport_label;
  GtkLabel            *command_title_label;
  GtkLabel            *command_setting_label;
  GtkWidget           *cwd_row;
  GtkLabel            *cwd_label;
  GtkLabel            *scope_label;
  GtkWidget           *tried_list;
  GtkWidget           *save_tried_button;
  GtkWidget           *discard_tried_button;
  GtkLabel            *file_label;
  GtkButton           *copy_button;
  GtkStack            *log_stack;
  GtkScrolledWindow   *log_scroller;
  GtkScrolledWindow   *overview_scroller;
  GtkListView         *log_view;
  GtkWidget           *tools_group;
  PlugboardToolList   *tool_list;
  AdwViewStack        *view_stack;
  GtkSpinner          *log_level_spinner;
  GtkDropDown         *log_level_dropdown;
  GtkLabel            *log_level_error_label;

  /* Borrowed: the view stack's pages, found by name. */
  PlugboardResourceBrowser *resource_browser;
  PlugboardPromptBrowser   *prompt_browser;
  PlugboardTaskList        *task_list;

  /* Owned references */
  McpToolPool         *tool_pool;
  GtkFilterListModel  *server_tools;
  McpServerConnection *connection;
  McpSettings         *settings;
  McpRoots            *roots;
  GCancellable        *ping_cancellable;
  char                *latency;        /* the last ping's outcome, for this connection */
  GSignalGroup        *connection_signals;
  GSignalGroup        *settings_signals;
  GSignalGroup        *log_signals;
  GtkNoSelection      *log_selection;
  GCancellable        *log_level_cancellable;
  char                *sign_in_error;
  char                *state_detail;
  char                *menu_key;

  gboolean             signing_in;
  gboolean             setting_rule;
  char                *sign_in_url;   /* the page the browser was sent to */
  /* Follow the log's tail until the person scrolls away from the bottom. */
  gboolean             follow_tail;
  gboolean             scrolling;
  /* Set while the page itself moves the level drop-down. */
  gboolean             showing_level;
};

enum {
  PROP_0,
  PROP_CONNECTION,
  PROP_SETTINGS,
  PROP_SIGNING_IN,
  PROP_SIGN_IN_ERROR,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (PlugboardServerPage, plugboard_server_page, ADW_TYPE_BIN)

/* Kept here rather than in a style.css so that the page looks right
 * wherever it is used (tests included). */



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

static gboolean
transport_has_oauth (McpServerConfig *config)
{
  McpTransportKind kind = mcp_server_config_get_transport (config);

  return kind == MCP_TRANSPORT_KIND_HTTP ||
         kind == MCP_TRANSPORT_KIND_SSE ||
         kind == MCP_TRANSPORT_KIND_WS;
}



static gboolean
has_project_scope (PlugboardServerPage *self)
{
  const char *dir;

  if (self->settings == NULL)
    return FALSE;

  dir = mcp_settings_get_project_dir (self->settings);
  return dir != NULL && g_strcmp0 (dir, g_get_home_dir ()) != 0;
}

static McpApproval
get_approval (PlugboardServerPage *self)
{
  if (self->settings == NULL || self->connection == NULL)
    return MCP_APPROVAL_NOT_NEEDED;

  return mcp_settings_get_approval (self->settings, mcp_server_connection_get_name (self->connection));
}

/* ------------------------------------------------------------------------ */
/* The state                                                                */

static void
set_state (PlugboardServerPage *self,
           const char          *icon_name,
           const char          *style_class,
           const char          *title,
           const char          *detail)
{
  static const char * const classes[] = { "success", "warning", "error", "dim-label", NULL };

  if (icon_name != NULL)
    {
      gtk_image_set_from_icon_name (self->state_image, icon_name);
      gtk_stack_set_visible_child_name (self->state_icon_stack, "icon");
      gtk_spinner_set_spinning (self->state_spinner, FALSE);
    }
  else
    {
      gtk_stack_set_visible_child_name (self->state_icon_stack, "spinner");
      gtk_spinner_set_spinning (self->state_spinner, TRUE);
    }

  for (guint i = 0; classes[i] != NULL; i++)
    {
      if (g_strcmp0 (classes[i], style_class) == 0)
        {
          gtk_widget_add_css_class (GTK_WIDGET (self->state_image), classes[i]);
          gtk_widget_add_css_class (GTK_WIDGET (self->state_title_label), classes[i]);
        }
      else
        {
          gtk_widget_remove_css_class (GTK_WIDGET (self->state_image), classes[i]);
          gtk_widget_remove_css_class (GTK_WIDGET (self->state_title_label), classes[i]);
        }
    }

  gtk_label_set_text (self->state_title_label, title);

  g_free (self->state_detail);
  self->state_detail = g_strdup (detail);
}

static void
set_reason (PlugboardServerPage *self,
            const char          *reason)
{
  g_auto(GStrv) tail = NULL;
  const char *marker;
  g_autofree char *shown = NULL;
  g_autoptr(GString) lines = g_string_new (NULL);

  marker = strstr (reason, STDERR_MARKER);
  shown = marker != NULL ? g_strndup (reason, marker - reason) : g_strdup (reason);
  gtk_label_set_text (self->state_detail_label, shown);

  /* The whole tail the engine kept (the message has only its last lines). */
  tail = mcp_server_connection_dup_stderr_tail (self->connection);
  if (tail != NULL && tail[0] != NULL)
    {
      for (guint i = 0; tail[i] != NULL; i++)
        g_string_append_printf (lines, "%s%s", i > 0 ? "\n" : "", tail[i]);
    }
  else if (marker != NULL)
    {
      g_auto(GStrv) split = g_strsplit (marker + strlen (STDERR_MARKER) + 1, "\n", -1);

      for (guint i = 0; split[i] != NULL; i++)
        {
          const char *line = g_str_has_prefix (split[i], "  ") ? split[i] + 2 : split[i];

          g_string_append_printf (lines, "%s%s", i > 0 ? "\n" : "", line);
        }
    }

  gtk_label_set_text (self->stderr_label, lines->str);
  gtk_widget_set_visible (GTK_WIDGET (self->stderr_label), lines->len > 0);
}

static char *
dup_counts (McpServerConnection *connection)
{
  guint n_tools = g_list_model_get_n_items (mcp_server_connection_get_tools (connection));
  guint n_resources = g_list_model_get_n_items (mcp_server_connection_get_resources (connection));
  guint n_prompts = g_list_model_get_n_items (mcp_server_connection_get_prompts (connection));
  g_autoptr(GString) text = g_string_new (NULL);
  /* Translators: between the counts, as in "17 tools, 7 resources" */
  const char *separator = C_("list separator", ", ");

  g_string_append_printf (text, ngettext ("%u tool", "%u tools", n_tools), n_tools);
  if (n_resources > 0)
    {
      g_string_append (text, separator);
      g_string_append_printf (text, ngettext ("%u resource", "%u resources", n_resources), n_resources);
    }
  if (n_prompts > 0)
    {
      g_string_append (text, separator);
      g_string_append_printf (text, ngettext ("%u prompt", "%u prompts", n_prompts), n_prompts);
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
update_state (PlugboardServerPage *self)
{
  McpServerConfig *config = mcp_server_connection_get_config (self->connection);
  const GError *error = mcp_server_connection_get_error (self->connection);
  McpServerState state = mcp_server_connection_get_state (self->connection);
  McpApproval approval = get_approval (self);
  gboolean show_command = FALSE;
  gboolean show_sign_in_url = FALSE;
  gboolean awaiting = FALSE;
  gboolean rejected = FALSE;

  gtk_widget_set_visible (GTK_WIDGET (self->stderr_label), FALSE);

  if (self->signing_in)
    {
      /* Where to go when no browser opened, and why the system may ask
       * about a keyring (the tokens go there). */
      set_state (self, NULL, NULL, _("Waiting for Sign-In"),
                 self->sign_in_url != NULL
                 ? _("Continue in your browser. If none opened, copy the address below into one. "
                     "This page updates once you have signed in; the sign-in is kept in your keyring, "
                     "which your system may ask you to create or unlock.")
                 : _("Continue in your browser. This page updates once you have signed in."));
      if (self->sign_in_url != NULL)
        {
          gtk_label_set_text (self->command_label, self->sign_in_url);
          show_sign_in_url = TRUE;
        }
    }
  else
    {
      switch (state)
        {
        case MCP_SERVER_STATE_PENDING:
          {
            g_autofree char *what = plugboard_dup_what_runs (config);
            g_autofree char *detail = NULL;

            if (mcp_server_config_get_transport (config) == MCP_TRANSPORT_KIND_STDIO)
              /* Translators: the argument is a command line. */
              detail = g_strdup_printf (_("Starting %s and asking what it offers."), what);
            else
              /* Translators: the argument is a URL. */
              detail = g_strdup_printf (_("Connecting to %s."), what);
            set_state (self, NULL, NULL, _("Connecting…"), detail);
          }
          break;

        case MCP_SERVER_STATE_CONNECTED:
          {
            g_autofree char *counts = dup_counts (self->connection);
            /* Translators: the argument is e.g. "3 tools, 2 prompts". */
            g_autofree char *detail = g_strdup_printf (_("Ready, with %s."), counts);

            set_state (self, "emblem-ok-symbolic", "success", _("Connected"), detail);
          }
          break;

        case MCP_SERVER_STATE_FAILED:
          set_state (self, "dialog-error-symbolic", "error", _("Connection Failed"),
                     error != NULL ? error->message
                                   : _("The server stopped without saying why."));
          break;

        case MCP_SERVER_STATE_NEEDS_AUTH:
          set_state (self, "dialog-password-symbolic", "warning", _("Sign-In Required"),
                     error != NULL ? error->message
                                   : _("This server needs you to sign in before it answers."));
          break;

        case MCP_SERVER_STATE_DISABLED:
          if (approval == MCP_APPROVAL_PENDING)
            {
              awaiting = TRUE;
              show_command = TRUE;
              set_state (self, "security-medium-symbolic", "warning", _("Awaiting Approval"),
                         mcp_server_config_get_transport (config) == MCP_TRANSPORT_KIND_STDIO
                           ? _("This project’s .mcp.json wants to run the command below. Nothing runs until you approve it.")
                           : _("This project’s .mcp.json wants to connect to the address below. Nothing connects until you approve it."));
            }
          else if (approval == MCP_APPROVAL_CHANGED)
            {
              g_auto(GStrv) changes = mcp_settings_dup_approval_changes (self->settings,
                                                                         mcp_server_connection_get_name (self->connection));
              g_autofree char *lines = changes != NULL ? g_strjoinv ("\n", changes) : g_strdup ("");
              g_autofree char *detail = NULL;

              awaiting = TRUE;
              show_command = TRUE;
              /* Translators: %s is one line or more of what changed (old → new, secrets masked) */
              detail = g_strdup_printf (_("What this project’s .mcp.json runs changed since you approved it:\n%s\n"
                                          "Nothing runs until you approve it again."), lines);
              set_state (self, "security-medium-symbolic", "warning", _("Changed Since Approval"), detail);
            }
          else if (approval == MCP_APPROVAL_REJECTED)
            {
              rejected = TRUE;
              show_command = TRUE;
              set_state (self, "action-unavailable-symbolic", "dim-label", _("Rejected"),
                         _("You rejected this server from the project’s .mcp.json, so it does not run. Approve it to start it."));
            }
          else
            {
              set_state (self, "action-unavailable-symbolic", "dim-label", _("Disabled"),
                         _("This server is turned off in its settings. Enable it to connect."));
            }
          break;

        default:
          g_assert_not_reached ();
        }
    }

  if (!self->signing_in && state == MCP_SERVER_STATE_FAILED)
    set_reason (self, self->state_detail);
  else
    gtk_label_set_text (self->state_detail_label, self->state_detail);

  if (show_command)
    {
      g_autofree char *what = plugboard_dup_what_runs (config);

      gtk_label_set_text (self->command_label, what);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->command_label), show_command || show_sign_in_url);
  gtk_widget_set_visible (self->copy_sign_in_url_button, show_sign_in_url);

  gtk_label_set_text (self->sign_in_error_label, self->sign_in_error != NULL ? self->sign_in_error : "");
  gtk_widget_set_visible (GTK_WIDGET (self->sign_in_error_label),
                          self->sign_in_error != NULL && !self->signing_in);

  gtk_widget_set_visible (GTK_WIDGET (self->cancel_sign_in_button), self->signing_in);
  gtk_widget_set_visible (GTK_WIDGET (self->sign_in_button),
                          !self->signing_in && state == MCP_SERVER_STATE_NEEDS_AUTH);
  gtk_widget_set_visible (GTK_WIDGET (self->approve_button), !self->signing_in && (awaiting || rejected));
  gtk_widget_set_visible (GTK_WIDGET (self->reject_button), !self->signing_in && awaiting);
  gtk_widget_set_visible (GTK_WIDGET (self->enable_button),
                          !self->signing_in && state == MCP_SERVER_STATE_DISABLED && !awaiting && !rejected);
  gtk_widget_set_visible (GTK_WIDGET (self->reconnect_button),
                          !self->signing_in &&
                          (state == MCP_SERVER_STATE_CONNECTED || state == MCP_SERVER_STATE_FAILED));
  gtk_button_set_label (self->reconnect_button,
                        state == MCP_SERVER_STATE_FAILED ? _("Try _Again") : _("_Reconnect"));
}

/* ------------------------------------------------------------------------ */
/* What the server says of itself, and its settings                         */

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

static void
update_info (PlugboardServerPage *self)
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

  {
    const char *protocol = mcp_server_info_get_protocol_version (info);
    /* TRANSLATORS: how the server speaks MCP: the stateless revision
     * (2026-07-28 and later) or the handshake ones (initialize and a
     * session, up to 2025-11-25). */
    const char *era = mcp_client_get_era (client) == MCP_PROTOCOL_ERA_MODERN
                      ? _("stateless") : _("handshake");
    /* TRANSLATORS: a protocol version such as “2026-07-28”, then “stateless”
     * or “handshake”. */
    g_autofree char *text = g_strdup_printf (_("%s (%s)"), protocol != NULL ? protocol : "", era);

    gtk_label_set_text (self->protocol_version_label, text);
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->protocol_version_label),
                                 mcp_client_get_era (client) == MCP_PROTOCOL_ERA_MODERN
                                 ? _("Every request carries the protocol version and Plugboard’s capabilities; "
                                     "there is no session")
                                 : _("Connected with the initialize handshake; the server keeps a session"));
  }

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
static void
update_server_rule (PlugboardServerPage *self)
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

static void
update_settings (PlugboardServerPage *self)
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

  gtk_label_set_text (self->transport_label, transport_to_label (mcp_server_config_get_transport (config)));
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

/* ------------------------------------------------------------------------ */
/* Actions                                                                  */

static void
append_item (GMenu      *menu,
             const char *label,
             const char *action,
             GVariant   *target)
{
  g_autoptr(GMenuItem) item = g_menu_item_new (label, NULL);

  g_menu_item_set_action_and_target_value (item, action, target);
  g_menu_append_item (menu, item);
}

static void
update_menu (PlugboardServerPage *self)
{
  McpServerConfig *config = mcp_server_connection_get_config (self->connection);
  const char *name = mcp_server_connection_get_name (self->connection);
  McpConfigScope scope = mcp_server_config_get_scope (config);
  McpApproval approval = get_approval (self);
  gboolean enabled = mcp_server_config_get_enabled (config);
  gboolean project = has_project_scope (self);
  /* a disabled server (switched off, or awaiting approval) has nothing to
   * reconnect: Enable or Approve is what it offers */
  gboolean can_reconnect = mcp_server_connection_get_state (self->connection) != MCP_SERVER_STATE_DISABLED;
  g_autofree char *key = NULL;
  g_autoptr(GMenu) menu = NULL;
  g_autoptr(GMenu) section = NULL;
  static const struct { McpConfigScope scope; const char *id; const char *label; } moves[] = {
    { MCP_CONFIG_SCOPE_USER, "user", N_("Move to _User Scope") },
    { MCP_CONFIG_SCOPE_PROJECT, "project", N_("Move to _Project Scope") },
    { MCP_CONFIG_SCOPE_LOCAL, "local", N_("Move to _Local Scope") },
  };

  /* Rebuilt only when it changes, so an open menu stays open while the
   * server's state moves on. */
  key = g_strdup_printf ("%s|%d|%d|%d|%d|%d|%d|%d", name, scope, approval, enabled, project,
                         transport_has_oauth (config), can_reconnect,
                         mcp_server_config_get_saved (config));
  if (g_strcmp0 (key, self->menu_key) == 0)
    return;
  g_free (self->menu_key);
  self->menu_key = g_steal_pointer (&key);

  menu = g_menu_new ();

  /* a server being tried is in no scope: nothing to move, duplicate or
   * switch off until it is saved */
  if (!mcp_server_config_get_saved (config))
    {
      section = g_menu_new ();
      append_item (section, _("_Reconnect"), "win.reconnect-server", g_variant_new_string (name));
      append_item (section, _("_Save…"), "win.edit-server", g_variant_new_string (name));
      if (transport_has_oauth (config))
        append_item (section, _("Sign _Out"), "win.sign-out", g_variant_new_string (name));
      g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
      g_clear_object (&section);

      section = g_menu_new ();
      append_item (section, _("_Discard"), "win.remove-server", g_variant_new_string (name));
      g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
      gtk_menu_button_set_menu_model (self->menu_button, G_MENU_MODEL (menu));
      return;
    }

  section = g_menu_new ();
  if (can_reconnect)
    append_item (section, _("_Reconnect"), "win.reconnect-server", g_variant_new_string (name));
  append_item (section, _("_Edit…"), "win.edit-server", g_variant_new_string (name));
  append_item (section, _("_Duplicate"), "win.duplicate-server", g_variant_new_string (name));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_clear_object (&section);

  section = g_menu_new ();
  for (guint i = 0; i < G_N_ELEMENTS (moves); i++)
    {
      if (moves[i].scope == scope)
        continue;
      if (!project && moves[i].scope != MCP_CONFIG_SCOPE_USER)
        continue;
      append_item (section, _(moves[i].label), "win.move-server",
                   g_variant_new ("(ss)", name, moves[i].id));
    }
  if (g_menu_model_get_n_items (G_MENU_MODEL (section)) > 0)
    g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_clear_object (&section);

  section = g_menu_new ();
  if (approval == MCP_APPROVAL_PENDING || approval == MCP_APPROVAL_REJECTED ||
      approval == MCP_APPROVAL_CHANGED)
    {
      append_item (section, _("_Approve"), "win.approve-server", g_variant_new_string (name));
      if (approval == MCP_APPROVAL_PENDING || approval == MCP_APPROVAL_CHANGED)
        append_item (section, _("Re_ject"), "win.reject-server", g_variant_new_string (name));
    }
  else if (enabled)
    {
      append_item (section, _("_Disable"), "win.disable-server", g_variant_new_string (name));
    }
  else
    {
      append_item (section, _("E_nable"), "win.enable-server", g_variant_new_string (name));
    }
  if (transport_has_oauth (config))
    append_item (section, _("Sign _Out"), "win.sign-out", g_variant_new_string (name));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_clear_object (&section);

  section = g_menu_new ();
  append_item (section, _("Re_move"), "win.remove-server", g_variant_new_string (name));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));

  gtk_menu_button_set_menu_model (self->menu_button, G_MENU_MODEL (menu));
}

static void
update_targets (PlugboardServerPage *self)
{
  GtkActionable *buttons[] = {
    GTK_ACTIONABLE (self->edit_button),
    GTK_ACTIONABLE (self->roots_button),
    GTK_ACTIONABLE (self->sign_in_button),
    GTK_ACTIONABLE (self->cancel_sign_in_button),
    GTK_ACTIONABLE (self->approve_button),
    GTK_ACTIONABLE (self->reject_button),
    GTK_ACTIONABLE (self->enable_button),
    GTK_ACTIONABLE (self->reconnect_button),
    GTK_ACTIONABLE (self->save_tried_button),
    GTK_ACTIONABLE (self->discard_tried_button),
  };
  const char *name = self->connection != NULL ? mcp_server_connection_get_name (self->connection) : "";

  for (guint i = 0; i < G_N_ELEMENTS (buttons); i++)
    gtk_actionable_set_action_target_value (buttons[i], g_variant_new_string (name));
}

static void update_log_level (PlugboardServerPage *self);

/* The folders the server is offered when it asks (roots/list): the
 * engine decides them by the server's scope. */
static void
update_roots (PlugboardServerPage *self)
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

static void
on_copy_sign_in_url_clicked_cb (PlugboardServerPage *self)
{
  if (self->sign_in_url != NULL)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), self->sign_in_url);
}

/* The last ping's round trip, and when the server was last heard from
 * (any message). */
static void
update_latency (PlugboardServerPage *self)
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
      contact = g_strdup_printf (_("last heard from at %s"), time);
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
      update_latency (self);
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
  update_latency (self);
  mcp_client_ping_async (client, self->ping_cancellable, on_ping_done_cb, ping);
}

static void
on_roots_changed_cb (PlugboardServerPage *self,
                     const char          *server)
{
  if (self->connection != NULL && g_strcmp0 (server, mcp_server_connection_get_name (self->connection)) == 0)
    update_roots (self);
}

static void
plugboard_server_page_update (PlugboardServerPage *self)
{
  g_assert (PLUGBOARD_IS_SERVER_PAGE (self));

  if (self->connection == NULL)
    {
      gtk_label_set_text (self->name_label, "");
      gtk_label_set_text (self->subtitle_label, "");
      g_clear_pointer (&self->state_detail, g_free);
      gtk_label_set_text (self->state_title_label, "");
      gtk_label_set_text (self->state_detail_label, "");
      gtk_widget_set_visible (self->info_group, FALSE);
      gtk_menu_button_set_menu_model (self->menu_button, NULL);
      g_clear_pointer (&self->menu_key, g_free);
      update_log_level (self);
      return;
    }

  update_settings (self);
  update_server_rule (self);
  update_state (self);
  update_info (self);
  update_roots (self);
  update_latency (self);
  update_menu (self);
  update_log_level (self);
}

/* ------------------------------------------------------------------------ */
/* The log level                                                            */

/* Position 0 of the drop-down is "Default": whatever the server sends
 * before anyone set a level. */
static guint
level_position (const char *level)
{
  const char * const *levels = mcp_client_get_log_levels ();

  if (level != NULL)
    for (guint i = 0; levels[i] != NULL; i++)
      if (g_str_equal (levels[i], level))
        return i + 1;

  return 0;
}

static gboolean
is_connected (PlugboardServerPage *self)
{
  return self->connection != NULL &&
         mcp_server_connection_get_state (self->connection) == MCP_SERVER_STATE_CONNECTED;
}

static gboolean
server_has_logging (PlugboardServerPage *self)
{
  McpClient *client;
  McpServerInfo *info;

  if (!is_connected (self))
    return FALSE;

  client = mcp_server_connection_get_client (self->connection);
  info = client != NULL ? mcp_client_get_server_info (client) : NULL;
  return info != NULL && mcp_server_info_has_logging (info);
}

static void
show_log_level_error (PlugboardServerPage *self,
                      const char          *message)
{
  gtk_label_set_text (self->log_level_error_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->log_level_error_label), message != NULL);
}

static void
update_log_level (PlugboardServerPage *self)
{
  const char *level = self->connection != NULL ? mcp_server_connection_get_log_level (self->connection) : NULL;
  gboolean busy = self->log_level_cancellable != NULL;
  gboolean logging = server_has_logging (self);
  const char *tooltip;

  if (!busy)
    {
      self->showing_level = TRUE;
      gtk_drop_down_set_selected (self->log_level_dropdown, level_position (level));
      self->showing_level = FALSE;
    }

  gtk_widget_set_sensitive (GTK_WIDGET (self->log_level_dropdown), logging && !busy);
  gtk_widget_set_visible (GTK_WIDGET (self->log_level_spinner), busy);
  gtk_spinner_set_spinning (self->log_level_spinner, busy);

  if (!is_connected (self))
    tooltip = _("The log level can be chosen once the server is connected");
  else if (!logging)
    tooltip = _("This server does not declare logging, so it takes no log level");
  else
    tooltip = _("The lowest level of log messages the server sends");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->log_level_dropdown), tooltip);
}

static void
log_level_set_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(PlugboardServerPage) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_server_connection_set_log_level_finish (MCP_SERVER_CONNECTION (object), result, &error) &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  g_clear_object (&self->log_level_cancellable);
  if (error != NULL)
    {
      /* Translators: the argument is the engine's error message. */
      g_autofree char *message = g_strdup_printf (_("Could not set the log level: %s"), error->message);

      show_log_level_error (self, message);
    }
  update_log_level (self);
}

static void
on_log_level_selected_cb (PlugboardServerPage *self)
{
  const char * const *levels = mcp_client_get_log_levels ();
  guint position = gtk_drop_down_get_selected (self->log_level_dropdown);

  if (self->showing_level || self->connection == NULL || self->log_level_cancellable != NULL)
    return;

  if (position == level_position (mcp_server_connection_get_log_level (self->connection)))
    return;

  if (position == 0 || position == GTK_INVALID_LIST_POSITION ||
      position > g_strv_length ((char **) levels))
    {
      /* logging/setLevel has no way to take a level back. */
      show_log_level_error (self, _("A server keeps the last level it was given: choose another level instead."));
      update_log_level (self);
      return;
    }

  show_log_level_error (self, NULL);
  self->log_level_cancellable = g_cancellable_new ();
  update_log_level (self);
  mcp_server_connection_set_log_level_async (self->connection, levels[position - 1],
                                             self->log_level_cancellable,
                                             log_level_set_cb, g_object_ref (self));
}

static void
setup_log_levels (PlugboardServerPage *self)
{
  const char * const *levels = mcp_client_get_log_levels ();
  g_autoptr(GtkStringList) list = gtk_string_list_new (NULL);

  gtk_string_list_append (list, _("Default"));
  for (guint i = 0; levels[i] != NULL; i++)
    gtk_string_list_append (list, levels[i]);

  gtk_drop_down_set_model (self->log_level_dropdown, G_LIST_MODEL (list));
  g_signal_connect_object (self->log_level_dropdown, "notify::selected",
                           G_CALLBACK (on_log_level_selected_cb), self, G_CONNECT_SWAPPED);
}

/* warning and above stand out; debug recedes. */
static const char *
log_level_class (const char *level)
{
  static const char * const errors[] = { "error", "critical", "alert", "emergency", NULL };

  if (level == NULL)
    return NULL;
  if (g_str_equal (level, "debug"))
    return "plugboard-log-debug";
  if (g_str_equal (level, "warning"))
    return "plugboard-log-warning";
  if (g_strv_contains (errors, level))
    return "plugboard-log-error";
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* The log                                                                  */

static gboolean
log_at_bottom (GtkAdjustment *adjustment)
{
  return gtk_adjustment_get_value (adjustment) + gtk_adjustment_get_page_size (adjustment)
         >= gtk_adjustment_get_upper (adjustment) - 2.0;
}

static void
scroll_log_to_end (PlugboardServerPage *self)
{
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (self->log_scroller);
  double end = gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment);

  if (end <= 0.0 || gtk_adjustment_get_value (adjustment) == end ||
      g_list_model_get_n_items (G_LIST_MODEL (self->log_selection)) == 0)
    return;

  self->scrolling = TRUE;
  gtk_adjustment_set_value (adjustment, end);
  self->scrolling = FALSE;
}

static void
on_log_value_changed_cb (PlugboardServerPage *self,
                         GtkAdjustment       *adjustment)
{
  if (!self->scrolling)
    self->follow_tail = log_at_bottom (adjustment);
}

static void
on_log_upper_changed_cb (PlugboardServerPage *self)
{
  if (self->follow_tail)
    scroll_log_to_end (self);
}

static void
update_log_stack (PlugboardServerPage *self)
{
  gboolean empty = g_list_model_get_n_items (G_LIST_MODEL (self->log_selection)) == 0;

  gtk_stack_set_visible_child_name (self->log_stack, empty ? "empty" : "log");
  gtk_widget_set_sensitive (GTK_WIDGET (self->copy_button), !empty);
}

static void
on_log_items_changed_cb (PlugboardServerPage *self,
                         guint                position,
                         guint                removed,
                         guint                added)
{
  /* The scrolling itself waits for the new size (notify::upper): the
   * adjustment does not know it yet. */
  update_log_stack (self);
}

static void
on_log_setup_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 gpointer                  user_data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 9);
  GtkWidget *time_label = gtk_label_new (NULL);
  GtkWidget *text_label = gtk_label_new (NULL);

  gtk_widget_add_css_class (time_label, "dim-label");
  gtk_widget_add_css_class (time_label, "monospace");
  gtk_widget_add_css_class (time_label, "plugboard-log-time");
  gtk_widget_set_valign (time_label, GTK_ALIGN_BASELINE);

  gtk_label_set_xalign (GTK_LABEL (text_label), 0.0);
  gtk_label_set_wrap (GTK_LABEL (text_label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (text_label), PANGO_WRAP_WORD_CHAR);
  gtk_widget_set_hexpand (text_label, TRUE);
  gtk_widget_set_valign (text_label, GTK_ALIGN_BASELINE);

  gtk_box_append (GTK_BOX (box), time_label);
  gtk_box_append (GTK_BOX (box), text_label);
  gtk_list_item_set_child (item, box);
  gtk_list_item_set_activatable (item, FALSE);
  gtk_list_item_set_selectable (item, FALSE);
}

static void
on_log_bind_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *item,
                gpointer                  user_data)
{
  McpLogEntry *entry = gtk_list_item_get_item (item);
  GtkWidget *box = gtk_list_item_get_child (item);
  GtkWidget *time_label = gtk_widget_get_first_child (box);
  GtkWidget *text_label = gtk_widget_get_last_child (box);
  g_autoptr(GDateTime) time = NULL;
  g_autofree char *time_text = NULL;
  McpLogEntryKind kind = mcp_log_entry_get_kind (entry);

  time = g_date_time_new_from_unix_local (mcp_log_entry_get_time (entry) / G_USEC_PER_SEC);
  time_text = time != NULL ? g_date_time_format (time, "%H:%M:%S") : g_strdup ("");
  gtk_label_set_text (GTK_LABEL (time_label), time_text);
  gtk_label_set_text (GTK_LABEL (text_label), mcp_log_entry_get_text (entry));

  if (kind == MCP_LOG_ENTRY_STATE)
    gtk_widget_add_css_class (text_label, "plugboard-log-state");
  else
    gtk_widget_remove_css_class (text_label, "plugboard-log-state");

  if (kind == MCP_LOG_ENTRY_NOTIFICATION)
    gtk_widget_add_css_class (text_label, "plugboard-log-notification");
  else
    gtk_widget_remove_css_class (text_label, "plugboard-log-notification");

  /* Plugboard's own sentences; what the server sent stays monospace. */
  if (kind == MCP_LOG_ENTRY_STATE || kind == MCP_LOG_ENTRY_WARNING)
    gtk_widget_remove_css_class (text_label, "monospace");
  else
    gtk_widget_add_css_class (text_label, "monospace");

  {
    static const char * const level_classes[] = {
      "plugboard-log-debug", "plugboard-log-warning", "plugboard-log-error", NULL
    };
    const char *level_class = kind == MCP_LOG_ENTRY_MESSAGE
      ? log_level_class (mcp_log_entry_get_level (entry))
      : kind == MCP_LOG_ENTRY_WARNING ? "plugboard-log-warning" : NULL;

    for (guint i = 0; level_classes[i] != NULL; i++)
      {
        if (g_strcmp0 (level_classes[i], level_class) == 0)
          gtk_widget_add_css_class (text_label, level_classes[i]);
        else
          gtk_widget_remove_css_class (text_label, level_classes[i]);
      }
  }
}

static void
on_copy_clicked_cb (PlugboardServerPage *self)
{
  GListModel *model = G_LIST_MODEL (self->log_selection);
  g_autoptr(GString) text = g_string_new (NULL);
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpLogEntry) entry = g_list_model_get_item (model, i);
      g_autofree char *line = mcp_log_entry_format (entry);

      g_string_append (text, line);
      g_string_append_c (text, '\n');
    }

  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text->str);
}

static void
set_log_model (PlugboardServerPage *self)
{
  GListModel *log = NULL;

  if (self->connection != NULL)
    log = mcp_server_connection_get_log (self->connection);

  if (log == NULL)
    {
      g_autoptr(GListStore) empty = g_list_store_new (MCP_TYPE_LOG_ENTRY);

      gtk_no_selection_set_model (self->log_selection, G_LIST_MODEL (empty));
    }
  else
    {
      gtk_no_selection_set_model (self->log_selection, log);
    }

  /* Another server's log: follow its tail once laid out (the adjustment
   * still has the old log's size now). */
  self->follow_tail = TRUE;
  update_log_stack (self);
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

/* ------------------------------------------------------------------------ */
/* Tools                                                                    */

static gboolean
server_tool_filter_func (gpointer item,
                         gpointer user_data)
{
  PlugboardServerPage *self = user_data;

  return self->connection != NULL &&
         mcp_pool_tool_get_connection (MCP_POOL_TOOL (item)) == self->connection;
}

static void
update_tools (PlugboardServerPage *self)
{
  GtkFilter *filter;

  if (self->server_tools == NULL)
    return;

  filter = gtk_filter_list_model_get_filter (self->server_tools);
  gtk_filter_changed (filter, GTK_FILTER_CHANGE_DIFFERENT);
}

static void
on_server_tools_changed_cb (PlugboardServerPage *self)
{
  gboolean any = self->server_tools != NULL &&
                 g_list_model_get_n_items (G_LIST_MODEL (self->server_tools)) > 0;

  /* the Tools view, tab and all, shows only for a server with tools */
  gtk_widget_set_visible (self->tools_group, any);
  gtk_widget_set_visible (gtk_widget_get_parent (self->tools_group), any);
}

static void
on_tool_activated_cb (PlugboardServerPage *self,
                      McpPoolTool         *tool)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "win.show-tool", "s",
                              mcp_pool_tool_get_qualified_name (tool));
}

void
plugboard_server_page_set_tool_pool (PlugboardServerPage *self,
                                     McpToolPool         *pool,
                                     McpPermissions      *permissions)
{
  g_return_if_fail (PLUGBOARD_IS_SERVER_PAGE (self));
  g_return_if_fail (!pool || MCP_IS_TOOL_POOL (pool));
  g_return_if_fail (!permissions || MCP_IS_PERMISSIONS (permissions));

  plugboard_tool_list_set_permissions (self->tool_list, permissions);

  if (self->tool_pool == pool)
    return;

  if (self->server_tools != NULL)
    g_signal_handlers_disconnect_by_data (self->server_tools, self);
  g_clear_object (&self->server_tools);
  g_set_object (&self->tool_pool, pool);

  if (pool != NULL)
    {
      GtkCustomFilter *filter = gtk_custom_filter_new (server_tool_filter_func, self, NULL);

      self->server_tools = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (pool)),
                                                      GTK_FILTER (filter));
      g_signal_connect_swapped (self->server_tools, "items-changed",
                                G_CALLBACK (on_server_tools_changed_cb), self);
    }

  plugboard_tool_list_set_tools (self->tool_list,
                                 self->server_tools ? G_LIST_MODEL (self->server_tools) : NULL);
  on_server_tools_changed_cb (self);
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static void
plugboard_server_page_dispose (GObject *object)
{
  PlugboardServerPage *self = (PlugboardServerPage *)object;

  if (self->server_tools != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->server_tools, self);
      /* The filter's function points at this page. */
      gtk_filter_list_model_set_filter (self->server_tools, NULL);
    }
  if (self->tool_list != NULL)
    plugboard_tool_list_set_tools (self->tool_list, NULL);

  if (self->roots != NULL)
    g_signal_handlers_disconnect_by_func (self->roots, on_roots_changed_cb, self);
  g_clear_object (&self->roots);
  g_cancellable_cancel (self->ping_cancellable);
  g_clear_object (&self->ping_cancellable);
  if (self->connection_signals != NULL)
    g_signal_group_set_target (self->connection_signals, NULL);
  if (self->settings_signals != NULL)
    g_signal_group_set_target (self->settings_signals, NULL);
  if (self->log_signals != NULL)
    g_signal_group_set_target (self->log_signals, NULL);

  g_cancellable_cancel (self->log_level_cancellable);
  g_clear_object (&self->log_level_cancellable);
  self->resource_browser = NULL;
  self->prompt_browser = NULL;
  self->task_list = NULL;

  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_SERVER_PAGE);

  g_clear_object (&self->connection);
  g_clear_object (&self->settings);
  g_clear_object (&self->connection_signals);
  g_clear_object (&self->settings_signals);
  g_clear_object (&self->log_signals);
  g_clear_object (&self->log_selection);
  g_clear_object (&self->server_tools);
  g_clear_object (&self->tool_pool);

  G_OBJECT_CLASS (plugboard_server_page_parent_class)->dispose (object);
}

static void
plugboard_server_page_finalize (GObject *object)
{
  PlugboardServerPage *self = (PlugboardServerPage *)object;

  g_free (self->sign_in_error);
  g_free (self->sign_in_url);
  g_free (self->latency);
  g_free (self->state_detail);
  g_free (self->menu_key);

  G_OBJECT_CLASS (plugboard_server_page_parent_class)->finalize (object);
}

static void
plugboard_server_page_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  PlugboardServerPage *self = PLUGBOARD_SERVER_PAGE (object);

  switch (prop_id)
    {
    case PROP_CONNECTION:
      g_value_set_object (value, self->connection);
      break;
    case PROP_SETTINGS:
      g_value_set_object (value, self->settings);
      break;
    case PROP_SIGNING_IN:
      g_value_set_boolean (value, self->signing_in);
      break;
    case PROP_SIGN_IN_ERROR:
      g_value_set_string (value, self->sign_in_error);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_server_page_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  PlugboardServerPage *self = PLUGBOARD_SERVER_PAGE (object);

  switch (prop_id)
    {
    case PROP_CONNECTION:
      plugboard_server_page_set_connection (self, g_value_get_object (value));
      break;
    case PROP_SETTINGS:
      plugboard_server_page_set_settings (self, g_value_get_object (value));
      break;
    case PROP_SIGNING_IN:
      plugboard_server_page_set_signing_in (self, g_value_get_boolean (value));
      break;
    case PROP_SIGN_IN_ERROR:
      plugboard_server_page_set_sign_in_error (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_server_page_class_init (PlugboardServerPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = plugboard_server_page_dispose;
  object_class->finalize = plugboard_server_page_finalize;
  object_class->get_property = plugboard_server_page_get_property;
  object_class->set_property = plugboard_server_page_set_property;

  g_type_ensure (PLUGBOARD_TYPE_TOOL_LIST);
  g_type_ensure (PLUGBOARD_TYPE_RESOURCE_BROWSER);
  g_type_ensure (PLUGBOARD_TYPE_PROMPT_BROWSER);
  g_type_ensure (PLUGBOARD_TYPE_TASK_LIST);

  properties[PROP_CONNECTION] =
    g_param_spec_object ("connection", NULL, NULL, MCP_TYPE_SERVER_CONNECTION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL, MCP_TYPE_SETTINGS,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SIGNING_IN] =
    g_param_spec_boolean ("signing-in", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SIGN_IN_ERROR] =
    g_param_spec_string ("sign-in-error", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/plugboard/Plugboard/plugboard-server-page.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, name_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, edit_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, roots_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, menu_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, state_icon_stack);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, state_image);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, state_spinner);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, state_title_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, state_detail_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, stderr_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, command_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, sign_in_error_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, sign_in_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, cancel_sign_in_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, approve_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, reject_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, enable_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, reconnect_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, info_group);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, server_name_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, server_version_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, server_version_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, protocol_version_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, roots_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, roots_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, server_rule_dropdown);
  gtk_widget_class_bind_template_callback (widget_class, on_server_rule_selected_cb);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, latency_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, ping_button);
  gtk_widget_class_bind_template_callback (widget_class, on_ping_clicked_cb);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, copy_sign_in_url_button);
  gtk_widget_class_bind_template_callback (widget_class, on_copy_sign_in_url_clicked_cb);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, capabilities_box);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, instructions_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, instructions_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, transport_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, command_title_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, command_setting_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, cwd_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, cwd_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, scope_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, tried_list);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, save_tried_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, discard_tried_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, file_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, copy_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, log_stack);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, log_scroller);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, log_view);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, tools_group);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, tool_list);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, view_stack);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, overview_scroller);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, log_level_spinner);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, log_level_dropdown);
  gtk_widget_class_bind_template_child (widget_class, PlugboardServerPage, log_level_error_label);
  gtk_widget_class_bind_template_callback (widget_class, on_copy_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_tool_activated_cb);
}

static void
plugboard_server_page_init (PlugboardServerPage *self)
{
  g_autoptr(GtkListItemFactory) factory = NULL;
  g_autoptr(GListStore) empty = NULL;
  GtkAdjustment *adjustment;

  gtk_widget_init_template (GTK_WIDGET (self));
  plugboard_label_guard_links (self->instructions_label);

  /* A command or an address to trust, broken across lines: no hyphen may
   * appear in it ("ind-ex.js") */
  {
    PangoAttrList *attrs = pango_attr_list_new ();

    pango_attr_list_insert (attrs, pango_attr_insert_hyphens_new (FALSE));
    gtk_label_set_attributes (self->command_label, attrs);
    pango_attr_list_unref (attrs);
  }
  plugboard_style_ensure (GTK_WIDGET (self));

  self->resource_browser = PLUGBOARD_RESOURCE_BROWSER (adw_view_stack_get_child_by_name (self->view_stack, "resources"));
  self->prompt_browser = PLUGBOARD_PROMPT_BROWSER (adw_view_stack_get_child_by_name (self->view_stack, "prompts"));
  self->task_list = PLUGBOARD_TASK_LIST (adw_view_stack_get_child_by_name (self->view_stack, "tasks"));

  self->follow_tail = TRUE;
  setup_log_levels (self);

  /* A button whose window action takes a name must never be without one,
   * even before a server is shown: GTK warns about the type otherwise. */
  update_targets (self);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (on_log_setup_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (on_log_bind_cb), NULL);
  gtk_list_view_set_factory (self->log_view, factory);

  empty = g_list_store_new (MCP_TYPE_LOG_ENTRY);
  self->log_selection = gtk_no_selection_new (G_LIST_MODEL (g_steal_pointer (&empty)));
  gtk_list_view_set_model (self->log_view, GTK_SELECTION_MODEL (self->log_selection));
  g_signal_connect_object (self->log_selection, "items-changed",
                           G_CALLBACK (on_log_items_changed_cb), self, G_CONNECT_SWAPPED);

  adjustment = gtk_scrolled_window_get_vadjustment (self->log_scroller);
  g_signal_connect_object (adjustment, "value-changed",
                           G_CALLBACK (on_log_value_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (adjustment, "notify::upper",
                           G_CALLBACK (on_log_upper_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (adjustment, "notify::page-size",
                           G_CALLBACK (on_log_upper_changed_cb), self, G_CONNECT_SWAPPED);

  self->connection_signals = g_signal_group_new (MCP_TYPE_SERVER_CONNECTION);
  g_signal_group_connect_object (self->connection_signals, "notify::state",
                                 G_CALLBACK (plugboard_server_page_update), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->connection_signals, "notify::error",
                                 G_CALLBACK (plugboard_server_page_update), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->connection_signals, "notify::client",
                                 G_CALLBACK (plugboard_server_page_update), self, G_CONNECT_SWAPPED);
  /* the same server saved (from being tried) or moved to another scope */
  g_signal_group_connect_object (self->connection_signals, "notify::config",
                                 G_CALLBACK (plugboard_server_page_update), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->connection_signals, "notify::stderr-tail",
                                 G_CALLBACK (plugboard_server_page_update), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->connection_signals, "tools-changed",
                                 G_CALLBACK (plugboard_server_page_update), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->connection_signals, "notify::log",
                                 G_CALLBACK (set_log_model), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->connection_signals, "notify::log-level",
                                 G_CALLBACK (update_log_level), self, G_CONNECT_SWAPPED);

  self->settings_signals = g_signal_group_new (MCP_TYPE_SETTINGS);
  g_signal_group_connect_object (self->settings_signals, "changed",
                                 G_CALLBACK (plugboard_server_page_update), self, G_CONNECT_SWAPPED);

  plugboard_server_page_update (self);
}

GtkWidget *
plugboard_server_page_new (void)
{
  return g_object_new (PLUGBOARD_TYPE_SERVER_PAGE, NULL);
}

void
plugboard_server_page_set_connection (PlugboardServerPage *self,
                                      McpServerConnection *connection)
{
  g_return_if_fail (PLUGBOARD_IS_SERVER_PAGE (self));
  g_return_if_fail (connection == NULL || MCP_IS_SERVER_CONNECTION (connection));

  if (self->connection == connection)
    return;

  /* Another server opens on its Overview, at the top; the same server in
   * a new connection (its settings changed) stays where the person is. */
  if (connection == NULL || self->connection == NULL ||
      g_strcmp0 (mcp_server_connection_get_name (connection),
                 mcp_server_connection_get_name (self->connection)) != 0)
    {
      adw_view_stack_set_visible_child_name (self->view_stack, "overview");
      gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (self->overview_scroller), 0);
    }

  g_set_object (&self->connection, connection);
  g_cancellable_cancel (self->ping_cancellable);
  g_clear_object (&self->ping_cancellable);
  g_clear_pointer (&self->latency, g_free);

  g_clear_pointer (&self->menu_key, g_free);
  g_signal_group_set_target (self->connection_signals, connection);
  g_cancellable_cancel (self->log_level_cancellable);
  g_clear_object (&self->log_level_cancellable);
  show_log_level_error (self, NULL);
  if (self->resource_browser != NULL)
    plugboard_resource_browser_set_connection (self->resource_browser, connection);
  if (self->prompt_browser != NULL)
    plugboard_prompt_browser_set_connection (self->prompt_browser, connection);
  if (self->task_list != NULL)
    plugboard_task_list_set_connection (self->task_list, connection);
  set_log_model (self);
  update_targets (self);
  update_tools (self);
  plugboard_server_page_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONNECTION]);
}

McpServerConnection *
plugboard_server_page_get_connection (PlugboardServerPage *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_SERVER_PAGE (self), NULL);

  return self->connection;
}

void
plugboard_server_page_set_settings (PlugboardServerPage *self,
                                    McpSettings         *settings)
{
  g_return_if_fail (PLUGBOARD_IS_SERVER_PAGE (self));
  g_return_if_fail (settings == NULL || MCP_IS_SETTINGS (settings));

  if (!g_set_object (&self->settings, settings))
    return;

  g_signal_group_set_target (self->settings_signals, settings);
  plugboard_server_page_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SETTINGS]);
}

void
plugboard_server_page_set_roots (PlugboardServerPage *self,
                                 McpRoots            *roots)
{
  g_return_if_fail (PLUGBOARD_IS_SERVER_PAGE (self));
  g_return_if_fail (roots == NULL || MCP_IS_ROOTS (roots));

  if (self->roots == roots)
    return;
  if (self->roots != NULL)
    g_signal_handlers_disconnect_by_func (self->roots, on_roots_changed_cb, self);
  g_set_object (&self->roots, roots);
  if (roots != NULL)
    g_signal_connect_object (roots, "changed", G_CALLBACK (on_roots_changed_cb), self, G_CONNECT_SWAPPED);
  update_roots (self);
}

void
plugboard_server_page_set_signing_in (PlugboardServerPage *self,
                                      gboolean             signing_in)
{
  g_return_if_fail (PLUGBOARD_IS_SERVER_PAGE (self));

  signing_in = !!signing_in;
  if (self->signing_in == signing_in)
    return;

  self->signing_in = signing_in;
  /* A new attempt: the last failure no longer applies. */
  if (signing_in)
    plugboard_server_page_set_sign_in_error (self, NULL);
  plugboard_server_page_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SIGNING_IN]);
}

void
plugboard_server_page_set_sign_in_url (PlugboardServerPage *self,
                                       const char          *url)
{
  g_return_if_fail (PLUGBOARD_IS_SERVER_PAGE (self));

  if (g_strcmp0 (self->sign_in_url, url) == 0)
    return;
  g_free (self->sign_in_url);
  self->sign_in_url = g_strdup (url);
  plugboard_server_page_update (self);
}

void
plugboard_server_page_set_sign_in_error (PlugboardServerPage *self,
                                         const char          *message)
{
  g_return_if_fail (PLUGBOARD_IS_SERVER_PAGE (self));

  if (g_strcmp0 (self->sign_in_error, message) == 0)
    return;

  g_free (self->sign_in_error);
  self->sign_in_error = g_strdup (message);
  plugboard_server_page_update (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SIGN_IN_ERROR]);
}

const char *
plugboard_server_page_get_state_title (PlugboardServerPage *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_SERVER_PAGE (self), NULL);

  return gtk_label_get_text (self->state_title_label);
}

const char *
plugboard_server_page_get_state_detail (PlugboardServerPage *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_SERVER_PAGE (self), NULL);

  return self->state_detail != NULL ? self->state_detail : "";
}
