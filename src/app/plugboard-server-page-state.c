/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-server-page"

/* PlugboardServerPage's state card: the state in plain words with its
 * reason (and a failed stdio server's last stderr lines), the command or
 * address awaiting approval, the sign-in address, and the buttons that
 * act on the state. */

#include "config.h"

#include "plugboard-server-page-private.h"

#include <string.h>

#include <glib/gi18n.h>

#include "plugboard-doctor-dialog.h"

#include "plugboard-common.h"

/* What the engine puts between the reason and the stderr lines of a stdio
 * server's failure (mcp-server-connection.c, describe_failure). */
#define STDERR_MARKER "\nLast lines on stderr:"

/* The card's icon, title, their style and the buttons are bound in the
 * template to the connection's state and approval and the page's
 * signing-in (the closures below); the detail, the stderr lines and the
 * command or address are set here. */

static const char *
card_style_class (gboolean       signing_in,
                  McpServerState state,
                  McpApproval    approval)
{
  if (signing_in)
    return NULL;

  switch (state)
    {
    case MCP_SERVER_STATE_PENDING:
      return NULL;
    case MCP_SERVER_STATE_CONNECTED:
      return "success";
    case MCP_SERVER_STATE_FAILED:
      return "error";
    case MCP_SERVER_STATE_NEEDS_AUTH:
      return "warning";
    case MCP_SERVER_STATE_DISABLED:
      return approval == MCP_APPROVAL_PENDING || approval == MCP_APPROVAL_CHANGED ? "warning" : "dim-label";
    default:
      g_assert_not_reached ();
    }
}

static gboolean
card_awaiting (McpServerState state,
               McpApproval    approval)
{
  return state == MCP_SERVER_STATE_DISABLED &&
         (approval == MCP_APPROVAL_PENDING || approval == MCP_APPROVAL_CHANGED);
}

static gboolean
card_rejected (McpServerState state,
               McpApproval    approval)
{
  return state == MCP_SERVER_STATE_DISABLED && approval == MCP_APPROVAL_REJECTED;
}

static gboolean
card_spinning (PlugboardServerPage *self,
               gboolean             signing_in,
               McpServerState       state)
{
  return signing_in || state == MCP_SERVER_STATE_PENDING;
}

static char *
card_indicator (PlugboardServerPage *self,
                gboolean             signing_in,
                McpServerState       state)
{
  return g_strdup (card_spinning (self, signing_in, state) ? "spinner" : "icon");
}

static char *
card_icon_name (PlugboardServerPage *self,
                gboolean             signing_in,
                McpServerState       state,
                McpApproval          approval)
{
  if (signing_in)
    return NULL;

  switch (state)
    {
    case MCP_SERVER_STATE_CONNECTED:
      return g_strdup ("emblem-ok-symbolic");
    case MCP_SERVER_STATE_FAILED:
      return g_strdup ("dialog-error-symbolic");
    case MCP_SERVER_STATE_NEEDS_AUTH:
      return g_strdup ("dialog-password-symbolic");
    case MCP_SERVER_STATE_DISABLED:
      return g_strdup (card_awaiting (state, approval) ? "security-medium-symbolic"
                                                       : "action-unavailable-symbolic");
    case MCP_SERVER_STATE_PENDING:
    default:
      return NULL;
    }
}

static GStrv
card_image_classes (PlugboardServerPage *self,
                    gboolean             signing_in,
                    McpServerState       state,
                    McpApproval          approval)
{
  const char *style_class = card_style_class (signing_in, state, approval);

  return g_strdupv ((char *[]) { (char *)style_class, NULL });
}

static GStrv
card_title_classes (PlugboardServerPage *self,
                    gboolean             signing_in,
                    McpServerState       state,
                    McpApproval          approval)
{
  const char *style_class = card_style_class (signing_in, state, approval);

  return g_strdupv ((char *[]) { (char *)"title-4", (char *)style_class, NULL });
}

static char *
card_title (PlugboardServerPage *self,
            gboolean             signing_in,
            McpServerState       state,
            McpApproval          approval)
{
  if (signing_in)
    return g_strdup (_("Waiting for Sign-In"));

  switch (state)
    {
    case MCP_SERVER_STATE_PENDING:
      return g_strdup (_("Connecting…"));
    case MCP_SERVER_STATE_CONNECTED:
      return g_strdup (_("Connected"));
    case MCP_SERVER_STATE_FAILED:
      return g_strdup (_("Connection Failed"));
    case MCP_SERVER_STATE_NEEDS_AUTH:
      return g_strdup (_("Sign-In Required"));
    case MCP_SERVER_STATE_DISABLED:
      if (approval == MCP_APPROVAL_PENDING)
        return g_strdup (_("Awaiting Approval"));
      if (approval == MCP_APPROVAL_CHANGED)
        return g_strdup (_("Changed Since Approval"));
      if (approval == MCP_APPROVAL_REJECTED)
        return g_strdup (_("Rejected"));
      return g_strdup (_("Disabled"));
    default:
      g_assert_not_reached ();
    }
}

static gboolean
card_shows_sign_in (PlugboardServerPage *self,
                    gboolean             signing_in,
                    McpServerState       state)
{
  return !signing_in && state == MCP_SERVER_STATE_NEEDS_AUTH;
}

static gboolean
card_shows_approve (PlugboardServerPage *self,
                    gboolean             signing_in,
                    McpServerState       state,
                    McpApproval          approval)
{
  return !signing_in && (card_awaiting (state, approval) || card_rejected (state, approval));
}

static gboolean
card_shows_reject (PlugboardServerPage *self,
                   gboolean             signing_in,
                   McpServerState       state,
                   McpApproval          approval)
{
  return !signing_in && card_awaiting (state, approval);
}

static gboolean
card_shows_enable (PlugboardServerPage *self,
                   gboolean             signing_in,
                   McpServerState       state,
                   McpApproval          approval)
{
  return !signing_in && state == MCP_SERVER_STATE_DISABLED &&
         !card_awaiting (state, approval) && !card_rejected (state, approval);
}

static gboolean
card_shows_reconnect (PlugboardServerPage *self,
                      gboolean             signing_in,
                      McpServerState       state)
{
  return !signing_in && (state == MCP_SERVER_STATE_CONNECTED || state == MCP_SERVER_STATE_FAILED);
}

static gboolean
card_shows_diagnose (PlugboardServerPage *self,
                     gboolean             signing_in,
                     McpServerState       state)
{
  return !signing_in && (state == MCP_SERVER_STATE_FAILED || state == MCP_SERVER_STATE_NEEDS_AUTH);
}

/* The connection doctor, for the server the page shows. */
static void
diagnose_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  PlugboardServerPage *self = PLUGBOARD_SERVER_PAGE (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  PlugboardDoctorDialog *dialog;

  if (self->connection == NULL)
    return;
  dialog = plugboard_doctor_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                        self->connection);
  gtk_window_present (GTK_WINDOW (dialog));
}

static char *
card_reconnect_label (PlugboardServerPage *self,
                      McpServerState       state)
{
  return g_strdup (state == MCP_SERVER_STATE_FAILED ? _("Try _Again") : _("_Reconnect"));
}

static char *
card_sign_in_error (PlugboardServerPage *self,
                    const char          *sign_in_error)
{
  return g_strdup (sign_in_error != NULL ? sign_in_error : "");
}

static gboolean
card_shows_sign_in_error (PlugboardServerPage *self,
                          const char          *sign_in_error,
                          gboolean             signing_in)
{
  return sign_in_error != NULL && !signing_in;
}

static void
set_detail (PlugboardServerPage *self,
            const char          *detail)
{
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

void
plugboard_server_page_update_state (PlugboardServerPage *self)
{
  McpServerConfig *config = mcp_server_connection_get_config (self->connection);
  const GError *error = mcp_server_connection_get_error (self->connection);
  McpServerState state = mcp_server_connection_get_state (self->connection);
  McpApproval approval = plugboard_server_page_get_approval (self);
  gboolean show_command = FALSE;
  gboolean show_sign_in_url = FALSE;

  gtk_widget_set_visible (GTK_WIDGET (self->stderr_label), FALSE);

  if (self->signing_in)
    {
      /* Where to go when no browser opened, and why the system may ask
       * about a keyring (the tokens go there). */
      set_detail (self,
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
            set_detail (self, detail);
          }
          break;

        case MCP_SERVER_STATE_CONNECTED:
          {
            g_autofree char *counts = dup_counts (self->connection);
            /* Translators: the argument is e.g. "3 tools, 2 prompts". */
            g_autofree char *detail = g_strdup_printf (_("Ready, with %s."), counts);

            set_detail (self, detail);
          }
          break;

        case MCP_SERVER_STATE_FAILED:
          set_detail (self,
                      error != NULL ? error->message
                                   : _("The server stopped without saying why."));
          break;

        case MCP_SERVER_STATE_NEEDS_AUTH:
          set_detail (self,
                      error != NULL ? error->message
                                   : _("This server needs you to sign in before it answers."));
          break;

        case MCP_SERVER_STATE_DISABLED:
          if (approval == MCP_APPROVAL_PENDING)
            {
              show_command = TRUE;
              set_detail (self,
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

              show_command = TRUE;
              /* Translators: %s is one line or more of what changed (old → new, secrets masked) */
              detail = g_strdup_printf (_("What this project’s .mcp.json runs changed since you approved it:\n%s\n"
                                          "Nothing runs until you approve it again."), lines);
              set_detail (self, detail);
            }
          else if (approval == MCP_APPROVAL_REJECTED)
            {
              show_command = TRUE;
              set_detail (self,
                          _("You rejected this server from the project’s .mcp.json, so it does not run. Approve it to start it."));
            }
          else
            {
              set_detail (self,
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
}

static void
on_copy_sign_in_url_clicked_cb (PlugboardServerPage *self)
{
  if (self->sign_in_url != NULL)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), self->sign_in_url);
}

void
plugboard_server_page_class_init_state (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, on_copy_sign_in_url_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, card_spinning);
  gtk_widget_class_bind_template_callback (widget_class, card_indicator);
  gtk_widget_class_bind_template_callback (widget_class, card_icon_name);
  gtk_widget_class_bind_template_callback (widget_class, card_image_classes);
  gtk_widget_class_bind_template_callback (widget_class, card_title_classes);
  gtk_widget_class_bind_template_callback (widget_class, card_title);
  gtk_widget_class_bind_template_callback (widget_class, card_shows_sign_in);
  gtk_widget_class_bind_template_callback (widget_class, card_shows_approve);
  gtk_widget_class_bind_template_callback (widget_class, card_shows_reject);
  gtk_widget_class_bind_template_callback (widget_class, card_shows_enable);
  gtk_widget_class_bind_template_callback (widget_class, card_shows_reconnect);
  gtk_widget_class_bind_template_callback (widget_class, card_shows_diagnose);
  gtk_widget_class_install_action (widget_class, "server-page.diagnose", NULL, diagnose_action);
  gtk_widget_class_bind_template_callback (widget_class, card_reconnect_label);
  gtk_widget_class_bind_template_callback (widget_class, card_sign_in_error);
  gtk_widget_class_bind_template_callback (widget_class, card_shows_sign_in_error);
}
