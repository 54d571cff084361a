/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-doctor"

#include "config.h"

#include "mcp-doctor.h"
#include "mcp-doctor-private.h"

#include <glib/gi18n.h>

#include "mcp-dpop.h"
#include "mcp-error.h"
#include "mcp-http-private.h"
#include "mcp-http-transport.h"
#include "mcp-redact.h"
#include "mcp-sse-transport.h"
#include "mcp-url-policy.h"
#include "mcp-websocket-transport.h"

/* The checks of a remote server, from the bottom up: the URL, the name,
 * TCP, TLS, then HTTP — the initialize POST, its session, the GET stream —
 * and the era probe through the real McpClient. A 401 or 403 hands over to
 * the sign-in check (mcp-doctor-sign-in.c). */

void
mcp_doctor_http_reset (McpDoctor *self)
{
  g_clear_pointer (&self->uri, g_uri_unref);
  if (self->session != NULL)
    soup_session_abort (self->session);
  g_clear_object (&self->session);
  g_clear_pointer (&self->www_authenticate, g_free);
  g_clear_pointer (&self->session_id, g_free);
  self->auth_status = 0;
  self->legacy = FALSE;
}

static gboolean
is_websocket (McpDoctor *self)
{
  return mcp_server_config_get_transport (self->expanded) == MCP_TRANSPORT_KIND_WS;
}

static gboolean
is_tls (McpDoctor *self)
{
  const char *scheme = g_uri_get_scheme (self->uri);

  return g_ascii_strcasecmp (scheme, "https") == 0 || g_ascii_strcasecmp (scheme, "wss") == 0;
}

static int
get_port (McpDoctor *self)
{
  int port = g_uri_get_port (self->uri);

  if (port > 0)
    return port;
  return is_tls (self) ? 443 : 80;
}

static char *
describe_endpoint (McpDoctor *self)
{
  const char *host = g_uri_get_host (self->uri);

  if (strchr (host, ':') != NULL)
    return g_strdup_printf ("[%s]:%d", host, get_port (self));
  return g_strdup_printf ("%s:%d", host, get_port (self));
}

/* The settings' headers and the stored sign-in. */
static GStrv
dup_headers (McpDoctor *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  const char * const *headers = mcp_server_config_get_headers (self->expanded);

  if (headers != NULL)
    g_strv_builder_addv (builder, (const char **) headers);
  /* With the provider at hand it puts the sign-in on (DPoP-bound ones
   * need a proof per request). */
  if (self->authorization != NULL && self->auth == NULL)
    {
      g_autofree char *header = g_strdup_printf ("Authorization: %s", self->authorization);

      g_strv_builder_add (builder, header);
    }
  return g_strv_builder_end (builder);
}

void
mcp_doctor_http_add_headers (McpDoctor   *self,
                             SoupMessage *message)
{
  g_auto(GStrv) headers = dup_headers (self);

  mcp_http_apply_headers (message, (const char * const *) headers, self->auth);
}

static SoupSession *
get_session (McpDoctor *self)
{
  if (self->session == NULL)
    {
      self->session = mcp_http_session_new (mcp_server_config_get_url (self->expanded));
      g_object_set (self->session, "timeout", mcp_doctor_timeout_seconds (self), NULL);
    }
  return self->session;
}

/* ------------------------------------------------------------------------ */
/* URL                                                                      */

static void
check_url (McpDoctor *self)
{
  const char *url = mcp_server_config_get_url (self->expanded);
  g_autofree char *shown = mcp_redact_url (url);
  g_autoptr(GError) error = NULL;
  const char *scheme;
  gboolean websocket = is_websocket (self);

  if (url == NULL)
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL, g_strdup (_("The server has no URL.")),
                            _("Give it a “url” in its settings."));
      return;
    }

  self->uri = g_uri_parse (url, G_URI_FLAGS_ENCODED, &error);
  if (self->uri == NULL || g_uri_get_host (self->uri) == NULL || g_uri_get_host (self->uri)[0] == '\0')
    {
      g_clear_pointer (&self->uri, g_uri_unref);
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL,
                            /* Translators: %s is a URL */
                            g_strdup_printf (_("“%s” is not an absolute URL with a host."), shown),
                            _("Write the whole address, e.g. “https://example.com/mcp”."));
      return;
    }

  scheme = g_uri_get_scheme (self->uri);
  if (websocket ? (g_ascii_strcasecmp (scheme, "ws") != 0 && g_ascii_strcasecmp (scheme, "wss") != 0)
                : (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0))
    {
      g_autofree char *seen = NULL;

      /* Translators: the first %s is a URL, the second its scheme */
      seen = g_strdup_printf (_("“%s” has the scheme “%s”, which this transport does not use."),
                              shown, scheme);
      g_clear_pointer (&self->uri, g_uri_unref);
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL, g_steal_pointer (&seen),
                            websocket ? _("A WebSocket server's URL begins with “wss://” (or “ws://”).")
                                      : _("An HTTP server's URL begins with “https://” (or “http://”)."));
      return;
    }

  /* The policy for URLs servers name holds for the settings' own too:
   * unencrypted only to this computer. */
  if (!is_tls (self) && !mcp_url_policy_is_loopback_host (g_uri_get_host (self->uri)))
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_WARN,
                            /* Translators: %s is a URL */
                            g_strdup_printf (_("%s is not encrypted: anyone on the network between "
                                               "here and the server can read what is sent, sign-in "
                                               "tokens included."), shown),
                            _("Use the server's https:// (or wss://) address."));
      return;
    }

  mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_PASS, g_steal_pointer (&shown), NULL);
}

/* ------------------------------------------------------------------------ */
/* Name resolves                                                            */

static void
on_resolved_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(McpDoctor) self = user_data;
  g_autolist(GInetAddress) addresses = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) seen = NULL;

  addresses = g_resolver_lookup_by_name_finish (G_RESOLVER (object), result, &error);
  if (mcp_doctor_step_aborted (self))
    return;

  if (addresses == NULL)
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL,
                            /* Translators: the first %s is a host name, the second why */
                            g_strdup_printf (_("The name “%s” does not resolve: %s"),
                                             g_uri_get_host (self->uri),
                                             self->step_timed_out ? _("no answer in time") : error->message),
                            _("Check the address for a typo; if it is right, check the network, "
                              "the VPN the server may need, or the DNS settings."));
      return;
    }

  seen = g_string_new (NULL);
  /* Translators: followed by a list of network addresses */
  g_string_printf (seen, _("%s is at"), g_uri_get_host (self->uri));
  for (GList *l = addresses; l != NULL; l = l->next)
    {
      g_autofree char *text = g_inet_address_to_string (l->data);

      g_string_append_printf (seen, "%s %s", l == addresses ? "" : ",", text);
    }
  mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_PASS,
                        g_string_free (g_steal_pointer (&seen), FALSE), NULL);
}

static void
check_resolve (McpDoctor *self)
{
  g_autoptr(GResolver) resolver = g_resolver_get_default ();

  g_resolver_lookup_by_name_async (resolver, g_uri_get_host (self->uri),
                                   mcp_doctor_step_get_cancellable (self),
                                   on_resolved_cb, g_object_ref (self));
}

/* ------------------------------------------------------------------------ */
/* TCP and TLS                                                              */

typedef struct
{
  McpDoctor            *self;
  GTlsCertificateFlags  errors;
  GTlsCertificate      *certificate;
} Handshake;

static void
handshake_free (Handshake *handshake)
{
  g_clear_object (&handshake->self);
  g_clear_object (&handshake->certificate);
  g_free (handshake);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Handshake, handshake_free)

static gboolean
on_accept_certificate_cb (GTlsConnection       *connection,
                          GTlsCertificate      *certificate,
                          GTlsCertificateFlags  errors,
                          Handshake            *handshake)
{
  handshake->errors = errors;
  g_set_object (&handshake->certificate, certificate);
  return FALSE;
}

static void
on_socket_event_cb (GSocketClient      *client,
                    GSocketClientEvent  event,
                    GSocketConnectable *connectable,
                    GIOStream          *connection,
                    Handshake          *handshake)
{
  if (event == G_SOCKET_CLIENT_TLS_HANDSHAKING && G_IS_TLS_CLIENT_CONNECTION (connection))
    g_signal_connect (connection, "accept-certificate",
                      G_CALLBACK (on_accept_certificate_cb), handshake);
  else if (event == G_SOCKET_CLIENT_TLS_HANDSHAKED && G_IS_TLS_CONNECTION (connection))
    g_set_object (&handshake->certificate,
                  g_tls_connection_get_peer_certificate (G_TLS_CONNECTION (connection)));
}

static void
connect_socket (McpDoctor           *self,
                gboolean             tls,
                GAsyncReadyCallback  callback)
{
  g_autoptr(GSocketClient) client = g_socket_client_new ();
  g_autoptr(GSocketConnectable) address = NULL;
  Handshake *handshake = g_new0 (Handshake, 1);

  handshake->self = g_object_ref (self);
  address = g_network_address_new (g_uri_get_host (self->uri), get_port (self));
  g_socket_client_set_timeout (client, mcp_doctor_timeout_seconds (self));
  g_socket_client_set_tls (client, tls);
  /* Loopback never goes through a proxy; elsewhere, as the system says. */
  g_socket_client_set_enable_proxy (client, !mcp_url_policy_is_loopback_host (g_uri_get_host (self->uri)));
  g_signal_connect (client, "event", G_CALLBACK (on_socket_event_cb), handshake);
  g_socket_client_connect_async (client, address, mcp_doctor_step_get_cancellable (self),
                                 callback, handshake);
}

static GSocketConnection *
connect_socket_finish (GObject       *object,
                       GAsyncResult  *result,
                       GError       **error)
{
  GSocketConnection *connection;

  connection = g_socket_client_connect_finish (G_SOCKET_CLIENT (object), result, error);
  g_signal_handlers_disconnect_matched (object, G_SIGNAL_MATCH_FUNC, 0, 0, NULL,
                                        on_socket_event_cb, NULL);
  if (connection != NULL)
    g_io_stream_close (G_IO_STREAM (connection), NULL, NULL);
  return connection;
}

static void
on_tcp_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(Handshake) handshake = user_data;
  McpDoctor *self = handshake->self;
  g_autoptr(GSocketConnection) connection = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *endpoint = NULL;

  connection = connect_socket_finish (object, result, &error);
  if (mcp_doctor_step_aborted (self))
    return;

  endpoint = describe_endpoint (self);
  if (connection != NULL)
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_PASS,
                            /* Translators: %s is host:port */
                            g_strdup_printf (_("Connected to %s."), endpoint), NULL);
      return;
    }

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED))
    mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL,
                          /* Translators: %s is host:port */
                          g_strdup_printf (_("Connection refused at %s: nothing listens there."), endpoint),
                          _("Start the server, or check the port in the URL."));
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT) || self->step_timed_out)
    mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL,
                          /* Translators: %s is host:port, %u seconds */
                          g_strdup_printf (_("No answer from %s in %u s."), endpoint,
                                           mcp_doctor_timeout_seconds (self)),
                          _("The server may be down, or a firewall or VPN drops the connection."));
  else
    mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL,
                          /* Translators: the first %s is host:port, the second why */
                          g_strdup_printf (_("Could not connect to %s: %s"), endpoint, error->message),
                          _("Check the address and the network."));
}

static void
check_tcp (McpDoctor *self)
{
  connect_socket (self, FALSE, on_tcp_cb);
}

static char *
explain_certificate (GTlsCertificateFlags  errors,
                     const char           *host)
{
  g_autoptr(GString) text = g_string_new (NULL);

  if (errors & G_TLS_CERTIFICATE_UNKNOWN_CA)
    g_string_append_printf (text, "\n• %s",
                            _("It is not signed by an authority this computer trusts: it is "
                              "self-signed, or from a private certificate authority."));
  if (errors & G_TLS_CERTIFICATE_BAD_IDENTITY)
    {
      g_string_append (text, "\n• ");
      /* Translators: %s is a host name */
      g_string_append_printf (text, _("It is not for “%s”: it names another host."), host);
    }
  if (errors & G_TLS_CERTIFICATE_NOT_ACTIVATED)
    g_string_append_printf (text, "\n• %s",
                            _("It is not valid yet (or this computer's clock is wrong)."));
  if (errors & G_TLS_CERTIFICATE_EXPIRED)
    g_string_append_printf (text, "\n• %s",
                            _("It has expired (or this computer's clock is wrong)."));
  if (errors & G_TLS_CERTIFICATE_REVOKED)
    g_string_append_printf (text, "\n• %s", _("It has been revoked."));
  if (errors & G_TLS_CERTIFICATE_INSECURE)
    g_string_append_printf (text, "\n• %s", _("It uses an algorithm that is no longer considered safe."));
  if (errors & G_TLS_CERTIFICATE_GENERIC_ERROR)
    g_string_append_printf (text, "\n• %s", _("It could not be checked."));

  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
on_tls_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(Handshake) handshake = user_data;
  McpDoctor *self = handshake->self;
  g_autoptr(GSocketConnection) connection = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *subject = NULL;
  g_autofree char *issuer = NULL;
  g_autofree char *about = NULL;

  connection = connect_socket_finish (object, result, &error);
  if (mcp_doctor_step_aborted (self))
    return;

  if (handshake->certificate != NULL)
    g_object_get (handshake->certificate, "subject-name", &subject, "issuer-name", &issuer, NULL);
  if (subject != NULL)
    {
      g_autofree char *s = mcp_doctor_quote (subject);
      g_autofree char *i = mcp_doctor_quote (issuer);

      /* Translators: the first %s is a certificate's subject, the second its issuer */
      about = g_strdup_printf (_("The certificate is for “%s”, issued by “%s”."), s, i);
    }

  if (connection != NULL)
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_PASS,
                            about != NULL ? g_steal_pointer (&about)
                                          : g_strdup (_("The TLS handshake passed.")),
                            NULL);
      return;
    }

  if (handshake->errors != 0)
    {
      g_autofree char *why = explain_certificate (handshake->errors, g_uri_get_host (self->uri));

      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL,
                            /* Translators: the first %s says whom the certificate is for (or
                             * nothing), the second lists what is wrong with it, one per line */
                            g_strdup_printf (_("The server's certificate is not accepted. %s%s"),
                                             about != NULL ? about : "", why),
                            _("Ask the server's operator for a certificate from a trusted "
                              "authority for this name. For a server of your own with a private "
                              "authority, add that authority to this computer's trusted "
                              "certificates (update-ca-certificates)."));
      return;
    }

  mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL,
                        /* Translators: %s is why */
                        g_strdup_printf (_("The TLS handshake failed: %s"), error->message),
                        _("The server may not speak TLS on this port (try http://), or a proxy "
                          "or firewall interferes."));
}

static void
check_tls (McpDoctor *self)
{
  if (!is_tls (self))
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_SKIPPED,
                            g_strdup (_("The URL is not https: there is no TLS to check.")), NULL);
      return;
    }

  connect_socket (self, TRUE, on_tls_cb);
}

/* ------------------------------------------------------------------------ */
/* The initialize POST, its session, the GET stream                         */

static char *
content_type_of (SoupMessage *message)
{
  const char *type = soup_message_headers_get_one (soup_message_get_response_headers (message),
                                                   "Content-Type");

  return mcp_doctor_quote (type != NULL ? type : _("none"));
}

/* The answer's head (the checks look at the head only: the body is
 * closed unread); FALSE when the doctor was stopped meanwhile. @error is
 * set when no answer came. */
static gboolean
finish_head (McpDoctor     *self,
             GObject       *object,
             GAsyncResult  *result,
             GError       **error)
{
  g_autoptr(GInputStream) body = soup_session_send_finish (SOUP_SESSION (object), result, error);

  if (mcp_doctor_step_aborted (self))
    return FALSE;
  if (body != NULL)
    g_input_stream_close_async (body, G_PRIORITY_DEFAULT, NULL, NULL, NULL);
  return TRUE;
}

static void check_post (McpDoctor *self);

static void
on_post_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(McpDoctor) self = user_data;
  SoupMessage *message = soup_session_get_async_result_message (SOUP_SESSION (object), result);
  g_autoptr(GError) error = NULL;
  g_autofree char *type = NULL;
  guint status;

  if (!finish_head (self, object, result, &error))
    return;

  if (error != NULL)
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL,
                            /* Translators: %s is why */
                            g_strdup_printf (_("The initialize request failed: %s"),
                                             self->step_timed_out ? _("no answer in time") : error->message),
                            _("Check that the URL is the server's MCP endpoint."));
      return;
    }

  status = soup_message_get_status (message);

  /* A DPoP-bound sign-in and a server that wants a nonce first: once
   * more with it, as a connection does. */
  if (status == SOUP_STATUS_UNAUTHORIZED && self->auth != NULL && !self->nonce_retried &&
      mcp_dpop_is_nonce_error (message, NULL))
    {
      self->nonce_retried = TRUE;
      mcp_auth_provider_message_answered (self->auth, message);
      check_post (self);
      return;
    }

  type = content_type_of (message);
  g_free (self->session_id);
  self->session_id = g_strdup (soup_message_headers_get_one (soup_message_get_response_headers (message),
                                                             "Mcp-Session-Id"));

  if (status == SOUP_STATUS_UNAUTHORIZED || status == SOUP_STATUS_FORBIDDEN)
    {
      self->auth_status = status;
      self->www_authenticate = g_strdup (soup_message_headers_get_one (soup_message_get_response_headers (message),
                                                                       "WWW-Authenticate"));
      mcp_doctor_block (self, _("Not checked: the server asks for sign-in first."));
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_WARN,
                            /* Translators: %u is an HTTP status (401 or 403) */
                            g_strdup_printf (_("HTTP %u: the server asks for sign-in."), status),
                            _("See the sign-in check below."));
      return;
    }

  if (status == SOUP_STATUS_BAD_REQUEST || status == SOUP_STATUS_NOT_FOUND ||
      status == SOUP_STATUS_METHOD_NOT_ALLOWED)
    {
      self->legacy = TRUE;
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_WARN,
                            /* Translators: %u is an HTTP status */
                            g_strdup_printf (_("HTTP %u to the initialize POST: this may be a server "
                                               "of the legacy HTTP+SSE transport (the stream check "
                                               "below tells)."), status),
                            _("If the stream check passes, set “type”: “sse” in the server's settings; "
                              "Plugboard also falls back to it by itself. Otherwise check the URL's path "
                              "(often …/mcp)."));
      return;
    }

  if (!SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL,
                            /* Translators: %u is an HTTP status, %s its reason phrase */
                            g_strdup_printf (_("The initialize POST was answered HTTP %u %s."), status,
                                             soup_message_get_reason_phrase (message) != NULL
                                             ? soup_message_get_reason_phrase (message) : ""),
                            status >= 500
                            ? _("The server failed: its own logs say why; try again later.")
                            : _("Check the URL and the headers in the server's settings."));
      return;
    }

  if (!mcp_http_is_json (message) && !mcp_http_is_event_stream (message))
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL,
                            /* Translators: %u is an HTTP status, %s a content type */
                            g_strdup_printf (_("HTTP %u, but the content type is “%s”: an MCP server "
                                               "answers application/json or text/event-stream."),
                                             status, type),
                            _("The URL may lead to a web page rather than the MCP endpoint: check "
                              "its path (often …/mcp)."));
      return;
    }

  mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_PASS,
                        /* Translators: %u is an HTTP status, %s a content type */
                        g_strdup_printf (_("HTTP %u, content type “%s”."), status, type), NULL);
}

static void
check_post (McpDoctor *self)
{
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autofree char *json = NULL;
  gsize length;

  if (is_websocket (self))
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_SKIPPED,
                            g_strdup (_("A WebSocket server: the era probe below connects to it.")), NULL);
      return;
    }
  if (mcp_server_config_get_transport (self->expanded) == MCP_TRANSPORT_KIND_SSE)
    {
      self->legacy = TRUE;
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_SKIPPED,
                            g_strdup (_("A legacy HTTP+SSE server: it takes no POST before its stream.")),
                            NULL);
      return;
    }

  json = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                          "{\"protocolVersion\":\"%s\",\"capabilities\":{},"
                          "\"clientInfo\":{\"name\":\"%s\",\"version\":\"%s\"}}}",
                          MCP_PROTOCOL_VERSION_LATEST, PACKAGE_NAME, PACKAGE_VERSION);
  length = strlen (json);
  body = g_bytes_new_take (g_steal_pointer (&json), length);
  message = soup_message_new (SOUP_METHOD_POST, mcp_server_config_get_url (self->expanded));
  if (message == NULL)
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL,
                            g_strdup (_("libsoup does not accept the URL.")), NULL);
      return;
    }
  mcp_doctor_http_add_headers (self, message);
  soup_message_headers_replace (soup_message_get_request_headers (message), "Accept",
                                "application/json, text/event-stream");
  soup_message_set_request_body_from_bytes (message, "application/json", body);
  soup_session_send_async (get_session (self), message, G_PRIORITY_DEFAULT,
                           mcp_doctor_step_get_cancellable (self), on_post_cb, g_object_ref (self));
}

static void
check_session (McpDoctor *self)
{
  if (is_websocket (self) || self->legacy)
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_SKIPPED,
                            g_strdup (_("Only Streamable HTTP has the Mcp-Session-Id header.")), NULL);
      return;
    }

  if (self->session_id == NULL)
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_PASS,
                            g_strdup (_("No Mcp-Session-Id: the server keeps no session (allowed).")),
                            NULL);
      return;
    }

  mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_PASS,
                        /* Translators: %u is a number of characters; the id itself is not shown */
                        g_strdup_printf (_("The server gave a session: Mcp-Session-Id, %u characters."),
                                         (guint) strlen (self->session_id)),
                        NULL);
}

static void
on_stream_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(McpDoctor) self = user_data;
  SoupMessage *message = soup_session_get_async_result_message (SOUP_SESSION (object), result);
  g_autoptr(GError) error = NULL;
  g_autofree char *type = NULL;
  guint status;

  if (!finish_head (self, object, result, &error))
    return;

  if (error != NULL)
    {
      mcp_doctor_step_done (self, self->legacy ? MCP_DOCTOR_STATUS_FAIL : MCP_DOCTOR_STATUS_WARN,
                            /* Translators: %s is why */
                            g_strdup_printf (_("The GET for the event stream failed: %s"),
                                             self->step_timed_out ? _("no answer in time") : error->message),
                            NULL);
      return;
    }

  status = soup_message_get_status (message);
  type = content_type_of (message);

  if (status == SOUP_STATUS_OK && mcp_http_is_event_stream (message))
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_PASS,
                            self->legacy
                            ? g_strdup (_("HTTP 200: the legacy HTTP+SSE event stream opened."))
                            : g_strdup (_("HTTP 200: the server's event stream opened.")),
                            NULL);
      return;
    }

  if (self->legacy)
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL,
                            /* Translators: %u is an HTTP status, %s a content type */
                            g_strdup_printf (_("The GET was answered HTTP %u, content type “%s”: this is "
                                               "neither a Streamable HTTP nor a legacy HTTP+SSE "
                                               "endpoint."), status, type),
                            _("Check the URL's path: the MCP endpoint is often …/mcp (Streamable "
                              "HTTP) or …/sse (legacy)."));
      return;
    }

  if (status == SOUP_STATUS_METHOD_NOT_ALLOWED)
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_PASS,
                            g_strdup (_("HTTP 405: the server offers no event stream of its own "
                                        "(allowed; its answers come with each request).")),
                            NULL);
      return;
    }

  mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_WARN,
                        /* Translators: %u is an HTTP status, %s a content type */
                        g_strdup_printf (_("The GET for the event stream was answered HTTP %u, "
                                           "content type “%s”: notifications the server sends on "
                                           "its own may not arrive."), status, type),
                        NULL);
}

static void
check_stream (McpDoctor *self)
{
  g_autoptr(SoupMessage) message = NULL;
  SoupMessageHeaders *headers;

  if (is_websocket (self))
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_SKIPPED,
                            g_strdup (_("A WebSocket server has no event stream.")), NULL);
      return;
    }

  message = soup_message_new (SOUP_METHOD_GET, mcp_server_config_get_url (self->expanded));
  mcp_doctor_http_add_headers (self, message);
  headers = soup_message_get_request_headers (message);
  soup_message_headers_replace (headers, "Accept", "text/event-stream");
  if (self->session_id != NULL)
    {
      soup_message_headers_replace (headers, "Mcp-Session-Id", self->session_id);
      soup_message_headers_replace (headers, "MCP-Protocol-Version", MCP_PROTOCOL_VERSION_LATEST);
    }
  soup_session_send_async (get_session (self), message, G_PRIORITY_DEFAULT,
                           mcp_doctor_step_get_cancellable (self), on_stream_cb, g_object_ref (self));
}

/* ------------------------------------------------------------------------ */
/* The era probe                                                            */

static void
on_probe_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(McpDoctor) self = user_data;
  McpClient *client = MCP_CLIENT (object);
  g_autoptr(GError) error = NULL;
  gint64 took;

  mcp_client_connect_finish (client, result, &error);
  if (mcp_doctor_step_aborted (self) || client != self->client)
    return;

  took = g_get_monotonic_time () - self->step_start;
  if (error != NULL)
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL,
                            self->step_timed_out || g_error_matches (error, MCP_ERROR, MCP_ERROR_TIMEOUT)
                            /* Translators: %u is a number of seconds */
                            ? g_strdup_printf (_("It never answered initialize in %u s."),
                                               mcp_doctor_timeout_seconds (self))
                            : g_strdup (error->message),
                            g_error_matches (error, MCP_ERROR, MCP_ERROR_UNSUPPORTED_VERSION)
                            ? _("Update the server (or Plugboard) to a version that speaks a protocol "
                                "version both support.")
                            : _("The checks above passed, so the server itself refused: its logs, or "
                                "the traffic in Plugboard's log, say more."));
      return;
    }

  if (took > (gint64) mcp_doctor_get_timeout (self) * 1000 / 2)
    {
      g_autofree char *era = mcp_doctor_describe_era (client);

      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_WARN,
                            /* Translators: a protocol version sentence, then seconds taken and allowed */
                            g_strdup_printf (_("%s It answered slowly: in %.1f s of the %u s allowed."),
                                             era, took / (double) G_USEC_PER_SEC,
                                             mcp_doctor_timeout_seconds (self)),
                            _("A slow answer can make it fail now and then: set a longer timeout "
                              "(MCP_TIMEOUT, or the server's “timeout”)."));
      return;
    }

  if (self->legacy)
    {
      g_autofree char *era = mcp_doctor_describe_era (client);

      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_PASS,
                            /* Translators: %s is a protocol version sentence */
                            g_strdup_printf (_("%s Over the legacy HTTP+SSE transport."), era),
                            NULL);
      return;
    }

  mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_PASS, mcp_doctor_describe_era (client), NULL);
}

static void
check_era (McpDoctor *self)
{
  g_auto(GStrv) headers = dup_headers (self);
  const char *url = mcp_server_config_get_url (self->expanded);
  g_autoptr(McpTransport) transport = NULL;

  if (is_websocket (self))
    transport = mcp_websocket_transport_new (url, (const char * const *) headers, self->auth);
  else if (self->legacy)
    transport = mcp_sse_transport_new (url, (const char * const *) headers, self->auth);
  else
    transport = mcp_http_transport_new (url, (const char * const *) headers, self->auth);
  mcp_remote_transport_set_request_timeout (MCP_REMOTE_TRANSPORT (transport), mcp_doctor_get_timeout (self));

  self->client = mcp_client_new (transport);
  mcp_client_set_client_info (self->client, PACKAGE_NAME, PACKAGE_VERSION);
  mcp_client_set_connect_timeout (self->client, mcp_doctor_get_timeout (self));
  mcp_client_connect_async (self->client, mcp_doctor_step_get_cancellable (self),
                            on_probe_cb, g_object_ref (self));
}

static void
check_sign_in (McpDoctor *self)
{
  if (self->auth_status == 0)
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_SKIPPED,
                            g_strdup (_("The server did not ask for sign-in.")), NULL);
      return;
    }

  mcp_doctor_check_sign_in (self);
}

const McpDoctorStep mcp_doctor_http_steps[] = {
  { "url", N_("Address"), check_url, FALSE },
  { "resolve", N_("Name resolves"), check_resolve, FALSE },
  { "tcp", N_("TCP connects"), check_tcp, FALSE },
  { "tls", N_("TLS certificate"), check_tls, FALSE },
  { "http", N_("HTTP answer"), check_post, FALSE },
  { "session", N_("Session header"), check_session, FALSE },
  { "stream", N_("Event stream"), check_stream, FALSE },
  { "era", N_("Protocol version"), check_era, FALSE },
  { "sign-in", N_("Sign-in"), check_sign_in, TRUE },
};

const guint mcp_doctor_n_http_steps = G_N_ELEMENTS (mcp_doctor_http_steps);
