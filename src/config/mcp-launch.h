/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "mcp-server-config.h"

G_BEGIN_DECLS

/**
 * SECTION:mcp-launch
 *
 * What a project server runs, as the person approves it.
 *
 * A project server (.mcp.json) starts only with an approval bound to a
 * digest of its launch: the transport; for a stdio server the command,
 * each argument, every environment variable's name and value and the
 * working folder; for a remote one the URL, every header's name and
 * value and the "oauth" object; for an IDE server its lock folder and
 * name; and the project's real folder (every symbolic link resolved), so
 * that a project path that is a link approves nothing once it leads
 * elsewhere.
 *
 * The digest is taken after ${VAR} expansion, of what really runs: a
 * command "${TOOL}" approved while TOOL=safe must not run once TOOL=evil.
 * So a change of a variable that the entry uses changes the digest too,
 * and the server asks again; variables the entry does not name do not
 * count. An entry that does not expand (a variable is not set) is taken
 * as written: it cannot start anyway, and once the variable is set its
 * digest differs, so it asks again rather than run what nobody saw.
 *
 * The serialisation hashed is unambiguous: every field is a tag and a
 * length-prefixed value, maps are sorted by name.
 */

/* "sha256:" and 64 hex digits */
#define MCP_LAUNCH_DIGEST_PREFIX "sha256:"

/* The real folder of the project @config (a project-scope server) comes
 * from: the folder of its .mcp.json with every link resolved (realpath()),
 * or the folder as written when it cannot be resolved. NULL for other
 * scopes. */
char        *mcp_launch_dup_project_dir   (McpServerConfig    *config);

/* The digest of what @config runs, expanded from @environ (NULL: the
 * process's environment) when it expands, as written otherwise. */
char        *mcp_launch_dup_digest        (McpServerConfig    *config,
                                           const char * const *environ);

/* What @config runs, for the settings file and for showing what changed:
 * {"type", "command", "args", "env": {NAME: "sha256:…"}, "cwd", "url",
 *  "urlDigest", "headers": {NAME: "sha256:…"}, "project"}. Command,
 * arguments and folder are as written (a ${VAR} stays ${VAR}), the URL as
 * written with its user info and query values masked, env and header
 * values (expanded) only as their digests: the settings file holds no
 * secret in clear. */
JsonObject  *mcp_launch_dup_description   (McpServerConfig    *config,
                                           const char * const *environ);

/* What differs between the launch @approved (as approved; NULL: not
 * known) and @now, one line per change, secrets masked ("***"). When
 * nothing shown differs (a masked value changed), one line says so: call
 * it only for launches whose digests differ. NULL-terminated. */
char       **mcp_launch_dup_changes       (JsonObject         *approved,
                                           JsonObject         *now);

G_END_DECLS
