/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-secret-refs"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mcp-secret-store.h"

#include "mcp-secret-refs-private.h"

/* "${secret:ID}" in a server's settings (mcp-secret-store.h): looked up
 * just before a connection attempt (or the doctor) expands the config, and
 * handed to the expansion as the variable "secret:ID" of an environment of
 * its own, so that the value is one of the expanded config's secrets
 * (masked in the log, the trace and every error) and never reaches the
 * environment the server itself gets. */

#define SECRET_PREFIX "secret:"

typedef struct
{
  char         *server;     /* for messages */
  GPtrArray    *ids;        /* char *, each once */
  char        **environ;    /* grows with "secret:ID=value" */
  guint         next;
} Resolve;

static void
resolve_free (Resolve *resolve)
{
  g_free (resolve->server);
  g_ptr_array_unref (resolve->ids);
  /* The values are secrets: do not leave them in freed memory */
  for (guint i = 0; resolve->environ != NULL && resolve->environ[i] != NULL; i++)
    if (g_str_has_prefix (resolve->environ[i], SECRET_PREFIX))
      memset (resolve->environ[i], 0, strlen (resolve->environ[i]));
  g_strfreev (resolve->environ);
  g_free (resolve);
}

static void
collect_text (GPtrArray  *ids,
              const char *text)
{
  g_autoptr(GPtrArray) uses = mcp_server_config_scan_variables (text, NULL);

  for (guint i = 0; i < uses->len; i++)
    {
      McpVariableUse *use = g_ptr_array_index (uses, i);
      const char *id;
      guint index;

      if (!g_str_has_prefix (use->name, SECRET_PREFIX))
        continue;
      id = use->name + strlen (SECRET_PREFIX);
      if (!g_ptr_array_find_with_equal_func (ids, id, g_str_equal, &index))
        g_ptr_array_add (ids, g_strdup (id));
    }
}

static void
collect_member (GPtrArray  *ids,
                JsonObject *object,
                const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL)
    return;
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    collect_text (ids, json_node_get_string (node));
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *item = json_array_get_element (array, i);

          if (JSON_NODE_HOLDS_VALUE (item) && json_node_get_value_type (item) == G_TYPE_STRING)
            collect_text (ids, json_node_get_string (item));
        }
    }
  else if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObjectIter iter;
      const char *key;
      JsonNode *value;

      json_object_iter_init (&iter, json_node_get_object (node));
      while (json_object_iter_next (&iter, &key, &value))
        if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING)
          collect_text (ids, json_node_get_string (value));
    }
}

/* Every string under "oauth" (nested "idp", "assertion", …) */
static void
collect_tree (GPtrArray *ids,
              JsonNode  *node,
              guint      depth)
{
  if (node == NULL || depth > 8)
    return;
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    collect_text (ids, json_node_get_string (node));
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        collect_tree (ids, json_array_get_element (array, i), depth + 1);
    }
  else if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObjectIter iter;
      const char *key;
      JsonNode *value;

      json_object_iter_init (&iter, json_node_get_object (node));
      while (json_object_iter_next (&iter, &key, &value))
        collect_tree (ids, value, depth + 1);
    }
}

/* The IDs @config refers to where expansion happens: command, args, env
 * values, url, header values, the "oauth" settings. */
static GPtrArray *
collect_ids (McpServerConfig *config)
{
  JsonObject *object = mcp_server_config_get_json (config);
  GPtrArray *ids = g_ptr_array_new_with_free_func (g_free);

  collect_member (ids, object, "command");
  collect_member (ids, object, "args");
  collect_member (ids, object, "env");
  collect_member (ids, object, "url");
  collect_member (ids, object, "headers");
  collect_tree (ids, json_object_get_member (object, "oauth"), 0);
  return ids;
}

gboolean
mcp_secret_refs_used (McpServerConfig *config)
{
  g_autoptr(GPtrArray) ids = collect_ids (config);

  return ids->len > 0;
}

static void lookup_next (GTask *task);

static void
lookup_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Resolve *resolve = g_task_get_task_data (task);
  const char *id = g_ptr_array_index (resolve->ids, resolve->next);
  g_autoptr(GError) error = NULL;
  g_autofree char *value = NULL;
  g_autofree char *name = NULL;

  value = mcp_secret_store_lookup_finish (MCP_SECRET_STORE (object), result, &error);
  if (error != NULL)
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, g_steal_pointer (&error));
      else
        /* Translators: the first %s is a server's name, the second a secret's ID, the last the reason */
        g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                                 _("“%s” uses the secret “%s”, which cannot be read: %s"),
                                 resolve->server,
                                 id, error->message);
      return;
    }
  if (value == NULL)
    {
      /* Translators: the first %s is a server's name, the second a secret's ID */
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                               _("“%s” uses the secret “%s”, which is not stored here; "
                                 "install the server again or store the secret"),
                               resolve->server, id);
      return;
    }

  name = g_strconcat (SECRET_PREFIX, id, NULL);
  resolve->environ = g_environ_setenv (resolve->environ, name, value, TRUE);
  memset (value, 0, strlen (value));
  resolve->next++;
  lookup_next (g_steal_pointer (&task));
}

/* Takes @task */
static void
lookup_next (GTask *task)
{
  Resolve *resolve = g_task_get_task_data (task);
  const char *id;

  if (resolve->next == resolve->ids->len)
    {
      g_task_return_pointer (task, g_steal_pointer (&resolve->environ), (GDestroyNotify) g_strfreev);
      g_object_unref (task);
      return;
    }

  id = g_ptr_array_index (resolve->ids, resolve->next);
  if (!mcp_secret_store_id_is_valid (id))
    {
      /* Translators: the first %s is a server's name, the second what it gives as a secret's ID */
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                               _("“%s” refers to the secret “%s”, which is not a secret ID "
                                 "(1 to 128 letters, digits, “.”, “_” or “-”)"),
                               resolve->server, id);
      g_object_unref (task);
      return;
    }
  mcp_secret_store_lookup_async (mcp_secret_store_get_default (), id, g_task_get_cancellable (task),
                                 lookup_cb, task);
}

void
mcp_secret_refs_resolve_async (McpServerConfig     *config,
                               const char * const  *environ,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  Resolve *resolve = g_new0 (Resolve, 1);

  g_task_set_source_tag (task, mcp_secret_refs_resolve_async);
  resolve->server = g_strdup (mcp_server_config_get_name (config));
  resolve->ids = collect_ids (config);
  resolve->environ = environ != NULL ? g_strdupv ((char **) environ) : g_get_environ ();
  g_task_set_task_data (task, resolve, (GDestroyNotify) resolve_free);
  lookup_next (task);
}

char **
mcp_secret_refs_resolve_finish (GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_secret_refs_resolve_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
