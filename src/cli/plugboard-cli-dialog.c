/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include <string.h>

#include "mcp-error.h"

#include "plugboard-cli-private.h"

/* plugboard-cli: the servers' requests on the terminal, one dialog at a
 * time: sampling/createMessage here, elicitation/create in -form.c. */

static void dialog_start_next (PlugboardCli *cli);

static void
dialog_free (PlugboardCliDialog *dialog)
{
  GCancellable *reply_cancellable = g_task_get_cancellable (dialog->reply);

  /* Not g_cancellable_disconnect(): it waits for a "cancelled" under
   * way, and a dialog ended by that very cancellation would wait for
   * itself. */
  if (reply_cancellable != NULL && dialog->reply_handler != 0)
    g_signal_handler_disconnect (reply_cancellable, dialog->reply_handler);
  if (dialog->cli_handler != 0)
    g_signal_handler_disconnect (dialog->cli->cancellable, dialog->cli_handler);
  g_clear_object (&dialog->cancellable);
  g_clear_object (&dialog->reply);
  g_clear_pointer (&dialog->params, json_object_unref);
  g_clear_pointer (&dialog->fields, g_ptr_array_unref);
  g_clear_pointer (&dialog->content, json_object_unref);
  if (dialog->text != NULL)
    g_string_free (dialog->text, TRUE);
  g_free (dialog->server);
  g_free (dialog->method);
  g_free (dialog);
}

/* Answers the server (@result NULL: with @error) and goes on with the next
 * request waiting. */
void
plugboard_cli_dialog_finish (PlugboardCliDialog *dialog,
                             JsonNode           *result,
                             GError             *error)
{
  PlugboardCli *cli = dialog->cli;

  if (result != NULL)
    g_task_return_pointer (dialog->reply, result, (GDestroyNotify) json_node_unref);
  else
    g_task_return_error (dialog->reply, error);

  fflush (stdout);
  if (cli->dialog == dialog)
    cli->dialog = NULL;
  dialog_free (dialog);
  dialog_start_next (cli);
}

/* The read failed: the server withdrew its request, the session ended or
 * the person pressed Ctrl-C. Nothing is sent for a cancelled request. */
void
plugboard_cli_dialog_abort (PlugboardCliDialog *dialog,
                            GError             *error)
{
  /* After Ctrl-C, "cancelled" has been said already. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && !dialog->cli->interrupted)
    g_print (_("\n(%s withdrew its request)\n"), dialog->server);
  plugboard_cli_dialog_finish (dialog, NULL, error);
}

static void
cancel_dialog_cb (GCancellable *cancellable,
                  gpointer      user_data)
{
  g_cancellable_cancel (G_CANCELLABLE (user_data));
}

void
plugboard_cli_print_indented (const char *indent,
                              const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text ? text : "", "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (lines[i + 1] == NULL && *lines[i] == '\0' && i > 0)
        break;
      g_print ("%s%s\n", indent, lines[i]);
    }
}

char *
plugboard_cli_node_to_compact (JsonNode *node)
{
  return plugboard_cli_json_to_string (node, FALSE);
}

/* sampling/createMessage */

/* One content block of a sampling message: text in full, media by type
 * and size, anything else as its JSON. */
static void
print_sampling_block (guint       index,
                      const char *role,
                      JsonNode   *node)
{
  JsonObject *block = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  const char *type = block ? json_object_get_string_member_with_default (block, "type", NULL) : NULL;

  if (g_strcmp0 (type, "text") == 0)
    {
      g_print (_("  Message %u, %s, text:\n"), index, role);
      plugboard_cli_print_indented ("    ", json_object_get_string_member_with_default (block, "text", ""));
    }
  else if (g_strcmp0 (type, "image") == 0 || g_strcmp0 (type, "audio") == 0)
    {
      const char *data = json_object_get_string_member_with_default (block, "data", "");
      gsize n_bytes = strlen (data) / 4 * 3;

      g_print (_("  Message %u, %s, %s: %s, about %lu bytes\n"), index, role, type,
               json_object_get_string_member_with_default (block, "mimeType", _("unknown type")),
               (unsigned long) n_bytes);
    }
  else
    {
      g_autofree char *json = plugboard_cli_node_to_compact (node);

      g_print (_("  Message %u, %s, %s:\n    %s\n"), index, role, type ? type : _("content"), json);
    }
}

static void
print_sampling_request (PlugboardCliDialog *dialog)
{
  JsonObject *params = dialog->params;
  JsonArray *messages = NULL;
  GList *members;

  g_print (_("\n%s asks for a model reply (sampling/createMessage):\n"), dialog->server);

  if (params != NULL && json_object_has_member (params, "systemPrompt"))
    {
      g_print (_("  System prompt:\n"));
      plugboard_cli_print_indented ("    ", json_object_get_string_member_with_default (params, "systemPrompt", ""));
    }
  else
    g_print (_("  System prompt: none\n"));

  if (params != NULL && json_object_has_member (params, "messages") &&
      JSON_NODE_HOLDS_ARRAY (json_object_get_member (params, "messages")))
    messages = json_object_get_array_member (params, "messages");
  for (guint i = 0; messages != NULL && i < json_array_get_length (messages); i++)
    {
      JsonNode *element = json_array_get_element (messages, i);
      JsonObject *message = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;
      const char *role = message ? json_object_get_string_member_with_default (message, "role", "?") : "?";
      JsonNode *content = message ? json_object_get_member (message, "content") : NULL;

      if (content != NULL && JSON_NODE_HOLDS_ARRAY (content))
        {
          JsonArray *blocks = json_node_get_array (content);

          for (guint j = 0; j < json_array_get_length (blocks); j++)
            print_sampling_block (i + 1, role, json_array_get_element (blocks, j));
        }
      else if (content != NULL)
        print_sampling_block (i + 1, role, content);
      else
        g_print (_("  Message %u, %s: no content\n"), i + 1, role);
    }
  if (messages == NULL || json_array_get_length (messages) == 0)
    g_print (_("  Messages: none\n"));

  if (params != NULL && json_object_has_member (params, "maxTokens"))
    {
      g_autofree char *value = plugboard_cli_node_to_compact (json_object_get_member (params, "maxTokens"));

      g_print (_("  maxTokens: %s\n"), value);
    }
  if (params != NULL && json_object_has_member (params, "modelPreferences"))
    {
      g_autofree char *value = plugboard_cli_node_to_compact (json_object_get_member (params, "modelPreferences"));

      g_print (_("  modelPreferences: %s\n"), value);
    }
  else
    g_print (_("  modelPreferences: none\n"));

  members = params ? json_object_get_members (params) : NULL;
  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *name = l->data;
      g_autofree char *value = NULL;

      if (g_str_equal (name, "messages") || g_str_equal (name, "systemPrompt") ||
          g_str_equal (name, "maxTokens") || g_str_equal (name, "modelPreferences"))
        continue;
      value = plugboard_cli_node_to_compact (json_object_get_member (params, name));
      g_print ("  %s: %s\n", name, value);
    }
  g_list_free (members);
}

static void
on_sampling_confirm_cb (GObject      *object,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  PlugboardCliDialog *dialog = user_data;
  g_autofree char *line = NULL;

  if (!plugboard_cli_dialog_take_line (dialog, result, &line))
    return;

  if (line != NULL)
    g_strstrip (line);
  if (plugboard_cli_is_yes (line))
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "role");
      json_builder_add_string_value (builder, "assistant");
      json_builder_set_member_name (builder, "content");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "type");
      json_builder_add_string_value (builder, "text");
      json_builder_set_member_name (builder, "text");
      json_builder_add_string_value (builder, dialog->text->str);
      json_builder_end_object (builder);
      json_builder_set_member_name (builder, "model");
      json_builder_add_string_value (builder, PROGRAM_NAME " (human)");
      json_builder_set_member_name (builder, "stopReason");
      json_builder_add_string_value (builder, "endTurn");
      json_builder_end_object (builder);

      g_print (_("Sent.\n"));
      plugboard_cli_dialog_finish (dialog, json_builder_get_root (builder), NULL);
      return;
    }

  if (line == NULL)
    g_print ("\n");
  g_print (_("Declined; nothing was sent.\n"));
  /* The specification's suggestion for a person's refusal. */
  plugboard_cli_dialog_finish (dialog, NULL,
                 g_error_new_literal (MCP_JSONRPC_ERROR, -1, "User rejected sampling request"));
}

static void
on_sampling_line_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  PlugboardCliDialog *dialog = user_data;
  g_autofree char *line = NULL;

  if (!plugboard_cli_dialog_take_line (dialog, result, &line))
    return;

  if (line != NULL && !g_str_equal (line, "."))
    {
      if (dialog->text->len > 0)
        g_string_append_c (dialog->text, '\n');
      g_string_append (dialog->text, line);
      plugboard_cli_read_line_async (dialog->cli, dialog->cancellable, on_sampling_line_cb, dialog);
      return;
    }

  if (line == NULL)
    g_print ("\n");
  g_print (_("Send this reply? [y/N] "));
  fflush (stdout);
  plugboard_cli_read_line_async (dialog->cli, dialog->cancellable, on_sampling_confirm_cb, dialog);
}

static void
start_sampling (PlugboardCliDialog *dialog)
{
  print_sampling_request (dialog);
  dialog->text = g_string_new (NULL);
  g_print (_("Write the reply; end it with a line holding only \".\" (or Ctrl-D):\n"));
  fflush (stdout);
  plugboard_cli_read_line_async (dialog->cli, dialog->cancellable, on_sampling_line_cb, dialog);
}

/* A request nobody will answer any more: nothing is sent for it. */
static void
dialog_drop (PlugboardCliDialog *dialog)
{
  g_task_return_new_error (dialog->reply, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                           _("The request was cancelled"));
  dialog_free (dialog);
}

static void
dialog_start_next (PlugboardCli *cli)
{
  PlugboardCliDialog *dialog;

  while (cli->dialog == NULL && cli->dialogs != NULL &&
         (dialog = g_queue_pop_head (cli->dialogs)) != NULL)
    {
      if (g_cancellable_is_cancelled (dialog->cancellable))
        {
          dialog_drop (dialog);
          continue;
        }

      cli->dialog = dialog;
      fflush (stdout);
      plugboard_cli_end_progress_line (cli);
      fflush (stderr);

      if (g_str_equal (dialog->method, "sampling/createMessage"))
        start_sampling (dialog);
      else if (g_str_equal (dialog->method, "elicitation/create"))
        plugboard_cli_form_start (dialog);
      else
        {
          cli->dialog = NULL;
          dialog_drop (dialog);
        }
    }
}

void
plugboard_cli_answer_request (PlugboardCli *cli,
                              const char   *server,
                              const char   *method,
                              JsonObject   *params,
                              GTask        *reply)
{
  PlugboardCliDialog *dialog = g_new0 (PlugboardCliDialog, 1);
  GCancellable *reply_cancellable = g_task_get_cancellable (reply);

  dialog->cli = cli;
  dialog->server = g_strdup (server);
  dialog->method = g_strdup (method);
  dialog->params = params ? json_object_ref (params) : NULL;
  dialog->reply = reply;
  dialog->cancellable = g_cancellable_new ();
  if (reply_cancellable != NULL)
    dialog->reply_handler = g_cancellable_connect (reply_cancellable, G_CALLBACK (cancel_dialog_cb),
                                                   g_object_ref (dialog->cancellable), g_object_unref);
  dialog->cli_handler = g_cancellable_connect (cli->cancellable, G_CALLBACK (cancel_dialog_cb),
                                               g_object_ref (dialog->cancellable), g_object_unref);

  if (cli->dialogs == NULL)
    cli->dialogs = g_queue_new ();
  g_queue_push_tail (cli->dialogs, dialog);
  dialog_start_next (cli);
}

void
plugboard_cli_drop_dialogs (PlugboardCli *cli)
{
  PlugboardCliDialog *dialog;

  if (cli->dialogs == NULL)
    return;
  while ((dialog = g_queue_pop_head (cli->dialogs)) != NULL)
    dialog_drop (dialog);
  g_clear_pointer (&cli->dialogs, g_queue_free);
}

/* The line a dialog's read gave (NULL at the end of input), or FALSE
 * once the dialog was aborted because the read failed. */
gboolean
plugboard_cli_dialog_take_line (PlugboardCliDialog  *dialog,
                                GAsyncResult        *result,
                                char               **out_line)
{
  g_autoptr(GError) error = NULL;

  *out_line = plugboard_cli_read_line_finish (dialog->cli, result, &error);
  if (error == NULL)
    return TRUE;
  plugboard_cli_dialog_abort (dialog, g_steal_pointer (&error));
  return FALSE;
}
