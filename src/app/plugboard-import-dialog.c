/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-import-dialog"

#include "config.h"

#include "plugboard-import-dialog.h"
#include "plugboard-common.h"

#include <glib/gi18n.h>

#include "mcp-client-import.h"

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

  /* Owned references */
  McpSettings          *settings;
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

G_DEFINE_FINAL_TYPE (PlugboardImportDialog, plugboard_import_dialog, ADW_TYPE_WINDOW)

enum {
  PROP_0,
  PROP_SETTINGS,
  PROP_HOME,
  N_PROPS
};

enum {
  IMPORTED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

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
plugboard_import_dialog_update_actions (PlugboardImportDialog *self)
{
  gboolean any = FALSE;

  for (guint i = 0; i < self->checks->len && !any; i++)
    any = gtk_check_button_get_active (g_ptr_array_index (self->checks, i));

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "import.import",
                                 self->scanned && any && !self->importing);
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

static void
show_empty (PlugboardImportDialog *self)
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

static void
show_results (PlugboardImportDialog *self,
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

static void
plugboard_import_dialog_finish_waiters (PlugboardImportDialog *self)
{
  g_autoptr(GPtrArray) waiters = g_steal_pointer (&self->waiters);

  self->waiters = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < waiters->len; i++)
    {
      GTask *task = g_ptr_array_index (waiters, i);

      if (self->scan_error != NULL)
        g_task_return_error (task, g_error_copy (self->scan_error));
      else
        g_task_return_boolean (task, TRUE);
    }
}

static void
scan_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(PlugboardImportDialog) self = user_data;
  g_autoptr(GPtrArray) candidates = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GError) error = NULL;

  candidates = mcp_client_import_scan_finish (result, &problems, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      /* The dialog is going away: nobody waits for a scan that won't be shown. */
      self->scan_error = g_steal_pointer (&error);
      plugboard_import_dialog_finish_waiters (self);
      return;
    }

  gtk_spinner_stop (self->spinner);
  self->scanned = TRUE;

  if (candidates == NULL)
    {
      g_autofree char *escaped = g_markup_escape_text (error->message, -1);

      adw_status_page_set_icon_name (self->empty_page, "dialog-warning-symbolic");
      adw_status_page_set_title (self->empty_page, _("Could Not Look for Servers"));
      adw_status_page_set_description (self->empty_page, escaped);
      gtk_stack_set_visible_child_name (self->stack, "empty");
      self->scan_error = g_steal_pointer (&error);
    }
  else
    {
      g_clear_pointer (&self->candidates, g_ptr_array_unref);
      self->candidates = g_steal_pointer (&candidates);

      if (self->candidates->len == 0 && (problems == NULL || problems->len == 0))
        show_empty (self);
      else
        show_results (self, problems);
    }

  plugboard_import_dialog_update_actions (self);
  plugboard_import_dialog_finish_waiters (self);
}

/* An import, or an edit elsewhere, may add a name: mark the rows that
 * now clash and uncheck them. */
static void
on_settings_changed_cb (PlugboardImportDialog *self)
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

/* ------------------------------------------------------------------------ */
/* Import                                                                   */

typedef struct
{
  GPtrArray *candidates;  /* McpImportCandidate, borrowed from the dialog */
  guint      next;
  guint      added;
} ImportData;

static void
import_data_free (ImportData *data)
{
  g_clear_pointer (&data->candidates, g_ptr_array_unref);
  g_free (data);
}

static void import_next (GTask *task);

static void
add_server_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  PlugboardImportDialog *self = g_task_get_source_object (task);
  ImportData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!mcp_settings_add_server_finish (MCP_SETTINGS (object), result, &error))
    {
      self->importing = FALSE;
      plugboard_import_dialog_update_actions (self);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  data->added++;
  import_next (g_steal_pointer (&task));
}

static void
import_next (GTask *task)
{
  PlugboardImportDialog *self = g_task_get_source_object (task);
  ImportData *data = g_task_get_task_data (task);
  McpImportCandidate *candidate;

  if (data->next >= data->candidates->len)
    {
      self->importing = FALSE;
      g_signal_emit (self, signals[IMPORTED], 0, data->added);
      g_task_return_int (task, data->added);
      g_object_unref (task);
      gtk_window_close (GTK_WINDOW (self));
      return;
    }

  candidate = g_ptr_array_index (data->candidates, data->next++);
  mcp_settings_add_server_async (self->settings,
                                 candidate->name,
                                 candidate->scope,
                                 candidate->entry,
                                 g_task_get_cancellable (task),
                                 add_server_cb,
                                 task);
}

void
plugboard_import_dialog_import_async (PlugboardImportDialog *self,
                                      GCancellable          *cancellable,
                                      GAsyncReadyCallback    callback,
                                      gpointer               user_data)
{
  g_autoptr(GTask) task = NULL;
  ImportData *data;

  g_return_if_fail (PLUGBOARD_IS_IMPORT_DIALOG (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable != NULL ? cancellable : self->cancellable, callback, user_data);
  g_task_set_source_tag (task, plugboard_import_dialog_import_async);

  if (!self->scanned || self->importing)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_PENDING,
                               _("The import dialog is still busy"));
      return;
    }

  data = g_new0 (ImportData, 1);
  data->candidates = g_ptr_array_new ();
  for (guint i = 0; i < self->checks->len; i++)
    {
      if (gtk_check_button_get_active (g_ptr_array_index (self->checks, i)))
        g_ptr_array_add (data->candidates, g_ptr_array_index (self->candidates, i));
    }
  g_task_set_task_data (task, data, (GDestroyNotify) import_data_free);

  self->importing = TRUE;
  plugboard_import_dialog_update_actions (self);
  import_next (g_steal_pointer (&task));
}

guint
plugboard_import_dialog_import_finish (PlugboardImportDialog *self,
                                       GAsyncResult          *result,
                                       GError               **error)
{
  gssize added;

  g_return_val_if_fail (PLUGBOARD_IS_IMPORT_DIALOG (self), 0);
  g_return_val_if_fail (g_task_is_valid (result, self), 0);

  added = g_task_propagate_int (G_TASK (result), error);

  return added > 0 ? (guint) added : 0;
}

static void
import_from_button_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  PlugboardImportDialog *self = PLUGBOARD_IMPORT_DIALOG (object);
  g_autoptr(GError) error = NULL;

  plugboard_import_dialog_import_finish (self, result, &error);
  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autofree char *escaped = g_markup_escape_text (error->message, -1);
      AdwToast *toast = adw_toast_new (escaped);

      adw_toast_set_timeout (toast, 0);
      adw_toast_overlay_add_toast (self->toast_overlay, toast);
    }
}

static void
import_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  plugboard_import_dialog_import_async (PLUGBOARD_IMPORT_DIALOG (widget), NULL,
                                        import_from_button_cb, NULL);
}

/* ------------------------------------------------------------------------ */

void
plugboard_import_dialog_wait_scanned_async (PlugboardImportDialog *self,
                                            GCancellable          *cancellable,
                                            GAsyncReadyCallback    callback,
                                            gpointer               user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (PLUGBOARD_IS_IMPORT_DIALOG (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, plugboard_import_dialog_wait_scanned_async);

  if (!self->scanned)
    {
      g_ptr_array_add (self->waiters, g_steal_pointer (&task));
      return;
    }

  if (self->scan_error != NULL)
    g_task_return_error (task, g_error_copy (self->scan_error));
  else
    g_task_return_boolean (task, TRUE);
}

gboolean
plugboard_import_dialog_wait_scanned_finish (PlugboardImportDialog *self,
                                             GAsyncResult          *result,
                                             GError               **error)
{
  g_return_val_if_fail (PLUGBOARD_IS_IMPORT_DIALOG (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

guint
plugboard_import_dialog_get_n_candidates (PlugboardImportDialog *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_IMPORT_DIALOG (self), 0);

  return self->candidates->len;
}

static void
plugboard_import_dialog_constructed (GObject *object)
{
  PlugboardImportDialog *self = PLUGBOARD_IMPORT_DIALOG (object);

  G_OBJECT_CLASS (plugboard_import_dialog_parent_class)->constructed (object);

  g_signal_connect_object (self->settings, "changed",
                           G_CALLBACK (on_settings_changed_cb), self,
                           G_CONNECT_SWAPPED);

  gtk_stack_set_visible_child_name (self->stack, "scanning");
  gtk_spinner_start (self->spinner);
  plugboard_import_dialog_update_actions (self);

  mcp_client_import_scan_async (self->home,
                                mcp_settings_get_project_dir (self->settings),
                                self->cancellable,
                                scan_cb,
                                g_object_ref (self));
}

static void
plugboard_import_dialog_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  PlugboardImportDialog *self = PLUGBOARD_IMPORT_DIALOG (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      self->settings = g_value_dup_object (value);
      break;

    case PROP_HOME:
      self->home = g_value_dup_string (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_import_dialog_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  PlugboardImportDialog *self = PLUGBOARD_IMPORT_DIALOG (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      g_value_set_object (value, self->settings);
      break;

    case PROP_HOME:
      g_value_set_string (value, self->home);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_import_dialog_dispose (GObject *object)
{
  PlugboardImportDialog *self = PLUGBOARD_IMPORT_DIALOG (object);

  g_cancellable_cancel (self->cancellable);

  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_IMPORT_DIALOG);

  g_ptr_array_set_size (self->checks, 0);
  g_ptr_array_set_size (self->rows, 0);
  g_ptr_array_set_size (self->groups, 0);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (plugboard_import_dialog_parent_class)->dispose (object);
}

static void
plugboard_import_dialog_finalize (GObject *object)
{
  PlugboardImportDialog *self = PLUGBOARD_IMPORT_DIALOG (object);

  g_clear_pointer (&self->home, g_free);
  g_clear_pointer (&self->candidates, g_ptr_array_unref);
  g_clear_pointer (&self->checks, g_ptr_array_unref);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_pointer (&self->groups, g_ptr_array_unref);
  g_clear_pointer (&self->waiters, g_ptr_array_unref);
  g_clear_error (&self->scan_error);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (plugboard_import_dialog_parent_class)->finalize (object);
}

static void
plugboard_import_dialog_class_init (PlugboardImportDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = plugboard_import_dialog_constructed;
  object_class->dispose = plugboard_import_dialog_dispose;
  object_class->finalize = plugboard_import_dialog_finalize;
  object_class->get_property = plugboard_import_dialog_get_property;
  object_class->set_property = plugboard_import_dialog_set_property;

  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL,
                         MCP_TYPE_SETTINGS,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  properties[PROP_HOME] =
    g_param_spec_string ("home", NULL, NULL,
                         NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[IMPORTED] =
    g_signal_new ("imported",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/plugboard/Plugboard/plugboard-import-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardImportDialog, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardImportDialog, import_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardImportDialog, stack);
  gtk_widget_class_bind_template_child (widget_class, PlugboardImportDialog, spinner);
  gtk_widget_class_bind_template_child (widget_class, PlugboardImportDialog, results_box);
  gtk_widget_class_bind_template_child (widget_class, PlugboardImportDialog, summary_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardImportDialog, empty_page);
  gtk_widget_class_bind_template_child (widget_class, PlugboardImportDialog, toast_overlay);

  gtk_widget_class_install_action (widget_class, "import.import", NULL, import_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
plugboard_import_dialog_init (PlugboardImportDialog *self)
{
  self->candidates = g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_import_candidate_free);
  self->checks = g_ptr_array_new ();
  self->rows = g_ptr_array_new ();
  self->groups = g_ptr_array_new ();
  self->waiters = g_ptr_array_new_with_free_func (g_object_unref);
  self->cancellable = g_cancellable_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
}

PlugboardImportDialog *
plugboard_import_dialog_new (GtkWindow   *parent,
                             McpSettings *settings,
                             const char  *home)
{
  g_return_val_if_fail (!parent || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (MCP_IS_SETTINGS (settings), NULL);

  return g_object_new (PLUGBOARD_TYPE_IMPORT_DIALOG,
                       "transient-for", parent,
                       "settings", settings,
                       "home", home,
                       NULL);
}
