/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-client.h"
#include "mcp-client-private.h"
#include "mcp-error.h"

/* Mcp-Param-* headers (2026-07-28, SEP-2243): a stateless tools/call over
 * Streamable HTTP mirrors the arguments its tool's schema marks
 * x-mcp-header into headers, from the tools as last listed; a server that
 * finds them wrong has the call sent again after a new listing. */

/* Mcp-Param-* headers (2026-07-28, SEP-2243) for a stateless tools/call,
 * from the schema of the tool as last listed. */
void
mcp_client_add_param_headers (McpClient  *self,
                              JsonObject *params,
                              McpMessage *message)
{
  JsonNode *name = json_object_get_member (params, "name");
  JsonNode *arguments = json_object_get_member (params, "arguments");
  McpTool *tool;

  if (name == NULL || !JSON_NODE_HOLDS_VALUE (name) ||
      json_node_get_value_type (name) != G_TYPE_STRING ||
      arguments == NULL || !JSON_NODE_HOLDS_OBJECT (arguments))
    return;

  tool = g_hash_table_lookup (self->listed_tools, json_node_get_string (name));
  if (tool != NULL)
    mcp_tool_add_param_headers (tool, json_node_get_object (arguments), message);
}

/* Keeps the listing for the Mcp-Param-* headers of later calls. Over
 * Streamable HTTP in the stateless era, a tool whose x-mcp-header
 * declarations break SEP-2243's rules is left out (its calls could not
 * carry the headers the server expects), with a warning in the server's
 * log (the "warning" signal). */
void
mcp_client_remember_listed_tools (McpClient *self,
                                  GPtrArray *tools)
{
  gboolean check = self->era == MCP_PROTOCOL_ERA_MODERN &&
                   mcp_transport_mirrors_param_headers (self->transport);

  g_hash_table_remove_all (self->listed_tools);

  for (guint i = 0; i < tools->len;)
    {
      McpTool *tool = g_ptr_array_index (tools, i);
      g_autoptr(GError) error = NULL;

      if (check && !mcp_tool_check_param_headers (tool, &error))
        {
          g_autofree char *text = NULL;

          /* Translators: %s says what is wrong with the tool's schema; it
           * names the tool. */
          text = g_strdup_printf (_("Left out of the tool list: %s"), error->message);
          g_debug ("%s", text);
          mcp_client_emit_signal (self, MCP_CLIENT_SIGNAL_WARNING, text);
          g_ptr_array_remove_index (tools, i);
          continue;
        }

      g_hash_table_replace (self->listed_tools, g_strdup (mcp_tool_get_name (tool)),
                            g_object_ref (tool));
      i++;
    }
}

/* A tools/call refused with -32020 while its tool is listed again. */
typedef struct
{
  McpClientPending *pending;
  GError           *error; /* the refusal, for when listing fails */
} Relist;

static void
on_relisted_for_headers_cb (GObject      *object,
                            GAsyncResult *result,
                            gpointer      user_data)
{
  McpClient *self = MCP_CLIENT (object);
  Relist *relist = user_data;
  g_autoptr(GPtrArray) tools = NULL;
  g_autoptr(GError) error = NULL;
  McpClientPending *pending;

  tools = mcp_client_list_tools_finish (self, result, &error);
  if (tools == NULL)
    {
      g_debug ("Listing tools again after a header mismatch failed: %s", error->message);
      g_task_return_error (relist->pending->task, g_steal_pointer (&relist->error));
      mcp_client_pending_free (relist->pending);
    }
  else
    {
      pending = mcp_client_resend_pending (self, relist->pending, NULL, relist->pending->sends,
                                           relist->pending->rounds);
      if (pending != NULL)
        pending->headers_refetched = TRUE;
    }

  g_clear_error (&relist->error);
  g_free (relist);
}

/* SEP-2243: a server that finds the Mcp-Param-* headers of a tools/call
 * wrong (400 -32020) has a schema other than the one listed; the client
 * lists the tools again and sends the call once more. TRUE when it did. */
gboolean
mcp_client_relist_for_header_mismatch (McpClient        *self,
                                       McpClientPending *pending,
                                       McpMessage       *message)
{
  Relist *relist;

  if (mcp_message_get_error_code (message) != MCP_JSONRPC_ERROR_HEADER_MISMATCH ||
      pending->headers_refetched || self->era != MCP_PROTOCOL_ERA_MODERN ||
      g_strcmp0 (pending->method, "tools/call") != 0 ||
      !mcp_transport_mirrors_param_headers (self->transport))
    return FALSE;

  g_debug ("tools/call refused for its headers (%s); listing the tools again",
           mcp_message_get_error_message (message));

  relist = g_new0 (Relist, 1);
  relist->pending = pending;
  relist->error = mcp_message_to_gerror (message);
  mcp_client_list_tools_async (self, g_task_get_cancellable (pending->task),
                               on_relisted_for_headers_cb, relist);
  return TRUE;
}
