/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-jose"

#include "config.h"

#include "mcp-jose.h"

#include "mcp-oauth-pkce.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include <glib/gi18n.h>
#include <gnutls/abstract.h>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>

#include "mcp-error.h"
#include "mcp-jose-private.h"
#include "mcp-json-private.h"

/* Keys: the key itself (GnuTLS's), its public JWK and thumbprint, made
 * once (the key never changes). Signing and encoding; verification and
 * reading tokens are in mcp-jose-verify.c. */

#define MAX_PEM_SIZE (64 * 1024)
#define MIN_RSA_BITS 2048
#define MAX_RSA_BITS 16384

struct _McpJoseKey
{
  gatomicrefcount  ref;
  McpJoseAlg       alg;
  gnutls_privkey_t privkey;
  JsonObject      *jwk;        /* public members only */
  char            *thumbprint;
};

const char *
mcp_jose_alg_to_string (McpJoseAlg alg)
{
  return alg == MCP_JOSE_ALG_RS256 ? "RS256" : "ES256";
}

gboolean
mcp_jose_alg_from_string (const char *text,
                          McpJoseAlg *alg)
{
  McpJoseAlg found;

  if (g_strcmp0 (text, "ES256") == 0)
    found = MCP_JOSE_ALG_ES256;
  else if (g_strcmp0 (text, "RS256") == 0)
    found = MCP_JOSE_ALG_RS256;
  else
    return FALSE;

  if (alg != NULL)
    *alg = found;
  return TRUE;
}

/* base64url of an unsigned big-endian integer: @pad_to > 0 left-pads it
 * with zeros to that many bytes (EC coordinates), 0 drops leading zeros
 * (RSA's n and e, RFC 7518 §6.3.1). NULL when it does not fit. */
char *
mcp_jose_encode_integer (const guint8 *data,
                         gsize         size,
                         gsize         pad_to)
{
  g_autofree guint8 *padded = NULL;

  while (size > 1 && data[0] == 0)
    {
      data++;
      size--;
    }

  if (pad_to == 0)
    return mcp_jose_base64url_encode (data, size);

  if (size > pad_to)
    return NULL;

  padded = g_malloc0 (pad_to);
  memcpy (padded + pad_to - size, data, size);
  return mcp_jose_base64url_encode (padded, pad_to);
}

static void
set_gnutls_error (GError     **error,
                  int          code,
                  const char  *what)
{
  /* Translators: %s is what failed (“Making a signing key”), the second
   * GnuTLS's reason */
  g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED, _("%s failed: %s"),
               what, gnutls_strerror (code));
}

/* Fills key->jwk and key->thumbprint from key->privkey, checking the key
 * fits key->alg. */
static gboolean
key_describe (McpJoseKey  *key,
              GError     **error)
{
  gnutls_pubkey_t pubkey = NULL;
  g_autoptr(JsonObject) jwk = json_object_new ();
  g_autofree char *thumbprint = NULL;
  unsigned int bits = 0;
  int pk;
  int ret;

  ret = gnutls_pubkey_init (&pubkey);
  if (ret >= 0)
    ret = gnutls_pubkey_import_privkey (pubkey, key->privkey, 0, 0);
  if (ret < 0)
    {
      set_gnutls_error (error, ret, _("Reading the signing key’s public key"));
      g_clear_pointer (&pubkey, gnutls_pubkey_deinit);
      return FALSE;
    }

  pk = gnutls_pubkey_get_pk_algorithm (pubkey, &bits);

  if (key->alg == MCP_JOSE_ALG_ES256)
    {
      gnutls_ecc_curve_t curve = GNUTLS_ECC_CURVE_INVALID;
      gnutls_datum_t x = { NULL, 0 }, y = { NULL, 0 };
      g_autofree char *x64 = NULL, *y64 = NULL;

      if (pk != GNUTLS_PK_ECDSA)
        {
          g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                               _("The key is not an elliptic-curve key, as ES256 needs"));
          gnutls_pubkey_deinit (pubkey);
          return FALSE;
        }

      ret = gnutls_pubkey_export_ecc_raw2 (pubkey, &curve, &x, &y, GNUTLS_EXPORT_FLAG_NO_LZ);
      gnutls_pubkey_deinit (pubkey);
      if (ret < 0)
        {
          set_gnutls_error (error, ret, _("Reading the signing key’s public key"));
          return FALSE;
        }

      if (curve == GNUTLS_ECC_CURVE_SECP256R1)
        {
          x64 = mcp_jose_encode_integer (x.data, x.size, 32);
          y64 = mcp_jose_encode_integer (y.data, y.size, 32);
        }
      gnutls_free (x.data);
      gnutls_free (y.data);

      if (curve != GNUTLS_ECC_CURVE_SECP256R1)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                       _("The key is on the curve %s; ES256 needs P-256"),
                       gnutls_ecc_curve_get_name (curve) != NULL
                       ? gnutls_ecc_curve_get_name (curve) : "?");
          return FALSE;
        }
      if (x64 == NULL || y64 == NULL)
        {
          g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                               _("The key’s public point is not a P-256 point"));
          return FALSE;
        }

      json_object_set_string_member (jwk, "kty", "EC");
      json_object_set_string_member (jwk, "crv", "P-256");
      json_object_set_string_member (jwk, "x", x64);
      json_object_set_string_member (jwk, "y", y64);
    }
  else
    {
      gnutls_datum_t n = { NULL, 0 }, e = { NULL, 0 };
      g_autofree char *n64 = NULL, *e64 = NULL;

      if (pk != GNUTLS_PK_RSA)
        {
          g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                               _("The key is not an RSA key, as RS256 needs"));
          gnutls_pubkey_deinit (pubkey);
          return FALSE;
        }
      if (bits < MIN_RSA_BITS || bits > MAX_RSA_BITS)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                       _("The RSA key has %u bits; RS256 needs %u to %u"),
                       bits, MIN_RSA_BITS, MAX_RSA_BITS);
          gnutls_pubkey_deinit (pubkey);
          return FALSE;
        }

      ret = gnutls_pubkey_export_rsa_raw2 (pubkey, &n, &e, GNUTLS_EXPORT_FLAG_NO_LZ);
      gnutls_pubkey_deinit (pubkey);
      if (ret < 0)
        {
          set_gnutls_error (error, ret, _("Reading the signing key’s public key"));
          return FALSE;
        }

      n64 = mcp_jose_encode_integer (n.data, n.size, 0);
      e64 = mcp_jose_encode_integer (e.data, e.size, 0);
      gnutls_free (n.data);
      gnutls_free (e.data);

      json_object_set_string_member (jwk, "kty", "RSA");
      json_object_set_string_member (jwk, "n", n64);
      json_object_set_string_member (jwk, "e", e64);
    }

  thumbprint = mcp_jose_jwk_thumbprint (jwk, error);
  if (thumbprint == NULL)
    return FALSE;

  key->jwk = g_steal_pointer (&jwk);
  key->thumbprint = g_steal_pointer (&thumbprint);
  return TRUE;
}

static McpJoseKey *
key_new (McpJoseAlg       alg,
         gnutls_privkey_t privkey)
{
  McpJoseKey *key = g_new0 (McpJoseKey, 1);

  g_atomic_ref_count_init (&key->ref);
  key->alg = alg;
  key->privkey = privkey;
  return key;
}

McpJoseKey *
mcp_jose_key_generate (McpJoseAlg   alg,
                       GError     **error)
{
  g_autoptr(McpJoseKey) key = NULL;
  gnutls_privkey_t privkey = NULL;
  int ret;

  g_return_val_if_fail (alg == MCP_JOSE_ALG_ES256 || alg == MCP_JOSE_ALG_RS256, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  ret = gnutls_privkey_init (&privkey);
  if (ret >= 0)
    {
      if (alg == MCP_JOSE_ALG_ES256)
        ret = gnutls_privkey_generate2 (privkey, GNUTLS_PK_ECDSA,
                                        GNUTLS_CURVE_TO_BITS (GNUTLS_ECC_CURVE_SECP256R1),
                                        0, NULL, 0);
      else
        ret = gnutls_privkey_generate2 (privkey, GNUTLS_PK_RSA, MIN_RSA_BITS, 0, NULL, 0);
    }
  if (ret < 0)
    {
      set_gnutls_error (error, ret, _("Making a signing key"));
      g_clear_pointer (&privkey, gnutls_privkey_deinit);
      return NULL;
    }

  key = key_new (alg, privkey);
  if (!key_describe (key, error))
    return NULL;

  return g_steal_pointer (&key);
}

McpJoseKey *
mcp_jose_key_new_from_pem (const char  *pem,
                           McpJoseAlg   alg,
                           GError     **error)
{
  g_autoptr(McpJoseKey) key = NULL;
  gnutls_x509_privkey_t x509 = NULL;
  gnutls_privkey_t privkey = NULL;
  gnutls_datum_t data;
  gsize length;
  int ret;

  g_return_val_if_fail (pem != NULL, NULL);
  g_return_val_if_fail (alg == MCP_JOSE_ALG_ES256 || alg == MCP_JOSE_ALG_RS256, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  length = strnlen (pem, MAX_PEM_SIZE + 1);
  if (length > MAX_PEM_SIZE)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   _("The private key is larger than %u KiB"), MAX_PEM_SIZE / 1024);
      return NULL;
    }
  if (strstr (pem, "ENCRYPTED") != NULL)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                           _("The private key is encrypted; give it unencrypted (PEM “PRIVATE KEY”, “EC PRIVATE KEY” or “RSA PRIVATE KEY”)"));
      return NULL;
    }
  if (strstr (pem, "-----BEGIN ") == NULL)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                           _("The private key is not in PEM form (a “-----BEGIN PRIVATE KEY-----” block)"));
      return NULL;
    }

  data.data = (unsigned char *) pem;
  data.size = (unsigned int) length;

  ret = gnutls_x509_privkey_init (&x509);
  if (ret >= 0)
    {
      /* SEC 1 and PKCS#1 */
      ret = gnutls_x509_privkey_import (x509, &data, GNUTLS_X509_FMT_PEM);
      /* PKCS#8 */
      if (ret < 0)
        ret = gnutls_x509_privkey_import_pkcs8 (x509, &data, GNUTLS_X509_FMT_PEM,
                                                NULL, GNUTLS_PKCS_PLAIN);
    }
  if (ret >= 0)
    ret = gnutls_privkey_init (&privkey);
  if (ret >= 0)
    ret = gnutls_privkey_import_x509 (privkey, x509, GNUTLS_PRIVKEY_IMPORT_COPY);
  g_clear_pointer (&x509, gnutls_x509_privkey_deinit);
  if (ret < 0)
    {
      /* GnuTLS's reason never quotes the key */
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   _("The private key cannot be read: %s"), gnutls_strerror (ret));
      g_clear_pointer (&privkey, gnutls_privkey_deinit);
      return NULL;
    }

  key = key_new (alg, privkey);
  if (!key_describe (key, error))
    return NULL;

  return g_steal_pointer (&key);
}

McpJoseKey *
mcp_jose_key_ref (McpJoseKey *key)
{
  g_return_val_if_fail (key != NULL, NULL);

  g_atomic_ref_count_inc (&key->ref);
  return key;
}

void
mcp_jose_key_unref (McpJoseKey *key)
{
  if (key == NULL || !g_atomic_ref_count_dec (&key->ref))
    return;

  g_clear_pointer (&key->privkey, gnutls_privkey_deinit);
  g_clear_pointer (&key->jwk, json_object_unref);
  g_free (key->thumbprint);
  g_free (key);
}

McpJoseAlg
mcp_jose_key_get_alg (McpJoseKey *key)
{
  g_return_val_if_fail (key != NULL, MCP_JOSE_ALG_ES256);

  return key->alg;
}

char *
mcp_jose_key_to_pem (McpJoseKey *key)
{
  gnutls_x509_privkey_t x509 = NULL;
  gnutls_datum_t out = { NULL, 0 };
  char *pem = NULL;
  int ret;

  g_return_val_if_fail (key != NULL, NULL);

  ret = gnutls_privkey_export_x509 (key->privkey, &x509);
  if (ret >= 0)
    ret = gnutls_x509_privkey_export2_pkcs8 (x509, GNUTLS_X509_FMT_PEM, NULL,
                                             GNUTLS_PKCS_PLAIN, &out);
  g_clear_pointer (&x509, gnutls_x509_privkey_deinit);
  if (ret < 0)
    {
      g_warning ("Could not write the signing key as PEM: %s", gnutls_strerror (ret));
      return NULL;
    }

  pem = g_strndup ((const char *) out.data, out.size);
  explicit_bzero (out.data, out.size);
  gnutls_free (out.data);
  return pem;
}

/* A new object with the same members: json_node_copy() would share the
 * object, and the caller may change what it gets. Every member of a JWK
 * we make is a string. */
static JsonObject *
jwk_copy (JsonObject *jwk)
{
  JsonObject *copy = json_object_new ();
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;

  json_object_iter_init (&iter, jwk);
  while (json_object_iter_next (&iter, &name, &value))
    json_object_set_string_member (copy, name, json_node_get_string (value));
  return copy;
}

JsonObject *
mcp_jose_key_get_public_jwk (McpJoseKey *key)
{
  g_return_val_if_fail (key != NULL, NULL);

  return jwk_copy (key->jwk);
}

char *
mcp_jose_key_get_thumbprint (McpJoseKey *key)
{
  g_return_val_if_fail (key != NULL, NULL);

  return g_strdup (key->thumbprint);
}

/* A base64url member of a JWK that must be there, decodable and not empty. */
static gboolean
jwk_member (JsonObject  *jwk,
            const char  *member,
            const char **value,
            GError     **error)
{
  JsonNode *node = json_object_get_member (jwk, member);
  g_autofree guint8 *bytes = NULL;
  gsize size = 0;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node)
      || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("The JWK has no string member “%s”"), member);
      return FALSE;
    }

  *value = json_node_get_string (node);
  bytes = mcp_jose_base64url_decode (*value, &size);
  if (bytes == NULL || size == 0)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("The JWK’s member “%s” is not base64url"), member);
      return FALSE;
    }

  return TRUE;
}

char *
mcp_jose_jwk_thumbprint (JsonObject  *jwk,
                         GError     **error)
{
  g_autofree char *canonical = NULL;
  guint8 digest[32];
  const char *kty;

  g_return_val_if_fail (jwk != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  kty = mcp_json_optional_string (jwk, "kty", "JOSE", NULL);

  /* RFC 7638 §3.2: the required members in lexicographic order, no
   * whitespace. Every value is base64url or a fixed name: nothing to
   * escape. */
  if (g_strcmp0 (kty, "EC") == 0)
    {
      const char *crv, *x, *y;

      crv = mcp_json_optional_string (jwk, "crv", "JOSE", NULL);
      if (g_strcmp0 (crv, "P-256") != 0)
        {
          g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                               _("The JWK is not a P-256 key"));
          return NULL;
        }
      if (!jwk_member (jwk, "x", &x, error) || !jwk_member (jwk, "y", &y, error))
        return NULL;
      canonical = g_strdup_printf ("{\"crv\":\"%s\",\"kty\":\"EC\",\"x\":\"%s\",\"y\":\"%s\"}",
                                   crv, x, y);
    }
  else if (g_strcmp0 (kty, "RSA") == 0)
    {
      const char *n, *e;

      if (!jwk_member (jwk, "e", &e, error) || !jwk_member (jwk, "n", &n, error))
        return NULL;
      canonical = g_strdup_printf ("{\"e\":\"%s\",\"kty\":\"RSA\",\"n\":\"%s\"}", e, n);
    }
  else
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("The JWK’s “kty” is neither “EC” nor “RSA”"));
      return NULL;
    }

  if (gnutls_hash_fast (GNUTLS_DIG_SHA256, canonical, strlen (canonical), digest) < 0)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_FAILED,
                           _("SHA-256 is not available"));
      return NULL;
    }

  return mcp_jose_base64url_encode (digest, sizeof digest);
}

char *
mcp_jose_encode_json (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(GString) text = g_string_new (NULL);

  json_node_set_object (node, object);
  mcp_json_append (text, node);
  return mcp_jose_base64url_encode ((const guint8 *) text->str, text->len);
}

char *
mcp_jose_sign (McpJoseKey  *key,
               JsonObject  *header,
               JsonObject  *claims,
               GError     **error)
{
  g_autoptr(JsonObject) protected = json_object_new ();
  g_autofree char *header64 = NULL;
  g_autofree char *claims64 = NULL;
  g_autofree char *input = NULL;
  g_autofree char *signature64 = NULL;
  gnutls_datum_t data, signature = { NULL, 0 };
  int ret;

  g_return_val_if_fail (key != NULL, NULL);
  g_return_val_if_fail (claims != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  json_object_set_string_member (protected, "alg", mcp_jose_alg_to_string (key->alg));
  if (header != NULL)
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *value;

      json_object_iter_init (&iter, header);
      while (json_object_iter_next (&iter, &name, &value))
        if (strcmp (name, "alg") != 0)
          json_object_set_member (protected, name, json_node_copy (value));
    }

  header64 = mcp_jose_encode_json (protected);
  claims64 = mcp_jose_encode_json (claims);
  input = g_strconcat (header64, ".", claims64, NULL);

  data.data = (unsigned char *) input;
  data.size = (unsigned int) strlen (input);

  if (key->alg == MCP_JOSE_ALG_ES256)
    {
      gnutls_datum_t r = { NULL, 0 }, s = { NULL, 0 };
      guint8 raw[64];
      const guint8 *rp, *sp;
      gsize rn, sn;

      ret = gnutls_privkey_sign_data2 (key->privkey, GNUTLS_SIGN_ECDSA_SECP256R1_SHA256,
                                       0, &data, &signature);
      if (ret >= 0)
        ret = gnutls_decode_rs_value (&signature, &r, &s);
      gnutls_free (signature.data);
      if (ret < 0)
        {
          gnutls_free (r.data);
          gnutls_free (s.data);
          set_gnutls_error (error, ret, _("Signing"));
          return NULL;
        }

      /* DER integers to JWS's fixed-width r‖s (RFC 7518 §3.4) */
      rp = r.data, rn = r.size;
      sp = s.data, sn = s.size;
      while (rn > 0 && rp[0] == 0)
        rp++, rn--;
      while (sn > 0 && sp[0] == 0)
        sp++, sn--;
      if (rn > 32 || sn > 32)
        {
          gnutls_free (r.data);
          gnutls_free (s.data);
          g_set_error_literal (error, MCP_ERROR, MCP_ERROR_FAILED,
                               _("Signing failed: the signature is not a P-256 signature"));
          return NULL;
        }
      memset (raw, 0, sizeof raw);
      memcpy (raw + 32 - rn, rp, rn);
      memcpy (raw + 64 - sn, sp, sn);
      gnutls_free (r.data);
      gnutls_free (s.data);
      signature64 = mcp_jose_base64url_encode (raw, sizeof raw);
    }
  else
    {
      ret = gnutls_privkey_sign_data2 (key->privkey, GNUTLS_SIGN_RSA_SHA256, 0,
                                       &data, &signature);
      if (ret < 0)
        {
          set_gnutls_error (error, ret, _("Signing"));
          return NULL;
        }
      signature64 = mcp_jose_base64url_encode (signature.data, signature.size);
      gnutls_free (signature.data);
    }

  return g_strconcat (input, ".", signature64, NULL);
}

/* PKCE's (RFC 7636 appendix A) is the same encoding */
char *
mcp_jose_base64url_encode (const guint8 *data,
                           gsize         length)
{
  return mcp_oauth_base64url_encode (data, length);
}

guint8 *
mcp_jose_base64url_decode (const char *text,
                           gsize      *length)
{
  g_autofree char *base64 = NULL;
  g_autofree guint8 *bytes = NULL;
  g_autofree char *again = NULL;
  gsize n, i, size = 0;

  g_return_val_if_fail (text != NULL, NULL);

  if (length != NULL)
    *length = 0;

  n = strlen (text);
  /* Padding is tolerated, but only as much as the length asks. */
  while (n > 0 && text[n - 1] == '=')
    n--;
  if (strlen (text) - n > 2 || (strlen (text) != n && strlen (text) % 4 != 0))
    return NULL;
  if (n % 4 == 1)
    return NULL;

  base64 = g_malloc (n + 4);
  for (i = 0; i < n; i++)
    {
      char c = text[i];

      if (g_ascii_isalnum (c))
        base64[i] = c;
      else if (c == '-')
        base64[i] = '+';
      else if (c == '_')
        base64[i] = '/';
      else
        return NULL;
    }
  while (i % 4 != 0)
    base64[i++] = '=';
  base64[i] = '\0';

  if (n == 0)
    bytes = g_malloc0 (1);
  else
    bytes = g_base64_decode (base64, &size);

  /* Only the one spelling of the bytes: unused bits must be zero, so a
   * changed last character never decodes to the same signature. */
  again = mcp_jose_base64url_encode (bytes, size);
  if (strlen (again) != n || strncmp (again, text, n) != 0)
    return NULL;

  if (length != NULL)
    *length = size;
  return g_steal_pointer (&bytes);
}

char *
mcp_jose_sha256_base64url (const char *text)
{
  guint8 digest[32];

  g_return_val_if_fail (text != NULL, NULL);

  if (gnutls_hash_fast (GNUTLS_DIG_SHA256, text, strlen (text), digest) < 0)
    g_error ("GnuTLS has no SHA-256");

  return mcp_jose_base64url_encode (digest, sizeof digest);
}

char *
mcp_jose_random_id (void)
{
  guint8 buffer[16];
  gsize filled = 0;

  while (filled < sizeof buffer)
    {
      ssize_t got = getrandom (buffer + filled, sizeof buffer - filled, 0);

      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        {
          /* No getrandom (old kernel, seccomp): GnuTLS's generator */
          if (gnutls_rnd (GNUTLS_RND_NONCE, buffer, sizeof buffer) < 0)
            g_error ("No random bytes: %s", g_strerror (errno));
          break;
        }
      filled += (gsize) got;
    }

  return mcp_jose_base64url_encode (buffer, sizeof buffer);
}

void
mcp_jose_free_secret (char *secret)
{
  if (secret != NULL)
    explicit_bzero (secret, strlen (secret));
  g_free (secret);
}
