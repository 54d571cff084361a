/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-capability-history"

#include "config.h"

#include "mcp-capability-history-private.h"

#include "mcp-json-private.h"

/* Past this many lines a side, a text is shown as all removed and all
 * added: the LCS table grows as the product. */
#define MAX_DIFF_LINES 500
/* The most paths one comparison reports, and how deep it looks. */
#define MAX_PATHS 200
#define MAX_DEPTH 64

static void
append_lines (GString     *out,
              char         prefix,
              char       **lines,
              guint        from,
              guint        to)
{
  for (guint i = from; i < to; i++)
    {
      g_string_append_c (out, prefix);
      g_string_append (out, lines[i]);
      g_string_append_c (out, '\n');
    }
}

char *
mcp_capability_diff_text (const char *old_text,
                          const char *new_text)
{
  g_auto(GStrv) a = NULL;
  g_auto(GStrv) b = NULL;
  g_autofree guint *table = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  guint n, m, i, j;

  if (g_strcmp0 (old_text, new_text) == 0)
    return NULL;

  a = g_strsplit (old_text != NULL ? old_text : "", "\n", -1);
  b = g_strsplit (new_text != NULL ? new_text : "", "\n", -1);
  n = old_text != NULL ? g_strv_length (a) : 0;
  m = new_text != NULL ? g_strv_length (b) : 0;

  if (n > MAX_DIFF_LINES || m > MAX_DIFF_LINES)
    {
      append_lines (out, '-', a, 0, n);
      append_lines (out, '+', b, 0, m);
      return g_string_free (g_steal_pointer (&out), FALSE);
    }

  /* table[i][j]: the longest common subsequence of a[i..] and b[j..] */
  table = g_new0 (guint, (gsize) (n + 1) * (m + 1));
#define AT(i, j) table[(gsize) (i) * (m + 1) + (j)]
  for (i = n; i-- > 0; )
    for (j = m; j-- > 0; )
      AT (i, j) = g_str_equal (a[i], b[j]) ? AT (i + 1, j + 1) + 1 : MAX (AT (i + 1, j), AT (i, j + 1));

  for (i = 0, j = 0; i < n || j < m; )
    {
      if (i < n && j < m && g_str_equal (a[i], b[j]))
        {
          append_lines (out, ' ', a, i, i + 1);
          i++;
          j++;
        }
      else if (j < m && (i == n || AT (i, j + 1) >= AT (i + 1, j)))
        {
          append_lines (out, '+', b, j, j + 1);
          j++;
        }
      else
        {
          append_lines (out, '-', a, i, i + 1);
          i++;
        }
    }
#undef AT

  return g_string_free (g_steal_pointer (&out), FALSE);
}

static void
diff_nodes (GPtrArray *paths,
            GString   *path,
            JsonNode  *old_node,
            JsonNode  *new_node,
            guint      depth);

static void
add_path (GPtrArray  *paths,
          const char *what,
          GString    *path)
{
  if (paths->len < MAX_PATHS)
    g_ptr_array_add (paths, g_strdup_printf ("%s %s", what, path->str));
}

static void
diff_objects (GPtrArray  *paths,
              GString    *path,
              JsonObject *old_object,
              JsonObject *new_object,
              guint       depth,
              gboolean    top)
{
  g_autoptr(GList) old_members = json_object_get_members (old_object);
  g_autoptr(GList) new_members = json_object_get_members (new_object);
  gsize len = path->len;

  old_members = g_list_sort (old_members, (GCompareFunc) g_strcmp0);
  new_members = g_list_sort (new_members, (GCompareFunc) g_strcmp0);

  for (GList *l = old_members; l != NULL; l = l->next)
    {
      if (top && g_str_equal (l->data, "description"))
        continue;
      mcp_json_append_path_member (path, l->data);
      if (!json_object_has_member (new_object, l->data))
        add_path (paths, "removed", path);
      else
        diff_nodes (paths, path, json_object_get_member (old_object, l->data),
                    json_object_get_member (new_object, l->data), depth + 1);
      g_string_truncate (path, len);
    }
  for (GList *l = new_members; l != NULL; l = l->next)
    {
      if ((top && g_str_equal (l->data, "description")) || json_object_has_member (old_object, l->data))
        continue;
      mcp_json_append_path_member (path, l->data);
      add_path (paths, "added", path);
      g_string_truncate (path, len);
    }
}

static void
diff_nodes (GPtrArray *paths,
            GString   *path,
            JsonNode  *old_node,
            JsonNode  *new_node,
            guint      depth)
{
  if (mcp_json_equal (old_node, new_node))
    return;
  if (depth < MAX_DEPTH && JSON_NODE_HOLDS_OBJECT (old_node) && JSON_NODE_HOLDS_OBJECT (new_node))
    diff_objects (paths, path, json_node_get_object (old_node), json_node_get_object (new_node),
                  depth, FALSE);
  else
    add_path (paths, "changed", path);
}

GStrv
mcp_capability_diff_json (JsonObject *old_item,
                          JsonObject *new_item)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) path = g_string_new ("$");

  diff_objects (paths, path, old_item, new_item, 0, TRUE);
  if (paths->len == 0)
    return NULL;
  g_ptr_array_add (paths, NULL);
  return (GStrv) g_ptr_array_free (g_steal_pointer (&paths), FALSE);
}
