/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-window"

/* PlugboardWindow: OAuth sign-in of a server through McpProject — its
 * start, its cancel, the sign-in page's address (shown and opened in the
 * browser) and how it ended. */

#include "config.h"

#include "plugboard-window-private.h"

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "plugboard-common.h"
#include "plugboard-sign-in-steps.h"

typedef struct
{
  PlugboardWindow *self;
  char            *name;
  GCancellable    *cancellable;
} SignIn;

static void
sign_in_free (SignIn *sign_in)
{
  g_clear_object (&sign_in->self);
  g_clear_object (&sign_in->cancellable);
  g_free (sign_in->name);
  g_free (sign_in);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SignIn, sign_in_free)

static void
on_show_uri_done_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(PlugboardWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!gtk_show_uri_full_finish (GTK_WINDOW (object), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autoptr(GError) said = g_error_new (MCP_ERROR, MCP_ERROR_FAILED,
                                            _("No browser could be opened (%s): copy the sign-in address "
                                              "from the server’s page into one"),
                                            error->message);

      plugboard_window_show_error_toast (self, said);
    }
}

/* A sign-in's address, checked by the engine's URL policy (@host is the
 * host it saw), shown on the server's page and opened in the browser:
 * $BROWSER as the CLI reads it (a command line; the URL goes last, as its
 * own argument, no shell), or the desktop's (gtk_show_uri_full(): a
 * failure is said here, where the page also shows the address to copy;
 * GTK's own "Could not show link" is not). For tests,
 * PLUGBOARD_TEST_OPEN_URL_COMMAND comes first. */
void
plugboard_window_show_sign_in_url (PlugboardWindow *self,
                                   const char      *name,
                                   const char      *url,
                                   const char      *host)
{
  const char *command = g_getenv ("PLUGBOARD_TEST_OPEN_URL_COMMAND");
  g_autofree char *title = NULL;

  g_return_if_fail (PLUGBOARD_IS_WINDOW (self));
  g_return_if_fail (name != NULL && url != NULL);

  /* Translators: the first %s is a server's name, the second the host its sign-in page is at */
  title = g_strdup_printf (_("Opening the sign-in page of “%s” at %s"), name, host);
  plugboard_window_show_toast (self, title);
  if (g_hash_table_contains (self->sign_ins, name))
    {
      g_hash_table_replace (self->sign_in_urls, g_strdup (name), g_strdup (url));
      plugboard_window_update_content (self);
    }

  if (command == NULL || command[0] == '\0')
    command = g_getenv ("BROWSER");
  if (command != NULL && command[0] != '\0')
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *program = NULL;
      g_autoptr(GError) said = NULL;

      if (plugboard_run_url_command (command, url, &program, &error))
        return;
      if (error->domain == G_SHELL_ERROR)
        said = g_error_new (MCP_ERROR, MCP_ERROR_FAILED,
                            _("$BROWSER cannot be read as a command line (%s): copy the "
                              "sign-in address from the server’s page into a browser"),
                            error->message);
      else
        said = g_error_new (MCP_ERROR, MCP_ERROR_FAILED,
                            _("The browser “%s” could not be started (%s): copy the "
                              "sign-in address from the server’s page into one"),
                            program, error->message);
      plugboard_window_show_error_toast (self, said);
      return;
    }

  gtk_show_uri_full (GTK_WINDOW (self), url, GDK_CURRENT_TIME, NULL,
                     on_show_uri_done_cb, g_object_ref (self));
}

static void
on_signed_in_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(SignIn) sign_in = user_data;
  PlugboardWindow *self = sign_in->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *title = NULL;
  gboolean ok;

  ok = mcp_project_sign_in_finish (MCP_PROJECT (object), result, &error);

  /* Only the attempt this window still follows may change what it shows. */
  if (g_hash_table_lookup (self->sign_ins, sign_in->name) == sign_in->cancellable)
    {
      g_hash_table_remove (self->sign_ins, sign_in->name);
      g_hash_table_remove (self->sign_in_urls, sign_in->name);
    }

  if (ok)
    {
      g_hash_table_remove (self->sign_in_errors, sign_in->name);
      title = g_strdup_printf (_("Signed in to “%s”"), sign_in->name);
      plugboard_window_show_toast (self, title);
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      if (MCP_PROJECT (object) == self->project)
        {
          title = g_strdup_printf (_("Sign-in to “%s” cancelled"), sign_in->name);
          plugboard_window_show_toast (self, title);
        }
    }
  else if (MCP_PROJECT (object) == self->project)
    {
      g_autofree char *escaped = g_markup_escape_text (error->message, -1);
      AdwToast *toast = adw_toast_new (escaped);

      g_hash_table_replace (self->sign_in_errors, g_strdup (sign_in->name),
                            g_strdup (error->message));
      /* What went wrong, step by step, one click away. */
      adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
      adw_toast_set_button_label (toast, _("Show _Steps"));
      adw_toast_set_action_name (toast, "win.sign-in-steps");
      adw_toast_set_action_target_value (toast, g_variant_new_string (sign_in->name));
      adw_toast_overlay_add_toast (self->toast_overlay, toast);
    }

  plugboard_window_update_content (self);
}

static void
sign_in_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  const char *name = g_variant_get_string (parameter, NULL);
  SignIn *sign_in;

  if (self->project == NULL || g_hash_table_contains (self->sign_ins, name))
    return;

  sign_in = g_new0 (SignIn, 1);
  sign_in->self = g_object_ref (self);
  sign_in->name = g_strdup (name);
  sign_in->cancellable = g_cancellable_new ();
  g_hash_table_insert (self->sign_ins, g_strdup (name), g_object_ref (sign_in->cancellable));
  g_hash_table_remove (self->sign_in_errors, name);
  plugboard_window_update_content (self);

  mcp_project_sign_in_async (self->project, name, sign_in->cancellable, on_signed_in_cb, sign_in);
}

static void
cancel_sign_in_action (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  GCancellable *cancellable = g_hash_table_lookup (self->sign_ins, g_variant_get_string (parameter, NULL));

  if (cancellable != NULL)
    g_cancellable_cancel (cancellable);
}

void
plugboard_window_cancel_sign_ins (PlugboardWindow *self)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->sign_ins);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_cancellable_cancel (value);
  g_hash_table_remove_all (self->sign_ins);
  g_hash_table_remove_all (self->sign_in_errors);
  g_hash_table_remove_all (self->sign_in_urls);
}

/* The sign-in debugger of a server: its steps, following its trace. */
static void
sign_in_steps_action (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  const char *name = g_variant_get_string (parameter, NULL);
  McpServerConnection *connection;
  PlugboardSignInSteps *steps;

  if (self->project == NULL || name[0] == '\0')
    return;
  connection = mcp_server_manager_lookup (mcp_project_get_manager (self->project), name);
  if (connection == NULL)
    return;

  steps = plugboard_sign_in_steps_new (GTK_WINDOW (self), name, mcp_server_connection_get_trace (connection));
  gtk_window_present (GTK_WINDOW (steps));
}

static const GActionEntry sign_in_actions[] = {
  { "sign-in", sign_in_action, "s" },
  { "cancel-sign-in", cancel_sign_in_action, "s" },
  { "sign-in-steps", sign_in_steps_action, "s" },
};

void
plugboard_window_sign_in_init (PlugboardWindow *self)
{
  self->sign_ins = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->sign_in_errors = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->sign_in_urls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  plugboard_window_add_actions (self, sign_in_actions, G_N_ELEMENTS (sign_in_actions));
}
