/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-needs-auth-cache"

#include "config.h"

#include "mcp-needs-auth-cache.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "mcp-json-private.h"

#define CACHE_VERSION 1
#define TTL_MS ((gint64) MCP_NEEDS_AUTH_CACHE_TTL_S * 1000)

char *
mcp_needs_auth_cache_default_path (void)
{
  return g_build_filename (g_get_user_cache_dir (), "plugboard", "mcp-needs-auth-cache.json", NULL);
}

static char *
resolve_path (const char *path)
{
  return path != NULL ? g_strdup (path) : mcp_needs_auth_cache_default_path ();
}

static gint64
now_ms (void)
{
  return g_get_real_time () / 1000;
}

/* The entries that are well formed and not expired: key → gint64 timestamp
 * (ms). *pruned is set when the file held anything else in "entries" or was
 * corrupt, i.e. when writing it back would change it. */
static GHashTable *
read_entries (const char *path,
              gint64      now,
              gboolean   *pruned)
{
  g_autoptr(GHashTable) entries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(JsonNode) parsed = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;
  JsonNode *root;
  JsonNode *entries_node;
  JsonObjectIter iter;
  const char *key;
  JsonNode *value;

  *pruned = FALSE;

  if (!g_file_get_contents (path, &contents, &length, &error))
    {
      if (!g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        g_debug ("Could not read the needs-auth cache %s: %s", path, error->message);
      return g_steal_pointer (&entries);
    }

  if ((parsed = mcp_json_parse (contents, length, &error)) == NULL)
    {
      g_debug ("The needs-auth cache %s is not JSON (%s); it will be replaced", path, error->message);
      *pruned = TRUE;
      return g_steal_pointer (&entries);
    }

  root = parsed;
  entries_node = root != NULL && JSON_NODE_HOLDS_OBJECT (root)
    ? json_object_get_member (json_node_get_object (root), "entries")
    : NULL;

  if (entries_node == NULL || !JSON_NODE_HOLDS_OBJECT (entries_node))
    {
      g_debug ("The needs-auth cache %s has no \"entries\" object; it will be replaced", path);
      *pruned = TRUE;
      return g_steal_pointer (&entries);
    }

  json_object_iter_init (&iter, json_node_get_object (entries_node));
  while (json_object_iter_next (&iter, &key, &value))
    {
      JsonNode *timestamp_node = NULL;
      gint64 timestamp;

      if (JSON_NODE_HOLDS_OBJECT (value))
        timestamp_node = json_object_get_member (json_node_get_object (value), "timestamp");

      if (timestamp_node == NULL ||
          !JSON_NODE_HOLDS_VALUE (timestamp_node) ||
          (json_node_get_value_type (timestamp_node) != G_TYPE_INT64 &&
           json_node_get_value_type (timestamp_node) != G_TYPE_DOUBLE))
        {
          *pruned = TRUE;
          continue;
        }

      if (json_node_get_value_type (timestamp_node) == G_TYPE_INT64)
        timestamp = json_node_get_int (timestamp_node);
      else
        {
          double number = json_node_get_double (timestamp_node);

          /* a double out of gint64's range (1.5e39999999999 is inf, found
           * by fuzz-needs-auth-cache) has no conversion */
          if (!(number > -9.0e18 && number < 9.0e18))
            {
              *pruned = TRUE;
              continue;
            }
          timestamp = (gint64) number;
        }

      /* not now - timestamp, which overflows for a timestamp far in the past;
       * a timestamp in the future counts as now */
      if (timestamp <= now - TTL_MS)
        {
          *pruned = TRUE;
          continue;
        }

      g_hash_table_replace (entries, g_strdup (key), g_memdup2 (&timestamp, sizeof timestamp));
    }

  return g_steal_pointer (&entries);
}

static void
write_entries (const char *path,
               GHashTable *entries)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *data = NULL;
  g_autoptr(GList) keys = NULL;
  gsize length;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, CACHE_VERSION);
  json_builder_set_member_name (builder, "entries");
  json_builder_begin_object (builder);

  keys = g_list_sort (g_hash_table_get_keys (entries), (GCompareFunc) g_strcmp0);
  for (const GList *l = keys; l != NULL; l = l->next)
    {
      const gint64 *timestamp = g_hash_table_lookup (entries, l->data);

      json_builder_set_member_name (builder, l->data);
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "timestamp");
      json_builder_add_int_value (builder, *timestamp);
      json_builder_end_object (builder);
    }

  json_builder_end_object (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  data = json_generator_to_data (generator, &length);

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_debug ("Could not create the folder %s for the needs-auth cache: %s",
               dir, g_strerror (saved_errno));
      return;
    }

  if (!g_file_set_contents_full (path, data, length,
                                 G_FILE_SET_CONTENTS_CONSISTENT, 0600, &error))
    g_debug ("Could not write the needs-auth cache: %s", error->message);
}

gint64
mcp_needs_auth_cache_remaining (const char *path,
                                const char *key)
{
  g_autofree char *file = resolve_path (path);
  g_autoptr(GHashTable) entries = NULL;
  const gint64 *timestamp;
  gboolean pruned;
  gint64 now = now_ms ();
  gint64 left_ms;

  g_return_val_if_fail (key != NULL, 0);

  entries = read_entries (file, now, &pruned);
  timestamp = g_hash_table_lookup (entries, key);
  if (timestamp == NULL)
    return 0;

  /* *timestamp > now - TTL_MS (read_entries), so this cannot overflow */
  left_ms = CLAMP (TTL_MS - (now - MIN (*timestamp, now)), 0, TTL_MS);
  return (left_ms + 999) / 1000;
}

gboolean
mcp_needs_auth_cache_contains (const char *path,
                               const char *key)
{
  g_return_val_if_fail (key != NULL, FALSE);

  return mcp_needs_auth_cache_remaining (path, key) > 0;
}

void
mcp_needs_auth_cache_add (const char *path,
                          const char *key)
{
  g_autofree char *file = resolve_path (path);
  g_autoptr(GHashTable) entries = NULL;
  gboolean pruned;
  gint64 now = now_ms ();

  g_return_if_fail (key != NULL);

  entries = read_entries (file, now, &pruned);
  g_hash_table_replace (entries, g_strdup (key), g_memdup2 (&now, sizeof now));
  write_entries (file, entries);
}

void
mcp_needs_auth_cache_remove (const char *path,
                             const char *key)
{
  g_autofree char *file = resolve_path (path);
  g_autoptr(GHashTable) entries = NULL;
  gboolean pruned;
  gboolean removed;

  g_return_if_fail (key != NULL);

  entries = read_entries (file, now_ms (), &pruned);
  removed = g_hash_table_remove (entries, key);

  if (removed || pruned)
    write_entries (file, entries);
}
