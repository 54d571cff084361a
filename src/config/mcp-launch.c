/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-launch.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n.h>

#include "mcp-json-private.h"
#include "mcp-redact.h"

char *
mcp_launch_dup_project_dir (McpServerConfig *config)
{
  g_autofree char *folder = NULL;
  char *real;

  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (config), NULL);

  if (mcp_server_config_get_scope (config) != MCP_CONFIG_SCOPE_PROJECT ||
      mcp_server_config_get_file (config) == NULL)
    return NULL;

  /* g_canonicalize_filename() only tidies the string: realpath() follows
   * the links, which is what a re-pointed link changes. */
  folder = g_path_get_dirname (mcp_server_config_get_file (config));
  real = realpath (folder, NULL);
  if (real == NULL)
    return g_steal_pointer (&folder);

  /* realpath()'s memory is malloc()'s, the caller's g_free()'s */
  g_free (folder);
  folder = g_strdup (real);
  free (real);

  return g_steal_pointer (&folder);
}

/* The config that runs: expanded when it expands. */
static McpServerConfig *
resolve (McpServerConfig    *config,
         const char * const *environ)
{
  McpServerConfig *expanded = mcp_server_config_expand (config, environ, NULL);

  return expanded != NULL ? expanded : g_object_ref (config);
}

/* Digest */

static void
hash_field (GChecksum  *checksum,
            const char *tag,
            const char *value)
{
  char prefix[64];
  gsize length = value != NULL ? strlen (value) : 0;

  /* "tag:-" is a field that is not there, "tag:5:" one of five bytes */
  if (value == NULL)
    g_snprintf (prefix, sizeof prefix, "%s:-;", tag);
  else
    g_snprintf (prefix, sizeof prefix, "%s:%" G_GSIZE_FORMAT ":", tag, length);
  g_checksum_update (checksum, (const guchar *) prefix, -1);
  if (value != NULL)
    g_checksum_update (checksum, (const guchar *) value, length);
}

static void
hash_count (GChecksum  *checksum,
            const char *tag,
            guint       count)
{
  g_autofree char *text = g_strdup_printf ("%u", count);

  hash_field (checksum, tag, text);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static int
compare_pairs (gconstpointer a,
               gconstpointer b)
{
  char * const *pair_a = *(char * const * const *) a;
  char * const *pair_b = *(char * const * const *) b;
  int order = strcmp (pair_a[0], pair_b[0]);

  return order != 0 ? order : strcmp (pair_a[1], pair_b[1]);
}

/* "NAME=value" or "Name: value" pairs, sorted by name, split */
static GPtrArray *
split_pairs (const char * const *pairs,
             const char         *separator)
{
  GPtrArray *split = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);

  for (guint i = 0; pairs != NULL && pairs[i] != NULL; i++)
    {
      const char *at = strstr (pairs[i], separator);
      char **pair = g_new0 (char *, 3);

      if (at == NULL)
        {
          pair[0] = g_strdup (pairs[i]);
          pair[1] = g_strdup ("");
        }
      else
        {
          pair[0] = g_strndup (pairs[i], at - pairs[i]);
          pair[1] = g_strdup (at + strlen (separator));
        }
      g_ptr_array_add (split, pair);
    }
  g_ptr_array_sort (split, compare_pairs);

  return split;
}

static void
hash_pairs (GChecksum          *checksum,
            const char         *tag,
            const char * const *pairs,
            const char         *separator)
{
  g_autoptr(GPtrArray) split = split_pairs (pairs, separator);

  hash_count (checksum, tag, split->len);
  for (guint i = 0; i < split->len; i++)
    {
      char **pair = split->pdata[i];

      hash_field (checksum, "name", pair[0]);
      hash_field (checksum, "value", pair[1]);
    }
}

static void
hash_member (GChecksum  *checksum,
             const char *tag,
             JsonObject *object,
             const char *member)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;
  g_autoptr(GString) text = NULL;

  if (node == NULL)
    {
      hash_field (checksum, tag, NULL);
      return;
    }
  text = g_string_new (NULL);
  mcp_json_append_canonical (text, node);
  hash_field (checksum, tag, text->str);
}

static char *
dup_value_digest (const char *value)
{
  g_autofree char *hex = g_compute_checksum_for_string (G_CHECKSUM_SHA256, value, -1);

  return g_strconcat (MCP_LAUNCH_DIGEST_PREFIX, hex, NULL);
}

char *
mcp_launch_dup_digest (McpServerConfig    *config,
                       const char * const *environ)
{
  g_autoptr(McpServerConfig) launch = NULL;
  g_autoptr(GChecksum) checksum = NULL;
  g_autofree char *project = NULL;
  const char * const *args;
  JsonObject *json;

  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (config), NULL);

  launch = resolve (config, environ);
  project = mcp_launch_dup_project_dir (config);
  json = mcp_server_config_get_json (launch);
  args = mcp_server_config_get_args (launch);
  checksum = g_checksum_new (G_CHECKSUM_SHA256);

  hash_field (checksum, "plugboard-launch", "1");
  hash_field (checksum, "type", mcp_server_config_get_transport_name (launch));
  hash_field (checksum, "command", mcp_server_config_get_command (launch));
  hash_count (checksum, "args", args != NULL ? g_strv_length ((char **) args) : 0);
  for (guint i = 0; args != NULL && args[i] != NULL; i++)
    hash_field (checksum, "arg", args[i]);
  hash_pairs (checksum, "env", mcp_server_config_get_env (launch), "=");
  hash_field (checksum, "cwd", mcp_server_config_get_cwd (launch));
  hash_field (checksum, "url", mcp_server_config_get_url (launch));
  hash_pairs (checksum, "headers", mcp_server_config_get_headers (launch), ": ");
  hash_member (checksum, "oauth", json, "oauth");
  hash_member (checksum, "ideLockDir", json, "ideLockDir");
  hash_member (checksum, "ideName", json, "ideName");
  hash_field (checksum, "project", project);

  return g_strconcat (MCP_LAUNCH_DIGEST_PREFIX, g_checksum_get_string (checksum), NULL);
}

/* Description */

static JsonObject *
describe_pairs (const char * const *pairs,
                const char         *separator)
{
  g_autoptr(GPtrArray) split = split_pairs (pairs, separator);
  JsonObject *object = json_object_new ();

  for (guint i = 0; i < split->len; i++)
    {
      char **pair = split->pdata[i];
      g_autofree char *digest = dup_value_digest (pair[1]);

      json_object_set_string_member (object, pair[0], digest);
    }

  return object;
}

JsonObject *
mcp_launch_dup_description (McpServerConfig    *config,
                            const char * const *environ)
{
  g_autoptr(McpServerConfig) launch = NULL;
  g_autofree char *project = NULL;
  const char * const *args;
  JsonObject *object;

  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (config), NULL);

  /* Command, arguments, folder and URL as written: "${API_KEY}" shows
   * what it is without showing the key. Env and header values are
   * compared by the digests of what they expand to. */
  launch = resolve (config, environ);
  project = mcp_launch_dup_project_dir (config);
  args = mcp_server_config_get_args (config);
  object = json_object_new ();

  json_object_set_string_member (object, "type", mcp_server_config_get_transport_name (config));
  if (mcp_server_config_get_command (config) != NULL)
    json_object_set_string_member (object, "command", mcp_server_config_get_command (config));
  if (args != NULL && args[0] != NULL)
    {
      JsonArray *array = json_array_new ();

      for (guint i = 0; args[i] != NULL; i++)
        json_array_add_string_element (array, args[i]);
      json_object_set_array_member (object, "args", array);
    }
  if (mcp_server_config_get_env (launch) != NULL && mcp_server_config_get_env (launch)[0] != NULL)
    json_object_set_object_member (object, "env", describe_pairs (mcp_server_config_get_env (launch), "="));
  if (mcp_server_config_get_cwd (config) != NULL)
    json_object_set_string_member (object, "cwd", mcp_server_config_get_cwd (config));
  if (mcp_server_config_get_url (config) != NULL)
    {
      g_autofree char *url = mcp_redact_url (mcp_server_config_get_url (config));
      g_autofree char *digest = dup_value_digest (mcp_server_config_get_url (launch));

      json_object_set_string_member (object, "url", url);
      json_object_set_string_member (object, "urlDigest", digest);
    }
  if (mcp_server_config_get_headers (launch) != NULL && mcp_server_config_get_headers (launch)[0] != NULL)
    json_object_set_object_member (object, "headers",
                                   describe_pairs (mcp_server_config_get_headers (launch), ": "));
  if (project != NULL)
    json_object_set_string_member (object, "project", project);

  return object;
}

/* Changes */

static const char *
get_string (JsonObject *object,
            const char *member)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

static JsonObject *
get_object (JsonObject *object,
            const char *member)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

/* The arguments as one line, each quoted as a shell would need it. */
static char *
dup_args (JsonObject *object)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, "args") : NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  JsonArray *array;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;

  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      g_autofree char *quoted = NULL;

      if (!JSON_NODE_HOLDS_VALUE (element) || json_node_get_value_type (element) != G_TYPE_STRING)
        continue;
      quoted = g_shell_quote (json_node_get_string (element));
      if (text->len > 0)
        g_string_append_c (text, ' ');
      /* a word that needs no quotes is shown as it is */
      if (strlen (quoted) == strlen (json_node_get_string (element)) + 2 &&
          strpbrk (json_node_get_string (element), " \t\n'\"\\$`*?[]{}()<>|&;#~") == NULL &&
          *json_node_get_string (element) != '\0')
        g_string_append (text, json_node_get_string (element));
      else
        g_string_append (text, quoted);
    }

  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
add_change (GPtrArray  *lines,
            const char *what,
            const char *before,
            const char *after)
{
  if (g_strcmp0 (before, after) == 0)
    return;

  if (before == NULL)
    /* Translators: a line of what changed in a server since it was approved; %s: what (e.g. "URL"), then its new value */
    g_ptr_array_add (lines, g_strdup_printf (_("%s: added “%s”"), what, after));
  else if (after == NULL)
    /* Translators: a line of what changed in a server since it was approved; %s: what, then its old value */
    g_ptr_array_add (lines, g_strdup_printf (_("%s: removed (was “%s”)"), what, before));
  else
    /* Translators: a line of what changed in a server since it was approved; %s: what, then the old and the new value */
    g_ptr_array_add (lines, g_strdup_printf (_("%s: “%s” → “%s”"), what, before, after));
}

/* Map values are digests: shown masked, compared as digests. */
static void
add_map_changes (GPtrArray  *lines,
                 const char *what,
                 JsonObject *before,
                 JsonObject *after)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  JsonObject *objects[] = { before, after };

  for (guint o = 0; o < G_N_ELEMENTS (objects); o++)
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *node;

      if (objects[o] == NULL)
        continue;
      json_object_iter_init (&iter, objects[o]);
      while (json_object_iter_next (&iter, &name, &node))
        {
          if (!g_ptr_array_find_with_equal_func (names, name, g_str_equal, NULL))
            g_ptr_array_add (names, (gpointer) name);
        }
    }
  g_ptr_array_sort (names, compare_strings);

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = names->pdata[i];
      const char *old_value = get_string (before, name);
      const char *new_value = get_string (after, name);
      gboolean had = before != NULL && json_object_has_member (before, name);
      gboolean has = after != NULL && json_object_has_member (after, name);

      if (had && !has)
        /* Translators: a line of what changed; the first %s is "environment variable" or "header", the second its name */
        g_ptr_array_add (lines, g_strdup_printf (_("%s %s: removed"), what, name));
      else if (!had && has)
        /* Translators: a line of what changed; the first %s is "environment variable" or "header", the second its name, then its masked value */
        g_ptr_array_add (lines, g_strdup_printf (_("%s %s: added (%s)"), what, name, MCP_REDACTED));
      else if (g_strcmp0 (old_value, new_value) != 0)
        /* Translators: a line of what changed; the first %s is "environment variable" or "header", the second its name, then its old and new masked values */
        g_ptr_array_add (lines, g_strdup_printf (_("%s %s: value changed (%s → %s)"), what, name,
                                                 MCP_REDACTED, MCP_REDACTED));
    }
}

char **
mcp_launch_dup_changes (JsonObject *approved,
                        JsonObject *now)
{
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *old_args = NULL;
  g_autofree char *new_args = NULL;

  g_return_val_if_fail (now != NULL, NULL);

  if (approved == NULL)
    {
      g_ptr_array_add (lines, g_strdup (_("what was approved is not known")));
      g_ptr_array_add (lines, NULL);
      return (char **) g_ptr_array_steal (lines, NULL);
    }

  old_args = dup_args (approved);
  new_args = dup_args (now);

  add_change (lines, _("project folder"), get_string (approved, "project"), get_string (now, "project"));
  add_change (lines, _("transport"), get_string (approved, "type"), get_string (now, "type"));
  add_change (lines, _("command"), get_string (approved, "command"), get_string (now, "command"));
  add_change (lines, _("arguments"), old_args, new_args);
  add_map_changes (lines, _("environment variable"), get_object (approved, "env"), get_object (now, "env"));
  add_change (lines, _("working folder"), get_string (approved, "cwd"), get_string (now, "cwd"));
  add_change (lines, _("URL"), get_string (approved, "url"), get_string (now, "url"));
  if (get_string (now, "url") != NULL &&
      g_strcmp0 (get_string (approved, "url"), get_string (now, "url")) == 0 &&
      g_strcmp0 (get_string (approved, "urlDigest"), get_string (now, "urlDigest")) != 0)
    /* Translators: a line of what changed; the URL's user info or a query value, which are not shown */
    g_ptr_array_add (lines, g_strdup_printf (_("URL: a masked part changed (%s)"), get_string (now, "url")));
  add_map_changes (lines, _("header"), get_object (approved, "headers"), get_object (now, "headers"));

  if (lines->len == 0)
    g_ptr_array_add (lines, g_strdup (_("a value that is not shown changed (one that a ${VAR} gives, "
                                        "or the sign-in settings)")));

  g_ptr_array_add (lines, NULL);
  return (char **) g_ptr_array_steal (lines, NULL);
}
