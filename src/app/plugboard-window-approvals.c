/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-window"

/* PlugboardWindow: project servers awaiting approval (the dialog, once a
 * project has loaded, and the sidebar's banner) and settings files that
 * cannot be used at all. */

#include "config.h"

#include "plugboard-window-private.h"

#include <glib/gi18n.h>

#include "plugboard-approval-dialog.h"

static void
present_approval_dialog (PlugboardWindow *self)
{
  PlugboardApprovalDialog *dialog;

  if (self->project == NULL)
    return;

  dialog = plugboard_approval_dialog_new (GTK_WINDOW (self), self->project);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* A settings file that cannot be used at all (it does not parse, or is
 * not a regular file) is said in the sidebar: its servers are missing. */
static void
update_problems (PlugboardWindow *self)
{
  g_autoptr(GString) text = g_string_new (NULL);
  GPtrArray *problems = NULL;

  if (self->project != NULL && mcp_project_get_loaded (self->project))
    problems = mcp_settings_get_problems (plugboard_window_current_settings (self));

  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      const McpSettingsProblem *problem = g_ptr_array_index (problems, i);

      if (g_strcmp0 (problem->json_path, "$") != 0)
        continue;
      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, problem->message);
    }

  gtk_label_set_label (self->problem_label, text->str);
  gtk_revealer_set_reveal_child (self->problem_revealer, text->len > 0);
}

void
plugboard_window_update_approvals (PlugboardWindow *self)
{
  g_auto(GStrv) pending = NULL;
  guint n = 0;

  update_problems (self);

  if (self->project != NULL && mcp_project_get_loaded (self->project))
    {
      pending = mcp_settings_dup_pending_approvals (plugboard_window_current_settings (self));
      n = pending ? g_strv_length (pending) : 0;
    }

  if (n > 0)
    {
      g_autofree char *text = NULL;

      text = g_strdup_printf (ngettext ("%u project server awaits your approval",
                                        "%u project servers await your approval", n),
                              n);
      gtk_label_set_label (self->approval_label, text);
    }

  gtk_revealer_set_reveal_child (self->approval_revealer, n > 0);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self),
                                                                          "review-approvals")),
                               n > 0);

  if (n > 0 && !self->approval_asked)
    {
      self->approval_asked = TRUE;
      present_approval_dialog (self);
    }
}

static void
review_approvals_action (GSimpleAction *action,
                         GVariant      *parameter,
                         gpointer       user_data)
{
  present_approval_dialog (user_data);
}

static const GActionEntry approval_actions[] = {
  { "review-approvals", review_approvals_action },
};

void
plugboard_window_approvals_init (PlugboardWindow *self)
{
  plugboard_window_add_actions (self, approval_actions, G_N_ELEMENTS (approval_actions));
}
