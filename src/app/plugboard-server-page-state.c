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

#include "plugboard-common.h"

/* What the engine puts between the reason and the stderr lines of a stdio
 * server's failure (mcp-server-connection.c, describe_failure). */
#define STDERR_MARKER "\nLast lines on stderr:"

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

void
plugboard_server_page_update_state (PlugboardServerPage *self)
{
  McpServerConfig *config = mcp_server_connection_get_config (self->connection);
  const GError *error = mcp_server_connection_get_error (self->connection);
  McpServerState state = mcp_server_connection_get_state (self->connection);
  McpApproval approval = plugboard_server_page_get_approval (self);
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
}
