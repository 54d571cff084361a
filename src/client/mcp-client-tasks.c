/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-client.h"
#include "mcp-client-private.h"
#include "mcp-error.h"
#include "mcp-json-private.h"

/* Tasks (2025-11-25, experimental): tools/call with params.task, tasks/get,
 * tasks/result, tasks/cancel, tasks/list. */

#define MAX_TASK_PAGES 1000

/* The capability object at @path ("tasks", "list") in the server's
 * capabilities, or NULL. */
static gboolean
server_declares_tasks (McpClient  *self,
                       const char *member)
{
  McpServerInfo *info = mcp_client_get_server_info (self);
  JsonObject *capabilities;
  JsonNode *node;

  if (info == NULL)
    return FALSE;
  capabilities = mcp_server_info_get_capabilities (info);
  node = capabilities != NULL ? json_object_get_member (capabilities, "tasks") : NULL;
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return FALSE;
  if (member == NULL)
    return TRUE;
  node = json_object_get_member (json_node_get_object (node), member);
  return node != NULL && JSON_NODE_HOLDS_OBJECT (node);
}

static JsonObject *
task_id_params (const char *task_id)
{
  JsonObject *params = json_object_new ();

  json_object_set_string_member (params, "taskId", task_id);
  return params;
}

/* tasks/get and tasks/cancel answer the task itself (Result & Task). */
static gpointer
task_answer (McpClient   *self,
             GTask       *task,
             JsonObject  *result,
             GError     **error)
{
  return mcp_task_new_from_json (result, error);
}

/* tasks/get, tasks/result and tasks/cancel: @method for one task. */
static void
request_for_task_id (McpClient               *self,
                     const char              *method,
                     const char              *task_id,
                     const McpRequestOptions *options,
                     McpClientAnswerFunc      answer,
                     gpointer                 source_tag,
                     GCancellable            *cancellable,
                     GAsyncReadyCallback      callback,
                     gpointer                 user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);

  if (mcp_client_check_ready (self, method, task))
    mcp_client_request_for_task (self, g_steal_pointer (&task), method,
                                 task_id_params (task_id), options, answer, g_object_unref);
}

/* ------------------------------------------------------------------------ */
/* tools/call as a task                                                     */

static gpointer
create_task_answer (McpClient   *self,
                    GTask       *task,
                    JsonObject  *result,
                    GError     **error)
{
  JsonNode *node = json_object_get_member (result, "task");

  if (node == NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("“%s” was called as a task but the answer is a plain result, not a task"),
                   (const char *) g_task_get_task_data (task));
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("task must be an object"));
      return NULL;
    }
  return mcp_task_new_from_json (json_node_get_object (node), error);
}

void
mcp_client_call_tool_as_task_async (McpClient           *self,
                                    const char          *name,
                                    JsonObject          *arguments,
                                    gint64               ttl_ms,
                                    GCancellable        *cancellable,
                                    GAsyncReadyCallback  callback,
                                    gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  JsonObject *params, *task_params;

  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (ttl_ms >= 0);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_client_call_tool_as_task_async);
  g_task_set_task_data (task, g_strdup (name), g_free);

  if (!mcp_client_check_ready (self, "tools/call", task))
    return;

  task_params = json_object_new ();
  json_object_set_int_member (task_params, "ttl", ttl_ms > 0 ? ttl_ms : MCP_TASK_DEFAULT_TTL_MS);
  params = json_object_new ();
  json_object_set_string_member (params, "name", name);
  json_object_set_object_member (params, "arguments",
                                 arguments != NULL ? json_object_ref (arguments) : json_object_new ());
  json_object_set_object_member (params, "task", task_params);
  mcp_client_request_for_task (self, g_steal_pointer (&task), "tools/call", params, NULL,
                               create_task_answer, g_object_unref);
}

McpTask *
mcp_client_call_tool_as_task_finish (McpClient     *self,
                                     GAsyncResult  *result,
                                     GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ------------------------------------------------------------------------ */
/* tasks/get                                                                */

void
mcp_client_get_task_async (McpClient           *self,
                           const char          *task_id,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (task_id != NULL);

  request_for_task_id (self, "tasks/get", task_id, NULL, task_answer,
                       mcp_client_get_task_async, cancellable, callback, user_data);
}

McpTask *
mcp_client_get_task_finish (McpClient     *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ------------------------------------------------------------------------ */
/* tasks/result                                                             */

static gpointer
task_result_answer (McpClient   *self,
                    GTask       *task,
                    JsonObject  *result,
                    GError     **error)
{
  return mcp_tool_result_new_from_json (result, error);
}

void
mcp_client_get_task_result_async (McpClient           *self,
                                  const char          *task_id,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  /* The server holds the answer until the task ends, which may take longer
   * than any request timeout; the caller cancels it when it gives up. */
  static const McpRequestOptions options = { .timeout_ms = MCP_REQUEST_TIMEOUT_NONE };

  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (task_id != NULL);

  request_for_task_id (self, "tasks/result", task_id, &options, task_result_answer,
                       mcp_client_get_task_result_async, cancellable, callback, user_data);
}

McpToolResult *
mcp_client_get_task_result_finish (McpClient     *self,
                                   GAsyncResult  *result,
                                   GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ------------------------------------------------------------------------ */
/* tasks/cancel                                                             */

void
mcp_client_cancel_task_async (McpClient           *self,
                              const char          *task_id,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (task_id != NULL);

  request_for_task_id (self, "tasks/cancel", task_id, NULL, task_answer,
                       mcp_client_cancel_task_async, cancellable, callback, user_data);
}

McpTask *
mcp_client_cancel_task_finish (McpClient     *self,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ------------------------------------------------------------------------ */
/* tasks/list                                                               */

typedef struct
{
  GPtrArray *tasks;
  char      *cursor;
  guint      pages;
  guint64    bytes;   /* of the pages so far, estimated */
} ListTasks;

static void
list_tasks_free (ListTasks *state)
{
  g_ptr_array_unref (state->tasks);
  g_free (state->cursor);
  g_free (state);
}

static void list_tasks_next (GTask *task);

/* One page: its tasks are added to the state; returns TRUE (not a value the
 * caller sees) and sets the cursor for the next page, if any. */
static gpointer
list_tasks_page_answer (McpClient   *self,
                        GTask       *page,
                        JsonObject  *result,
                        GError     **error)
{
  ListTasks *state = g_object_get_data (G_OBJECT (page), "mcp-list-tasks");
  JsonNode *node = json_object_get_member (result, "tasks");
  g_autoptr(JsonNode) whole = json_node_init_object (json_node_alloc (), result);
  JsonArray *array;

  state->bytes += mcp_json_estimate_size (whole);
  if (state->bytes > MCP_CLIENT_MAX_LIST_BYTES)
    {
      g_autofree char *server = mcp_client_describe_server (self);

      g_set_error (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE,
                   _("%s sent more than %u MiB of %s (%u pages); stopped reading"),
                   server, MCP_CLIENT_MAX_LIST_BYTES / (1024 * 1024), "tasks", state->pages + 1);
      return NULL;
    }

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("tasks must be an array"));
      return NULL;
    }
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *item = json_array_get_element (array, i);
      g_autoptr(GError) item_error = NULL;
      McpTask *listed = NULL;

      if (JSON_NODE_HOLDS_OBJECT (item))
        listed = mcp_task_new_from_json (json_node_get_object (item), &item_error);
      if (listed == NULL)
        {
          /* One broken entry must not hide the others. */
          g_debug ("tasks/list: tasks[%u] skipped: %s", i,
                   item_error != NULL ? item_error->message : "not an object");
          continue;
        }
      g_ptr_array_add (state->tasks, listed);
    }

  g_clear_pointer (&state->cursor, g_free);
  node = json_object_get_member (result, "nextCursor");
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    state->cursor = g_strdup (json_node_get_string (node));
  state->pages++;

  return GINT_TO_POINTER (TRUE);
}

static void
on_list_tasks_page_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ListTasks *state = g_task_get_task_data (task);
  GError *error = NULL;

  if (!g_task_propagate_pointer (G_TASK (result), &error))
    {
      g_task_return_error (task, error);
      return;
    }

  if (state->cursor != NULL)
    {
      if (state->pages >= MAX_TASK_PAGES)
        {
          g_autofree char *server = mcp_client_describe_server (MCP_CLIENT (object));

          g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                   _("%s keeps sending more pages of tasks (after %u pages); "
                                     "stopped reading"), server, state->pages);
          return;
        }
      list_tasks_next (g_steal_pointer (&task));
      return;
    }

  g_task_return_pointer (task, g_ptr_array_ref (state->tasks), (GDestroyNotify) g_ptr_array_unref);
}

static void
list_tasks_next (GTask *task)
{
  McpClient *self = g_task_get_source_object (task);
  ListTasks *state = g_task_get_task_data (task);
  GTask *page = g_task_new (self, g_task_get_cancellable (task), on_list_tasks_page_cb, task);
  JsonObject *params = NULL;

  g_object_set_data (G_OBJECT (page), "mcp-list-tasks", state);
  if (state->cursor != NULL)
    {
      params = json_object_new ();
      json_object_set_string_member (params, "cursor", state->cursor);
    }
  mcp_client_request_for_task (self, page, "tasks/list", params, NULL,
                               list_tasks_page_answer, NULL);
}

void
mcp_client_list_tasks_async (McpClient           *self,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  ListTasks *state;

  g_return_if_fail (MCP_IS_CLIENT (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_client_list_tasks_async);
  state = g_new0 (ListTasks, 1);
  state->tasks = g_ptr_array_new_with_free_func (g_object_unref);
  g_task_set_task_data (task, state, (GDestroyNotify) list_tasks_free);

  if (!mcp_client_check_ready (self, "tasks/list", task))
    return;
  if (!server_declares_tasks (self, "list"))
    {
      g_task_return_pointer (task, g_ptr_array_ref (state->tasks),
                             (GDestroyNotify) g_ptr_array_unref);
      return;
    }
  list_tasks_next (g_steal_pointer (&task));
}

GPtrArray *
mcp_client_list_tasks_finish (McpClient     *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
