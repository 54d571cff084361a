/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define MCP_TYPE_RESOURCE (mcp_resource_get_type ())

G_DECLARE_FINAL_TYPE (McpResource, mcp_resource, MCP, RESOURCE, GObject)

/* A resource as resources/list describes it. uri is required; a missing
 * name reads as the uri (servers forget it), optional members of the wrong
 * type are ignored.
 *
 * Properties (read-only): uri, name, title, description, mime-type, size. */
McpResource    *mcp_resource_new_from_json       (JsonObject   *object,
                                                  GError      **error);

const char     *mcp_resource_get_uri             (McpResource  *self);
const char     *mcp_resource_get_name            (McpResource  *self);
/* NULL when absent */
const char     *mcp_resource_get_title           (McpResource  *self);
/* title, else name */
const char     *mcp_resource_get_display_name    (McpResource  *self);
const char     *mcp_resource_get_description     (McpResource  *self);
const char     *mcp_resource_get_mime_type       (McpResource  *self);
/* The size in bytes, or -1 when the server gave none. */
gint64          mcp_resource_get_size            (McpResource  *self);
/* NULL when absent */
JsonObject     *mcp_resource_get_annotations     (McpResource  *self);
JsonArray      *mcp_resource_get_icons           (McpResource  *self);
JsonObject     *mcp_resource_get_meta            (McpResource  *self);
/* The object as the server sent it, unknown members included. */
JsonObject     *mcp_resource_get_json            (McpResource  *self);

G_END_DECLS
