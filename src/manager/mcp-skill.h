/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "mcp-client.h"

G_BEGIN_DECLS

/* The Skills extension's identifier (SEP-2640), in capabilities.extensions */
#define MCP_SKILLS_EXTENSION "io.modelcontextprotocol/skills"

#define MCP_TYPE_SKILL (mcp_skill_get_type ())
G_DECLARE_FINAL_TYPE (McpSkill, mcp_skill, MCP, SKILL, GObject)

/**
 * McpSkill:
 *
 * One entry of a server's skills/list (Skills over MCP, SEP-2640): the
 * skill's SKILL.md URI, its frontmatter as the server lists it (name,
 * description, …), and its files, each with the digest ("sha256:<hex>")
 * and size the server vouches for. Immutable.
 *
 * Nothing of a skill is fetched until it is loaded
 * (mcp_skill_load_async): not on connection, not on listing. Every file
 * read is verified against its entry — size first, then the digest, and
 * for SKILL.md its YAML frontmatter compared field by field with the
 * entry's — and content that fails is never returned: the error says
 * which check failed, for which URI, what was expected and what came.
 */

/* The skills/list of @client's server, every page (bounded: 100 pages,
 * 10 000 skills, what the client's limits allow in bytes). Fails with
 * MCP_ERROR_UNSUPPORTED when the server does not declare the extension
 * (MCP_SKILLS_EXTENSION), without asking. An entry that is malformed is
 * left out with a warning in the client's log, not a failure of the
 * list. Finishes with a GPtrArray of McpSkill. */
void          mcp_skills_list_async       (McpClient           *client,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data);
GPtrArray    *mcp_skills_list_finish      (McpClient           *client,
                                           GAsyncResult        *result,
                                           GError             **error);

/* TRUE when @client's server declares MCP_SKILLS_EXTENSION (FALSE before
 * it is connected). */
gboolean      mcp_skills_server_supports  (McpClient           *client);

/* skills/get: the entry of the skill whose SKILL.md is @uri, for a skill
 * named by URI alone (not, or not yet, in a listing). The same checks as a
 * listed entry; a malformed one fails with MCP_ERROR_INVALID_MESSAGE. */
void          mcp_skill_get_async         (McpClient           *client,
                                           const char          *uri,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data);
McpSkill     *mcp_skill_get_finish        (McpClient           *client,
                                           GAsyncResult        *result,
                                           GError             **error);

const char   *mcp_skill_get_uri           (McpSkill            *self);
/* frontmatter "name" / "description"; NULL when absent */
const char   *mcp_skill_get_name          (McpSkill            *self);
const char   *mcp_skill_get_description   (McpSkill            *self);
/* The entry's frontmatter object, as listed */
JsonObject   *mcp_skill_get_frontmatter   (McpSkill            *self);
/* The entry as the server sent it (for display) */
JsonObject   *mcp_skill_get_entry         (McpSkill            *self);
/* The URIs of the skill's files, SKILL.md included, in the entry's order */
GStrv         mcp_skill_get_file_uris     (McpSkill            *self);
/* TRUE when the entry's resources is "dynamic": no digests, so nothing of
 * the skill can be verified and it is never loaded. */
gboolean      mcp_skill_is_dynamic        (McpSkill            *self);
/* The path of @uri under the skill's root ("SKILL.md",
 * "references/FORMS.md"); NULL when @uri is not one of the entry's files. */
const char   *mcp_skill_get_file_path     (McpSkill            *self,
                                           const char          *uri);
/* The digest ("sha256:…") and size listed for @uri; FALSE when the entry
 * does not list it */
gboolean      mcp_skill_get_file_info     (McpSkill            *self,
                                           const char          *uri,
                                           const char         **digest,
                                           gint64              *size);

/**
 * mcp_skill_load_async:
 *
 * Loads the skill: reads its SKILL.md (resources/read), verifies size,
 * digest and frontmatter. Finishes with the verified bytes of SKILL.md,
 * or MCP_ERROR_INVALID_MESSAGE naming the failed check. Reads no other
 * file.
 */
void          mcp_skill_load_async        (McpSkill            *self,
                                           McpClient           *client,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data);
GBytes       *mcp_skill_load_finish       (McpSkill            *self,
                                           GAsyncResult        *result,
                                           GError             **error);

/* Reads one of the skill's files (one its entry lists; anything else is
 * MCP_ERROR_INVALID_ARGUMENT, never asked for) and verifies size and
 * digest. Finishes with the verified bytes. */
void          mcp_skill_fetch_file_async  (McpSkill            *self,
                                           McpClient           *client,
                                           const char          *uri,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data);
GBytes       *mcp_skill_fetch_file_finish (McpSkill            *self,
                                           GAsyncResult        *result,
                                           GError             **error);

/**
 * mcp_skill_save_async:
 *
 * Reads every file of the skill (SKILL.md first), each verified as
 * mcp_skill_fetch_file_async() verifies it, and only when all passed
 * writes them under @dir/<name>/ at their paths in the skill (made as
 * needed). Refused before anything is written: a path that would leave
 * @dir, a symbolic link on the way or at a file's place, a file that
 * exists unless @force (G_IO_ERROR_EXISTS). Finishes with the skill's
 * folder; *@n_files (nullable) says how many files were written.
 */
void          mcp_skill_save_async        (McpSkill            *self,
                                           McpClient           *client,
                                           const char          *dir,
                                           gboolean             force,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data);
char         *mcp_skill_save_finish       (McpSkill            *self,
                                           GAsyncResult        *result,
                                           guint               *n_files,
                                           GError             **error);

G_END_DECLS
