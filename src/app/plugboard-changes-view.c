/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-changes-view"

#include "config.h"

#include "plugboard-changes-view.h"

#include <glib/gi18n.h>

#include "mcp-capability-history.h"

struct _PlugboardChangesView
{
  AdwBin        parent_instance;

  /* Template widgets */
  GtkDropDown  *span_dropdown;
  GtkLabel     *error_label;
  GtkListBox   *flagged_list;
  GtkListBox   *change_list;
  AdwStatusPage *empty_page;

  /* Owned references */
  McpProject   *project;
  char         *name;

  guint         n_flagged;
};

G_DEFINE_FINAL_TYPE (PlugboardChangesView, plugboard_changes_view, ADW_TYPE_BIN)

enum {
  SPAN_LAST_CONNECTION,
  SPAN_WEEK,
  SPAN_MONTH,
  SPAN_ALL,
};

static const char *
kind_label (McpCapabilityKind kind)
{
  switch (kind)
    {
    case MCP_CAPABILITY_KIND_TOOL:
      return _("Tool");
    case MCP_CAPABILITY_KIND_RESOURCE:
      return _("Resource");
    case MCP_CAPABILITY_KIND_TEMPLATE:
      return _("Resource template");
    case MCP_CAPABILITY_KIND_PROMPT:
      return _("Prompt");
    case MCP_CAPABILITY_KIND_INSTRUCTIONS:
    case MCP_N_CAPABILITY_KINDS:
    default:
      return _("Instructions");
    }
}

static const char *
change_label (McpCapabilityChangeType change)
{
  switch (change)
    {
    case MCP_CAPABILITY_ADDED:
      return _("Added");
    case MCP_CAPABILITY_REMOVED:
      return _("Removed");
    case MCP_CAPABILITY_CHANGED:
    default:
      return _("Changed");
    }
}

static const char *
change_icon (McpCapabilityChangeType change)
{
  switch (change)
    {
    case MCP_CAPABILITY_ADDED:
      return "list-add-symbolic";
    case MCP_CAPABILITY_REMOVED:
      return "list-remove-symbolic";
    case MCP_CAPABILITY_CHANGED:
    default:
      return "document-edit-symbolic";
    }
}

static GtkWidget *
diff_line (const char *text,
           const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "monospace");
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

/* The description's diff, removed lines red and added ones green, then
 * the schema's differences; NULL when there is neither. */
static GtkWidget *
make_diff (McpCapabilityChange *change)
{
  GtkWidget *box;

  if (change->description_diff == NULL && change->schema_diff == NULL)
    return NULL;

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_widget_add_css_class (box, "plugboard-diff");
  if (change->description_diff != NULL)
    {
      g_auto(GStrv) lines = g_strsplit (change->description_diff, "\n", -1);
      GtkWidget *title = gtk_label_new (_("Description"));

      gtk_label_set_xalign (GTK_LABEL (title), 0);
      gtk_widget_add_css_class (title, "heading");
      gtk_box_append (GTK_BOX (box), title);
      for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
        {
          g_autofree char *text = g_strdup_printf ("%c %s", lines[i][0], lines[i] + 1);

          gtk_box_append (GTK_BOX (box),
                          diff_line (text, lines[i][0] == '-' ? "plugboard-diff-removed"
                                           : lines[i][0] == '+' ? "plugboard-diff-added" : NULL));
        }
    }
  if (change->schema_diff != NULL)
    {
      GtkWidget *title = gtk_label_new (_("Schema"));

      gtk_label_set_xalign (GTK_LABEL (title), 0);
      gtk_widget_add_css_class (title, "heading");
      gtk_widget_set_margin_top (title, change->description_diff != NULL ? 6 : 0);
      gtk_box_append (GTK_BOX (box), title);
      for (guint i = 0; change->schema_diff[i] != NULL; i++)
        gtk_box_append (GTK_BOX (box),
                        diff_line (change->schema_diff[i],
                                   g_str_has_prefix (change->schema_diff[i], "removed ") ? "plugboard-diff-removed"
                                   : g_str_has_prefix (change->schema_diff[i], "added ") ? "plugboard-diff-added"
                                   : NULL));
    }
  return box;
}

static GtkWidget *
make_change_row (McpCapabilityChange *change)
{
  GtkWidget *diff = make_diff (change);
  g_autofree char *time = g_date_time_format (change->time, "%x %H:%M");
  g_autofree char *subtitle = NULL;
  GtkWidget *icon = gtk_image_new_from_icon_name (change_icon (change->change));
  GtkWidget *row;

  /* Translators: "Tool · Changed · 12/07/26 01:26" */
  subtitle = g_strdup_printf (_("%s · %s · %s"), kind_label (change->kind), change_label (change->change), time);
  /* a change with a diff expands into it; an added or removed item is one line */
  if (diff != NULL)
    {
      row = adw_expander_row_new ();
      adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (row), subtitle);
      adw_expander_row_add_prefix (ADW_EXPANDER_ROW (row), icon);
      gtk_widget_set_margin_top (diff, 9);
      gtk_widget_set_margin_bottom (diff, 9);
      gtk_widget_set_margin_start (diff, 12);
      gtk_widget_set_margin_end (diff, 12);
      adw_expander_row_add_row (ADW_EXPANDER_ROW (row), diff);
    }
  else
    {
      row = adw_action_row_new ();
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
    }
  /* the names are the server's: never markup */
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row),
                                 change->kind == MCP_CAPABILITY_KIND_INSTRUCTIONS ? _("Instructions")
                                                                                  : change->name);
  if (change->flagged)
    {
      GtkWidget *warning = gtk_image_new_from_icon_name ("dialog-warning-symbolic");

      gtk_widget_add_css_class (warning, "warning");
      gtk_widget_set_tooltip_text (warning, _("Changed since you allowed it — allow rule suspended"));
      if (ADW_IS_EXPANDER_ROW (row))
        adw_expander_row_add_action (ADW_EXPANDER_ROW (row), warning);
      else
        adw_action_row_add_suffix (ADW_ACTION_ROW (row), warning);
    }

  return row;
}

static void
on_review_response_cb (AdwMessageDialog     *dialog,
                       const char           *response,
                       PlugboardChangesView *self)
{
  McpCapabilityChange *change = g_object_get_data (G_OBJECT (dialog), "change");
  g_autoptr(GError) error = NULL;

  if (!g_str_equal (response, "confirm") || self->project == NULL || self->name == NULL)
    return;

  if (!mcp_project_confirm_tool (self->project, self->name, change->name, &error))
    {
      gtk_label_set_text (self->error_label, error->message);
      gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
      return;
    }
  plugboard_changes_view_refresh (self);
}

static void
on_review_clicked_cb (GtkButton            *button,
                      PlugboardChangesView *self)
{
  McpCapabilityChange *change = g_object_get_data (G_OBJECT (button), "change");
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *dialog;
  GtkWidget *diff;
  GtkWidget *scroller;

  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                   NULL, NULL);
  {
    /* Translators: %s is a tool's name */
    g_autofree char *heading = g_strdup_printf (_("Review the Change of “%s”"), change->name);

    adw_message_dialog_set_heading (ADW_MESSAGE_DIALOG (dialog), heading);
  }
  adw_message_dialog_set_body (ADW_MESSAGE_DIALOG (dialog),
                               _("Its description or schema changed since you allowed it, so its "
                                 "allow rule is suspended. Confirm only if the tool still does what "
                                 "you allowed it to do."));
  diff = make_diff (change);
  if (diff != NULL)
    {
      scroller = gtk_scrolled_window_new ();
      gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
      gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
      gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), 320);
      gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), diff);
      adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), scroller);
    }
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "confirm", _("C_onfirm"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "confirm",
                                              ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "change", mcp_capability_change_ref (change),
                          (GDestroyNotify) mcp_capability_change_unref);
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_review_response_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* The warning and the tool's name above the button, so that both read
 * well in a narrow window too. */
static GtkWidget *
make_flagged_row (PlugboardChangesView *self,
                  McpCapabilityChange  *change)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");
  GtkWidget *title = gtk_label_new (_("Changed since you allowed it — allow rule suspended"));
  GtkWidget *name = gtk_label_new (change->name);
  GtkWidget *button = gtk_button_new_with_mnemonic (_("_Review and Confirm…"));

  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_widget_set_margin_top (box, 9);
  gtk_widget_set_margin_bottom (box, 9);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_add_css_class (icon, "warning");
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_wrap (GTK_LABEL (title), TRUE);
  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_wrap (GTK_LABEL (name), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (name), PANGO_WRAP_WORD_CHAR);
  gtk_widget_add_css_class (name, "dim-label");
  gtk_widget_add_css_class (name, "caption");
  gtk_widget_set_hexpand (texts, TRUE);
  gtk_box_append (GTK_BOX (texts), title);
  gtk_box_append (GTK_BOX (texts), name);
  gtk_box_append (GTK_BOX (line), icon);
  gtk_box_append (GTK_BOX (line), texts);
  gtk_box_append (GTK_BOX (box), line);
  gtk_widget_set_halign (button, GTK_ALIGN_END);
  gtk_box_append (GTK_BOX (box), button);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);

  g_object_set_data_full (G_OBJECT (button), "change", mcp_capability_change_ref (change),
                          (GDestroyNotify) mcp_capability_change_unref);
  g_signal_connect_object (button, "clicked", G_CALLBACK (on_review_clicked_cb), self, 0);
  return row;
}

static void
clear_list (GtkListBox *list)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, child);
}

void
plugboard_changes_view_refresh (PlugboardChangesView *self)
{
  g_autoptr(GPtrArray) changes = NULL;
  g_autoptr(GDateTime) since = NULL;
  g_autoptr(GError) error = NULL;
  guint span;

  g_return_if_fail (PLUGBOARD_IS_CHANGES_VIEW (self));

  clear_list (self->flagged_list);
  clear_list (self->change_list);
  self->n_flagged = 0;
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);

  span = gtk_drop_down_get_selected (self->span_dropdown);
  if (span != SPAN_LAST_CONNECTION)
    {
      g_autoptr(GDateTime) now = g_date_time_new_now_utc ();

      since = span == SPAN_WEEK ? g_date_time_add_days (now, -7)
              : span == SPAN_MONTH ? g_date_time_add_days (now, -30)
              : g_date_time_new_utc (1970, 1, 1, 0, 0, 0);
    }

  if (self->project != NULL && self->name != NULL)
    changes = mcp_project_list_changes (self->project, self->name, since, &error);
  if (error != NULL)
    {
      gtk_label_set_text (self->error_label, error->message);
      gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
    }

  for (guint i = 0; changes != NULL && i < changes->len; i++)
    {
      McpCapabilityChange *change = g_ptr_array_index (changes, i);

      if (change->flagged)
        {
          gtk_list_box_append (self->flagged_list, make_flagged_row (self, change));
          self->n_flagged++;
        }
      gtk_list_box_append (self->change_list, make_change_row (change));
    }

  gtk_widget_set_visible (GTK_WIDGET (self->flagged_list), self->n_flagged > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->change_list), changes != NULL && changes->len > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->empty_page), changes == NULL || changes->len == 0);
  adw_status_page_set_description (self->empty_page,
                                   span == SPAN_LAST_CONNECTION
                                   ? _("The server offers what it offered at the last connection.")
                                   : _("Nothing changed in this time."));
}

static void
on_span_changed_cb (PlugboardChangesView *self)
{
  plugboard_changes_view_refresh (self);
}

void
plugboard_changes_view_set_server (PlugboardChangesView *self,
                                   McpProject           *project,
                                   const char           *name)
{
  g_return_if_fail (PLUGBOARD_IS_CHANGES_VIEW (self));
  g_return_if_fail (!project || MCP_IS_PROJECT (project));

  g_set_object (&self->project, project);
  g_free (self->name);
  self->name = g_strdup (name);
  plugboard_changes_view_refresh (self);
}

guint
plugboard_changes_view_get_n_flagged (PlugboardChangesView *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_CHANGES_VIEW (self), 0);

  return self->n_flagged;
}

GtkWidget *
plugboard_changes_view_new (void)
{
  return g_object_new (PLUGBOARD_TYPE_CHANGES_VIEW, NULL);
}

static void
plugboard_changes_view_dispose (GObject *object)
{
  PlugboardChangesView *self = PLUGBOARD_CHANGES_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_CHANGES_VIEW);
  g_clear_object (&self->project);

  G_OBJECT_CLASS (plugboard_changes_view_parent_class)->dispose (object);
}

static void
plugboard_changes_view_finalize (GObject *object)
{
  PlugboardChangesView *self = PLUGBOARD_CHANGES_VIEW (object);

  g_free (self->name);

  G_OBJECT_CLASS (plugboard_changes_view_parent_class)->finalize (object);
}

static void
plugboard_changes_view_class_init (PlugboardChangesViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = plugboard_changes_view_dispose;
  object_class->finalize = plugboard_changes_view_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, "/org/plugboard/Plugboard/plugboard-changes-view.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardChangesView, span_dropdown);
  gtk_widget_class_bind_template_child (widget_class, PlugboardChangesView, error_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardChangesView, flagged_list);
  gtk_widget_class_bind_template_child (widget_class, PlugboardChangesView, change_list);
  gtk_widget_class_bind_template_child (widget_class, PlugboardChangesView, empty_page);
  gtk_widget_class_bind_template_callback (widget_class, on_span_changed_cb);
}

static void
plugboard_changes_view_init (PlugboardChangesView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  plugboard_changes_view_refresh (self);
}
