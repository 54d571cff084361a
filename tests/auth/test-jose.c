/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-jose"

#include "config.h"

#include <string.h>

#include "jose-test-keys.h"
#include "mcp-error.h"
#include "mcp-jose.h"
#include "test-util.h"

/* McpJoseKey and the compact JWS helpers (src/auth/mcp-jose*.c): round
 * trips, PEM forms, JWK and thumbprint against values computed outside
 * GnuTLS, hostile tokens, and a cross-check with Node's crypto. */

static JsonObject *
parse_object (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static char *
object_to_string (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);

  json_node_set_object (node, object);
  return json_to_string (node, FALSE);
}

/* The members of @object, sorted, comma-separated */
static char *
member_names (JsonObject *object)
{
  g_autoptr(GList) names = g_list_sort (json_object_get_members (object),
                                        (GCompareFunc) strcmp);
  g_autoptr(GString) text = g_string_new (NULL);

  for (GList *l = names; l != NULL; l = l->next)
    g_string_append_printf (text, "%s%s", text->len > 0 ? "," : "", (char *) l->data);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static char *
sign_test_token (McpJoseKey *key)
{
  g_autoptr(JsonObject) header = json_object_new ();
  g_autoptr(JsonObject) claims = json_object_new ();
  g_autoptr(GError) error = NULL;
  char *jws;

  json_object_set_string_member (header, "typ", "dpop+jwt");
  json_object_set_string_member (header, "alg", "none");   /* always the key's */
  json_object_set_object_member (header, "jwk", mcp_jose_key_get_public_jwk (key));
  json_object_set_string_member (claims, "htm", "POST");
  json_object_set_string_member (claims, "htu", "https://example.com/mcp");
  json_object_set_int_member (claims, "iat", 1700000000);
  json_object_set_string_member (claims, "note", "é \"quoted\" ✓");

  jws = mcp_jose_sign (key, header, claims, &error);
  g_assert_no_error (error);
  g_assert_nonnull (jws);
  return jws;
}

static void
check_round_trip (McpJoseAlg alg)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpJoseKey) key = mcp_jose_key_generate (alg, &error);
  g_autoptr(McpJoseKey) other = NULL;
  g_autoptr(JsonObject) jwk = NULL;
  g_autoptr(JsonObject) other_jwk = NULL;
  g_autoptr(JsonObject) payload = NULL;
  g_autoptr(JsonObject) header = NULL;
  g_autofree char *jws = NULL;
  g_auto(GStrv) parts = NULL;
  g_autofree guint8 *signature = NULL;
  gsize signature_size = 0;

  g_assert_no_error (error);
  g_assert_nonnull (key);
  g_assert_cmpint (mcp_jose_key_get_alg (key), ==, alg);

  jws = sign_test_token (key);
  parts = g_strsplit (jws, ".", -1);
  g_assert_cmpuint (g_strv_length (parts), ==, 3);
  signature = mcp_jose_base64url_decode (parts[2], &signature_size);
  g_assert_nonnull (signature);
  g_assert_cmpuint (signature_size, ==, alg == MCP_JOSE_ALG_ES256 ? 64 : 256);
  /* Compact JSON: no spaces in the header */
  {
    g_autofree guint8 *text = NULL;
    gsize size = 0;

    text = mcp_jose_base64url_decode (parts[0], &size);
    g_assert_nonnull (text);
    g_assert_null (memchr (text, ' ', size));
    g_assert_null (memchr (text, '\n', size));
  }

  jwk = mcp_jose_key_get_public_jwk (key);
  payload = mcp_jose_verify (jws, jwk, &header, &error);
  g_assert_no_error (error);
  g_assert_nonnull (payload);
  g_assert_cmpstr (json_object_get_string_member (payload, "htm"), ==, "POST");
  g_assert_cmpstr (json_object_get_string_member (payload, "note"), ==, "é \"quoted\" ✓");
  g_assert_cmpint (json_object_get_int_member (payload, "iat"), ==, 1700000000);
  g_assert_cmpstr (json_object_get_string_member (header, "alg"), ==, mcp_jose_alg_to_string (alg));
  g_assert_cmpstr (json_object_get_string_member (header, "typ"), ==, "dpop+jwt");
  g_assert_true (json_object_has_member (header, "jwk"));

  /* Another key of the same kind does not verify it */
  other = mcp_jose_key_generate (alg, &error);
  g_assert_no_error (error);
  other_jwk = mcp_jose_key_get_public_jwk (other);
  g_clear_pointer (&payload, json_object_unref);
  payload = mcp_jose_verify (jws, other_jwk, NULL, &error);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
  g_assert_null (payload);

  /* Two keys, two thumbprints */
  {
    g_autofree char *a = mcp_jose_key_get_thumbprint (key);
    g_autofree char *b = mcp_jose_key_get_thumbprint (other);

    g_assert_cmpuint (strlen (a), ==, 43);
    g_assert_cmpstr (a, !=, b);
  }
}

static void
test_es256_round_trip (void)
{
  check_round_trip (MCP_JOSE_ALG_ES256);
}

static void
test_rs256_round_trip (void)
{
  check_round_trip (MCP_JOSE_ALG_RS256);
}

static void
test_alg_names (void)
{
  McpJoseAlg alg = MCP_JOSE_ALG_RS256;

  g_assert_cmpstr (mcp_jose_alg_to_string (MCP_JOSE_ALG_ES256), ==, "ES256");
  g_assert_cmpstr (mcp_jose_alg_to_string (MCP_JOSE_ALG_RS256), ==, "RS256");
  g_assert_true (mcp_jose_alg_from_string ("ES256", &alg));
  g_assert_cmpint (alg, ==, MCP_JOSE_ALG_ES256);
  g_assert_true (mcp_jose_alg_from_string ("RS256", &alg));
  g_assert_cmpint (alg, ==, MCP_JOSE_ALG_RS256);
  g_assert_false (mcp_jose_alg_from_string ("es256", &alg));
  g_assert_false (mcp_jose_alg_from_string ("none", &alg));
  g_assert_false (mcp_jose_alg_from_string ("HS256", &alg));
  g_assert_false (mcp_jose_alg_from_string (NULL, &alg));
}

/* Imports @pem, checks its public JWK and thumbprint, and that its PKCS#8
 * PEM comes back to the same key. */
static void
check_pem (const char *pem,
           McpJoseAlg  alg,
           const char *thumbprint)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpJoseKey) key = mcp_jose_key_new_from_pem (pem, alg, &error);
  g_autoptr(McpJoseKey) again = NULL;
  g_autoptr(JsonObject) jwk = NULL;
  g_autofree char *names = NULL;
  g_autofree char *found = NULL;
  g_autofree char *found_again = NULL;
  g_autofree char *jws = NULL;
  g_autoptr(JsonObject) payload = NULL;
  char *out;

  g_assert_no_error (error);
  g_assert_nonnull (key);

  jwk = mcp_jose_key_get_public_jwk (key);
  names = member_names (jwk);
  if (alg == MCP_JOSE_ALG_ES256)
    {
      g_assert_cmpstr (names, ==, "crv,kty,x,y");
      g_assert_cmpstr (json_object_get_string_member (jwk, "kty"), ==, "EC");
      g_assert_cmpstr (json_object_get_string_member (jwk, "crv"), ==, "P-256");
      g_assert_cmpstr (json_object_get_string_member (jwk, "x"), ==, TEST_EC_X);
      g_assert_cmpstr (json_object_get_string_member (jwk, "y"), ==, TEST_EC_Y);
    }
  else
    {
      g_assert_cmpstr (names, ==, "e,kty,n");
      g_assert_cmpstr (json_object_get_string_member (jwk, "n"), ==, TEST_RSA_N);
      g_assert_cmpstr (json_object_get_string_member (jwk, "e"), ==, "AQAB");
    }

  found = mcp_jose_key_get_thumbprint (key);
  g_assert_cmpstr (found, ==, thumbprint);

  out = mcp_jose_key_to_pem (key);
  g_assert_nonnull (out);
  g_assert_true (g_str_has_prefix (out, "-----BEGIN PRIVATE KEY-----\n"));
  again = mcp_jose_key_new_from_pem (out, alg, &error);
  mcp_jose_free_secret (out);
  g_assert_no_error (error);
  found_again = mcp_jose_key_get_thumbprint (again);
  g_assert_cmpstr (found_again, ==, thumbprint);

  /* The re-read key signs what the first verifies */
  jws = sign_test_token (again);
  payload = mcp_jose_verify (jws, jwk, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (payload);
}

static void
test_pem_sec1 (void)
{
  check_pem (TEST_EC_SEC1_PEM, MCP_JOSE_ALG_ES256, TEST_EC_THUMBPRINT);
}

static void
test_pem_pkcs8 (void)
{
  check_pem (TEST_EC_PKCS8_PEM, MCP_JOSE_ALG_ES256, TEST_EC_THUMBPRINT);
}

static void
test_pem_pkcs1 (void)
{
  check_pem (TEST_RSA_PKCS1_PEM, MCP_JOSE_ALG_RS256, TEST_RSA_THUMBPRINT);
}

/* Every line of a PEM's body of at least 16 characters is absent from
 * @text: an error never quotes the key. */
static void
assert_no_key_text (const char *text,
                    const char *pem)
{
  g_auto(GStrv) lines = g_strsplit (pem, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autofree char *piece = NULL;

      if (g_str_has_prefix (lines[i], "-----") || strlen (lines[i]) < 16)
        continue;
      piece = g_strndup (lines[i], 16);
      g_assert_null (strstr (text, piece));
    }
}

static void
check_pem_refused (const char *pem,
                   McpJoseAlg  alg,
                   const char *reason)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpJoseKey) key = mcp_jose_key_new_from_pem (pem, alg, &error);

  g_assert_null (key);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_test_message ("refused: %s", error->message);
  if (reason != NULL)
    g_assert_nonnull (strstr (error->message, reason));
  assert_no_key_text (error->message, pem);
}

static void
test_pem_refused (void)
{
  g_autofree char *corrupt = g_strdup (TEST_EC_SEC1_PEM);
  g_autofree char *big = NULL;
  char *line;

  check_pem_refused (TEST_EC_P384_PEM, MCP_JOSE_ALG_ES256, "P-256");
  check_pem_refused (TEST_RSA_1024_PEM, MCP_JOSE_ALG_RS256, "1024");
  check_pem_refused (TEST_EC_SEC1_PEM, MCP_JOSE_ALG_RS256, "RSA");
  check_pem_refused (TEST_RSA_PKCS1_PEM, MCP_JOSE_ALG_ES256, "elliptic");
  check_pem_refused ("", MCP_JOSE_ALG_ES256, "PEM");
  check_pem_refused ("not a key at all", MCP_JOSE_ALG_ES256, "PEM");
  check_pem_refused ("-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIFHzBJBgkqhkiG9w0BBQ0wPDAbBgkqhkiG9w0BBQwwDgQI\n-----END ENCRYPTED PRIVATE KEY-----\n",
                     MCP_JOSE_ALG_ES256, "encrypted");
  check_pem_refused ("-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\n",
                     MCP_JOSE_ALG_ES256, NULL);

  /* A key whose body is damaged: GnuTLS's reason, not the key */
  line = strchr (corrupt, '\n') + 1;
  line[10] = line[10] == 'A' ? 'B' : 'A';
  line[11] = '*';
  check_pem_refused (corrupt, MCP_JOSE_ALG_ES256, NULL);

  big = g_strnfill (65 * 1024, 'A');
  memcpy (big, "-----BEGIN PRIVATE KEY-----\n", 28);
  check_pem_refused (big, MCP_JOSE_ALG_ES256, "KiB");
}

static void
test_thumbprint_rfc7638 (void)
{
  /* RFC 7638 §3.1 */
  g_autoptr(JsonObject) jwk = parse_object (
    "{\"kty\": \"RSA\","
    " \"n\": \"0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw\","
    " \"e\": \"AQAB\", \"alg\": \"RS256\", \"kid\": \"2011-04-29\"}");
  g_autoptr(JsonObject) ec = json_object_new ();
  g_autoptr(JsonObject) bad = parse_object ("{\"kty\":\"oct\",\"k\":\"AAAA\"}");
  g_autoptr(GError) error = NULL;
  g_autofree char *thumbprint = mcp_jose_jwk_thumbprint (jwk, &error);
  g_autofree char *ec_thumbprint = NULL;
  g_autofree char *refused = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (thumbprint, ==, "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs");

  /* The EC test key's, computed with Python's hashlib; member order and
   * extra members do not matter */
  json_object_set_string_member (ec, "y", TEST_EC_Y);
  json_object_set_string_member (ec, "use", "sig");
  json_object_set_string_member (ec, "x", TEST_EC_X);
  json_object_set_string_member (ec, "kty", "EC");
  json_object_set_string_member (ec, "crv", "P-256");
  ec_thumbprint = mcp_jose_jwk_thumbprint (ec, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (ec_thumbprint, ==, TEST_EC_THUMBPRINT);

  refused = mcp_jose_jwk_thumbprint (bad, &error);
  g_assert_null (refused);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
}

static void
check_decode (const char   *text,
              const guint8 *expected,
              gssize        expected_size)
{
  gsize size = 99;
  g_autofree guint8 *bytes = mcp_jose_base64url_decode (text, &size);

  if (expected_size < 0)
    {
      g_assert_null (bytes);
      return;
    }
  g_assert_nonnull (bytes);
  g_assert_cmpmem (bytes, size, expected, (gsize) expected_size);
}

static void
test_base64url (void)
{
  static const guint8 ff[] = { 0xfb, 0xff };
  static const guint8 zero[] = { 0 };
  static const guint8 abc[] = { 'a', 'b', 'c', 'd' };
  g_autofree char *empty = mcp_jose_base64url_encode (NULL, 0);
  g_autofree char *special = mcp_jose_base64url_encode (ff, sizeof ff);
  g_autofree char *one = mcp_jose_base64url_encode (zero, 1);
  g_autofree char *sha = mcp_jose_sha256_base64url ("");
  g_autofree char *sha_abc = mcp_jose_sha256_base64url ("abc");
  g_autofree char *id1 = mcp_jose_random_id ();
  g_autofree char *id2 = mcp_jose_random_id ();

  g_assert_cmpstr (empty, ==, "");
  g_assert_cmpstr (special, ==, "-_8");
  g_assert_cmpstr (one, ==, "AA");

  check_decode ("", NULL, 0);
  check_decode ("AA", zero, 1);
  check_decode ("AA==", zero, 1);
  check_decode ("-_8", ff, 2);
  check_decode ("-_8=", ff, 2);
  check_decode ("YWJjZA", abc, 4);
  check_decode ("AA=", NULL, -1);       /* padding short */
  check_decode ("AA===", NULL, -1);     /* too much */
  check_decode ("A", NULL, -1);         /* no whole byte */
  check_decode ("+/8", NULL, -1);       /* base64, not base64url */
  check_decode ("AB", NULL, -1);        /* unused bits set: another spelling of AA */
  check_decode ("-_9", NULL, -1);
  check_decode ("YW Jj", NULL, -1);
  check_decode ("YWJj\n", NULL, -1);
  check_decode ("=", NULL, -1);
  check_decode ("YQ=a", NULL, -1);

  /* SHA-256 of "" and of "abc" (FIPS 180-2), base64url */
  g_assert_cmpstr (sha, ==, "47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU");
  g_assert_cmpstr (sha_abc, ==, "ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0");

  g_assert_cmpuint (strlen (id1), ==, 22);
  g_assert_cmpstr (id1, !=, id2);
  for (const char *p = id1; *p != '\0'; p++)
    g_assert_true (g_ascii_isalnum (*p) || *p == '-' || *p == '_');
}

static void
check_refused (const char *jws,
               JsonObject *jwk,
               const char *reason)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) header = NULL;
  g_autoptr(JsonObject) payload = mcp_jose_verify (jws, jwk, &header, &error);

  g_assert_null (payload);
  g_assert_null (header);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
  g_test_message ("refused: %s", error->message);
  if (reason != NULL)
    g_assert_nonnull (strstr (error->message, reason));
}

/* @jws with its part @index replaced by base64url(@json) */
static char *
replace_part (const char *jws,
              guint       index,
              const char *json)
{
  g_auto(GStrv) parts = g_strsplit (jws, ".", -1);

  g_free (parts[index]);
  parts[index] = mcp_jose_base64url_encode ((const guint8 *) json, strlen (json));
  return g_strjoinv (".", parts);
}

static void
check_tampering (McpJoseAlg alg)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpJoseKey) key = mcp_jose_key_generate (alg, &error);
  g_autoptr(JsonObject) jwk = mcp_jose_key_get_public_jwk (key);
  g_autofree char *jws = sign_test_token (key);
  gsize length = strlen (jws);
  const char *dot1 = strchr (jws, '.');
  const char *dot2 = strrchr (jws, '.');
  g_autofree char *copy = NULL;

  /* Every character of every part: a change is refused (a sample of
   * positions, each with a changed base64url character) */
  for (gsize i = 0; i < length; i += (i < 8 || length - i < 8) ? 1 : 7)
    {
      if (jws[i] == '.')
        continue;
      copy = g_strdup (jws);
      copy[i] = copy[i] == 'A' ? 'B' : 'A';
      check_refused (copy, jwk, NULL);
      g_clear_pointer (&copy, g_free);
    }

  /* alg none, HS256, or the other algorithm */
  copy = replace_part (jws, 0, "{\"alg\":\"none\"}");
  check_refused (copy, jwk, "alg");
  g_clear_pointer (&copy, g_free);
  copy = replace_part (jws, 0, "{\"alg\":\"HS256\"}");
  check_refused (copy, jwk, "alg");
  g_clear_pointer (&copy, g_free);
  copy = replace_part (jws, 0, alg == MCP_JOSE_ALG_ES256 ? "{\"alg\":\"RS256\"}" : "{\"alg\":\"ES256\"}");
  check_refused (copy, jwk, "key");
  g_clear_pointer (&copy, g_free);
  copy = replace_part (jws, 0, alg == MCP_JOSE_ALG_ES256
                       ? "{\"alg\":\"ES256\",\"crit\":[\"b64\"],\"b64\":false}"
                       : "{\"alg\":\"RS256\",\"crit\":[\"b64\"],\"b64\":false}");
  check_refused (copy, jwk, "crit");
  g_clear_pointer (&copy, g_free);
  copy = replace_part (jws, 0, "[1,2]");
  check_refused (copy, jwk, "header");
  g_clear_pointer (&copy, g_free);
  copy = replace_part (jws, 1, "{\"htm\":\"GET\"");
  check_refused (copy, jwk, "payload");
  g_clear_pointer (&copy, g_free);
  copy = replace_part (jws, 2, "short");
  check_refused (copy, jwk, NULL);
  g_clear_pointer (&copy, g_free);

  /* No signature, parts missing or extra */
  copy = g_strndup (jws, dot2 - jws + 1);
  check_refused (copy, jwk, NULL);
  g_clear_pointer (&copy, g_free);
  copy = g_strndup (jws, dot2 - jws);
  check_refused (copy, jwk, "three parts");
  g_clear_pointer (&copy, g_free);
  copy = g_strdup_printf ("%s.%s", jws, dot1 + 1);
  check_refused (copy, jwk, "three parts");
  g_clear_pointer (&copy, g_free);
  check_refused ("", jwk, "three parts");
  check_refused ("..", jwk, "header");
  check_refused ("a.b.c.d.e", jwk, "three parts");

  /* A JWK that lies about its algorithm, or is broken */
  {
    g_autoptr(JsonObject) lying = mcp_jose_key_get_public_jwk (key);
    g_autoptr(JsonObject) broken = mcp_jose_key_get_public_jwk (key);

    json_object_set_string_member (lying, "alg", alg == MCP_JOSE_ALG_ES256 ? "ES384" : "PS256");
    check_refused (jws, lying, "alg");
    json_object_set_string_member (broken, alg == MCP_JOSE_ALG_ES256 ? "x" : "n", "*");
    check_refused (jws, broken, alg == MCP_JOSE_ALG_ES256 ? "x" : "n");
  }
}

static void
test_verify_es256_tampered (void)
{
  check_tampering (MCP_JOSE_ALG_ES256);
}

static void
test_verify_rs256_tampered (void)
{
  check_tampering (MCP_JOSE_ALG_RS256);
}

static void
test_verify_bounds (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpJoseKey) key = mcp_jose_key_generate (MCP_JOSE_ALG_ES256, &error);
  g_autoptr(JsonObject) jwk = mcp_jose_key_get_public_jwk (key);
  g_autoptr(JsonObject) claims = json_object_new ();
  g_autoptr(JsonObject) payload = NULL;
  g_autoptr(GString) deep = g_string_new ("{\"a\":");
  g_autofree char *big = g_strnfill (70 * 1024, 'A');
  g_autofree char *jws = NULL;
  g_autofree char *header64 = NULL;
  g_autofree char *bomb = NULL;

  /* A token just under 64 KiB verifies; over it is refused unread */
  json_object_set_string_member (claims, "pad", big + (70 * 1024 - 45000));
  jws = mcp_jose_sign (key, NULL, claims, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (strlen (jws), <, 64 * 1024);
  payload = mcp_jose_verify (jws, jwk, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (payload);
  g_clear_pointer (&jws, g_free);

  json_object_set_string_member (claims, "pad", big);
  jws = mcp_jose_sign (key, NULL, claims, &error);
  g_assert_no_error (error);
  check_refused (jws, jwk, "KiB");
  {
    g_autoptr(JsonObject) peeked = mcp_jose_peek (jws, NULL, &error);

    g_assert_null (peeked);
    g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
    g_clear_error (&error);
  }

  /* Nesting past the JSON reader's bound, in the header */
  for (guint i = 0; i < 2000; i++)
    g_string_append_c (deep, '[');
  header64 = mcp_jose_base64url_encode ((const guint8 *) deep->str, deep->len);
  bomb = g_strdup_printf ("%s.e30.AA", header64);
  check_refused (bomb, jwk, "header");
}

static void
test_peek (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpJoseKey) key = mcp_jose_key_generate (MCP_JOSE_ALG_ES256, &error);
  g_autofree char *jws = sign_test_token (key);
  g_autoptr(JsonObject) header = NULL;
  g_autoptr(JsonObject) payload = mcp_jose_peek (jws, &header, &error);
  g_autofree char *unsigned_jwt = NULL;
  g_autoptr(JsonObject) unsigned_payload = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (payload, "htu"), ==, "https://example.com/mcp");
  g_assert_cmpstr (json_object_get_string_member (header, "typ"), ==, "dpop+jwt");

  /* Peeking reads an unverified token (an empty signature too) */
  unsigned_jwt = g_strdup ("eyJhbGciOiJub25lIn0.eyJleHAiOjE3MDAwMDAwMDB9.");
  unsigned_payload = mcp_jose_peek (unsigned_jwt, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (json_object_get_int_member (unsigned_payload, "exp"), ==, 1700000000);

  for (guint i = 0; i < 5; i++)
    {
      static const char *const garbage[] = {
        "", "abc", "a.b", "e30.bm90IGpzb24.", "e30.e30.**",
      };
      g_autoptr(JsonObject) none = NULL;

      g_clear_pointer (&header, json_object_unref);
      none = mcp_jose_peek (garbage[i], &header, &error);

      g_assert_null (none);
      g_assert_null (header);
      g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
      g_clear_error (&error);
    }
}

/* Node's crypto, an implementation independent of GnuTLS: it verifies an
 * ES256 JWS of ours and computes our key's thumbprint; it makes keys in the
 * three PEM forms and signs with them, which we read and verify. */
static const char node_script[] =
  "const crypto = require('crypto');\n"
  "const [jws, jwkText] = process.argv.slice(1);\n"
  "const b64 = (b) => Buffer.from(b).toString('base64url');\n"
  "const thumb = (j) => b64(crypto.createHash('sha256').update(j.kty === 'EC'\n"
  "  ? JSON.stringify({crv: j.crv, kty: j.kty, x: j.x, y: j.y})\n"
  "  : JSON.stringify({e: j.e, kty: j.kty, n: j.n})).digest());\n"
  "const jwk = JSON.parse(jwkText);\n"
  "const pub = crypto.createPublicKey({key: jwk, format: 'jwk'});\n"
  "const [h, p, s] = jws.split('.');\n"
  "const ok = crypto.verify('sha256', Buffer.from(h + '.' + p),\n"
  "  {key: pub, dsaEncoding: 'ieee-p1363'}, Buffer.from(s, 'base64url'));\n"
  "const bad = crypto.verify('sha256', Buffer.from(h + '.' + p + 'x'),\n"
  "  {key: pub, dsaEncoding: 'ieee-p1363'}, Buffer.from(s, 'base64url'));\n"
  "const sign = (key, alg) => {\n"
  "  const head = b64(JSON.stringify({alg, typ: 'JWT'}));\n"
  "  const body = b64(JSON.stringify({iss: 'node', alg}));\n"
  "  const sig = crypto.sign('sha256', Buffer.from(head + '.' + body),\n"
  "    alg === 'ES256' ? {key, dsaEncoding: 'ieee-p1363'} : key);\n"
  "  return head + '.' + body + '.' + b64(sig);\n"
  "};\n"
  "const ec = crypto.generateKeyPairSync('ec', {namedCurve: 'P-256'});\n"
  "const rsa = crypto.generateKeyPairSync('rsa', {modulusLength: 2048});\n"
  "const ecJwk = ec.publicKey.export({format: 'jwk'});\n"
  "const rsaJwk = rsa.publicKey.export({format: 'jwk'});\n"
  "console.log(JSON.stringify({ok, bad, thumbprint: thumb(jwk),\n"
  "  ec_sec1: ec.privateKey.export({type: 'sec1', format: 'pem'}),\n"
  "  ec_pkcs8: ec.privateKey.export({type: 'pkcs8', format: 'pem'}),\n"
  "  ec_jwk: ecJwk, ec_thumbprint: thumb(ecJwk), ec_jws: sign(ec.privateKey, 'ES256'),\n"
  "  rsa_pkcs1: rsa.privateKey.export({type: 'pkcs1', format: 'pem'}),\n"
  "  rsa_pkcs8: rsa.privateKey.export({type: 'pkcs8', format: 'pem'}),\n"
  "  rsa_jwk: rsaJwk, rsa_thumbprint: thumb(rsaJwk), rsa_jws: sign(rsa.privateKey, 'RS256')}));\n";

static void
check_node_key (JsonObject *answer,
                const char *pem_member,
                McpJoseAlg  alg,
                const char *prefix)
{
  g_autoptr(GError) error = NULL;
  const char *pem = json_object_get_string_member (answer, pem_member);
  const char *jws = json_object_get_string_member (answer, prefix[0] == 'e' ? "ec_jws" : "rsa_jws");
  g_autofree char *jwk_member = g_strconcat (prefix, "_jwk", NULL);
  g_autofree char *thumbprint_member = g_strconcat (prefix, "_thumbprint", NULL);
  g_autoptr(McpJoseKey) key = mcp_jose_key_new_from_pem (pem, alg, &error);
  g_autoptr(JsonObject) payload = NULL;
  g_autofree char *thumbprint = NULL;

  g_assert_no_error (error);
  thumbprint = mcp_jose_key_get_thumbprint (key);
  g_assert_cmpstr (thumbprint, ==, json_object_get_string_member (answer, thumbprint_member));

  /* Node's JWS verifies with Node's JWK, read by us */
  payload = mcp_jose_verify (jws, json_object_get_object_member (answer, jwk_member), NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (json_object_get_string_member (payload, "iss"), ==, "node");
}

static void
test_node_cross_check (void)
{
  g_autofree char *node = test_find_node ();
  g_autoptr(GError) error = NULL;
  g_autoptr(McpJoseKey) key = NULL;
  g_autoptr(JsonObject) jwk = NULL;
  g_autoptr(JsonObject) answer = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autofree char *jws = NULL;
  g_autofree char *jwk_text = NULL;
  g_autofree char *thumbprint = NULL;
  g_autofree char *out = NULL;

  if (node == NULL)
    {
      g_test_skip ("node is not installed (npm ci --prefix tests)");
      return;
    }

  key = mcp_jose_key_generate (MCP_JOSE_ALG_ES256, &error);
  g_assert_no_error (error);
  jws = sign_test_token (key);
  jwk = mcp_jose_key_get_public_jwk (key);
  jwk_text = object_to_string (jwk);
  thumbprint = mcp_jose_key_get_thumbprint (key);

  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error,
                              node, "-e", node_script, jws, jwk_text, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_successful (process));

  answer = parse_object (out);
  g_assert_true (json_object_get_boolean_member (answer, "ok"));
  g_assert_false (json_object_get_boolean_member (answer, "bad"));
  g_assert_cmpstr (json_object_get_string_member (answer, "thumbprint"), ==, thumbprint);

  check_node_key (answer, "ec_sec1", MCP_JOSE_ALG_ES256, "ec");
  check_node_key (answer, "ec_pkcs8", MCP_JOSE_ALG_ES256, "ec");
  check_node_key (answer, "rsa_pkcs1", MCP_JOSE_ALG_RS256, "rsa");
  check_node_key (answer, "rsa_pkcs8", MCP_JOSE_ALG_RS256, "rsa");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/jose/alg-names", test_alg_names);
  g_test_add_func ("/jose/es256/round-trip", test_es256_round_trip);
  g_test_add_func ("/jose/rs256/round-trip", test_rs256_round_trip);
  g_test_add_func ("/jose/pem/sec1", test_pem_sec1);
  g_test_add_func ("/jose/pem/pkcs8", test_pem_pkcs8);
  g_test_add_func ("/jose/pem/pkcs1", test_pem_pkcs1);
  g_test_add_func ("/jose/pem/refused", test_pem_refused);
  g_test_add_func ("/jose/thumbprint/rfc7638", test_thumbprint_rfc7638);
  g_test_add_func ("/jose/base64url", test_base64url);
  g_test_add_func ("/jose/verify/es256-tampered", test_verify_es256_tampered);
  g_test_add_func ("/jose/verify/rs256-tampered", test_verify_rs256_tampered);
  g_test_add_func ("/jose/verify/bounds", test_verify_bounds);
  g_test_add_func ("/jose/peek", test_peek);
  g_test_add_func ("/jose/node/cross-check", test_node_cross_check);

  return g_test_run ();
}
