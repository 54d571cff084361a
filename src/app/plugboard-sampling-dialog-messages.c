/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-sampling-dialog"

#include "config.h"

#include "plugboard-sampling-dialog.h"

#include <string.h>

#include <glib/gi18n.h>

#include "plugboard-common.h"

#include "plugboard-sampling-dialog-private.h"

/* PlugboardSamplingDialog shows the request's messages: one card each, by
 * role, with its text, images, a note for audio, and anything else as
 * JSON; and finds the last thing the user said, for the suggested reply. */

/* Bytes of a message's text above which it is shown in a text view. */
#define LONG_TEXT 8192

GtkWidget *
plugboard_sampling_dialog_value_label_new (const char *text,
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

GtkWidget *
plugboard_sampling_dialog_caption_label_new (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "caption-heading");
  gtk_widget_add_css_class (label, "dim-label");
  return label;
}

const char *
plugboard_sampling_dialog_member_string (JsonObject *object,
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
  const char *data = plugboard_sampling_dialog_member_string (content, "data");
  const char *mime = plugboard_sampling_dialog_member_string (content, "mimeType");
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
    return plugboard_sampling_dialog_value_label_new (_("An image without data"), FALSE);

  decoded = g_base64_decode (data, &length);
  bytes = g_bytes_new_take (decoded, length);
  texture = gdk_texture_new_from_bytes (bytes, &error);
  if (texture == NULL)
    {
      /* Translators: %s is a MIME type, the second %s why it could not be read */
      note = g_strdup_printf (_("An image (%s) that could not be shown: %s"),
                              mime != NULL ? mime : _("no type"), error->message);
      return plugboard_sampling_dialog_value_label_new (note, FALSE);
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
  caption = plugboard_sampling_dialog_value_label_new (note, FALSE);
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
      g_autofree char *json = plugboard_dup_json (node, TRUE);

      return plugboard_sampling_dialog_value_label_new (json, TRUE);
    }

  content = json_node_get_object (node);
  type = plugboard_sampling_dialog_member_string (content, "type");

  if (g_strcmp0 (type, "text") == 0 && plugboard_sampling_dialog_member_string (content, "text") != NULL)
    {
      const char *text = plugboard_sampling_dialog_member_string (content, "text");

      if (strlen (text) > LONG_TEXT)
        return long_text_new (text);
      return plugboard_sampling_dialog_value_label_new (text, FALSE);
    }

  if (g_strcmp0 (type, "image") == 0)
    return image_block_new (content);

  if (g_strcmp0 (type, "audio") == 0)
    {
      const char *data = plugboard_sampling_dialog_member_string (content, "data");
      const char *mime = plugboard_sampling_dialog_member_string (content, "mimeType");
      g_autofree char *size = g_format_size (data != NULL ? strlen (data) / 4 * 3 : 0);
      g_autofree char *note = NULL;
      GtkWidget *label;

      /* Translators: %s is a MIME type, then a size such as "12 kB" */
      note = g_strdup_printf (_("Audio (%s, %s) — not played here"),
                              mime != NULL ? mime : _("no type"), size);
      label = plugboard_sampling_dialog_value_label_new (note, FALSE);
      gtk_widget_add_css_class (label, "dim-label");
      return label;
    }

  {
    g_autofree char *json = plugboard_dup_json (node, TRUE);

    return plugboard_sampling_dialog_value_label_new (json, TRUE);
  }
}

void
plugboard_sampling_dialog_add_message (PlugboardSamplingDialog *self,
                                       JsonNode                *node)
{
  GtkWidget *card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  JsonObject *message;
  JsonNode *content;
  const char *role;

  gtk_widget_add_css_class (card, "card");
  gtk_widget_add_css_class (card, "plugboard-sampling-message");

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autofree char *json = plugboard_dup_json (node, TRUE);

      gtk_box_append (GTK_BOX (card), plugboard_sampling_dialog_caption_label_new (_("Not a message")));
      gtk_box_append (GTK_BOX (card), plugboard_sampling_dialog_value_label_new (json, TRUE));
      gtk_box_append (self->messages_box, card);
      return;
    }

  message = json_node_get_object (node);
  role = plugboard_sampling_dialog_member_string (message, "role");
  gtk_box_append (GTK_BOX (card),
                  plugboard_sampling_dialog_caption_label_new (plugboard_role_label (role, _("No role given"))));
  if (g_strcmp0 (role, "assistant") == 0)
    gtk_widget_add_css_class (card, "assistant");

  content = json_object_get_member (message, "content");
  if (content == NULL)
    gtk_box_append (GTK_BOX (card), plugboard_sampling_dialog_value_label_new (_("No content"), FALSE));
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
        json = plugboard_dup_json (json_object_get_member (message, name), FALSE);
        text = g_strdup_printf ("%s: %s", name, json);
        gtk_box_append (GTK_BOX (card), plugboard_sampling_dialog_value_label_new (text, TRUE));
      }
    g_list_free (members);
  }

  gtk_box_append (self->messages_box, card);
}

static gboolean
is_text_content (JsonObject *content)
{
  return g_strcmp0 (plugboard_sampling_dialog_member_string (content, "type"), "text") == 0;
}

char *
plugboard_sampling_dialog_dup_last_user_text (JsonObject *params)
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
      if (g_strcmp0 (plugboard_sampling_dialog_member_string (message, "role"), "user") != 0)
        continue;

      content = json_object_get_member (message, "content");
      if (content != NULL && JSON_NODE_HOLDS_OBJECT (content) && is_text_content (json_node_get_object (content)))
        g_string_append (text, plugboard_sampling_dialog_member_string (json_node_get_object (content), "text"));
      else if (content != NULL && JSON_NODE_HOLDS_ARRAY (content))
        {
          JsonArray *items = json_node_get_array (content);

          for (guint j = 0; j < json_array_get_length (items); j++)
            {
              JsonNode *item = json_array_get_element (items, j);
              JsonObject *object = JSON_NODE_HOLDS_OBJECT (item) ? json_node_get_object (item) : NULL;

              if (object != NULL && is_text_content (object) &&
                  plugboard_sampling_dialog_member_string (object, "text") != NULL)
                {
                  if (text->len > 0)
                    g_string_append_c (text, '\n');
                  g_string_append (text, plugboard_sampling_dialog_member_string (object, "text"));
                }
            }
        }

      if (text->len > 0)
        return g_string_free (g_steal_pointer (&text), FALSE);
      return NULL;
    }

  return NULL;
}
