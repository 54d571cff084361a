/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-token-store"

#include "config.h"

#include "mcp-token-store.h"

#include <glib/gi18n-lib.h>

#include "mcp-error.h"

#include "mcp-token-store-private.h"

/* One operation of McpTokenStore, whichever backend ends up serving it:
 * started, sent to its backend, and a lookup's record read back. */

static void
op_free (Op *op)
{
  g_free (op->server_name);
  g_free (op->server_url);
  g_free (op->issuer);
  g_clear_pointer (&op->value, json_node_unref);
  g_free (op);
}

const char *
mcp_token_store_describe_kind (const char *kind)
{
  return g_str_equal (kind, KIND_TOKENS) ? _("sign-in") : _("OAuth client");
}

/* Results */

void
mcp_token_store_return_lookup (GTask    *task,
                               JsonNode *node,
                               const char *where)
{
  Op *op = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (node == NULL)
    {
      g_task_return_pointer (task, NULL, NULL);
      return;
    }

  if (g_str_equal (op->kind, KIND_TOKENS))
    {
      McpOAuthTokens *tokens = mcp_oauth_tokens_from_json (node, &error);

      if (tokens != NULL)
        {
          g_task_return_pointer (task, tokens, (GDestroyNotify) mcp_oauth_tokens_free);
          return;
        }
    }
  else
    {
      McpOAuthClientInfo *client = mcp_oauth_client_info_from_json (node, &error);

      if (client != NULL)
        {
          g_task_return_pointer (task, client, (GDestroyNotify) mcp_oauth_client_info_free);
          return;
        }
    }

  /* Translators: the first %s is “sign-in” or “OAuth client”, the second the server's name,
   * the third its URL, the fourth a file name or “the keyring”, the last the reason */
  g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("The stored %s for “%s” (%s) in %s cannot be read: %s. Sign in again to replace it."),
                           mcp_token_store_describe_kind (op->kind), op->server_name, op->server_url, where,
                           error != NULL ? error->message : _("not a valid record"));
}

/* Takes @task. */
void
mcp_token_store_run_op (GTask *task)
{
  McpTokenStore *self = g_task_get_source_object (task);

  if (g_str_equal (self->backend, BACKEND_FILE) ||
      g_strcmp0 (self->active_backend, BACKEND_FILE) == 0)
    {
      if (self->active_backend == NULL)
        mcp_token_store_set_active_backend (self, BACKEND_FILE);
      mcp_token_store_run_file (task);
      g_object_unref (task);
      return;
    }

  mcp_token_store_run_secret (task);
}

void
mcp_token_store_start_op (McpTokenStore       *self,
                          OpKind               kind_of_op,
                          const char          *kind,
                          const char          *server_name,
                          const char          *server_url,
                          const char          *issuer,
                          JsonNode            *value,
                          gpointer             source_tag,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  GTask *task;
  Op *op;

  op = g_new0 (Op, 1);
  op->op = kind_of_op;
  op->kind = kind;
  op->server_name = g_strdup (server_name);
  op->server_url = g_strdup (server_url);
  op->issuer = g_strdup (issuer);
  op->value = value;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, op, (GDestroyNotify) op_free);

  mcp_token_store_run_op (task);
}
