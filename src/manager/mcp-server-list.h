/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define MCP_TYPE_SERVER_LIST (mcp_server_list_get_type ())

G_DECLARE_FINAL_TYPE (McpServerList, mcp_server_list, MCP, SERVER_LIST, GObject)

/* A GListModel of the items of @first, then those of @second (McpProject's
 * "servers": the manager's connections, then the shadowed configs). */
McpServerList *mcp_server_list_new (GListModel *first,
                                    GListModel *second);

G_END_DECLS
