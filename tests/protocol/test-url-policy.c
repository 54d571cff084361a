/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-url-policy"

#include "config.h"

#include <string.h>

#include "mcp-url-policy.h"

typedef struct
{
  const char *url;
  int         code;   /* -1: accepted */
  const char *host;   /* when accepted */
  const char *says;   /* the message contains this when refused */
} Case;

#define OK -1

static const Case cases[] = {
  /* What issue 20 found opened or launched. */
  { "javascript:alert(document.cookie)", MCP_URL_POLICY_ERROR_SCHEME, NULL, "“javascript:”" },
  { "JavaScript:alert(1)", MCP_URL_POLICY_ERROR_SCHEME, NULL, "“javascript:”" },
  { "file:///etc/passwd#https://example.com", MCP_URL_POLICY_ERROR_SCHEME, NULL, "“file:”" },
  { "smb://attacker.example/share", MCP_URL_POLICY_ERROR_SCHEME, NULL, "“smb:”" },
  { "ssh://attacker.example", MCP_URL_POLICY_ERROR_SCHEME, NULL, "“ssh:”" },
  { "data:text/html,<script>alert(1)</script>", MCP_URL_POLICY_ERROR_SCHEME, NULL, "“data:”" },
  { "ftp://example.com/x", MCP_URL_POLICY_ERROR_SCHEME, NULL, "“ftp:”" },
  { "authorize?client_id=x", MCP_URL_POLICY_ERROR_NOT_ABSOLUTE, NULL, "not a complete address" },
  { "/authorize", MCP_URL_POLICY_ERROR_NOT_ABSOLUTE, NULL, "not a complete address" },
  { "//example.com/authorize", MCP_URL_POLICY_ERROR_NOT_ABSOLUTE, NULL, "not a complete address" },
  { "https:example.com", MCP_URL_POLICY_ERROR_NOT_ABSOLUTE, NULL, "names no host" },
  { "https:///path", MCP_URL_POLICY_ERROR_NOT_ABSOLUTE, NULL, "names no host" },
  { "http://example.com/authorize", MCP_URL_POLICY_ERROR_INSECURE, NULL, "“example.com”" },
  { "http://10.0.0.1/authorize", MCP_URL_POLICY_ERROR_INSECURE, NULL, "unencrypted http" },
  { "--renderer-cmd-prefix=sh -c 'touch /tmp/pwned'", MCP_URL_POLICY_ERROR_SPACE, NULL, "space" },
  { "--renderer-cmd-prefix=touch", MCP_URL_POLICY_ERROR_OPTION, NULL, "“-”" },
  { "-https://example.com", MCP_URL_POLICY_ERROR_OPTION, NULL, "option" },
  { "https://example.com/\x1b[2Kx", MCP_URL_POLICY_ERROR_CONTROL_CHARACTER, NULL, "\\u001b" },
  { "https://example.com/a\nb", MCP_URL_POLICY_ERROR_CONTROL_CHARACTER, NULL, "control character" },
  { "https://example.com/a\x7f", MCP_URL_POLICY_ERROR_CONTROL_CHARACTER, NULL, "control character" },
  { "https://example.com/\xc2\x9b" "31m", MCP_URL_POLICY_ERROR_CONTROL_CHARACTER, NULL, "control character" },
  { "https://example.com/\xe2\x80\xae" "gpj.exe", MCP_URL_POLICY_ERROR_CONTROL_CHARACTER, NULL, "control character" },
  { "https://example.com/a b", MCP_URL_POLICY_ERROR_SPACE, NULL, "space" },
  { " https://example.com/", MCP_URL_POLICY_ERROR_SPACE, NULL, "space" },
  { "https://example.com/\xc2\xa0", MCP_URL_POLICY_ERROR_SPACE, NULL, "space" },
  { "https://user:pw@example.com/", MCP_URL_POLICY_ERROR_USER_INFO, NULL, "user name or password" },
  { "https://example.com@evil.example/", MCP_URL_POLICY_ERROR_USER_INFO, NULL, "user name or password" },
  { "http://127.0.0.1@evil.example/", MCP_URL_POLICY_ERROR_USER_INFO, NULL, "user name or password" },
  { "http://127.0.0.1.evil.com/", MCP_URL_POLICY_ERROR_INSECURE, NULL, "127.0.0.1.evil.com" },
  { "http://localhost.evil.com/", MCP_URL_POLICY_ERROR_INSECURE, NULL, "localhost.evil.com" },
  { "http://127.0.0.1%2eevil.com/", MCP_URL_POLICY_ERROR_INSECURE, NULL, "unencrypted http" },
  { "http://127.1/", MCP_URL_POLICY_ERROR_INSECURE, NULL, "unencrypted http" },
  { "http://0127.0.0.1/", MCP_URL_POLICY_ERROR_INSECURE, NULL, "unencrypted http" },
  { "http://0x7f.0.0.1/", MCP_URL_POLICY_ERROR_INSECURE, NULL, "unencrypted http" },
  { "http://127.0.0.256/", MCP_URL_POLICY_ERROR_INSECURE, NULL, "unencrypted http" },
  { "http://xn--localhost-.com/", MCP_URL_POLICY_ERROR_INSECURE, NULL, "unencrypted http" },
  { "http://[::ffff:7f00:1]/", MCP_URL_POLICY_ERROR_INSECURE, NULL, "unencrypted http" },
  { "http://127.0.0.1\\.evil.com/", MCP_URL_POLICY_ERROR_INVALID, NULL, "backslash" },
  { "https://evil.example\\@good.example/", MCP_URL_POLICY_ERROR_INVALID, NULL, "backslash" },
  { "", MCP_URL_POLICY_ERROR_INVALID, NULL, "empty" },
  { "https://exa\xffmple.com/", MCP_URL_POLICY_ERROR_INVALID, NULL, "UTF-8" },
  { "https://exa mple.com/", MCP_URL_POLICY_ERROR_SPACE, NULL, "space" },

  /* What is allowed. */
  { "https://auth.example.com/authorize?client_id=a&state=b", OK, "auth.example.com", NULL },
  { "HTTPS://Auth.Example.COM:8443/authorize", OK, "auth.example.com", NULL },
  /* IDN hosts are shown as the ASCII the browser resolves (no look-alikes). */
  { "https://bücher.example/", OK, "xn--bcher-kva.example", NULL },
  { "https://xn--bcher-kva.example/", OK, "xn--bcher-kva.example", NULL },
  { "http://127.0.0.1:8080/authorize", OK, "127.0.0.1", NULL },
  { "http://127.1.2.3/", OK, "127.1.2.3", NULL },
  { "http://[::1]:9000/authorize", OK, "[::1]", NULL },
  { "http://localhost/authorize", OK, "localhost", NULL },
  { "http://LOCALHOST:3000/", OK, "localhost", NULL },
  { "https://example.com/path%20with%1bescapes", OK, "example.com", NULL },
  { "https://example.com/#frag-ment", OK, "example.com", NULL },
};

static void
test_table (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const Case *c = &cases[i];

      for (McpUrlUse use = MCP_URL_USE_BROWSER; use <= MCP_URL_USE_FETCH; use++)
        {
          g_autoptr(GError) error = NULL;
          g_autofree char *host = g_strdup ("stale");
          g_autofree char *quoted = mcp_url_policy_quote (c->url);
          gboolean ok;

          char *stale = host;

          g_test_message ("%s (use %d)", quoted, use);
          ok = mcp_url_policy_check (c->url, use, &host, &error);
          /* the out value is set, not freed: the caller still owns the old one */
          if (host != stale)
            g_free (stale);
          if (c->code == OK)
            {
              g_assert_no_error (error);
              g_assert_true (ok);
              g_assert_cmpstr (host, ==, c->host);
              continue;
            }

          g_assert_false (ok);
          g_assert_null (host);
          g_assert_error (error, MCP_URL_POLICY_ERROR, c->code);
          g_assert_nonnull (strstr (error->message, c->says));
          g_assert_nonnull (strstr (error->message, use == MCP_URL_USE_BROWSER ? "will not open"
                                                                                : "will not fetch"));
          /* A refusal never puts a control character on a terminal. */
          for (const char *p = error->message; *p != '\0'; p++)
            g_assert_false ((guchar) *p < 0x20 || *p == 0x7f);
          g_assert_true (g_utf8_validate (error->message, -1, NULL));
          g_assert_null (strstr (error->message, "\xc2\x9b"));
        }
    }
}

static void
test_no_host_out (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (mcp_url_policy_check ("https://example.com/", MCP_URL_USE_FETCH, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (mcp_url_policy_check ("javascript:x", MCP_URL_USE_FETCH, NULL, NULL));
  g_assert_false (mcp_url_policy_check (NULL, MCP_URL_USE_BROWSER, NULL, &error));
  g_assert_error (error, MCP_URL_POLICY_ERROR, MCP_URL_POLICY_ERROR_INVALID);
}

/* The message never shows a password or the values of the query. */
static void
test_quote_masks_secrets (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *quoted = NULL;

  g_assert_false (mcp_url_policy_check ("https://alice:hunter2@example.com/x?api_key=s3cret&b=1",
                                        MCP_URL_USE_BROWSER, NULL, &error));
  g_assert_error (error, MCP_URL_POLICY_ERROR, MCP_URL_POLICY_ERROR_USER_INFO);
  g_assert_null (strstr (error->message, "hunter2"));
  g_assert_null (strstr (error->message, "alice"));
  g_assert_null (strstr (error->message, "s3cret"));
  g_assert_nonnull (strstr (error->message, "example.com/x?api_key="));

  quoted = mcp_url_policy_quote ("http://example.com/?token=abc#frag");
  g_assert_cmpstr (quoted, ==, "http://example.com/?token=…#frag");
  g_clear_pointer (&quoted, g_free);

  quoted = mcp_url_policy_quote ("javascript:\x1b]0;x\x07");
  g_assert_cmpstr (quoted, ==, "javascript:\\u001b]0;x\\u0007");
  g_clear_pointer (&quoted, g_free);

  quoted = mcp_url_policy_quote (NULL);
  g_assert_cmpstr (quoted, ==, "");
}

static void
test_loopback_hosts (void)
{
  g_assert_true (mcp_url_policy_is_loopback_host ("127.0.0.1"));
  g_assert_true (mcp_url_policy_is_loopback_host ("127.255.255.254"));
  g_assert_true (mcp_url_policy_is_loopback_host ("::1"));
  g_assert_true (mcp_url_policy_is_loopback_host ("[::1]"));
  g_assert_true (mcp_url_policy_is_loopback_host ("LocalHost"));
  g_assert_false (mcp_url_policy_is_loopback_host ("128.0.0.1"));
  g_assert_false (mcp_url_policy_is_loopback_host ("127.0.0"));
  g_assert_false (mcp_url_policy_is_loopback_host ("127.0.0.1.2"));
  g_assert_false (mcp_url_policy_is_loopback_host ("127.0.0.1."));
  g_assert_false (mcp_url_policy_is_loopback_host ("localhost."));
  g_assert_false (mcp_url_policy_is_loopback_host ("[::2]"));
  g_assert_false (mcp_url_policy_is_loopback_host (""));
  g_assert_false (mcp_url_policy_is_loopback_host (NULL));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/url-policy/table", test_table);
  g_test_add_func ("/url-policy/no-host-out", test_no_host_out);
  g_test_add_func ("/url-policy/quote-masks-secrets", test_quote_masks_secrets);
  g_test_add_func ("/url-policy/loopback-hosts", test_loopback_hosts);

  return g_test_run ();
}
