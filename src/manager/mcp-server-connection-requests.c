/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-server-connection"

#include "config.h"

#include "mcp-server-connection.h"
#include "mcp-server-connection-private.h"

/* Server-to-client requests: the manager's table of handlers, and on
 * each new client the capabilities they declare and a trampoline per
 * method that hands the request to its handler with the connection. */

McpServerRequestHandler *
mcp_server_request_handler_new (const char           *method,
                                JsonObject           *capabilities,
                                McpServerRequestFunc  func,
                                gpointer              data,
                                GDestroyNotify        destroy)
{
  McpServerRequestHandler *handler = g_atomic_rc_box_new0 (McpServerRequestHandler);

  handler->method = g_strdup (method);
  handler->capabilities = capabilities != NULL ? json_object_ref (capabilities) : NULL;
  handler->func = func;
  handler->data = data;
  handler->destroy = destroy;

  return handler;
}

McpServerRequestHandler *
mcp_server_request_handler_ref (McpServerRequestHandler *handler)
{
  return g_atomic_rc_box_acquire (handler);
}

static void
request_handler_clear (gpointer data)
{
  McpServerRequestHandler *handler = data;

  if (handler->destroy != NULL)
    handler->destroy (handler->data);
  g_free (handler->method);
  g_clear_pointer (&handler->capabilities, json_object_unref);
}

void
mcp_server_request_handler_unref (McpServerRequestHandler *handler)
{
  g_atomic_rc_box_release_full (handler, request_handler_clear);
}

void
mcp_server_connection_set_request_handlers (McpServerConnection *self,
                                            GHashTable          *handlers)
{
  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));

  if (handlers != NULL)
    g_hash_table_ref (handlers);
  g_clear_pointer (&self->request_handlers, g_hash_table_unref);
  self->request_handlers = handlers;
}

/* Members of @from into @into; objects on both sides merge member by
 * member ({"elicitation": {"form": {}}} and {"elicitation": {"url": {}}}
 * make {"elicitation": {"form": {}, "url": {}}}). */
static void
merge_capabilities (JsonObject *into,
                    JsonObject *from)
{
  JsonObjectIter iter;
  const char *name;
  JsonNode *node;

  json_object_iter_init (&iter, from);
  while (json_object_iter_next (&iter, &name, &node))
    {
      JsonNode *existing = json_object_get_member (into, name);

      if (existing != NULL && JSON_NODE_HOLDS_OBJECT (existing) && JSON_NODE_HOLDS_OBJECT (node))
        {
          JsonObject *merged = json_object_new ();

          merge_capabilities (merged, json_node_get_object (existing));
          merge_capabilities (merged, json_node_get_object (node));
          json_object_set_object_member (into, name, merged);
        }
      else if (JSON_NODE_HOLDS_OBJECT (node))
        {
          JsonObject *copy = json_object_new ();

          merge_capabilities (copy, json_node_get_object (node));
          json_object_set_object_member (into, name, copy);
        }
      else
        {
          json_object_set_member (into, name, json_node_copy (node));
        }
    }
}

typedef struct
{
  GWeakRef                 connection;
  McpServerRequestHandler *handler;
} ClientRequestHandler;

static void
client_request_handler_free (gpointer data)
{
  ClientRequestHandler *trampoline = data;

  g_weak_ref_clear (&trampoline->connection);
  mcp_server_request_handler_unref (trampoline->handler);
  g_free (trampoline);
}

static void
on_client_request_cb (McpClient  *client,
                      const char *method,
                      JsonObject *params,
                      GTask      *reply,
                      gpointer    user_data)
{
  ClientRequestHandler *trampoline = user_data;
  g_autoptr(McpServerConnection) self = g_weak_ref_get (&trampoline->connection);

  if (self == NULL)
    {
      /* Sent to the server in the JSON-RPC error: not translated. */
      g_task_return_new_error (reply, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_INTERNAL_ERROR,
                               "The client is shutting down");
      g_object_unref (reply);
      return;
    }

  trampoline->handler->func (self, method, params, reply, trampoline->handler->data);
}

/* MCP Apps: servers register their tools with an interface only for a
 * client that says it renders them (the extension's MIME types). */
static JsonObject *
build_ui_extension_capability (void)
{
  JsonObject *capabilities = json_object_new ();
  JsonObject *extensions = json_object_new ();
  JsonObject *ui = json_object_new ();
  JsonArray *mime_types = json_array_new ();

  json_array_add_string_element (mime_types, MCP_UI_MIME_TYPE);
  json_object_set_array_member (ui, "mimeTypes", mime_types);
  json_object_set_object_member (extensions, MCP_UI_EXTENSION, ui);
  /* Skills (SEP-2640) define no client setting; declaring the extension
   * tells a server that the host loads skills itself. */
  json_object_set_object_member (extensions, MCP_SKILLS_EXTENSION, json_object_new ());
  json_object_set_object_member (capabilities, "extensions", extensions);

  return capabilities;
}

/* The capabilities and handlers of the manager's table, as they are now,
 * and the extensions the engine itself supports. */
void
mcp_server_connection_apply_request_handlers (McpServerConnection *self,
                                              McpClient           *client)
{
  g_autoptr(JsonObject) capabilities = json_object_new ();
  g_autoptr(JsonObject) ui = build_ui_extension_capability ();
  GHashTableIter iter;
  McpServerRequestHandler *handler;

  merge_capabilities (capabilities, ui);

  if (self->request_handlers == NULL)
    {
      mcp_client_set_capabilities (client, capabilities);
      return;
    }

  g_hash_table_iter_init (&iter, self->request_handlers);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &handler))
    {
      ClientRequestHandler *trampoline = g_new0 (ClientRequestHandler, 1);

      g_weak_ref_init (&trampoline->connection, self);
      trampoline->handler = mcp_server_request_handler_ref (handler);
      mcp_client_set_request_handler (client, handler->method, on_client_request_cb,
                                      trampoline, client_request_handler_free);
      if (handler->capabilities != NULL)
        merge_capabilities (capabilities, handler->capabilities);
    }

  mcp_client_set_capabilities (client, capabilities);
}
