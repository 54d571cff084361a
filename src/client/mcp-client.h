/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "mcp-message.h"
#include "mcp-prompt.h"
#include "mcp-prompt-result.h"
#include "mcp-resource.h"
#include "mcp-resource-template.h"
#include "mcp-server-info.h"
#include "mcp-task.h"
#include "mcp-tool.h"
#include "mcp-tool-result.h"
#include "mcp-transport.h"
#include "mcp-client-enums.h"

G_BEGIN_DECLS

#define MCP_PROTOCOL_VERSION_LATEST "2025-11-25"
/* The newest stateless revision: no handshake, per-request _meta. */
#define MCP_PROTOCOL_VERSION_MODERN "2026-07-28"

/* How long server/discover may go unanswered before a server is taken for
 * one of the handshake era (which may ignore requests before initialize). */
#define MCP_CLIENT_PROBE_TIMEOUT_MS 10000

/* Which protocol a server speaks: the handshake revisions (2024-11-05 to
 * 2025-11-25: initialize, sessions, server-to-client requests) or the
 * stateless ones (2026-07-28: every request carries its version and the
 * client's capabilities; input_required results instead of server
 * requests). */
typedef enum
{
  MCP_PROTOCOL_ERA_UNKNOWN,
  MCP_PROTOCOL_ERA_LEGACY,
  MCP_PROTOCOL_ERA_MODERN,
} McpProtocolEra;

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

/* McpRequestOptions.timeout_ms for a request that may wait as long as it
 * takes (tasks/result); cancel it through its GCancellable. */
#define MCP_REQUEST_TIMEOUT_NONE G_MAXUINT

typedef struct
{
  /* Time without an answer (or progress) before the request fails with
   * MCP_ERROR_TIMEOUT; 0 means the client's request-timeout,
   * MCP_REQUEST_TIMEOUT_NONE none. */
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
 *  - warning (const char *message): something the server sent that the
 *    client set aside without failing a request (a tool left out of
 *    tools/list, …), said for a person, translated
 *  - closed (const GError *reason): the session ended; NULL when the owner
 *    closed it.
 */
McpClient      *mcp_client_new                   (McpTransport        *transport);

McpTransport   *mcp_client_get_transport         (McpClient           *self);
McpClientState  mcp_client_get_state             (McpClient           *self);
/* NULL until initialize answered. */
McpServerInfo  *mcp_client_get_server_info       (McpClient           *self);
const char     *mcp_client_get_protocol_version  (McpClient           *self);
/* UNKNOWN until connect found it. */
McpProtocolEra  mcp_client_get_era               (McpClient           *self);
/* What connect tries: UNKNOWN (the default) sends server/discover first
 * where the transport can carry a stateless request, and initialize when
 * the answer is not a modern one; LEGACY sends initialize at once (a server
 * already known to want it); MODERN never falls back. */
void            mcp_client_set_era_hint          (McpClient           *self,
                                                  McpProtocolEra       era);
McpProtocolEra  mcp_client_get_era_hint          (McpClient           *self);
/* The stateless revision has no logging/setLevel: each request carries the
 * level in _meta. NULL: none. */
void            mcp_client_set_stateless_log_level (McpClient         *self,
                                                    const char        *level);

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

/* When the server last sent a message (any: an answer, a notification, a
 * request), as g_get_real_time(); 0 when it never has. */
gint64          mcp_client_get_last_contact      (McpClient           *self);

/* A listing (tools, prompts, resources, resource templates, tasks) stops
 * with MCP_ERROR_MESSAGE_TOO_LARGE, naming the server and the list, once
 * its pages together are larger than this (their JSON, estimated), and
 * with MCP_ERROR_INVALID_MESSAGE after 10,000 pages (tasks: 1,000). */
#define MCP_CLIENT_MAX_LIST_BYTES (64 * 1024 * 1024)

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

/* How long a listing may be kept (the 2026-07-28 revision's caching):
 * @fresh_until is a monotonic time (g_get_monotonic_time(), µs) from which
 * the listing is stale and should be listed again on its next use — the
 * earliest of its pages' receipt + ttlMs, so a ttlMs of 0 (or one absent
 * or negative) makes it stale at once — and @scope whether it may outlive
 * the authorization (access token) it was fetched with. Listings of the
 * handshake era, which carry no ttlMs, and listings answered without
 * asking (capability not declared) are MCP_LIST_FRESH_UNTIL_CHANGED and
 * public: kept until a list_changed notification, as always. A page
 * refused for its cursor (-32602) makes the listing start again from the
 * first page, once. @result: that of one of the four list functions
 * above, before or after its finish; either out argument may be NULL. */
#define MCP_LIST_FRESH_UNTIL_CHANGED G_MAXINT64

typedef enum
{
  MCP_CACHE_SCOPE_PUBLIC,
  MCP_CACHE_SCOPE_PRIVATE,
} McpCacheScope;

void            mcp_client_list_get_freshness    (McpClient           *self,
                                                  GAsyncResult        *result,
                                                  gint64              *fresh_until,
                                                  McpCacheScope       *scope);

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

/* ------------------------------------------------------------------------ */
/* Resources, prompts, completion, logging (mcp-client-resources.c)         */

/* resources/read. Returns an array of McpContent, each of kind
 * MCP_CONTENT_RESOURCE (an embedded resource: uri, mimeType, text or blob),
 * in the server's order. Fails with MCP_ERROR_UNSUPPORTED (without asking)
 * when the server does not offer resources. */
void             mcp_client_read_resource_async       (McpClient           *self,
                                                       const char          *uri,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
GPtrArray       *mcp_client_read_resource_finish      (McpClient           *self,
                                                       GAsyncResult        *result,
                                                       GError             **error);

/* resources/subscribe (@subscribe TRUE) or resources/unsubscribe. Fails
 * with MCP_ERROR_UNSUPPORTED (without asking) unless the server declares
 * resources.subscribe. The server's notifications/resources/updated come
 * through the client's "notification" signal. */
void             mcp_client_subscribe_resource_async  (McpClient           *self,
                                                       const char          *uri,
                                                       gboolean             subscribe,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
gboolean         mcp_client_subscribe_resource_finish (McpClient           *self,
                                                       GAsyncResult        *result,
                                                       GError             **error);

/* prompts/get. @arguments: (nullable) string members only (the
 * specification's arguments are strings). MCP_ERROR_UNSUPPORTED without
 * asking when the server does not offer prompts. */
void             mcp_client_get_prompt_async          (McpClient           *self,
                                                       const char          *name,
                                                       JsonObject          *arguments,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
McpPromptResult *mcp_client_get_prompt_finish         (McpClient           *self,
                                                       GAsyncResult        *result,
                                                       GError             **error);

typedef enum
{
  MCP_COMPLETION_PROMPT,    /* ref/prompt: @ref is the prompt's name */
  MCP_COMPLETION_RESOURCE,  /* ref/resource: @ref is the URI template */
} McpCompletionRef;

/* completion/complete for @argument's current @value. @context: (nullable)
 * the other arguments' values (strings), sent as context.arguments.
 * Returns the suggested values (NULL-terminated, at most 100); @has_more:
 * (out) (optional) whether the server has more. An empty array, without
 * asking, when the server does not declare completions. */
void             mcp_client_complete_async            (McpClient           *self,
                                                       McpCompletionRef     ref_kind,
                                                       const char          *ref,
                                                       const char          *argument,
                                                       const char          *value,
                                                       JsonObject          *context,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
GStrv            mcp_client_complete_finish           (McpClient           *self,
                                                       GAsyncResult        *result,
                                                       gboolean            *has_more,
                                                       GError             **error);

/* The log levels of logging/setLevel, lowest first, NULL-terminated:
 * debug, info, notice, warning, error, critical, alert, emergency. */
const char * const *mcp_client_get_log_levels         (void);

/* logging/setLevel. @level is one of mcp_client_get_log_levels() (else
 * MCP_ERROR_INVALID_ARGUMENT); MCP_ERROR_UNSUPPORTED without asking when
 * the server does not declare logging. */
void             mcp_client_set_log_level_async       (McpClient           *self,
                                                       const char          *level,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
gboolean         mcp_client_set_log_level_finish      (McpClient           *self,
                                                       GAsyncResult        *result,
                                                       GError             **error);

/* ------------------------------------------------------------------------ */
/* Tasks (2025-11-25, experimental; mcp-client-tasks.c)                     */

/* The TTL asked for when a front end does not choose one: 1 hour. */
#define MCP_TASK_DEFAULT_TTL_MS (60 * 60 * 1000)

/* tools/call with params.task {ttl: @ttl_ms} (0: MCP_TASK_DEFAULT_TTL_MS).
 * Returns the task the server created (CreateTaskResult.task). A server
 * that answers with a plain result instead fails this with
 * MCP_ERROR_INVALID_MESSAGE naming the tool. */
void             mcp_client_call_tool_as_task_async   (McpClient           *self,
                                                       const char          *name,
                                                       JsonObject          *arguments,
                                                       gint64               ttl_ms,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
McpTask         *mcp_client_call_tool_as_task_finish  (McpClient           *self,
                                                       GAsyncResult        *result,
                                                       GError             **error);

/* tasks/get */
void             mcp_client_get_task_async            (McpClient           *self,
                                                       const char          *task_id,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
McpTask         *mcp_client_get_task_finish           (McpClient           *self,
                                                       GAsyncResult        *result,
                                                       GError             **error);

/* tasks/result for a task made by mcp_client_call_tool_as_task_async():
 * the tool's result once the task is done (the server holds the request
 * until then; no request timeout applies). A failed or cancelled task
 * fails with the server's error. */
void             mcp_client_get_task_result_async     (McpClient           *self,
                                                       const char          *task_id,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
McpToolResult   *mcp_client_get_task_result_finish    (McpClient           *self,
                                                       GAsyncResult        *result,
                                                       GError             **error);

/* tasks/cancel. Returns the task's state after the request. */
void             mcp_client_cancel_task_async         (McpClient           *self,
                                                       const char          *task_id,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
McpTask         *mcp_client_cancel_task_finish        (McpClient           *self,
                                                       GAsyncResult        *result,
                                                       GError             **error);

/* tasks/list, all pages. An array of McpTask; empty, without asking, when
 * the server does not declare tasks.list. */
void             mcp_client_list_tasks_async          (McpClient           *self,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
GPtrArray       *mcp_client_list_tasks_finish         (McpClient           *self,
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
