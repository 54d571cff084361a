/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-approval-dialog"

/* PlugboardApprovalDialog's rows: one per project server pending
 * approval, saying what it would run (the command line or URL, the
 * folder, the names of its variables and headers with their values
 * masked, and what changed since it was approved), with Approve and
 * Reject toggles. */

#include "config.h"

#include "plugboard-approval-dialog-private.h"
#include "plugboard-common.h"

#include <string.h>

#include <glib/gi18n.h>

#define MASK "••••••"

/* "NAME=••••••, OTHER=••••••": the names a server sets, never the values,
 * which are often keys. */
static char *
dup_masked_pairs (const char * const *pairs,
                  char                separator)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; pairs != NULL && pairs[i] != NULL; i++)
    {
      const char *end = strchr (pairs[i], separator);
      gsize length = end != NULL ? (gsize) (end - pairs[i]) : strlen (pairs[i]);

      if (text->len > 0)
        g_string_append (text, ", ");
      g_string_append_len (text, pairs[i], length);
      g_string_append (text, separator == '=' ? "=" MASK : ": " MASK);
    }

  if (text->len == 0)
    {
      g_string_free (text, TRUE);
      return NULL;
    }

  return g_string_free (text, FALSE);
}

static char *
dup_subtitle (PlugboardApprovalDialog *self,
              McpServerConfig         *config,
              const char              *command)
{
  g_auto(GStrv) changes = mcp_settings_dup_approval_changes (self->settings,
                                                             mcp_server_config_get_name (config));
  g_autofree char *escaped = g_markup_escape_text (command, -1);
  g_autofree char *env = dup_masked_pairs (mcp_server_config_get_env (config), '=');
  g_autofree char *headers = dup_masked_pairs (mcp_server_config_get_headers (config), ':');
  const char *cwd = mcp_server_config_get_cwd (config);
  GString *subtitle = g_string_new (NULL);

  /* What is new is asked about as new: the person sees what changed (old
   * and new, secrets masked) before approving again. */
  if (changes != NULL)
    {
      g_string_append_printf (subtitle, "<b>%s</b>", _("Changed since you approved it:"));
      for (guint i = 0; changes[i] != NULL; i++)
        {
          g_autofree char *line = g_markup_escape_text (changes[i], -1);

          g_string_append_printf (subtitle, "\n• %s", line);
        }
      g_string_append_c (subtitle, '\n');
      /* Translators: followed by the command line or the URL of a server that changed */
      g_string_append (subtitle, _("Now: "));
    }

  g_string_append_printf (subtitle, "<tt>%s</tt>", escaped);

  if (cwd != NULL)
    {
      g_autofree char *text = g_markup_escape_text (cwd, -1);

      g_string_append_c (subtitle, '\n');
      /* Translators: %s is a folder */
      g_string_append_printf (subtitle, _("In %s"), text);
    }

  if (env != NULL)
    {
      g_autofree char *text = g_markup_escape_text (env, -1);

      g_string_append_c (subtitle, '\n');
      /* Translators: %s is a list of environment variables, values hidden */
      g_string_append_printf (subtitle, _("Environment: %s"), text);
    }

  if (headers != NULL)
    {
      g_autofree char *text = g_markup_escape_text (headers, -1);

      g_string_append_c (subtitle, '\n');
      /* Translators: %s is a list of HTTP headers, values hidden */
      g_string_append_printf (subtitle, _("Headers: %s"), text);
    }

  return g_string_free (subtitle, FALSE);
}

void
plugboard_approval_dialog_update_actions (PlugboardApprovalDialog *self)
{
  gboolean any = FALSE;
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->decisions);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    any |= GPOINTER_TO_INT (value) != DECISION_NONE;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "approval.apply", any && !self->applying);
}

static void
on_toggle_active_cb (GtkToggleButton         *button,
                     GParamSpec              *pspec,
                     PlugboardApprovalDialog *self)
{
  const char *name = g_object_get_data (G_OBJECT (button), "server-name");
  Decision decision = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "decision"));

  if (!gtk_toggle_button_get_active (button))
    return;

  g_hash_table_insert (self->decisions, g_strdup (name), GINT_TO_POINTER (decision));
  plugboard_approval_dialog_update_actions (self);
}

static GtkWidget *
create_toggle (PlugboardApprovalDialog *self,
               const char              *name,
               Decision                 decision)
{
  GtkWidget *button;
  g_autofree char *accessible = NULL;

  if (decision == DECISION_APPROVE)
    {
      button = gtk_toggle_button_new_with_label (_("Approve"));
      /* Translators: %s is a server's name */
      accessible = g_strdup_printf (_("Approve %s"), name);
    }
  else
    {
      button = gtk_toggle_button_new_with_label (_("Reject"));
      /* Translators: %s is a server's name */
      accessible = g_strdup_printf (_("Reject %s"), name);
    }

  gtk_widget_set_tooltip_text (button, accessible);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                  -1);
  g_object_set_data_full (G_OBJECT (button), "server-name", g_strdup (name), g_free);
  g_object_set_data (G_OBJECT (button), "decision", GINT_TO_POINTER (decision));
  g_signal_connect_object (button, "notify::active", G_CALLBACK (on_toggle_active_cb), self, 0);

  return button;
}

static GtkWidget *
create_row (PlugboardApprovalDialog *self,
            const char              *name,
            McpServerConfig         *config,
            const char              *command)
{
  g_autofree char *subtitle = dup_subtitle (self, config, command);
  Decision decision = GPOINTER_TO_INT (g_hash_table_lookup (self->decisions, name));
  GtkWidget *row;
  GtkWidget *box;
  GtkWidget *approve;
  GtkWidget *reject;

  row = adw_action_row_new ();
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), TRUE);
  {
    g_autofree char *title = g_markup_escape_text (name, -1);

    adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  }
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 0);
  g_object_set_data_full (G_OBJECT (row), "server-name", g_strdup (name), g_free);

  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_widget_add_css_class (box, "linked");
  gtk_widget_set_valign (box, GTK_ALIGN_CENTER);

  approve = create_toggle (self, name, DECISION_APPROVE);
  reject = create_toggle (self, name, DECISION_REJECT);
  gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (reject), GTK_TOGGLE_BUTTON (approve));
  gtk_box_append (GTK_BOX (box), approve);
  gtk_box_append (GTK_BOX (box), reject);
  g_object_set_data (G_OBJECT (row), "approve-button", approve);
  g_object_set_data (G_OBJECT (row), "reject-button", reject);

  if (decision == DECISION_APPROVE)
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (approve), TRUE);
  else if (decision == DECISION_REJECT)
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (reject), TRUE);

  adw_action_row_add_suffix (ADW_ACTION_ROW (row), box);

  return row;
}

void
plugboard_approval_dialog_rebuild (PlugboardApprovalDialog *self)
{
  g_auto(GStrv) pending = NULL;
  g_autoptr(GHashTable) old_decisions = NULL;
  const char *project_dir;
  g_autofree char *file = NULL;
  g_autofree char *description = NULL;
  guint n_pending;

  g_assert (PLUGBOARD_IS_APPROVAL_DIALOG (self));

  for (guint i = 0; i < self->rows->len; i++)
    adw_preferences_group_remove (self->servers_group, g_ptr_array_index (self->rows, i));
  g_ptr_array_set_size (self->rows, 0);
  g_hash_table_remove_all (self->commands);

  /* Keep what the person decided for the servers still pending. */
  old_decisions = g_steal_pointer (&self->decisions);
  self->decisions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  pending = mcp_settings_dup_pending_approvals (self->settings);
  n_pending = pending != NULL ? g_strv_length (pending) : 0;

  for (guint i = 0; i < n_pending; i++)
    {
      McpServerConfig *config;
      g_autofree char *command = NULL;
      GtkWidget *row;
      gpointer decision;

      config = mcp_settings_lookup_in_scope (self->settings, pending[i], MCP_CONFIG_SCOPE_PROJECT);
      if (config == NULL)
        config = mcp_settings_lookup (self->settings, pending[i]);
      if (config == NULL)
        continue;

      if (g_hash_table_lookup_extended (old_decisions, pending[i], NULL, &decision))
        g_hash_table_insert (self->decisions, g_strdup (pending[i]), decision);

      command = plugboard_dup_what_runs (config);
      row = create_row (self, pending[i], config, command);
      g_hash_table_insert (self->commands, g_strdup (pending[i]), g_steal_pointer (&command));
      adw_preferences_group_add (self->servers_group, row);
      g_ptr_array_add (self->rows, row);
    }

  project_dir = mcp_settings_get_project_dir (self->settings);
  file = g_strdup (mcp_settings_get_file (self->settings, MCP_CONFIG_SCOPE_PROJECT));
  if (file == NULL && project_dir != NULL)
    file = g_build_filename (project_dir, ".mcp.json", NULL);

  if (self->rows->len == 0)
    description = g_strdup (_("No project servers are waiting for a decision."));
  else
    /* Translators: %s is a file, the project's .mcp.json */
    description = g_strdup_printf (_("The servers listed in %s start only once you approve them, "
                                     "and again whenever what they run changes. "
                                     "Check the command each one runs: it runs with your permissions."),
                                   file != NULL ? file : ".mcp.json");

  gtk_label_set_text (self->description_label, description);
  gtk_widget_set_visible (GTK_WIDGET (self->servers_group), self->rows->len > 0);

  plugboard_approval_dialog_update_actions (self);
}
