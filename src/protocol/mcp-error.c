/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-error.h"

#include <glib/gi18n.h>

typedef struct
{
  JsonNode *data;
  char     *message;  /* the peer's, whatever is prefixed to error->message */
} McpJsonrpcErrorPrivate;

static void
mcp_jsonrpc_error_private_init (McpJsonrpcErrorPrivate *priv)
{
  priv->data = NULL;
  priv->message = NULL;
}

static void
mcp_jsonrpc_error_private_copy (const McpJsonrpcErrorPrivate *src,
                                McpJsonrpcErrorPrivate       *dest)
{
  dest->data = src->data != NULL ? json_node_ref (src->data) : NULL;
  dest->message = g_strdup (src->message);
}

static void
mcp_jsonrpc_error_private_clear (McpJsonrpcErrorPrivate *priv)
{
  g_clear_pointer (&priv->data, json_node_unref);
  g_clear_pointer (&priv->message, g_free);
}

/* An extended error domain (GLib 2.68): the GError keeps the peer's data. */
G_DEFINE_EXTENDED_ERROR (McpJsonrpcError, mcp_jsonrpc_error)
G_DEFINE_QUARK (mcp-error-quark, mcp_error)

GError *
mcp_jsonrpc_error_new (int         code,
                       const char *message,
                       JsonNode   *data)
{
  GError *error = g_error_new_literal (MCP_JSONRPC_ERROR, code, message);
  McpJsonrpcErrorPrivate *priv = mcp_jsonrpc_error_get_private (error);

  if (data != NULL)
    priv->data = json_node_ref (data);
  priv->message = g_strdup (message);

  return error;
}

JsonNode *
mcp_jsonrpc_error_get_data (const GError *error)
{
  if (error == NULL || error->domain != MCP_JSONRPC_ERROR)
    return NULL;

  return mcp_jsonrpc_error_get_private (error)->data;
}

const char *
mcp_jsonrpc_error_get_message (const GError *error)
{
  const char *message;

  if (error == NULL || error->domain != MCP_JSONRPC_ERROR)
    return NULL;

  message = mcp_jsonrpc_error_get_private (error)->message;
  return message != NULL ? message : error->message;
}

const char *
mcp_jsonrpc_error_code_to_string (int code)
{
  switch (code)
    {
    case MCP_JSONRPC_ERROR_PARSE_ERROR:
      return _("Parse error");
    case MCP_JSONRPC_ERROR_INVALID_REQUEST:
      return _("Invalid request");
    case MCP_JSONRPC_ERROR_METHOD_NOT_FOUND:
      return _("Method not found");
    case MCP_JSONRPC_ERROR_INVALID_PARAMS:
      return _("Invalid params");
    case MCP_JSONRPC_ERROR_INTERNAL_ERROR:
      return _("Internal error");
    case -32002:
      return _("Resource not found");
    case -32042:
      return _("URL elicitation required");
    default:
      return NULL;
    }
}
