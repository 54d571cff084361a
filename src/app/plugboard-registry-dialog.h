/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-project.h"
#include "mcp-registry.h"

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_REGISTRY_DIALOG (plugboard_registry_dialog_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardRegistryDialog, plugboard_registry_dialog, PLUGBOARD, REGISTRY_DIALOG, AdwWindow)

/**
 * PlugboardRegistryDialog:
 *
 * "Browse Registry": searches an MCP Registry (McpRegistry; the search
 * waits for a pause in typing), lists the servers a page at a time
 * ("Load More"), says when the network failed and the list is the copy
 * saved before, and shows errors. A server's details: its title, name,
 * version, status, description, links (through the URL policy and the
 * app's URL opener), how it can run (packages and remotes), and a form of
 * its inputs (McpRegistryInput: secret ones as password entries, required
 * ones marked, choices as drop-downs, defaults filled in). Install, for
 * the client and scope chosen, calls mcp_registry_install_async() on the
 * window's project: insensitive, with the reason, while a required input
 * is empty. Signal "installed" (name, client id) once a server is
 * written.
 */
PlugboardRegistryDialog *plugboard_registry_dialog_new        (GtkWindow               *parent,
                                                               McpProject              *project,
                                                               const char              *registry_url,
                                                               const char              *cache_dir,
                                                               guint                    present_clients);
/* The server whose details are shown, or NULL. */
McpRegistryServer       *plugboard_registry_dialog_get_server (PlugboardRegistryDialog *self);
/* The number of servers listed. */
guint                    plugboard_registry_dialog_get_n_results (PlugboardRegistryDialog *self);

G_END_DECLS
