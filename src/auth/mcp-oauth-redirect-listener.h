/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define MCP_TYPE_OAUTH_REDIRECT_LISTENER (mcp_oauth_redirect_listener_get_type ())

G_DECLARE_FINAL_TYPE (McpOAuthRedirectListener, mcp_oauth_redirect_listener,
                      MCP, OAUTH_REDIRECT_LISTENER, GObject)

/**
 * McpOAuthRedirectListener:
 *
 * The loopback redirect target of an authorization-code sign-in: a
 * SoupServer on 127.0.0.1 only, on @port (0: an ephemeral port), serving
 * "/callback". It accepts exactly one request to /callback whose "state"
 * equals @expected_state. When it carries a code, the page is held until
 * the caller says how the sign-in ended (mcp_oauth_redirect_listener_answer_async:
 * "Signed in" only once the tokens are exchanged and stored, else the
 * failure), or for at most 90 s, after which it says to look in Plugboard.
 * An answer with an error gets its page at once. Then the listener stops. A callback with another state gets 400 and a page
 * saying so, and does not end the wait. Other paths get 404.
 */

/* Binds at once; G_IO_ERROR_ADDRESS_IN_USE (with the port in the message)
 * when @port is taken. */
McpOAuthRedirectListener *mcp_oauth_redirect_listener_new   (guint          port,
                                                             const char    *expected_state,
                                                             GError       **error);

guint        mcp_oauth_redirect_listener_get_port          (McpOAuthRedirectListener *self);
/* "http://127.0.0.1:PORT/callback" */
const char  *mcp_oauth_redirect_listener_get_redirect_uri  (McpOAuthRedirectListener *self);

/**
 * mcp_oauth_redirect_listener_expect_issuer:
 * @issuer: (nullable): the issuer recorded from the authorization server's
 *   metadata; NULL: "iss" is not checked
 * @required: the metadata says authorization_response_iss_parameter_supported
 *
 * RFC 9207 §2.4 as the 2026-07-28 revision applies it: the matching
 * callback is refused (MCP_ERROR_NEEDS_AUTH, a page saying so, its "error"
 * neither acted on nor shown) when it carries an "iss" other than @issuer
 * (compared as plain strings), or carries none although @required.
 */
void         mcp_oauth_redirect_listener_expect_issuer     (McpOAuthRedirectListener *self,
                                                            const char               *issuer,
                                                            gboolean                  required);

/**
 * mcp_oauth_redirect_listener_wait_async:
 * @timeout_s: give up after this many seconds (0: never)
 *
 * Completes with the authorization code of the matching callback. Errors
 * (MCP_ERROR): NEEDS_AUTH when the callback carries "error" (its
 * error_description in the message), or has no code; TIMEOUT after
 * @timeout_s; G_IO_ERROR_CANCELLED. The listener stops in every case.
 * Only one wait at a time.
 */
void         mcp_oauth_redirect_listener_wait_async        (McpOAuthRedirectListener *self,
                                                            guint                     timeout_s,
                                                            GCancellable             *cancellable,
                                                            GAsyncReadyCallback       callback,
                                                            gpointer                  user_data);
/* Returns the code; @iss (nullable out) gets the "iss" parameter if any. */
char        *mcp_oauth_redirect_listener_wait_finish       (McpOAuthRedirectListener *self,
                                                            GAsyncResult             *result,
                                                            char                    **iss,
                                                            GError                  **error);

/**
 * mcp_oauth_redirect_listener_answer_async:
 * @failure: (nullable): why the sign-in failed after the code came, or NULL
 *   when its tokens are stored
 *
 * Answers the held page of the matching callback: "Signed in", or "Sign-in
 * failed" with @failure's message (control characters removed). Completes
 * once the page has gone out, the browser went away, or after 5 s;
 * finishes FALSE when no page was held (it was answered already).
 */
void         mcp_oauth_redirect_listener_answer_async      (McpOAuthRedirectListener *self,
                                                            const GError             *failure,
                                                            GAsyncReadyCallback       callback,
                                                            gpointer                  user_data);
gboolean     mcp_oauth_redirect_listener_answer_finish     (McpOAuthRedirectListener *self,
                                                            GAsyncResult             *result,
                                                            GError                  **error);

/* Stops listening now (idempotent); a held page says the sign-in stopped. */
void         mcp_oauth_redirect_listener_stop              (McpOAuthRedirectListener *self);

G_END_DECLS
