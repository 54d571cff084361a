/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>
#include <json-glib/json-glib.h>

#include "mcp-server-manager.h"

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_ROOTS_DIALOG (plugboard_roots_dialog_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardRootsDialog, plugboard_roots_dialog, PLUGBOARD, ROOTS_DIALOG, AdwWindow)

/**
 * PlugboardRootsDialog:
 *
 * The roots one server of @scope is offered (roots/list): the project
 * folder (not removable) when its scope is offered it
 * (mcp_roots_offers_project_dir()), and the folders added for this server,
 * each removable; Add Folder… (GtkFileChooserNative). Changes go to the
 * McpRoots at once.
 */
PlugboardRootsDialog *plugboard_roots_dialog_new (GtkWindow      *parent,
                                                  McpRoots       *roots,
                                                  const char     *server_name,
                                                  McpConfigScope  scope);

G_END_DECLS
