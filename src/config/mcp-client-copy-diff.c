/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client-copy"

#include "config.h"

#include "mcp-client-copy.h"

#include <string.h>

/* The preview of a copy: a unified diff of a file's text before and after.
 * The lines both texts begin and end with are set aside first (a copy adds
 * one entry, so that is nearly everything); what is left is compared line
 * by line (the longest common subsequence) when it is small enough, and
 * shown as one removed-and-added block when it is not, so a huge file
 * never costs more than MAX_CELLS steps. */

#define CONTEXT 3
#define MAX_CELLS (2u * 1000u * 1000u)

typedef struct
{
  const char *start;
  gsize       length;   /* with its "\n", when it has one */
} Line;

static GArray *
split_lines (const char *text)
{
  GArray *lines = g_array_new (FALSE, FALSE, sizeof (Line));
  const char *p = text != NULL ? text : "";

  while (*p != '\0')
    {
      const char *end = strchr (p, '\n');
      Line line = { p, end != NULL ? (gsize) (end - p) + 1 : strlen (p) };

      g_array_append_val (lines, line);
      p += line.length;
    }

  return lines;
}

static gboolean
lines_equal (const Line *a,
             const Line *b)
{
  return a->length == b->length && memcmp (a->start, b->start, a->length) == 0;
}

typedef enum
{
  OP_SAME,
  OP_REMOVE,
  OP_ADD,
} Op;

typedef struct
{
  Op    op;
  guint index;    /* into before (SAME, REMOVE) or after (ADD) */
  guint other;    /* SAME: the index into after */
} Step;

/* The steps from @a[a0, a1) to @b[b0, b1) */
static void
compare_middle (GArray *a,
                guint   a0,
                guint   a1,
                GArray *b,
                guint   b0,
                guint   b1,
                GArray *steps)
{
  guint n = a1 - a0;
  guint m = b1 - b0;
  g_autofree guint32 *table = NULL;
  guint i = 0;
  guint j = 0;

  if (n == 0 || m == 0 || (guint64) (n + 1) * (m + 1) > MAX_CELLS)
    {
      for (guint k = a0; k < a1; k++)
        g_array_append_val (steps, ((Step) { OP_REMOVE, k, 0 }));
      for (guint k = b0; k < b1; k++)
        g_array_append_val (steps, ((Step) { OP_ADD, k, 0 }));
      return;
    }

  /* table[i][j]: the longest common subsequence of a[i..] and b[j..] */
  table = g_new0 (guint32, (gsize) (n + 1) * (m + 1));
#define AT(i, j) table[(gsize) (i) * (m + 1) + (j)]
  for (guint x = n; x-- > 0;)
    for (guint y = m; y-- > 0;)
      {
        if (lines_equal (&g_array_index (a, Line, a0 + x), &g_array_index (b, Line, b0 + y)))
          AT (x, y) = AT (x + 1, y + 1) + 1;
        else
          AT (x, y) = MAX (AT (x + 1, y), AT (x, y + 1));
      }

  while (i < n || j < m)
    {
      if (i < n && j < m &&
          lines_equal (&g_array_index (a, Line, a0 + i), &g_array_index (b, Line, b0 + j)))
        {
          g_array_append_val (steps, ((Step) { OP_SAME, a0 + i, b0 + j }));
          i++;
          j++;
        }
      else if (i < n && (j == m || AT (i + 1, j) >= AT (i, j + 1)))
        {
          /* removed lines before added ones, as diff shows them */
          g_array_append_val (steps, ((Step) { OP_REMOVE, a0 + i, 0 }));
          i++;
        }
      else
        {
          g_array_append_val (steps, ((Step) { OP_ADD, b0 + j, 0 }));
          j++;
        }
    }
#undef AT
}

static void
append_line (GString    *out,
             char        mark,
             const Line *line)
{
  g_string_append_c (out, mark);
  g_string_append_len (out, line->start, line->length);
  if (line->length == 0 || line->start[line->length - 1] != '\n')
    g_string_append (out, "\n\\ No newline at end of file\n");
}

/* "-a,b" as diff writes it: the line before an empty range */
static void
append_range (GString *out,
              char     sign,
              guint    first,
              guint    count)
{
  if (count == 0)
    g_string_append_printf (out, "%c%u,0", sign, first);
  else if (count == 1)
    g_string_append_printf (out, "%c%u", sign, first + 1);
  else
    g_string_append_printf (out, "%c%u,%u", sign, first + 1, count);
}

char *
mcp_text_diff (const char *label,
               const char *before,
               const char *after)
{
  g_autoptr(GArray) a = split_lines (before);
  g_autoptr(GArray) b = split_lines (after);
  g_autoptr(GArray) steps = g_array_new (FALSE, FALSE, sizeof (Step));
  g_autoptr(GArray) a_at = NULL;
  g_autoptr(GArray) b_at = NULL;
  g_autoptr(GString) out = NULL;
  guint prefix = 0;
  guint suffix = 0;
  guint k = 0;

  g_return_val_if_fail (label != NULL, NULL);

  if (g_strcmp0 (before != NULL ? before : "", after != NULL ? after : "") == 0)
    return NULL;

  while (prefix < a->len && prefix < b->len &&
         lines_equal (&g_array_index (a, Line, prefix), &g_array_index (b, Line, prefix)))
    prefix++;
  while (suffix < a->len - prefix && suffix < b->len - prefix &&
         lines_equal (&g_array_index (a, Line, a->len - 1 - suffix), &g_array_index (b, Line, b->len - 1 - suffix)))
    suffix++;

  for (guint i = 0; i < prefix; i++)
    g_array_append_val (steps, ((Step) { OP_SAME, i, i }));
  compare_middle (a, prefix, a->len - suffix, b, prefix, b->len - suffix, steps);
  for (guint i = 0; i < suffix; i++)
    g_array_append_val (steps, ((Step) { OP_SAME, a->len - suffix + i, b->len - suffix + i }));

  /* for each step, the lines of each text before it */
  a_at = g_array_sized_new (FALSE, FALSE, sizeof (guint), steps->len + 1);
  b_at = g_array_sized_new (FALSE, FALSE, sizeof (guint), steps->len + 1);
  {
    guint a_lines = 0;
    guint b_lines = 0;

    for (guint s = 0; s <= steps->len; s++)
      {
        g_array_append_val (a_at, a_lines);
        g_array_append_val (b_at, b_lines);
        if (s < steps->len && g_array_index (steps, Step, s).op != OP_ADD)
          a_lines++;
        if (s < steps->len && g_array_index (steps, Step, s).op != OP_REMOVE)
          b_lines++;
      }
  }

  out = g_string_new (NULL);
  g_string_append_printf (out, "--- %s\n+++ %s\n", label, label);

  /* hunks: the changes with CONTEXT lines around them, joined when the
   * context of two would touch */
  while (k < steps->len)
    {
      guint first_change = k;
      guint start;
      guint end;
      guint a_first, a_count, b_first, b_count;

      while (first_change < steps->len && g_array_index (steps, Step, first_change).op == OP_SAME)
        first_change++;
      if (first_change == steps->len)
        break;

      start = first_change >= CONTEXT ? first_change - CONTEXT : 0;
      start = MAX (start, k);
      end = first_change;
      for (;;)
        {
          guint same = 0;
          guint next = end;

          while (next < steps->len && g_array_index (steps, Step, next).op != OP_SAME)
            next++;
          end = next;
          while (next < steps->len && g_array_index (steps, Step, next).op == OP_SAME && same <= 2 * CONTEXT)
            {
              next++;
              same++;
            }
          if (next < steps->len && same <= 2 * CONTEXT)
            {
              end = next;
              continue;
            }
          end = MIN (end + CONTEXT, steps->len);
          break;
        }

      /* where the hunk begins in each text, and how many lines it has */
      a_first = g_array_index (a_at, guint, start);
      b_first = g_array_index (b_at, guint, start);
      a_count = g_array_index (a_at, guint, end) - a_first;
      b_count = g_array_index (b_at, guint, end) - b_first;

      g_string_append (out, "@@ ");
      append_range (out, '-', a_first, a_count);
      g_string_append_c (out, ' ');
      append_range (out, '+', b_first, b_count);
      g_string_append (out, " @@\n");

      for (guint s = start; s < end; s++)
        {
          Step *step = &g_array_index (steps, Step, s);

          if (step->op == OP_SAME)
            append_line (out, ' ', &g_array_index (a, Line, step->index));
          else if (step->op == OP_REMOVE)
            append_line (out, '-', &g_array_index (a, Line, step->index));
          else
            append_line (out, '+', &g_array_index (b, Line, step->index));
        }

      k = end;
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}
