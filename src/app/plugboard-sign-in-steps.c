/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-sign-in-steps"

#include "config.h"

#include "plugboard-sign-in-steps.h"

#include <glib/gi18n.h>

/* The sign-in debugger's window (plugboard-sign-in-steps.h): one row a
 * step, made from McpSignInSteps by gtk_list_box_bind_model(), so the
 * list follows the trace as steps are recorded. */

/* A trace file larger than this is refused rather than read. */
#define MAX_TRACE_FILE_BYTES (64 * 1024 * 1024)

struct _PlugboardSignInSteps
{
  AdwWindow             parent_instance;

  /* Template widgets */
  AdwWindowTitle       *window_title;
  GtkRevealer          *error_revealer;
  GtkLabel             *error_label;
  GtkStack             *stack;
  GtkListBox           *list;

  /* Owned references */
  McpSignInSteps       *steps;
  GtkFileChooserNative *chooser;
};

G_DEFINE_FINAL_TYPE (PlugboardSignInSteps, plugboard_sign_in_steps, ADW_TYPE_WINDOW)

static const char *
status_icon (McpTraceStepStatus status)
{
  switch (status)
    {
    case MCP_TRACE_STEP_OK:
      return "emblem-ok-symbolic";
    case MCP_TRACE_STEP_FAILED:
      return "dialog-error-symbolic";
    case MCP_TRACE_STEP_SKIPPED:
      return "media-skip-forward-symbolic";
    case MCP_TRACE_STEP_INFO:
    default:
      return "dialog-information-symbolic";
    }
}

static const char *
status_name (McpTraceStepStatus status)
{
  switch (status)
    {
    case MCP_TRACE_STEP_OK:
      return _("Done");
    case MCP_TRACE_STEP_FAILED:
      return _("Failed");
    case MCP_TRACE_STEP_SKIPPED:
      return _("Skipped");
    case MCP_TRACE_STEP_INFO:
    default:
      return _("Information");
    }
}

/* Selectable monospace text: a request, a response, a URL. */
static GtkWidget *
text_label_new (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_margin_top (label, 6);
  gtk_widget_set_margin_bottom (label, 6);
  gtk_widget_add_css_class (label, "monospace");
  return label;
}

/* A titled block inside a step's row: "Request", "Response". */
static GtkWidget *
block_row_new (const char *title,
               const char *text)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *heading = gtk_label_new (title);

  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_widget_add_css_class (heading, "heading");
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_box_append (GTK_BOX (box), heading);
  gtk_box_append (GTK_BOX (box), text_label_new (text));
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  return row;
}

static void
on_copy_clicked_cb (GtkButton *button,
                    gpointer   user_data)
{
  const char *url = g_object_get_data (G_OBJECT (button), "url");

  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (button)), url);
}

static GtkWidget *
copy_button_new (const char *url)
{
  GtkWidget *button = gtk_button_new_from_icon_name ("edit-copy-symbolic");

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_tooltip_text (button, _("Copy the authorization URL"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Copy the authorization URL"), -1);
  g_object_set_data_full (G_OBJECT (button), "url", g_strdup (url), g_free);
  g_signal_connect (button, "clicked", G_CALLBACK (on_copy_clicked_cb), NULL);
  return button;
}

static GtkWidget *
create_row_cb (gpointer item,
               gpointer user_data)
{
  PlugboardSignInSteps *self = user_data;
  McpTraceEntry *step = item;
  McpTraceEntry *exchange = mcp_sign_in_steps_get_exchange (self->steps, step);
  McpTraceStepStatus status = mcp_trace_entry_get_step_status (step);
  const char *url = mcp_trace_entry_get_url (step);
  g_autofree char *title = g_markup_escape_text (mcp_sign_in_step_get_title (mcp_trace_entry_get_method (step)), -1);
  g_autofree char *text = g_markup_escape_text (mcp_trace_entry_get_text (step) ?: "", -1);
  GtkWidget *icon = gtk_image_new_from_icon_name (status_icon (status));
  GtkWidget *row;

  gtk_accessible_update_property (GTK_ACCESSIBLE (icon), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  status_name (status), -1);
  gtk_widget_set_tooltip_text (icon, status_name (status));
  if (status == MCP_TRACE_STEP_FAILED)
    gtk_widget_add_css_class (icon, "error");
  else if (status == MCP_TRACE_STEP_OK)
    gtk_widget_add_css_class (icon, "success");
  else
    gtk_widget_add_css_class (icon, "dim-label");

  if (exchange == NULL && url == NULL)
    {
      row = adw_action_row_new ();
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), text);
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
      return row;
    }

  row = adw_expander_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (row), text);
  adw_expander_row_add_prefix (ADW_EXPANDER_ROW (row), icon);
  if (url != NULL)
    {
      adw_expander_row_add_action (ADW_EXPANDER_ROW (row), copy_button_new (url));
      adw_expander_row_add_row (ADW_EXPANDER_ROW (row), block_row_new (_("URL"), url));
    }
  if (exchange != NULL)
    {
      g_autofree char *request = mcp_sign_in_exchange_format (exchange, FALSE);
      g_autofree char *response = mcp_sign_in_exchange_format (exchange, TRUE);

      adw_expander_row_add_row (ADW_EXPANDER_ROW (row), block_row_new (_("Request"), request));
      adw_expander_row_add_row (ADW_EXPANDER_ROW (row), block_row_new (_("Response"), response));
    }
  return row;
}

static void
update_stack (PlugboardSignInSteps *self)
{
  gboolean any = self->steps != NULL && g_list_model_get_n_items (G_LIST_MODEL (self->steps)) > 0;

  gtk_stack_set_visible_child_name (self->stack, any ? "steps" : "empty");
}

static void
on_items_changed_cb (PlugboardSignInSteps *self)
{
  update_stack (self);
}

void
plugboard_sign_in_steps_set_steps (PlugboardSignInSteps *self,
                                   McpSignInSteps       *steps)
{
  g_return_if_fail (PLUGBOARD_IS_SIGN_IN_STEPS (self));
  g_return_if_fail (MCP_IS_SIGN_IN_STEPS (steps));

  if (self->steps != NULL)
    g_signal_handlers_disconnect_by_func (self->steps, on_items_changed_cb, self);
  g_set_object (&self->steps, steps);
  g_signal_connect_object (steps, "items-changed", G_CALLBACK (on_items_changed_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_list_box_bind_model (self->list, G_LIST_MODEL (steps), create_row_cb, self, NULL);
  update_stack (self);
}

McpSignInSteps *
plugboard_sign_in_steps_get_steps (PlugboardSignInSteps *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_SIGN_IN_STEPS (self), NULL);

  return self->steps;
}

gboolean
plugboard_sign_in_steps_load_file (PlugboardSignInSteps  *self,
                                   GFile                 *file,
                                   GError               **error)
{
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GPtrArray) servers = NULL;
  g_autoptr(McpSignInSteps) steps = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *name = NULL;
  gsize length = 0;

  g_return_val_if_fail (PLUGBOARD_IS_SIGN_IN_STEPS (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  name = g_file_get_parse_name (file);
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE, G_FILE_QUERY_INFO_NONE, NULL, &local_error);
  if (info != NULL && g_file_info_get_size (info) > MAX_TRACE_FILE_BYTES)
    {
      /* Translators: %s is a file, %d a number of MiB */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("“%s” is larger than %d MiB, too large for a trace"), name,
                   MAX_TRACE_FILE_BYTES / (1024 * 1024));
      return FALSE;
    }
  if (info == NULL || !g_file_load_contents (file, NULL, &contents, &length, NULL, &local_error))
    {
      /* Translators: the first %s is a file, the second why it cannot be read */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Cannot read “%s”: %s"), name,
                   local_error->message);
      return FALSE;
    }

  entries = mcp_trace_read_jsonl (contents, length, &servers, &local_error);
  if (entries == NULL)
    {
      /* Translators: the first %s is a file, the second what is wrong in it (with its line) */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("“%s” is not a trace: %s"), name,
                   local_error->message);
      return FALSE;
    }

  steps = mcp_sign_in_steps_new_replay (entries);
  plugboard_sign_in_steps_set_steps (self, steps);
  adw_window_title_set_subtitle (self->window_title, name);
  gtk_revealer_set_reveal_child (self->error_revealer, FALSE);
  return TRUE;
}

static void
on_chooser_response_cb (PlugboardSignInSteps *self,
                        int                   response,
                        GtkFileChooserNative *chooser)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (chooser));
  if (self->chooser == chooser)
    g_clear_object (&self->chooser);

  if (file != NULL && !plugboard_sign_in_steps_load_file (self, file, &error))
    {
      gtk_label_set_text (self->error_label, error->message);
      gtk_revealer_set_reveal_child (self->error_revealer, TRUE);
    }
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  PlugboardSignInSteps *self = PLUGBOARD_SIGN_IN_STEPS (widget);
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  if (self->chooser != NULL)
    {
      gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
      return;
    }

  self->chooser = gtk_file_chooser_native_new (_("Open Trace File"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"), _("_Cancel"));
  gtk_file_filter_set_name (filter, _("Traces (JSON Lines)"));
  gtk_file_filter_add_pattern (filter, "*.jsonl");
  gtk_file_filter_add_pattern (filter, "*.json");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (on_chooser_response_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
plugboard_sign_in_steps_dispose (GObject *object)
{
  PlugboardSignInSteps *self = PLUGBOARD_SIGN_IN_STEPS (object);

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  if (self->steps != NULL)
    g_signal_handlers_disconnect_by_func (self->steps, on_items_changed_cb, self);
  g_clear_object (&self->steps);
  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_SIGN_IN_STEPS);

  G_OBJECT_CLASS (plugboard_sign_in_steps_parent_class)->dispose (object);
}

static void
plugboard_sign_in_steps_class_init (PlugboardSignInStepsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = plugboard_sign_in_steps_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/plugboard/Plugboard/plugboard-sign-in-steps.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardSignInSteps, window_title);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSignInSteps, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSignInSteps, error_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSignInSteps, stack);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSignInSteps, list);

  gtk_widget_class_install_action (widget_class, "sign-in-steps.open", NULL, open_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "sign-in-steps.open", NULL);
}

static void
plugboard_sign_in_steps_init (PlugboardSignInSteps *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

PlugboardSignInSteps *
plugboard_sign_in_steps_new (GtkWindow  *parent,
                             const char *server_name,
                             McpTrace   *trace)
{
  PlugboardSignInSteps *self;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (trace == NULL || MCP_IS_TRACE (trace), NULL);

  self = g_object_new (PLUGBOARD_TYPE_SIGN_IN_STEPS, "transient-for", parent, NULL);
  if (server_name != NULL)
    adw_window_title_set_subtitle (self->window_title, server_name);
  if (trace != NULL)
    {
      g_autoptr(McpSignInSteps) steps = mcp_sign_in_steps_new (trace, 0);

      plugboard_sign_in_steps_set_steps (self, steps);
    }
  else
    update_stack (self);
  return self;
}
