/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-tool-page"

/* PlugboardToolPage: this session's calls of the tool (with Load
 * Arguments and Run Again) and the saved argument sets (Save Arguments…,
 * load, delete), through McpToolHistory. */

#include "config.h"

#include "plugboard-tool-page-private.h"

#include <glib/gi18n.h>

#include "plugboard-common.h"

static const char *
outcome_label (McpHistoryOutcome outcome)
{
  switch (outcome)
    {
    case MCP_HISTORY_OUTCOME_RUNNING:
      return _("Running");
    case MCP_HISTORY_OUTCOME_OK:
      return _("Succeeded");
    case MCP_HISTORY_OUTCOME_TOOL_ERROR:
      return _("Tool error");
    case MCP_HISTORY_OUTCOME_FAILED:
      return _("Failed");
    case MCP_HISTORY_OUTCOME_CANCELLED:
      return _("Cancelled");
    default:
      return "";
    }
}

static const char *
outcome_icon (McpHistoryOutcome outcome)
{
  switch (outcome)
    {
    case MCP_HISTORY_OUTCOME_RUNNING:
      return "content-loading-symbolic";
    case MCP_HISTORY_OUTCOME_OK:
      return "emblem-ok-symbolic";
    case MCP_HISTORY_OUTCOME_TOOL_ERROR:
    case MCP_HISTORY_OUTCOME_FAILED:
      return "dialog-error-symbolic";
    case MCP_HISTORY_OUTCOME_CANCELLED:
    default:
      return "process-stop-symbolic";
    }
}

/* The outcome icon follows the entry's outcome through bindings. */
static gboolean
outcome_to_icon_name (GBinding     *binding,
                      const GValue *from_value,
                      GValue       *to_value,
                      gpointer      user_data)
{
  g_value_set_string (to_value, outcome_icon (g_value_get_enum (from_value)));
  return TRUE;
}

static gboolean
outcome_to_css_classes (GBinding     *binding,
                        const GValue *from_value,
                        GValue       *to_value,
                        gpointer      user_data)
{
  static const char * const success[] = { "success", NULL };
  static const char * const error[] = { "error", NULL };
  static const char * const none[] = { NULL };

  switch ((McpHistoryOutcome) g_value_get_enum (from_value))
    {
    case MCP_HISTORY_OUTCOME_OK:
      g_value_set_boxed (to_value, success);
      break;
    case MCP_HISTORY_OUTCOME_TOOL_ERROR:
    case MCP_HISTORY_OUTCOME_FAILED:
      g_value_set_boxed (to_value, error);
      break;
    default:
      g_value_set_boxed (to_value, none);
    }
  return TRUE;
}

static void
update_history_row (GtkWidget       *row,
                    GParamSpec      *pspec,
                    McpHistoryEntry *entry)
{
  McpHistoryOutcome outcome = mcp_history_entry_get_outcome (entry);
  g_autofree char *title = NULL;
  g_autofree char *arguments = NULL;
  g_autofree char *subtitle = NULL;
  g_autoptr(GDateTime) started = NULL;
  g_autofree char *time = NULL;
  const char *summary = mcp_history_entry_get_summary (entry);

  started = g_date_time_new_from_unix_local (mcp_history_entry_get_started (entry) / G_USEC_PER_SEC);
  time = g_date_time_format (started, "%X");

  if (outcome == MCP_HISTORY_OUTCOME_RUNNING)
    /* Translators: the outcome of a call, then the time it started */
    title = g_strdup_printf (_("%s · %s"), outcome_label (outcome), time);
  else
    {
      g_autofree char *duration = plugboard_tool_page_format_duration (mcp_history_entry_get_duration (entry));

      /* Translators: the outcome of a call, the time it started and its duration */
      title = g_strdup_printf (_("%s · %s · %s"), outcome_label (outcome), time, duration);
    }

  arguments = mcp_history_entry_get_arguments (entry)
    ? plugboard_json_object_to_text (mcp_history_entry_get_arguments (entry), FALSE)
    : g_strdup ("{}");
  if (summary != NULL && summary[0] != '\0')
    subtitle = g_strdup_printf ("%s\n%s", arguments, summary);
  else
    subtitle = g_steal_pointer (&arguments);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
}

static void
on_history_load_clicked_cb (GtkButton *button,
                            gpointer   user_data)
{
  PlugboardToolPage *self = user_data;
  McpHistoryEntry *entry = g_object_get_data (G_OBJECT (button), "entry");

  if (mcp_history_entry_get_arguments (entry) != NULL)
    plugboard_tool_page_set_arguments (self, mcp_history_entry_get_arguments (entry));
}

static void
on_history_rerun_clicked_cb (GtkButton *button,
                             gpointer   user_data)
{
  PlugboardToolPage *self = user_data;

  on_history_load_clicked_cb (button, self);
  plugboard_tool_page_run (self);
}

/* A fresh view of the tool's interface replays the call. */
static void
on_history_show_app_clicked_cb (GtkButton *button,
                                gpointer   user_data)
{
  PlugboardToolPage *self = user_data;
  McpHistoryEntry *entry = g_object_get_data (G_OBJECT (button), "entry");

  plugboard_tool_page_show_app (self, mcp_history_entry_get_arguments (entry),
                                mcp_history_entry_get_result (entry));
}

/* A flat icon button at the end of @row, for @entry. */
static GtkWidget *
add_entry_button (GtkWidget         *row,
                  const char        *icon_name,
                  const char        *label,
                  McpHistoryEntry   *entry,
                  GCallback          clicked,
                  PlugboardToolPage *self)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon_name);

  gtk_widget_set_tooltip_text (button, label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  label, -1);
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (button, "flat");
  g_object_set_data_full (G_OBJECT (button), "entry", g_object_ref (entry), g_object_unref);
  g_signal_connect (button, "clicked", clicked, self);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);

  return button;
}

static GtkWidget *
create_history_row_cb (gpointer item,
                       gpointer user_data)
{
  PlugboardToolPage *self = user_data;
  McpHistoryEntry *entry = item;
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *icon = gtk_image_new ();
  GtkWidget *rerun;

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 2);
  g_object_bind_property_full (entry, "outcome", icon, "icon-name", G_BINDING_SYNC_CREATE,
                               outcome_to_icon_name, NULL, NULL, NULL);
  g_object_bind_property_full (entry, "outcome", icon, "css-classes", G_BINDING_SYNC_CREATE,
                               outcome_to_css_classes, NULL, NULL, NULL);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);

  add_entry_button (row, "document-revert-symbolic", _("Load Arguments"), entry,
                    G_CALLBACK (on_history_load_clicked_cb), self);
  rerun = add_entry_button (row, "view-refresh-symbolic", _("Run Again"), entry,
                            G_CALLBACK (on_history_rerun_clicked_cb), self);

  g_object_bind_property (self, "running", rerun, "sensitive", G_BINDING_SYNC_CREATE | G_BINDING_INVERT_BOOLEAN);
  if (plugboard_tool_page_app_has_interface (self))
    add_entry_button (row, "view-reveal-symbolic", _("Show Interface"), entry,
                      G_CALLBACK (on_history_show_app_clicked_cb), self);

  update_history_row (row, NULL, entry);
  g_signal_connect_object (entry, "notify", G_CALLBACK (update_history_row), row, G_CONNECT_SWAPPED);

  return row;
}

static void
on_calls_changed_cb (PlugboardToolPage *self)
{
  gtk_widget_set_visible (self->history_group,
                          self->calls != NULL && g_list_model_get_n_items (self->calls) > 0);
}

void
plugboard_tool_page_update_history (PlugboardToolPage *self)
{
  if (self->calls != NULL)
    g_signal_handlers_disconnect_by_data (self->calls, self);
  g_clear_object (&self->calls);

  if (self->history != NULL && self->tool != NULL)
    {
      self->calls = g_object_ref (mcp_tool_history_get_calls_for (self->history,
                                                                  mcp_pool_tool_get_qualified_name (self->tool)));
      g_signal_connect_swapped (self->calls, "items-changed", G_CALLBACK (on_calls_changed_cb), self);
    }

  gtk_list_box_bind_model (self->history_list, self->calls, create_history_row_cb, self, NULL);
  on_calls_changed_cb (self);
}

static void
on_saved_load_clicked_cb (GtkButton *button,
                          gpointer   user_data)
{
  PlugboardToolPage *self = user_data;
  const char *name = g_object_get_data (G_OBJECT (button), "set-name");
  g_autoptr(JsonObject) arguments = NULL;
  g_autoptr(GError) error = NULL;

  gtk_popover_popdown (self->saved_popover);
  arguments = mcp_tool_history_load_arguments (self->history,
                                               mcp_pool_tool_get_qualified_name (self->tool),
                                               name, &error);
  if (arguments == NULL)
    {
      plugboard_tool_page_show_arguments_error (self, error->message);
      return;
    }
  plugboard_tool_page_set_arguments (self, arguments);
}

static void
on_saved_delete_clicked_cb (GtkButton *button,
                            gpointer   user_data)
{
  PlugboardToolPage *self = user_data;
  const char *name = g_object_get_data (G_OBJECT (button), "set-name");
  g_autoptr(GError) error = NULL;

  if (!mcp_tool_history_delete_arguments (self->history,
                                          mcp_pool_tool_get_qualified_name (self->tool),
                                          name, &error))
    plugboard_tool_page_show_arguments_error (self, error->message);
  plugboard_tool_page_update_saved (self);
}

void
plugboard_tool_page_update_saved (PlugboardToolPage *self)
{
  g_auto(GStrv) names = NULL;

  plugboard_tool_page_clear_list (self->saved_list);
  if (self->history != NULL && self->tool != NULL)
    names = mcp_tool_history_dup_saved_names (self->history, mcp_pool_tool_get_qualified_name (self->tool));

  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    {
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *load = gtk_button_new_with_mnemonic (_("_Load"));
      GtkWidget *delete = gtk_button_new_from_icon_name ("user-trash-symbolic");

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), names[i]);
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);

      gtk_widget_set_valign (load, GTK_ALIGN_CENTER);
      g_object_set_data_full (G_OBJECT (load), "set-name", g_strdup (names[i]), g_free);
      g_signal_connect (load, "clicked", G_CALLBACK (on_saved_load_clicked_cb), self);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), load);

      gtk_widget_set_valign (delete, GTK_ALIGN_CENTER);
      gtk_widget_add_css_class (delete, "flat");
      gtk_widget_set_tooltip_text (delete, _("Delete"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (delete), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Delete"), -1);
      g_object_set_data_full (G_OBJECT (delete), "set-name", g_strdup (names[i]), g_free);
      g_signal_connect (delete, "clicked", G_CALLBACK (on_saved_delete_clicked_cb), self);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), delete);

      gtk_list_box_append (self->saved_list, row);
    }

  gtk_widget_set_visible (GTK_WIDGET (self->saved_list), names != NULL && names[0] != NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->saved_empty_label), names == NULL || names[0] == NULL);
}

static void
on_save_response_cb (AdwMessageDialog  *dialog,
                     const char        *response,
                     PlugboardToolPage *self)
{
  GtkEditable *entry = g_object_get_data (G_OBJECT (dialog), "entry");
  g_autoptr(JsonObject) arguments = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;

  if (g_strcmp0 (response, "save") != 0 || self->tool == NULL || self->history == NULL)
    return;

  name = g_strstrip (g_strdup (gtk_editable_get_text (entry)));
  if (name[0] == '\0')
    return;

  arguments = plugboard_tool_page_dup_arguments (self, &error);
  if (arguments == NULL ||
      !mcp_tool_history_save_arguments (self->history, mcp_pool_tool_get_qualified_name (self->tool),
                                        name, arguments, &error))
    {
      plugboard_tool_page_show_arguments_error (self, error->message);
      return;
    }

  plugboard_tool_page_update_saved (self);
}

static void
on_save_entry_changed_cb (GtkEditable      *entry,
                          AdwMessageDialog *dialog)
{
  g_autofree char *name = g_strstrip (g_strdup (gtk_editable_get_text (entry)));

  adw_message_dialog_set_response_enabled (dialog, "save", name[0] != '\0');
}

void
plugboard_tool_page_save_arguments_action (GtkWidget  *widget,
                                           const char *action_name,
                                           GVariant   *parameter)
{
  PlugboardToolPage *self = PLUGBOARD_TOOL_PAGE (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  AdwMessageDialog *dialog;
  GtkWidget *entry;

  if (self->tool == NULL || self->history == NULL)
    return;

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                                       _("Save Arguments"),
                                                       _("Give these arguments a name to load them again later.")));
  adw_message_dialog_add_responses (dialog,
                                    "cancel", _("_Cancel"),
                                    "save", _("_Save"),
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, "save", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (dialog, "save");
  adw_message_dialog_set_close_response (dialog, "cancel");
  adw_message_dialog_set_response_enabled (dialog, "save", FALSE);

  entry = gtk_entry_new ();
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _("Name"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Name"), -1);
  g_signal_connect_object (entry, "changed", G_CALLBACK (on_save_entry_changed_cb), dialog, 0);
  adw_message_dialog_set_extra_child (dialog, entry);
  g_object_set_data (G_OBJECT (dialog), "entry", entry);

  g_signal_connect_object (dialog, "response", G_CALLBACK (on_save_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}
