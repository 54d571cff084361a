/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Between mcp-capability-history.c and mcp-capability-diff.c. */

/* SHA-256 of @object's canonical JSON (members sorted). */
char  *mcp_capability_digest    (JsonObject *object);
/* A line-based unified diff of @old_text and @new_text (either may be
 * NULL): lines "-", "+" and " ", each ending in "\n". NULL when equal. */
char  *mcp_capability_diff_text (const char *old_text,
                                 const char *new_text);
/* The JSON paths where @old_item and @new_item differ, the description
 * aside: "added $.a.b", "removed $.a", "changed $.c"; NULL when none. */
GStrv  mcp_capability_diff_json (JsonObject *old_item,
                                 JsonObject *new_item);

G_END_DECLS
