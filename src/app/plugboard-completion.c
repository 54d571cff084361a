/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-completion"

#include "config.h"

#include "plugboard-completion.h"

#include <glib/gi18n.h>

/* The wait before asking the server for completions, so that a word typed
 * quickly makes one request rather than one a letter. */
#define COMPLETION_DELAY_MS 200

typedef struct
{
  GtkWidget                      *editable;  /* the owner, a GtkEditable */
  McpServerConnection            *connection;
  McpCompletionRef                kind;
  char                           *ref;
  char                           *argument;
  PlugboardCompletionContextFunc  context_func;
  gpointer                        context_data;
  guint                           timeout_id;
  guint                           focus_idle_id;
  GCancellable                   *cancellable;
  GtkWidget                      *popover;
  GtkListBox                     *list;
  gboolean                        setting;
} Completion;

static void
completion_free (gpointer data)
{
  Completion *completion = data;

  g_clear_handle_id (&completion->timeout_id, g_source_remove);
  g_clear_handle_id (&completion->focus_idle_id, g_source_remove);
  g_cancellable_cancel (completion->cancellable);
  g_clear_object (&completion->cancellable);
  g_clear_object (&completion->connection);
  g_free (completion->ref);
  g_free (completion->argument);
  g_free (completion);
}

/* The keyboard is in @widget or in one of its children (a GtkEntry's or an
 * AdwEntryRow's is its GtkText). */
static gboolean
has_focus_within (GtkWidget *widget)
{
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

static void
completion_popdown (Completion *completion)
{
  if (completion->popover != NULL)
    gtk_popover_popdown (GTK_POPOVER (completion->popover));
}

static void
on_suggestion_activated_cb (GtkListBox    *list,
                            GtkListBoxRow *row,
                            gpointer       user_data)
{
  Completion *completion = user_data;
  const char *value = g_object_get_data (G_OBJECT (row), "plugboard-value");

  completion->setting = TRUE;
  gtk_editable_set_text (GTK_EDITABLE (completion->editable), value);
  gtk_editable_set_position (GTK_EDITABLE (completion->editable), -1);
  completion->setting = FALSE;
  completion_popdown (completion);
  gtk_widget_grab_focus (completion->editable);
}

static gboolean
on_popover_key_pressed_cb (GtkEventControllerKey *controller,
                           guint                  keyval,
                           guint                  keycode,
                           GdkModifierType        state,
                           gpointer               user_data)
{
  Completion *completion = user_data;

  if (keyval == GDK_KEY_Escape)
    {
      completion_popdown (completion);
      gtk_widget_grab_focus (completion->editable);
      return GDK_EVENT_STOP;
    }

  return GDK_EVENT_PROPAGATE;
}

static void
completion_ensure_popover (Completion *completion)
{
  GtkWidget *scroller;
  GtkEventController *keys;

  if (completion->popover != NULL)
    return;

  completion->popover = gtk_popover_new ();
  /* what tells it from the popovers of the editable's own buttons */
  gtk_widget_add_css_class (completion->popover, "plugboard-completion");
  /* The editable keeps the keyboard while the person types. */
  gtk_popover_set_autohide (GTK_POPOVER (completion->popover), FALSE);
  gtk_popover_set_has_arrow (GTK_POPOVER (completion->popover), FALSE);
  gtk_popover_set_position (GTK_POPOVER (completion->popover), GTK_POS_BOTTOM);
  gtk_widget_set_halign (completion->popover, GTK_ALIGN_START);

  completion->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (completion->list, GTK_SELECTION_BROWSE);
  gtk_widget_add_css_class (GTK_WIDGET (completion->list), "navigation-sidebar");
  gtk_accessible_update_property (GTK_ACCESSIBLE (completion->list),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Suggestions"),
                                  -1);
  g_signal_connect (completion->list, "row-activated",
                    G_CALLBACK (on_suggestion_activated_cb), completion);

  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  /* as wide as the suggestions (the scroller's own width is the least the
   * list needs: every suggestion cut to "…") */
  gtk_scrolled_window_set_propagate_natural_width (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), 240);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (completion->list));
  gtk_popover_set_child (GTK_POPOVER (completion->popover), scroller);

  keys = gtk_event_controller_key_new ();
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_popover_key_pressed_cb), completion);
  gtk_widget_add_controller (completion->popover, keys);

  gtk_widget_set_parent (completion->popover, completion->editable);
}

static void
completion_show (Completion *completion,
                 GStrv       values,
                 gboolean    has_more)
{
  GtkWidget *child;

  if (values == NULL || values[0] == NULL)
    {
      completion_popdown (completion);
      return;
    }

  completion_ensure_popover (completion);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (completion->list))) != NULL)
    gtk_list_box_remove (completion->list, child);

  for (guint i = 0; values[i] != NULL; i++)
    {
      GtkWidget *row = gtk_list_box_row_new ();
      GtkWidget *label = gtk_label_new (values[i]);

      gtk_label_set_xalign (GTK_LABEL (label), 0.0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 48);
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
      g_object_set_data_full (G_OBJECT (row), "plugboard-value", g_strdup (values[i]), g_free);
      gtk_list_box_append (completion->list, row);
    }

  if (has_more)
    {
      GtkWidget *row = gtk_list_box_row_new ();
      GtkWidget *label = gtk_label_new (_("More on the server: type more to narrow"));

      gtk_label_set_xalign (GTK_LABEL (label), 0.0);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_widget_add_css_class (label, "caption");
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
      gtk_list_box_row_set_selectable (GTK_LIST_BOX_ROW (row), FALSE);
      gtk_widget_set_focusable (row, FALSE);
      gtk_list_box_append (completion->list, row);
    }

  gtk_popover_popup (GTK_POPOVER (completion->popover));
}

static void
completion_done_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  Completion *completion;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) values = NULL;
  gboolean has_more = FALSE;

  values = mcp_client_complete_finish (MCP_CLIENT (object), result, &has_more, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  completion = user_data;
  g_clear_object (&completion->cancellable);
  if (error != NULL)
    {
      /* Suggestions are a help, not the task: the entry still works. */
      g_debug ("No completions for %s: %s", completion->argument, error->message);
      completion_popdown (completion);
      return;
    }

  /* Suggestions for the editable the person is in, not for one a program
   * filled in. */
  if (!gtk_widget_get_mapped (completion->editable) ||
      !has_focus_within (completion->editable))
    return;
  completion_show (completion, values, has_more);
}

static gboolean
completion_timeout_cb (gpointer user_data)
{
  Completion *completion = user_data;
  McpClient *client = mcp_server_connection_get_client (completion->connection);
  g_autoptr(JsonObject) context = NULL;

  completion->timeout_id = 0;
  if (client == NULL)
    return G_SOURCE_REMOVE;

  if (completion->context_func != NULL)
    context = completion->context_func (completion->editable, completion->context_data);

  g_cancellable_cancel (completion->cancellable);
  g_clear_object (&completion->cancellable);
  completion->cancellable = g_cancellable_new ();
  mcp_client_complete_async (client, completion->kind, completion->ref, completion->argument,
                             gtk_editable_get_text (GTK_EDITABLE (completion->editable)),
                             context, completion->cancellable, completion_done_cb, completion);

  return G_SOURCE_REMOVE;
}

static void
on_completion_changed_cb (GtkEditable *editable,
                          gpointer     user_data)
{
  Completion *completion = user_data;

  if (completion->setting)
    return;

  g_clear_handle_id (&completion->timeout_id, g_source_remove);
  completion->timeout_id = g_timeout_add (COMPLETION_DELAY_MS, completion_timeout_cb, completion);
}

static gboolean
on_editable_key_pressed_cb (GtkEventControllerKey *controller,
                            guint                  keyval,
                            guint                  keycode,
                            GdkModifierType        state,
                            gpointer               user_data)
{
  Completion *completion = user_data;
  GtkListBoxRow *first;

  if (completion->popover == NULL || !gtk_widget_get_visible (completion->popover))
    return GDK_EVENT_PROPAGATE;

  if (keyval == GDK_KEY_Escape)
    {
      completion_popdown (completion);
      return GDK_EVENT_STOP;
    }

  if (keyval == GDK_KEY_Down || keyval == GDK_KEY_KP_Down)
    {
      first = gtk_list_box_get_row_at_index (completion->list, 0);
      if (first != NULL)
        {
          gtk_list_box_select_row (completion->list, first);
          gtk_widget_grab_focus (GTK_WIDGET (first));
          return GDK_EVENT_STOP;
        }
    }

  return GDK_EVENT_PROPAGATE;
}

static gboolean
focus_left_cb (gpointer user_data)
{
  Completion *completion = user_data;

  completion->focus_idle_id = 0;
  if (completion->popover == NULL ||
      has_focus_within (completion->editable) ||
      has_focus_within (completion->popover))
    return G_SOURCE_REMOVE;

  completion_popdown (completion);
  return G_SOURCE_REMOVE;
}

static void
on_editable_focus_leave_cb (GtkEventControllerFocus *controller,
                            gpointer                 user_data)
{
  Completion *completion = user_data;

  /* Once the focus has landed: in the suggestions, they stay. */
  if (completion->focus_idle_id == 0)
    completion->focus_idle_id = g_idle_add (focus_left_cb, completion);
}

static void
on_editable_destroy_cb (GtkWidget *editable,
                        gpointer   user_data)
{
  Completion *completion = user_data;

  g_clear_handle_id (&completion->timeout_id, g_source_remove);
  g_clear_handle_id (&completion->focus_idle_id, g_source_remove);
  g_cancellable_cancel (completion->cancellable);
  if (completion->popover != NULL)
    {
      gtk_widget_unparent (completion->popover);
      completion->popover = NULL;
      completion->list = NULL;
    }
}

void
plugboard_completion_attach (GtkWidget                      *editable,
                             McpServerConnection            *connection,
                             McpCompletionRef                kind,
                             const char                     *ref,
                             const char                     *argument,
                             PlugboardCompletionContextFunc  context_func,
                             gpointer                        user_data)
{
  Completion *completion;
  GtkEventController *keys;
  GtkEventController *focus;

  g_return_if_fail (GTK_IS_EDITABLE (editable));
  g_return_if_fail (MCP_IS_SERVER_CONNECTION (connection));
  g_return_if_fail (ref != NULL && argument != NULL);

  completion = g_new0 (Completion, 1);
  completion->editable = editable;
  completion->connection = g_object_ref (connection);
  completion->kind = kind;
  completion->ref = g_strdup (ref);
  completion->argument = g_strdup (argument);
  completion->context_func = context_func;
  completion->context_data = user_data;
  g_object_set_data_full (G_OBJECT (editable), "plugboard-completion", completion, completion_free);

  g_signal_connect (editable, "changed", G_CALLBACK (on_completion_changed_cb), completion);
  g_signal_connect (editable, "destroy", G_CALLBACK (on_editable_destroy_cb), completion);
  g_signal_connect_swapped (editable, "unmap", G_CALLBACK (completion_popdown), completion);

  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_editable_key_pressed_cb), completion);
  gtk_widget_add_controller (editable, keys);

  focus = gtk_event_controller_focus_new ();
  g_signal_connect (focus, "leave", G_CALLBACK (on_editable_focus_leave_cb), completion);
  gtk_widget_add_controller (editable, focus);
}

void
plugboard_completion_dismiss (GtkWidget *widget)
{
  Completion *completion;

  g_return_if_fail (GTK_IS_WIDGET (widget));

  completion = g_object_get_data (G_OBJECT (widget), "plugboard-completion");
  if (completion != NULL)
    {
      g_clear_handle_id (&completion->timeout_id, g_source_remove);
      g_cancellable_cancel (completion->cancellable);
      completion_popdown (completion);
      return;
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    plugboard_completion_dismiss (child);
}
