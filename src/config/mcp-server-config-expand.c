/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-server-config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-server-config-private.h"

/* McpServerConfig's ${VAR} and ${VAR:-default} expansion, and the values
 * of a server that must never be shown (its secrets). */

/* Expansion */

static const char *
lookup_variable (const char * const *environ,
                 const char         *name)
{
  /* "A=b" is no name: getenv() would find the variable A whose value
   * starts with "b=" */
  if (strchr (name, '=') != NULL)
    return NULL;

  if (environ == NULL)
    return g_getenv (name);

  return g_environ_getenv ((char **)environ, name);
}

/* The next "${" at or after @p: @close at its "}" (NULL: none), @dash at
 * its ":-" (NULL: none). FALSE when @p holds no more "${". */
static gboolean
next_reference (const char  *p,
                const char **open,
                const char **close,
                const char **dash)
{
  *open = strstr (p, "${");
  if (*open == NULL)
    return FALSE;

  *close = strchr (*open + 2, '}');
  *dash = *close != NULL ? g_strstr_len (*open + 2, *close - (*open + 2), ":-") : NULL;
  return TRUE;
}

static char *
reference_name (const char *open,
                const char *close,
                const char *dash)
{
  return g_strndup (open + 2, (dash != NULL ? dash : close) - (open + 2));
}

void
mcp_variable_use_free (McpVariableUse *use)
{
  if (use == NULL)
    return;

  g_free (use->name);
  g_free (use->fallback);
  g_free (use->value);
  g_free (use);
}

GPtrArray *
mcp_server_config_scan_variables (const char         *text,
                                  const char * const *environ)
{
  GPtrArray *uses = g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_variable_use_free);
  const char *p = text;
  const char *open;
  const char *close;
  const char *dash;

  g_return_val_if_fail (text != NULL, uses);

  while (next_reference (p, &open, &close, &dash) && close != NULL)
    {
      g_autofree char *name = reference_name (open, close, dash);

      p = close + 1;
      if (name[0] != '\0')
        {
          McpVariableUse *use = g_new0 (McpVariableUse, 1);

          use->value = g_strdup (lookup_variable (environ, name));
          use->name = g_steal_pointer (&name);
          if (dash != NULL)
            use->fallback = g_strndup (dash + 2, close - (dash + 2));
          g_ptr_array_add (uses, use);
        }
    }

  return uses;
}

static char *
expand_string (McpServerConfig     *self,
               const char          *text,
               const char          *path,
               const char * const  *environ,
               GPtrArray           *values,
               GError             **error)
{
  GString *out = g_string_new (NULL);
  const char *p = text;

  while (*p != '\0')
    {
      const char *open;
      const char *close;
      const char *dash;
      g_autofree char *name = NULL;
      const char *value;

      if (!next_reference (p, &open, &close, &dash))
        {
          g_string_append (out, p);
          break;
        }

      g_string_append_len (out, p, open - p);
      if (close == NULL)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                       /* Translators: the first %s is a settings file, the second a JSON path, the third the server's name */
                       _("%s: %s: server “%s”: “${” without a closing “}”"),
                       self->file, path, self->name);
          g_string_free (out, TRUE);
          return NULL;
        }

      name = reference_name (open, close, dash);
      if (name[0] == '\0')
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                       /* Translators: the first %s is a settings file, the second a JSON path, the third the server's name */
                       _("%s: %s: server “%s”: “${}” names no variable"),
                       self->file, path, self->name);
          g_string_free (out, TRUE);
          return NULL;
        }

      value = lookup_variable (environ, name);
      if (value != NULL && value[0] != '\0')
        {
          g_string_append (out, value);
          g_ptr_array_add (values, g_strdup (value));
        }
      else if (dash != NULL)
        g_string_append_len (out, dash + 2, close - (dash + 2));
      else if (value != NULL)
        ; /* set and empty: empty, as a shell does */
      else
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                       /* Translators: the first %s is a settings file, the second a JSON path, the third the server's name, then twice an environment variable's name */
                       _("%s: %s: server “%s” uses the environment variable %s, "
                         "which is not set and has no default (write ${%s:-default} to give one)"),
                       self->file, path, self->name, name, name);
          g_string_free (out, TRUE);
          return NULL;
        }

      p = close + 1;
    }

  return g_string_free (out, FALSE);
}

/* A string @node (at @path) expanded in place; any other value is left. */
static gboolean
expand_node (McpServerConfig     *self,
             JsonNode            *node,
             const char          *path,
             const char * const  *environ,
             GPtrArray           *values,
             GError             **error)
{
  g_autofree char *expanded = NULL;

  if (!mcp_server_config_is_string (node))
    return TRUE;

  expanded = expand_string (self, json_node_get_string (node), path, environ, values, error);
  if (expanded == NULL)
    return FALSE;
  json_node_set_string (node, expanded);

  return TRUE;
}

/* @object's @member, when it is of @type: a string (JSON_NODE_VALUE), or
 * the strings of an array or of an object. */
static gboolean
expand_member (McpServerConfig     *self,
               JsonObject          *object,
               const char          *member,
               JsonNodeType         type,
               const char * const  *environ,
               GPtrArray           *values,
               GError             **error)
{
  g_autofree char *path = mcp_json_path_append_member (self->json_path, member);
  JsonNode *node = json_object_get_member (object, member);
  JsonObjectIter iter;
  const char *key;
  JsonNode *value;

  if (node == NULL || JSON_NODE_TYPE (node) != type)
    return TRUE;

  if (type == JSON_NODE_ARRAY)
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          g_autofree char *element_path = g_strdup_printf ("%s[%u]", path, i);

          if (!expand_node (self, json_array_get_element (array, i), element_path, environ, values, error))
            return FALSE;
        }
      return TRUE;
    }

  if (type != JSON_NODE_OBJECT)
    return expand_node (self, node, path, environ, values, error);

  json_object_iter_init_ordered (&iter, json_node_get_object (node));
  while (json_object_iter_next_ordered (&iter, &key, &value))
    {
      g_autofree char *value_path = mcp_json_path_append_member (path, key);

      if (!expand_node (self, value, value_path, environ, values, error))
        return FALSE;
    }

  return TRUE;
}

/* Every string under @node (at @path): "oauth" with its nested "idp",
 * "assertion", "idToken" and a command's arguments. */
static gboolean
expand_tree (McpServerConfig     *self,
             JsonNode            *node,
             const char          *path,
             guint                depth,
             const char * const  *environ,
             GPtrArray           *values,
             GError             **error)
{
  if (depth > 8)
    return TRUE;

  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          g_autofree char *element_path = g_strdup_printf ("%s[%u]", path, i);

          if (!expand_tree (self, json_array_get_element (array, i), element_path, depth + 1,
                            environ, values, error))
            return FALSE;
        }
      return TRUE;
    }

  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObjectIter iter;
      const char *key;
      JsonNode *value;

      json_object_iter_init_ordered (&iter, json_node_get_object (node));
      while (json_object_iter_next_ordered (&iter, &key, &value))
        {
          g_autofree char *value_path = mcp_json_path_append_member (path, key);

          if (!expand_tree (self, value, value_path, depth + 1, environ, values, error))
            return FALSE;
        }
      return TRUE;
    }

  return expand_node (self, node, path, environ, values, error);
}

McpServerConfig *
mcp_server_config_expand (McpServerConfig     *self,
                          const char * const  *environ,
                          GError             **error)
{
  g_autoptr(JsonObject) object = NULL;
  g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func (g_free);
  McpServerConfig *copy;

  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  object = mcp_server_config_copy_object (self->object);
  if (!expand_member (self, object, "command", JSON_NODE_VALUE, environ, values, error) ||
      !expand_member (self, object, "args", JSON_NODE_ARRAY, environ, values, error) ||
      !expand_member (self, object, "env", JSON_NODE_OBJECT, environ, values, error) ||
      !expand_member (self, object, "url", JSON_NODE_VALUE, environ, values, error) ||
      !expand_member (self, object, "headers", JSON_NODE_OBJECT, environ, values, error))
    return NULL;
  if (json_object_get_member (object, "oauth") != NULL &&
      JSON_NODE_HOLDS_OBJECT (json_object_get_member (object, "oauth")))
    {
      g_autofree char *path = mcp_json_path_append_member (self->json_path, "oauth");

      if (!expand_tree (self, json_object_get_member (object, "oauth"), path, 0, environ, values, error))
        return NULL;
    }

  copy = mcp_server_config_new_from_json (self->name, self->scope, object,
                                          self->file, self->json_path, error);
  if (copy != NULL && self->enabled_overridden)
    {
      copy->enabled = self->enabled;
      copy->enabled_overridden = TRUE;
    }
  if (copy != NULL)
    {
      copy->unsaved = self->unsaved;
      g_ptr_array_add (values, NULL);
      copy->expanded_values = (char **) g_ptr_array_steal (values, NULL);
    }

  return copy;
}

/* Secrets */

static void
add_secret (GPtrArray  *secrets,
            const char *value)
{
  g_autofree char *copy = g_strstrip (g_strdup (value));

  if (*copy == '\0')
    return;
  for (guint i = 0; i < secrets->len; i++)
    {
      if (g_str_equal (secrets->pdata[i], copy))
        return;
    }
  g_ptr_array_add (secrets, g_steal_pointer (&copy));
}

/* The user info of @url ("user:pass", "pass") and its query's values,
 * as written and decoded. */
static void
add_url_secrets (GPtrArray  *secrets,
                 const char *url)
{
  g_autoptr(GUri) uri = NULL;
  const char *userinfo;
  const char *query;

  if (url == NULL)
    return;
  uri = g_uri_parse (url, G_URI_FLAGS_ENCODED | G_URI_FLAGS_PARSE_RELAXED, NULL);
  if (uri == NULL)
    return;

  userinfo = g_uri_get_userinfo (uri);
  if (userinfo != NULL)
    {
      const char *colon = strchr (userinfo, ':');

      add_secret (secrets, userinfo);
      if (colon != NULL)
        add_secret (secrets, colon + 1);
    }

  query = g_uri_get_query (uri);
  if (query != NULL)
    {
      g_auto(GStrv) pairs = g_strsplit_set (query, "&;", -1);

      for (guint i = 0; pairs[i] != NULL; i++)
        {
          const char *eq = strchr (pairs[i], '=');
          g_autofree char *decoded = NULL;

          if (eq == NULL)
            continue;
          add_secret (secrets, eq + 1);
          decoded = g_uri_unescape_string (eq + 1, NULL);
          if (decoded != NULL)
            add_secret (secrets, decoded);
        }
    }
}

static void
add_oauth_secret (GPtrArray  *secrets,
                  JsonObject *object,
                  const char *member)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;
  g_auto(GStrv) lines = NULL;

  if (node == NULL || !mcp_server_config_is_string (node))
    return;
  add_secret (secrets, json_node_get_string (node));
  /* A PEM key line by line too: a message may hold part of it. */
  lines = g_strsplit (json_node_get_string (node), "\n", -1);
  for (guint i = 0; lines[1] != NULL && lines[i] != NULL; i++)
    if (strlen (lines[i]) >= 16 && !g_str_has_prefix (lines[i], "-----"))
      add_secret (secrets, lines[i]);
}

/* The client secrets and private key of the "oauth" settings */
static void
add_oauth_secrets (GPtrArray  *secrets,
                   JsonObject *oauth)
{
  JsonNode *idp;

  if (oauth == NULL)
    return;
  add_oauth_secret (secrets, oauth, "clientSecret");
  add_oauth_secret (secrets, oauth, "privateKey");
  idp = json_object_get_member (oauth, "idp");
  if (idp != NULL && JSON_NODE_HOLDS_OBJECT (idp))
    add_oauth_secret (secrets, json_node_get_object (idp), "clientSecret");
}

char **
mcp_server_config_dup_secrets (McpServerConfig *self)
{
  g_autoptr(GPtrArray) secrets = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);

  for (guint i = 0; self->expanded_values != NULL && self->expanded_values[i] != NULL; i++)
    add_secret (secrets, self->expanded_values[i]);
  for (guint i = 0; self->env != NULL && self->env[i] != NULL; i++)
    {
      const char *eq = strchr (self->env[i], '=');

      if (eq != NULL)
        add_secret (secrets, eq + 1);
    }
  for (guint i = 0; self->headers != NULL && self->headers[i] != NULL; i++)
    {
      const char *colon = strchr (self->headers[i], ':');

      if (colon != NULL)
        add_secret (secrets, colon + 1);
    }
  add_url_secrets (secrets, self->url);
  add_oauth_secrets (secrets, self->oauth);

  g_ptr_array_add (secrets, NULL);
  return (char **) g_ptr_array_steal (secrets, NULL);
}
