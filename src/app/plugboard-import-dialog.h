/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-project.h"

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_IMPORT_DIALOG (plugboard_import_dialog_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardImportDialog, plugboard_import_dialog, PLUGBOARD, IMPORT_DIALOG, AdwWindow)

/**
 * PlugboardImportDialog:
 *
 * "Import Servers from Other Apps": scans with mcp_client_import_scan_async
 * (a spinner while it reads), lists what it found grouped by client and
 * file (name, command or URL, a note when the conversion left something
 * out, and a check button; those whose name already exists in Plugboard
 * are marked and unchecked), shows problems (unreadable files) below, and
 * "Import" adds the checked ones through the project
 * (mcp_project_add_server_async) in the candidate's scope, then closes and
 * emits ::imported with the count.
 * Nothing is written to the other apps' files. When nothing is found it
 * says which files it looked in.
 *
 * Properties: project (McpProject, construct-only: its settings say which
 * names are taken and its folder is scanned), home (construct-only, NULL:
 * the real home; tests use a temporary one).
 */
PlugboardImportDialog *plugboard_import_dialog_new (GtkWindow  *parent,
                                                    McpProject *project,
                                                    const char *home);

/* For tests: finishes when the scan has been shown; then the import. */
void     plugboard_import_dialog_wait_scanned_async  (PlugboardImportDialog *self,
                                                      GCancellable          *cancellable,
                                                      GAsyncReadyCallback    callback,
                                                      gpointer               user_data);
gboolean plugboard_import_dialog_wait_scanned_finish (PlugboardImportDialog *self,
                                                      GAsyncResult          *result,
                                                      GError               **error);
guint    plugboard_import_dialog_get_n_candidates    (PlugboardImportDialog *self);
void     plugboard_import_dialog_import_async        (PlugboardImportDialog *self,
                                                      GCancellable          *cancellable,
                                                      GAsyncReadyCallback    callback,
                                                      gpointer               user_data);
/* Returns how many were added. */
guint    plugboard_import_dialog_import_finish       (PlugboardImportDialog *self,
                                                      GAsyncResult          *result,
                                                      GError               **error);

G_END_DECLS
