/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "mcp-message.h"
#include "mcp-prompt.h"
#include "mcp-resource.h"
#include "mcp-resource-template.h"
#include "mcp-server-info.h"
#include "mcp-tool.h"
#include "mcp-tool-result.h"
#include "mcp-transport.h"

G_BEGIN_DECLS

#define MCP_PROTOCOL_VERSION_LATEST "2025-11-25"
#define MCP_CLIENT_DEFAULT_REQUEST_TIMEOUT_MS 60000
#define MCP_CLIENT_DEFAULT_CONNECT_TIMEOUT_MS 30000

typedef enum
{
  MCP_CLIENT_STATE_NEW,
  MCP_CLIENT_STATE_CONNECTING,
  MCP_CLIENT_STATE_READY,
  MCP_CLIENT_STATE_CLOSED,
} McpClientState;

/**
 * McpProgressFunc:
 * @progress: the progress so far
 * @total: the total, or a negative number when the server gave none
 * @message: (nullable): the server's message
 *
 * Called on the main context for each notifications/progress of a request.
 */
typedef void (*McpProgressFunc) (double      progress,
                                 double      total,
                                 const char *message,
                                 gpointer    user_data);

typedef struct
{
  /* Time without an answer (or progress) before the request fails with
   * MCP_ERROR_TIMEOUT; 0 means the client's request-timeout. */
  guint            timeout_ms;
  /* Progress resets the timeout, but never past this total; 0: no limit. */
  guint            max_total_timeout_ms;
  /* When set, the request carries a progress token and this is called for
   * each progress notification. progress_data must live until the request
   * finishes. */
  McpProgressFunc  progress_func;
  gpointer         progress_data;
} McpRequestOptions;

#define MCP_TYPE_CLIENT (mcp_client_get_type ())

G_DECLARE_FINAL_TYPE (McpClient, mcp_client, MCP, CLIENT, GObject)

/**
 * McpClientRequestFunc:
 * @method: the server-to-client request's method
 * @params: (nullable): its params
 * @reply: (transfer full): answer with g_task_return_pointer (reply,
 *   JsonNode *result, json_node_unref) or an error (an MCP_JSONRPC_ERROR
 *   keeps its code and message; any other becomes -32603). The server's
 *   notifications/cancelled for the request (or the session ending)
 *   cancels g_task_get_cancellable (reply); nothing is sent back then.
 *
 * Answers a request the server sends to the client (elicitation/create,
 * sampling/createMessage, roots/list…).
 */
typedef void (*McpClientRequestFunc) (McpClient  *client,
                                      const char *method,
                                      JsonObject *params,
                                      GTask      *reply,
                                      gpointer    user_data);

/**
 * McpClient:
 *
 * One MCP session over one transport. Properties: transport
 * (construct-only), state (McpClientState), server-info, protocol-version,
 * request-timeout (ms).
 *
 * Signals:
 *  - tools-list-changed, resources-list-changed, prompts-list-changed
 *  - log-message (const char *level, const char *logger, JsonNode *data)
 *  - notification (McpMessage *): every notification the client does not
 *    handle itself, for later layers
 *  - server-notification (const char *method, JsonObject *params or NULL):
 *    every notification the server sends, handled or not, before it is
 *    handled (for a log)
 *  - closed (const GError *reason): the session ended; NULL when the owner
 *    closed it.
 */
McpClient      *mcp_client_new                   (McpTransport        *transport);

McpTransport   *mcp_client_get_transport         (McpClient           *self);
McpClientState  mcp_client_get_state             (McpClient           *self);
/* NULL until initialize answered. */
McpServerInfo  *mcp_client_get_server_info       (McpClient           *self);
const char     *mcp_client_get_protocol_version  (McpClient           *self);
guint           mcp_client_get_request_timeout   (McpClient           *self);
void            mcp_client_set_request_timeout   (McpClient           *self,
                                                  guint                timeout_ms);
void            mcp_client_set_client_info       (McpClient           *self,
                                                  const char          *name,
                                                  const char          *version);
/* The "capabilities" initialize declares (NULL: none, the empty object).
 * Set before connecting. */
void            mcp_client_set_capabilities      (McpClient           *self,
                                                  JsonObject          *capabilities);
/* Handles the server's requests for @method (NULL @func: removes it; the
 * method is then answered -32601 "Method not found"). "ping" is always
 * answered by the client itself. */
void            mcp_client_set_request_handler   (McpClient            *self,
                                                  const char           *method,
                                                  McpClientRequestFunc  func,
                                                  gpointer              user_data,
                                                  GDestroyNotify        destroy);
/* Bounds connect_async as a whole (transport, initialize); default
 * MCP_CLIENT_DEFAULT_CONNECT_TIMEOUT_MS, 0 for none. */
guint           mcp_client_get_connect_timeout   (McpClient           *self);
void            mcp_client_set_connect_timeout   (McpClient           *self,
                                                  guint                timeout_ms);
/* The protocol versions the client accepts from a server, newest first,
 * NULL-terminated. */
const char * const *mcp_client_get_supported_protocol_versions (void);

/* Connects the transport, sends initialize, checks the answered protocol
 * version and sends notifications/initialized. */
void            mcp_client_connect_async         (McpClient           *self,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
gboolean        mcp_client_connect_finish        (McpClient           *self,
                                                  GAsyncResult        *result,
                                                  GError             **error);

/* Any request. @params may be NULL. The result is the "result" value of the
 * response; a JSON-RPC error response fails in MCP_JSONRPC_ERROR. */
void            mcp_client_request_async         (McpClient               *self,
                                                  const char              *method,
                                                  JsonObject              *params,
                                                  const McpRequestOptions *options,
                                                  GCancellable            *cancellable,
                                                  GAsyncReadyCallback      callback,
                                                  gpointer                 user_data);
JsonNode       *mcp_client_request_finish        (McpClient           *self,
                                                  GAsyncResult        *result,
                                                  GError             **error);
gboolean        mcp_client_notify                (McpClient           *self,
                                                  const char          *method,
                                                  JsonObject          *params,
                                                  GError             **error);

void            mcp_client_ping_async            (McpClient           *self,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
gboolean        mcp_client_ping_finish           (McpClient           *self,
                                                  GAsyncResult        *result,
                                                  GError             **error);

/* Follows nextCursor to the end. Returns an array of McpTool. */
void            mcp_client_list_tools_async      (McpClient           *self,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
GPtrArray      *mcp_client_list_tools_finish     (McpClient           *self,
                                                  GAsyncResult        *result,
                                                  GError             **error);

/* Each follows nextCursor to the end, like list_tools, and answers an empty
 * array without asking when the server's capabilities do not offer
 * resources (for the first two) or prompts. Arrays of McpResource,
 * McpResourceTemplate and McpPrompt. */
void            mcp_client_list_resources_async  (McpClient           *self,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
GPtrArray      *mcp_client_list_resources_finish (McpClient           *self,
                                                  GAsyncResult        *result,
                                                  GError             **error);
void            mcp_client_list_resource_templates_async  (McpClient           *self,
                                                           GCancellable        *cancellable,
                                                           GAsyncReadyCallback  callback,
                                                           gpointer             user_data);
GPtrArray      *mcp_client_list_resource_templates_finish (McpClient           *self,
                                                           GAsyncResult        *result,
                                                           GError             **error);
void            mcp_client_list_prompts_async    (McpClient           *self,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
GPtrArray      *mcp_client_list_prompts_finish   (McpClient           *self,
                                                  GAsyncResult        *result,
                                                  GError             **error);

/* @arguments may be NULL (sent as {}). */
void            mcp_client_call_tool_async       (McpClient               *self,
                                                  const char              *name,
                                                  JsonObject              *arguments,
                                                  const McpRequestOptions *options,
                                                  GCancellable            *cancellable,
                                                  GAsyncReadyCallback      callback,
                                                  gpointer                 user_data);
McpToolResult  *mcp_client_call_tool_finish      (McpClient           *self,
                                                  GAsyncResult        *result,
                                                  GError             **error);

/* Fails every pending request with MCP_ERROR_CONNECTION_CLOSED and closes the
 * transport (for stdio: stdin, then SIGINT, SIGTERM, SIGKILL). */
void            mcp_client_close_async           (McpClient           *self,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
gboolean        mcp_client_close_finish          (McpClient           *self,
                                                  GAsyncResult        *result,
                                                  GError             **error);

G_END_DECLS
