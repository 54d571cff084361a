/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-call"

/* McpCall: the object, its one permission check (the person asked through
 * the McpInteraction), its history entry, tools/call with one retry after
 * a session renewal or after the web pages a -32042 answer names, and the
 * post-processing of the result. The call as a task: mcp-call-task.c. */

#include "config.h"

#include "mcp-call-private.h"

#include <glib/gi18n-lib.h>

#include "mcp-error.h"
#include "mcp-history-entry-private.h"
#include "mcp-json-private.h"
#include "mcp-message.h"
#include "mcp-redact.h"
#include "mcp-server-connection.h"
#include "mcp-url-policy.h"

G_DEFINE_FINAL_TYPE (McpCall, mcp_call, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_TOOL,
  PROP_ARGUMENTS,
  PROP_FLAGS,
  PROP_TASK,
  PROP_HISTORY_ENTRY,
  PROP_REFUSED,
  PROP_ALLOWED,
  N_PROPS
};

enum {
  PROGRESS,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
mcp_call_dispose (GObject *object)
{
  McpCall *self = MCP_CALL (object);

  mcp_call_task_stop (self);
  g_clear_object (&self->task_client);

  G_OBJECT_CLASS (mcp_call_parent_class)->dispose (object);
}

static void
mcp_call_finalize (GObject *object)
{
  McpCall *self = MCP_CALL (object);

  g_clear_object (&self->tool);
  g_clear_pointer (&self->arguments, json_object_unref);
  g_clear_object (&self->permissions);
  g_clear_object (&self->interaction);
  g_clear_object (&self->history);
  g_clear_object (&self->entry);
  g_clear_pointer (&self->elicitation_data, json_node_unref);
  g_clear_pointer (&self->urls, g_ptr_array_unref);
  g_clear_object (&self->task_state);
  g_clear_object (&self->task_cancellable);

  G_OBJECT_CLASS (mcp_call_parent_class)->finalize (object);
}

static void
mcp_call_get_property (GObject    *object,
                       guint       prop_id,
                       GValue     *value,
                       GParamSpec *pspec)
{
  McpCall *self = MCP_CALL (object);

  switch (prop_id)
    {
    case PROP_TOOL:
      g_value_set_object (value, self->tool);
      break;
    case PROP_ARGUMENTS:
      g_value_set_boxed (value, self->arguments);
      break;
    case PROP_FLAGS:
      g_value_set_flags (value, self->flags);
      break;
    case PROP_TASK:
      g_value_set_object (value, self->task_state);
      break;
    case PROP_HISTORY_ENTRY:
      g_value_set_object (value, self->entry);
      break;
    case PROP_REFUSED:
      g_value_set_boolean (value, self->refused);
      break;
    case PROP_ALLOWED:
      g_value_set_boolean (value, self->allowed);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_call_class_init (McpCallClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = mcp_call_dispose;
  object_class->finalize = mcp_call_finalize;
  object_class->get_property = mcp_call_get_property;

  properties[PROP_TOOL] =
    g_param_spec_object ("tool", NULL, NULL, MCP_TYPE_POOL_TOOL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_ARGUMENTS] =
    g_param_spec_boxed ("arguments", NULL, NULL, JSON_TYPE_OBJECT,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_FLAGS] =
    g_param_spec_flags ("flags", NULL, NULL,
                        MCP_TYPE_CALL_FLAGS, MCP_CALL_FLAGS_NONE,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_TASK] =
    g_param_spec_object ("task", NULL, NULL, MCP_TYPE_TASK,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_HISTORY_ENTRY] =
    g_param_spec_object ("history-entry", NULL, NULL, MCP_TYPE_HISTORY_ENTRY,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_REFUSED] =
    g_param_spec_boolean ("refused", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ALLOWED] =
    g_param_spec_boolean ("allowed", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * McpCall::progress:
   * @progress: the progress so far
   * @total: the total, or a negative number when the server gave none
   * @message: (nullable): the server's message
   *
   * A notifications/progress of the call (the call's timeout restarts on
   * each, up to the client's maximum total).
   */
  signals[PROGRESS] =
    g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 3,
                  G_TYPE_DOUBLE, G_TYPE_DOUBLE, G_TYPE_STRING);
}

static void
mcp_call_init (McpCall *self)
{
}

McpCall *
mcp_call_new (McpPoolTool    *tool,
              JsonObject     *arguments,
              McpCallFlags    flags,
              McpPermissions *permissions,
              McpInteraction *interaction,
              McpToolHistory *history)
{
  McpCall *self;

  g_return_val_if_fail (MCP_IS_POOL_TOOL (tool), NULL);
  g_return_val_if_fail (!permissions || MCP_IS_PERMISSIONS (permissions), NULL);
  g_return_val_if_fail (!interaction || MCP_IS_INTERACTION (interaction), NULL);
  g_return_val_if_fail (!history || MCP_IS_TOOL_HISTORY (history), NULL);

  self = g_object_new (MCP_TYPE_CALL, NULL);
  self->tool = g_object_ref (tool);
  self->arguments = arguments != NULL ? json_object_ref (arguments) : NULL;
  self->flags = flags;
  /* No evaluator: no rules, so the default decides. */
  self->permissions = permissions != NULL ? g_object_ref (permissions)
                                          : mcp_permissions_new (NULL, NULL, NULL);
  self->interaction = interaction != NULL ? g_object_ref (interaction) : NULL;
  self->history = history != NULL ? g_object_ref (history) : NULL;

  return self;
}

McpPoolTool *
mcp_call_get_tool (McpCall *self)
{
  g_return_val_if_fail (MCP_IS_CALL (self), NULL);
  return self->tool;
}

JsonObject *
mcp_call_get_arguments (McpCall *self)
{
  g_return_val_if_fail (MCP_IS_CALL (self), NULL);
  return self->arguments;
}

McpCallFlags
mcp_call_get_flags (McpCall *self)
{
  g_return_val_if_fail (MCP_IS_CALL (self), MCP_CALL_FLAGS_NONE);
  return self->flags;
}

gboolean
mcp_call_get_as_task (McpCall *self)
{
  g_return_val_if_fail (MCP_IS_CALL (self), FALSE);
  return mcp_call_runs_as_task (self);
}

McpTask *
mcp_call_get_task (McpCall *self)
{
  g_return_val_if_fail (MCP_IS_CALL (self), NULL);
  return self->task_state;
}

McpHistoryEntry *
mcp_call_get_history_entry (McpCall *self)
{
  g_return_val_if_fail (MCP_IS_CALL (self), NULL);
  return self->entry;
}

gboolean
mcp_call_get_allowed (McpCall *self)
{
  g_return_val_if_fail (MCP_IS_CALL (self), FALSE);
  return self->allowed;
}

gboolean
mcp_call_get_refused (McpCall *self)
{
  g_return_val_if_fail (MCP_IS_CALL (self), FALSE);
  return self->refused;
}

/* ------------------------------------------------------------------------ */
/* The end of the call: post-processing and the history                      */

/* The first line of the first text, at most 120 characters of it: a text
 * may be 50 MB on one line. */
static char *
result_summary (McpToolResult *result)
{
  GPtrArray *content = mcp_tool_result_get_content (result);

  for (guint i = 0; content != NULL && i < content->len; i++)
    {
      const char *text = mcp_content_get_text (g_ptr_array_index (content, i));
      const char *end = text;
      g_autofree char *line = NULL;

      if (text == NULL)
        continue;
      for (guint n = 0; *end != '\0' && *end != '\n' && n < 120; n++)
        end = g_utf8_next_char (end);
      line = g_strndup (text, (gsize) (end - text));
      if (*end != '\0' && *end != '\n')
        return g_strconcat (line, "…", NULL);
      return g_steal_pointer (&line);
    }

  return g_strdup ("");
}

/* Every return of the run goes through here: the history entry (once the
 * call was allowed) gets the outcome. Takes @task. */
static void
return_result (GTask              *task,
               McpProcessedResult *processed,
               GError             *error)
{
  McpCall *self = g_task_get_source_object (task);

  if (error != NULL)
    {
      /* Where a call's failure leaves the engine (for the person and the
       * history): a transport's message may name the command or URL as
       * expanded, with its secrets. */
      g_auto(GStrv) secrets = mcp_redact_dup_secrets ();
      char *message = mcp_redact_text (error->message, (const char * const *) secrets);

      g_free (error->message);
      error->message = message;
    }

  if (self->entry != NULL && processed != NULL)
    {
      McpToolResult *tool_result = mcp_processed_result_get_result (processed);
      g_autofree char *summary = result_summary (tool_result);

      /* Only an interface's calls keep their result (the interface shows
       * a past call again); the others' would only grow the history. */
      if (mcp_tool_get_ui_resource_uri (mcp_pool_tool_get_tool (self->tool)) != NULL)
        mcp_history_entry_set_result (self->entry,
                                      mcp_tool_result_get_json (mcp_processed_result_get_original (processed)));
      mcp_history_entry_finish (self->entry,
                                mcp_tool_result_get_is_error (tool_result)
                                  ? MCP_HISTORY_OUTCOME_TOOL_ERROR
                                  : MCP_HISTORY_OUTCOME_OK,
                                summary);
    }
  else if (self->entry != NULL)
    mcp_history_entry_finish (self->entry,
                              g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
                                ? MCP_HISTORY_OUTCOME_CANCELLED
                                : MCP_HISTORY_OUTCOME_FAILED,
                              error->message);

  if (processed != NULL)
    g_task_return_pointer (task, processed, g_object_unref);
  else
    g_task_return_error (task, error);
  g_object_unref (task);
}

void
mcp_call_return_error (GTask  *task,
                       GError *error)
{
  return_result (task, NULL, error);
}

static void
on_processed_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GTask *task = user_data;
  GError *error = NULL;
  McpProcessedResult *processed;

  processed = mcp_tool_result_process_finish (result, &error);
  return_result (task, processed, error);
}

/* The largest output kept of a result of the call's server. */
static gsize
max_output_characters (McpCall *self)
{
  return mcp_server_connection_get_max_output_characters (mcp_pool_tool_get_connection (self->tool));
}

void
mcp_call_finish_with_result (GTask         *task,
                             McpToolResult *tool_result)
{
  McpCall *self = g_task_get_source_object (task);

  mcp_tool_result_process_for_tool_async (tool_result,
                                          mcp_tool_get_output_schema (mcp_pool_tool_get_tool (self->tool)),
                                          mcp_pool_tool_get_qualified_name (self->tool),
                                          NULL, max_output_characters (self), g_task_get_cancellable (task),
                                          on_processed_cb, task);
}

/* ------------------------------------------------------------------------ */
/* Retries                                                                  */

static void
on_reconnected_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  GTask *task = user_data;
  McpCall *self = g_task_get_source_object (task);
  GError *error = NULL;

  if (!mcp_server_connection_reconnect_finish (MCP_SERVER_CONNECTION (object), result, &error))
    {
      g_prefix_error (&error, _("The session of server “%s” expired and a new one could not be started: "),
                      mcp_pool_tool_get_server_name (self->tool));
      mcp_call_return_error (task, error);
      return;
    }

  mcp_call_send (task);
}

static void open_next_url (GTask *task);

static void
on_url_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GTask *task = user_data;
  McpCall *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;

  if (!mcp_interaction_open_url_finish (MCP_INTERACTION (object), result, &error))
    {
      if (error != NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        mcp_call_return_error (task, g_steal_pointer (&error));
      else
        mcp_call_return_error (task, g_error_new (MCP_ERROR, MCP_ERROR_PERMISSION_DENIED,
                                         _("“%s” needs information given on a web page, and it was not given%s%s"),
                                         mcp_pool_tool_get_qualified_name (self->tool),
                                         error != NULL ? ": " : "",
                                         error != NULL ? error->message : ""));
      return;
    }

  open_next_url (task);
}

static void
open_next_url (GTask *task)
{
  McpCall *self = g_task_get_source_object (task);
  const char *url;
  const char *host;
  const char *message;

  if (self->next_url * 3 >= self->urls->len)
    {
      mcp_call_send (task);
      return;
    }

  url = g_ptr_array_index (self->urls, self->next_url * 3);
  host = g_ptr_array_index (self->urls, self->next_url * 3 + 1);
  message = g_ptr_array_index (self->urls, self->next_url * 3 + 2);
  self->next_url++;

  mcp_interaction_open_url_async (self->interaction, mcp_pool_tool_get_server_name (self->tool),
                                  url, host, message, g_task_get_cancellable (task),
                                  on_url_done_cb, task);
}

/* The URLs of error.data.elicitations[] (mode "url") that the URL policy
 * lets a browser open; @refused: why the first refused one was, when
 * none is left. */
static gboolean
collect_urls (McpCall  *self,
              GError  **refused)
{
  JsonObject *data;
  JsonArray *elicitations;

  g_clear_pointer (&self->urls, g_ptr_array_unref);
  self->urls = g_ptr_array_new_with_free_func (g_free);
  self->next_url = 0;

  if (self->elicitation_data == NULL || !JSON_NODE_HOLDS_OBJECT (self->elicitation_data))
    return FALSE;
  data = json_node_get_object (self->elicitation_data);
  if (!json_object_has_member (data, "elicitations") ||
      !JSON_NODE_HOLDS_ARRAY (json_object_get_member (data, "elicitations")))
    return FALSE;

  elicitations = json_object_get_array_member (data, "elicitations");
  for (guint i = 0; i < json_array_get_length (elicitations); i++)
    {
      JsonNode *node = json_array_get_element (elicitations, i);
      g_autoptr(GError) error = NULL;
      g_autofree char *host = NULL;
      JsonObject *elicitation;
      JsonNode *url;
      JsonNode *message;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      elicitation = json_node_get_object (node);
      url = json_object_get_member (elicitation, "url");
      message = json_object_get_member (elicitation, "message");
      if (url == NULL || json_node_get_value_type (url) != G_TYPE_STRING)
        continue;

      /* A refused URL never reaches the person. */
      if (!mcp_url_policy_check (json_node_get_string (url), MCP_URL_USE_BROWSER, &host, &error))
        {
          g_debug ("%s: not offering the address of an elicitation: %s",
                   mcp_pool_tool_get_qualified_name (self->tool), error->message);
          if (refused != NULL && *refused == NULL)
            *refused = g_steal_pointer (&error);
          continue;
        }

      g_ptr_array_add (self->urls, g_strdup (json_node_get_string (url)));
      g_ptr_array_add (self->urls, g_steal_pointer (&host));
      g_ptr_array_add (self->urls,
                       message != NULL && json_node_get_value_type (message) == G_TYPE_STRING
                       ? g_strdup (json_node_get_string (message)) : NULL);
    }

  if (self->urls->len > 0)
    g_clear_error (refused);
  return self->urls->len > 0;
}

/* ------------------------------------------------------------------------ */
/* tools/call                                                               */

static void
on_called_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  GTask *task = user_data;
  McpCall *self = g_task_get_source_object (task);
  GCancellable *cancellable = g_task_get_cancellable (task);
  g_autoptr(McpToolResult) tool_result = NULL;
  GError *error = NULL;

  tool_result = mcp_client_call_tool_finish (MCP_CLIENT (object), result, &error);

  if (tool_result != NULL)
    {
      mcp_call_finish_with_result (task, tool_result);
      return;
    }

  if (g_error_matches (error, MCP_ERROR, MCP_ERROR_SESSION_EXPIRED) && !self->retried_session)
    {
      self->retried_session = TRUE;
      g_debug ("Session of “%s” expired during %s; reconnecting and trying once more",
               mcp_pool_tool_get_server_name (self->tool),
               mcp_pool_tool_get_qualified_name (self->tool));
      g_clear_error (&error);
      mcp_server_connection_renew_session_async (mcp_pool_tool_get_connection (self->tool),
                                                  cancellable, on_reconnected_cb, task);
      return;
    }

  if (g_error_matches (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_URL_ELICITATION_REQUIRED))
    {
      JsonNode *data = mcp_jsonrpc_error_get_data (error);

      g_clear_pointer (&self->elicitation_data, json_node_unref);
      self->elicitation_data = data != NULL ? json_node_ref (data) : NULL;
    }

  if (g_error_matches (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_URL_ELICITATION_REQUIRED) &&
      !self->retried_url && self->interaction != NULL)
    {
      g_autoptr(GError) refused = NULL;

      if (collect_urls (self, &refused))
        {
          self->retried_url = TRUE;
          g_clear_error (&error);
          open_next_url (task);
          return;
        }
      if (refused != NULL)
        {
          g_clear_error (&error);
          /* Translators: the first %s is a tool's name, the second why the address its server asks to open is refused */
          mcp_call_return_error (task, g_error_new (MCP_ERROR, MCP_ERROR_FAILED,
                                           _("Calling %s failed: its server asks you to open an address Plugboard refuses: %s"),
                                           mcp_pool_tool_get_qualified_name (self->tool), refused->message));
          return;
        }
    }

  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_prefix_error (&error, _("Calling %s failed: "), mcp_pool_tool_get_qualified_name (self->tool));
  mcp_call_return_error (task, error);
}

static void
progress_cb (double      progress,
             double      total,
             const char *message,
             gpointer    user_data)
{
  g_signal_emit (user_data, signals[PROGRESS], 0, progress, total, message);
}

void
mcp_call_send (GTask *task)
{
  McpCall *self = g_task_get_source_object (task);
  McpServerConnection *connection = mcp_pool_tool_get_connection (self->tool);
  McpClient *client = mcp_server_connection_get_client (connection);
  McpRequestOptions options = { 0 };

  if (client == NULL)
    {
      mcp_call_return_error (task, g_error_new (MCP_ERROR, MCP_ERROR_NOT_CONNECTED,
                                       _("Server “%s” is not connected"),
                                       mcp_pool_tool_get_server_name (self->tool)));
      return;
    }

  /* the config's toolTimeout, or the manager's tool-timeout */
  options.timeout_ms = mcp_server_connection_get_tool_timeout (connection);

  /* Progress is asked for when someone listens; each notification then
   * restarts the timeout (the client does it). The run's task holds the
   * call until the request ends. */
  if (g_signal_has_handler_pending (self, signals[PROGRESS], 0, TRUE))
    {
      options.progress_func = progress_cb;
      options.progress_data = self;
    }

  g_clear_pointer (&self->elicitation_data, json_node_unref);

  if (mcp_call_runs_as_task (self))
    {
      mcp_call_task_send (task, client);
      return;
    }

  mcp_client_call_tool_async (client,
                              mcp_tool_get_name (mcp_pool_tool_get_tool (self->tool)),
                              self->arguments, &options,
                              g_task_get_cancellable (task),
                              on_called_cb, task);
}

static void
on_connected_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GTask *task = user_data;
  GError *error = NULL;

  if (!mcp_server_connection_ensure_connected_finish (MCP_SERVER_CONNECTION (object), result, &error))
    {
      mcp_call_return_error (task, error);
      return;
    }

  mcp_call_send (task);
}

/* ------------------------------------------------------------------------ */
/* The permission                                                           */

/* The permission check let the call go on: its history entry starts, and
 * the server is connected when it is not. */
static void
call_allowed (GTask *task)
{
  McpCall *self = g_task_get_source_object (task);

  self->allowed = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ALLOWED]);
  if (self->history != NULL)
    {
      self->entry = g_object_ref (mcp_tool_history_start (self->history,
                                                          mcp_pool_tool_get_qualified_name (self->tool),
                                                          self->arguments));
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HISTORY_ENTRY]);
    }

  mcp_server_connection_ensure_connected_async (mcp_pool_tool_get_connection (self->tool),
                                                g_task_get_cancellable (task),
                                                on_connected_cb, task);
}

static void
on_answer_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  GTask *task = user_data;
  McpCall *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;

  if (mcp_interaction_ask_tool_finish (MCP_INTERACTION (object), result, &error))
    {
      call_allowed (task);
      return;
    }

  if (error != NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      mcp_call_return_error (task, g_steal_pointer (&error));
      return;
    }

  self->refused = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REFUSED]);
  if (error != NULL)
    mcp_call_return_error (task, g_error_new (MCP_ERROR, MCP_ERROR_PERMISSION_DENIED,
                                     _("%s was not allowed to run: %s"),
                                     mcp_pool_tool_get_qualified_name (self->tool), error->message));
  else
    mcp_call_return_error (task, g_error_new (MCP_ERROR, MCP_ERROR_PERMISSION_DENIED,
                                     _("%s was not allowed to run: refused"),
                                     mcp_pool_tool_get_qualified_name (self->tool)));
}

void
mcp_call_run_async (McpCall             *self,
                    GCancellable        *cancellable,
                    GAsyncReadyCallback  callback,
                    gpointer             user_data)
{
  GTask *task;
  const char *name;

  g_return_if_fail (MCP_IS_CALL (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));
  g_return_if_fail (!self->started);

  self->started = TRUE;
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_call_run_async);

  /* The one permission check of the call. */
  mcp_permissions_decide_tool (self->permissions, self->tool, &self->decision);
  name = mcp_pool_tool_get_qualified_name (self->tool);

  switch (self->decision.permission)
    {
    case MCP_PERMISSION_DENY:
      mcp_call_return_error (task, g_error_new (MCP_ERROR, MCP_ERROR_PERMISSION_DENIED,
                                       _("%s is denied by the permission rule “%s”"), name,
                                       self->decision.rule));
      return;

    case MCP_PERMISSION_ALLOW:
      call_allowed (task);
      return;

    case MCP_PERMISSION_ASK:
    default:
      if (self->interaction == NULL)
        {
          mcp_call_return_error (task, g_error_new (MCP_ERROR, MCP_ERROR_PERMISSION_DENIED,
                                           _("%s needs the person's approval (%s) and there is no one to ask"),
                                           name, self->decision.rule != NULL
                                                 ? self->decision.rule
                                                 : _("no permission rule allows it")));
          return;
        }
      mcp_interaction_ask_tool_async (self->interaction, self->tool, self->arguments,
                                      self->decision.rule, cancellable, on_answer_cb, task);
      return;
    }
}

McpProcessedResult *
mcp_call_run_finish (McpCall       *self,
                     GAsyncResult  *result,
                     GError       **error)
{
  g_return_val_if_fail (MCP_IS_CALL (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_call_run_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
