/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-result-view"

#include "config.h"

#include "plugboard-result-view.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-url-policy.h"
#include "plugboard-common.h"
#include "plugboard-json-entry.h"
#include "plugboard-markdown.h"

#include "plugboard-result-view-private.h"

/* PlugboardResultView's rows of text (Markdown or plain, a long one in
 * pieces) and of JSON (a tree, or raw). */

/* A string in the JSON tree shows at most this much. */
#define MAX_JSON_STRING   (4 * 1024)

/* At most @max bytes of @text, cut at a character boundary. */
static char *
utf8_prefix (const char *text,
             gsize       max)
{
  const char *end;

  if (strlen (text) <= max)
    return g_strdup (text);
  end = g_utf8_find_prev_char (text, text + max + 1);
  return g_strndup (text, end != NULL ? (gsize) (end - text) : 0);
}

static gboolean
activate_link_cb (GtkLabel   *label,
                  const char *uri,
                  gpointer    user_data)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (label));
  GtkWidget *view = gtk_widget_get_ancestor (GTK_WIDGET (label), PLUGBOARD_TYPE_RESULT_VIEW);
  g_autoptr(GError) refused = NULL;

  /* A link in a server's result: only what the URL policy lets through. */
  if (!mcp_url_policy_check (uri, MCP_URL_USE_BROWSER, NULL, &refused))
    {
      if (view != NULL)
        plugboard_result_view_toast (PLUGBOARD_RESULT_VIEW (view), refused->message);
      return TRUE;
    }

  gtk_show_uri (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, uri, GDK_CURRENT_TIME);
  return TRUE;
}

GtkWidget *
plugboard_result_view_text_label_new (PlugboardResultView  *self,
                                      PlugboardResultBlock *block,
                                      const char           *text)
{
  GtkWidget *label = gtk_label_new (NULL);
  gboolean markdown = FALSE;

  if (!self->plain_text && text == block->text)
    markdown = plugboard_result_block_is_markdown (block);

  if (markdown)
    {
      if (block->markup == NULL)
        block->markup = plugboard_markdown_to_pango (block->text);
      gtk_label_set_markup (GTK_LABEL (label), block->markup);
      g_signal_connect (label, "activate-link", G_CALLBACK (activate_link_cb), NULL);
    }
  else
    gtk_label_set_text (GTK_LABEL (label), text);

  /* A chunk's raw: a piece of a text too large for anything but plain. */
  if (self->plain_text || block->kind == PLUGBOARD_RESULT_BLOCK_JSON || block->raw)
    gtk_widget_add_css_class (label, "monospace");
  if (self->result != NULL &&
      mcp_tool_result_get_is_error (mcp_processed_result_get_result (self->result)))
    gtk_widget_add_css_class (label, "error");
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_yalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  plugboard_result_view_label_set_wrapping (label, self->wrap);
  gtk_widget_set_hexpand (label, TRUE);
  return label;
}

GtkWidget *
plugboard_result_view_text_widget_new (PlugboardResultView  *self,
                                       PlugboardResultBlock *block,
                                       const char           *text)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gsize length = strlen (text);
  gboolean split = block->kind == PLUGBOARD_RESULT_BLOCK_TEXT && text == block->text;

  if (length > LARGE_TEXT_BYTES)
    {
      /* A text block's rows hold the rest of what is shown (the chunks). */
      g_autofree char *start = split ? g_strndup (text, block->head_length) : utf8_prefix (text, LARGE_TEXT_SHOWN);
      g_autofree char *size = g_format_size (length);
      g_autofree char *shown = g_format_size (split ? MIN (length, LARGE_TEXT_SHOWN) : strlen (start));
      g_autofree char *note = g_strdup_printf (_("This text is %s; the first %s are shown."), size, shown);
      GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
      GtkWidget *label = gtk_label_new (note);
      GtkWidget *button = plugboard_result_view_save_button_new (block, _("_Save All As…"),
                                                                 _("Save the whole text to a file"));
      GtkWidget *content = gtk_label_new (start);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_widget_set_hexpand (label, TRUE);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_box_append (GTK_BOX (bar), label);
      gtk_box_append (GTK_BOX (bar), button);
      gtk_box_append (GTK_BOX (box), bar);

      gtk_label_set_xalign (GTK_LABEL (content), 0);
      gtk_label_set_selectable (GTK_LABEL (content), TRUE);
      plugboard_result_view_label_set_wrapping (content, self->wrap);
      gtk_widget_add_css_class (content, "monospace");
      gtk_box_append (GTK_BOX (box), content);
      return box;
    }

  if (split && block->head_length < length)
    {
      g_autofree char *head = g_strndup (text, block->head_length);

      gtk_box_append (GTK_BOX (box), plugboard_result_view_text_label_new (self, block, head));
      return box;
    }

  gtk_box_append (GTK_BOX (box), plugboard_result_view_text_label_new (self, block, text));
  return box;
}

static gboolean
set_rows_idle_cb (gpointer data)
{
  GListModel *section = data;
  /* The section's first row is its block. */
  g_autoptr(GObject) block = g_list_model_get_item (section, 0);

  if (block != NULL && PLUGBOARD_IS_RESULT_BLOCK (block))
    plugboard_result_block_set_rows (PLUGBOARD_RESULT_BLOCK (block));
  return G_SOURCE_REMOVE;
}

static void
on_raw_toggled_cb (GtkToggleButton      *button,
                   PlugboardResultBlock *block)
{
  block->raw = gtk_toggle_button_get_active (button);
  /* Replaces this block's rows (the tree goes, the text comes, or back),
   * which rebuilds this button: not while it is still emitting. The
   * section is kept rather than the block, whose parts it owns. */
  g_idle_add_full (G_PRIORITY_HIGH_IDLE, set_rows_idle_cb, g_object_ref (block->section), g_object_unref);
}

GtkWidget *
plugboard_result_view_json_widget_new (PlugboardResultView  *self,
                                       PlugboardResultBlock *block)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *raw = gtk_toggle_button_new_with_mnemonic (_("_Raw"));
  g_autofree char *title = NULL;

  if (JSON_NODE_HOLDS_OBJECT (block->json))
    {
      guint n = json_object_get_size (json_node_get_object (block->json));
      title = g_strdup_printf (ngettext ("JSON object · %u member", "JSON object · %u members", n), n);
    }
  else
    {
      guint n = json_array_get_length (json_node_get_array (block->json));
      title = g_strdup_printf (ngettext ("JSON array · %u element", "JSON array · %u elements", n), n);
    }
  if (block->title != NULL)
    {
      char *with_title = g_strdup_printf ("%s — %s", block->title, title);

      g_free (title);
      title = with_title;
    }

  gtk_box_append (GTK_BOX (bar), plugboard_result_view_caption_new ("text-x-generic-symbolic", title));
  gtk_widget_set_hexpand (gtk_widget_get_first_child (bar), TRUE);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (raw), block->raw);
  gtk_widget_set_tooltip_text (raw, _("Show the JSON as text"));
  gtk_widget_add_css_class (raw, "flat");
  gtk_widget_set_valign (raw, GTK_ALIGN_CENTER);
  g_signal_connect_object (raw, "toggled", G_CALLBACK (on_raw_toggled_cb), block, 0);
  gtk_box_append (GTK_BOX (bar), raw);
  gtk_box_append (GTK_BOX (box), bar);

  if (block->raw)
    {
      g_autofree char *pretty = NULL;
      const char *text = block->text;

      if (text == NULL || strlen (text) <= LARGE_TEXT_BYTES)
        text = pretty = plugboard_dup_json (block->json, TRUE);
      gtk_box_append (GTK_BOX (box), plugboard_result_view_text_widget_new (self, block, text));
    }

  return box;
}

GtkWidget *
plugboard_result_view_json_row_new (PlugboardResultView *self,
                                    GtkTreeListRow      *row)
{
  PlugboardJsonEntry *entry = gtk_tree_list_row_get_item (row);
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *key = gtk_label_new (plugboard_json_entry_get_key (entry));
  GtkWidget *value = gtk_label_new (NULL);
  JsonNode *node = plugboard_json_entry_get_node (entry);
  g_autofree char *text = NULL;

  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander), row);
  gtk_label_set_xalign (GTK_LABEL (key), 0);
  gtk_label_set_yalign (GTK_LABEL (key), 0);
  gtk_label_set_selectable (GTK_LABEL (key), TRUE);
  gtk_widget_add_css_class (key, "heading");
  gtk_box_append (GTK_BOX (box), key);

  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      guint n = json_object_get_size (json_node_get_object (node));
      text = g_strdup_printf (ngettext ("{ %u member }", "{ %u members }", n), n);
      gtk_widget_add_css_class (value, "dim-label");
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      guint n = json_array_get_length (json_node_get_array (node));
      text = g_strdup_printf (ngettext ("[ %u element ]", "[ %u elements ]", n), n);
      gtk_widget_add_css_class (value, "dim-label");
    }
  else if (JSON_NODE_HOLDS_NULL (node))
    {
      text = g_strdup ("null");
      gtk_widget_add_css_class (value, "monospace");
      gtk_widget_add_css_class (value, "dim-label");
    }
  else if (json_node_get_value_type (node) == G_TYPE_STRING)
    {
      const char *string = json_node_get_string (node);

      if (strlen (string) > MAX_JSON_STRING)
        {
          g_autofree char *start = utf8_prefix (string, MAX_JSON_STRING);
          text = g_strdup_printf ("%s…", start);
        }
      else
        text = g_strdup (string);
    }
  else
    {
      text = plugboard_dup_json (node, FALSE);
      gtk_widget_add_css_class (value, "monospace");
    }

  gtk_label_set_text (GTK_LABEL (value), text);
  gtk_label_set_xalign (GTK_LABEL (value), 0);
  gtk_label_set_selectable (GTK_LABEL (value), TRUE);
  plugboard_result_view_label_set_wrapping (value, TRUE);
  gtk_widget_set_hexpand (value, TRUE);
  gtk_box_append (GTK_BOX (box), value);

  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), box);
  gtk_widget_set_margin_top (expander, 2);
  gtk_widget_set_margin_bottom (expander, 2);
  return expander;
}
