/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-doctor-dialog"

#include "config.h"

#include "plugboard-doctor-dialog.h"

#include <glib/gi18n.h>

#include "plugboard-common.h"
#include "plugboard-sign-in-steps.h"

struct _PlugboardDoctorDialog
{
  AdwWindow         parent_instance;

  /* Template widgets */
  AdwWindowTitle   *window_title;
  GtkListBox       *checks_list;
  GtkLabel         *summary_label;
  GtkButton        *run_again_button;

  /* Owned references */
  McpServerConnection *connection;
  McpDoctor        *doctor;
  GCancellable     *cancellable;
};

G_DEFINE_FINAL_TYPE (PlugboardDoctorDialog, plugboard_doctor_dialog, ADW_TYPE_WINDOW)

static GtkWidget *
status_widget (McpDoctorStatus status)
{
  GtkWidget *image;
  const char *icon = NULL;
  const char *css = NULL;
  const char *label = NULL;

  switch (status)
    {
    case MCP_DOCTOR_STATUS_RUNNING:
      {
        GtkWidget *spinner = gtk_spinner_new ();

        gtk_spinner_start (GTK_SPINNER (spinner));
        gtk_accessible_update_property (GTK_ACCESSIBLE (spinner), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                        _("Checking"), -1);
        return spinner;
      }
    case MCP_DOCTOR_STATUS_PASS:
      icon = "emblem-ok-symbolic";
      css = "success";
      label = _("Passed");
      break;
    case MCP_DOCTOR_STATUS_WARN:
      icon = "dialog-warning-symbolic";
      css = "warning";
      label = _("Warning");
      break;
    case MCP_DOCTOR_STATUS_FAIL:
      icon = "dialog-error-symbolic";
      css = "error";
      label = _("Failed");
      break;
    case MCP_DOCTOR_STATUS_SKIPPED:
    default:
      icon = "action-unavailable-symbolic";
      css = "dim-label";
      label = _("Not checked");
      break;
    }

  image = gtk_image_new_from_icon_name (icon);
  gtk_widget_add_css_class (image, css);
  gtk_accessible_update_property (GTK_ACCESSIBLE (image), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  return image;
}


/* The sign-in debugger of the server: each step of its last sign-in, with
 * its requests and responses, from the server's trace. */
static void
on_sign_in_steps_clicked_cb (PlugboardDoctorDialog *self)
{
  PlugboardSignInSteps *steps;

  steps = plugboard_sign_in_steps_new (GTK_WINDOW (self), mcp_server_connection_get_name (self->connection),
                                       mcp_server_connection_get_trace (self->connection));
  gtk_window_present (GTK_WINDOW (steps));
}

static GtkWidget *
create_row_cb (gpointer item,
               gpointer user_data)
{
  PlugboardDoctorDialog *self = user_data;
  McpDoctorCheck *check = item;
  McpDoctorStatus status = mcp_doctor_check_get_status (check);
  const char *seen = mcp_doctor_check_get_seen (check);
  const char *fix = mcp_doctor_check_get_fix (check);
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *status_image = status_widget (status);
  GtkWidget *title = gtk_label_new (mcp_doctor_check_get_title (check));

  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_widget_set_margin_top (box, 9);
  gtk_widget_set_margin_bottom (box, 9);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_valign (status_image, GTK_ALIGN_START);
  gtk_box_append (GTK_BOX (box), status_image);

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_wrap (GTK_LABEL (title), TRUE);
  gtk_widget_add_css_class (title, "heading");
  gtk_box_append (GTK_BOX (texts), title);
  if (seen != NULL && seen[0] != '\0')
    gtk_box_append (GTK_BOX (texts),
                    plugboard_message_label_new (seen, status == MCP_DOCTOR_STATUS_SKIPPED ? "dim-label" : NULL, TRUE));
  if (fix != NULL && fix[0] != '\0')
    {
      /* Translators: before what to do about a check that did not pass */
      g_autofree char *text = g_strdup_printf (_("Fix: %s"), fix);
      GtkWidget *label = plugboard_message_label_new (text, "plugboard-doctor-fix", TRUE);

      gtk_box_append (GTK_BOX (texts), label);
    }
  if (g_strcmp0 (mcp_doctor_check_get_id (check), "sign-in") == 0 &&
      status != MCP_DOCTOR_STATUS_RUNNING && status != MCP_DOCTOR_STATUS_SKIPPED)
    {
      GtkWidget *button = gtk_button_new_with_mnemonic (_("Sign-in _Steps…"));

      gtk_widget_set_halign (button, GTK_ALIGN_START);
      gtk_widget_set_tooltip_text (button, _("Each step of the server's last sign-in, with its requests and responses"));
      gtk_widget_set_name (button, "sign-in-steps-button");
      g_signal_connect_object (button, "clicked", G_CALLBACK (on_sign_in_steps_clicked_cb), self,
                               G_CONNECT_SWAPPED);
      gtk_box_append (GTK_BOX (texts), button);
    }
  gtk_widget_set_hexpand (texts, TRUE);
  gtk_box_append (GTK_BOX (box), texts);

  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  return row;
}

static void
update_summary (PlugboardDoctorDialog *self)
{
  gboolean running = mcp_doctor_get_running (self->doctor);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "doctor.run-again", !running);
  if (running)
    gtk_label_set_text (self->summary_label, _("Checking, one step after another…"));
  else if (mcp_doctor_has_failure (self->doctor))
    gtk_label_set_text (self->summary_label,
                        _("A check failed: what it saw and how to fix it are below."));
  else
    gtk_label_set_text (self->summary_label, _("No check failed."));
}

static void
on_run_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!mcp_doctor_run_finish (MCP_DOCTOR (object), result, &error) &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  /* The dialog listens to "running" for the rest. */
}

static void
run (PlugboardDoctorDialog *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  mcp_doctor_run_async (self->doctor, self->cancellable, on_run_cb, NULL);
  update_summary (self);
}

static void
run_again_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  run (PLUGBOARD_DOCTOR_DIALOG (widget));
}

static void
copy_report_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  PlugboardDoctorDialog *self = PLUGBOARD_DOCTOR_DIALOG (widget);
  g_autofree char *report = mcp_doctor_dup_report (self->doctor);
  AdwToast *toast;

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), report);
  toast = adw_toast_new (_("Report copied"));
  adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (adw_window_get_content (ADW_WINDOW (self))), toast);
}

static void
plugboard_doctor_dialog_dispose (GObject *object)
{
  PlugboardDoctorDialog *self = PLUGBOARD_DOCTOR_DIALOG (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->doctor != NULL)
    g_signal_handlers_disconnect_by_data (self->doctor, self);
  g_clear_object (&self->doctor);
  g_clear_object (&self->connection);
  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_DOCTOR_DIALOG);

  G_OBJECT_CLASS (plugboard_doctor_dialog_parent_class)->dispose (object);
}

static void
plugboard_doctor_dialog_class_init (PlugboardDoctorDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = plugboard_doctor_dialog_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/plugboard/Plugboard/plugboard-doctor-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardDoctorDialog, window_title);
  gtk_widget_class_bind_template_child (widget_class, PlugboardDoctorDialog, checks_list);
  gtk_widget_class_bind_template_child (widget_class, PlugboardDoctorDialog, summary_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardDoctorDialog, run_again_button);

  gtk_widget_class_install_action (widget_class, "doctor.run-again", NULL, run_again_action);
  gtk_widget_class_install_action (widget_class, "doctor.copy-report", NULL, copy_report_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
plugboard_doctor_dialog_init (PlugboardDoctorDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

PlugboardDoctorDialog *
plugboard_doctor_dialog_new (GtkWindow           *parent,
                             McpServerConnection *connection)
{
  PlugboardDoctorDialog *self;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (connection), NULL);

  self = g_object_new (PLUGBOARD_TYPE_DOCTOR_DIALOG,
                       "transient-for", parent,
                       NULL);
  self->connection = g_object_ref (connection);
  self->doctor = mcp_doctor_new_for_connection (connection);
  adw_window_title_set_subtitle (self->window_title, mcp_server_connection_get_name (connection));
  gtk_list_box_bind_model (self->checks_list, mcp_doctor_get_checks (self->doctor),
                           create_row_cb, self, NULL);
  g_signal_connect_swapped (self->doctor, "notify::running", G_CALLBACK (update_summary), self);
  run (self);
  return self;
}

McpDoctor *
plugboard_doctor_dialog_get_doctor (PlugboardDoctorDialog *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_DOCTOR_DIALOG (self), NULL);

  return self->doctor;
}
