/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-json-editor"

#include "config.h"

#include "plugboard-json-editor.h"

#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>

#include "mcp-json-private.h"

#include "plugboard-common.h"

struct _PlugboardJsonEditor
{
  GtkWidget      parent_instance;

  /* Template widgets */
  GtkFrame      *frame;
  GtkSourceView *view;
  GtkBox        *error_box;
  GtkLabel      *error_label;

  /* Owned references */
  GtkSourceBuffer *buffer;
  char          *text;
  char          *error_message;
  gboolean       valid;
};

G_DEFINE_FINAL_TYPE (PlugboardJsonEditor, plugboard_json_editor, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_TEXT,
  PROP_EDITABLE,
  PROP_VALID,
  PROP_ERROR_MESSAGE,
  PROP_SHOW_LINE_NUMBERS,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* The source view follows the light or dark style through a binding. */
static gboolean
dark_to_style_scheme (GBinding     *binding,
                      const GValue *from_value,
                      GValue       *to_value,
                      gpointer      user_data)
{
  GtkSourceStyleSchemeManager *schemes = gtk_source_style_scheme_manager_get_default ();
  const char *id = g_value_get_boolean (from_value) ? "Adwaita-dark" : "Adwaita";
  GtkSourceStyleScheme *scheme = gtk_source_style_scheme_manager_get_scheme (schemes, id);

  if (scheme == NULL)
    scheme = gtk_source_style_scheme_manager_get_scheme (schemes, "classic");
  g_value_set_object (to_value, scheme);
  return TRUE;
}

/* The text is checked, never changed: the error says where and what. */
static void
parse_text (PlugboardJsonEditor *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  gboolean was_valid = self->valid;
  g_autofree char *old_message = g_steal_pointer (&self->error_message);

  node = mcp_json_parse (self->text, strlen (self->text), &error);
  self->valid = node != NULL;
  if (error != NULL)
    self->error_message = g_strdup (error->message);

  gtk_label_set_text (self->error_label, self->error_message != NULL ? self->error_message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_box), !self->valid);
  gtk_accessible_update_state (GTK_ACCESSIBLE (self->view),
                               GTK_ACCESSIBLE_STATE_INVALID,
                               self->valid ? GTK_ACCESSIBLE_INVALID_FALSE : GTK_ACCESSIBLE_INVALID_TRUE,
                               -1);
  if (self->valid)
    gtk_widget_remove_css_class (GTK_WIDGET (self->frame), "error");
  else
    gtk_widget_add_css_class (GTK_WIDGET (self->frame), "error");

  if (was_valid != self->valid)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VALID]);
  if (g_strcmp0 (old_message, self->error_message) != 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR_MESSAGE]);
}

static void
on_buffer_changed_cb (PlugboardJsonEditor *self)
{
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (GTK_TEXT_BUFFER (self->buffer), &start, &end);
  g_free (self->text);
  self->text = gtk_text_buffer_get_text (GTK_TEXT_BUFFER (self->buffer), &start, &end, TRUE);
  parse_text (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TEXT]);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
plugboard_json_editor_dispose (GObject *object)
{
  PlugboardJsonEditor *self = PLUGBOARD_JSON_EDITOR (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_JSON_EDITOR);
  g_clear_object (&self->buffer);

  G_OBJECT_CLASS (plugboard_json_editor_parent_class)->dispose (object);
}

static void
plugboard_json_editor_finalize (GObject *object)
{
  PlugboardJsonEditor *self = PLUGBOARD_JSON_EDITOR (object);

  g_free (self->text);
  g_free (self->error_message);

  G_OBJECT_CLASS (plugboard_json_editor_parent_class)->finalize (object);
}

static void
plugboard_json_editor_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  PlugboardJsonEditor *self = PLUGBOARD_JSON_EDITOR (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      g_value_set_string (value, self->text);
      break;

    case PROP_EDITABLE:
      g_value_set_boolean (value, gtk_text_view_get_editable (GTK_TEXT_VIEW (self->view)));
      break;

    case PROP_VALID:
      g_value_set_boolean (value, self->valid);
      break;

    case PROP_ERROR_MESSAGE:
      g_value_set_string (value, self->error_message);
      break;

    case PROP_SHOW_LINE_NUMBERS:
      g_value_set_boolean (value, gtk_source_view_get_show_line_numbers (self->view));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_json_editor_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  PlugboardJsonEditor *self = PLUGBOARD_JSON_EDITOR (object);

  switch (prop_id)
    {
    case PROP_TEXT:
      plugboard_json_editor_set_text (self, g_value_get_string (value));
      break;

    case PROP_EDITABLE:
      plugboard_json_editor_set_editable (self, g_value_get_boolean (value));
      break;

    case PROP_SHOW_LINE_NUMBERS:
      if (gtk_source_view_get_show_line_numbers (self->view) != g_value_get_boolean (value))
        {
          gtk_source_view_set_show_line_numbers (self->view, g_value_get_boolean (value));
          g_object_notify_by_pspec (object, pspec);
        }
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_json_editor_class_init (PlugboardJsonEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_source_init ();
  g_type_ensure (GTK_SOURCE_TYPE_VIEW);

  object_class->dispose = plugboard_json_editor_dispose;
  object_class->finalize = plugboard_json_editor_finalize;
  object_class->get_property = plugboard_json_editor_get_property;
  object_class->set_property = plugboard_json_editor_set_property;

  properties[PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_EDITABLE] =
    g_param_spec_boolean ("editable", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_VALID] =
    g_param_spec_boolean ("valid", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ERROR_MESSAGE] =
    g_param_spec_string ("error-message", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOW_LINE_NUMBERS] =
    g_param_spec_boolean ("show-line-numbers", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/plugboard/Plugboard/plugboard-json-editor.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardJsonEditor, frame);
  gtk_widget_class_bind_template_child (widget_class, PlugboardJsonEditor, view);
  gtk_widget_class_bind_template_child (widget_class, PlugboardJsonEditor, error_box);
  gtk_widget_class_bind_template_child (widget_class, PlugboardJsonEditor, error_label);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
plugboard_json_editor_init (PlugboardJsonEditor *self)
{
  GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();

  gtk_widget_init_template (GTK_WIDGET (self));

  self->text = g_strdup ("");
  self->buffer = g_object_ref (GTK_SOURCE_BUFFER (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->view))));
  gtk_source_buffer_set_language (self->buffer, gtk_source_language_manager_get_language (languages, "json"));
  gtk_source_buffer_set_highlight_syntax (self->buffer, TRUE);
  gtk_source_buffer_set_highlight_matching_brackets (self->buffer, TRUE);
  g_object_bind_property_full (adw_style_manager_get_default (), "dark",
                               self->buffer, "style-scheme",
                               G_BINDING_SYNC_CREATE,
                               dark_to_style_scheme, NULL, NULL, NULL);
  g_signal_connect_object (self->buffer, "changed",
                           G_CALLBACK (on_buffer_changed_cb), self, G_CONNECT_SWAPPED);
  parse_text (self);
}

GtkWidget *
plugboard_json_editor_new (void)
{
  return g_object_new (PLUGBOARD_TYPE_JSON_EDITOR, NULL);
}

const char *
plugboard_json_editor_get_text (PlugboardJsonEditor *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_JSON_EDITOR (self), NULL);

  return self->text;
}

void
plugboard_json_editor_set_text (PlugboardJsonEditor *self,
                                const char          *text)
{
  g_return_if_fail (PLUGBOARD_IS_JSON_EDITOR (self));

  if (text == NULL)
    text = "";
  if (g_strcmp0 (text, self->text) == 0)
    return;

  /* Not undoable: Undo goes back to what the person typed, not to empty. */
  /* One "changed" for the delete and the insert together. */
  g_signal_handlers_block_by_func (self->buffer, on_buffer_changed_cb, self);
  gtk_text_buffer_begin_irreversible_action (GTK_TEXT_BUFFER (self->buffer));
  gtk_text_buffer_set_text (GTK_TEXT_BUFFER (self->buffer), text, -1);
  gtk_text_buffer_end_irreversible_action (GTK_TEXT_BUFFER (self->buffer));
  g_signal_handlers_unblock_by_func (self->buffer, on_buffer_changed_cb, self);
  on_buffer_changed_cb (self);
}

void
plugboard_json_editor_set_json (PlugboardJsonEditor *self,
                                JsonNode            *node)
{
  g_autofree char *text = NULL;

  g_return_if_fail (PLUGBOARD_IS_JSON_EDITOR (self));
  g_return_if_fail (node != NULL);

  text = plugboard_dup_json (node, TRUE);
  plugboard_json_editor_set_text (self, text);
}

JsonNode *
plugboard_json_editor_dup_json (PlugboardJsonEditor *self,
                                GError             **error)
{
  g_return_val_if_fail (PLUGBOARD_IS_JSON_EDITOR (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return mcp_json_parse (self->text, strlen (self->text), error);
}

gboolean
plugboard_json_editor_get_valid (PlugboardJsonEditor *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_JSON_EDITOR (self), FALSE);

  return self->valid;
}

void
plugboard_json_editor_set_editable (PlugboardJsonEditor *self,
                                    gboolean             editable)
{
  g_return_if_fail (PLUGBOARD_IS_JSON_EDITOR (self));

  editable = !!editable;
  if (gtk_text_view_get_editable (GTK_TEXT_VIEW (self->view)) == editable)
    return;

  gtk_text_view_set_editable (GTK_TEXT_VIEW (self->view), editable);
  gtk_text_view_set_cursor_visible (GTK_TEXT_VIEW (self->view), editable);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EDITABLE]);
}
