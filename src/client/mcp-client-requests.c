/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-client.h"
#include "mcp-client-private.h"
#include "mcp-error.h"

/* Requests by the caller: any method (mcp_client_request_async()), ping,
 * tools/call, and what the typed requests of the other parts go through
 * (mcp_client_request_for_task(), mcp_client_check_offers()). */

gboolean
mcp_client_check_ready (McpClient  *self,
                        const char *method,
                        GTask      *task)
{
  g_autofree char *server = NULL;

  if (self->state == MCP_CLIENT_STATE_READY)
    return TRUE;

  server = mcp_client_describe_server (self);
  g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NOT_CONNECTED,
                           _("Cannot send “%s”: not connected to %s"), method, server);
  return FALSE;
}

void
mcp_client_request_async (McpClient               *self,
                          const char              *method,
                          JsonObject              *params,
                          const McpRequestOptions *options,
                          GCancellable            *cancellable,
                          GAsyncReadyCallback      callback,
                          gpointer                 user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (method != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_client_request_async);

  if (mcp_client_check_ready (self, method, task))
    mcp_client_send_request (self, method, params, options, NULL, task);
}

JsonNode *
mcp_client_request_finish (McpClient     *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
on_ping_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;

  node = mcp_client_request_finish (MCP_CLIENT (object), result, &error);
  if (node == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

void
mcp_client_ping_async (McpClient           *self,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (MCP_IS_CLIENT (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_client_ping_async);
  /* The stateless revision has no ping; server/discover is its cheapest
   * round trip. */
  mcp_client_request_async (self, self->era == MCP_PROTOCOL_ERA_MODERN ? "server/discover" : "ping",
                            NULL, NULL, cancellable, on_ping_cb, task);
}

gboolean
mcp_client_ping_finish (McpClient     *self,
                        GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
return_tool_result (McpClient *self,
                    GTask     *task,
                    JsonNode  *node)
{
  g_autoptr(GError) error = NULL;
  McpToolResult *tool_result;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autofree char *server = mcp_client_describe_server (self);

      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                               _("%s answered tools/call “%s” with something that is not an object"),
                               server, (const char *) g_task_get_task_data (task));
      return;
    }

  tool_result = mcp_tool_result_new_from_json (json_node_get_object (node), &error);
  if (tool_result == NULL)
    {
      g_autofree char *server = mcp_client_describe_server (self);

      g_prefix_error (&error, _("Invalid result of “%s” from %s: "),
                      (const char *) g_task_get_task_data (task), server);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_task_return_pointer (task, tool_result, g_object_unref);
}

void
mcp_client_call_tool_async (McpClient               *self,
                            const char              *name,
                            JsonObject              *arguments,
                            const McpRequestOptions *options,
                            GCancellable            *cancellable,
                            GAsyncReadyCallback      callback,
                            gpointer                 user_data)
{
  g_autoptr(JsonObject) params = NULL;
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_client_call_tool_async);
  g_task_set_task_data (task, g_strdup (name), g_free);

  if (!mcp_client_check_ready (self, "tools/call", task))
    return;

  params = json_object_new ();
  json_object_set_string_member (params, "name", name);
  if (arguments != NULL)
    json_object_set_object_member (params, "arguments", json_object_ref (arguments));
  else
    json_object_set_object_member (params, "arguments", json_object_new ());

  mcp_client_send_request (self, "tools/call", params, options, return_tool_result, task);
}

McpToolResult *
mcp_client_call_tool_finish (McpClient     *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
on_answer_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  McpClient *self = MCP_CLIENT (object);
  g_autoptr(GTask) task = user_data;
  McpClientAnswerFunc answer = g_object_get_data (G_OBJECT (task), "mcp-answer-func");
  const char *method = g_object_get_data (G_OBJECT (task), "mcp-method");
  g_autoptr(JsonNode) node = NULL;
  GError *error = NULL;
  gpointer value;

  node = mcp_client_request_finish (self, result, &error);
  if (node == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autofree char *server = mcp_client_describe_server (self);

      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                               _("%s answered %s with something that is not an object"),
                               server, method);
      return;
    }

  if (answer == NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  value = answer (self, task, json_node_get_object (node), &error);
  if (error != NULL)
    {
      g_autofree char *server = mcp_client_describe_server (self);

      /* a bound reached is no invalid answer; its message names the server */
      if (!g_error_matches (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE))
        g_prefix_error (&error, _("Invalid answer to %s from %s: "), method, server);
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, value, g_object_get_data (G_OBJECT (task), "mcp-free-func"));
}

void
mcp_client_request_for_task (McpClient               *self,
                             GTask                   *task,
                             const char              *method,
                             JsonObject              *params,
                             const McpRequestOptions *options,
                             McpClientAnswerFunc      answer,
                             GDestroyNotify           free_func)
{
  g_autoptr(JsonObject) owned = params;

  g_object_set_data (G_OBJECT (task), "mcp-answer-func", answer);
  g_object_set_data (G_OBJECT (task), "mcp-free-func", free_func);
  g_object_set_data (G_OBJECT (task), "mcp-method", (gpointer) method);
  mcp_client_request_async (self, method, owned, options, g_task_get_cancellable (task),
                            on_answer_cb, task);
}

gboolean
mcp_client_check_offers (McpClient   *self,
                         GTask       *task,
                         gboolean   (*has) (McpServerInfo *),
                         const char  *capability,
                         const char  *method)
{
  McpServerInfo *info = mcp_client_get_server_info (self);
  g_autofree char *server = mcp_client_describe_server (self);

  if (mcp_client_get_state (self) != MCP_CLIENT_STATE_READY || info == NULL)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NOT_CONNECTED,
                               _("Cannot send “%s”: not connected to %s"), method, server);
      return FALSE;
    }
  if (!has (info))
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_UNSUPPORTED,
                               _("%s does not offer %s"), server, capability);
      return FALSE;
    }
  return TRUE;
}
