/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-oauth-pkce"

#include "config.h"

#include <string.h>

#include "mcp-oauth-pkce.h"

static gboolean
is_unreserved (const char *text)
{
  for (const char *p = text; *p != '\0'; p++)
    {
      if (!g_ascii_isalnum (*p) && strchr ("-._~", *p) == NULL)
        return FALSE;
    }
  return TRUE;
}

static void
test_challenge_rfc7636 (void)
{
  /* RFC 7636 Appendix B. */
  g_autofree char *challenge = mcp_oauth_pkce_challenge ("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");

  g_assert_cmpstr (challenge, ==, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
}

static void
test_verifier_form (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *verifier = mcp_oauth_pkce_verifier_new (&error);

  g_assert_no_error (error);
  g_assert_nonnull (verifier);
  g_assert_cmpuint (strlen (verifier), >=, 43);
  g_assert_cmpuint (strlen (verifier), <=, 128);
  g_assert_cmpuint (strlen (verifier), ==, 43);
  g_assert_true (is_unreserved (verifier));
  g_assert_null (strchr (verifier, '='));
}

static void
test_verifiers_differ (void)
{
  g_autofree char *a = mcp_oauth_pkce_verifier_new (NULL);
  g_autofree char *b = mcp_oauth_pkce_verifier_new (NULL);
  g_autofree char *ca = mcp_oauth_pkce_challenge (a);
  g_autofree char *cb = mcp_oauth_pkce_challenge (b);

  g_assert_cmpstr (a, !=, b);
  g_assert_cmpstr (ca, !=, cb);
  g_assert_cmpuint (strlen (ca), ==, 43);
}

static void
test_random_string_lengths (void)
{
  for (gsize n = 1; n <= 64; n++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *s = mcp_oauth_random_string (n, &error);

      g_assert_no_error (error);
      /* base64 without padding: ceil(4n/3) characters. */
      g_assert_cmpuint (strlen (s), ==, (4 * n + 2) / 3);
      g_assert_true (is_unreserved (s));
    }
}

static void
test_base64url (void)
{
  static const guint8 bytes[] = { 0xfb, 0xff, 0xfe, 0x3e, 0x3f };
  g_autofree char *empty = mcp_oauth_base64url_encode ((const guint8 *) "", 0);
  g_autofree char *one = mcp_oauth_base64url_encode ((const guint8 *) "f", 1);
  g_autofree char *two = mcp_oauth_base64url_encode ((const guint8 *) "fo", 2);
  g_autofree char *three = mcp_oauth_base64url_encode ((const guint8 *) "foo", 3);
  g_autofree char *special = mcp_oauth_base64url_encode (bytes, sizeof bytes);

  g_assert_cmpstr (empty, ==, "");
  g_assert_cmpstr (one, ==, "Zg");
  g_assert_cmpstr (two, ==, "Zm8");
  g_assert_cmpstr (three, ==, "Zm9v");
  /* standard base64 would be "+//+Pj8=" */
  g_assert_cmpstr (special, ==, "-__-Pj8");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/auth/pkce/challenge-rfc7636", test_challenge_rfc7636);
  g_test_add_func ("/auth/pkce/verifier-form", test_verifier_form);
  g_test_add_func ("/auth/pkce/verifiers-differ", test_verifiers_differ);
  g_test_add_func ("/auth/pkce/random-string-lengths", test_random_string_lengths);
  g_test_add_func ("/auth/pkce/base64url", test_base64url);

  return g_test_run ();
}
