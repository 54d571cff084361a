/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <libsoup/soup.h>

#include "mcp-dpop.h"
#include "mcp-oauth-client-info.h"
#include "mcp-oauth-grant.h"
#include "mcp-oauth-metadata.h"
#include "mcp-oauth-private.h"
#include "mcp-oauth-provider.h"
#include "mcp-oauth-redirect-listener.h"
#include "mcp-oauth-tokens.h"

G_BEGIN_DECLS

/* Shared by the parts of McpOAuthProvider: mcp-oauth-provider.c (the
 * object), mcp-oauth-provider-tokens.c (loading, refreshing),
 * mcp-oauth-provider-challenge.c (challenges) and the sign-in's
 * mcp-oauth-provider-sign-in.c, mcp-oauth-provider-client.c and
 * mcp-oauth-provider-authorize.c. */

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

  /* The grant the "oauth" settings ask for (never NULL once constructed:
   * the authorization-code default when they name none); an invalid one
   * is kept in grant_error and every sign-in fails with it. */
  McpOAuthGrantConfig *grant;
  GError              *grant_error;

  /* DPoP (RFC 9449): the key the held tokens are bound to (made from
   * tokens->dpop_key by mcp_oauth_provider_dpop_update()), NULL for
   * Bearer tokens; and the key of the sign-in or grant under way, which
   * becomes the tokens' key when it succeeds. */
  McpDPoP             *dpop;
  McpDPoP             *sign_in_dpop;
  /* The last 401 had a DPoP challenge (mcp_oauth_provider_message_answered) */
  gboolean             challenge_dpop;

  guint                refresh_source;
  gint64               refreshed_at;          /* real time (s) of the last timed refresh */
  GCancellable        *refresh_cancellable;
};

/* One sign-in, the task data of its GTask */
typedef struct
{
  char                     *scope;         /* requested */
  McpOAuthMetadata         *metadata;
  McpOAuthClientInfo       *client;
  gboolean                  client_is_new; /* store it on success */
  /* The store's client for this authorization server, once asked. */
  McpOAuthClientInfo       *stored_client;
  gboolean                  client_looked_up;
  McpOAuthRedirectListener *listener;
  char                     *verifier;      /* secret */
  char                     *state;
  char                     *redirect_uri;
  McpOAuthTokens           *tokens;
  GError                   *failure;       /* returned once the page shows it */
} SignIn;

/* mcp-oauth-provider.c */
void      mcp_oauth_provider_notify_signed_in        (McpOAuthProvider     *self);
void      mcp_oauth_provider_set_tokens              (McpOAuthProvider     *self,
                                                      const McpOAuthTokens *tokens);

/* mcp-oauth-provider-tokens.c */
/* Refreshes self->tokens; fails when there is no refresh token. */
void      mcp_oauth_provider_refresh_async           (McpOAuthProvider     *self,
                                                      GCancellable         *cancellable,
                                                      GAsyncReadyCallback   callback,
                                                      gpointer              user_data);
gboolean  mcp_oauth_provider_refresh_finish          (McpOAuthProvider     *self,
                                                      GAsyncResult         *result,
                                                      GError              **error);
/* A refresh REFRESH_MARGIN_S before the tokens expire */
void      mcp_oauth_provider_schedule_refresh        (McpOAuthProvider     *self);

/* mcp-oauth-provider-dpop.c (DPoP, RFC 9449) */
/* A new DPoP key for a sign-in or grant at the AS of @metadata, or NULL
 * for Bearer: the settings' "dpop" (false: never; true: always), else
 * when the AS lists ES256 (or RS256) in dpop_signing_alg_values_supported
 * or the server's challenge used the DPoP scheme. */
McpDPoP  *mcp_oauth_provider_dpop_for_sign_in        (McpOAuthProvider     *self,
                                                      const McpOAuthMetadata *metadata);
/* Makes self->dpop agree with self->tokens (its dpop_key), after tokens
 * were set or loaded. */
void      mcp_oauth_provider_dpop_update             (McpOAuthProvider     *self);
/* McpAuthProvider.authorize_message: "Authorization: Bearer …", or for
 * bound tokens "Authorization: DPoP …" with a fresh "DPoP" proof. */
void      mcp_oauth_provider_authorize_message       (McpAuthProvider      *provider,
                                                      SoupMessage          *message);
/* McpAuthProvider.message_answered: takes a DPoP-Nonce */
void      mcp_oauth_provider_message_answered        (McpAuthProvider      *provider,
                                                      SoupMessage          *message);
/* TRUE when the challenge is a resource server's use_dpop_nonce and a new
 * nonce is known: the request is retried at once, without a sign-in. */
gboolean  mcp_oauth_provider_dpop_nonce_challenge    (McpOAuthProvider     *self,
                                                      guint                 status,
                                                      const char           *www_authenticate);

/* mcp-oauth-provider-grant.c (client_credentials, jwt_bearer, enterprise) */
/* TRUE when the settings ask for a grant other than the authorization
 * code: a challenge or sign-in runs mcp_oauth_provider_grant_start()
 * instead of the browser sign-in, with or without an open-URL function
 * (an enterprise ID token from a sign-in at the IdP needs one). */
gboolean  mcp_oauth_provider_uses_grant              (McpOAuthProvider     *self);
/* Discovery, then the grant; the tokens are set and stored on success. */
void      mcp_oauth_provider_grant_start             (McpOAuthProvider     *self,
                                                      const char           *scope,
                                                      GCancellable         *cancellable,
                                                      GAsyncReadyCallback   callback,
                                                      gpointer              user_data);
gboolean  mcp_oauth_provider_grant_finish            (McpOAuthProvider     *self,
                                                      GAsyncResult         *result,
                                                      GError              **error);

/* mcp-oauth-provider-challenge.c */
void      mcp_oauth_provider_auth_iface_init         (McpAuthProviderInterface *iface);

/* mcp-oauth-provider-sign-in.c */
void      mcp_oauth_provider_remember_challenge      (McpOAuthProvider     *self,
                                                      const char           *www_authenticate);
/* A 401 or 403 and its challenge, in the trace; @message: the exchange
 * that got it, when known. */
void      mcp_oauth_provider_trace_challenge         (McpOAuthProvider     *self,
                                                      SoupMessage          *message,
                                                      guint                 status,
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
/* Ends the sign-in with @error (taken); the browser's page shows it. */
void      mcp_oauth_provider_sign_in_fail            (GTask                *task,
                                                      GError               *error);
/* The browser's page has said how the sign-in ended: it ends. */
void      mcp_oauth_provider_sign_in_answered_cb     (GObject              *object,
                                                      GAsyncResult         *result,
                                                      gpointer              user_data);

/* mcp-oauth-provider-client.c */
/* Picks the client identity and opens the listener; registers when needed. */
void      mcp_oauth_provider_sign_in_identify        (GTask                *task);

/* mcp-oauth-provider-authorize.c */
/* Opens the authorization URL and waits for the code. */
void      mcp_oauth_provider_sign_in_authorize       (GTask                *task);

G_END_DECLS
