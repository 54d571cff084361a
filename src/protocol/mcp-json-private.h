/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Deeper nesting than this is refused by mcp_json_parse(). */
#define MCP_JSON_MAX_DEPTH 512

JsonNode *mcp_json_parse         (const char  *data,
                                  gsize        length,
                                  GError     **error);
void      mcp_json_append        (GString     *out,
                                  JsonNode    *node);
/* As mcp_json_append(), laid out as json_generator_set_pretty() does
 * (two spaces a level, "name" : value; but {} and [] when empty), for
 * people to read. */
void      mcp_json_append_pretty (GString     *out,
                                  JsonNode    *node);
void      mcp_json_append_string (GString     *out,
                                  const char  *string);
/* ".name" for a plain @name, else "[\"…\"]" with @name as a JSON string:
 * a member's step in a "$.a[\"b c\"]" path. */
void      mcp_json_append_path_member (GString    *path,
                                       const char *name);
/* As mcp_json_append(), with each object's members in sorted order: the
 * same text for the same value, whatever order it was written in (for
 * digests and memo keys). */
void      mcp_json_append_canonical (GString  *out,
                                     JsonNode *node);

/* About how many bytes @node takes as JSON text (strings counted without
 * escapes, numbers as 24): cheap, for limits on what a peer sent. */
gsize     mcp_json_estimate_size (JsonNode    *node);

/* Values equal as JSON: numbers by value (1.5e10 and 15000000000),
 * objects whatever the order of their members; NULL equals only NULL. */
gboolean  mcp_json_equal         (JsonNode    *a,
                                  JsonNode    *b);

/* An optional member of a server's object: NULL when absent, null, or of
 * the wrong type (servers are sloppy; a debug message names @kind, @name
 * and the member). @name may be NULL. */
const char *mcp_json_optional_string (JsonObject *object,
                                      const char *member,
                                      const char *kind,
                                      const char *name);
JsonObject *mcp_json_optional_object (JsonObject *object,
                                      const char *member,
                                      const char *kind,
                                      const char *name);
JsonArray  *mcp_json_optional_array  (JsonObject *object,
                                      const char *member,
                                      const char *kind,
                                      const char *name);
/* A required member of a server's object, a non-empty string; else NULL
 * and MCP_ERROR_INVALID_MESSAGE with @missing (absent) or @invalid (of
 * another type, or empty) as its message. */
const char *mcp_json_required_string (JsonObject  *object,
                                      const char  *member,
                                      const char  *missing,
                                      const char  *invalid,
                                      GError     **error);

G_END_DECLS
