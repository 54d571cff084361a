/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-result-view"

#include "config.h"

#include "plugboard-result-view.h"

#include <glib/gi18n.h>

#include "mcp-error.h"

#include "plugboard-result-view-private.h"

/* PlugboardResultView reads a resource link: resources/read through the
 * tool's connection, each item read shown as a block below the link. */

McpServerConnection *
plugboard_result_view_get_connection (PlugboardResultView *self)
{
  GObject *connection;

  if (self->tool == NULL)
    return NULL;
  connection = G_OBJECT (mcp_pool_tool_get_connection (self->tool));
  return MCP_IS_SERVER_CONNECTION (connection) ? MCP_SERVER_CONNECTION (connection) : NULL;
}

typedef struct
{
  PlugboardResultView  *self;
  PlugboardResultBlock *block;
  GListModel           *section;  /* keeps the block's parts alive */
} ReadData;

static void
read_data_free (ReadData *data)
{
  g_clear_object (&data->self);
  g_clear_object (&data->block);
  g_clear_object (&data->section);
  g_free (data);
}

/* The read is over; @status (taken) says how it went. */
static void
read_end (ReadData *data,
          char     *status)
{
  g_free (data->block->status);
  data->block->status = status;
  data->block->reading = FALSE;
  plugboard_result_block_set_rows (data->block);
  read_data_free (data);
}

static void
read_fail (ReadData     *data,
           const GError *error)
{
  read_end (data, g_strdup_printf (_("Could not read it: %s"), error->message));
}

static void
read_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  ReadData *data = user_data;
  PlugboardResultView *self = data->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = mcp_client_request_finish (MCP_CLIENT (object), result, &error);
  JsonArray *contents = NULL;
  guint position;
  guint n = 0;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      read_data_free (data);
      return;
    }
  if (node == NULL)
    {
      read_fail (data, error);
      return;
    }

  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonNode *member = json_object_get_member (json_node_get_object (node), "contents");

      if (member != NULL && JSON_NODE_HOLDS_ARRAY (member))
        contents = json_node_get_array (member);
    }
  if (contents == NULL)
    {
      g_autoptr(GError) bad = g_error_new_literal (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                                   _("the answer has no contents"));
      read_fail (data, bad);
      return;
    }

  if (!g_list_store_find (self->sections, data->block->section, &position))
    {
      read_data_free (data);
      return;
    }

  for (guint i = 0; i < json_array_get_length (contents); i++)
    {
      JsonNode *element = json_array_get_element (contents, i);
      g_autoptr(JsonObject) wrapper = NULL;
      g_autoptr(McpContent) content = NULL;
      g_autoptr(PlugboardResultBlock) block = NULL;
      g_autoptr(GError) content_error = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;
      wrapper = json_object_new ();
      json_object_set_string_member (wrapper, "type", "resource");
      json_object_set_member (wrapper, "resource", json_node_copy (element));
      content = mcp_content_new_from_json (wrapper, &content_error);
      if (content == NULL)
        {
          block = plugboard_result_block_new (PLUGBOARD_RESULT_BLOCK_MESSAGE, content_error->message);
          plugboard_result_block_set_rows (block);
        }
      else
        block = plugboard_result_block_new_for_content (NULL, content, -1);
      {
        g_autoptr(GListModel) section = plugboard_result_block_take_section (block);

        g_list_store_insert (self->sections, position + 1 + n, section);
      }
      n++;
    }

  read_end (data, g_strdup_printf (ngettext ("Read: %u item below", "Read: %u items below", n), n));
}

static void
read_connected_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  ReadData *data = user_data;
  McpServerConnection *connection = MCP_SERVER_CONNECTION (object);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) params = NULL;
  McpClient *client;

  if (!mcp_server_connection_ensure_connected_finish (connection, result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        read_data_free (data);
      else
        read_fail (data, error);
      return;
    }

  client = mcp_server_connection_get_client (connection);
  if (client == NULL)
    {
      g_autoptr(GError) closed = g_error_new (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                                              _("“%s” is not connected"),
                                              mcp_server_connection_get_name (connection));
      read_fail (data, closed);
      return;
    }

  params = json_object_new ();
  json_object_set_string_member (params, "uri", mcp_content_get_uri (data->block->content));
  mcp_client_request_async (client, "resources/read", params, NULL,
                            data->self->cancellable, read_done_cb, data);
}

void
plugboard_result_view_read_link (PlugboardResultView  *self,
                                 PlugboardResultBlock *block)
{
  ReadData *data;

  if (block->reading)
    return;
  if (plugboard_result_view_get_connection (self) == NULL || mcp_content_get_uri (block->content) == NULL)
    return;

  data = g_new0 (ReadData, 1);
  data->self = g_object_ref (self);
  data->block = g_object_ref (block);
  data->section = g_object_ref (block->section);
  block->reading = TRUE;
  g_clear_pointer (&block->status, g_free);
  plugboard_result_block_set_rows (block);

  mcp_server_connection_ensure_connected_async (plugboard_result_view_get_connection (self),
                                                self->cancellable, read_connected_cb, data);
}
