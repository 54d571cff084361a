/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "mcp-server-config.h"

G_BEGIN_DECLS

#define MCP_TYPE_ROOTS (mcp_roots_get_type ())

G_DECLARE_FINAL_TYPE (McpRoots, mcp_roots, MCP, ROOTS, GObject)

/**
 * McpRoots:
 *
 * The roots a client offers its servers (roots/list): the project folder,
 * when there is one, to the project's own servers, then the folders the
 * person added for each server.
 * The added folders are kept in $XDG_DATA_HOME/plugboard/roots.json, per
 * project folder (or "" for none) and server name; the file is read on
 * creation and written on each change (a corrupt file is set aside with a
 * warning, never lost silently). Signal "changed" (const char *server):
 * that server's roots changed.
 */
McpRoots *mcp_roots_new          (const char  *project_dir);
/* nullable */
const char *mcp_roots_get_project_dir (McpRoots *self);
/* Whether the project folder is offered to a server of @scope: to the
 * project's own servers (project and local scope), not to the person's
 * servers of every project (user scope), which get only the folders added
 * for them. Without roots, a server works where its own settings say
 * (server-filesystem keeps the folders on its command line). */
gboolean   mcp_roots_offers_project_dir (McpConfigScope scope);
/* The folders offered to @server of @scope, in order, each once: the
 * project folder when it is offered, then the added folders. */
GStrv      mcp_roots_dup_paths    (McpRoots       *self,
                                   const char     *server,
                                   McpConfigScope  scope);
/* The roots/list result's "roots" for @server of @scope: a JSON array of
 * {uri, name} objects, file:// URIs, mcp_roots_dup_paths() in order. */
JsonArray *mcp_roots_dup_json     (McpRoots       *self,
                                   const char     *server,
                                   McpConfigScope  scope);
/* The folders added for @server (absolute paths), NULL-terminated. */
GStrv      mcp_roots_dup_added    (McpRoots    *self,
                                   const char  *server);
/* @path must be an absolute path to a folder (else MCP_ERROR_INVALID_ARGUMENT
 * saying why); adding one twice is not an error. FALSE with @error when the
 * file could not be written (the change is not kept). */
gboolean   mcp_roots_add          (McpRoots    *self,
                                   const char  *server,
                                   const char  *path,
                                   GError     **error);
gboolean   mcp_roots_remove       (McpRoots    *self,
                                   const char  *server,
                                   const char  *path,
                                   GError     **error);

G_END_DECLS
