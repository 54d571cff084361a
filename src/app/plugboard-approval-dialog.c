/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-approval-dialog"

#include "config.h"

#include "plugboard-approval-dialog.h"
#include "plugboard-common.h"

#include <glib/gi18n.h>

#define MASK "••••••"

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

  /* Owned references */
  McpSettings          *settings;
  GPtrArray            *rows;       /* AdwActionRow, in the group */
  GHashTable           *commands;   /* name → the command line or URL shown */
  GHashTable           *decisions;  /* name → Decision */
  GCancellable         *cancellable;
  gboolean              applying;
};

G_DEFINE_FINAL_TYPE (PlugboardApprovalDialog, plugboard_approval_dialog, ADW_TYPE_WINDOW)

enum {
  PROP_0,
  PROP_SETTINGS,
  N_PROPS
};

enum {
  DECIDED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];



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

static void
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

static void
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

static void
on_settings_changed_cb (PlugboardApprovalDialog *self)
{
  /* Our own writes reload the settings; the dialog closes after them. */
  if (self->applying)
    return;

  plugboard_approval_dialog_rebuild (self);
}

/* ------------------------------------------------------------------------ */
/* Apply                                                                    */

typedef struct
{
  GPtrArray *names;     /* char* */
  GArray    *approved;  /* gboolean */
  guint      next;
} ApplyData;

static void
apply_data_free (ApplyData *data)
{
  g_clear_pointer (&data->names, g_ptr_array_unref);
  g_clear_pointer (&data->approved, g_array_unref);
  g_free (data);
}

static void apply_next (GTask *task);

static void
set_approval_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_settings_set_approval_finish (MCP_SETTINGS (object), result, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  apply_next (g_steal_pointer (&task));
}

static void
apply_next (GTask *task)
{
  PlugboardApprovalDialog *self = g_task_get_source_object (task);
  ApplyData *data = g_task_get_task_data (task);
  guint i;

  if (data->next >= data->names->len)
    {
      g_task_return_boolean (task, TRUE);
      g_object_unref (task);
      return;
    }

  i = data->next++;
  mcp_settings_set_approval_async (self->settings,
                                   g_ptr_array_index (data->names, i),
                                   g_array_index (data->approved, gboolean, i),
                                   g_task_get_cancellable (task),
                                   set_approval_cb,
                                   task);
}

static void
apply_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  PlugboardApprovalDialog *self = PLUGBOARD_APPROVAL_DIALOG (object);
  GTask *outer = user_data;
  g_autoptr(GError) error = NULL;

  self->applying = FALSE;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          /* Some decisions may have been written before the failure. */
          plugboard_approval_dialog_rebuild (self);
        }
      g_task_return_error (outer, g_steal_pointer (&error));
      g_object_unref (outer);
      return;
    }

  g_signal_emit (self, signals[DECIDED], 0);
  g_task_return_boolean (outer, TRUE);
  g_object_unref (outer);
  gtk_window_close (GTK_WINDOW (self));
}

void
plugboard_approval_dialog_apply_async (PlugboardApprovalDialog *self,
                                       GCancellable            *cancellable,
                                       GAsyncReadyCallback      callback,
                                       gpointer                 user_data)
{
  g_autoptr(GTask) outer = NULL;
  g_autoptr(GTask) task = NULL;
  ApplyData *data;

  g_return_if_fail (PLUGBOARD_IS_APPROVAL_DIALOG (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  outer = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (outer, plugboard_approval_dialog_apply_async);

  if (self->applying)
    {
      g_task_return_new_error (outer, G_IO_ERROR, G_IO_ERROR_PENDING,
                               _("The decisions are already being saved"));
      return;
    }

  data = g_new0 (ApplyData, 1);
  data->names = g_ptr_array_new_with_free_func (g_free);
  data->approved = g_array_new (FALSE, FALSE, sizeof (gboolean));

  /* In the order the dialog lists them, which is the file's. */
  for (guint i = 0; i < self->rows->len; i++)
    {
      const char *name = g_object_get_data (g_ptr_array_index (self->rows, i), "server-name");
      Decision decision = GPOINTER_TO_INT (g_hash_table_lookup (self->decisions, name));
      gboolean approved = decision == DECISION_APPROVE;

      if (decision == DECISION_NONE)
        continue;

      g_ptr_array_add (data->names, g_strdup (name));
      g_array_append_val (data->approved, approved);
    }

  self->applying = TRUE;
  plugboard_approval_dialog_update_actions (self);

  task = g_task_new (self, cancellable != NULL ? cancellable : self->cancellable,
                     apply_done_cb, g_steal_pointer (&outer));
  g_task_set_source_tag (task, apply_next);
  g_task_set_task_data (task, data, (GDestroyNotify) apply_data_free);
  apply_next (g_steal_pointer (&task));
}

gboolean
plugboard_approval_dialog_apply_finish (PlugboardApprovalDialog *self,
                                        GAsyncResult            *result,
                                        GError                 **error)
{
  g_return_val_if_fail (PLUGBOARD_IS_APPROVAL_DIALOG (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
apply_from_button_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  PlugboardApprovalDialog *self = PLUGBOARD_APPROVAL_DIALOG (object);
  g_autoptr(GError) error = NULL;

  if (!plugboard_approval_dialog_apply_finish (self, result, &error))
    {
      g_autofree char *escaped = NULL;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;

      escaped = g_markup_escape_text (error->message, -1);
      adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (escaped));
      plugboard_approval_dialog_update_actions (self);
    }
}

static void
apply_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  plugboard_approval_dialog_apply_async (PLUGBOARD_APPROVAL_DIALOG (widget), NULL,
                                         apply_from_button_cb, NULL);
}

/* ------------------------------------------------------------------------ */

static void
plugboard_approval_dialog_constructed (GObject *object)
{
  PlugboardApprovalDialog *self = PLUGBOARD_APPROVAL_DIALOG (object);

  G_OBJECT_CLASS (plugboard_approval_dialog_parent_class)->constructed (object);

  g_signal_connect_object (self->settings, "changed",
                           G_CALLBACK (on_settings_changed_cb), self,
                           G_CONNECT_SWAPPED);
  plugboard_approval_dialog_rebuild (self);
}

static void
plugboard_approval_dialog_set_property (GObject      *object,
                                        guint         prop_id,
                                        const GValue *value,
                                        GParamSpec   *pspec)
{
  PlugboardApprovalDialog *self = PLUGBOARD_APPROVAL_DIALOG (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      self->settings = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_approval_dialog_get_property (GObject    *object,
                                        guint       prop_id,
                                        GValue     *value,
                                        GParamSpec *pspec)
{
  PlugboardApprovalDialog *self = PLUGBOARD_APPROVAL_DIALOG (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      g_value_set_object (value, self->settings);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_approval_dialog_dispose (GObject *object)
{
  PlugboardApprovalDialog *self = PLUGBOARD_APPROVAL_DIALOG (object);

  g_cancellable_cancel (self->cancellable);

  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_APPROVAL_DIALOG);

  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (plugboard_approval_dialog_parent_class)->dispose (object);
}

static void
plugboard_approval_dialog_finalize (GObject *object)
{
  PlugboardApprovalDialog *self = PLUGBOARD_APPROVAL_DIALOG (object);

  g_clear_pointer (&self->commands, g_hash_table_unref);
  g_clear_pointer (&self->decisions, g_hash_table_unref);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (plugboard_approval_dialog_parent_class)->finalize (object);
}

static void
plugboard_approval_dialog_class_init (PlugboardApprovalDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = plugboard_approval_dialog_constructed;
  object_class->dispose = plugboard_approval_dialog_dispose;
  object_class->finalize = plugboard_approval_dialog_finalize;
  object_class->get_property = plugboard_approval_dialog_get_property;
  object_class->set_property = plugboard_approval_dialog_set_property;

  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL,
                         MCP_TYPE_SETTINGS,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[DECIDED] =
    g_signal_new ("decided",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/plugboard/Plugboard/plugboard-approval-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardApprovalDialog, apply_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardApprovalDialog, later_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardApprovalDialog, description_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardApprovalDialog, servers_group);
  gtk_widget_class_bind_template_child (widget_class, PlugboardApprovalDialog, toast_overlay);

  gtk_widget_class_install_action (widget_class, "approval.apply", NULL, apply_action);

  /* Escape decides later, as the button does. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
plugboard_approval_dialog_init (PlugboardApprovalDialog *self)
{
  self->rows = g_ptr_array_new ();
  self->commands = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->decisions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->cancellable = g_cancellable_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
}

PlugboardApprovalDialog *
plugboard_approval_dialog_new (GtkWindow   *parent,
                               McpSettings *settings)
{
  g_return_val_if_fail (!parent || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (MCP_IS_SETTINGS (settings), NULL);

  return g_object_new (PLUGBOARD_TYPE_APPROVAL_DIALOG,
                       "transient-for", parent,
                       "settings", settings,
                       NULL);
}

void
plugboard_approval_dialog_set_decision (PlugboardApprovalDialog *self,
                                        const char              *name,
                                        gboolean                 approve)
{
  g_return_if_fail (PLUGBOARD_IS_APPROVAL_DIALOG (self));
  g_return_if_fail (name != NULL);

  for (guint i = 0; i < self->rows->len; i++)
    {
      GObject *row = g_ptr_array_index (self->rows, i);

      if (g_strcmp0 (g_object_get_data (row, "server-name"), name) == 0)
        {
          GtkToggleButton *button = g_object_get_data (row, approve ? "approve-button" : "reject-button");

          gtk_toggle_button_set_active (button, TRUE);
          return;
        }
    }

  g_debug ("No server %s is pending approval", name);
}

char *
plugboard_approval_dialog_dup_shown_command (PlugboardApprovalDialog *self,
                                             const char              *name)
{
  g_return_val_if_fail (PLUGBOARD_IS_APPROVAL_DIALOG (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  return g_strdup (g_hash_table_lookup (self->commands, name));
}
