/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-markdown"

#include "config.h"

#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "plugboard-markdown.h"

/* Markdown from servers (tool, prompt and resource descriptions) as the app
 * renders it: plugboard_markdown_to_pango() (src/app, but GTK-free: GLib
 * and libcmark). The input is the Markdown, as a C string.
 *
 * Checks: the result is UTF-8 and well-formed markup, as Pango reads it
 * (Pango wraps the text in <markup> and hands it to GMarkup, as here);
 * only Pango's elements appear; a link's href is http, https or mailto.
 * Warnings and criticals are fatal. */

static void
fail (const char *what,
      const char *markup)
{
  g_printerr ("fuzz-markdown: %s\n%s\n", what, markup != NULL ? markup : "");
  abort ();
}

static void
start_element_cb (GMarkupParseContext  *context,
                  const char           *element,
                  const char          **names,
                  const char          **values,
                  gpointer              user_data,
                  GError              **error)
{
  static const char * const allowed[] = {
    "markup", "span", "b", "i", "u", "s", "tt", "big", "small", "sub", "sup", "a", NULL,
  };

  if (!g_strv_contains (allowed, element))
    fail ("an element Pango does not know", user_data);

  if (strcmp (element, "a") == 0)
    for (guint i = 0; names[i] != NULL; i++)
      {
        g_autofree char *scheme = NULL;

        if (strcmp (names[i], "href") != 0)
          continue;
        scheme = g_uri_parse_scheme (values[i]);
        if (scheme == NULL ||
            (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0 &&
             g_ascii_strcasecmp (scheme, "mailto") != 0))
          fail ("a link that is not http, https or mailto", user_data);
      }
}

static const GMarkupParser parser = { start_element_cb, NULL, NULL, NULL, NULL };

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *markdown = NULL;
  g_autofree char *markup = NULL;
  g_autofree char *wrapped = NULL;
  g_autoptr(GMarkupParseContext) context = NULL;
  g_autoptr(GError) error = NULL;

  fuzz_abort_on_warnings ();

  /* Descriptions reach the renderer as UTF-8 strings (json-glib's). */
  markdown = g_strndup ((const char *) data, size);
  if (!g_utf8_validate (markdown, -1, NULL))
    return 0;

  (void) plugboard_markdown_detect (markdown);
  markup = plugboard_markdown_to_pango (markdown);
  if (markup == NULL || !g_utf8_validate (markup, -1, NULL))
    fail ("markup that is not UTF-8", markup);

  wrapped = g_strconcat ("<markup>", markup, "</markup>", NULL);
  context = g_markup_parse_context_new (&parser, 0, markup, NULL);
  if (!g_markup_parse_context_parse (context, wrapped, -1, &error) ||
      !g_markup_parse_context_end_parse (context, &error))
    {
      g_printerr ("%s\n", error->message);
      fail ("markup that does not parse", markup);
    }

  return 0;
}
