/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-http"

#include "config.h"

#include "mcp-http-private.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-http-transport.h"

#define READ_CHUNK (64 * 1024)

static gboolean
host_is_loopback (const char *url)
{
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  g_autoptr(GInetAddress) address = NULL;
  const char *host;

  if (uri == NULL || (host = g_uri_get_host (uri)) == NULL)
    return FALSE;
  if (g_ascii_strcasecmp (host, "localhost") == 0)
    return TRUE;

  address = g_inet_address_new_from_string (host);
  return address != NULL && g_inet_address_get_is_loopback (address);
}

SoupSession *
mcp_http_session_new (const char *url)
{
  SoupSession *session;

  /* Timeout 0: a long-lived event stream must never be cut by the session;
   * each request has its own timer instead. libsoup allows 2 connections
   * per host by default: the GET stream and one streamed answer would hold
   * both, and every other message (even the reply to a server's request)
   * would wait behind them. */
  session = soup_session_new_with_options ("timeout", 0,
                                           "idle-timeout", 0,
                                           "max-conns-per-host", 32,
                                           "user-agent", PACKAGE_NAME "/" PACKAGE_VERSION,
                                           NULL);

  /* No proxy reaches loopback; asking the resolver (libproxy, on a thread)
   * for every new connection only adds delay. */
  if (host_is_loopback (url))
    soup_session_set_proxy_resolver (session, NULL);

  return session;
}

static gboolean
split_header (const char  *entry,
              char       **name,
              char       **value)
{
  const char *colon = strchr (entry, ':');
  g_autofree char *n = NULL;

  if (colon == NULL || colon == entry)
    return FALSE;

  n = g_strstrip (g_strndup (entry, (gsize) (colon - entry)));
  if (n[0] == '\0' || strpbrk (n, " \t\r\n") != NULL)
    return FALSE;
  if (strpbrk (colon + 1, "\r\n") != NULL)
    return FALSE;

  *name = g_steal_pointer (&n);
  *value = g_strstrip (g_strdup (colon + 1));
  return TRUE;
}

void
mcp_http_apply_headers (SoupMessage        *message,
                        const char * const *headers,
                        McpAuthProvider    *provider)
{
  SoupMessageHeaders *request_headers = soup_message_get_request_headers (message);

  for (guint i = 0; headers != NULL && headers[i] != NULL; i++)
    {
      g_autofree char *name = NULL;
      g_autofree char *value = NULL;

      if (split_header (headers[i], &name, &value))
        soup_message_headers_replace (request_headers, name, value);
    }

  if (provider != NULL)
    mcp_auth_provider_authorize_message (provider, message);
}

void
mcp_http_note_answer (SoupMessage     *message,
                      McpAuthProvider *provider)
{
  if (provider != NULL && message != NULL && soup_message_get_status (message) != SOUP_STATUS_NONE)
    mcp_auth_provider_message_answered (provider, message);
}

gboolean
mcp_http_is_auth_challenge (SoupMessage *message)
{
  guint status = soup_message_get_status (message);
  const char *header;
  g_autoptr(GHashTable) params = NULL;
  g_autofree char *scheme = NULL;
  const char *error_param;

  if (status == SOUP_STATUS_UNAUTHORIZED)
    return TRUE;
  if (status != SOUP_STATUS_FORBIDDEN)
    return FALSE;

  header = soup_message_headers_get_one (soup_message_get_response_headers (message),
                                         "WWW-Authenticate");
  scheme = mcp_auth_parse_www_authenticate (header, &params);
  if (scheme == NULL)
    return FALSE;

  error_param = g_hash_table_lookup (params, "error");
  return g_strcmp0 (error_param, "insufficient_scope") == 0;
}

GError *
mcp_http_needs_auth_error (const char  *url,
                           SoupMessage *message)
{
  const char *header;
  g_autoptr(GHashTable) params = NULL;
  g_autofree char *scheme = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  guint status = soup_message_get_status (message);

  header = soup_message_headers_get_one (soup_message_get_response_headers (message),
                                         "WWW-Authenticate");
  scheme = mcp_auth_parse_www_authenticate (header, &params);

  if (status == SOUP_STATUS_FORBIDDEN)
    {
      /* Translators: %s is the server's URL. */
      g_string_append_printf (text, _("“%s” needs more permissions (HTTP 403, insufficient scope); sign in again"),
                              url);
    }
  else
    {
      /* Translators: %s is the server's URL, %u an HTTP status (401). */
      g_string_append_printf (text, _("“%s” needs authorization (HTTP %u); sign in"), url, status);
    }

  if (params != NULL)
    {
      static const char *names[] = { "resource_metadata", "scope", "error", "error_description", "realm" };
      gboolean first = TRUE;

      for (guint i = 0; i < G_N_ELEMENTS (names); i++)
        {
          const char *value = g_hash_table_lookup (params, names[i]);
          g_autofree char *valid = NULL;

          if (value == NULL)
            continue;
          valid = g_utf8_make_valid (value, -1);
          g_string_append_printf (text, "%s%s=“%s”", first ? " (" : ", ", names[i], valid);
          first = FALSE;
        }
      if (!first)
        g_string_append_c (text, ')');
    }

  return g_error_new_literal (MCP_ERROR, MCP_ERROR_NEEDS_AUTH, text->str);
}

GError *
mcp_http_status_error (const char  *url,
                       SoupMessage *message,
                       GBytes      *body)
{
  guint status = soup_message_get_status (message);
  const char *reason = soup_message_get_reason_phrase (message);
  g_autoptr(GString) text = g_string_new (NULL);
  const char *content_type;

  if (reason == NULL || reason[0] == '\0')
    reason = soup_status_get_phrase (status);

  /* Translators: %s is the server's URL, %u an HTTP status; the status's
   * reason phrase (in English) and the server's answer may follow. */
  g_string_append_printf (text, _("“%s” answered HTTP %u"), url, status);
  if (reason != NULL)
    {
      g_autofree char *valid = g_utf8_make_valid (reason, -1);

      g_string_append_printf (text, " %s", valid);
    }

  content_type = soup_message_headers_get_content_type (soup_message_get_response_headers (message), NULL);
  if (body != NULL && g_bytes_get_size (body) > 0 &&
      (content_type == NULL || g_str_has_prefix (content_type, "text/") ||
       g_str_equal (content_type, "application/json")))
    {
      gsize size;
      const char *data = g_bytes_get_data (body, &size);
      g_autofree char *valid = g_utf8_make_valid (data, (gssize) MIN (size, MCP_HTTP_ERROR_BODY_MAX));

      g_strstrip (valid);
      if (valid[0] != '\0')
        g_string_append_printf (text, ": %s%s", valid, size > MCP_HTTP_ERROR_BODY_MAX ? "…" : "");
    }

  return g_error_new_literal (MCP_ERROR, MCP_ERROR_HTTP, text->str);
}

GError *
mcp_http_network_error (const char   *url,
                        const GError *error)
{
  gboolean network = mcp_transport_error_is_terminal (error);

  if (error->domain == G_IO_ERROR)
    {
      switch (error->code)
        {
        case G_IO_ERROR_PARTIAL_INPUT:
        case G_IO_ERROR_BROKEN_PIPE:
        case G_IO_ERROR_CONNECTION_REFUSED:
        case G_IO_ERROR_TIMED_OUT:
        case G_IO_ERROR_HOST_UNREACHABLE:
        case G_IO_ERROR_NETWORK_UNREACHABLE:
        case G_IO_ERROR_HOST_NOT_FOUND:
        case G_IO_ERROR_NOT_CONNECTED:
        case G_IO_ERROR_PROXY_FAILED:
          network = TRUE;
          break;
        default:
          break;
        }
    }
  else if (error->domain == G_RESOLVER_ERROR)
    network = TRUE;

  if (!network)
    return g_error_copy (error);

  return g_error_new (MCP_ERROR, MCP_ERROR_NETWORK,
                      /* Translators: %s is the server's URL, then the network error. */
                      _("Could not talk to “%s”: %s"), url, error->message);
}

char *
mcp_http_describe_id (JsonNode *id)
{
  if (id != NULL && json_node_get_value_type (id) == G_TYPE_INT64)
    return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (id));
  if (id != NULL && json_node_get_value_type (id) == G_TYPE_STRING)
    {
      /* Translators: a request id that is a string, in quotes. */
      return g_strdup_printf (_("“%s”"), json_node_get_string (id));
    }
  return g_strdup ("?");
}

static gboolean
content_type_is (SoupMessage *message,
                 const char  *type)
{
  const char *content_type;

  content_type = soup_message_headers_get_content_type (soup_message_get_response_headers (message), NULL);
  return content_type != NULL && g_ascii_strcasecmp (content_type, type) == 0;
}

gboolean
mcp_http_is_json (SoupMessage *message)
{
  return content_type_is (message, "application/json");
}

gboolean
mcp_http_is_event_stream (SoupMessage *message)
{
  return content_type_is (message, "text/event-stream");
}

/* Reading a stream chunk by chunk */

/* Reads the next chunk of @task's stream, for @callback. */
static void
read_next (GTask               *task,
           GAsyncReadyCallback  callback)
{
  GInputStream *stream = g_task_get_source_object (task);

  g_input_stream_read_bytes_async (stream, READ_CHUNK, G_PRIORITY_DEFAULT,
                                   g_task_get_cancellable (task),
                                   callback, task);
}

/* The chunk read (empty at the end), or NULL when the read failed: @task
 * then returned its error. */
static GBytes *
read_finish (GTask        *task,
             GObject      *stream,
             GAsyncResult *result)
{
  g_autoptr(GError) error = NULL;
  GBytes *chunk = g_input_stream_read_bytes_finish (G_INPUT_STREAM (stream), result, &error);

  if (chunk == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  return chunk;
}

/* Reading a body */

typedef struct
{
  GByteArray *data;
  gsize       max;
  gboolean    truncate;
} ReadBody;

static void
read_body_free (ReadBody *state)
{
  g_byte_array_unref (state->data);
  g_free (state);
}

static void
read_body_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ReadBody *state = g_task_get_task_data (task);
  g_autoptr(GBytes) chunk = read_finish (task, object, result);
  gsize size;
  const guint8 *data;

  if (chunk == NULL)
    return;

  data = g_bytes_get_data (chunk, &size);
  if (size == 0)
    {
      g_task_return_pointer (task, g_byte_array_free_to_bytes (g_byte_array_ref (state->data)),
                             (GDestroyNotify) g_bytes_unref);
      return;
    }

  if (state->data->len + size > state->max)
    {
      if (state->truncate)
        {
          g_byte_array_append (state->data, data, (guint) (state->max - state->data->len));
          g_task_return_pointer (task, g_byte_array_free_to_bytes (g_byte_array_ref (state->data)),
                                 (GDestroyNotify) g_bytes_unref);
          return;
        }

      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE,
                               _("The answer is larger than %lu MiB"),
                               (unsigned long) (state->max / (1024 * 1024)));
      return;
    }

  g_byte_array_append (state->data, data, (guint) size);
  read_next (g_steal_pointer (&task), read_body_cb);
}

void
mcp_http_read_body_async (GInputStream        *stream,
                          gsize                max,
                          gboolean             truncate,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  GTask *task;
  ReadBody *state;

  task = g_task_new (stream, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_http_read_body_async);
  state = g_new0 (ReadBody, 1);
  state->data = g_byte_array_new ();
  state->max = max;
  state->truncate = truncate;
  g_task_set_task_data (task, state, (GDestroyNotify) read_body_free);

  read_next (task, read_body_cb);
}

GBytes *
mcp_http_read_body_finish (GAsyncResult  *result,
                           GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* Reading events */

typedef struct
{
  McpSseParser    *parser;
  McpSseEventFunc  func;
  gpointer         func_data;
} ReadEvents;

static void
read_events_free (ReadEvents *state)
{
  g_clear_object (&state->parser);
  g_free (state);
}

static void
read_events_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  ReadEvents *state = g_task_get_task_data (task);
  g_autoptr(GBytes) chunk = read_finish (task, object, result);
  g_autoptr(GError) error = NULL;
  gsize size;
  const char *data;

  if (chunk == NULL)
    return;

  data = g_bytes_get_data (chunk, &size);
  if (size == 0)
    {
      mcp_sse_parser_finish (state->parser);
      g_task_return_boolean (task, TRUE);
      return;
    }

  if (!mcp_sse_parser_feed (state->parser, data, size, state->func, state->func_data, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* An event handler may have cancelled the read. */
  if (g_task_return_error_if_cancelled (task))
    return;

  read_next (g_steal_pointer (&task), read_events_cb);
}

void
mcp_http_read_events_async (GInputStream        *stream,
                            McpSseParser        *parser,
                            McpSseEventFunc      func,
                            gpointer             func_data,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  GTask *task;
  ReadEvents *state;

  task = g_task_new (stream, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_http_read_events_async);
  state = g_new0 (ReadEvents, 1);
  state->parser = g_object_ref (parser);
  state->func = func;
  state->func_data = func_data;
  g_task_set_task_data (task, state, (GDestroyNotify) read_events_free);

  read_next (task, read_events_cb);
}

gboolean
mcp_http_read_events_finish (GAsyncResult  *result,
                             GError       **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

char *
mcp_http_header_value_encode (const char *value)
{
  gsize length = strlen (value);
  gboolean plain;
  g_autofree char *encoded = NULL;

  /* An empty argument is an empty header, not an encoded nothing. */
  if (length == 0)
    return g_strdup ("");

  /* Visible ASCII and inner spaces go as they are; a tab, a control
   * character, anything outside ASCII or an outer space would not survive
   * intermediaries (SEP-2243). */
  plain = value[0] != ' ' && value[length - 1] != ' ';
  for (gsize i = 0; plain && i < length; i++)
    {
      guchar c = (guchar) value[i];

      if (!(c >= 0x20 && c <= 0x7e))
        plain = FALSE;
    }

  if (plain && !(g_str_has_prefix (value, "=?base64?") && g_str_has_suffix (value, "?=")))
    return g_strdup (value);

  encoded = g_base64_encode ((const guchar *) value, length);
  return g_strconcat ("=?base64?", encoded, "?=", NULL);
}
