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

/* Errors that mean "there is no Secret Service here" (no session bus, no
 * provider of org.freedesktop.secrets), as opposed to one that answered
 * and failed. */
gboolean  mcp_credential_is_no_secret_service (const GError *error);

G_END_DECLS
