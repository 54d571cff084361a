/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-sampling-dialog"

#include "config.h"

#include "plugboard-sampling-dialog.h"

#include <string.h>

#include <glib/gi18n.h>

#include "plugboard-common.h"

#define DEFAULT_MODEL_NAME "human (Plugboard)"
/* Bytes of a message's text above which it is shown in a text view. */
#define LONG_TEXT 8192

struct _PlugboardSamplingDialog
{
  AdwWindow        parent_instance;

  /* Template widgets */
  AdwWindowTitle  *window_title;
  GtkLabel        *heading_label;
  GtkBox          *messages_box;
  GtkWidget       *params_group;
  GtkListBox      *params_list;
  GtkTextView     *reply_view;
  GtkLabel        *length_label;
  AdwEntryRow     *model_row;
  GtkButton       *approve_button;
  GtkButton       *decline_button;

  /* Owned references */
  char            *suggestion;
  gint64           max_tokens;  /* 0: not given */
  gboolean         answered;
};

G_DEFINE_FINAL_TYPE (PlugboardSamplingDialog, plugboard_sampling_dialog, ADW_TYPE_WINDOW)

enum {
  ANSWERED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* The parameters shown in their own rows; any other is shown as JSON. */
static const char * const known_params[] = {
  "messages", "systemPrompt", "maxTokens", "temperature", "stopSequences",
  "modelPreferences", "includeContext", "metadata",
};

/* ------------------------------------------------------------------------ */
/* Showing the request                                                      */

static char *
dup_json (JsonNode *node,
          gboolean  pretty)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();

  json_generator_set_pretty (generator, pretty);
  json_generator_set_indent (generator, 2);
  json_generator_set_root (generator, node);
  return json_generator_to_data (generator, NULL);
}

/* A value as a person reads it: strings and numbers as they are, objects
 * and arrays as JSON. */
static char *
dup_value_text (JsonNode *node)
{
  if (JSON_NODE_HOLDS_VALUE (node))
    {
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_STRING:
          return g_strdup (json_node_get_string (node));
        case G_TYPE_INT64:
          return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
        case G_TYPE_DOUBLE:
          {
            char buffer[G_ASCII_DTOSTR_BUF_SIZE];

            return g_strdup (g_ascii_formatd (buffer, sizeof buffer, "%g", json_node_get_double (node)));
          }
        case G_TYPE_BOOLEAN:
          return g_strdup (json_node_get_boolean (node) ? "true" : "false");
        default:
          break;
        }
    }

  return dup_json (node, TRUE);
}

static GtkWidget *
value_label_new (const char *text,
                 gboolean    monospace)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  if (monospace)
    gtk_widget_add_css_class (label, "monospace");
  return label;
}

/* A label lays out all of its text at once; a long message goes in a
 * read-only text view of its own, scrolled. */
static GtkWidget *
long_text_new (const char *text)
{
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *view = gtk_text_view_new ();

  gtk_text_view_set_editable (GTK_TEXT_VIEW (view), FALSE);
  gtk_text_view_set_cursor_visible (GTK_TEXT_VIEW (view), FALSE);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (view), GTK_WRAP_WORD_CHAR);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)), text, -1);
  gtk_widget_add_css_class (view, "plugboard-sampling-long-text");
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scrolled), 120);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scrolled), 360);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scrolled), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), view);
  return scrolled;
}

static GtkWidget *
caption_label_new (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "caption-heading");
  gtk_widget_add_css_class (label, "dim-label");
  return label;
}

/* One row of "Request Details": a caption, then the value in full. */
static void
add_param_row (PlugboardSamplingDialog *self,
               const char              *title,
               const char              *value,
               gboolean                 monospace,
               const char              *note)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);

  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_widget_set_margin_top (box, 9);
  gtk_widget_set_margin_bottom (box, 9);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_box_append (GTK_BOX (box), caption_label_new (title));
  gtk_box_append (GTK_BOX (box), value_label_new (value, monospace));
  if (note != NULL)
    {
      GtkWidget *label = value_label_new (note, FALSE);

      gtk_label_set_selectable (GTK_LABEL (label), FALSE);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_widget_add_css_class (label, "caption");
      gtk_box_append (GTK_BOX (box), label);
    }
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_list_box_append (self->params_list, row);
}

static const char *
role_label (const char *role)
{
  if (g_strcmp0 (role, "user") == 0)
    return _("User");
  if (g_strcmp0 (role, "assistant") == 0)
    return _("Assistant");
  return role != NULL ? role : _("No role given");
}

static const char *
member_string (JsonObject *object,
               const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

static GtkWidget *
image_block_new (JsonObject *content)
{
  const char *data = member_string (content, "data");
  const char *mime = member_string (content, "mimeType");
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *note = NULL;
  GtkWidget *box;
  GtkWidget *picture;
  GtkWidget *caption;
  guchar *decoded;
  gsize length = 0;

  if (data == NULL)
    return value_label_new (_("An image without data"), FALSE);

  decoded = g_base64_decode (data, &length);
  bytes = g_bytes_new_take (decoded, length);
  texture = gdk_texture_new_from_bytes (bytes, &error);
  if (texture == NULL)
    {
      /* Translators: %s is a MIME type, the second %s why it could not be read */
      note = g_strdup_printf (_("An image (%s) that could not be shown: %s"),
                              mime != NULL ? mime : _("no type"), error->message);
      return value_label_new (note, FALSE);
    }

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
  picture = gtk_picture_new_for_paintable (GDK_PAINTABLE (texture));
  gtk_picture_set_can_shrink (GTK_PICTURE (picture), TRUE);
  gtk_picture_set_content_fit (GTK_PICTURE (picture), GTK_CONTENT_FIT_CONTAIN);
  gtk_widget_set_halign (picture, GTK_ALIGN_START);
  /* Big ones fit, and an icon-sized one is still seen. */
  gtk_widget_set_size_request (picture, -1, CLAMP (gdk_texture_get_height (texture), 48, 240));
  /* Translators: %s is a MIME type, then the width and height in pixels */
  note = g_strdup_printf (_("Image (%s, %d × %d)"), mime != NULL ? mime : _("no type"),
                          gdk_texture_get_width (texture), gdk_texture_get_height (texture));
  gtk_accessible_update_property (GTK_ACCESSIBLE (picture),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, note,
                                  -1);
  caption = value_label_new (note, FALSE);
  gtk_label_set_selectable (GTK_LABEL (caption), FALSE);
  gtk_widget_add_css_class (caption, "dim-label");
  gtk_widget_add_css_class (caption, "caption");
  gtk_box_append (GTK_BOX (box), picture);
  gtk_box_append (GTK_BOX (box), caption);
  return box;
}

/* One content item of a message: text, an image, a note for audio, or
 * anything else (resources, tool use and results…) as JSON. */
static GtkWidget *
content_block_new (JsonNode *node)
{
  JsonObject *content;
  const char *type;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autofree char *json = dup_json (node, TRUE);

      return value_label_new (json, TRUE);
    }

  content = json_node_get_object (node);
  type = member_string (content, "type");

  if (g_strcmp0 (type, "text") == 0 && member_string (content, "text") != NULL)
    {
      const char *text = member_string (content, "text");

      if (strlen (text) > LONG_TEXT)
        return long_text_new (text);
      return value_label_new (text, FALSE);
    }

  if (g_strcmp0 (type, "image") == 0)
    return image_block_new (content);

  if (g_strcmp0 (type, "audio") == 0)
    {
      const char *data = member_string (content, "data");
      const char *mime = member_string (content, "mimeType");
      g_autofree char *size = g_format_size (data != NULL ? strlen (data) / 4 * 3 : 0);
      g_autofree char *note = NULL;
      GtkWidget *label;

      /* Translators: %s is a MIME type, then a size such as "12 kB" */
      note = g_strdup_printf (_("Audio (%s, %s) — not played here"),
                              mime != NULL ? mime : _("no type"), size);
      label = value_label_new (note, FALSE);
      gtk_widget_add_css_class (label, "dim-label");
      return label;
    }

  {
    g_autofree char *json = dup_json (node, TRUE);

    return value_label_new (json, TRUE);
  }
}

static void
add_message (PlugboardSamplingDialog *self,
             JsonNode                *node)
{
  GtkWidget *card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  JsonObject *message;
  JsonNode *content;

  gtk_widget_add_css_class (card, "card");
  gtk_widget_add_css_class (card, "plugboard-sampling-message");

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autofree char *json = dup_json (node, TRUE);

      gtk_box_append (GTK_BOX (card), caption_label_new (_("Not a message")));
      gtk_box_append (GTK_BOX (card), value_label_new (json, TRUE));
      gtk_box_append (self->messages_box, card);
      return;
    }

  message = json_node_get_object (node);
  gtk_box_append (GTK_BOX (card), caption_label_new (role_label (member_string (message, "role"))));
  if (g_strcmp0 (member_string (message, "role"), "assistant") == 0)
    gtk_widget_add_css_class (card, "assistant");

  content = json_object_get_member (message, "content");
  if (content == NULL)
    gtk_box_append (GTK_BOX (card), value_label_new (_("No content"), FALSE));
  else if (JSON_NODE_HOLDS_ARRAY (content))
    {
      JsonArray *items = json_node_get_array (content);

      for (guint i = 0; i < json_array_get_length (items); i++)
        gtk_box_append (GTK_BOX (card), content_block_new (json_array_get_element (items, i)));
    }
  else
    gtk_box_append (GTK_BOX (card), content_block_new (content));

  /* Members beyond role and content (e.g. _meta) are not hidden. */
  {
    GList *members = json_object_get_members (message);

    for (GList *l = members; l != NULL; l = l->next)
      {
        const char *name = l->data;
        g_autofree char *json = NULL;
        g_autofree char *text = NULL;

        if (g_str_equal (name, "role") || g_str_equal (name, "content"))
          continue;
        json = dup_json (json_object_get_member (message, name), FALSE);
        text = g_strdup_printf ("%s: %s", name, json);
        gtk_box_append (GTK_BOX (card), value_label_new (text, TRUE));
      }
    g_list_free (members);
  }

  gtk_box_append (self->messages_box, card);
}

/* The text of the last user message's text content, or NULL. */
static char *
dup_last_user_text (JsonObject *params)
{
  JsonNode *messages = json_object_get_member (params, "messages");
  JsonArray *array;

  if (messages == NULL || !JSON_NODE_HOLDS_ARRAY (messages))
    return NULL;

  array = json_node_get_array (messages);
  for (guint i = json_array_get_length (array); i > 0; i--)
    {
      JsonNode *node = json_array_get_element (array, i - 1);
      JsonObject *message;
      JsonNode *content;
      g_autoptr(GString) text = g_string_new (NULL);

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      message = json_node_get_object (node);
      if (g_strcmp0 (member_string (message, "role"), "user") != 0)
        continue;

      content = json_object_get_member (message, "content");
      if (content != NULL && JSON_NODE_HOLDS_OBJECT (content) &&
          g_strcmp0 (member_string (json_node_get_object (content), "type"), "text") == 0)
        g_string_append (text, member_string (json_node_get_object (content), "text"));
      else if (content != NULL && JSON_NODE_HOLDS_ARRAY (content))
        {
          JsonArray *items = json_node_get_array (content);

          for (guint j = 0; j < json_array_get_length (items); j++)
            {
              JsonNode *item = json_array_get_element (items, j);

              if (JSON_NODE_HOLDS_OBJECT (item) &&
                  g_strcmp0 (member_string (json_node_get_object (item), "type"), "text") == 0 &&
                  member_string (json_node_get_object (item), "text") != NULL)
                {
                  if (text->len > 0)
                    g_string_append_c (text, '\n');
                  g_string_append (text, member_string (json_node_get_object (item), "text"));
                }
            }
        }

      if (text->len > 0)
        return g_string_free (g_steal_pointer (&text), FALSE);
      return NULL;
    }

  return NULL;
}

static void
add_model_preferences (PlugboardSamplingDialog *self,
                       JsonNode                *node)
{
  static const struct {
    const char *member;
    const char *label;
  } priorities[] = {
    { "costPriority", N_("cost") },
    { "speedPriority", N_("speed") },
    { "intelligencePriority", N_("intelligence") },
  };
  g_autoptr(GString) hints = g_string_new (NULL);
  g_autoptr(GString) wanted = g_string_new (NULL);
  g_autofree char *json = NULL;
  JsonObject *preferences;
  JsonNode *hint_node;
  gboolean other = FALSE;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      json = dup_json (node, TRUE);
      add_param_row (self, _("Model preferences"), json, TRUE, NULL);
      return;
    }

  preferences = json_node_get_object (node);
  hint_node = json_object_get_member (preferences, "hints");
  if (hint_node != NULL && JSON_NODE_HOLDS_ARRAY (hint_node))
    {
      JsonArray *array = json_node_get_array (hint_node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *hint = json_array_get_element (array, i);
          const char *name = JSON_NODE_HOLDS_OBJECT (hint) ?
            member_string (json_node_get_object (hint), "name") : NULL;
          g_autofree char *text = name != NULL ? g_strdup (name) : dup_json (hint, FALSE);

          if (hints->len > 0)
            g_string_append (hints, ", ");
          g_string_append (hints, text);
        }
    }

  for (guint i = 0; i < G_N_ELEMENTS (priorities); i++)
    {
      JsonNode *value = json_object_get_member (preferences, priorities[i].member);
      g_autofree char *text = NULL;

      if (value == NULL)
        continue;
      text = dup_value_text (value);
      if (wanted->len > 0)
        g_string_append (wanted, " · ");
      /* Translators: e.g. "speed 0.5": what the server weighs in choosing a model */
      g_string_append_printf (wanted, _("%s %s"), _(priorities[i].label), text);
    }

  {
    GList *members = json_object_get_members (preferences);

    for (GList *l = members; l != NULL; l = l->next)
      if (!g_str_equal (l->data, "hints") &&
          !g_str_equal (l->data, "costPriority") &&
          !g_str_equal (l->data, "speedPriority") &&
          !g_str_equal (l->data, "intelligencePriority"))
        other = TRUE;
    g_list_free (members);
  }

  if (hints->len > 0)
    add_param_row (self, _("Model hints"), hints->str, FALSE,
                   _("Models the server would prefer, best first"));
  if (wanted->len > 0)
    add_param_row (self, _("Model priorities"), wanted->str, FALSE,
                   _("From 0 (unimportant) to 1 (most important)"));
  if (other || (hints->len == 0 && wanted->len == 0))
    {
      json = dup_json (node, TRUE);
      add_param_row (self, _("Model preferences"), json, TRUE, NULL);
    }
}

static void
show_params (PlugboardSamplingDialog *self,
             JsonObject              *params)
{
  JsonNode *node;
  GList *members;
  guint n_messages = 0;

  node = json_object_get_member (params, "messages");
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *messages = json_node_get_array (node);

      n_messages = json_array_get_length (messages);
      for (guint i = 0; i < n_messages; i++)
        add_message (self, json_array_get_element (messages, i));
    }
  else if (node != NULL)
    {
      /* Not an array: shown as it came, rather than hidden. */
      add_message (self, node);
      n_messages = 1;
    }

  if (n_messages == 0)
    {
      GtkWidget *label = value_label_new (_("The server sent no messages."), FALSE);

      gtk_widget_add_css_class (label, "dim-label");
      gtk_box_append (self->messages_box, label);
    }

  if ((node = json_object_get_member (params, "systemPrompt")) != NULL)
    {
      g_autofree char *text = dup_value_text (node);

      add_param_row (self, _("System prompt"), text, FALSE, NULL);
    }

  if ((node = json_object_get_member (params, "maxTokens")) != NULL)
    {
      g_autofree char *text = dup_value_text (node);

      add_param_row (self, _("Maximum tokens"), text, FALSE,
                     _("How long the server allows the reply to be"));
    }

  if ((node = json_object_get_member (params, "temperature")) != NULL)
    {
      g_autofree char *text = dup_value_text (node);

      add_param_row (self, _("Temperature"), text, FALSE, NULL);
    }

  if ((node = json_object_get_member (params, "stopSequences")) != NULL)
    {
      g_autoptr(GString) text = g_string_new (NULL);

      /* As JSON strings, so that a newline or a space in one shows. */
      if (JSON_NODE_HOLDS_ARRAY (node))
        {
          JsonArray *array = json_node_get_array (node);

          for (guint i = 0; i < json_array_get_length (array); i++)
            {
              g_autofree char *item = dup_json (json_array_get_element (array, i), FALSE);

              if (text->len > 0)
                g_string_append (text, "  ");
              g_string_append (text, item);
            }
        }
      else
        {
          g_autofree char *json = dup_json (node, FALSE);

          g_string_append (text, json);
        }
      add_param_row (self, _("Stop sequences"), text->len > 0 ? text->str : _("None"), TRUE, NULL);
    }

  if ((node = json_object_get_member (params, "modelPreferences")) != NULL)
    add_model_preferences (self, node);

  if ((node = json_object_get_member (params, "includeContext")) != NULL)
    {
      g_autofree char *text = dup_value_text (node);

      add_param_row (self, _("Include context"), text, TRUE,
                     _("Plugboard keeps no conversation of its own to add: the messages above are all that the reply is about"));
    }

  if ((node = json_object_get_member (params, "metadata")) != NULL)
    {
      g_autofree char *text = dup_json (node, TRUE);

      add_param_row (self, _("Metadata"), text, TRUE, NULL);
    }

  members = json_object_get_members (params);
  for (GList *l = members; l != NULL; l = l->next)
    {
      const char *name = l->data;
      g_autofree char *text = NULL;

      if (g_strv_contains (known_params, name))
        continue;
      text = dup_json (json_object_get_member (params, name), TRUE);
      add_param_row (self, name, text, TRUE, NULL);
    }
  g_list_free (members);

  gtk_widget_set_visible (self->params_group,
                          gtk_widget_get_first_child (GTK_WIDGET (self->params_list)) != NULL);
}

/* ------------------------------------------------------------------------ */
/* The reply                                                                */

static char *
dup_reply (PlugboardSamplingDialog *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->reply_view);
  GtkTextIter start;
  GtkTextIter end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static gboolean
has_reply (PlugboardSamplingDialog *self)
{
  g_autofree char *text = dup_reply (self);

  return g_strstrip (text)[0] != '\0';
}

/* How long the reply is, beside what the server allows: tokens are the
 * model's own measure, so only a rough guide (about ¾ of a word each). */
static void
update_length (PlugboardSamplingDialog *self)
{
  g_autofree char *text = dup_reply (self);
  g_autofree char *words_text = NULL;
  g_autofree char *label = NULL;
  guint words = 0;
  gboolean in_word = FALSE;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gboolean space = g_unichar_isspace (g_utf8_get_char (p));

      if (!space && !in_word)
        words++;
      in_word = !space;
    }

  words_text = g_strdup_printf (ngettext ("%u word", "%u words", words), words);
  if (self->max_tokens > 0)
    /* Translators: "12 words · the server allows up to 100 tokens (about 75 words)" */
    label = g_strdup_printf (_("%s · the server allows up to %lld tokens (about %lld words)"),
                             words_text, (long long) self->max_tokens,
                             (long long) (self->max_tokens * 3 / 4));
  else
    label = g_steal_pointer (&words_text);

  gtk_label_set_text (self->length_label, label);
  if (self->max_tokens > 0 && words > self->max_tokens * 3 / 4)
    gtk_widget_add_css_class (GTK_WIDGET (self->length_label), "warning");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->length_label), "warning");
}

static void
update_approve (PlugboardSamplingDialog *self)
{
  gboolean ok = has_reply (self);

  /* The button follows the action. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "sampling.approve", ok);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->approve_button),
                               ok ? _("Send your reply to the server (Ctrl+Enter)")
                                  : _("Write a reply first"));
}

static void
on_reply_changed_cb (PlugboardSamplingDialog *self)
{
  update_approve (self);
  update_length (self);
}

static void
answer (PlugboardSamplingDialog *self,
        gboolean                 approve)
{
  g_autoptr(JsonNode) result = NULL;

  self->answered = TRUE;

  if (approve)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();
      g_autofree char *text = dup_reply (self);
      g_autofree char *model = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->model_row)));

      if (g_strstrip (model)[0] == '\0')
        {
          g_free (model);
          model = g_strdup (DEFAULT_MODEL_NAME);
        }

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "role");
      json_builder_add_string_value (builder, "assistant");
      json_builder_set_member_name (builder, "content");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "type");
      json_builder_add_string_value (builder, "text");
      json_builder_set_member_name (builder, "text");
      json_builder_add_string_value (builder, text);
      json_builder_end_object (builder);
      json_builder_set_member_name (builder, "model");
      json_builder_add_string_value (builder, model);
      json_builder_set_member_name (builder, "stopReason");
      json_builder_add_string_value (builder, "endTurn");
      json_builder_end_object (builder);
      result = json_builder_get_root (builder);
    }

  g_signal_emit (self, signals[ANSWERED], 0, result);
}

/* Closing the window in any way other than Approve declines. */
static gboolean
on_close_request_cb (PlugboardSamplingDialog *self)
{
  if (!self->answered)
    answer (self, FALSE);
  return FALSE;
}

static void
decline_action_cb (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  plugboard_sampling_dialog_respond (PLUGBOARD_SAMPLING_DIALOG (widget), FALSE);
}

static void
approve_action_cb (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  plugboard_sampling_dialog_respond (PLUGBOARD_SAMPLING_DIALOG (widget), TRUE);
}

static void
suggest_action_cb (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  PlugboardSamplingDialog *self = PLUGBOARD_SAMPLING_DIALOG (widget);
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->reply_view);
  GtkTextIter start;
  GtkTextIter end;

  /* One user action, rather than set_text(), so that Ctrl+Z brings back
   * what was typed. */
  gtk_text_buffer_begin_user_action (buffer);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_delete (buffer, &start, &end);
  gtk_text_buffer_insert (buffer, &start, self->suggestion, -1);
  gtk_text_buffer_end_user_action (buffer);
  gtk_widget_grab_focus (GTK_WIDGET (self->reply_view));
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static void
plugboard_sampling_dialog_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), PLUGBOARD_TYPE_SAMPLING_DIALOG);

  G_OBJECT_CLASS (plugboard_sampling_dialog_parent_class)->dispose (object);
}

static void
plugboard_sampling_dialog_finalize (GObject *object)
{
  PlugboardSamplingDialog *self = PLUGBOARD_SAMPLING_DIALOG (object);

  g_free (self->suggestion);

  G_OBJECT_CLASS (plugboard_sampling_dialog_parent_class)->finalize (object);
}

static void
plugboard_sampling_dialog_class_init (PlugboardSamplingDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = plugboard_sampling_dialog_dispose;
  object_class->finalize = plugboard_sampling_dialog_finalize;

  /**
   * PlugboardSamplingDialog::answered:
   * @result: (nullable): the CreateMessageResult, or NULL when declined
   */
  signals[ANSWERED] =
    g_signal_new ("answered", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  JSON_TYPE_NODE | G_SIGNAL_TYPE_STATIC_SCOPE);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/plugboard/Plugboard/plugboard-sampling-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardSamplingDialog, window_title);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSamplingDialog, heading_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSamplingDialog, messages_box);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSamplingDialog, params_group);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSamplingDialog, params_list);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSamplingDialog, reply_view);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSamplingDialog, length_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSamplingDialog, model_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSamplingDialog, approve_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSamplingDialog, decline_button);

  gtk_widget_class_install_action (widget_class, "sampling.approve", NULL, approve_action_cb);
  gtk_widget_class_install_action (widget_class, "sampling.decline", NULL, decline_action_cb);
  gtk_widget_class_install_action (widget_class, "sampling.suggest", NULL, suggest_action_cb);
  /* Escape declines (through close-request). */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
plugboard_sampling_dialog_init (PlugboardSamplingDialog *self)
{
  GtkEventController *shortcuts;

  gtk_widget_init_template (GTK_WIDGET (self));
  plugboard_style_ensure (GTK_WIDGET (self));

  /* Ctrl+Enter approves, also from the reply editor, where Enter starts a
   * new line: caught before the editor sees it. */
  shortcuts = gtk_shortcut_controller_new ();
  gtk_event_controller_set_propagation_phase (shortcuts, GTK_PHASE_CAPTURE);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                        gtk_shortcut_new (gtk_shortcut_trigger_parse_string ("<Control>Return|<Control>KP_Enter"),
                                                          gtk_named_action_new ("sampling.approve")));
  gtk_widget_add_controller (GTK_WIDGET (self), shortcuts);

  g_signal_connect (self, "close-request", G_CALLBACK (on_close_request_cb), NULL);
  g_signal_connect_object (gtk_text_view_get_buffer (self->reply_view), "changed",
                           G_CALLBACK (on_reply_changed_cb), self, G_CONNECT_SWAPPED);
}

PlugboardSamplingDialog *
plugboard_sampling_dialog_new (GtkWindow  *parent,
                               const char *server_name,
                               JsonObject *params)
{
  PlugboardSamplingDialog *self;
  g_autofree char *heading = NULL;
  g_autofree char *last = NULL;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (server_name != NULL, NULL);
  g_return_val_if_fail (params != NULL, NULL);

  self = g_object_new (PLUGBOARD_TYPE_SAMPLING_DIALOG,
                       "transient-for", parent,
                       NULL);

  /* Translators: %s is an MCP server's name */
  heading = g_strdup_printf (_("“%s” asks for a model reply"), server_name);
  gtk_label_set_text (self->heading_label, heading);
  /* What a window list or a screen reader names it by. */
  gtk_window_set_title (GTK_WINDOW (self), heading);
  adw_window_title_set_subtitle (self->window_title, server_name);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, heading,
                                  -1);

  show_params (self, params);
  {
    JsonNode *max_tokens = json_object_get_member (params, "maxTokens");

    if (max_tokens != NULL && JSON_NODE_HOLDS_VALUE (max_tokens) &&
        (json_node_get_value_type (max_tokens) == G_TYPE_INT64 ||
         json_node_get_value_type (max_tokens) == G_TYPE_DOUBLE))
      self->max_tokens = MAX (json_node_get_int (max_tokens), 0);
  }

  last = dup_last_user_text (params);
  if (last != NULL)
    /* Translators: the suggested reply; %s is the last thing the server's user message said */
    self->suggestion = g_strdup_printf (_("You asked: “%s”. This reply was written by a person in Plugboard, not by a language model."),
                                        g_strstrip (last));
  else
    self->suggestion = g_strdup (_("This reply was written by a person in Plugboard, not by a language model."));

  gtk_window_set_default_widget (GTK_WINDOW (self), GTK_WIDGET (self->approve_button));
  gtk_window_set_focus (GTK_WINDOW (self), GTK_WIDGET (self->reply_view));
  update_approve (self);
  update_length (self);
  return self;
}

void
plugboard_sampling_dialog_set_reply (PlugboardSamplingDialog *self,
                                     const char              *text)
{
  g_return_if_fail (PLUGBOARD_IS_SAMPLING_DIALOG (self));

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->reply_view),
                            text != NULL ? text : "", -1);
}

/* Approve (only with a reply: else nothing happens) or Decline; answers
 * once, then closes. */
void
plugboard_sampling_dialog_respond (PlugboardSamplingDialog *self,
                                   gboolean                 approve)
{
  g_return_if_fail (PLUGBOARD_IS_SAMPLING_DIALOG (self));

  if (self->answered)
    return;
  if (approve && !has_reply (self))
    return;

  g_object_ref (self);
  answer (self, approve);
  gtk_window_destroy (GTK_WINDOW (self));
  g_object_unref (self);
}
