/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "plugboard-permissions-window.h"

#include "mcp-permissions.h"

G_BEGIN_DECLS

/* Between the parts of PlugboardPermissionsWindow:
 * plugboard-permissions-window.c (the object, writing a rule, Add a Rule)
 * and -rows.c (the rule rows of each scope). */

struct _PlugboardPermissionsWindow
{
  AdwWindow            parent_instance;

  /* Template widgets */
  AdwEntryRow         *rule_row;
  AdwComboRow         *list_row;
  AdwComboRow         *scope_row;
  GtkStringList       *scope_list;
  GtkLabel            *message_label;
  GtkButton           *add_button;
  AdwPreferencesGroup *user_group;
  AdwPreferencesGroup *local_group;

  /* Owned */
  McpProject          *project;
  GCancellable        *cancellable;
  GPtrArray           *rows;        /* the rule rows shown, to take out again */
  guint                writing;     /* writes under way */
};

/* The lists in the order of the drop-downs: McpRuleList - MCP_RULE_ALLOW. */
static const McpRuleList lists[] = { MCP_RULE_ALLOW, MCP_RULE_ASK, MCP_RULE_DENY };

static const McpConfigScope scopes[] = { MCP_CONFIG_SCOPE_USER, MCP_CONFIG_SCOPE_LOCAL };

/* plugboard-permissions-window.c */
/* Whether the project has a folder, and so a local scope. */
gboolean plugboard_permissions_window_has_project (PlugboardPermissionsWindow *self);
/* Puts @rule in @list of @scope (MCP_RULE_NONE: removes it); @done is
 * said under Add a Rule when it worked (nullable), a failure always. */
void     plugboard_permissions_window_write_rule  (PlugboardPermissionsWindow *self,
                                                   const char                 *rule,
                                                   McpConfigScope              scope,
                                                   McpRuleList                 list,
                                                   const char                 *done);

/* plugboard-permissions-window-rows.c */
/* The rule rows of every scope, as the settings hold them now. */
void     plugboard_permissions_window_update_rows (PlugboardPermissionsWindow *self);

G_END_DECLS
