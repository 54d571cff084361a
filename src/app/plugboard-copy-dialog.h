/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-client-copy.h"

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_COPY_DIALOG (plugboard_copy_dialog_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardCopyDialog, plugboard_copy_dialog, PLUGBOARD, COPY_DIALOG, AdwWindow)

/**
 * PlugboardCopyDialog:
 *
 * Copies servers from one MCP client's settings to others': the person
 * checks the target clients (those found on this computer, the others
 * below them) and the scope, then "Preview" plans the copy
 * (mcp_client_copy_plan_async(), nothing written) and shows each target
 * file's exact change — its unified diff in a monospace view, what the
 * target cannot express, and any error — and only "Copy" writes
 * (mcp_client_copy_apply_async()). A file changed by another program
 * since the preview is not written and its error says so. Signal
 * "copied" (no arguments) once any file was written.
 */
PlugboardCopyDialog *plugboard_copy_dialog_new        (GtkWindow          *parent,
                                                       McpClientKind       from,
                                                       McpConfigScope      from_scope,
                                                       const char * const *names,
                                                       const char         *plugboard_dir,
                                                       const char         *project_dir,
                                                       guint               present_clients);
/* Checks or unchecks the target @kind (as a click would). */
void                 plugboard_copy_dialog_set_target (PlugboardCopyDialog *self,
                                                       McpClientKind        kind,
                                                       gboolean             checked);
/* The plan the preview shows (McpCopyTarget), or NULL. */
GPtrArray           *plugboard_copy_dialog_get_plan   (PlugboardCopyDialog *self);

G_END_DECLS
