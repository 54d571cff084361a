/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-tool-pool"

#include "config.h"

#include "mcp-tool-pool.h"
#include "mcp-tool-pool-private.h"

#include "mcp-pool-tool-private.h"

/* Following the servers: the connections' model and each connection's
 * "tools" model, mirrored into the pool's entries, with items-changed
 * over exactly the range that changed. */

static void
server_disconnect_tools (Server *server)
{
  if (server->tools != NULL)
    g_clear_signal_handler (&server->items_changed_id, server->tools);
  g_clear_object (&server->tools);
}

void
mcp_tool_pool_server_free (gpointer data)
{
  Server *server = data;

  server_disconnect_tools (server);
  if (server->connection != NULL)
    g_clear_signal_handler (&server->notify_tools_id, server->connection);
  g_clear_object (&server->connection);
  g_clear_pointer (&server->name, g_free);
  g_clear_pointer (&server->items, g_ptr_array_unref);
  g_free (server);
}

static guint
server_offset (McpToolPool *self,
               Server      *server)
{
  guint offset = 0;

  for (guint i = 0; i < self->servers->len; i++)
    {
      Server *s = g_ptr_array_index (self->servers, i);

      if (s == server)
        return offset;
      offset += s->items->len;
    }

  g_assert_not_reached ();
}

static void
server_insert_tools (Server *server,
                     guint   position,
                     guint   n_tools)
{
  guint inserted = 0;

  for (guint i = 0; i < n_tools; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (server->tools, position + i);

      if (!MCP_IS_TOOL (item))
        {
          g_debug ("Server “%s” listed something that is not an McpTool; left out of the pool",
                   server->name);
          continue;
        }
      g_ptr_array_insert (server->items, position + inserted++,
                          mcp_pool_tool_new (server->connection, server->name, MCP_TOOL (item)));
    }
}

static void
on_tools_items_changed_cb (GListModel *tools,
                           guint       position,
                           guint       removed,
                           guint       added,
                           gpointer    user_data)
{
  Server *server = user_data;
  McpToolPool *self = server->pool;
  guint offset = server_offset (self, server);
  guint before = server->items->len;

  g_assert (tools == server->tools);

  if (position > server->items->len)
    position = server->items->len;
  removed = MIN (removed, server->items->len - position);
  g_ptr_array_remove_range (server->items, position, removed);
  server_insert_tools (server, position, added);

  mcp_tool_pool_rename (self);

  /* Something that is not an McpTool is left out, so the counts of the
   * pool and of the server's model may differ. */
  if (server->items->len + removed == before + added)
    g_list_model_items_changed (G_LIST_MODEL (self), offset + position, removed, added);
  else
    g_list_model_items_changed (G_LIST_MODEL (self), offset, before, server->items->len);
}

static void
server_take_tools (Server *server)
{
  g_autoptr(GListModel) tools = NULL;

  g_object_get (server->connection, "tools", &tools, NULL);
  if (tools == server->tools)
    return;

  server_disconnect_tools (server);
  g_ptr_array_set_size (server->items, 0);

  if (tools != NULL)
    {
      server->tools = g_steal_pointer (&tools);
      server->items_changed_id =
        g_signal_connect (server->tools, "items-changed",
                          G_CALLBACK (on_tools_items_changed_cb), server);
      server_insert_tools (server, 0, g_list_model_get_n_items (server->tools));
    }
}

static void
on_notify_tools_cb (GObject    *connection,
                    GParamSpec *pspec,
                    gpointer    user_data)
{
  Server *server = user_data;
  McpToolPool *self = server->pool;
  guint offset = server_offset (self, server);
  guint before = server->items->len;
  GListModel *old_tools = server->tools;
  g_autoptr(GListModel) tools = NULL;

  g_object_get (connection, "tools", &tools, NULL);
  if (tools == old_tools)
    return;

  server_take_tools (server);
  mcp_tool_pool_rename (self);
  if (before != 0 || server->items->len != 0)
    g_list_model_items_changed (G_LIST_MODEL (self), offset, before, server->items->len);
}

static Server *
server_new (McpToolPool *self,
            GObject     *connection)
{
  Server *server = g_new0 (Server, 1);

  server->pool = self;
  server->connection = g_object_ref (connection);
  server->items = g_ptr_array_new_with_free_func (g_object_unref);
  g_object_get (connection, "name", &server->name, NULL);
  if (server->name == NULL)
    server->name = g_strdup ("");

  server->notify_tools_id =
    g_signal_connect (connection, "notify::tools", G_CALLBACK (on_notify_tools_cb), server);
  server_take_tools (server);

  return server;
}

static void
on_connections_items_changed_cb (GListModel *connections,
                                 guint       position,
                                 guint       removed,
                                 guint       added,
                                 gpointer    user_data)
{
  McpToolPool *self = user_data;
  guint offset = 0;
  guint tools_removed = 0;
  guint tools_added = 0;

  position = MIN (position, self->servers->len);
  removed = MIN (removed, self->servers->len - position);

  for (guint i = 0; i < position; i++)
    offset += ((Server *) g_ptr_array_index (self->servers, i))->items->len;
  for (guint i = position; i < position + removed; i++)
    tools_removed += ((Server *) g_ptr_array_index (self->servers, i))->items->len;

  g_ptr_array_remove_range (self->servers, position, removed);

  for (guint i = 0; i < added; i++)
    {
      g_autoptr(GObject) connection = g_list_model_get_item (connections, position + i);
      Server *server = server_new (self, connection);

      tools_added += server->items->len;
      g_ptr_array_insert (self->servers, position + i, server);
    }

  mcp_tool_pool_rename (self);

  if (tools_removed != 0 || tools_added != 0)
    g_list_model_items_changed (G_LIST_MODEL (self), offset, tools_removed, tools_added);
}

void
mcp_tool_pool_follow (McpToolPool *self,
                      GListModel  *connections)
{
  self->connections = g_object_ref (connections);
  self->connections_changed_id =
    g_signal_connect (connections, "items-changed",
                      G_CALLBACK (on_connections_items_changed_cb), self);
  on_connections_items_changed_cb (connections, 0, 0, g_list_model_get_n_items (connections), self);
}
