/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-copy-dialog"

/* PlugboardCopyDialog: choose the targets, preview each file's change,
 * then copy. */

#include "config.h"

#include "plugboard-copy-dialog.h"

#include <glib/gi18n.h>

#include "plugboard-common.h"

struct _PlugboardCopyDialog
{
  AdwWindow       parent_instance;

  /* Template widgets */
  AdwWindowTitle *window_title;
  GtkWidget      *cancel_button;
  GtkWidget      *back_button;
  GtkWidget      *copy_button;
  GtkWidget      *preview_button;
  GtkStack       *stack;
  GtkListBox     *target_list;
  AdwComboRow    *scope_row;
  GtkSwitch      *replace_switch;
  GtkLabel       *error_label;
  GtkSpinner     *spinner;
  GtkBox         *preview_box;
  AdwStatusPage  *done_page;

  /* Owned references */
  GtkCheckButton *checks[MCP_CLIENT_KIND_COUNT];
  McpClientKind   from;
  McpConfigScope  from_scope;
  char          **names;
  char           *plugboard_dir;
  char           *project_dir;
  GPtrArray      *plan;
  GCancellable   *cancellable;
};

G_DEFINE_FINAL_TYPE (PlugboardCopyDialog, plugboard_copy_dialog, ADW_TYPE_WINDOW)

enum {
  SIGNAL_COPIED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
update_preview_button (PlugboardCopyDialog *self)
{
  gboolean any = FALSE;

  for (guint kind = 0; kind < MCP_CLIENT_KIND_COUNT; kind++)
    if (self->checks[kind] != NULL && gtk_check_button_get_active (self->checks[kind]))
      any = TRUE;

  gtk_widget_set_sensitive (self->preview_button, any);
}

static void
show_page (PlugboardCopyDialog *self,
           const char          *page)
{
  gboolean choose = g_str_equal (page, "choose");
  gboolean preview = g_str_equal (page, "preview");

  gtk_stack_set_visible_child_name (self->stack, page);
  gtk_spinner_set_spinning (self->spinner, g_str_equal (page, "working"));
  gtk_widget_set_visible (self->preview_button, choose);
  gtk_widget_set_visible (self->copy_button, preview);
  gtk_widget_set_visible (self->back_button, preview);
}

static void
add_target_row (PlugboardCopyDialog *self,
                McpClientKind        kind,
                gboolean             present)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *check = gtk_check_button_new ();

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), mcp_client_kind_get_display_name (kind));
  if (!present)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), _("Not found on this computer"));
  gtk_widget_set_name (row, mcp_client_kind_to_id (kind));
  gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
  gtk_accessible_update_property (GTK_ACCESSIBLE (check),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, mcp_client_kind_get_display_name (kind),
                                  -1);
  g_signal_connect_object (check, "toggled", G_CALLBACK (update_preview_button), self,
                           G_CONNECT_SWAPPED);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), check);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), check);
  gtk_list_box_append (self->target_list, row);
  self->checks[kind] = GTK_CHECK_BUTTON (check);
}

void
plugboard_copy_dialog_set_target (PlugboardCopyDialog *self,
                                  McpClientKind        kind,
                                  gboolean             checked)
{
  g_return_if_fail (PLUGBOARD_IS_COPY_DIALOG (self));
  g_return_if_fail (kind < MCP_CLIENT_KIND_COUNT && self->checks[kind] != NULL);

  gtk_check_button_set_active (self->checks[kind], checked);
}

GPtrArray *
plugboard_copy_dialog_get_plan (PlugboardCopyDialog *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_COPY_DIALOG (self), NULL);

  return self->plan;
}

/* ------------------------------------------------------------------------ */
/* The preview                                                              */

static GtkWidget *
diff_view (const McpCopyTarget *target)
{
  GtkWidget *view = gtk_text_view_new ();
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (view));
  GtkTextTag *added = gtk_text_buffer_create_tag (buffer, "added", "foreground", "#26a269", NULL);
  GtkTextTag *removed = gtk_text_buffer_create_tag (buffer, "removed", "foreground", "#c01c28", NULL);
  GtkTextTag *hunk = gtk_text_buffer_create_tag (buffer, "hunk", "foreground", "#1c71d8", NULL);
  g_auto(GStrv) lines = g_strsplit (target->diff, "\n", -1);
  g_autofree char *label = g_strdup_printf (_("Change to %s"), target->path);
  GtkTextIter end;
  GtkWidget *frame;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      GtkTextTag *tag = NULL;

      if (line[0] == '\0' && lines[i + 1] == NULL)
        break;
      if (g_str_has_prefix (line, "@@"))
        tag = hunk;
      else if (line[0] == '+' && !g_str_has_prefix (line, "+++"))
        tag = added;
      else if (line[0] == '-' && !g_str_has_prefix (line, "---"))
        tag = removed;

      gtk_text_buffer_get_end_iter (buffer, &end);
      if (tag != NULL)
        gtk_text_buffer_insert_with_tags (buffer, &end, line, -1, tag, NULL);
      else
        gtk_text_buffer_insert (buffer, &end, line, -1);
      gtk_text_buffer_get_end_iter (buffer, &end);
      gtk_text_buffer_insert (buffer, &end, "\n", 1);
    }

  gtk_text_view_set_monospace (GTK_TEXT_VIEW (view), TRUE);
  gtk_text_view_set_editable (GTK_TEXT_VIEW (view), FALSE);
  gtk_text_view_set_cursor_visible (GTK_TEXT_VIEW (view), FALSE);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (view), GTK_WRAP_CHAR);
  gtk_text_view_set_left_margin (GTK_TEXT_VIEW (view), 12);
  gtk_text_view_set_right_margin (GTK_TEXT_VIEW (view), 12);
  gtk_text_view_set_top_margin (GTK_TEXT_VIEW (view), 9);
  gtk_text_view_set_bottom_margin (GTK_TEXT_VIEW (view), 9);
  gtk_widget_set_name (view, mcp_client_kind_to_id (target->kind));
  gtk_accessible_update_property (GTK_ACCESSIBLE (view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label,
                                  -1);
  gtk_widget_add_css_class (view, "copy-diff");

  frame = gtk_frame_new (NULL);
  gtk_frame_set_child (GTK_FRAME (frame), view);
  return frame;
}

/* An error is for copying into a report; a selectable note would take the
 * focus (and select itself) as the preview opens. */
static GtkWidget *
message_label (const char *text,
               const char *css_class)
{
  return plugboard_message_label_new (text, css_class, g_strcmp0 (css_class, "error") == 0);
}

static GtkWidget *
target_group (const McpCopyTarget *target)
{
  g_autofree char *title = NULL;
  g_autofree char *path = plugboard_dup_display_path (target->path);
  GtkWidget *group = adw_preferences_group_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);

  /* Translators: an MCP client's name and a scope ("VS Code — User") */
  title = g_strdup_printf (_("%s — %s"), mcp_client_kind_get_display_name (target->kind),
                           plugboard_scope_label (target->scope));
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), title);
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group), path);

  if (target->error != NULL)
    gtk_box_append (GTK_BOX (box), message_label (target->error->message, "error"));

  for (guint i = 0; target->notes != NULL && i < target->notes->len; i++)
    {
      g_autofree char *note = g_strdup_printf ("• %s", (const char *) g_ptr_array_index (target->notes, i));

      gtk_box_append (GTK_BOX (box), message_label (note, "dim-label"));
    }

  if (target->diff != NULL)
    gtk_box_append (GTK_BOX (box), diff_view (target));
  else if (target->error == NULL)
    gtk_box_append (GTK_BOX (box), message_label (_("This file does not change."), "dim-label"));

  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), box);
  return group;
}

static void
show_plan (PlugboardCopyDialog *self)
{
  GtkWidget *child;
  gboolean any = FALSE;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->preview_box))) != NULL)
    gtk_box_remove (self->preview_box, child);

  for (guint i = 0; i < self->plan->len; i++)
    {
      const McpCopyTarget *target = g_ptr_array_index (self->plan, i);

      gtk_box_append (self->preview_box, target_group (target));
      if (target->after != NULL && target->error == NULL)
        any = TRUE;
    }

  gtk_widget_set_sensitive (self->copy_button, any);
  show_page (self, "preview");
  if (any)
    gtk_widget_grab_focus (self->copy_button);
}

static void
show_error (PlugboardCopyDialog *self,
            const GError        *error)
{
  gtk_label_set_text (self->error_label, error->message);
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
  show_page (self, "choose");
}

static void
on_planned_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(PlugboardCopyDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) plan = mcp_client_copy_plan_finish (result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (plan == NULL)
    {
      show_error (self, error);
      return;
    }

  g_clear_pointer (&self->plan, g_ptr_array_unref);
  self->plan = g_steal_pointer (&plan);
  show_plan (self);
}

static void
on_preview_clicked_cb (PlugboardCopyDialog *self)
{
  McpClientKind targets[MCP_CLIENT_KIND_COUNT];
  guint n_targets = 0;
  McpCopyFlags flags = MCP_COPY_FLAGS_NONE;

  for (guint kind = 0; kind < MCP_CLIENT_KIND_COUNT; kind++)
    if (self->checks[kind] != NULL && gtk_check_button_get_active (self->checks[kind]))
      targets[n_targets++] = kind;
  if (n_targets == 0)
    return;

  if (gtk_switch_get_active (self->replace_switch))
    flags |= MCP_COPY_FLAGS_REPLACE;

  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
  show_page (self, "working");
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  mcp_client_copy_plan_async (self->from, self->from_scope,
                              (const char * const *) self->names,
                              targets, n_targets,
                              (McpConfigScope) adw_combo_row_get_selected (self->scope_row),
                              flags, NULL, NULL, self->plugboard_dir, self->project_dir,
                              self->cancellable, on_planned_cb, g_object_ref (self));
}

static void
on_applied_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(PlugboardCopyDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  gboolean written = FALSE;

  if (mcp_client_copy_apply_finish (result, &error))
    {
      g_autofree char *description = NULL;
      guint n = 0;

      for (guint i = 0; i < self->plan->len; i++)
        if (((McpCopyTarget *) g_ptr_array_index (self->plan, i))->after != NULL)
          n++;
      description = g_strdup_printf (ngettext ("%u file was changed.",
                                                  "%u files were changed.", n), n);
      adw_status_page_set_description (self->done_page, description);
      show_page (self, "done");
      gtk_button_set_label (GTK_BUTTON (self->cancel_button), _("_Close"));
      g_signal_emit (self, signals[SIGNAL_COPIED], 0);
      return;
    }

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  /* Each target's error says what happened to its file; the ones without
   * were written. */
  for (guint i = 0; i < self->plan->len; i++)
    {
      McpCopyTarget *target = g_ptr_array_index (self->plan, i);

      if (target->after != NULL && target->error == NULL)
        written = TRUE;
    }
  show_plan (self);
  gtk_widget_set_sensitive (self->copy_button, FALSE);
  if (written)
    g_signal_emit (self, signals[SIGNAL_COPIED], 0);
}

static void
on_copy_clicked_cb (PlugboardCopyDialog *self)
{
  if (self->plan == NULL)
    return;

  show_page (self, "working");
  mcp_client_copy_apply_async (self->plan, self->cancellable, on_applied_cb, g_object_ref (self));
}

static void
on_back_clicked_cb (PlugboardCopyDialog *self)
{
  g_clear_pointer (&self->plan, g_ptr_array_unref);
  show_page (self, "choose");
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static void
plugboard_copy_dialog_dispose (GObject *object)
{
  PlugboardCopyDialog *self = PLUGBOARD_COPY_DIALOG (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_COPY_DIALOG);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->plan, g_ptr_array_unref);

  G_OBJECT_CLASS (plugboard_copy_dialog_parent_class)->dispose (object);
}

static void
plugboard_copy_dialog_finalize (GObject *object)
{
  PlugboardCopyDialog *self = PLUGBOARD_COPY_DIALOG (object);

  g_strfreev (self->names);
  g_free (self->plugboard_dir);
  g_free (self->project_dir);

  G_OBJECT_CLASS (plugboard_copy_dialog_parent_class)->finalize (object);
}

static void
plugboard_copy_dialog_class_init (PlugboardCopyDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = plugboard_copy_dialog_dispose;
  object_class->finalize = plugboard_copy_dialog_finalize;

  signals[SIGNAL_COPIED] =
    g_signal_new ("copied", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/plugboard/Plugboard/plugboard-copy-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardCopyDialog, window_title);
  gtk_widget_class_bind_template_child (widget_class, PlugboardCopyDialog, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardCopyDialog, back_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardCopyDialog, copy_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardCopyDialog, preview_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardCopyDialog, stack);
  gtk_widget_class_bind_template_child (widget_class, PlugboardCopyDialog, target_list);
  gtk_widget_class_bind_template_child (widget_class, PlugboardCopyDialog, scope_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardCopyDialog, replace_switch);
  gtk_widget_class_bind_template_child (widget_class, PlugboardCopyDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardCopyDialog, spinner);
  gtk_widget_class_bind_template_child (widget_class, PlugboardCopyDialog, preview_box);
  gtk_widget_class_bind_template_child (widget_class, PlugboardCopyDialog, done_page);
  gtk_widget_class_bind_template_callback (widget_class, on_preview_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_copy_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_back_clicked_cb);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
plugboard_copy_dialog_init (PlugboardCopyDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

PlugboardCopyDialog *
plugboard_copy_dialog_new (GtkWindow          *parent,
                           McpClientKind       from,
                           McpConfigScope      from_scope,
                           const char * const *names,
                           const char         *plugboard_dir,
                           const char         *project_dir,
                           guint               present_clients)
{
  PlugboardCopyDialog *self;
  g_autofree char *subtitle = NULL;

  g_return_val_if_fail (from < MCP_CLIENT_KIND_COUNT, NULL);

  self = g_object_new (PLUGBOARD_TYPE_COPY_DIALOG,
                       "transient-for", parent,
                       NULL);
  self->from = from;
  self->from_scope = from_scope;
  self->names = g_strdupv ((char **) names);
  self->plugboard_dir = g_strdup (plugboard_dir);
  self->project_dir = g_strdup (project_dir);

  if (names != NULL && names[0] != NULL && names[1] == NULL)
    /* Translators: a server's name and the MCP client it is copied from */
    subtitle = g_strdup_printf (_("“%s” from %s"), names[0], mcp_client_kind_get_display_name (from));
  else
    /* Translators: an MCP client's name and a scope ("Claude Code, User") */
    subtitle = g_strdup_printf (_("Every server of %s, %s"), mcp_client_kind_get_display_name (from),
                                plugboard_scope_label (from_scope));
  adw_window_title_set_subtitle (self->window_title, subtitle);

  /* the clients found first, then the others (a file can be made for
   * a client installed later) */
  for (guint pass = 0; pass < 2; pass++)
    for (guint kind = 0; kind < MCP_CLIENT_KIND_COUNT; kind++)
      {
        gboolean present = (present_clients & (1u << kind)) != 0;

        if (kind != from && present == (pass == 0))
          add_target_row (self, kind, present);
      }

  adw_combo_row_set_selected (self->scope_row,
                              project_dir != NULL ? from_scope : MCP_CONFIG_SCOPE_USER);
  show_page (self, "choose");

  return self;
}
