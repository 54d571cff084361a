/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include <glib.h>

#include "mcp-uri-template.h"

/* RFC 6570 expansion of resource templates, and templates a server crafts
 * to make the expansion escape, grow or stall. */

static GHashTable *
new_values (void)
{
  GHashTable *values = g_hash_table_new (g_str_hash, g_str_equal);

  g_hash_table_insert (values, "resourceId", "7");
  g_hash_table_insert (values, "id", "7");
  g_hash_table_insert (values, "path", "a b/c");
  g_hash_table_insert (values, "q", "café");
  g_hash_table_insert (values, "ext", "txt");
  g_hash_table_insert (values, "empty", "");
  g_hash_table_insert (values, "brace", "{id}");
  g_hash_table_insert (values, "evil", "../x?y#z&w=1");
  return values;
}

static void
test_expand (void)
{
  g_autoptr(GHashTable) values = new_values ();
  static const struct { const char *template; const char *expanded; } cases[] = {
    { "demo://resource/dynamic/text/{resourceId}", "demo://resource/dynamic/text/7" },
    { "file:///{path}", "file:///a%20b%2Fc" },
    { "file:///{+path}", "file:///a%20b/c" },
    { "x://h{/path,id}", "x://h/a%20b%2Fc/7" },
    { "x://h/s{?q,empty,id}", "x://h/s?q=caf%C3%A9&id=7" },
    { "x://h/s?a=1{&id}", "x://h/s?a=1&id=7" },
    { "x://h{#path}", "x://h#a%20b/c" },
    { "x://h/{id}{.ext}", "x://h/7.txt" },
    { "x://h{;id}", "x://h;id=7" },
    { "x://h/{q:3}", "x://h/caf" },
    { "x://h/{missing}/{id}", "x://h//7" },
    { "x://h/{id*}", "x://h/7" },
    /* a value never becomes an expression or a reserved character */
    { "x://h/{brace}", "x://h/%7Bid%7D" },
    { "x://h/{+brace}", "x://h/%7Bid%7D" },
    { "x://h/{evil}", "x://h/..%2Fx%3Fy%23z%26w%3D1" },
    { "x://h/{?evil}", "x://h/?evil=..%2Fx%3Fy%23z%26w%3D1" },
    /* literal text, unterminated and empty expressions */
    { "", "" },
    { "x://h/no-expressions", "x://h/no-expressions" },
    { "x://h/{id", "x://h/{id" },
    { "x://h/{id}/{", "x://h/7/{" },
    { "x://h/{}", "x://h/" },
    { "x://h/{,,}", "x://h/" },
    { "x://h/}{id}", "x://h/}7" },
    { "x://h/{{id}}", "x://h/{7}" },
    { "x://h/{a{id}", "x://h/{a7" },
    /* prefixes that are not 1 to 9999 are no prefix */
    { "x://h/{q:0}", "x://h/caf%C3%A9" },
    { "x://h/{q:-1}", "x://h/caf%C3%A9" },
    { "x://h/{q:99999999999999999999}", "x://h/caf%C3%A9" },
    { "x://h/{q:2x}", "x://h/caf%C3%A9" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *expanded = mcp_uri_template_expand (cases[i].template, values);

      g_test_message ("%s", cases[i].template);
      g_assert_cmpstr (expanded, ==, cases[i].expanded);
    }

  /* no values at all */
  {
    g_autofree char *expanded = mcp_uri_template_expand ("x://h/{id}", NULL);

    g_assert_cmpstr (expanded, ==, "x://h/");
  }
}

static void
test_variables (void)
{
  g_auto(GStrv) names = mcp_uri_template_dup_variables ("x://h/{a}{?b,c*}{&a}{/d:2}");
  g_auto(GStrv) none = mcp_uri_template_dup_variables ("x://h/{}{,}{a");

  g_assert_cmpuint (g_strv_length (names), ==, 4);
  g_assert_cmpstr (names[0], ==, "a");
  g_assert_cmpstr (names[1], ==, "b");
  g_assert_cmpstr (names[2], ==, "c");
  g_assert_cmpstr (names[3], ==, "d");
  g_assert_cmpuint (g_strv_length (none), ==, 0);
}

/* A server's template with 100,000 variables: the names stop at the
 * bound, and both functions take linear time (the names were once
 * compared pairwise: 10¹⁰ comparisons). */
static void
test_huge (void)
{
  GString *template = g_string_new ("x://h/");
  g_auto(GStrv) names = NULL;
  g_autofree char *expanded = NULL;
  g_autoptr(GHashTable) values = new_values ();

  for (guint i = 0; i < 100000; i++)
    g_string_append_printf (template, "{v%u}", i);
  g_string_append (template, "{id}");

  names = mcp_uri_template_dup_variables (template->str);
  g_assert_cmpuint (g_strv_length (names), ==, MCP_URI_TEMPLATE_MAX_VARIABLES);
  g_assert_cmpstr (names[0], ==, "v0");

  expanded = mcp_uri_template_expand (template->str, values);
  g_assert_cmpstr (expanded, ==, "x://h/7");

  g_string_free (template, TRUE);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/uri-template/expand", test_expand);
  g_test_add_func ("/uri-template/variables", test_variables);
  g_test_add_func ("/uri-template/huge", test_huge);

  return g_test_run ();
}
