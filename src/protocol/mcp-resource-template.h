/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define MCP_TYPE_RESOURCE_TEMPLATE (mcp_resource_template_get_type ())

G_DECLARE_FINAL_TYPE (McpResourceTemplate, mcp_resource_template, MCP, RESOURCE_TEMPLATE, GObject)

/* A resource template as resources/templates/list describes it. uriTemplate
 * is required; a missing name reads as the uriTemplate.
 *
 * Properties (read-only): uri-template, name, title, description,
 * mime-type. */
McpResourceTemplate *mcp_resource_template_new_from_json    (JsonObject           *object,
                                                             GError              **error);

const char          *mcp_resource_template_get_uri_template (McpResourceTemplate  *self);
const char          *mcp_resource_template_get_name         (McpResourceTemplate  *self);
/* NULL when absent */
const char          *mcp_resource_template_get_title        (McpResourceTemplate  *self);
/* title, else name */
const char          *mcp_resource_template_get_display_name (McpResourceTemplate  *self);
const char          *mcp_resource_template_get_description  (McpResourceTemplate  *self);
const char          *mcp_resource_template_get_mime_type    (McpResourceTemplate  *self);
/* NULL when absent */
JsonObject          *mcp_resource_template_get_annotations  (McpResourceTemplate  *self);
JsonArray           *mcp_resource_template_get_icons        (McpResourceTemplate  *self);
JsonObject          *mcp_resource_template_get_meta         (McpResourceTemplate  *self);
/* The object as the server sent it, unknown members included. */
JsonObject          *mcp_resource_template_get_json         (McpResourceTemplate  *self);

G_END_DECLS
