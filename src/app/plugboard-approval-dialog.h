/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-project.h"

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_APPROVAL_DIALOG (plugboard_approval_dialog_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardApprovalDialog, plugboard_approval_dialog, PLUGBOARD, APPROVAL_DIALOG, AdwWindow)

/**
 * PlugboardApprovalDialog:
 *
 * Asks about the project servers pending approval
 * (mcp_settings_dup_pending_approvals): "This project wants to start these
 * MCP servers". One row per server with the exact command line (command
 * and arguments, shell-quoted) or URL it would run and the environment
 * variable names it sets (values masked), and per-server Approve / Reject
 * toggles (default: undecided); buttons "Decide Later" and "Apply". Apply
 * writes each decision through the project (mcp_project_run_async with
 * MCP_PROJECT_OP_APPROVE or MCP_PROJECT_OP_REJECT) and closes; nothing
 * starts before that (the servers stay disabled while pending).
 * Keyboard reachable; Escape = Decide Later.
 *
 * Property: project (McpProject, construct-only): its settings are what
 * the dialog lists and follows.
 *
 * Signal: decided (no arguments) after the writes finished.
 */
PlugboardApprovalDialog *plugboard_approval_dialog_new (GtkWindow  *parent,
                                                        McpProject *project);

/* For tests: set one server's decision as the toggles do, then apply. */
void     plugboard_approval_dialog_set_decision (PlugboardApprovalDialog *self,
                                                 const char              *name,
                                                 gboolean                 approve);
void     plugboard_approval_dialog_apply_async  (PlugboardApprovalDialog *self,
                                                 GCancellable            *cancellable,
                                                 GAsyncReadyCallback      callback,
                                                 gpointer                 user_data);
gboolean plugboard_approval_dialog_apply_finish (PlugboardApprovalDialog *self,
                                                 GAsyncResult            *result,
                                                 GError                 **error);
/* The command line or URL shown for @name. */
char    *plugboard_approval_dialog_dup_shown_command (PlugboardApprovalDialog *self,
                                                      const char              *name);

G_END_DECLS
