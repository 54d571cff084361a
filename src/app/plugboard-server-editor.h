/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-project.h"

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_SERVER_EDITOR (plugboard_server_editor_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardServerEditor, plugboard_server_editor, PLUGBOARD, SERVER_EDITOR, AdwWindow)

/**
 * PlugboardServerEditor:
 *
 * The add / edit dialog for one server entry (modal, transient for the
 * window; a header bar with Cancel and Save/Add). Fields:
 * - name; scope (user / project / local); transport (stdio, http, sse, ws);
 * - stdio: command, arguments as a list (add, remove, reorder; each one
 *   entry — never one string split at spaces), working directory (with a
 *   folder chooser, GtkFileChooserNative), environment variables (name and
 *   value rows);
 * - http / sse / ws: URL, headers (name and value rows), and Sign-In:
 *   the method (browser sign-in, client credentials, workload identity,
 *   enterprise SSO: "oauth"."grant"), client ID, client authentication,
 *   client secret or private key, assertion source, the identity
 *   provider's issuer, token endpoint, client and ID token source, scopes,
 *   callback port, DPoP; secrets are stored in the keyring on Save (before
 *   the entry is written; cleared again when the write fails) and the
 *   entry holds "${secret:ID}";
 * - timeouts: connect (ms) and tool (ms);
 * - "Paste JSON": an entry in the "mcpServers" shape (or { "name": {…} })
 *   pasted fills the fields.
 * Values that look secret (names containing token, key, secret, password,
 * auth, or an Authorization header) are AdwPasswordEntryRow (masked, with
 * a reveal button). "${VAR}" references are left as written; a tooltip on
 * such a field shows its value resolved from the environment, or that the
 * variable is unset.
 * Validation is inline and uses the engine's own messages
 * (mcp_server_config_new_from_json on the JSON the fields make): Save is
 * insensitive while invalid and the message is shown under the fields.
 * Saving is one mcp_project_save_server_async() of the project: add (new),
 * edit (same name and scope; keys the editor does not know are kept from
 * the original JSON), rename and/or move when the name or scope changed.
 * A write error is shown in the dialog, which stays open. On success it
 * emits ::saved and closes.
 *
 * Property: project (McpProject, construct-only): what it saves to; its
 * settings are what the editor reads (scopes, files, names taken).
 *
 * Signal: saved (const char *name, McpConfigScope scope as int).
 *
 * Try (new servers, and servers being tried): emits ::try with the name and
 * the entry the fields make; the handler connects it without saving it
 * (mcp_project_try_server) and returns TRUE, and the editor closes.
 * Opened on a server being tried (an McpServerConfig that is not saved),
 * the editor saves it as a new entry in the scope chosen ("Save Server":
 * the project ends the try when it is saved under another name), or tries
 * it again as changed.
 */

/* @config NULL: a new server in @default_scope. */
PlugboardServerEditor *plugboard_server_editor_new      (GtkWindow       *parent,
                                                         McpProject      *project,
                                                         McpServerConfig *config,
                                                         McpConfigScope   default_scope);

/* For tests and "Paste JSON": fills the fields from an entry; FALSE with
 * @error when it is not an object in the expected shape. */
gboolean               plugboard_server_editor_load_json (PlugboardServerEditor *self,
                                                          const char            *json,
                                                          GError               **error);
/* The entry the fields make now (new reference), or NULL while invalid,
 * with the engine's message in @error. */
JsonObject            *plugboard_server_editor_dup_entry (PlugboardServerEditor *self,
                                                          GError               **error);
/* Save as the button does. */
void                   plugboard_server_editor_save_async  (PlugboardServerEditor *self,
                                                            GCancellable          *cancellable,
                                                            GAsyncReadyCallback    callback,
                                                            gpointer               user_data);
gboolean               plugboard_server_editor_save_finish (PlugboardServerEditor *self,
                                                            GAsyncResult          *result,
                                                            GError               **error);

/* Try as the button does; TRUE when it is being tried (and the editor
 * closed), FALSE with the reason shown in the editor. */
gboolean               plugboard_server_editor_try         (PlugboardServerEditor *self);
/* Opened on a server being tried: its name (the try that a save replaces);
 * NULL otherwise. */
const char            *plugboard_server_editor_get_tried_name (PlugboardServerEditor *self);

G_END_DECLS
