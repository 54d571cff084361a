/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-json-document-private.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"

/* McpJsonDocument's splices: the bytes an edit replaces, applied from the
 * last to the first and checked by parsing the text again; and the three
 * edits of a container every operation is made of (insert a child,
 * replace a value, remove a child). */

typedef struct
{
  gsize  start;
  gsize  end;
  char  *text;
  gsize  length;
} Splice;

static int
compare_splices (gconstpointer a,
                 gconstpointer b)
{
  const Splice *x = a;
  const Splice *y = b;

  return x->start < y->start ? 1 : x->start > y->start ? -1 : 0;
}

/* Applies the splices (from the last to the first, so that offsets hold)
 * and parses the text again; on failure the text is as it was. */
gboolean
mcp_json_document_apply_splices (McpJsonDocument  *self,
                                 GArray           *splices,
                                 GError          **error)
{
  gsize saved_length = self->text->len;
  g_autofree char *saved = g_memdup2 (self->text->str, saved_length + 1);
  g_autoptr(GError) local_error = NULL;

  g_array_sort (splices, compare_splices);
  for (guint i = 0; i < splices->len; i++)
    {
      Splice *splice = &g_array_index (splices, Splice, i);

      g_string_erase (self->text, splice->start, splice->end - splice->start);
      g_string_insert_len (self->text, splice->start, splice->text, splice->length);
    }

  if (mcp_json_document_reindex (self, &local_error))
    return TRUE;

  g_critical ("An edit made the JSON text invalid (%s); it was undone", local_error->message);
  g_string_truncate (self->text, 0);
  g_string_append_len (self->text, saved, saved_length);
  if (!mcp_json_document_reindex (self, NULL))
    g_assert_not_reached ();
  g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
               _("The edit could not be made without breaking the file; nothing was changed"));

  return FALSE;
}

static void
splice_free (Splice *splice)
{
  g_free (splice->text);
}

GArray *
mcp_json_splices_new (void)
{
  GArray *splices = g_array_new (FALSE, FALSE, sizeof (Splice));

  g_array_set_clear_func (splices, (GDestroyNotify) splice_free);

  return splices;
}

void
mcp_json_splices_add (GArray *splices,
                      gsize   start,
                      gsize   end,
                      char   *text)
{
  Splice splice = { start, end, text != NULL ? text : g_strdup (""), text != NULL ? strlen (text) : 0 };

  g_array_append_val (splices, splice);
}

/* (its length, not strlen(): a copied value may hold a nul in a JSONC comment) */
static void
add_splice_string (GArray  *splices,
                   gsize    start,
                   gsize    end,
                   GString *text)
{
  gsize length = text->len;
  Splice splice = { start, end, g_string_free (text, FALSE), length };

  g_array_append_val (splices, splice);
}

/* Adds @key (NULL in an array) with @value at the end of @container. */
gboolean
mcp_json_document_insert_child (McpJsonDocument  *self,
                                Node             *container,
                                const char       *key,
                                const Value      *value,
                                GError          **error)
{
  g_autoptr(GArray) splices = mcp_json_splices_new ();
  const char *s = self->text->str;
  GString *entry = g_string_new (NULL);
  gboolean pretty = mcp_json_document_is_multiline (self, container);

  if (container->children->len == 0)
    {
      gsize inner_start = container->start + 1;
      gsize inner_end = container->end - 1;
      gboolean empty = mcp_json_is_blank (s + inner_start, inner_end - inner_start);

      if (pretty)
        {
          g_autofree char *outer = mcp_json_indent_at (s, container->start);
          g_autofree char *inner = g_strconcat (outer, self->unit, NULL);

          g_string_append_printf (entry, "%s%s", self->newline, inner);
          mcp_json_document_append_entry (self, entry, key, value, inner, TRUE);
          if (empty)
            g_string_append_printf (entry, "%s%s", self->newline, outer);
        }
      else
        {
          mcp_json_document_append_entry (self, entry, key, value, "", FALSE);
        }
      add_splice_string (splices, inner_start, empty ? inner_end : inner_start, entry);
    }
  else
    {
      Node *last = container->children->pdata[container->children->len - 1];

      if (pretty)
        {
          g_autofree char *indent = mcp_json_indent_at (s, mcp_json_node_member_start (last));

          g_string_append_printf (entry, "%s%s", self->newline, indent);
          mcp_json_document_append_entry (self, entry, key, value, indent, TRUE);
          if (last->comma != MCP_JSON_NO_POS)
            {
              /* a trailing comma stays a trailing comma */
              g_string_append_c (entry, ',');
              add_splice_string (splices, mcp_json_document_end_of_line (self, last->comma + 1),
                                 mcp_json_document_end_of_line (self, last->comma + 1), entry);
            }
          else
            {
              gsize at = mcp_json_document_end_of_line (self, last->end);

              add_splice_string (splices, at, at, entry);
              mcp_json_splices_add (splices, last->end, last->end, g_strdup (","));
            }
        }
      else
        {
          g_string_append (entry, self->comma_space);
          mcp_json_document_append_entry (self, entry, key, value, "", FALSE);
          if (last->comma != MCP_JSON_NO_POS)
            {
              g_string_append_c (entry, ',');
              add_splice_string (splices, last->comma + 1, last->comma + 1, entry);
            }
          else
            {
              g_string_prepend_c (entry, ',');
              add_splice_string (splices, last->end, last->end, entry);
            }
        }
    }

  return mcp_json_document_apply_splices (self, splices, error);
}

gboolean
mcp_json_document_replace_value (McpJsonDocument  *self,
                                 Node             *container,
                                 Node             *child,
                                 const Value      *value,
                                 GError          **error)
{
  g_autoptr(GArray) splices = mcp_json_splices_new ();
  g_autofree char *indent = mcp_json_indent_at (self->text->str, mcp_json_node_member_start (child));
  GString *out = g_string_new (NULL);
  gboolean pretty;

  /* a value keeps its own layout; a new one takes its neighbours' */
  if (child->kind != 'v' && child->children->len > 0)
    pretty = memchr (self->text->str + child->start, '\n', child->end - child->start) != NULL;
  else
    pretty = mcp_json_document_is_multiline (self, container);

  mcp_json_document_append_value (self, out, value, indent, pretty);
  add_splice_string (splices, child->start, child->end, out);

  return mcp_json_document_apply_splices (self, splices, error);
}

gboolean
mcp_json_document_remove_child (McpJsonDocument  *self,
                                Node             *container,
                                guint             index,
                                GError          **error)
{
  g_autoptr(GArray) splices = mcp_json_splices_new ();
  const char *s = self->text->str;
  Node *child = container->children->pdata[index];
  gsize from = mcp_json_node_member_start (child);

  if (child->comma != MCP_JSON_NO_POS)
    {
      gsize after = mcp_json_document_end_of_line (self, child->comma + 1);
      gsize n = mcp_json_newline_at (s, after);

      /* a member on lines of its own goes with its lines */
      if (mcp_json_starts_line (s, from) && n > 0)
        {
          mcp_json_splices_add (splices, mcp_json_line_start (s, from), after + n, NULL);
        }
      else
        {
          gsize to = child->comma + 1;

          while (s[to] == ' ' || s[to] == '\t')
            to++;
          mcp_json_splices_add (splices, from, to, NULL);
        }
    }
  else if (index > 0)
    {
      Node *previous = container->children->pdata[index - 1];

      if (mcp_json_starts_line (s, from))
        {
          gsize line = mcp_json_line_start (s, from);
          gsize to = mcp_json_document_end_of_line (self, child->end);

          /* from the end of the line before it */
          line -= line >= 2 && s[line - 2] == '\r' ? 2 : 1;
          mcp_json_splices_add (splices, line, mcp_json_newline_at (s, to) > 0 ? to : child->end, NULL);
          mcp_json_splices_add (splices, previous->comma, previous->comma + 1, NULL);
        }
      else
        {
          mcp_json_splices_add (splices, previous->comma, child->end, NULL);
        }
    }
  else
    {
      gsize inner_start = container->start + 1;
      gsize inner_end = container->end - 1;

      /* the last member: "{}" when nothing else (a comment) is inside */
      if (mcp_json_is_blank (s + inner_start, from - inner_start) &&
          mcp_json_is_blank (s + child->end, inner_end - child->end))
        mcp_json_splices_add (splices, inner_start, inner_end, NULL);
      else
        mcp_json_splices_add (splices, from, child->end, NULL);
    }

  return mcp_json_document_apply_splices (self, splices, error);
}
