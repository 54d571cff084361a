/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "plugboard-import-dialog.h"

G_BEGIN_DECLS

struct _PlugboardImportDialog
{
  AdwWindow             parent_instance;

  /* Template widgets */
  GtkButton            *cancel_button;
  GtkButton            *import_button;
  GtkStack             *stack;
  GtkSpinner           *spinner;
  GtkBox               *results_box;
  GtkLabel             *summary_label;
  AdwStatusPage        *empty_page;
  AdwToastOverlay      *toast_overlay;

  /* Borrowed references */
  McpSettings          *settings;    /* the project's, for reading */

  /* Owned references */
  McpProject           *project;     /* the servers are added through it */
  char                 *home;
  GPtrArray            *candidates;  /* McpImportCandidate */
  GPtrArray            *checks;      /* GtkCheckButton, one per candidate */
  GPtrArray            *rows;        /* AdwActionRow, one per candidate */
  GPtrArray            *groups;      /* AdwPreferencesGroup, in results_box */
  GPtrArray            *waiters;     /* GTask, for wait_scanned */
  GError               *scan_error;
  GCancellable         *cancellable;
  gboolean              scanned;
  gboolean              importing;
};

/* plugboard-import-dialog.c */
/* "import.import" is enabled once scanned, with a server checked, while
 * no import is under way. */
void plugboard_import_dialog_update_actions    (PlugboardImportDialog *self);

/* plugboard-import-dialog-results.c: what the scan found */
/* Nothing found: says which files it looked in. */
void plugboard_import_dialog_show_empty        (PlugboardImportDialog *self);
/* The candidates grouped by client and file, then @problems (nullable). */
void plugboard_import_dialog_show_results      (PlugboardImportDialog *self,
                                                GPtrArray             *problems);
/* An import, or an edit elsewhere, may add a name: marks the rows that
 * now clash and unchecks them. */
void plugboard_import_dialog_recheck_names     (PlugboardImportDialog *self);

/* plugboard-import-dialog-import.c: adding the checked servers */
void plugboard_import_dialog_import_action     (GtkWidget             *widget,
                                                const char            *action_name,
                                                GVariant              *parameter);

G_END_DECLS
