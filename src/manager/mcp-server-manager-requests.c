/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-server-manager"

#include "config.h"

#include "mcp-server-manager.h"
#include "mcp-server-manager-private.h"

/* Server-to-client requests: the handlers the front ends set, shared
 * with every connection made from then on, and roots/list answered from
 * an McpRoots. */

void
mcp_server_manager_set_request_handler (McpServerManager     *self,
                                        const char           *method,
                                        JsonObject           *capabilities,
                                        McpServerRequestFunc  func,
                                        gpointer              user_data,
                                        GDestroyNotify        destroy)
{
  g_return_if_fail (MCP_IS_SERVER_MANAGER (self));
  g_return_if_fail (method != NULL);

  if (func == NULL)
    {
      g_hash_table_remove (self->request_handlers, method);
      if (destroy != NULL)
        destroy (user_data);
      return;
    }

  g_hash_table_replace (self->request_handlers, g_strdup (method),
                        mcp_server_request_handler_new (method, capabilities, func,
                                                        user_data, destroy));
}

/* roots/list: the server's own roots, as the McpRoots says now. */
static void
roots_list_cb (McpServerConnection *connection,
               const char          *method,
               JsonObject          *params,
               GTask               *reply,
               gpointer             user_data)
{
  McpRoots *roots = user_data;
  g_autoptr(GTask) owned = reply;
  JsonObject *result = json_object_new ();
  JsonNode *node;

  McpServerConfig *config = mcp_server_connection_get_config (connection);

  json_object_set_array_member (result, "roots",
                                mcp_roots_dup_json (roots, mcp_server_connection_get_name (connection),
                                                    config != NULL ? mcp_server_config_get_scope (config)
                                                                   : MCP_CONFIG_SCOPE_USER));
  node = json_node_init_object (json_node_alloc (), result);
  json_object_unref (result);
  g_task_return_pointer (owned, node, (GDestroyNotify) json_node_unref);
}

void
mcp_server_manager_notify_roots_changed (McpServerManager *self,
                                         const char       *server)
{
  McpServerConnection *connection = mcp_server_manager_lookup (self, server);
  McpClient *client = connection != NULL ? mcp_server_connection_get_client (connection) : NULL;
  g_autoptr(GError) error = NULL;

  /* A server connected before roots were declared was not told it may
   * ask again; the others are. */
  if (client == NULL || mcp_client_get_state (client) != MCP_CLIENT_STATE_READY)
    return;
  if (!mcp_client_notify (client, "notifications/roots/list_changed", NULL, &error))
    g_debug ("“%s”: could not send notifications/roots/list_changed: %s", server, error->message);
}

static void
on_roots_changed_cb (McpRoots         *roots,
                     const char       *server,
                     McpServerManager *self)
{
  mcp_server_manager_notify_roots_changed (self, server);
}

void
mcp_server_manager_set_roots (McpServerManager *self,
                              McpRoots         *roots)
{
  g_return_if_fail (MCP_IS_SERVER_MANAGER (self));
  g_return_if_fail (roots == NULL || MCP_IS_ROOTS (roots));

  if (self->roots == roots)
    return;

  if (self->roots != NULL)
    g_clear_signal_handler (&self->roots_changed_id, self->roots);
  g_set_object (&self->roots, roots);

  if (roots == NULL)
    {
      mcp_server_manager_set_request_handler (self, "roots/list", NULL, NULL, NULL, NULL);
      return;
    }

  {
    g_autoptr(JsonObject) capabilities = json_object_new ();
    JsonObject *roots_capability = json_object_new ();

    json_object_set_boolean_member (roots_capability, "listChanged", TRUE);
    json_object_set_object_member (capabilities, "roots", roots_capability);
    mcp_server_manager_set_request_handler (self, "roots/list", capabilities, roots_list_cb,
                                            g_object_ref (roots), g_object_unref);
  }
  self->roots_changed_id = g_signal_connect (roots, "changed",
                                             G_CALLBACK (on_roots_changed_cb), self);
}

McpRoots *
mcp_server_manager_get_roots (McpServerManager *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_MANAGER (self), NULL);

  return self->roots;
}
