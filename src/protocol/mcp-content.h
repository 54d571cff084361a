/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>
#include "mcp-protocol-enums.h"

G_BEGIN_DECLS

typedef enum
{
  MCP_CONTENT_TEXT,
  MCP_CONTENT_IMAGE,
  MCP_CONTENT_AUDIO,
  MCP_CONTENT_RESOURCE_LINK,
  MCP_CONTENT_RESOURCE,        /* an embedded resource: text or blob */
  MCP_CONTENT_UNKNOWN,         /* a type this client does not know; kept as JSON */
} McpContentKind;

#define MCP_TYPE_CONTENT (mcp_content_get_type ())

G_DECLARE_FINAL_TYPE (McpContent, mcp_content, MCP, CONTENT, GObject)

/* One content block of a tool result, prompt message or resource read. */
McpContent     *mcp_content_new_from_json     (JsonObject  *object,
                                                GError     **error);

McpContentKind  mcp_content_get_kind          (McpContent  *self);
/* The "type" member as sent ("text", "image", …). */
const char     *mcp_content_get_type_name     (McpContent  *self);
/* text: the text; resource: the embedded resource's text, if it is text. */
const char     *mcp_content_get_text          (McpContent  *self);
/* image, audio: mimeType; resource: resource.mimeType; resource_link: mimeType */
const char     *mcp_content_get_mime_type     (McpContent  *self);
/* image, audio: the decoded data; resource: the decoded blob. NULL when
 * there is none. Invalid base64 gives an error naming the block. Decoded
 * once and cached; returns a new reference (free with g_bytes_unref). */
GBytes         *mcp_content_get_data          (McpContent  *self,
                                                GError     **error);
/* The base64 text as sent, without decoding. */
const char     *mcp_content_get_data_base64   (McpContent  *self);
/* resource_link: uri; resource: resource.uri */
const char     *mcp_content_get_uri           (McpContent  *self);
/* resource_link: name */
const char     *mcp_content_get_name          (McpContent  *self);
const char     *mcp_content_get_description   (McpContent  *self);
JsonObject     *mcp_content_get_annotations   (McpContent  *self);
JsonObject     *mcp_content_get_meta          (McpContent  *self);
JsonObject     *mcp_content_get_json          (McpContent  *self);

G_END_DECLS
