/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-redact"

#include "config.h"

#include "mcp-redact.h"

static void
test_redact_url (void)
{
  static const struct { const char *url; const char *shown; } cases[] = {
    { "https://example.com/mcp", "https://example.com/mcp" },
    { "https://user:pass@example.com/mcp", "https://***@example.com/mcp" },
    { "https://token@example.com:8443/", "https://***@example.com:8443/" },
    { "https://a@b@example.com/", "https://***@example.com/" },
    { "https://example.com/mcp?api_key=abc123&x=1", "https://example.com/mcp?api_key=***&x=***" },
    { "https://example.com/mcp?flag&key=", "https://example.com/mcp?flag&key=" },
    { "https://example.com/cb#access_token=tok&state=s", "https://example.com/cb#access_token=***&state=***" },
    { "https://example.com/doc#section-2", "https://example.com/doc#section-2" },
    { "https://u:p@example.com/p?k=v#f=g", "https://***@example.com/p?k=***#f=***" },
    /* an @ in the path is no user info */
    { "https://example.com/@user/repo", "https://example.com/@user/repo" },
    /* not absolute: only the query is masked */
    { "relative/path?token=abc", "relative/path?token=***" },
    { "", "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *shown = mcp_redact_url (cases[i].url);

      g_assert_cmpstr (shown, ==, cases[i].shown);
    }
  g_assert_null (mcp_redact_url (NULL));
}

static void
test_redact_value (void)
{
  g_autofree char *masked = mcp_redact_value ("ghp_0123456789abcdef");
  g_autofree char *empty = mcp_redact_value ("");

  g_assert_cmpstr (masked, ==, MCP_REDACTED);
  g_assert_cmpstr (empty, ==, "");
  g_assert_null (mcp_redact_value (NULL));
}

static void
test_redact_text (void)
{
  const char * const secrets[] = { "s3cr3t", "s3cr3t-longer", "ab", NULL };
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autofree char *c = NULL;
  g_autofree char *d = NULL;

  /* longest first: the longer secret is not left half shown */
  a = mcp_redact_text ("failed to start “server --key s3cr3t-longer” (s3cr3t)", secrets);
  g_assert_cmpstr (a, ==, "failed to start “server --key ***” (***)");
  g_assert_null (strstr (a, "longer"));

  /* two-byte secrets are left alone */
  b = mcp_redact_text ("ab cd", secrets);
  g_assert_cmpstr (b, ==, "ab cd");

  /* URLs in running text, and credentials */
  c = mcp_redact_text ("cannot reach https://me:pw@host.example/mcp?key=k1 (401), "
                       "sent Authorization: Bearer eyJhbGciOi.x.y", NULL);
  g_assert_cmpstr (c, ==, "cannot reach https://***@host.example/mcp?key=*** (401), "
                          "sent Authorization: Bearer ***");

  d = mcp_redact_text ("“Basic dXNlcjpwYXNz”, then Bearer *** again", NULL);
  g_assert_cmpstr (d, ==, "“Basic ***”, then Bearer *** again");

  /* a URL ends at the quotes around it: what follows is kept */
  {
    g_autofree char *quoted = mcp_redact_text ("Could not talk to “http://u:p@h/mcp?k=v”: refused "
                                               "(‘https://h/?a=b’, «ws://h/?c=d»)", NULL);

    g_assert_cmpstr (quoted, ==, "Could not talk to “http://***@h/mcp?k=***”: refused "
                                 "(‘https://h/?a=***’, «ws://h/?c=***»)");
  }

  g_assert_null (mcp_redact_text (NULL, secrets));
}

static void
test_escape_controls (void)
{
  static const struct { const char *text; McpEscapeFlags flags; const char *shown; } cases[] = {
    { "github", MCP_ESCAPE_DEFAULT, "github" },
    { "gïthüb ☃", MCP_ESCAPE_DEFAULT, "gïthüb ☃" },
    /* the finding: a name that rewrites its own line */
    { "evil\r\033[2Kgithub\033[8m", MCP_ESCAPE_DEFAULT, "evil\\u000d\\u001b[2Kgithub\\u001b[8m" },
    { "a\nb\tc", MCP_ESCAPE_DEFAULT, "a\\u000ab\\u0009c" },
    { "a\nb\tc\r", MCP_ESCAPE_KEEP_NEWLINES, "a\nb\tc\\u000d" },
    { "del\177", MCP_ESCAPE_DEFAULT, "del\\u007f" },
    /* C1: CSI as one code point */
    { "c1\302\233" "31m", MCP_ESCAPE_DEFAULT, "c1\\u009b31m" },
    /* bidi override (Trojan Source) and the line separator */
    { "safe\342\200\256txt.exe", MCP_ESCAPE_DEFAULT, "safe\\u202etxt.exe" },
    { "x\342\200\250y", MCP_ESCAPE_DEFAULT, "x\\u2028y" },
    /* bytes that are not UTF-8 */
    { "bad\377\376", MCP_ESCAPE_DEFAULT, "bad\\xff\\xfe" },
    { "cut\303", MCP_ESCAPE_DEFAULT, "cut\\xc3" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *shown = mcp_escape_controls (cases[i].text, cases[i].flags);

      g_assert_cmpstr (shown, ==, cases[i].shown);
      g_assert_true (g_utf8_validate (shown, -1, NULL));
      g_assert_cmpint (mcp_needs_escape (cases[i].text, cases[i].flags), ==,
                       g_strcmp0 (cases[i].text, cases[i].shown) != 0);
      for (const char *p = shown; *p != '\0'; p++)
        g_assert_true ((guchar) *p >= 0x20 || ((cases[i].flags & MCP_ESCAPE_KEEP_NEWLINES) && (*p == '\n' || *p == '\t')));
    }
  g_assert_null (mcp_escape_controls (NULL, MCP_ESCAPE_DEFAULT));
}

/* The registered secrets and the log writer: a g_debug() anywhere shows
 * neither a registered secret, nor a URL's user info or query values, nor
 * a control character. */
static void
test_log_writer (void)
{
  if (g_test_subprocess ())
    {
      const char * const secrets[] = { "var-s3cret", "xy", NULL };
      g_auto(GStrv) registered = NULL;

      mcp_redact_register_secrets (secrets);
      mcp_redact_register_secrets (secrets);
      registered = mcp_redact_dup_secrets ();
      /* once, and not the two-byte one */
      g_assert_cmpstrv (registered, ((const char *[]) { "var-s3cret", NULL }));

      g_setenv ("G_MESSAGES_DEBUG", "all", TRUE);
      g_log_set_writer_func (mcp_redact_log_writer, NULL, NULL);
      g_debug ("spawned /opt/var-s3cret/srv for https://me:pw@h.example/mcp?key=k1\r\033[2Kdone");
      return;
    }

  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stdout_unmatched ("*var-s3cret*");
  g_test_trap_assert_stderr_unmatched ("*var-s3cret*");
  g_test_trap_assert_stdout_unmatched ("*me:pw*");
  g_test_trap_assert_stderr_unmatched ("*me:pw*");
  g_test_trap_assert_stdout_unmatched ("*\033*");
  g_test_trap_assert_stderr_unmatched ("*\033*");
  /* the message is there, masked and escaped (debug messages go to
   * stdout with GLib's default writer) */
  g_test_trap_assert_stdout ("*spawned /opt/***/srv for https://***@h.example/mcp?key=***"
                             "\\u000d\\u001b[2Kdone*");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/redact/url", test_redact_url);
  g_test_add_func ("/redact/value", test_redact_value);
  g_test_add_func ("/redact/text", test_redact_text);
  g_test_add_func ("/redact/escape-controls", test_escape_controls);
  g_test_add_func ("/redact/log-writer", test_log_writer);

  return g_test_run ();
}
