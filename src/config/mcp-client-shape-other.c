/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client-shape"

#include "config.h"

#include "mcp-client-shape-private.h"

#include <glib/gi18n.h>

static JsonObject *
not_yet_in (McpShapeRun *run, JsonObject *native, GError **error)
{
  g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG, "not yet");
  return NULL;
}

static JsonObject *
not_yet_out (McpShapeRun *run, JsonObject *entry, JsonObject *base, GError **error)
{
  g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG, "not yet");
  return NULL;
}

const McpShapeClass mcp_shape_codex = { MCP_SHAPE_VARS_NONE, NULL, NULL, not_yet_in, not_yet_out };
const McpShapeClass mcp_shape_zed = { MCP_SHAPE_VARS_NONE, NULL, NULL, not_yet_in, not_yet_out };
const McpShapeClass mcp_shape_goose = { MCP_SHAPE_VARS_NONE, NULL, NULL, not_yet_in, not_yet_out };
