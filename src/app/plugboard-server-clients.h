/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-client-copy.h"

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_SERVER_CLIENTS (plugboard_server_clients_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardServerClients, plugboard_server_clients, PLUGBOARD, SERVER_CLIENTS, AdwBin)

/**
 * PlugboardServerClients:
 *
 * Two groups of a server's page about the other MCP clients:
 * - "Not Used by Plugboard": what the client's own file has for this
 *   server that Plugboard does not use or cannot carry (the conversion's
 *   notes, read-only), shown only for another client's server;
 * - "In Other Clients": each other client whose files have a server of
 *   this name, in which scope and file, whether it differs from this one
 *   (entries in Plugboard's shape compared as JSON), with "Open" (the
 *   window action win.open-client-server, "(ss)": client id and name);
 *   and "Copy to Other Clients…" (win.copy-server).
 * Fed from one scan of every client (mcp_clients_scan_async()) by the
 * window.
 */
GtkWidget *plugboard_server_clients_new (void);
/* @summaries: McpClientSummary, as the scan gave them (kept; NULL: not
 * scanned yet); @current: the client shown; @name: the server. */
void       plugboard_server_clients_set (PlugboardServerClients *self,
                                         GPtrArray              *summaries,
                                         McpClientKind           current,
                                         const char             *name);

G_END_DECLS
