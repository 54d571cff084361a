/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-interaction"

#include "config.h"

#include "plugboard-interaction.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-url-policy.h"
#include "plugboard-common.h"
#include "plugboard-elicitation-dialog.h"
#include "plugboard-sampling-dialog.h"
#include "plugboard-window.h"

struct _PlugboardInteraction
{
  McpInteraction parent_instance;

  GWeakRef       window;
};

G_DEFINE_FINAL_TYPE (PlugboardInteraction, plugboard_interaction, MCP_TYPE_INTERACTION)

/* The window the dialogs go over, or NULL once it is gone (transfer full). */
static GtkWindow *
dup_window (PlugboardInteraction *self)
{
  return g_weak_ref_get (&self->window);
}

/* ------------------------------------------------------------------------ */
/* A yes-or-no question in a message dialog                                 */

/* The dialog's answer goes to @task once: the response @yes is TRUE, any
 * other FALSE; cancelling what asked closes the dialog and fails the task
 * with G_IO_ERROR_CANCELLED. */
typedef struct
{
  GTask        *task;
  char         *yes;
  GCancellable *cancellable;
  gulong        cancelled_id;
} Question;

static void
question_free (Question *question)
{
  /* Not g_cancellable_disconnect(): this may run within the cancellable's
   * own "cancelled" (the dialog closing there), where that would wait for
   * itself. */
  if (question->cancelled_id != 0)
    g_signal_handler_disconnect (question->cancellable, question->cancelled_id);
  g_clear_object (&question->cancellable);
  /* Gone unanswered (its window closed): no. */
  if (question->task != NULL)
    g_task_return_boolean (question->task, FALSE);
  g_clear_object (&question->task);
  g_free (question->yes);
  g_free (question);
}

static void
on_question_response_cb (AdwMessageDialog *dialog,
                         const char       *response,
                         Question         *question)
{
  GTask *task = g_steal_pointer (&question->task);

  /* adw_message_dialog_response() alone leaves the dialog open. */
  gtk_window_close (GTK_WINDOW (dialog));
  if (task == NULL)
    return;
  g_task_return_boolean (task, g_strcmp0 (response, question->yes) == 0);
  g_object_unref (task);
}

static void
on_question_cancelled_cb (GCancellable     *cancellable,
                          AdwMessageDialog *dialog)
{
  Question *question = g_object_get_data (G_OBJECT (dialog), "question");
  GTask *task = g_steal_pointer (&question->task);

  if (task != NULL)
    {
      g_task_return_error_if_cancelled (task);
      g_object_unref (task);
    }
  gtk_window_close (GTK_WINDOW (dialog));
}

static void
ask_question (AdwMessageDialog *dialog,
              const char       *yes,
              GTask            *task)
{
  Question *question = g_new0 (Question, 1);
  GCancellable *cancellable = g_task_get_cancellable (task);

  question->task = task;
  question->yes = g_strdup (yes);
  g_object_set_data_full (G_OBJECT (dialog), "question", question, (GDestroyNotify) question_free);
  g_signal_connect (dialog, "response", G_CALLBACK (on_question_response_cb), question);
  if (cancellable != NULL)
    {
      question->cancellable = g_object_ref (cancellable);
      /* Not cancelled yet: the callers returned at once when it was. */
      question->cancelled_id = g_signal_connect (cancellable, "cancelled",
                                                 G_CALLBACK (on_question_cancelled_cb), dialog);
    }
  gtk_window_present (GTK_WINDOW (dialog));
}

static gboolean
plugboard_interaction_question_finish (McpInteraction  *interaction,
                                       GAsyncResult    *result,
                                       GError         **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ------------------------------------------------------------------------ */
/* May this tool run?                                                       */

static void
plugboard_interaction_ask_tool_async (McpInteraction      *interaction,
                                      McpPoolTool         *tool,
                                      JsonObject          *arguments,
                                      const char          *rule,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  PlugboardInteraction *self = PLUGBOARD_INTERACTION (interaction);
  g_autoptr(GtkWindow) parent = dup_window (self);
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  AdwMessageDialog *dialog;
  GtkWidget *label;
  GtkWidget *scroller;
  g_autofree char *heading = NULL;
  g_autofree char *body = NULL;
  g_autofree char *pretty = NULL;
  GString *why;

  if (g_task_return_error_if_cancelled (task))
    {
      g_object_unref (task);
      return;
    }

  /* Translators: %s is a tool's name */
  heading = g_strdup_printf (_("Run “%s”?"), mcp_pool_tool_get_display_name (tool));

  why = g_string_new (NULL);
  /* Translators: the first %s is a tool's qualified name, the second a server name */
  g_string_append_printf (why, _("%s of the server “%s”"),
                          mcp_pool_tool_get_qualified_name (tool),
                          mcp_pool_tool_get_server_name (tool));
  g_string_append (why, "\n\n");
  if (mcp_pool_tool_get_destructive (tool))
    g_string_append (why, _("This tool may delete or overwrite data."));
  if (mcp_pool_tool_get_open_world (tool))
    {
      if (mcp_pool_tool_get_destructive (tool))
        g_string_append_c (why, ' ');
      g_string_append (why, _("It may reach outside systems, such as the web."));
    }
  if (rule != NULL)
    {
      McpProject *project = PLUGBOARD_IS_WINDOW (parent) ? plugboard_window_get_project (PLUGBOARD_WINDOW (parent)) : NULL;
      McpPermissionDecision decision = { 0 };

      if (mcp_pool_tool_get_destructive (tool) || mcp_pool_tool_get_open_world (tool))
        g_string_append_c (why, ' ');
      /* an allow rule a change of the tool suspended says so */
      if (project != NULL)
        mcp_permissions_decide_tool (mcp_project_get_permissions (project), tool, &decision);
      if (decision.reason == MCP_PERMISSION_REASON_CHANGED_SINCE_ALLOWED)
        {
          g_autofree char *described = mcp_permission_decision_describe (&decision);

          g_string_append (why, described);
          g_string_append_c (why, '.');
        }
      else
        g_string_append_printf (why, _("The permission rule “%s” says to ask first."), rule);
    }
  body = g_string_free (why, FALSE);

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (parent, heading, body));
  adw_message_dialog_add_responses (dialog,
                                    "cancel", _("_Cancel"),
                                    "run", _("_Run"),
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, "run",
                                              mcp_pool_tool_get_destructive (tool)
                                                ? ADW_RESPONSE_DESTRUCTIVE
                                                : ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (dialog, "cancel");
  adw_message_dialog_set_close_response (dialog, "cancel");

  pretty = arguments != NULL ? plugboard_json_object_to_text (arguments, TRUE) : g_strdup ("{}");
  label = gtk_label_new (pretty);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_yalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_widget_add_css_class (label, "monospace");
  gtk_widget_set_margin_start (label, 12);
  gtk_widget_set_margin_end (label, 12);
  gtk_widget_set_margin_top (label, 12);
  gtk_widget_set_margin_bottom (label, 12);
  gtk_accessible_update_property (GTK_ACCESSIBLE (label),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Arguments"),
                                  -1);
  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), 240);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), label);
  gtk_widget_add_css_class (scroller, "card");
  adw_message_dialog_set_extra_child (dialog, scroller);

  ask_question (dialog, "run", task);
}

/* ------------------------------------------------------------------------ */
/* A web page the server asks the person to open                            */

static void
plugboard_interaction_open_url_async (McpInteraction      *interaction,
                                      const char          *server_name,
                                      const char          *url,
                                      const char          *host,
                                      const char          *message,
                                      GCancellable        *cancellable,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data)
{
  PlugboardInteraction *self = PLUGBOARD_INTERACTION (interaction);
  g_autoptr(GtkWindow) parent = dup_window (self);
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  AdwMessageDialog *dialog;
  g_autofree char *heading = NULL;
  g_autofree char *body = NULL;
  g_autofree char *body_host = NULL;

  if (g_task_return_error_if_cancelled (task))
    {
      g_object_unref (task);
      return;
    }

  /* Translators: %s is a server name */
  heading = g_strdup_printf (_("“%s” Asks You to Open a Web Page"), server_name);
  body = g_strdup_printf ("%s%s%s\n\n%s",
                          message ? message : "", message ? "\n\n" : "", url,
                          _("Plugboard opened this address in your browser. When you have finished there, "
                            "choose Continue and the tool is called again."));
  /* Translators: the first %s is the dialog's text, the second the host of the address it names */
  body_host = g_strdup_printf (_("%s\n\n(at %s)"), body, host);

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (parent, heading, body_host));
  adw_message_dialog_add_responses (dialog,
                                    "cancel", _("_Cancel"),
                                    "done", _("C_ontinue"),
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, "done", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_close_response (dialog, "cancel");

  gtk_show_uri (parent, url, GDK_CURRENT_TIME);
  ask_question (dialog, "done", task);
}

/* ------------------------------------------------------------------------ */
/* A link an app's page asks to open (ui/open-link)                         */

static void
open_link_answered_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  gboolean open = g_task_propagate_boolean (G_TASK (result), &error);

  if (error != NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (open)
    {
      g_autoptr(GtkWindow) parent = dup_window (g_task_get_source_object (task));

      plugboard_show_url (parent, g_task_get_task_data (task));
    }
  g_task_return_boolean (task, open);
}

static void
plugboard_interaction_open_link_async (McpInteraction      *interaction,
                                       const char          *server_name,
                                       const char          *url,
                                       const char          *host,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  PlugboardInteraction *self = PLUGBOARD_INTERACTION (interaction);
  g_autoptr(GtkWindow) parent = dup_window (self);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(GError) error = NULL;
  g_autofree char *checked_host = NULL;
  g_autofree char *escaped_server = NULL;
  g_autofree char *escaped_host = NULL;
  g_autofree char *body = NULL;
  AdwMessageDialog *dialog;
  GtkWidget *label;

  g_task_set_source_tag (task, plugboard_interaction_open_link_async);
  if (g_task_return_error_if_cancelled (task))
    return;

  /* The bridge checked it; a front end opens nothing the policy refuses. */
  if (!mcp_url_policy_check (url, MCP_URL_USE_BROWSER, &checked_host, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_task_set_task_data (task, g_strdup (url), g_free);

  escaped_server = g_markup_escape_text (server_name, -1);
  escaped_host = g_markup_escape_text (host != NULL ? host : checked_host, -1);
  /* Translators: the first %s is a server's name, the second the host of the
   * address its interface asks to open (shown in bold) */
  body = g_strdup_printf (_("The interface of “%s” asks to open a page at\n<big><b>%s</b></big>"),
                          escaped_server, escaped_host);

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (parent, _("Open Link?"), NULL));
  adw_message_dialog_set_body_use_markup (dialog, TRUE);
  adw_message_dialog_set_body (dialog, body);
  adw_message_dialog_add_responses (dialog,
                                    "cancel", _("_Cancel"),
                                    "open", _("_Open"),
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, "open", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (dialog, "cancel");
  adw_message_dialog_set_close_response (dialog, "cancel");

  /* The whole address, to read or copy; long ones cut in the middle. */
  label = gtk_label_new (url);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
  gtk_widget_set_tooltip_text (label, url);
  gtk_widget_add_css_class (label, "monospace");
  gtk_widget_add_css_class (label, "dim-label");
  gtk_accessible_update_property (GTK_ACCESSIBLE (label),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Address"),
                                  -1);
  adw_message_dialog_set_extra_child (dialog, label);

  ask_question (dialog, "open",
                g_task_new (self, cancellable, open_link_answered_cb, g_steal_pointer (&task)));
}

/* ------------------------------------------------------------------------ */
/* A file an app's page offers (ui/download-file)                           */

typedef struct
{
  GBytes               *contents;
  GtkFileChooserNative *chooser;
  gulong                cancelled_id;
} SaveFile;

static void
save_file_free (SaveFile *save)
{
  g_clear_pointer (&save->contents, g_bytes_unref);
  if (save->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (save->chooser));
  g_clear_object (&save->chooser);
  g_free (save);
}

static void
save_file_written_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!plugboard_write_file_finish (result, &error))
    {
      g_autofree char *where = g_file_get_parse_name (G_FILE (object));
      g_autoptr(GtkWindow) parent = dup_window (g_task_get_source_object (task));
      GtkWidget *dialog;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      /* Translators: the first %s is a file's path, the second why it could not be written */
      g_prefix_error (&error, _("Could not save “%s”: "), where);
      dialog = adw_message_dialog_new (parent, _("Could Not Save the File"), error->message);
      adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
      gtk_window_present (GTK_WINDOW (dialog));
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_task_return_boolean (task, TRUE);
}

static void
save_file_chosen_cb (GtkNativeDialog *chooser,
                     int              response,
                     GTask           *task)
{
  SaveFile *save = g_task_get_task_data (task);
  g_autoptr(GFile) target = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    target = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  g_clear_signal_handler (&save->cancelled_id, g_task_get_cancellable (task));
  if (target == NULL)
    {
      g_task_return_boolean (task, FALSE);
      g_object_unref (task);
      return;
    }
  plugboard_write_file_async (target, save->contents, g_task_get_cancellable (task),
                              save_file_written_cb, task);
}

static void
save_file_cancelled_cb (GCancellable *cancellable,
                        GTask        *task)
{
  SaveFile *save = g_task_get_task_data (task);

  /* The chooser goes as if the person had cancelled it. */
  gtk_native_dialog_hide (GTK_NATIVE_DIALOG (save->chooser));
  g_signal_emit_by_name (save->chooser, "response", GTK_RESPONSE_CANCEL);
}

static void
plugboard_interaction_save_file_async (McpInteraction      *interaction,
                                       const char          *server_name,
                                       const char          *name,
                                       const char          *content_type,
                                       GBytes              *contents,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  PlugboardInteraction *self = PLUGBOARD_INTERACTION (interaction);
  g_autoptr(GtkWindow) parent = dup_window (self);
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  g_autofree char *title = NULL;
  SaveFile *save;

  g_task_set_source_tag (task, plugboard_interaction_save_file_async);
  if (g_task_return_error_if_cancelled (task))
    {
      g_object_unref (task);
      return;
    }

  save = g_new0 (SaveFile, 1);
  save->contents = g_bytes_ref (contents);
  g_task_set_task_data (task, save, (GDestroyNotify) save_file_free);

  /* Translators: %s is a server's name */
  title = g_strdup_printf (_("Save File From “%s”"), server_name);
  save->chooser = gtk_file_chooser_native_new (title, parent, GTK_FILE_CHOOSER_ACTION_SAVE,
                                               _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (save->chooser), TRUE);
  if (name != NULL && name[0] != '\0')
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (save->chooser), name);
  g_signal_connect (save->chooser, "response", G_CALLBACK (save_file_chosen_cb), task);
  if (cancellable != NULL)
    save->cancelled_id = g_signal_connect (cancellable, "cancelled",
                                           G_CALLBACK (save_file_cancelled_cb), task);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (save->chooser));
}

/* ------------------------------------------------------------------------ */
/* A server's request answered in a dialog                                 */

/* The code and message a declined sampling/createMessage answers with, as
 * the MCP TypeScript SDK's clients do. */
#define SAMPLING_REJECTED_CODE (-1)

/* How the reply to a server's request goes: the dialog's "answered" gives
 * the result (NULL: declined), cancelling the request (the server withdrew
 * it) closes the dialog, and a dialog gone unanswered (its window closed)
 * gives what @unanswered makes. */
typedef struct
{
  GTask        *reply;
  GCancellable *cancellable;
  gulong        cancelled_id;
  void        (*unanswered) (GTask *reply);
} Request;

/* Elicitation: the person did not take part. */
static void
return_cancel_action (GTask *reply)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  JsonObject *object = json_object_new ();

  json_object_set_string_member (object, "action", "cancel");
  json_node_take_object (node, object);
  g_task_return_pointer (reply, node, (GDestroyNotify) json_node_unref);
}

/* Sampling: nothing was approved. The message goes to the server in the
 * JSON-RPC error: not translated. */
static void
return_rejected (GTask *reply)
{
  g_task_return_new_error (reply, MCP_JSONRPC_ERROR, SAMPLING_REJECTED_CODE,
                           "User rejected sampling request");
}

static void
request_free (Request *request)
{
  if (request->cancelled_id != 0)
    g_signal_handler_disconnect (request->cancellable, request->cancelled_id);
  g_clear_object (&request->cancellable);

  if (request->reply != NULL)
    request->unanswered (request->reply);
  g_clear_object (&request->reply);
  g_free (request);
}

static void
on_request_answered_cb (GtkWindow *dialog,
                        JsonNode  *result,
                        Request   *request)
{
  GTask *reply = g_steal_pointer (&request->reply);

  if (reply == NULL)
    return;

  if (result != NULL)
    g_task_return_pointer (reply, json_node_ref (result), (GDestroyNotify) json_node_unref);
  else
    request->unanswered (reply);
  g_object_unref (reply);
}

static void
on_request_cancelled_cb (GCancellable *cancellable,
                         GtkWindow    *dialog)
{
  Request *request = g_object_get_data (G_OBJECT (dialog), "request");
  GTask *reply = g_steal_pointer (&request->reply);

  if (reply != NULL)
    {
      g_task_return_new_error (reply, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                               _("The server withdrew its request"));
      g_object_unref (reply);
    }
  gtk_window_close (dialog);
}

/* @dialog (with an "answered" signal giving a JsonNode) answers @reply. */
static void
ask_request (GtkWindow *dialog,
             GTask     *reply,
             void     (*unanswered) (GTask *reply))
{
  Request *request = g_new0 (Request, 1);

  request->reply = reply;
  request->unanswered = unanswered;
  request->cancellable = g_task_get_cancellable (reply) ? g_object_ref (g_task_get_cancellable (reply)) : NULL;
  g_object_set_data_full (G_OBJECT (dialog), "request", request, (GDestroyNotify) request_free);
  if (request->cancellable != NULL)
    request->cancelled_id = g_signal_connect (request->cancellable, "cancelled",
                                              G_CALLBACK (on_request_cancelled_cb), dialog);
  g_signal_connect (dialog, "answered", G_CALLBACK (on_request_answered_cb), request);

  gtk_window_present (dialog);
}

typedef GtkWindow *(*RequestDialogNew) (GtkWindow  *parent,
                                        const char *server_name,
                                        JsonObject *params);

/* A server's request of @connection, answered by the dialog @dialog_new
 * makes over the window; @unanswered says what a closed dialog means. */
static void
ask_server_request (PlugboardInteraction *self,
                    McpServerConnection  *connection,
                    JsonObject           *params,
                    RequestDialogNew      dialog_new,
                    void                (*unanswered) (GTask *reply),
                    GCancellable         *cancellable,
                    GAsyncReadyCallback   callback,
                    gpointer              user_data)
{
  g_autoptr(GtkWindow) parent = dup_window (self);
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(JsonObject) empty = NULL;

  if (g_task_return_error_if_cancelled (task))
    {
      g_object_unref (task);
      return;
    }
  if (params == NULL)
    params = empty = json_object_new ();

  ask_request (dialog_new (parent, mcp_server_connection_get_name (connection), params),
               task, unanswered);
}

static void
plugboard_interaction_elicit_async (McpInteraction      *interaction,
                                    McpServerConnection *connection,
                                    JsonObject          *params,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  /* The person answers the server's elicitation/create in a dialog over
   * the window. */
  ask_server_request (PLUGBOARD_INTERACTION (interaction), connection, params,
                      (RequestDialogNew) plugboard_elicitation_dialog_new, return_cancel_action,
                      cancellable, callback, user_data);
}

static void
plugboard_interaction_sample_async (McpInteraction      *interaction,
                                    McpServerConnection *connection,
                                    JsonObject          *params,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  /* The person reads the server's sampling/createMessage, writes the reply
   * and approves it, or declines, in a dialog over the window. Nothing is
   * answered but what the dialog gives. */
  ask_server_request (PLUGBOARD_INTERACTION (interaction), connection, params,
                      (RequestDialogNew) plugboard_sampling_dialog_new, return_rejected,
                      cancellable, callback, user_data);
}

static JsonNode *
plugboard_interaction_answer_finish (McpInteraction  *interaction,
                                     GAsyncResult    *result,
                                     GError         **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ------------------------------------------------------------------------ */
/* Sign-in                                                                  */

static void
plugboard_interaction_show_sign_in_url (McpInteraction *interaction,
                                        const char     *server_name,
                                        const char     *url,
                                        const char     *host)
{
  g_autoptr(GtkWindow) window = dup_window (PLUGBOARD_INTERACTION (interaction));

  if (PLUGBOARD_IS_WINDOW (window))
    plugboard_window_show_sign_in_url (PLUGBOARD_WINDOW (window), server_name, url, host);
}

/* ------------------------------------------------------------------------ */

static void
plugboard_interaction_finalize (GObject *object)
{
  g_weak_ref_clear (&PLUGBOARD_INTERACTION (object)->window);

  G_OBJECT_CLASS (plugboard_interaction_parent_class)->finalize (object);
}

static void
plugboard_interaction_class_init (PlugboardInteractionClass *klass)
{
  McpInteractionClass *interaction_class = MCP_INTERACTION_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = plugboard_interaction_finalize;

  interaction_class->ask_tool_async = plugboard_interaction_ask_tool_async;
  interaction_class->ask_tool_finish = plugboard_interaction_question_finish;
  interaction_class->open_url_async = plugboard_interaction_open_url_async;
  interaction_class->open_url_finish = plugboard_interaction_question_finish;
  interaction_class->elicit_async = plugboard_interaction_elicit_async;
  interaction_class->elicit_finish = plugboard_interaction_answer_finish;
  interaction_class->sample_async = plugboard_interaction_sample_async;
  interaction_class->sample_finish = plugboard_interaction_answer_finish;
  interaction_class->show_sign_in_url = plugboard_interaction_show_sign_in_url;
  interaction_class->open_link_async = plugboard_interaction_open_link_async;
  interaction_class->open_link_finish = plugboard_interaction_question_finish;
  interaction_class->save_file_async = plugboard_interaction_save_file_async;
  interaction_class->save_file_finish = plugboard_interaction_question_finish;
}

static void
plugboard_interaction_init (PlugboardInteraction *self)
{
  g_weak_ref_init (&self->window, NULL);
}

McpInteraction *
plugboard_interaction_new (GtkWindow *window)
{
  PlugboardInteraction *self;

  g_return_val_if_fail (GTK_IS_WINDOW (window), NULL);

  self = g_object_new (PLUGBOARD_TYPE_INTERACTION, NULL);
  g_weak_ref_set (&self->window, window);

  return MCP_INTERACTION (self);
}
