/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-error.h"

G_DEFINE_QUARK (mcp-jsonrpc-error-quark, mcp_jsonrpc_error)
G_DEFINE_QUARK (mcp-error-quark, mcp_error)

const char *
mcp_jsonrpc_error_code_to_string (int code)
{
  switch (code)
    {
    case MCP_JSONRPC_ERROR_PARSE_ERROR:
      return "Parse error";
    case MCP_JSONRPC_ERROR_INVALID_REQUEST:
      return "Invalid request";
    case MCP_JSONRPC_ERROR_METHOD_NOT_FOUND:
      return "Method not found";
    case MCP_JSONRPC_ERROR_INVALID_PARAMS:
      return "Invalid params";
    case MCP_JSONRPC_ERROR_INTERNAL_ERROR:
      return "Internal error";
    case -32002:
      return "Resource not found";
    case -32042:
      return "URL elicitation required";
    default:
      return NULL;
    }
}
