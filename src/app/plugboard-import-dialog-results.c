/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-import-dialog"

#include "config.h"

#include "plugboard-import-dialog-private.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-client-import.h"
#include "plugboard-common.h"

/* What the scan found: a group per client and file, a row per server,
 * the problems below; or, when nothing, where it looked. */

static const char *
home_dir (PlugboardImportDialog *self)
{
  return self->home != NULL ? self->home : g_get_home_dir ();
}

/* "~/.cursor/mcp.json" for a file in the home folder. */
static char *
dup_display_path (PlugboardImportDialog *self,
                  const char            *file)
{
  const char *home = home_dir (self);
  gsize length = strlen (home);

  if (length > 1 && g_str_has_prefix (file, home) && file[length] == G_DIR_SEPARATOR)
    return g_strconcat ("~", file + length, NULL);

  return g_strdup (file);
}

static char *
dup_command_line (McpImportCandidate *candidate)
{
  g_autoptr(McpServerConfig) config = NULL;
  g_autoptr(GError) error = NULL;

  config = mcp_server_config_new_from_json (candidate->name, candidate->scope, candidate->entry,
                                            candidate->file, "$", &error);
  if (config == NULL)
    {
      g_debug ("%s", error->message);
      return g_strdup ("");
    }

  return plugboard_dup_what_runs (config);
}

static gboolean
name_exists (PlugboardImportDialog *self,
             const char            *name)
{
  return mcp_settings_lookup (self->settings, name) != NULL;
}

static char *
dup_subtitle (PlugboardImportDialog *self,
              McpImportCandidate    *candidate,
              gboolean               exists,
              gboolean               duplicate)
{
  g_autofree char *command = dup_command_line (candidate);
  g_autofree char *escaped = g_markup_escape_text (command, -1);
  GString *subtitle = g_string_new (NULL);

  g_string_append_printf (subtitle, "<tt>%s</tt>", escaped);

  if (candidate->scope == MCP_CONFIG_SCOPE_PROJECT)
    g_string_append_printf (subtitle, "\n%s", _("Into this project’s shared .mcp.json"));
  else if (candidate->scope == MCP_CONFIG_SCOPE_LOCAL)
    g_string_append_printf (subtitle, "\n%s", _("Into this project, only for you"));

  if (candidate->note != NULL)
    {
      g_autofree char *note = g_markup_escape_text (candidate->note, -1);

      g_string_append_printf (subtitle, "\n%s", note);
    }

  if (exists)
    {
      g_autofree char *text = g_markup_escape_text (_("Plugboard already has a server with this name"), -1);

      g_string_append_printf (subtitle, "\n<b>%s</b>", text);
    }
  else if (duplicate)
    {
      g_autofree char *text = g_markup_escape_text (_("A server above has the same name; check one of them"), -1);

      g_string_append_printf (subtitle, "\n<b>%s</b>", text);
    }

  return g_string_free (subtitle, FALSE);
}

static void
on_check_toggled_cb (PlugboardImportDialog *self)
{
  plugboard_import_dialog_update_actions (self);
}

/* The files the scan reads, as mcp-client-import.h lists them. */
static GPtrArray *
dup_scanned_files (PlugboardImportDialog *self)
{
  const char *home = home_dir (self);
  const char *project_dir = mcp_settings_get_project_dir (self->settings);
  GPtrArray *files = g_ptr_array_new_with_free_func (g_free);

  g_ptr_array_add (files, g_build_filename (home, ".config", "Claude", "claude_desktop_config.json", NULL));
  g_ptr_array_add (files, g_build_filename (home, ".claude.json", NULL));
  g_ptr_array_add (files, g_build_filename (home, ".config", "Code", "User", "mcp.json", NULL));
  g_ptr_array_add (files, g_build_filename (home, ".config", "Code", "User", "settings.json", NULL));
  if (project_dir != NULL)
    g_ptr_array_add (files, g_build_filename (project_dir, ".vscode", "mcp.json", NULL));
  g_ptr_array_add (files, g_build_filename (home, ".cursor", "mcp.json", NULL));
  if (project_dir != NULL)
    g_ptr_array_add (files, g_build_filename (project_dir, ".cursor", "mcp.json", NULL));

  return files;
}

static AdwPreferencesGroup *
add_group (PlugboardImportDialog *self,
           const char            *title,
           const char            *description)
{
  GtkWidget *group = adw_preferences_group_new ();
  g_autofree char *escaped_title = g_markup_escape_text (title, -1);
  g_autofree char *escaped_description = description ? g_markup_escape_text (description, -1) : NULL;

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), escaped_title);
  if (escaped_description != NULL)
    adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group), escaped_description);

  gtk_box_append (self->results_box, group);
  g_ptr_array_add (self->groups, group);

  return ADW_PREFERENCES_GROUP (group);
}

static void
add_candidate_row (PlugboardImportDialog *self,
                   AdwPreferencesGroup   *group,
                   McpImportCandidate    *candidate,
                   gboolean               first)
{
  gboolean exists = name_exists (self, candidate->name);
  g_autofree char *title = g_markup_escape_text (candidate->name, -1);
  g_autofree char *subtitle = dup_subtitle (self, candidate, exists, !first);
  g_autofree char *accessible = NULL;
  GtkWidget *row;
  GtkWidget *check;

  row = adw_action_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 0);

  check = gtk_check_button_new ();
  gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), first && !exists);
  /* Translators: %s is a server's name */
  accessible = g_strdup_printf (_("Import %s"), candidate->name);
  gtk_accessible_update_property (GTK_ACCESSIBLE (check),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, accessible,
                                  -1);
  g_signal_connect_object (check, "toggled", G_CALLBACK (on_check_toggled_cb), self, G_CONNECT_SWAPPED);
  g_object_set_data (G_OBJECT (row), "exists", GINT_TO_POINTER (exists));
  g_object_set_data (G_OBJECT (row), "duplicate", GINT_TO_POINTER (!first));

  adw_action_row_add_prefix (ADW_ACTION_ROW (row), check);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), check);
  adw_preferences_group_add (group, row);

  g_ptr_array_add (self->checks, check);
  g_ptr_array_add (self->rows, row);
}

void
plugboard_import_dialog_show_empty (PlugboardImportDialog *self)
{
  g_autoptr(GPtrArray) files = dup_scanned_files (self);
  g_autofree char *intro = g_markup_escape_text (_("Plugboard looked for MCP servers in these files:"), -1);
  GString *description = g_string_new (intro);

  for (guint i = 0; i < files->len; i++)
    {
      g_autofree char *display = dup_display_path (self, g_ptr_array_index (files, i));
      g_autofree char *escaped = g_markup_escape_text (display, -1);

      g_string_append_printf (description, "\n<tt>%s</tt>", escaped);
    }

  adw_status_page_set_description (self->empty_page, description->str);
  g_string_free (description, TRUE);
  gtk_stack_set_visible_child_name (self->stack, "empty");
}

void
plugboard_import_dialog_show_results (PlugboardImportDialog *self,
                                      GPtrArray             *problems)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  AdwPreferencesGroup *group = NULL;
  const char *group_file = NULL;
  guint n_checked = 0;

  for (guint i = 0; i < self->candidates->len; i++)
    {
      McpImportCandidate *candidate = g_ptr_array_index (self->candidates, i);
      gboolean first = !g_hash_table_contains (seen, candidate->name);

      if (group == NULL || g_strcmp0 (group_file, candidate->file) != 0)
        {
          g_autofree char *display = dup_display_path (self, candidate->file);

          group = add_group (self, candidate->client, display);
          group_file = candidate->file;
        }

      /* The same name in two apps: only the first is checked, as Plugboard
       * can hold one of them per scope. */
      g_hash_table_add (seen, candidate->name);
      add_candidate_row (self, group, candidate, first);
      n_checked += gtk_check_button_get_active (g_ptr_array_index (self->checks, i));
    }

  if (problems != NULL && problems->len > 0)
    {
      group = add_group (self, _("Problems"), _("These could not be read; fix them in their app and try again."));
      for (guint i = 0; i < problems->len; i++)
        {
          g_autofree char *escaped = g_markup_escape_text (g_ptr_array_index (problems, i), -1);
          GtkWidget *row = adw_action_row_new ();
          GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");

          gtk_widget_add_css_class (icon, "warning");
          adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), escaped);
          adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 0);
          adw_preferences_group_add (group, row);
        }
    }

  if (self->candidates->len == 0)
    gtk_label_set_text (self->summary_label, _("No server could be read from the other apps’ files."));
  else
    gtk_label_set_text (self->summary_label,
                        _("Check the servers to add to Plugboard. The other apps’ files are not changed."));

  gtk_stack_set_visible_child_name (self->stack, "results");
}

void
plugboard_import_dialog_recheck_names (PlugboardImportDialog *self)
{
  for (guint i = 0; i < self->rows->len; i++)
    {
      McpImportCandidate *candidate = g_ptr_array_index (self->candidates, i);
      GtkWidget *row = g_ptr_array_index (self->rows, i);
      gboolean exists = name_exists (self, candidate->name);
      g_autofree char *subtitle = NULL;

      if (exists == GPOINTER_TO_INT (g_object_get_data (G_OBJECT (row), "exists")))
        continue;

      g_object_set_data (G_OBJECT (row), "exists", GINT_TO_POINTER (exists));
      subtitle = dup_subtitle (self, candidate, exists,
                               GPOINTER_TO_INT (g_object_get_data (G_OBJECT (row), "duplicate")));
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      if (exists)
        gtk_check_button_set_active (g_ptr_array_index (self->checks, i), FALSE);
    }

  plugboard_import_dialog_update_actions (self);
}
