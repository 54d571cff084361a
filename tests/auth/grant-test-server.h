/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* An authorization server (and IdP) for the grant tests: a SoupServer on
 * 127.0.0.1 whose answers each test sets per path, in order, recording
 * every request with its form parameters, Authorization and DPoP headers. */

#include <string.h>

#include <libsoup/soup.h>

/* An authorization server (and IdP) whose answers the test sets per path */

typedef struct
{
  guint  status;
  char  *body;
  char  *nonce;     /* a DPoP-Nonce header */
} Answer;

typedef struct
{
  char       *method;
  char       *path;
  char       *authorization;
  char       *dpop;
  GHashTable *form;
} Request;

typedef struct
{
  SoupServer *server;
  char       *base;
  GHashTable *answers;     /* path → GPtrArray of Answer, in order; the last repeats */
  GHashTable *served;      /* path → count */
  GPtrArray  *requests;    /* Request */
} As;

static inline void
answer_free (gpointer data)
{
  Answer *answer = data;

  g_free (answer->body);
  g_free (answer->nonce);
  g_free (answer);
}

static inline void
request_free (gpointer data)
{
  Request *request = data;

  g_free (request->method);
  g_free (request->path);
  g_free (request->authorization);
  g_free (request->dpop);
  g_clear_pointer (&request->form, g_hash_table_unref);
  g_free (request);
}

static inline void
as_handler (SoupServer        *server,
            SoupServerMessage *msg,
            const char        *path,
            GHashTable        *query,
            gpointer           user_data)
{
  As *as = user_data;
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  g_autoptr(GBytes) body = soup_message_body_flatten (soup_server_message_get_request_body (msg));
  Request *request = g_new0 (Request, 1);
  GPtrArray *answers;
  guint served;
  Answer *answer;

  request->method = g_strdup (soup_server_message_get_method (msg));
  request->path = g_strdup (path);
  request->authorization = g_strdup (soup_message_headers_get_one (headers, "Authorization"));
  request->dpop = g_strdup (soup_message_headers_get_one (headers, "DPoP"));
  if (g_bytes_get_size (body) > 0)
    {
      g_autofree char *text = g_strndup (g_bytes_get_data (body, NULL), g_bytes_get_size (body));

      request->form = soup_form_decode (text);
    }
  g_ptr_array_add (as->requests, request);

  answers = g_hash_table_lookup (as->answers, path);
  if (answers == NULL || answers->len == 0)
    {
      soup_server_message_set_status (msg, SOUP_STATUS_NOT_FOUND, NULL);
      return;
    }
  served = GPOINTER_TO_UINT (g_hash_table_lookup (as->served, path));
  g_hash_table_replace (as->served, g_strdup (path), GUINT_TO_POINTER (served + 1));
  answer = g_ptr_array_index (answers, MIN (served, answers->len - 1));

  soup_server_message_set_status (msg, answer->status, NULL);
  if (answer->nonce != NULL)
    soup_message_headers_replace (soup_server_message_get_response_headers (msg), "DPoP-Nonce", answer->nonce);
  if (answer->body != NULL)
    {
      g_auto(GStrv) parts = g_strsplit (answer->body, "%BASE%", -1);
      g_autofree char *expanded = g_strjoinv (as->base, parts);

      soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_COPY,
                                        expanded, strlen (expanded));
    }
}

static inline As *
as_new (void)
{
  As *as = g_new0 (As, 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  GSList *uris;

  as->server = soup_server_new (NULL, NULL);
  as->answers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  as->served = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  as->requests = g_ptr_array_new_with_free_func (request_free);
  soup_server_add_handler (as->server, NULL, as_handler, as, NULL);
  soup_server_listen (as->server, address, 0, &error);
  g_assert_no_error (error);
  uris = soup_server_get_uris (as->server);
  as->base = g_strdup_printf ("http://127.0.0.1:%d", g_uri_get_port (uris->data));
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  return as;
}

static inline void
as_free (As *as)
{
  soup_server_disconnect (as->server);
  g_clear_object (&as->server);
  g_hash_table_unref (as->answers);
  g_hash_table_unref (as->served);
  g_ptr_array_unref (as->requests);
  g_free (as->base);
  g_free (as);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (As, as_free)

/* Adds an answer to @path's list */
static inline void
as_answer (As         *as,
           const char *path,
           guint       status,
           const char *body,
           const char *nonce)
{
  GPtrArray *answers = g_hash_table_lookup (as->answers, path);
  Answer *answer = g_new0 (Answer, 1);

  if (answers == NULL)
    {
      answers = g_ptr_array_new_with_free_func (answer_free);
      g_hash_table_insert (as->answers, g_strdup (path), answers);
    }
  answer->status = status;
  answer->body = g_strdup (body);
  answer->nonce = g_strdup (nonce);
  g_ptr_array_add (answers, answer);
}

static inline Request *
as_request (As    *as,
            guint  i)
{
  g_assert_cmpuint (i, <, as->requests->len);
  return g_ptr_array_index (as->requests, i);
}

static inline const char *
param (Request    *request,
       const char *name)
{
  return request->form != NULL ? g_hash_table_lookup (request->form, name) : NULL;
}

