/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "mcp-message.h"

G_BEGIN_DECLS

#define MCP_TYPE_TOOL (mcp_tool_get_type ())

G_DECLARE_FINAL_TYPE (McpTool, mcp_tool, MCP, TOOL, GObject)

/* A tool as tools/list describes it. Annotations are untrusted hints; when a
 * server leaves one out, the getter returns the specification's default:
 * read-only false, destructive true, idempotent false, open-world true.
 *
 * Properties (read-only): name, title, description, read-only-hint,
 * destructive-hint, idempotent-hint, open-world-hint. */
McpTool        *mcp_tool_new_from_json            (JsonObject  *object,
                                                    GError     **error);

const char     *mcp_tool_get_name                 (McpTool     *self);
/* title, else annotations.title, else NULL */
const char     *mcp_tool_get_title                (McpTool     *self);
/* title, else annotations.title, else name: what a person should see */
const char     *mcp_tool_get_display_name         (McpTool     *self);
const char     *mcp_tool_get_description          (McpTool     *self);
JsonObject     *mcp_tool_get_input_schema         (McpTool     *self);
/* NULL when the tool declares none */
JsonObject     *mcp_tool_get_output_schema        (McpTool     *self);
/* NULL when the tool has no annotations object */
JsonObject     *mcp_tool_get_annotations          (McpTool     *self);
gboolean        mcp_tool_get_read_only_hint       (McpTool     *self);
gboolean        mcp_tool_get_destructive_hint     (McpTool     *self);
gboolean        mcp_tool_get_idempotent_hint      (McpTool     *self);
gboolean        mcp_tool_get_open_world_hint      (McpTool     *self);
/* NULL when absent */
JsonArray      *mcp_tool_get_icons                (McpTool     *self);
JsonObject     *mcp_tool_get_meta                 (McpTool     *self);
/* "forbidden" (the default), "optional" or "required": execution.taskSupport */
const char     *mcp_tool_get_task_support         (McpTool     *self);
/* x-mcp-header (2026-07-28, SEP-2243): properties of the input schema a
 * Streamable HTTP client mirrors into Mcp-Param-{Name} headers. FALSE, with
 * what is wrong and where, when a declaration breaks the rules (not a
 * token, twice, on a number/object/array property, or not reached through
 * "properties" alone): such a tool is left out of tools/list over HTTP. */
gboolean        mcp_tool_check_param_headers      (McpTool     *self,
                                                    GError     **error);
/* Sets the Mcp-Param-* headers of a tools/call @message for @arguments:
 * one per declared property present and not null. */
void            mcp_tool_add_param_headers        (McpTool     *self,
                                                    JsonObject  *arguments,
                                                    McpMessage  *message);

/* MCP Apps (mcp-ui-resource.h): the tool's interface, _meta.ui.resourceUri
 * (else the deprecated _meta["ui/resourceUri"]); NULL when absent or not a
 * ui:// URI. */
const char     *mcp_tool_get_ui_resource_uri      (McpTool     *self);

typedef enum
{
  MCP_TOOL_VISIBILITY_NONE  = 0,
  MCP_TOOL_VISIBILITY_MODEL = 1 << 0,  /* listed for a model, callable by a person */
  MCP_TOOL_VISIBILITY_APP   = 1 << 1,  /* callable by its server's interface */
} McpToolVisibility;

/* _meta.ui.visibility; MODEL | APP when absent (unknown words ignored). */
McpToolVisibility mcp_tool_get_ui_visibility     (McpTool     *self);

/* The object as the server sent it, unknown members included. */
JsonObject     *mcp_tool_get_json                 (McpTool     *self);

G_END_DECLS
