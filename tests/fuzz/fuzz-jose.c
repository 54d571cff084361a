/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-jose"

#include "config.h"

#include "fuzz.h"

#include <string.h>

#include "mcp-dpop.h"
#include "mcp-error.h"
#include "mcp-jose.h"
#include "mcp-json-private.h"

/* Compact JWS from outside (src/auth/mcp-jose-verify.c): the input is a
 * token, optionally followed by a newline and a JWK as JSON. The token is
 * peeked at and verified with that JWK, with the "jwk" of its own header
 * (as a DPoP proof is) and with a fixed P-256 key. Also base64url on the
 * token (a decoded text encodes back to itself) and the DPoP challenge of
 * a WWW-Authenticate header. Every refusal is MCP_ERROR_INVALID_MESSAGE
 * with a UTF-8 message; warnings and criticals are fatal. */

static const char fixed_jwk[] =
  "{\"kty\":\"EC\",\"crv\":\"P-256\","
  "\"x\":\"ks2UXiDS9BNMyiv6BDObit7fQ73Tl_4ZAlDMrYEvh1w\","
  "\"y\":\"SAMDiQB9H1M_mqrf0gCJf71Nuu0WyVweCBUapu_qr2M\"}";

static void
fail (const char *what)
{
  fprintf (stderr, "fuzz-jose: %s\n", what);
  abort ();
}

static void
check_refusal (JsonObject *result,
               GError     *error)
{
  if (result != NULL)
    {
      if (error != NULL)
        fail ("a result with an error");
      return;
    }
  if (error == NULL || !g_error_matches (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE))
    fail ("a refusal that is not MCP_ERROR_INVALID_MESSAGE");
  if (!g_utf8_validate (error->message, -1, NULL))
    fail ("an error message that is not UTF-8");
}

/* The engine's bounded reader: json-glib's own recurses without limit */
static JsonObject *
parse_object (const char *text)
{
  g_autoptr(JsonNode) node = mcp_json_parse (text, strlen (text), NULL);

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  return json_object_ref (json_node_get_object (node));
}

static void
verify_with (const char *token,
             JsonObject *jwk)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) header = NULL;
  g_autoptr(JsonObject) payload = NULL;
  g_autofree char *thumbprint = NULL;

  if (jwk == NULL)
    return;

  payload = mcp_jose_verify (token, jwk, &header, &error);
  check_refusal (payload, error);
  if (payload != NULL && header == NULL)
    fail ("a verified token without its header");

  g_clear_error (&error);
  thumbprint = mcp_jose_jwk_thumbprint (jwk, &error);
  if (thumbprint == NULL && error == NULL)
    fail ("no thumbprint and no error");
  if (thumbprint != NULL && strlen (thumbprint) != 43)
    fail ("a thumbprint that is not 32 bytes");
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *input = NULL;
  g_autoptr(JsonObject) fixed = NULL;
  g_autoptr(JsonObject) given = NULL;
  g_autoptr(JsonObject) header = NULL;
  g_autoptr(JsonObject) payload = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *decoded = NULL;
  g_autofree char *challenge = NULL;
  gsize decoded_size = 0;
  char *newline;
  const char *token;

  fuzz_abort_on_warnings ();

  input = g_strndup ((const char *) data, size);
  newline = strchr (input, '\n');
  if (newline != NULL)
    {
      *newline = '\0';
      given = parse_object (newline + 1);
    }
  token = input;

  payload = mcp_jose_peek (token, &header, &error);
  check_refusal (payload, error);
  if (payload != NULL && header == NULL)
    fail ("a peeked token without its header");

  fixed = parse_object (fixed_jwk);
  verify_with (token, fixed);
  verify_with (token, given);
  if (header != NULL && json_object_has_member (header, "jwk") &&
      JSON_NODE_HOLDS_OBJECT (json_object_get_member (header, "jwk")))
    verify_with (token, json_object_get_object_member (header, "jwk"));

  decoded = mcp_jose_base64url_decode (token, &decoded_size);
  if (decoded != NULL)
    {
      g_autofree char *again = mcp_jose_base64url_encode (decoded, decoded_size);

      if (strncmp (again, token, strlen (again)) != 0 ||
          strspn (token + strlen (again), "=") != strlen (token + strlen (again)))
        fail ("base64url that does not encode back to itself");
    }

  challenge = mcp_dpop_challenge_error (token, NULL);
  if (challenge != NULL && !g_utf8_validate (challenge, -1, NULL))
    g_debug ("a challenge error that is not UTF-8 (passed on as it came)");

  return 0;
}
