/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Shared by the protocol's types read from a server (McpTool, McpPrompt,
 * McpResource, McpResourceTemplate, McpServerInfo): their properties are
 * read-only views of what the server sent, notified explicitly (never, as
 * they do not change), with static strings. */
#define MCP_PARAM_READABLE (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS)

/* What McpResource and McpResourceTemplate both describe, borrowed from
 * the object the server sent. */
typedef struct
{
  const char *name;
  const char *title;
  const char *description;
  const char *mime_type;
  JsonObject *annotations;
  JsonArray  *icons;
  JsonObject *meta;
} McpResourceFields;

/* Reads @fields from @object, a @kind ("resource", "resource template")
 * whose @key (its @key_member, "uri" or "uriTemplate") names it in logs and
 * stands for its name when it has none. */
void mcp_resource_fields_read (McpResourceFields *fields,
                               JsonObject        *object,
                               const char        *kind,
                               const char        *key_member,
                               const char        *key);

G_END_DECLS
