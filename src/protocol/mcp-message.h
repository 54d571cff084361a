/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>
#include "mcp-protocol-enums.h"

G_BEGIN_DECLS

/* The per-request protocol fields of the stateless revision, in _meta. */
#define MCP_META_PROTOCOL_VERSION    "io.modelcontextprotocol/protocolVersion"
#define MCP_META_CLIENT_CAPABILITIES "io.modelcontextprotocol/clientCapabilities"
#define MCP_META_CLIENT_INFO         "io.modelcontextprotocol/clientInfo"
#define MCP_META_LOG_LEVEL           "io.modelcontextprotocol/logLevel"
#define MCP_META_SUBSCRIPTION_ID     "io.modelcontextprotocol/subscriptionId"
#define MCP_META_SERVER_INFO         "io.modelcontextprotocol/serverInfo"

typedef enum
{
  MCP_MESSAGE_REQUEST,
  MCP_MESSAGE_NOTIFICATION,
  MCP_MESSAGE_RESULT,
  MCP_MESSAGE_ERROR,
} McpMessageKind;

#define MCP_TYPE_MESSAGE (mcp_message_get_type ())

G_DECLARE_FINAL_TYPE (McpMessage, mcp_message, MCP, MESSAGE, GObject)

/* Constructors. @id is an integer or string JSON value; @params, @result and
 * @data are referenced, not copied, and must not be changed afterwards. */
McpMessage     *mcp_message_new_request          (JsonNode        *id,
                                                   const char      *method,
                                                   JsonNode        *params);
McpMessage     *mcp_message_new_notification     (const char      *method,
                                                   JsonNode        *params);
McpMessage     *mcp_message_new_result           (JsonNode        *id,
                                                   JsonNode        *result);
McpMessage     *mcp_message_new_error            (JsonNode        *id,
                                                   int              code,
                                                   const char      *message,
                                                   JsonNode        *data);

/* Convenience for the common integer id. */
JsonNode       *mcp_message_id_new_int           (gint64           id);
JsonNode       *mcp_message_id_new_string        (const char      *id);

McpMessageKind  mcp_message_get_kind             (McpMessage      *self);
/* The id of a request, result or error; NULL for a notification, and for an
 * error response whose id was null (a parse error the peer could not tie to
 * a request). */
JsonNode       *mcp_message_get_id               (McpMessage      *self);
/* TRUE and *out_id set when the id is an integer (a string id that holds a
 * decimal integer does not count: ids are compared by type and value). */
gboolean        mcp_message_get_int_id           (McpMessage      *self,
                                                   gint64          *out_id);
const char     *mcp_message_get_method           (McpMessage      *self);
JsonNode       *mcp_message_get_params           (McpMessage      *self);
/* The params when they are an object, else NULL. */
JsonObject     *mcp_message_get_params_object    (McpMessage      *self);
JsonNode       *mcp_message_get_result           (McpMessage      *self);
int             mcp_message_get_error_code       (McpMessage      *self);
const char     *mcp_message_get_error_message    (McpMessage      *self);
JsonNode       *mcp_message_get_error_data       (McpMessage      *self);
/* For an error message: a #GError in MCP_JSONRPC_ERROR with the peer's code and
 * message. */
GError         *mcp_message_to_gerror            (McpMessage      *self);

/* Headers an HTTP transport sends with this message (the stateless
 * revision's Mcp-Param-* headers, whose values depend on the tool's schema,
 * which only the client knows). Values are raw: the transport encodes them.
 * Not part of the JSON; other transports ignore them. NULL when none. */
void            mcp_message_set_header           (McpMessage      *self,
                                                   const char      *name,
                                                   const char      *value);
GHashTable     *mcp_message_get_headers          (McpMessage      *self);

/* One JSON object with no newline in it (JSON escapes every newline inside
 * strings), ready for newline-delimited transports. */
char           *mcp_message_to_string            (McpMessage      *self,
                                                   gsize           *length);
JsonNode       *mcp_message_to_node              (McpMessage      *self);

/* Reads one JSON-RPC message from a parsed JSON value. */
McpMessage     *mcp_message_new_from_node        (JsonNode        *node,
                                                   GError         **error);
/* Reads one JSON text: a single message or a batch (array) of them. Returns
 * an array of McpMessage. A batch is read but never sent by Plugboard.
 * Errors are MCP_JSONRPC_ERROR_PARSE_ERROR (not JSON) or
 * MCP_JSONRPC_ERROR_INVALID_REQUEST (JSON, but not JSON-RPC 2.0), with a
 * message saying what and where ("$.id: must be a string or an integer"). */
GPtrArray      *mcp_message_parse                (const char      *data,
                                                   gssize           length,
                                                   GError         **error);
/* The "id" of a text that mcp_message_parse() refused, when it can still
 * be read: a top-level member of an object before the part that is wrong
 * (within the first 4 KiB), an integer or a plain string, and no "method"
 * member before the wrong part (a request of the server's). NULL when it
 * cannot. */
JsonNode       *mcp_message_recover_id           (const char      *data,
                                                   gsize            length);

G_END_DECLS
