/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-dpop"

#include "config.h"

#include "mcp-dpop.h"

#include <string.h>

#include "mcp-auth-provider.h"
#include "mcp-json-private.h"

#define MAX_NONCE_SIZE 1024
#define MAX_ORIGINS 64
/* Bodies of 400 answers read for "use_dpop_nonce" */
#define MAX_ERROR_BODY (64 * 1024)

typedef struct
{
  char     *nonce;
  /* The last answer from this origin gave a nonce its request had not
   * sent: one retry with it is worth making. */
  gboolean  fresh;
} Origin;

struct _McpDPoP
{
  GObject     parent_instance;

  McpJoseKey *key;
  JsonObject *jwk;
  char       *thumbprint;

  GHashTable *origins;     /* "scheme://host:port" → Origin */
  GQueue      order;       /* origin names, oldest first */
};

G_DEFINE_FINAL_TYPE (McpDPoP, mcp_dpop, G_TYPE_OBJECT)

static void
origin_free (gpointer data)
{
  Origin *origin = data;

  g_free (origin->nonce);
  g_free (origin);
}

static void
mcp_dpop_finalize (GObject *object)
{
  McpDPoP *self = MCP_DPOP (object);

  g_clear_pointer (&self->key, mcp_jose_key_unref);
  g_clear_pointer (&self->jwk, json_object_unref);
  g_free (self->thumbprint);
  g_hash_table_unref (self->origins);
  g_queue_clear_full (&self->order, g_free);

  G_OBJECT_CLASS (mcp_dpop_parent_class)->finalize (object);
}

static void
mcp_dpop_class_init (McpDPoPClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mcp_dpop_finalize;
}

static void
mcp_dpop_init (McpDPoP *self)
{
  self->origins = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, origin_free);
  g_queue_init (&self->order);
}

McpDPoP *
mcp_dpop_new (McpJoseKey *key)
{
  McpDPoP *self;

  g_return_val_if_fail (key != NULL, NULL);

  self = g_object_new (MCP_TYPE_DPOP, NULL);
  self->key = mcp_jose_key_ref (key);
  self->jwk = mcp_jose_key_get_public_jwk (key);
  self->thumbprint = mcp_jose_key_get_thumbprint (key);
  return self;
}

McpJoseKey *
mcp_dpop_get_key (McpDPoP *self)
{
  g_return_val_if_fail (MCP_IS_DPOP (self), NULL);

  return self->key;
}

const char *
mcp_dpop_get_thumbprint (McpDPoP *self)
{
  g_return_val_if_fail (MCP_IS_DPOP (self), NULL);

  return self->thumbprint;
}

static GUri *
parse_url (const char *url)
{
  if (url == NULL)
    return NULL;
  return g_uri_parse (url, SOUP_HTTP_URI_FLAGS, NULL);
}

static int
default_port (const char *scheme)
{
  if (g_ascii_strcasecmp (scheme, "https") == 0 || g_ascii_strcasecmp (scheme, "wss") == 0)
    return 443;
  if (g_ascii_strcasecmp (scheme, "http") == 0 || g_ascii_strcasecmp (scheme, "ws") == 0)
    return 80;
  return -1;
}

/* "scheme://host:port", lower case; NULL for a URL without a host */
static char *
uri_origin (GUri *uri)
{
  g_autofree char *scheme = NULL;
  g_autofree char *host = NULL;
  int port;

  if (uri == NULL || g_uri_get_host (uri) == NULL || g_uri_get_scheme (uri) == NULL)
    return NULL;

  scheme = g_ascii_strdown (g_uri_get_scheme (uri), -1);
  host = g_ascii_strdown (g_uri_get_host (uri), -1);
  port = g_uri_get_port (uri);
  if (port == -1)
    port = default_port (scheme);
  return g_strdup_printf ("%s://%s:%d", scheme, host, port);
}

static char *
url_origin (const char *url)
{
  g_autoptr(GUri) uri = parse_url (url);

  return uri_origin (uri);
}

/* RFC 9449 §4.2: the URI without query and fragment (and without user
 * information, which is no business of the server's). */
static char *
uri_htu (GUri *uri)
{
  g_autofree char *host = NULL;
  const char *path = g_uri_get_path (uri);
  int port;

  if (g_uri_get_host (uri) == NULL)
    return g_uri_to_string_partial (uri, G_URI_HIDE_USERINFO | G_URI_HIDE_QUERY | G_URI_HIDE_FRAGMENT);

  /* Scheme and host in lower case (RFC 3986 §6.2.2.1), as servers
   * compare them */
  host = g_ascii_strdown (g_uri_get_host (uri), -1);
  port = g_uri_get_port (uri);
  if (port == default_port (g_uri_get_scheme (uri)))
    port = -1;
  return g_uri_join (G_URI_FLAGS_ENCODED_PATH, g_uri_get_scheme (uri), NULL, host,
                     port, path[0] != '\0' ? path : "/", NULL, NULL);
}

static char *
url_htu (const char *url)
{
  g_autoptr(GUri) uri = parse_url (url);

  if (uri == NULL)
    return g_strndup (url, strcspn (url, "?#"));
  return uri_htu (uri);
}

/* NQCHAR = %x21 / %x23-5B / %x5D-7E (RFC 9449 §8.1), 1 to MAX_NONCE_SIZE */
static gboolean
nonce_is_valid (const char *nonce)
{
  gsize length = 0;

  if (nonce == NULL || nonce[0] == '\0')
    return FALSE;

  for (const char *p = nonce; *p != '\0'; p++, length++)
    {
      guchar c = (guchar) *p;

      if (length >= MAX_NONCE_SIZE || c < 0x21 || c > 0x7e || c == '"' || c == '\\')
        return FALSE;
    }

  return TRUE;
}

static const char *
origin_nonce (McpDPoP    *self,
              const char *origin)
{
  Origin *found = origin != NULL ? g_hash_table_lookup (self->origins, origin) : NULL;

  return found != NULL ? found->nonce : NULL;
}

static char *
make_proof (McpDPoP    *self,
            const char *method,
            const char *htu,
            const char *nonce,
            const char *access_token)
{
  g_autoptr(JsonObject) header = json_object_new ();
  g_autoptr(JsonObject) claims = json_object_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *jti = mcp_jose_random_id ();
  char *proof;

  json_object_set_string_member (header, "typ", "dpop+jwt");
  json_object_set_object_member (header, "jwk", json_object_ref (self->jwk));

  json_object_set_string_member (claims, "jti", jti);
  json_object_set_string_member (claims, "htm", method);
  json_object_set_string_member (claims, "htu", htu);
  json_object_set_int_member (claims, "iat", g_get_real_time () / G_USEC_PER_SEC);
  if (access_token != NULL)
    {
      g_autofree char *ath = mcp_jose_sha256_base64url (access_token);

      json_object_set_string_member (claims, "ath", ath);
    }
  if (nonce != NULL)
    json_object_set_string_member (claims, "nonce", nonce);

  proof = mcp_jose_sign (self->key, header, claims, &error);
  if (proof == NULL)
    g_warning ("Could not sign a DPoP proof for %s %s: %s", method, htu, error->message);
  return proof;
}

char *
mcp_dpop_make_proof (McpDPoP    *self,
                     const char *method,
                     const char *url,
                     const char *access_token)
{
  g_autofree char *htu = NULL;
  g_autofree char *origin = NULL;

  g_return_val_if_fail (MCP_IS_DPOP (self), NULL);
  g_return_val_if_fail (method != NULL, NULL);
  g_return_val_if_fail (url != NULL, NULL);

  htu = url_htu (url);
  origin = url_origin (url);
  return make_proof (self, method, htu, origin_nonce (self, origin), access_token);
}

void
mcp_dpop_apply (McpDPoP     *self,
                SoupMessage *message,
                const char  *access_token)
{
  GUri *uri;
  g_autofree char *htu = NULL;
  g_autofree char *origin = NULL;
  g_autofree char *proof = NULL;

  g_return_if_fail (MCP_IS_DPOP (self));
  g_return_if_fail (SOUP_IS_MESSAGE (message));

  uri = soup_message_get_uri (message);
  htu = uri_htu (uri);
  origin = uri_origin (uri);
  proof = make_proof (self, soup_message_get_method (message), htu,
                      origin_nonce (self, origin), access_token);
  if (proof != NULL)
    soup_message_headers_replace (soup_message_get_request_headers (message), "DPoP", proof);
  else
    soup_message_headers_remove (soup_message_get_request_headers (message), "DPoP");
}

const char *
mcp_dpop_get_nonce (McpDPoP    *self,
                    const char *url)
{
  g_autofree char *origin = NULL;

  g_return_val_if_fail (MCP_IS_DPOP (self), NULL);

  origin = url_origin (url);
  return origin_nonce (self, origin);
}

/* TRUE when the nonce changed */
static gboolean
set_origin_nonce (McpDPoP    *self,
                  const char *origin,
                  const char *nonce)
{
  Origin *found;

  if (origin == NULL || !nonce_is_valid (nonce))
    {
      g_debug ("Ignored a DPoP nonce that is not one (RFC 9449 §8.1)");
      return FALSE;
    }

  found = g_hash_table_lookup (self->origins, origin);
  if (found != NULL)
    {
      if (g_strcmp0 (found->nonce, nonce) == 0)
        return FALSE;
      g_free (found->nonce);
      found->nonce = g_strdup (nonce);
      return TRUE;
    }

  while (g_hash_table_size (self->origins) >= MAX_ORIGINS)
    {
      g_autofree char *oldest = g_queue_pop_head (&self->order);

      g_hash_table_remove (self->origins, oldest);
    }

  found = g_new0 (Origin, 1);
  found->nonce = g_strdup (nonce);
  g_hash_table_insert (self->origins, g_strdup (origin), found);
  g_queue_push_tail (&self->order, g_strdup (origin));
  return TRUE;
}

void
mcp_dpop_set_nonce (McpDPoP    *self,
                    const char *url,
                    const char *nonce)
{
  g_autofree char *origin = NULL;

  g_return_if_fail (MCP_IS_DPOP (self));

  origin = url_origin (url);
  set_origin_nonce (self, origin, nonce);
}

/* The "nonce" of the proof @message was sent with, or NULL */
static char *
sent_nonce (SoupMessage *message)
{
  const char *proof = soup_message_headers_get_one (soup_message_get_request_headers (message), "DPoP");
  g_autoptr(JsonObject) claims = NULL;

  if (proof == NULL)
    return NULL;
  claims = mcp_jose_peek (proof, NULL, NULL);
  if (claims == NULL)
    return NULL;
  return g_strdup (mcp_json_optional_string (claims, "nonce", "JOSE", NULL));
}

gboolean
mcp_dpop_note_response (McpDPoP     *self,
                        SoupMessage *message)
{
  const char *nonce;
  g_autofree char *origin = NULL;
  g_autofree char *sent = NULL;
  gboolean changed;
  Origin *found;

  g_return_val_if_fail (MCP_IS_DPOP (self), FALSE);
  g_return_val_if_fail (SOUP_IS_MESSAGE (message), FALSE);

  nonce = soup_message_headers_get_one (soup_message_get_response_headers (message), "DPoP-Nonce");
  if (nonce == NULL)
    return FALSE;

  origin = uri_origin (soup_message_get_uri (message));
  changed = set_origin_nonce (self, origin, nonce);

  found = origin != NULL ? g_hash_table_lookup (self->origins, origin) : NULL;
  if (found != NULL && g_strcmp0 (found->nonce, nonce) == 0)
    {
      sent = sent_nonce (message);
      found->fresh = g_strcmp0 (sent, nonce) != 0;
    }

  return changed;
}

gboolean
mcp_dpop_take_fresh_nonce (McpDPoP    *self,
                           const char *url)
{
  g_autofree char *origin = NULL;
  Origin *found;
  gboolean fresh;

  g_return_val_if_fail (MCP_IS_DPOP (self), FALSE);

  origin = url_origin (url);
  found = origin != NULL ? g_hash_table_lookup (self->origins, origin) : NULL;
  if (found == NULL)
    return FALSE;

  fresh = found->fresh;
  found->fresh = FALSE;
  return fresh;
}

/* The "error" of the DPoP challenge of a WWW-Authenticate header, which
 * may hold other challenges before it (RFC 9110 §11.6.1). */
char *
mcp_dpop_challenge_error (const char *www_authenticate,
                          gboolean   *has_dpop)
{
  gboolean in_quotes = FALSE;

  if (has_dpop != NULL)
    *has_dpop = FALSE;
  if (www_authenticate == NULL)
    return NULL;

  for (const char *p = www_authenticate; *p != '\0'; p++)
    {
      gboolean at_start;

      if (in_quotes)
        {
          if (*p == '\\' && p[1] != '\0')
            p++;
          else if (*p == '"')
            in_quotes = FALSE;
          continue;
        }
      if (*p == '"')
        {
          in_quotes = TRUE;
          continue;
        }

      at_start = p == www_authenticate || p[-1] == ',' || p[-1] == ' ' || p[-1] == '\t';
      if (at_start && g_ascii_strncasecmp (p, "DPoP", 4) == 0
          && (p[4] == '\0' || p[4] == ' ' || p[4] == '\t' || p[4] == ','))
        {
          g_autoptr(GHashTable) params = NULL;
          g_autofree char *scheme = mcp_auth_parse_www_authenticate (p, &params);

          if (scheme == NULL || g_ascii_strcasecmp (scheme, "DPoP") != 0)
            continue;
          if (has_dpop != NULL)
            *has_dpop = TRUE;
          return g_strdup (g_hash_table_lookup (params, "error"));
        }
    }

  return NULL;
}

gboolean
mcp_dpop_is_nonce_error (SoupMessage *message,
                         GBytes      *body)
{
  SoupMessageHeaders *headers;
  guint status;

  g_return_val_if_fail (SOUP_IS_MESSAGE (message), FALSE);

  headers = soup_message_get_response_headers (message);
  if (!nonce_is_valid (soup_message_headers_get_one (headers, "DPoP-Nonce")))
    return FALSE;

  status = soup_message_get_status (message);
  if (status == SOUP_STATUS_UNAUTHORIZED)
    {
      g_autofree char *error = mcp_dpop_challenge_error (soup_message_headers_get_one (headers, "WWW-Authenticate"),
                                                         NULL);

      return g_strcmp0 (error, "use_dpop_nonce") == 0;
    }

  if (status == SOUP_STATUS_BAD_REQUEST && body != NULL)
    {
      g_autoptr(JsonNode) node = NULL;
      gsize size;
      const char *data = g_bytes_get_data (body, &size);

      if (size == 0 || size > MAX_ERROR_BODY)
        return FALSE;
      node = mcp_json_parse (data, size, NULL);
      return node != NULL && JSON_NODE_HOLDS_OBJECT (node)
             && g_strcmp0 (mcp_json_optional_string (json_node_get_object (node), "error",
                                                    "OAuth error", NULL),
                           "use_dpop_nonce") == 0;
    }

  return FALSE;
}
