/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define MCP_TYPE_ROOTS (mcp_roots_get_type ())

G_DECLARE_FINAL_TYPE (McpRoots, mcp_roots, MCP, ROOTS, GObject)

/**
 * McpRoots:
 *
 * The roots a client offers its servers (roots/list): the project folder,
 * when there is one, then the folders the person added for each server.
 * The added folders are kept in $XDG_DATA_HOME/plugboard/roots.json, per
 * project folder (or "" for none) and server name; the file is read on
 * creation and written on each change (a corrupt file is set aside with a
 * warning, never lost silently). Signal "changed" (const char *server):
 * that server's roots changed.
 */
McpRoots *mcp_roots_new          (const char  *project_dir);
/* nullable */
const char *mcp_roots_get_project_dir (McpRoots *self);
/* The roots/list result's "roots" for @server: a JSON array of {uri, name}
 * objects, file:// URIs, the project folder first. */
JsonArray *mcp_roots_dup_json     (McpRoots    *self,
                                   const char  *server);
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
