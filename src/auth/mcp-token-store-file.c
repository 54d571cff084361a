/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-token-store"

#include "config.h"

#include "mcp-token-store.h"

#include <glib/gi18n-lib.h>

#include "mcp-error.h"

#include "mcp-credential-file-private.h"
#include "mcp-token-store-private.h"

/* McpTokenStore's file backend, where no Secret Service answers. */

/* The file backend: { "version": 1, "entries": { "<kind>\n<server>\n<url>": value } };
 * a client that names its issuer: "client\n<server>\n<url>\n<issuer>". */

static char *
file_key (const char *kind,
          const char *server_name,
          const char *server_url)
{
  return g_strconcat (kind, "\n", server_name, "\n", server_url, NULL);
}

static char *
op_file_key (Op *op)
{
  if (g_str_equal (op->kind, KIND_CLIENT) && op->issuer != NULL)
    return g_strconcat (op->kind, "\n", op->server_name, "\n", op->server_url, "\n", op->issuer, NULL);
  return file_key (op->kind, op->server_name, op->server_url);
}

/* Every client entry of a server, whatever its issuer. */
static GPtrArray *
client_keys (JsonObject *entries,
             const char *server_name,
             const char *server_url)
{
  g_autofree char *key = file_key (KIND_CLIENT, server_name, server_url);
  g_autofree char *prefix = g_strconcat (key, "\n", NULL);
  g_autoptr(GList) members = json_object_get_members (entries);
  GPtrArray *keys = g_ptr_array_new_with_free_func (g_free);

  for (GList *l = members; l != NULL; l = l->next)
    if (g_str_equal (l->data, key) || g_str_has_prefix (l->data, prefix))
      g_ptr_array_add (keys, g_strdup (l->data));
  return keys;
}

/* Loads the file (mcp-credential-file-private.h) with its "entries". */
static JsonNode *
load_file (McpTokenStore  *self,
           JsonObject    **entries_out,
           gboolean       *exists,
           GError        **error)
{
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;
  JsonNode *entries;

  root = mcp_credential_file_load (self->fallback_path, exists, error);
  if (root == NULL)
    return NULL;

  object = json_node_get_object (root);
  entries = json_object_get_member (object, "entries");
  if (entries == NULL)
    {
      json_object_set_object_member (object, "entries", json_object_new ());
    }
  else if (!JSON_NODE_HOLDS_OBJECT (entries))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("The sign-in file %s: $.entries is not an object. Plugboard will not overwrite it; "
                     "move it away to sign in again."),
                   self->fallback_path);
      return NULL;
    }

  *entries_out = json_object_get_object_member (object, "entries");
  return g_steal_pointer (&root);
}

static gboolean
save_file (McpTokenStore  *self,
           JsonNode       *root,
           GError        **error)
{
  return mcp_credential_file_save (self->fallback_path, root, error);
}

static void run_file_locked (GTask *task);

/* The whole read, change and write under the file's lock. */
void
mcp_token_store_run_file (GTask *task)
{
  McpTokenStore *self = g_task_get_source_object (task);
  GError *error = NULL;
  int lock;

  if (g_task_return_error_if_cancelled (task))
    return;

  lock = mcp_credential_file_lock (self->fallback_path, &error);
  if (lock < 0)
    {
      g_task_return_error (task, error);
      return;
    }
  run_file_locked (task);
  mcp_credential_file_unlock (lock);
}

static void
run_file_locked (GTask *task)
{
  McpTokenStore *self = g_task_get_source_object (task);
  Op *op = g_task_get_task_data (task);
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *entries = NULL;
  gboolean exists;

  if (g_task_return_error_if_cancelled (task))
    return;

  root = load_file (self, &entries, &exists, &error);
  if (root == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  switch (op->op)
    {
    case OP_LOOKUP:
      {
        g_autofree char *key = op_file_key (op);
        JsonNode *value = json_object_get_member (entries, key);

        if (value == NULL && g_str_equal (op->kind, KIND_CLIENT) && op->issuer == NULL)
          {
            g_autoptr(GPtrArray) keys = client_keys (entries, op->server_name, op->server_url);

            if (keys->len > 0)
              value = json_object_get_member (entries, g_ptr_array_index (keys, 0));
          }
        if (value != NULL)
          mcp_token_store_announce_fallback (self);
        mcp_token_store_return_lookup (task, value, self->fallback_path);
      }
      break;

    case OP_STORE:
      {
        g_autofree char *key = op_file_key (op);

        json_object_set_member (entries, key, json_node_copy (op->value));
        mcp_token_store_announce_fallback (self);
        if (save_file (self, root, &error))
          g_task_return_boolean (task, TRUE);
        else
          g_task_return_error (task, g_steal_pointer (&error));
      }
      break;

    case OP_CLEAR:
      {
        g_autofree char *tokens_key = file_key (KIND_TOKENS, op->server_name, op->server_url);
        g_autoptr(GPtrArray) keys = client_keys (entries, op->server_name, op->server_url);
        gboolean changed = FALSE;

        if (json_object_has_member (entries, tokens_key))
          {
            json_object_remove_member (entries, tokens_key);
            changed = TRUE;
          }
        /* The clients of every issuer. */
        for (guint i = 0; i < keys->len; i++)
          {
            json_object_remove_member (entries, g_ptr_array_index (keys, i));
            changed = TRUE;
          }

        if (changed)
          mcp_token_store_announce_fallback (self);
        if (changed && !save_file (self, root, &error))
          g_task_return_error (task, g_steal_pointer (&error));
        else
          g_task_return_boolean (task, TRUE);
      }
      break;

    default:
      g_assert_not_reached ();
    }
}

