/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* @error's message, and for a server's JSON-RPC error (MCP_JSONRPC_ERROR)
 * its code and data: "Quota exceeded (error -32001; data: {…})", the data
 * as compact JSON with secrets masked and control characters escaped, cut
 * with an ellipsis when long. */
char       *mcp_error_detail_describe (const GError *error);
/* A server's JSON-RPC error as {"code", "message", "data"} (the server's
 * own message; "data" only when it sent one; strings masked), or NULL for
 * any other error. */
JsonObject *mcp_error_detail_dup_json (const GError *error);

G_END_DECLS
