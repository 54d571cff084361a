/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-oauth"

#include "config.h"

#include "mcp-oauth-private.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-http-private.h"
#include "mcp-json-private.h"

/* What the OAuth files share (mcp-oauth-private.h): one request sent with
 * a timer, its answer read as JSON or as an OAuth error, and strings from
 * servers made fit for messages. */

static GQuark
request_timeout_quark (void)
{
  return g_quark_from_static_string ("mcp-oauth-request-timeout");
}

void
mcp_oauth_session_set_request_timeout (SoupSession *session,
                                       guint        timeout_ms)
{
  g_return_if_fail (SOUP_IS_SESSION (session));
  g_return_if_fail (timeout_ms > 0);

  g_object_set_qdata (G_OBJECT (session), request_timeout_quark (), GUINT_TO_POINTER (timeout_ms));
}

guint
mcp_oauth_session_get_request_timeout (SoupSession *session)
{
  guint timeout_ms = GPOINTER_TO_UINT (g_object_get_qdata (G_OBJECT (session),
                                                           request_timeout_quark ()));

  return timeout_ms > 0 ? timeout_ms : MCP_OAUTH_REQUEST_TIMEOUT_MS;
}

static GQuark
trace_quark (void)
{
  return g_quark_from_static_string ("mcp-oauth-trace");
}

void
mcp_oauth_session_set_trace (SoupSession *session,
                             McpTrace    *trace)
{
  g_return_if_fail (SOUP_IS_SESSION (session));
  g_return_if_fail (trace == NULL || MCP_IS_TRACE (trace));

  g_object_set_qdata_full (G_OBJECT (session), trace_quark (),
                           trace != NULL ? g_object_ref (trace) : NULL, g_object_unref);
}

McpTrace *
mcp_oauth_session_get_trace (SoupSession *session)
{
  g_return_val_if_fail (SOUP_IS_SESSION (session), NULL);

  return g_object_get_qdata (G_OBJECT (session), trace_quark ());
}

void
mcp_oauth_trace_step (SoupSession        *session,
                      SoupMessage        *message,
                      const char         *step,
                      McpTraceStepStatus  status,
                      const char         *format,
                      ...)
{
  McpTrace *trace = mcp_oauth_session_get_trace (session);
  McpTraceEntry *http = NULL;
  g_autofree char *text = NULL;
  va_list args;

  if (trace == NULL)
    return;

  if (message != NULL)
    http = mcp_trace_lookup_http (trace, message);

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);

  mcp_trace_record_auth_step (trace, step, status, text,
                              http != NULL ? mcp_trace_entry_get_seq (http) : 0);
}

McpTraceEntry *
mcp_oauth_trace_http (SoupSession *session,
                      SoupMessage *message,
                      GBytes      *body,
                      const char  *content_type)
{
  McpTrace *trace = mcp_oauth_session_get_trace (session);
  const char *data = NULL;
  gsize size = 0;

  if (trace == NULL)
    return NULL;

  if (body != NULL)
    data = g_bytes_get_data (body, &size);
  return mcp_trace_record_http (trace, message, data, size, content_type);
}

void
mcp_oauth_free_secret (char *secret)
{
  if (secret == NULL)
    return;

  explicit_bzero (secret, strlen (secret));
  g_free (secret);
}

char *
mcp_oauth_message_url (SoupMessage *message)
{
  return g_uri_to_string_partial (soup_message_get_uri (message), G_URI_HIDE_USERINFO);
}

char *
mcp_oauth_sanitize (const char *text)
{
  g_autofree char *valid = NULL;
  GString *out;
  const char *p;
  guint n = 0;

  if (text == NULL)
    return g_strdup ("");

  valid = g_utf8_make_valid (text, -1);
  out = g_string_new (NULL);
  for (p = valid; *p != '\0' && n < 200; p = g_utf8_next_char (p), n++)
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_iscntrl (c))
        g_string_append_c (out, ' ');
      else
        g_string_append_unichar (out, c);
    }
  if (*p != '\0')
    g_string_append (out, "…");

  return g_string_free (out, FALSE);
}

char **
mcp_oauth_string_array (JsonObject *object,
                        const char *member,
                        gboolean   *malformed)
{
  JsonNode *node = json_object_get_member (object, member);
  JsonArray *array;
  g_autoptr(GStrvBuilder) builder = NULL;
  guint len;

  *malformed = FALSE;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return NULL;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      *malformed = TRUE;
      return NULL;
    }

  array = json_node_get_array (node);
  len = json_array_get_length (array);
  builder = g_strv_builder_new ();
  for (guint i = 0; i < len; i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (json_node_get_value_type (element) != G_TYPE_STRING)
        {
          *malformed = TRUE;
          return NULL;
        }
      g_strv_builder_add (builder, json_node_get_string (element));
    }

  return g_strv_builder_end (builder);
}

gboolean
mcp_oauth_strv_contains (char * const *strv,
                         const char   *str)
{
  return strv != NULL && g_strv_contains ((const char * const *) strv, str);
}

JsonNode *
mcp_oauth_parse_object (GBytes      *body,
                        const char  *url,
                        GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonNode) node = NULL;
  gsize size = 0;
  const char *data = NULL;

  if (body != NULL)
    data = g_bytes_get_data (body, &size);

  node = mcp_json_parse (data, size, &local_error);
  if (node == NULL)
    {
      /* The parser's message gives a position, never the text. */
      g_set_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                   _("“%s” did not answer valid JSON: %s"), url, local_error->message);
      return NULL;
    }

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                   _("“%s” did not answer a JSON object"), url);
      return NULL;
    }

  return g_steal_pointer (&node);
}

GError *
mcp_oauth_answer_error (const char   *what,
                        SoupMessage  *message,
                        GBytes       *body,
                        char        **oauth_error)
{
  g_autofree char *url = mcp_oauth_message_url (message);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(JsonNode) node = NULL;
  guint status = soup_message_get_status (message);
  const char *reason = soup_message_get_reason_phrase (message);
  const char *code = NULL;
  const char *description = NULL;

  if (oauth_error != NULL)
    *oauth_error = NULL;

  if (reason == NULL || reason[0] == '\0')
    reason = soup_status_get_phrase (status);

  if (body != NULL && g_bytes_get_size (body) > 0)
    {
      gsize size;
      const char *data = g_bytes_get_data (body, &size);

      node = mcp_json_parse (data, size, NULL);
      if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
        {
          JsonObject *object = json_node_get_object (node);

          code = mcp_json_optional_string (object, "error", "OAuth error", NULL);
          description = mcp_json_optional_string (object, "error_description", "OAuth error", NULL);
        }
    }

  /* Translators: the first %s is what was asked (“Client registration”, “Token request”
   * or “Token refresh”), the second an address, %u the HTTP status code */
  g_string_append_printf (text, _("%s at “%s” failed: HTTP %u"), what, url, status);
  if (reason != NULL)
    {
      g_autofree char *valid = mcp_oauth_sanitize (reason);

      g_string_append_printf (text, " %s", valid);
    }
  if (code != NULL)
    {
      g_autofree char *valid = mcp_oauth_sanitize (code);

      /* Translators: %s is an OAuth error code such as “invalid_grant” */
      g_string_append_printf (text, _(", error “%s”"), valid);
      if (oauth_error != NULL)
        *oauth_error = g_strdup (code);
    }
  if (description != NULL)
    {
      g_autofree char *valid = mcp_oauth_sanitize (description);

      g_string_append_printf (text, ": %s", valid);
    }

  return g_error_new_literal (MCP_ERROR, MCP_ERROR_NEEDS_AUTH, text->str);
}

/* Sending one request with a timer */

typedef struct
{
  SoupMessage  *message;
  GCancellable *inner;     /* cancelled by the caller's cancellable or the timer */
  GCancellable *outer;
  gulong        cancelled_id;
  guint         timeout_id;
  guint         timeout_ms;
  char         *url;
  gboolean      timed_out;
  McpTrace     *trace;     /* the session's, when it recorded the message */
} Send;

static void
send_free (Send *send)
{
  g_clear_handle_id (&send->timeout_id, g_source_remove);
  if (send->outer != NULL && send->cancelled_id != 0)
    g_cancellable_disconnect (send->outer, send->cancelled_id);
  g_clear_object (&send->outer);
  g_clear_object (&send->inner);
  g_clear_object (&send->message);
  g_clear_object (&send->trace);
  g_free (send->url);
  g_free (send);
}

static void
send_outer_cancelled_cb (GCancellable *outer,
                         gpointer      user_data)
{
  GCancellable *inner = user_data;

  g_cancellable_cancel (inner);
}

static gboolean
send_timeout_cb (gpointer user_data)
{
  Send *send = user_data;

  send->timeout_id = 0;
  send->timed_out = TRUE;
  g_cancellable_cancel (send->inner);

  return G_SOURCE_REMOVE;
}

static GError *send_error_new (Send *send, const GError *error);

/* The failure, as the caller gets it and as the trace shows it. */
static GError *
send_error (Send         *send,
            const GError *error)
{
  GError *failure = send_error_new (send, error);
  McpTraceEntry *entry = send->trace != NULL ? mcp_trace_lookup_http (send->trace, send->message) : NULL;

  if (entry != NULL)
    mcp_trace_http_failed (send->trace, entry, failure);
  return failure;
}

static GError *
send_error_new (Send         *send,
                const GError *error)
{
  if (send->timed_out)
    return g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                        _("“%s” did not answer within %u ms; check the address or try again later"),
                        send->url, send->timeout_ms);

  if (send->outer != NULL && g_cancellable_is_cancelled (send->outer))
    return g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Operation was cancelled"));

  if (g_error_matches (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE))
    return g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                        _("“%s” answered more than %d KiB, too much for an authorization answer"),
                        send->url, MCP_OAUTH_MAX_BODY / 1024);

  return g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                      _("Could not reach “%s”: %s"), send->url, error->message);
}

static void
send_read_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Send *send = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  McpTraceEntry *entry;
  GBytes *body;

  body = mcp_http_read_body_finish (result, &error);
  g_clear_handle_id (&send->timeout_id, g_source_remove);
  if (body == NULL)
    {
      g_task_return_error (task, send_error (send, error));
      return;
    }

  entry = send->trace != NULL ? mcp_trace_lookup_http (send->trace, send->message) : NULL;
  if (entry != NULL)
    {
      gsize size;
      const char *data = g_bytes_get_data (body, &size);

      mcp_trace_http_got_body (send->trace, entry, data, size);
    }
  g_task_return_pointer (task, body, (GDestroyNotify) g_bytes_unref);
}

static void
send_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Send *send = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GInputStream) stream = NULL;

  stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  if (stream == NULL)
    {
      g_clear_handle_id (&send->timeout_id, g_source_remove);
      g_task_return_error (task, send_error (send, error));
      return;
    }

  mcp_http_read_body_async (stream, MCP_OAUTH_MAX_BODY, FALSE, send->inner,
                            send_read_cb, g_steal_pointer (&task));
}

void
mcp_oauth_send_async (SoupSession         *session,
                      SoupMessage         *message,
                      const char          *content_type,
                      GBytes              *body,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Send *send;

  g_return_if_fail (SOUP_IS_SESSION (session));
  g_return_if_fail (SOUP_IS_MESSAGE (message));

  task = g_task_new (session, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_oauth_send_async);

  send = g_new0 (Send, 1);
  send->message = g_object_ref (message);
  send->inner = g_cancellable_new ();
  send->url = mcp_oauth_message_url (message);
  send->timeout_ms = mcp_oauth_session_get_request_timeout (session);
  g_task_set_task_data (task, send, (GDestroyNotify) send_free);

  if (cancellable != NULL)
    {
      send->outer = g_object_ref (cancellable);
      send->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (send_outer_cancelled_cb),
                                                  send->inner, NULL);
    }

  send->timeout_id = g_timeout_add (send->timeout_ms, send_timeout_cb, send);
  g_source_set_static_name (g_main_context_find_source_by_id (NULL, send->timeout_id),
                            "[mcp-oauth] request timeout");

  if (body != NULL)
    soup_message_set_request_body_from_bytes (message, content_type, body);
  if (mcp_oauth_trace_http (session, message, body, content_type) != NULL)
    send->trace = g_object_ref (mcp_oauth_session_get_trace (session));

  soup_session_send_async (session, message, G_PRIORITY_DEFAULT, send->inner,
                           send_cb, g_steal_pointer (&task));
}

GBytes *
mcp_oauth_send_finish (GAsyncResult  *result,
                       GError       **error)
{
  g_return_val_if_fail (G_IS_TASK (result), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_oauth_send_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
