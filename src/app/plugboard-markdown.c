/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-markdown"

#include "config.h"

#include "plugboard-markdown.h"

#include <string.h>

#include <cmark.h>

/* detect() looks at no more than this much of a text. */
#define DETECT_MAX_BYTES (64 * 1024)

typedef struct
{
  GString   *out;
  /* Items whose marker ("•", "1.") has not been written yet. */
  GPtrArray *pending_items;
} Renderer;

static void
append_escaped (GString    *out,
                const char *text,
                gssize      length)
{
  g_autofree char *escaped = NULL;

  if (text == NULL)
    return;
  escaped = g_markup_escape_text (text, length);
  g_string_append (out, escaped);
}

static gboolean
url_is_allowed (const char *url)
{
  g_autofree char *scheme = NULL;

  if (url == NULL || *url == '\0')
    return FALSE;
  scheme = g_uri_parse_scheme (url);
  if (scheme == NULL)
    return FALSE;
  return g_ascii_strcasecmp (scheme, "http") == 0 ||
         g_ascii_strcasecmp (scheme, "https") == 0 ||
         g_ascii_strcasecmp (scheme, "mailto") == 0;
}

static guint
item_number (cmark_node *item)
{
  cmark_node *list = cmark_node_parent (item);
  int start = cmark_node_get_list_start (list);
  guint index = 0;

  for (cmark_node *sibling = cmark_node_previous (item);
       sibling != NULL;
       sibling = cmark_node_previous (sibling))
    index++;

  return (guint) MAX (start, 0) + index;
}

/* The indentation a line of @node starts with: a bar per block quote, and
 * per list item its marker (on the first line of the item's first block)
 * or as much space. With @first FALSE (a continuation line) markers are
 * never written. */
static void
append_prefix (Renderer   *self,
               cmark_node *node,
               gboolean    first)
{
  g_autoptr(GPtrArray) ancestors = g_ptr_array_new ();

  for (cmark_node *parent = cmark_node_parent (node);
       parent != NULL && cmark_node_get_type (parent) != CMARK_NODE_DOCUMENT;
       parent = cmark_node_parent (parent))
    g_ptr_array_insert (ancestors, 0, parent);

  for (guint i = 0; i < ancestors->len; i++)
    {
      cmark_node *ancestor = g_ptr_array_index (ancestors, i);

      switch (cmark_node_get_type (ancestor))
        {
        case CMARK_NODE_BLOCK_QUOTE:
          g_string_append (self->out, "<span fgalpha=\"45%\">\u2503</span> ");
          break;

        case CMARK_NODE_ITEM:
          if (first && g_ptr_array_remove (self->pending_items, ancestor))
            {
              cmark_node *list = cmark_node_parent (ancestor);

              if (cmark_node_get_list_type (list) == CMARK_ORDERED_LIST)
                g_string_append_printf (self->out, "%u%c ",
                                        item_number (ancestor),
                                        cmark_node_get_list_delim (list) == CMARK_PAREN_DELIM ? ')' : '.');
              else
                g_string_append (self->out, "\u2022 ");
            }
          else
            g_string_append (self->out, "    ");
          break;

        default:
          break;
        }
    }
}

/* Blocks are separated by a blank line, except the blocks of a tight
 * list's items, one a line. */
static void
begin_leaf_block (Renderer   *self,
                  cmark_node *node)
{
  if (self->out->len > 0)
    {
      cmark_node *parent = cmark_node_parent (node);
      gboolean tight = FALSE;

      if (parent != NULL && cmark_node_get_type (parent) == CMARK_NODE_ITEM)
        {
          cmark_node *list = cmark_node_parent (parent);

          tight = cmark_node_get_list_tight (list);
          /* A list's first line is apart from a paragraph before it, but
           * follows its own item's line directly when nested. */
          if (tight && cmark_node_previous (node) == NULL && cmark_node_previous (parent) == NULL)
            {
              cmark_node *outer = cmark_node_parent (list);

              tight = outer != NULL && cmark_node_get_type (outer) == CMARK_NODE_ITEM &&
                      cmark_node_get_list_tight (cmark_node_parent (outer));
            }
        }

      g_string_append (self->out, tight ? "\n" : "\n\n");
    }

  append_prefix (self, node, TRUE);
}

/* Literal text with several lines (code blocks, raw HTML): each line after
 * the first gets the block's continuation prefix. */
static void
append_lines (Renderer   *self,
              cmark_node *node,
              const char *literal)
{
  g_autofree char *text = g_strdup (literal != NULL ? literal : "");
  g_auto(GStrv) lines = NULL;
  gsize length = strlen (text);

  while (length > 0 && text[length - 1] == '\n')
    text[--length] = '\0';

  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (i > 0)
        {
          g_string_append_c (self->out, '\n');
          append_prefix (self, node, FALSE);
        }
      append_escaped (self->out, lines[i], -1);
    }
}

static const char *
heading_open (int level)
{
  switch (level)
    {
    case 1:
      return "<span size=\"xx-large\" weight=\"bold\">";
    case 2:
      return "<span size=\"x-large\" weight=\"bold\">";
    case 3:
      return "<span size=\"large\" weight=\"bold\">";
    default:
      return "<span weight=\"bold\">";
    }
}

/* The block a continuation line (a hard break) belongs to. */
static cmark_node *
enclosing_block (cmark_node *node)
{
  while (node != NULL && cmark_node_get_type (node) >= CMARK_NODE_FIRST_INLINE)
    node = cmark_node_parent (node);
  return node;
}

/* Whether an inline is inside a link that was written as <a>. */
static gboolean
inside_allowed_link (cmark_node *node)
{
  for (cmark_node *parent = cmark_node_parent (node);
       parent != NULL;
       parent = cmark_node_parent (parent))
    if (cmark_node_get_type (parent) == CMARK_NODE_LINK)
      return url_is_allowed (cmark_node_get_url (parent));
  return FALSE;
}

static void
render_node (Renderer         *self,
             cmark_node       *node,
             cmark_event_type  event)
{
  gboolean entering = event == CMARK_EVENT_ENTER;

  switch (cmark_node_get_type (node))
    {
    case CMARK_NODE_ITEM:
      if (entering)
        g_ptr_array_add (self->pending_items, node);
      else
        g_ptr_array_remove (self->pending_items, node);
      break;

    case CMARK_NODE_PARAGRAPH:
      if (entering)
        begin_leaf_block (self, node);
      break;

    case CMARK_NODE_HEADING:
      if (entering)
        {
          begin_leaf_block (self, node);
          g_string_append (self->out, heading_open (cmark_node_get_heading_level (node)));
        }
      else
        g_string_append (self->out, "</span>");
      break;

    case CMARK_NODE_CODE_BLOCK:
      begin_leaf_block (self, node);
      g_string_append (self->out, "<tt>");
      append_lines (self, node, cmark_node_get_literal (node));
      g_string_append (self->out, "</tt>");
      break;

    case CMARK_NODE_HTML_BLOCK:
      begin_leaf_block (self, node);
      append_lines (self, node, cmark_node_get_literal (node));
      break;

    case CMARK_NODE_THEMATIC_BREAK:
      begin_leaf_block (self, node);
      g_string_append (self->out, "<span fgalpha=\"45%\">\u2014\u2014\u2014\u2014\u2014\u2014\u2014\u2014</span>");
      break;

    case CMARK_NODE_TEXT:
    case CMARK_NODE_HTML_INLINE:
      append_escaped (self->out, cmark_node_get_literal (node), -1);
      break;

    case CMARK_NODE_CODE:
      g_string_append (self->out, "<tt>");
      append_escaped (self->out, cmark_node_get_literal (node), -1);
      g_string_append (self->out, "</tt>");
      break;

    case CMARK_NODE_SOFTBREAK:
      g_string_append_c (self->out, ' ');
      break;

    case CMARK_NODE_LINEBREAK:
      g_string_append_c (self->out, '\n');
      append_prefix (self, enclosing_block (node), FALSE);
      break;

    case CMARK_NODE_EMPH:
      g_string_append (self->out, entering ? "<i>" : "</i>");
      break;

    case CMARK_NODE_STRONG:
      g_string_append (self->out, entering ? "<b>" : "</b>");
      break;

    case CMARK_NODE_LINK:
      /* GtkLabel does not nest links; an inner one (only possible through
       * an image's alt text) stays text. */
      if (url_is_allowed (cmark_node_get_url (node)) && !inside_allowed_link (node))
        {
          if (entering)
            {
              g_string_append (self->out, "<a href=\"");
              append_escaped (self->out, cmark_node_get_url (node), -1);
              g_string_append (self->out, "\">");
            }
          else
            g_string_append (self->out, "</a>");
        }
      break;

    case CMARK_NODE_IMAGE:
      /* Images are not fetched: their description stands in. */
      g_string_append (self->out, entering ? "<i>" : "</i>");
      break;

    case CMARK_NODE_NONE:
    case CMARK_NODE_DOCUMENT:
    case CMARK_NODE_BLOCK_QUOTE:
    case CMARK_NODE_LIST:
    case CMARK_NODE_CUSTOM_BLOCK:
    case CMARK_NODE_CUSTOM_INLINE:
    default:
      break;
    }
}

static cmark_node *
parse (const char *markdown,
       gssize      length)
{
  g_autofree char *valid = g_utf8_make_valid (markdown, length);

  return cmark_parse_document (valid, strlen (valid), CMARK_OPT_DEFAULT);
}

char *
plugboard_markdown_to_pango (const char *markdown)
{
  Renderer renderer;
  cmark_node *document;
  cmark_iter *iter;
  cmark_event_type event;

  if (markdown == NULL || *markdown == '\0')
    return g_strdup ("");

  document = parse (markdown, -1);
  renderer.out = g_string_new (NULL);
  renderer.pending_items = g_ptr_array_new ();

  iter = cmark_iter_new (document);
  while ((event = cmark_iter_next (iter)) != CMARK_EVENT_DONE)
    render_node (&renderer, cmark_iter_get_node (iter), event);
  cmark_iter_free (iter);
  cmark_node_free (document);

  g_ptr_array_unref (renderer.pending_items);
  return g_string_free (renderer.out, FALSE);
}

gboolean
plugboard_markdown_detect (const char *text)
{
  cmark_node *document;
  cmark_iter *iter;
  cmark_event_type event;
  gboolean found = FALSE;
  gsize length;

  if (text == NULL || *text == '\0')
    return FALSE;

  length = strlen (text);
  if (length > DETECT_MAX_BYTES)
    {
      const char *end = text + DETECT_MAX_BYTES;

      /* Cut at a line end, so a construct is not split. */
      while (end > text && *end != '\n')
        end--;
      length = end > text ? (gsize) (end - text) : DETECT_MAX_BYTES;
    }

  document = parse (text, length);
  iter = cmark_iter_new (document);
  while (!found && (event = cmark_iter_next (iter)) != CMARK_EVENT_DONE)
    {
      cmark_node *node = cmark_iter_get_node (iter);

      if (event != CMARK_EVENT_ENTER)
        continue;

      switch (cmark_node_get_type (node))
        {
        case CMARK_NODE_HEADING:
        case CMARK_NODE_LIST:
        case CMARK_NODE_BLOCK_QUOTE:
        case CMARK_NODE_EMPH:
        case CMARK_NODE_STRONG:
        case CMARK_NODE_LINK:
        case CMARK_NODE_IMAGE:
        case CMARK_NODE_CODE:
          found = TRUE;
          break;

        case CMARK_NODE_CODE_BLOCK:
          /* A fence, not text that happens to be indented. */
          {
            int line = cmark_node_get_start_line (node);
            int column = cmark_node_get_start_column (node);
            const char *p = text;

            for (int l = 1; l < line && p != NULL; l++)
              {
                p = strchr (p, '\n');
                if (p != NULL)
                  p++;
              }
            if (p != NULL && column >= 1 && (gsize) (p - text) + column - 1 < length)
              {
                p += column - 1;
                while (*p == ' ')
                  p++;
                found = *p == '`' || *p == '~';
              }
          }
          break;

        default:
          break;
        }
    }
  cmark_iter_free (iter);
  cmark_node_free (document);

  return found;
}
