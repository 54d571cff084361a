/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <libsoup/soup.h>

#include "mcp-oauth-client-info.h"
#include "mcp-oauth-metadata.h"
#include "mcp-oauth-provider.h"
#include "mcp-oauth-tokens.h"

G_BEGIN_DECLS

/* Shared by mcp-oauth-provider.c (loading, refreshing, challenges, the
 * object) and mcp-oauth-provider-sign-in.c (the sign-in). */

/* Refresh this long before the access token expires. */
#define REFRESH_MARGIN_S 60
/* A 401 this soon after new tokens arrived answered a request sent with the
 * old ones: retry with the new ones instead of refreshing again. */
#define FRESH_TOKENS_US (2 * G_USEC_PER_SEC)
#define DEFAULT_CALLBACK_TIMEOUT_S 300
#define PROBE_TIMEOUT_S 30

struct _McpOAuthProvider
{
  GObject              parent_instance;

  char                *server_name;
  char                *server_url;
  JsonObject          *config;
  McpTokenStore       *store;
  SoupSession         *session;

  /* From the "oauth" settings. */
  char                *config_client_id;
  char                *client_metadata_url;
  char                *auth_server_metadata_url;
  char               **config_scopes;
  guint                callback_port;

  char                *client_secret;         /* secret */
  guint                callback_timeout_s;

  McpOAuthOpenUrlFunc  open_url;
  gpointer             open_url_data;
  GDestroyNotify       open_url_destroy;

  /* Stored state, once loaded. */
  gboolean             loaded;
  GPtrArray           *load_waiters;          /* GTask, while loading */
  McpOAuthTokens      *tokens;
  McpOAuthClientInfo  *client;
  gint64               tokens_changed_at;     /* monotonic µs */

  /* The last challenge seen. */
  char                *challenge_resource_metadata;
  char                *challenge_scope;

  /* The last discovery. */
  McpOAuthMetadata    *metadata;

  /* One challenge answered at a time; the others wait for its result. */
  GPtrArray           *challenge_waiters;     /* GTask */

  guint                refresh_source;
  GCancellable        *refresh_cancellable;
};

void      mcp_oauth_provider_set_tokens              (McpOAuthProvider     *self,
                                                      const McpOAuthTokens *tokens);
void      mcp_oauth_provider_remember_challenge      (McpOAuthProvider     *self,
                                                      const char           *www_authenticate);
char     *mcp_oauth_provider_union_scopes            (const char           *a,
                                                      const char           *b);
/* TRUE when every scope of @wanted is in @granted (NULL @wanted: TRUE). */
gboolean  mcp_oauth_provider_scope_covers            (const char           *granted,
                                                      const char           *wanted);
/* The whole sign-in; @probe: ask the server for its challenge first. */
void      mcp_oauth_provider_sign_in_start           (McpOAuthProvider     *self,
                                                      const char           *scope,
                                                      gboolean              probe,
                                                      GCancellable         *cancellable,
                                                      GAsyncReadyCallback   callback,
                                                      gpointer              user_data);
gboolean  mcp_oauth_provider_sign_in_finish_internal (McpOAuthProvider     *self,
                                                      GAsyncResult         *result,
                                                      GError              **error);

G_END_DECLS
