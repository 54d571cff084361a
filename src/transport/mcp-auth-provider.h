/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <libsoup/soup.h>

G_BEGIN_DECLS

#define MCP_TYPE_AUTH_PROVIDER (mcp_auth_provider_get_type ())

G_DECLARE_INTERFACE (McpAuthProvider, mcp_auth_provider, MCP, AUTH_PROVIDER, GObject)

/* How often one request may be retried after a challenge: stored tokens
 * tried, then refreshed (or a sign-in, then a step-up). A provider that
 * keeps saying "retry" cannot loop. */
#define MCP_AUTH_MAX_ROUNDS 2

/**
 * McpAuthProvider:
 *
 * What an HTTP transport asks for credentials. The OAuth layer (src/auth)
 * implements it; transports only call it.
 */
struct _McpAuthProviderInterface
{
  GTypeInterface parent_iface;

  /* The value of the Authorization header for the next request ("Bearer
   * …"), or NULL to send none. Must not block. */
  char     *(*get_authorization)        (McpAuthProvider      *self);

  /* The server answered 401, or 403 with error="insufficient_scope".
   * @www_authenticate is the header as sent (may be NULL). The provider may
   * refresh a token or sign in; TRUE means "try the request again". */
  void      (*handle_challenge_async)   (McpAuthProvider      *self,
                                         guint                 status,
                                         const char           *www_authenticate,
                                         GCancellable         *cancellable,
                                         GAsyncReadyCallback   callback,
                                         gpointer              user_data);
  gboolean  (*handle_challenge_finish)  (McpAuthProvider      *self,
                                         GAsyncResult         *result,
                                         GError              **error);

  /* Optional. Puts the credentials on @message, about to be sent (every
   * HTTP request of every transport, the WebSocket handshake included).
   * The default sets Authorization to get_authorization(). A DPoP provider
   * sets "Authorization: DPoP …" and a fresh "DPoP" proof for the
   * message's method and URL. Must not block. */
  void      (*authorize_message)        (McpAuthProvider      *self,
                                         SoupMessage          *message);

  /* Optional. @message was answered (any status, before a challenge is
   * handled): the provider may take headers from it (DPoP-Nonce). */
  void      (*message_answered)         (McpAuthProvider      *self,
                                         SoupMessage          *message);
};

char     *mcp_auth_provider_get_authorization       (McpAuthProvider      *self);
void      mcp_auth_provider_authorize_message       (McpAuthProvider      *self,
                                                     SoupMessage          *message);
void      mcp_auth_provider_message_answered        (McpAuthProvider      *self,
                                                     SoupMessage          *message);
void      mcp_auth_provider_handle_challenge_async  (McpAuthProvider      *self,
                                                     guint                 status,
                                                     const char           *www_authenticate,
                                                     GCancellable         *cancellable,
                                                     GAsyncReadyCallback   callback,
                                                     gpointer              user_data);
gboolean  mcp_auth_provider_handle_challenge_finish (McpAuthProvider      *self,
                                                     GAsyncResult         *result,
                                                     GError              **error);

/* Parses a WWW-Authenticate header's first challenge: returns its scheme
 * (e.g. "Bearer") and fills @params (lower-case names → values, quotes
 * removed) — resource_metadata, scope, error, error_description, realm.
 * NULL when the header cannot be read. */
char     *mcp_auth_parse_www_authenticate           (const char           *header,
                                                     GHashTable          **params);

G_END_DECLS
