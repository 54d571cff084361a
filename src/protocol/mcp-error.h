/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>
#include "mcp-protocol-enums.h"

G_BEGIN_DECLS

/**
 * MCP_JSONRPC_ERROR:
 *
 * The domain of errors a peer sent as a JSON-RPC error object. The #GError
 * code is the JSON-RPC code itself, so codes the enum does not name
 * (-32002 resource not found, -32042 URL elicitation required, server
 * defined codes) pass through unchanged.
 */
#define MCP_JSONRPC_ERROR (mcp_jsonrpc_error_quark ())

typedef enum
{
  MCP_JSONRPC_ERROR_PARSE_ERROR      = -32700,
  MCP_JSONRPC_ERROR_INVALID_REQUEST  = -32600,
  MCP_JSONRPC_ERROR_METHOD_NOT_FOUND = -32601,
  MCP_JSONRPC_ERROR_INVALID_PARAMS   = -32602,
  MCP_JSONRPC_ERROR_INTERNAL_ERROR   = -32603,
  /* The stateless revision's (2026-07-28) own codes. */
  MCP_JSONRPC_ERROR_HEADER_MISMATCH              = -32020,
  MCP_JSONRPC_ERROR_MISSING_CLIENT_CAPABILITY    = -32021,
  MCP_JSONRPC_ERROR_UNSUPPORTED_PROTOCOL_VERSION = -32022,
} McpJsonrpcError;

/**
 * MCP_ERROR:
 *
 * Errors of the client side: what went wrong with the connection or a
 * request that the peer did not report itself.
 */
#define MCP_ERROR (mcp_error_quark ())

typedef enum
{
  MCP_ERROR_FAILED,
  MCP_ERROR_TIMEOUT,              /* a request got no answer in time */
  MCP_ERROR_CONNECTION_CLOSED,    /* the transport closed; message says why */
  MCP_ERROR_MESSAGE_TOO_LARGE,    /* a message went past the configured maximum */
  MCP_ERROR_INVALID_MESSAGE,      /* the peer sent something that is not valid JSON-RPC / MCP */
  MCP_ERROR_UNSUPPORTED_VERSION,  /* the server answered a protocol version we do not speak */
  MCP_ERROR_SPAWN_FAILED,         /* a stdio server's command could not be started */
  MCP_ERROR_NOT_CONNECTED,        /* an operation needs a connection there is not */
  MCP_ERROR_SESSION_EXPIRED,      /* HTTP 404 on a request that carried Mcp-Session-Id */
  MCP_ERROR_NEEDS_AUTH,           /* HTTP 401 (or 403 insufficient_scope) with no way to sign in */
  MCP_ERROR_HTTP,                 /* any other HTTP status the server should not have sent */
  MCP_ERROR_NETWORK,              /* reset, refused, timed out, TLS: the network failed */
  MCP_ERROR_INVALID_CONFIG,       /* a settings entry that cannot be used; says file and JSON path */
  MCP_ERROR_PERMISSION_DENIED,    /* a permission rule (or the person) refused a tool call */
  MCP_ERROR_UNSUPPORTED,          /* the server does not offer what was asked (a capability it lacks) */
  MCP_ERROR_INVALID_ARGUMENT,     /* the caller's argument is not one the protocol allows */
  MCP_ERROR_STREAM_BROKEN,        /* a stateless request's response stream ended before its answer */
} McpErrorCode;

GQuark       mcp_jsonrpc_error_quark        (void);
/* A JSON-RPC error carries the peer's "data" member: a -32042 answer's
 * elicitations, say. */
GError      *mcp_jsonrpc_error_new          (int          code,
                                             const char  *message,
                                             JsonNode    *data);
/* The "data" of an error in MCP_JSONRPC_ERROR, or NULL. */
JsonNode    *mcp_jsonrpc_error_get_data     (const GError *error);
/* The message the peer sent, without what g_prefix_error() added to the
 * GError's since (error->message for an error not made by
 * mcp_jsonrpc_error_new()); NULL outside MCP_JSONRPC_ERROR. */
const char  *mcp_jsonrpc_error_get_message  (const GError *error);
GQuark       mcp_error_quark                (void);
const char  *mcp_jsonrpc_error_code_to_string (int code);

G_END_DECLS
