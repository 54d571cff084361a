/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "mcp-server-config.h"

G_BEGIN_DECLS

/* "${secret:ID}" in a server's command, args, env values, url or header
 * values (mcp-secret-store.h), for a connection attempt and the doctor. */

gboolean  mcp_secret_refs_used            (McpServerConfig     *config);
/* Looks every ID up in mcp_secret_store_get_default(); finishes with
 * @environ (NULL: the process's) plus "secret:ID=value" for each, what
 * mcp_server_config_expand() then expands from. A missing secret, or an
 * ID that is not one, is an error (MCP_ERROR_INVALID_CONFIG) naming the
 * server and the ID, never a value. */
void      mcp_secret_refs_resolve_async   (McpServerConfig     *config,
                                           const char * const  *environ,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data);
char    **mcp_secret_refs_resolve_finish  (GAsyncResult        *result,
                                           GError             **error);

G_END_DECLS
