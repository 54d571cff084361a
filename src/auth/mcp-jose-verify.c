/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-jose"

#include "config.h"

#include "mcp-jose.h"

#include <string.h>

#include <glib/gi18n.h>
#include <gnutls/abstract.h>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>

#include "mcp-error.h"
#include "mcp-jose-private.h"
#include "mcp-json-private.h"

/* Reading compact JWS: mcp_jose_peek() (no signature check) and
 * mcp_jose_verify(). Tokens come from outside (servers, files, tests'
 * peers): bounded, and every error says which part is wrong without
 * quoting it. */

#define MIN_RSA_BITS 2048
#define MAX_RSA_BITS 16384

typedef struct
{
  char       *signing_input;   /* header64.payload64 */
  JsonObject *header;
  JsonObject *payload;
  guint8     *signature;
  gsize       signature_size;
} Parts;

static void
parts_clear (Parts *parts)
{
  g_free (parts->signing_input);
  g_clear_pointer (&parts->header, json_object_unref);
  g_clear_pointer (&parts->payload, json_object_unref);
  g_free (parts->signature);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Parts, parts_clear)

static JsonObject *
decode_object (const char  *text,
               gsize        length,
               const char  *part,
               GError     **error)
{
  g_autofree char *copy = g_strndup (text, length);
  g_autofree guint8 *bytes = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) local_error = NULL;
  gsize size = 0;

  bytes = mcp_jose_base64url_decode (copy, &size);
  if (bytes == NULL)
    {
      /* Translators: %s is “header” or “payload” */
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("The token’s %s is not base64url"), part);
      return NULL;
    }

  node = mcp_json_parse ((const char *) bytes, size, &local_error);
  if (node == NULL)
    {
      /* Translators: %s is “header” or “payload”, then the parser's reason */
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("The token’s %s is not JSON: %s"), part, local_error->message);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("The token’s %s is not a JSON object"), part);
      return NULL;
    }

  return json_object_ref (json_node_get_object (node));
}

static gboolean
parts_read (Parts       *parts,
            const char  *jws,
            GError     **error)
{
  const char *dot1, *dot2;
  gsize length;

  length = strnlen (jws, MCP_JOSE_MAX_TOKEN_SIZE + 1);
  if (length > MCP_JOSE_MAX_TOKEN_SIZE)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("The token is larger than %u KiB"), MCP_JOSE_MAX_TOKEN_SIZE / 1024);
      return FALSE;
    }

  dot1 = strchr (jws, '.');
  dot2 = dot1 != NULL ? strchr (dot1 + 1, '.') : NULL;
  if (dot1 == NULL || dot2 == NULL || strchr (dot2 + 1, '.') != NULL)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("The token is not a compact JWS (three parts separated by dots)"));
      return FALSE;
    }

  parts->header = decode_object (jws, dot1 - jws, _("header"), error);
  if (parts->header == NULL)
    return FALSE;
  parts->payload = decode_object (dot1 + 1, dot2 - dot1 - 1, _("payload"), error);
  if (parts->payload == NULL)
    return FALSE;

  parts->signature = mcp_jose_base64url_decode (dot2 + 1, &parts->signature_size);
  if (parts->signature == NULL)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("The token’s signature is not base64url"));
      return FALSE;
    }

  parts->signing_input = g_strndup (jws, dot2 - jws);
  return TRUE;
}

JsonObject *
mcp_jose_peek (const char  *jwt,
               JsonObject **header,
               GError     **error)
{
  g_auto(Parts) parts = { 0, };

  g_return_val_if_fail (jwt != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (header != NULL)
    *header = NULL;

  if (!parts_read (&parts, jwt, error))
    return NULL;

  if (header != NULL)
    *header = g_steal_pointer (&parts.header);
  return g_steal_pointer (&parts.payload);
}

/* A JWK member that must be base64url of at most @max bytes */
static guint8 *
jwk_bytes (JsonObject  *jwk,
           const char  *member,
           gsize        max,
           gsize       *size,
           GError     **error)
{
  const char *text = mcp_json_optional_string (jwk, member, "JOSE", NULL);
  guint8 *bytes;

  bytes = text != NULL ? mcp_jose_base64url_decode (text, size) : NULL;
  if (bytes == NULL || *size == 0 || *size > max)
    {
      g_free (bytes);
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("The JWK’s member “%s” is missing or not a valid value"), member);
      return NULL;
    }

  return bytes;
}

static gnutls_pubkey_t
import_jwk (JsonObject  *jwk,
            McpJoseAlg   alg,
            GError     **error)
{
  gnutls_pubkey_t pubkey = NULL;
  const char *kty = mcp_json_optional_string (jwk, "kty", "JOSE", NULL);
  const char *jwk_alg = mcp_json_optional_string (jwk, "alg", "JOSE", NULL);
  int ret;

  if (jwk_alg != NULL && strcmp (jwk_alg, mcp_jose_alg_to_string (alg)) != 0)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("The token’s “alg” is not the one its key is for"));
      return NULL;
    }

  if (gnutls_pubkey_init (&pubkey) < 0)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_FAILED, _("Out of memory"));
      return NULL;
    }

  if (alg == MCP_JOSE_ALG_ES256)
    {
      g_autofree guint8 *x = NULL, *y = NULL;
      gsize x_size = 0, y_size = 0;
      gnutls_datum_t xd, yd;

      if (g_strcmp0 (kty, "EC") != 0
          || g_strcmp0 (mcp_json_optional_string (jwk, "crv", "JOSE", NULL), "P-256") != 0)
        {
          g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                               _("The token says ES256 but its key is not a P-256 key"));
          gnutls_pubkey_deinit (pubkey);
          return NULL;
        }
      x = jwk_bytes (jwk, "x", 32, &x_size, error);
      y = x != NULL ? jwk_bytes (jwk, "y", 32, &y_size, error) : NULL;
      if (y == NULL)
        {
          gnutls_pubkey_deinit (pubkey);
          return NULL;
        }
      xd.data = x, xd.size = (unsigned int) x_size;
      yd.data = y, yd.size = (unsigned int) y_size;
      ret = gnutls_pubkey_import_ecc_raw (pubkey, GNUTLS_ECC_CURVE_SECP256R1, &xd, &yd);
    }
  else
    {
      g_autofree guint8 *n = NULL, *e = NULL;
      gsize n_size = 0, e_size = 0;
      gnutls_datum_t nd, ed;

      if (g_strcmp0 (kty, "RSA") != 0)
        {
          g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                               _("The token says RS256 but its key is not an RSA key"));
          gnutls_pubkey_deinit (pubkey);
          return NULL;
        }
      n = jwk_bytes (jwk, "n", MAX_RSA_BITS / 8 + 1, &n_size, error);
      e = n != NULL ? jwk_bytes (jwk, "e", 8, &e_size, error) : NULL;
      if (e == NULL)
        {
          gnutls_pubkey_deinit (pubkey);
          return NULL;
        }
      nd.data = n, nd.size = (unsigned int) n_size;
      ed.data = e, ed.size = (unsigned int) e_size;
      ret = gnutls_pubkey_import_rsa_raw (pubkey, &nd, &ed);
      if (ret >= 0)
        {
          unsigned int bits = 0;

          gnutls_pubkey_get_pk_algorithm (pubkey, &bits);
          if (bits < MIN_RSA_BITS || bits > MAX_RSA_BITS)
            {
              g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("The token’s RSA key has %u bits; RS256 needs %u to %u"),
                           bits, MIN_RSA_BITS, MAX_RSA_BITS);
              gnutls_pubkey_deinit (pubkey);
              return NULL;
            }
        }
    }

  if (ret < 0)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("The token’s key cannot be used: %s"), gnutls_strerror (ret));
      gnutls_pubkey_deinit (pubkey);
      return NULL;
    }

  return pubkey;
}

static gboolean
check_signature (gnutls_pubkey_t   pubkey,
                 McpJoseAlg        alg,
                 Parts            *parts,
                 GError          **error)
{
  gnutls_datum_t data, signature;
  gnutls_datum_t der = { NULL, 0 };
  int ret;

  data.data = (unsigned char *) parts->signing_input;
  data.size = (unsigned int) strlen (parts->signing_input);

  if (alg == MCP_JOSE_ALG_ES256)
    {
      gnutls_datum_t r, s;
      gsize rn = 32, sn = 32;
      const guint8 *rp = parts->signature, *sp = parts->signature + 32;

      if (parts->signature_size != 64)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       _("The token’s ES256 signature has %lu bytes, not 64"),
                       (unsigned long) parts->signature_size);
          return FALSE;
        }

      /* r‖s to DER, as minimal integers (at least one byte each) */
      while (rn > 1 && rp[0] == 0)
        rp++, rn--;
      while (sn > 1 && sp[0] == 0)
        sp++, sn--;
      r.data = (unsigned char *) rp, r.size = (unsigned int) rn;
      s.data = (unsigned char *) sp, s.size = (unsigned int) sn;
      ret = gnutls_encode_rs_value (&der, &r, &s);
      if (ret < 0)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       _("The token’s signature cannot be read: %s"), gnutls_strerror (ret));
          return FALSE;
        }
      ret = gnutls_pubkey_verify_data2 (pubkey, GNUTLS_SIGN_ECDSA_SECP256R1_SHA256, 0,
                                        &data, &der);
      gnutls_free (der.data);
    }
  else
    {
      signature.data = parts->signature;
      signature.size = (unsigned int) parts->signature_size;
      ret = gnutls_pubkey_verify_data2 (pubkey, GNUTLS_SIGN_RSA_SHA256, 0, &data, &signature);
    }

  if (ret < 0)
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("The token’s signature does not match its key"));
      return FALSE;
    }

  return TRUE;
}

JsonObject *
mcp_jose_verify (const char  *jws,
                 JsonObject  *jwk,
                 JsonObject **header,
                 GError     **error)
{
  g_auto(Parts) parts = { 0, };
  gnutls_pubkey_t pubkey;
  const char *alg_name;
  McpJoseAlg alg;
  gboolean ok;

  g_return_val_if_fail (jws != NULL, NULL);
  g_return_val_if_fail (jwk != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (header != NULL)
    *header = NULL;

  if (!parts_read (&parts, jws, error))
    return NULL;

  alg_name = mcp_json_optional_string (parts.header, "alg", "JOSE", NULL);
  if (!mcp_jose_alg_from_string (alg_name, &alg))
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("The token’s header has no “alg” of ES256 or RS256"));
      return NULL;
    }
  /* RFC 7515 §4.1.11: extensions we do not know must be refused */
  if (json_object_has_member (parts.header, "crit"))
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("The token’s header has “crit” extensions, which are not supported"));
      return NULL;
    }

  pubkey = import_jwk (jwk, alg, error);
  if (pubkey == NULL)
    return NULL;

  ok = check_signature (pubkey, alg, &parts, error);
  gnutls_pubkey_deinit (pubkey);
  if (!ok)
    return NULL;

  if (header != NULL)
    *header = g_steal_pointer (&parts.header);
  return g_steal_pointer (&parts.payload);
}
