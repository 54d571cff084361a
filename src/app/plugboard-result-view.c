/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-result-view"

#include "config.h"

#include "plugboard-result-view.h"

#include <glib/gi18n.h>

#include "plugboard-result-view-private.h"

/* PlugboardResultView: the widget, a result's blocks built in slices into
 * its list, the notes, and letting go of a result in a thread. The rows
 * are in -rows.c and -text.c, Save As in -save.c, reading a link in
 * -read.c, the schema check in -schema.c, the actions in -actions.c. */

/* Blocks are built in slices of this many microseconds, between frames. */
#define BUILD_SLICE_US    (8 * 1000)

G_DEFINE_FINAL_TYPE (PlugboardResultView, plugboard_result_view, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_PLAIN_TEXT,
  PROP_WRAP,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

void
plugboard_result_view_toast (PlugboardResultView *self,
                             const char          *title)
{
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (title));
}

static void
refresh_rows (PlugboardResultView *self)
{
  /* Rebinds every visible row with the new settings. */
  gtk_grid_view_set_model (self->list_view, NULL);
  gtk_grid_view_set_model (self->list_view, self->selection);
}

static void
show_notes (PlugboardResultView *self)
{
  const char * const *notes = mcp_processed_result_get_notes (self->result);
  g_autoptr(GString) text = g_string_new (NULL);
  gsize cut = mcp_processed_result_get_cut_characters (self->result);

  for (guint i = 0; notes != NULL && notes[i] != NULL; i++)
    {
      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, notes[i]);
    }
  if (cut > 0 && text->len == 0)
    g_string_append_printf (text, ngettext ("The result was cut at the output limit: %lu more character is not shown.",
                                            "The result was cut at the output limit: %lu more characters are not shown.",
                                            (unsigned long) cut), (unsigned long) cut);

  gtk_label_set_text (self->notes_label, text->str);
  gtk_widget_set_visible (self->save_full_button, cut > 0);
  gtk_widget_set_visible (self->notes_box, text->len > 0 || cut > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "result.save-full", cut > 0);
}

/* Builds blocks from self->next_block for about BUILD_SLICE_US and adds
 * them to the list; TRUE when some remain. */
static gboolean
build_slice (PlugboardResultView *self)
{
  GPtrArray *content = NULL;
  g_autoptr(GPtrArray) sections = g_ptr_array_new_with_free_func (g_object_unref);
  gint64 deadline = g_get_monotonic_time () + BUILD_SLICE_US;

  if (self->result != NULL)
    content = mcp_tool_result_get_content (mcp_processed_result_get_result (self->result));
  while (content != NULL && self->next_block < content->len)
    {
      McpContent *item = g_ptr_array_index (content, self->next_block);
      PlugboardResultBlock *block =
        plugboard_result_block_new_for_content (self->result, item, (int) self->next_block);

      self->next_block++;
      g_ptr_array_add (sections, plugboard_result_block_take_section (block));
      g_object_unref (block);
      if (g_get_monotonic_time () >= deadline)
        break;
    }
  g_list_store_splice (self->sections, g_list_model_get_n_items (G_LIST_MODEL (self->sections)), 0,
                       sections->pdata, sections->len);
  return content != NULL && self->next_block < content->len;
}

static gboolean
build_idle_cb (gpointer data)
{
  PlugboardResultView *self = data;

  if (build_slice (self))
    return G_SOURCE_CONTINUE;
  self->build_source = 0;
  return G_SOURCE_REMOVE;
}

void
plugboard_result_view_set_result (PlugboardResultView *self,
                                  McpPoolTool         *tool,
                                  JsonObject          *arguments,
                                  McpProcessedResult  *result)
{
  McpToolResult *tool_result;
  GPtrArray *content;
  JsonNode *structured;
  g_autoptr(GPtrArray) sections = NULL;
  g_autofree char *summary = NULL;

  g_return_if_fail (PLUGBOARD_IS_RESULT_VIEW (self));
  g_return_if_fail (tool == NULL || MCP_IS_POOL_TOOL (tool));
  g_return_if_fail (MCP_IS_PROCESSED_RESULT (result));

  plugboard_result_view_clear (self);

  self->tool = tool != NULL ? g_object_ref (tool) : NULL;
  self->arguments = arguments != NULL ? json_object_ref (arguments) : NULL;
  self->result = g_object_ref (result);

  tool_result = mcp_processed_result_get_result (result);
  content = mcp_tool_result_get_content (tool_result);
  structured = mcp_tool_result_get_structured_content (tool_result);
  self->n_blocks = content != NULL ? content->len : 0;

  gtk_widget_set_visible (self->error_box, mcp_tool_result_get_is_error (tool_result));
  plugboard_result_view_show_schema_check (self, tool_result);
  show_notes (self);

  /* The blocks are built in slices of BUILD_SLICE_US, each added in one
   * splice: the first now, the rest from an idle source below the
   * redraw priority, so that 10,000 blocks or 50 MB of text never hold
   * the main loop for long. */
  sections = g_ptr_array_new_with_free_func (g_object_unref);
  if (structured != NULL)
    {
      PlugboardResultBlock *block = plugboard_result_block_new_for_structured (structured);

      g_ptr_array_add (sections, plugboard_result_block_take_section (block));
      g_object_unref (block);
    }
  g_list_store_splice (self->sections, 0, 0, sections->pdata, sections->len);
  self->next_block = 0;
  if (build_slice (self))
    self->build_source = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, build_idle_cb, self, NULL);

  if (self->n_blocks == 0 && structured == NULL)
    gtk_stack_set_visible_child_name (self->content_stack, "empty");
  else
    gtk_stack_set_visible_child_name (self->content_stack, "list");

  summary = g_strdup_printf (ngettext ("%u content block", "%u content blocks", self->n_blocks),
                             self->n_blocks);
  gtk_label_set_text (self->summary_label, summary);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "result.copy", TRUE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "result.copy-command", self->tool != NULL);
}

static gpointer
release_thread (gpointer data)
{
  g_ptr_array_unref (data);
  return NULL;
}

/* Drops the last references to @objects (a GPtrArray that frees GObjects)
 * in a thread of their own: freeing a result of 10,000 blocks, its rows
 * and its JSON held the main thread for 400 ms (bench-large-result).
 * Nothing in them needs the main thread but an image block's texture,
 * which its block hands back (plugboard_result_block_finalize()). */
static void
release_in_thread (GPtrArray *objects)
{
  g_autoptr(GError) error = NULL;
  GThread *thread;

  thread = g_thread_try_new ("plugboard-release", release_thread, objects, &error);
  if (thread == NULL)
    {
      g_debug ("No thread to free the last result in (%s); freeing it here", error->message);
      g_ptr_array_unref (objects);
      return;
    }
  g_thread_unref (thread);
}

/* Empties the list and lets go of the result, both freed in a thread. */
static void
release_result (PlugboardResultView *self)
{
  GPtrArray *objects = g_ptr_array_new_with_free_func (g_object_unref);

  if (self->sections != NULL)
    g_ptr_array_add (objects, g_steal_pointer (&self->sections));
  if (self->result != NULL)
    g_ptr_array_add (objects, g_steal_pointer (&self->result));

  /* The list lets go of the old sections here, on the main thread. */
  self->sections = g_list_store_new (G_TYPE_LIST_MODEL);
  if (self->selection != NULL)
    {
      GListModel *flat = gtk_no_selection_get_model (GTK_NO_SELECTION (self->selection));

      gtk_flatten_list_model_set_model (GTK_FLATTEN_LIST_MODEL (flat), G_LIST_MODEL (self->sections));
    }

  release_in_thread (objects);
}

void
plugboard_result_view_clear (PlugboardResultView *self)
{
  g_return_if_fail (PLUGBOARD_IS_RESULT_VIEW (self));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  g_clear_handle_id (&self->build_source, g_source_remove);
  release_result (self);
  g_clear_object (&self->tool);
  g_clear_pointer (&self->arguments, json_object_unref);
  self->n_blocks = 0;
  self->schema_ok = -1;

  gtk_widget_set_visible (self->error_box, FALSE);
  gtk_widget_set_visible (self->schema_box, FALSE);
  gtk_widget_set_visible (self->notes_box, FALSE);
  gtk_label_set_text (self->summary_label, "");
  gtk_stack_set_visible_child_name (self->content_stack, "empty");
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "result.copy", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "result.copy-command", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "result.save-full", FALSE);
}

guint
plugboard_result_view_get_n_blocks (PlugboardResultView *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_RESULT_VIEW (self), 0);

  return self->n_blocks;
}

int
plugboard_result_view_get_schema_ok (PlugboardResultView *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_RESULT_VIEW (self), -1);

  return self->schema_ok;
}

static void
plugboard_result_view_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  PlugboardResultView *self = PLUGBOARD_RESULT_VIEW (object);

  switch (prop_id)
    {
    case PROP_PLAIN_TEXT:
      g_value_set_boolean (value, self->plain_text);
      break;
    case PROP_WRAP:
      g_value_set_boolean (value, self->wrap);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_result_view_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  PlugboardResultView *self = PLUGBOARD_RESULT_VIEW (object);
  gboolean new_value = g_value_get_boolean (value);

  switch (prop_id)
    {
    case PROP_PLAIN_TEXT:
      if (self->plain_text == new_value)
        return;
      self->plain_text = new_value;
      break;
    case PROP_WRAP:
      if (self->wrap == new_value)
        return;
      self->wrap = new_value;
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
    }

  refresh_rows (self);
  g_object_notify_by_pspec (object, pspec);
}

static void
plugboard_result_view_dispose (GObject *object)
{
  PlugboardResultView *self = PLUGBOARD_RESULT_VIEW (object);

  g_clear_handle_id (&self->build_source, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);

  /* AdwBin keeps its own pointer to the template's top child. */
  adw_bin_set_child (ADW_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_RESULT_VIEW);

  g_clear_object (&self->selection);
  if (self->sections != NULL)
    {
      release_result (self);
      g_clear_object (&self->sections);
    }
  g_clear_object (&self->tool);
  g_clear_pointer (&self->arguments, json_object_unref);

  G_OBJECT_CLASS (plugboard_result_view_parent_class)->dispose (object);
}

static void
plugboard_result_view_class_init (PlugboardResultViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = plugboard_result_view_get_property;
  object_class->set_property = plugboard_result_view_set_property;
  object_class->dispose = plugboard_result_view_dispose;

  /* Text shown as sent, in monospace, instead of rendered as Markdown. */
  properties[PROP_PLAIN_TEXT] =
    g_param_spec_boolean ("plain-text", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_WRAP] =
    g_param_spec_boolean ("wrap", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/plugboard/Plugboard/plugboard-result-view.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardResultView, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResultView, summary_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResultView, error_box);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResultView, schema_box);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResultView, schema_icon);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResultView, schema_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResultView, schema_problems_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResultView, notes_box);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResultView, notes_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResultView, save_full_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResultView, content_stack);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResultView, list_view);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResultView, factory);

  plugboard_result_view_class_init_actions (widget_class);
}

static void
plugboard_result_view_init (PlugboardResultView *self)
{
  GtkFlattenListModel *flat;

  self->wrap = TRUE;
  self->schema_ok = -1;
  self->cancellable = g_cancellable_new ();

  gtk_widget_init_template (GTK_WIDGET (self));

  plugboard_result_view_init_rows (self);

  self->sections = g_list_store_new (G_TYPE_LIST_MODEL);
  flat = gtk_flatten_list_model_new (G_LIST_MODEL (g_object_ref (self->sections)));
  self->selection = GTK_SELECTION_MODEL (gtk_no_selection_new (G_LIST_MODEL (flat)));
  gtk_grid_view_set_model (self->list_view, self->selection);

  plugboard_result_view_clear (self);
}

GtkWidget *
plugboard_result_view_new (void)
{
  return g_object_new (PLUGBOARD_TYPE_RESULT_VIEW, NULL);
}
