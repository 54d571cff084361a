/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "mcp-project.h"
#include "mcp-registry.h"

G_BEGIN_DECLS

/**
 * mcp_registry_install_async:
 * @project: the open project (its settings are Plugboard's, or a client's)
 * @server: from the registry
 * @choice: one of mcp_registry_server_get_choices (@server)
 * @values: input name → value (the person's answers)
 * @name: the settings name (NULL: mcp_registry_server_dup_entry_name())
 * @target: the client whose file gets the entry
 * @scope: its scope (USER, PROJECT or LOCAL, as @target has them)
 *
 * Installs a server from the registry: builds its entry
 * (mcp_registry_server_build_entry()); for Plugboard's own settings each
 * secret value goes to the McpSecretStore first and the entry refers to it
 * ("${secret:ID}"); for another client the entry is converted to its shape
 * (mcp_client_shape_from_plugboard(); VS Code gets an input prompt for
 * each secret, other clients keep the value in their file, and the
 * finish's @notes say so) and written with the same locked, backed-up
 * edit. When @target and @scope are the project's own, the project reloads
 * and the server connects at once (McpProject's manager); otherwise the
 * entry is written and nothing connects. A name already there is an
 * error. Finishes with the name written, and @notes (char*, may be empty)
 * of what the conversion said.
 */
void       mcp_registry_install_async  (McpProject              *project,
                                        McpRegistryServer       *server,
                                        const McpRegistryChoice *choice,
                                        GHashTable              *values,
                                        const char              *name,
                                        McpClientKind            target,
                                        McpConfigScope           scope,
                                        GCancellable            *cancellable,
                                        GAsyncReadyCallback      callback,
                                        gpointer                 user_data);
char      *mcp_registry_install_finish (GAsyncResult            *result,
                                        GPtrArray              **notes,
                                        GError                 **error);

G_END_DECLS
