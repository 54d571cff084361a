/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* The credentials file McpTokenStore ("entries") and McpSecretStore
 * ("secrets") keep where no Secret Service answers: one JSON object,
 * written atomically with mode 0600. */

/* $XDG_DATA_HOME/plugboard/oauth-credentials.json */
char     *mcp_credential_file_default_path   (void);
/* @path's document; a missing file is {"version": 1} (*@exists FALSE). A
 * file that cannot be read, is not JSON or not an object is an error: it
 * must not be overwritten. */
JsonNode *mcp_credential_file_load           (const char    *path,
                                              gboolean      *exists,
                                              GError       **error);
gboolean  mcp_credential_file_save           (const char    *path,
                                              JsonNode      *root,
                                              GError       **error);

/* An exclusive advisory lock (flock) on @path's folder, held while a
 * store reads, changes and writes @path, so that two processes (the app
 * and plugboard-cli) never lose each other's change; taken again by the
 * same process it only counts. Waits at most MCP_CREDENTIAL_LOCK_WAIT_MS.
 * Returns the descriptor to give mcp_credential_file_unlock(), or -1 with
 * @error. */
#define MCP_CREDENTIAL_LOCK_WAIT_MS 5000
int       mcp_credential_file_lock           (const char    *path,
                                              GError       **error);
void      mcp_credential_file_unlock         (int            fd);

/* Errors that mean "there is no Secret Service here" (no session bus, no
 * provider of org.freedesktop.secrets), as opposed to one that answered
 * and failed. */
gboolean  mcp_credential_is_no_secret_service (const GError *error);
/* Whether a store of @backend ("auto", "secret-service", "file") goes to
 * its file after @error: only an "auto" store, only while the Secret
 * Service has not answered (@active_backend): once it has, the
 * credentials live there and a second copy elsewhere would diverge. */
gboolean  mcp_credential_should_fall_back   (const char   *backend,
                                             const char   *active_backend,
                                             const GError *error);

/* Errors of a Secret Service that answered but has nowhere to keep a new
 * secret (no default collection: a fresh gnome-keyring with no login
 * keyring, in a session that cannot prompt). An "auto" store keeps the
 * secret in its file then, and reads the file after the keyring. */
gboolean  mcp_credential_is_no_place_to_store (const GError *error);
/* Whether an "auto" store reads (and clears) its file after the keyring:
 * when the file exists, it may hold what the keyring had no place for. */
gboolean  mcp_credential_file_also_read      (const char   *backend,
                                              const char   *path);

G_END_DECLS
