/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-token-store"

#include "config.h"

#include "mcp-token-store.h"

#include <glib/gi18n-lib.h>

#include "mcp-credential-file-private.h"
#include "mcp-token-store-private.h"

/* McpTokenStore: the object, its backend, and its API; each call is an
 * operation (mcp-token-store-op.c) served by the Secret Service
 * (mcp-token-store-secret.c) or the file (mcp-token-store-file.c). */

G_DEFINE_FINAL_TYPE (McpTokenStore, mcp_token_store, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_BACKEND,
  PROP_FALLBACK_PATH,
  PROP_ACTIVE_BACKEND,
  N_PROPS
};

enum {
  FALLBACK_USED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* Construction */

static void
mcp_token_store_finalize (GObject *object)
{
  McpTokenStore *self = MCP_TOKEN_STORE (object);

  g_clear_pointer (&self->backend, g_free);
  g_clear_pointer (&self->fallback_path, g_free);
  g_clear_pointer (&self->fallback_reason, g_free);

  G_OBJECT_CLASS (mcp_token_store_parent_class)->finalize (object);
}

static void
mcp_token_store_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  McpTokenStore *self = MCP_TOKEN_STORE (object);

  switch (prop_id)
    {
    case PROP_BACKEND:
      g_value_set_string (value, self->backend);
      break;

    case PROP_FALLBACK_PATH:
      g_value_set_string (value, self->fallback_path);
      break;

    case PROP_ACTIVE_BACKEND:
      g_value_set_string (value, self->active_backend);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_token_store_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  McpTokenStore *self = MCP_TOKEN_STORE (object);

  switch (prop_id)
    {
    case PROP_BACKEND:
      g_free (self->backend);
      self->backend = g_value_dup_string (value);
      if (self->backend == NULL)
        self->backend = g_strdup (BACKEND_AUTO);
      break;

    case PROP_FALLBACK_PATH:
      g_free (self->fallback_path);
      self->fallback_path = g_value_dup_string (value);
      if (self->fallback_path == NULL)
        self->fallback_path = mcp_credential_file_default_path ();
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_token_store_class_init (McpTokenStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mcp_token_store_finalize;
  object_class->get_property = mcp_token_store_get_property;
  object_class->set_property = mcp_token_store_set_property;

  properties[PROP_BACKEND] =
    g_param_spec_string ("backend", NULL, NULL,
                         BACKEND_AUTO,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /* NULL: $XDG_DATA_HOME/plugboard/oauth-credentials.json */
  properties[PROP_FALLBACK_PATH] =
    g_param_spec_string ("fallback-path", NULL, NULL,
                         NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_ACTIVE_BACKEND] =
    g_param_spec_string ("active-backend", NULL, NULL,
                         NULL,
                         G_PARAM_READABLE |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * McpTokenStore::fallback-used:
   *
   * Emitted once, when an "auto" store that found no Secret Service first
   * reads a record from its file ("fallback-path") or writes one there; an
   * empty lookup says nothing.
   */
  signals[FALLBACK_USED] =
    g_signal_new ("fallback-used",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
mcp_token_store_init (McpTokenStore *self)
{
}

McpTokenStore *
mcp_token_store_new (const char *backend,
                     const char *fallback_path)
{
  g_return_val_if_fail (backend == NULL ||
                        g_str_equal (backend, BACKEND_AUTO) ||
                        g_str_equal (backend, BACKEND_FILE) ||
                        g_str_equal (backend, BACKEND_SECRET_SERVICE), NULL);

  return g_object_new (MCP_TYPE_TOKEN_STORE,
                       "backend", backend,
                       "fallback-path", fallback_path,
                       NULL);
}

McpTokenStore *
mcp_token_store_get_default (void)
{
  static McpTokenStore *default_store;

  if (g_once_init_enter (&default_store))
    {
      McpTokenStore *store = mcp_token_store_new (BACKEND_AUTO, NULL);

      g_once_init_leave (&default_store, store);
    }

  return default_store;
}

const char *
mcp_token_store_get_active_backend (McpTokenStore *self)
{
  g_return_val_if_fail (MCP_IS_TOKEN_STORE (self), NULL);

  return self->active_backend;
}

void
mcp_token_store_set_active_backend (McpTokenStore *self,
                                    const char    *backend)
{
  if (self->active_backend == backend)
    return;

  self->active_backend = backend;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ACTIVE_BACKEND]);
}
void
mcp_token_store_fall_back_to_file (McpTokenStore *self,
                                   const GError  *why)
{
  mcp_token_store_set_active_backend (self, BACKEND_FILE);

  if (self->fallback_reason == NULL)
    self->fallback_reason = g_strdup (why->message);
}

void
mcp_token_store_announce_fallback (McpTokenStore *self)
{
  /* A "file" store never fell back; it has nothing to say. */
  if (self->fallback_reason == NULL || self->fallback_announced)
    return;

  self->fallback_announced = TRUE;
  /* Translators: the first %s is the reason, the second a file name */
  g_message (_("No Secret Service is available (%s); OAuth sign-ins are kept in %s instead"),
             self->fallback_reason, self->fallback_path);
  g_signal_emit (self, signals[FALLBACK_USED], 0);
}

/* Public API */

static gpointer
finish_pointer (McpTokenStore  *self,
                GAsyncResult   *result,
                gpointer        source_tag,
                GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static gboolean
finish_boolean (McpTokenStore  *self,
                GAsyncResult   *result,
                gpointer        source_tag,
                GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
mcp_token_store_lookup_tokens_async (McpTokenStore       *self,
                                     const char          *server_name,
                                     const char          *server_url,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_return_if_fail (MCP_IS_TOKEN_STORE (self));
  g_return_if_fail (server_name != NULL);
  g_return_if_fail (server_url != NULL);

  mcp_token_store_start_op (self, OP_LOOKUP, KIND_TOKENS, server_name, server_url, NULL, NULL,
                            mcp_token_store_lookup_tokens_async, cancellable, callback, user_data);
}

McpOAuthTokens *
mcp_token_store_lookup_tokens_finish (McpTokenStore  *self,
                                      GAsyncResult   *result,
                                      GError        **error)
{
  return finish_pointer (self, result, mcp_token_store_lookup_tokens_async, error);
}

void
mcp_token_store_store_tokens_async (McpTokenStore        *self,
                                    const char           *server_name,
                                    const char           *server_url,
                                    const McpOAuthTokens *tokens,
                                    GCancellable         *cancellable,
                                    GAsyncReadyCallback   callback,
                                    gpointer              user_data)
{
  g_return_if_fail (MCP_IS_TOKEN_STORE (self));
  g_return_if_fail (server_name != NULL);
  g_return_if_fail (server_url != NULL);
  g_return_if_fail (tokens != NULL);

  mcp_token_store_start_op (self, OP_STORE, KIND_TOKENS, server_name, server_url, NULL,
                            mcp_oauth_tokens_to_json (tokens),
                            mcp_token_store_store_tokens_async, cancellable, callback, user_data);
}

gboolean
mcp_token_store_store_tokens_finish (McpTokenStore  *self,
                                     GAsyncResult   *result,
                                     GError        **error)
{
  return finish_boolean (self, result, mcp_token_store_store_tokens_async, error);
}

void
mcp_token_store_lookup_client_async (McpTokenStore       *self,
                                     const char          *server_name,
                                     const char          *server_url,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_return_if_fail (MCP_IS_TOKEN_STORE (self));
  g_return_if_fail (server_name != NULL);
  g_return_if_fail (server_url != NULL);

  mcp_token_store_start_op (self, OP_LOOKUP, KIND_CLIENT, server_name, server_url, NULL, NULL,
                            mcp_token_store_lookup_client_async, cancellable, callback, user_data);
}

McpOAuthClientInfo *
mcp_token_store_lookup_client_finish (McpTokenStore  *self,
                                      GAsyncResult   *result,
                                      GError        **error)
{
  return finish_pointer (self, result, mcp_token_store_lookup_client_async, error);
}

void
mcp_token_store_lookup_issuer_client_async (McpTokenStore       *self,
                                            const char          *server_name,
                                            const char          *server_url,
                                            const char          *issuer,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data)
{
  g_return_if_fail (MCP_IS_TOKEN_STORE (self));
  g_return_if_fail (server_name != NULL);
  g_return_if_fail (server_url != NULL);
  g_return_if_fail (issuer != NULL);

  mcp_token_store_start_op (self, OP_LOOKUP, KIND_CLIENT, server_name, server_url, issuer, NULL,
                            mcp_token_store_lookup_issuer_client_async, cancellable, callback, user_data);
}

McpOAuthClientInfo *
mcp_token_store_lookup_issuer_client_finish (McpTokenStore  *self,
                                             GAsyncResult   *result,
                                             GError        **error)
{
  g_autoptr(McpOAuthClientInfo) client = NULL;
  Op *op;

  client = finish_pointer (self, result, mcp_token_store_lookup_issuer_client_async, error);
  op = g_task_get_task_data (G_TASK (result));
  /* What the record says counts, not where it was found. */
  if (client != NULL && g_strcmp0 (client->issuer, op->issuer) != 0)
    return NULL;
  return g_steal_pointer (&client);
}

void
mcp_token_store_store_client_async (McpTokenStore            *self,
                                    const char               *server_name,
                                    const char               *server_url,
                                    const McpOAuthClientInfo *client,
                                    GCancellable             *cancellable,
                                    GAsyncReadyCallback       callback,
                                    gpointer                  user_data)
{
  g_return_if_fail (MCP_IS_TOKEN_STORE (self));
  g_return_if_fail (server_name != NULL);
  g_return_if_fail (server_url != NULL);
  g_return_if_fail (client != NULL);

  mcp_token_store_start_op (self, OP_STORE, KIND_CLIENT, server_name, server_url, client->issuer,
                            mcp_oauth_client_info_to_json (client),
                            mcp_token_store_store_client_async, cancellable, callback, user_data);
}

gboolean
mcp_token_store_store_client_finish (McpTokenStore  *self,
                                     GAsyncResult   *result,
                                     GError        **error)
{
  return finish_boolean (self, result, mcp_token_store_store_client_async, error);
}

void
mcp_token_store_clear_async (McpTokenStore       *self,
                             const char          *server_name,
                             const char          *server_url,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_return_if_fail (MCP_IS_TOKEN_STORE (self));
  g_return_if_fail (server_name != NULL);
  g_return_if_fail (server_url != NULL);

  mcp_token_store_start_op (self, OP_CLEAR, KIND_TOKENS, server_name, server_url, NULL, NULL,
                            mcp_token_store_clear_async, cancellable, callback, user_data);
}

gboolean
mcp_token_store_clear_finish (McpTokenStore  *self,
                              GAsyncResult   *result,
                              GError        **error)
{
  return finish_boolean (self, result, mcp_token_store_clear_async, error);
}
