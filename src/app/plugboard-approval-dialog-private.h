/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "plugboard-approval-dialog.h"

G_BEGIN_DECLS

/* Between the parts of PlugboardApprovalDialog: plugboard-approval-dialog.c
 * (the object, applying the decisions) and -rows.c (a row per server
 * pending approval, with its toggles). */

typedef enum
{
  DECISION_NONE,
  DECISION_APPROVE,
  DECISION_REJECT,
} Decision;

struct _PlugboardApprovalDialog
{
  AdwWindow             parent_instance;

  /* Template widgets */
  GtkButton            *apply_button;
  GtkButton            *later_button;
  GtkLabel             *description_label;
  AdwPreferencesGroup  *servers_group;
  AdwToastOverlay      *toast_overlay;

  /* Borrowed references */
  McpSettings          *settings;   /* the project's, for reading */

  /* Owned references */
  McpProject           *project;    /* the decisions are written through it */
  GPtrArray            *rows;       /* AdwActionRow, in the group */
  GHashTable           *commands;   /* name → the command line or URL shown */
  GHashTable           *decisions;  /* name → Decision */
  GCancellable         *cancellable;
  gboolean              applying;
};

/* plugboard-approval-dialog-rows.c */
/* A row per project server pending approval, keeping the decisions made
 * for the servers still pending. */
void plugboard_approval_dialog_rebuild        (PlugboardApprovalDialog *self);
/* Apply is enabled once a server has a decision, and not while applying. */
void plugboard_approval_dialog_update_actions (PlugboardApprovalDialog *self);

G_END_DECLS
