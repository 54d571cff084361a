/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* A small configurable HTTP server on 127.0.0.1 for the OAuth unit tests:
 * a table of paths and answers, and a record of every request in order.
 * Answer bodies may say %BASE% for the server's own http://127.0.0.1:port. */

#include <string.h>

#include <libsoup/soup.h>

#include "test-util.h"

typedef struct
{
  char *method;
  char *path;
  char *authorization;
  char *content_type;
  char *accept;
  char *protocol_version;
  char *body;
} TestRequest;

typedef struct
{
  guint     status;
  char     *content_type;
  char     *body;
  gboolean  hang;
} TestRoute;

typedef struct
{
  SoupServer *server;
  char       *base;
  GHashTable *routes;    /* path → TestRoute */
  GPtrArray  *requests;  /* TestRequest */
  GPtrArray  *paused;    /* SoupServerMessage */
} TestServer;

static inline void
test_request_free (gpointer data)
{
  TestRequest *request = data;

  g_free (request->method);
  g_free (request->path);
  g_free (request->authorization);
  g_free (request->content_type);
  g_free (request->accept);
  g_free (request->protocol_version);
  g_free (request->body);
  g_free (request);
}

static inline void
test_route_free (gpointer data)
{
  TestRoute *route = data;

  g_free (route->content_type);
  g_free (route->body);
  g_free (route);
}

static inline char *
test_server_expand (TestServer *ts,
                    const char *text)
{
  g_auto(GStrv) parts = g_strsplit (text, "%BASE%", -1);

  return g_strjoinv (ts->base, parts);
}

static inline void
test_server_handler (SoupServer        *server,
                     SoupServerMessage *msg,
                     const char        *path,
                     GHashTable        *query,
                     gpointer           user_data)
{
  TestServer *ts = user_data;
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  TestRequest *request = g_new0 (TestRequest, 1);
  g_autoptr(GBytes) body = soup_message_body_flatten (soup_server_message_get_request_body (msg));
  TestRoute *route;

  request->method = g_strdup (soup_server_message_get_method (msg));
  request->path = g_strdup (path);
  request->authorization = g_strdup (soup_message_headers_get_one (headers, "Authorization"));
  request->content_type = g_strdup (soup_message_headers_get_content_type (headers, NULL));
  request->accept = g_strdup (soup_message_headers_get_one (headers, "Accept"));
  request->protocol_version = g_strdup (soup_message_headers_get_one (headers, "MCP-Protocol-Version"));
  request->body = g_strndup (g_bytes_get_data (body, NULL), g_bytes_get_size (body));
  g_ptr_array_add (ts->requests, request);

  route = g_hash_table_lookup (ts->routes, path);
  if (route == NULL)
    {
      soup_server_message_set_status (msg, SOUP_STATUS_NOT_FOUND, NULL);
      return;
    }

  if (route->hang)
    {
      g_ptr_array_add (ts->paused, g_object_ref (msg));
      soup_server_message_pause (msg);
      return;
    }

  soup_server_message_set_status (msg, route->status, NULL);
  if (route->body != NULL)
    {
      g_autofree char *expanded = test_server_expand (ts, route->body);

      soup_server_message_set_response (msg, route->content_type, SOUP_MEMORY_COPY,
                                        expanded, strlen (expanded));
    }
}

static inline TestServer *
test_server_new (void)
{
  TestServer *ts = g_new0 (TestServer, 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  GSList *uris;
  GUri *uri;

  ts->server = soup_server_new (NULL, NULL);
  ts->routes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, test_route_free);
  ts->requests = g_ptr_array_new_with_free_func (test_request_free);
  ts->paused = g_ptr_array_new_with_free_func (g_object_unref);
  soup_server_add_handler (ts->server, NULL, test_server_handler, ts, NULL);
  soup_server_listen (ts->server, address, 0, &error);
  g_assert_no_error (error);

  uris = soup_server_get_uris (ts->server);
  g_assert_nonnull (uris);
  uri = uris->data;
  ts->base = g_strdup_printf ("http://127.0.0.1:%d", g_uri_get_port (uri));
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);

  return ts;
}

static inline void
test_server_free (TestServer *ts)
{
  soup_server_disconnect (ts->server);
  g_clear_object (&ts->server);
  g_ptr_array_unref (ts->paused);
  g_ptr_array_unref (ts->requests);
  g_hash_table_unref (ts->routes);
  g_free (ts->base);
  g_free (ts);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TestServer, test_server_free)

static inline void
test_server_route (TestServer *ts,
                   const char *path,
                   guint       status,
                   const char *body)
{
  TestRoute *route = g_new0 (TestRoute, 1);

  route->status = status;
  route->content_type = g_strdup ("application/json");
  route->body = g_strdup (body);
  g_hash_table_replace (ts->routes, g_strdup (path), route);
}

static inline void
test_server_route_text (TestServer *ts,
                        const char *path,
                        guint       status,
                        const char *body)
{
  test_server_route (ts, path, status, body);
  TestRoute *route = g_hash_table_lookup (ts->routes, path);
  g_free (route->content_type);
  route->content_type = g_strdup ("text/plain");
}

static inline void
test_server_hang (TestServer *ts,
                  const char *path)
{
  TestRoute *route = g_new0 (TestRoute, 1);

  route->hang = TRUE;
  g_hash_table_replace (ts->routes, g_strdup (path), route);
}

/* http://127.0.0.1:port@path */
static inline char *
test_server_url (TestServer *ts,
                 const char *path)
{
  return g_strconcat (ts->base, path, NULL);
}

/* The paths requested, in order, separated by spaces. */
static inline char *
test_server_paths (TestServer *ts)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < ts->requests->len; i++)
    {
      TestRequest *request = g_ptr_array_index (ts->requests, i);

      if (i > 0)
        g_string_append_c (out, ' ');
      g_string_append (out, request->path);
    }

  return g_string_free (out, FALSE);
}

static inline TestRequest *
test_server_request (TestServer *ts,
                     guint       i)
{
  g_assert_cmpuint (i, <, ts->requests->len);
  return g_ptr_array_index (ts->requests, i);
}

/* A URL on 127.0.0.1 where nothing listens. */
static inline char *
test_closed_url (const char *path)
{
  g_autoptr(TestServer) ts = test_server_new ();

  return test_server_url (ts, path);
}

static inline SoupSession *
test_session_new (void)
{
  SoupSession *session = soup_session_new_with_options ("timeout", 0, "idle-timeout", 0, NULL);

  soup_session_set_proxy_resolver (session, NULL);
  return session;
}

static inline void
test_store_result_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_assert_null (*(GAsyncResult **) user_data);
  test_result_cb (object, result, user_data);
}

/* The form body of @request as a table, asserting it was form-encoded. */
static inline GHashTable *
test_request_form (TestRequest *request)
{
  g_assert_cmpstr (request->content_type, ==, "application/x-www-form-urlencoded");
  return soup_form_decode (request->body);
}
