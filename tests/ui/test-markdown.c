/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-markdown"

#include "config.h"

#include <string.h>

#include <pango/pango.h>

#include "plugboard-markdown.h"

/* GtkLabel takes <a href="…"> out of the markup before Pango sees it; the
 * rest must be valid Pango markup. The href is escaped, so it has no '"'. */
static char *
strip_links (const char *markup)
{
  g_autoptr(GRegex) regex = g_regex_new ("<a href=\"[^\"<>]*\">|</a>", 0, 0, NULL);

  return g_regex_replace_literal (regex, markup, -1, 0, "", 0, NULL);
}

static void
assert_valid_markup (const char *input,
                     const char *markup)
{
  g_autofree char *stripped = strip_links (markup);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (!pango_parse_markup (stripped, -1, 0, NULL, &text, NULL, &error))
    g_error ("markup for %s does not parse: %s\n%s", input, error->message, markup);
}

static char *
render (const char *markdown)
{
  char *markup = plugboard_markdown_to_pango (markdown);

  assert_valid_markup (markdown, markup);
  return markup;
}

/* The text a person sees, without markup (links kept as text). */
static char *
render_plain (const char *markdown)
{
  g_autofree char *markup = plugboard_markdown_to_pango (markdown);
  g_autofree char *stripped = strip_links (markup);
  char *text = NULL;

  g_assert_true (pango_parse_markup (stripped, -1, 0, NULL, &text, NULL, NULL));
  return text;
}

static void
test_headings (void)
{
  g_autofree char *h1 = render ("# Title");
  g_autofree char *h2 = render ("## Sub");
  g_autofree char *h4 = render ("#### Small");
  g_autofree char *setext = render ("Title\n=====");

  g_assert_cmpstr (h1, ==, "<span size=\"xx-large\" weight=\"bold\">Title</span>");
  g_assert_cmpstr (h2, ==, "<span size=\"x-large\" weight=\"bold\">Sub</span>");
  g_assert_cmpstr (h4, ==, "<span weight=\"bold\">Small</span>");
  g_assert_cmpstr (setext, ==, h1);
}

static void
test_emphasis (void)
{
  g_autofree char *markup = render ("*a* and **b** and _c_ and ***d***");

  g_assert_cmpstr (markup, ==, "<i>a</i> and <b>b</b> and <i>c</i> and <i><b>d</b></i>");
}

static void
test_code (void)
{
  g_autofree char *inline_code = render ("Run `a < b && c`.");
  g_autofree char *block = render ("Before\n\n```sh\necho <hi>\nexit 1\n```\n\nAfter");

  g_assert_cmpstr (inline_code, ==, "Run <tt>a &lt; b &amp;&amp; c</tt>.");
  g_assert_cmpstr (block, ==, "Before\n\n<tt>echo &lt;hi&gt;\nexit 1</tt>\n\nAfter");
}

static void
test_links (void)
{
  g_autofree char *http = render ("See [the docs](https://example.org/a?b=1&c=\"2\") now.");
  g_autofree char *mail = render ("[mail](mailto:me@example.org)");
  g_autofree char *autolink = render ("<http://example.org>");
  g_autofree char *script = render ("[click](javascript:alert(1))");
  g_autofree char *file = render ("[f](file:///etc/passwd)");
  g_autofree char *relative = render ("[r](/relative)");

  g_assert_cmpstr (http, ==,
                   "See <a href=\"https://example.org/a?b=1&amp;c=&quot;2&quot;\">the docs</a> now.");
  g_assert_cmpstr (mail, ==, "<a href=\"mailto:me@example.org\">mail</a>");
  g_assert_cmpstr (autolink, ==, "<a href=\"http://example.org\">http://example.org</a>");
  /* Other schemes stay text. */
  g_assert_cmpstr (script, ==, "click");
  g_assert_cmpstr (file, ==, "f");
  g_assert_cmpstr (relative, ==, "r");
}

static void
test_lists (void)
{
  g_autofree char *bullets = render ("- one\n- two\n- three");
  g_autofree char *numbers = render ("3. three\n4. four");
  g_autofree char *loose = render ("- a\n\n- b");

  g_assert_cmpstr (bullets, ==, "\u2022 one\n\u2022 two\n\u2022 three");
  g_assert_cmpstr (numbers, ==, "3. three\n4. four");
  g_assert_cmpstr (loose, ==, "\u2022 a\n\n\u2022 b");

  {
    g_autofree char *after = render ("Intro\n\n- a\n- b\n\nEnd");

    g_assert_cmpstr (after, ==, "Intro\n\n\u2022 a\n\u2022 b\n\nEnd");
  }
}

static void
test_nested_lists (void)
{
  g_autofree char *markup = render ("- outer\n  - inner *x*\n  - inner 2\n- next\n  1. num");

  g_assert_cmpstr (markup, ==,
                   "\u2022 outer\n"
                   "    \u2022 inner <i>x</i>\n"
                   "    \u2022 inner 2\n"
                   "\u2022 next\n"
                   "    1. num");
}

static void
test_block_quote (void)
{
  g_autofree char *text = render_plain ("Said:\n\n> quoted *text*\n> more\n\nEnd");
  g_autofree char *markup = render ("> a");

  g_assert_cmpstr (text, ==, "Said:\n\n\u2503 quoted text more\n\nEnd");
  g_assert_nonnull (strstr (markup, "fgalpha"));
}

static void
test_html_as_text (void)
{
  g_autofree char *block = render ("<div onclick=\"x\">hi</div>");
  g_autofree char *inline_html = render ("a <b>bold</b> <span foreground=\"red\">c</span>");
  g_autofree char *plain = render_plain ("a <b>bold</b>");

  g_assert_cmpstr (block, ==, "&lt;div onclick=&quot;x&quot;&gt;hi&lt;/div&gt;");
  g_assert_null (strstr (inline_html, "<b>"));
  g_assert_null (strstr (inline_html, "<span"));
  g_assert_cmpstr (plain, ==, "a <b>bold</b>");
}

static void
test_paragraphs (void)
{
  g_autofree char *markup = render ("one\ntwo\n\nthree  \nfour\n\n---\n\n&amp; &lt;");

  g_assert_cmpstr (markup, ==,
                   "one two\n\nthree\nfour\n\n"
                   "<span fgalpha=\"45%\">\u2014\u2014\u2014\u2014\u2014\u2014\u2014\u2014</span>\n\n"
                   "&amp; &lt;");
}

static void
test_empty (void)
{
  g_autofree char *empty = plugboard_markdown_to_pango ("");
  g_autofree char *null_markup = plugboard_markdown_to_pango (NULL);

  g_assert_cmpstr (empty, ==, "");
  g_assert_cmpstr (null_markup, ==, "");
}

static void
test_fuzz (void)
{
  static const char * const pieces[] = {
    "*", "**", "_", "`", "```", "~~~", "#", "# ", "> ", "- ", "1. ", "2) ", "\n", "\n\n",
    "  ", "    ", "[", "]", "(", ")", "<", ">", "&", "&amp;", "&#0;", "&#x110000;", "\"",
    "'", "!", "[a](http://x.org/\"<>)", "<a href=\"x\">", "</a>", "<b>", "</span>",
    "<!--", "-->", "\\", "|", "---", "===", "\u00e9", "\u2603", "\xff", "\xc3",
    "\x01", "\t", "\r", "http://", "mailto:", "javascript:", "<http://a.b>", "text",
  };
  GRand *rand = g_rand_new_with_seed (7);

  for (guint round = 0; round < 3000; round++)
    {
      g_autoptr(GString) input = g_string_new (NULL);
      g_autofree char *markup = NULL;
      guint n = g_rand_int_range (rand, 1, 40);

      for (guint i = 0; i < n; i++)
        {
          if (g_rand_int_range (rand, 0, 4) == 0)
            {
              /* Raw bytes, NUL excepted (a C string ends there). */
              g_string_append_c (input, (char) g_rand_int_range (rand, 1, 256));
            }
          else
            g_string_append (input, pieces[g_rand_int_range (rand, 0, G_N_ELEMENTS (pieces))]);
        }

      markup = plugboard_markdown_to_pango (input->str);
      assert_valid_markup (input->str, markup);
      g_assert_true (g_utf8_validate (markup, -1, NULL));
    }

  g_rand_free (rand);
}

static void
test_detect (void)
{
  g_autoptr(GString) big = g_string_new (NULL);

  g_assert_true (plugboard_markdown_detect ("# Result\n\nSome text"));
  g_assert_true (plugboard_markdown_detect ("Items:\n\n- a\n- b"));
  g_assert_true (plugboard_markdown_detect ("This is **important**."));
  g_assert_true (plugboard_markdown_detect ("See [here](https://example.org)."));
  g_assert_true (plugboard_markdown_detect ("```\ncode\n```"));
  g_assert_true (plugboard_markdown_detect ("Call `foo()` first"));
  g_assert_true (plugboard_markdown_detect ("> quoted"));

  g_assert_false (plugboard_markdown_detect (NULL));
  g_assert_false (plugboard_markdown_detect (""));
  g_assert_false (plugboard_markdown_detect ("Echo: hello world"));
  g_assert_false (plugboard_markdown_detect ("The sum of 2 and 3 is 5."));
  g_assert_false (plugboard_markdown_detect ("{\"a\": [1, 2], \"b\": {\"c\": null}}"));
  g_assert_false (plugboard_markdown_detect ("snake_case_name and 2 * 3 * 4"));
  g_assert_false (plugboard_markdown_detect ("line one\n        indented, not a fence\nline three"));
  g_assert_false (plugboard_markdown_detect ("<p>html only</p>"));

  /* Only the start of a large text is looked at, and quickly. */
  for (guint i = 0; i < 200000; i++)
    g_string_append (big, "plain words here\n");
  g_string_append (big, "# late heading\n");
  g_assert_false (plugboard_markdown_detect (big->str));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/markdown/headings", test_headings);
  g_test_add_func ("/markdown/emphasis", test_emphasis);
  g_test_add_func ("/markdown/code", test_code);
  g_test_add_func ("/markdown/links", test_links);
  g_test_add_func ("/markdown/lists", test_lists);
  g_test_add_func ("/markdown/nested-lists", test_nested_lists);
  g_test_add_func ("/markdown/block-quote", test_block_quote);
  g_test_add_func ("/markdown/html-as-text", test_html_as_text);
  g_test_add_func ("/markdown/paragraphs", test_paragraphs);
  g_test_add_func ("/markdown/empty", test_empty);
  g_test_add_func ("/markdown/fuzz", test_fuzz);
  g_test_add_func ("/markdown/detect", test_detect);

  return g_test_run ();
}
