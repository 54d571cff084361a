/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * The needs-auth cache: $XDG_CACHE_HOME/plugboard/mcp-needs-auth-cache.json,
 * shared by every Plugboard process. It remembers which servers answered
 * "sign in first" so a new start does not ask them again within
 * MCP_NEEDS_AUTH_CACHE_TTL_S. Format:
 *   { "version": 1, "entries": { "<key>": { "timestamp": <unix ms> } } }
 * where <key> is "NAME URL" with the URL's user info, query and fragment
 * removed (mcp_server_connection_get_needs_auth_key): not the memo key,
 * which holds the whole entry, headers included, and would put secrets on
 * disk.
 *
 * Reading: a missing file is empty; a corrupt file (not JSON, wrong shape)
 * is treated as empty and replaced at the next write; entries older than the
 * TTL are ignored and pruned at the next write. Writes are atomic
 * (temporary file + rename). Failures to write are logged with g_debug and
 * otherwise ignored: the cache is an optimisation, never a source of errors.
 * Synchronous: the file is tiny and local.
 */

#define MCP_NEEDS_AUTH_CACHE_TTL_S (15 * 60)

/* NULL @path: the default location. The path is read at every call. */
gboolean mcp_needs_auth_cache_contains (const char *path,
                                        const char *key);
/* How many seconds are left for @key, 0 when absent or expired. */
gint64   mcp_needs_auth_cache_remaining (const char *path,
                                         const char *key);
void     mcp_needs_auth_cache_add      (const char *path,
                                        const char *key);
void     mcp_needs_auth_cache_remove   (const char *path,
                                        const char *key);
/* The default path ($XDG_CACHE_HOME/plugboard/mcp-needs-auth-cache.json). */
char    *mcp_needs_auth_cache_default_path (void);

G_END_DECLS
