/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-uri-template"

#include "config.h"

#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "mcp-uri-template.h"

/* RFC 6570 expansion of a resource template a server sent
 * (mcp-uri-template.c). The input is the template, then optionally a line
 * "\n--\n" and values, one "NAME=VALUE" a line, as a person types them
 * into the resource browser. Checks what the header promises:
 * - the variables are distinct, not empty, at most the bound, and each is
 *   a name the template holds;
 * - an expansion without values is the template with its expressions
 *   taken out: no longer than it;
 * - an expansion with values adds, beyond that, only percent-encoded
 *   values, operator characters and names: no "{" or "}" that the
 *   template does not hold, no control character, no space;
 * - the output of a UTF-8 template is UTF-8.
 * Warnings and criticals are fatal. */

static void
fail (const char *what,
      const char *uri_template)
{
  g_autofree char *escaped = g_strescape (uri_template, NULL);

  g_printerr ("fuzz-uri-template: %s: “%s”\n", what, escaped);
  abort ();
}

static guint
count_char (const char *s,
            char        c)
{
  guint n = 0;

  for (; *s != '\0'; s++)
    n += *s == c;
  return n;
}

static void
check_variables (const char *uri_template)
{
  g_auto(GStrv) names = mcp_uri_template_dup_variables (uri_template);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  guint n = g_strv_length (names);

  if (n > MCP_URI_TEMPLATE_MAX_VARIABLES)
    fail ("more variables than the bound", uri_template);
  for (guint i = 0; i < n; i++)
    {
      if (names[i][0] == '\0')
        fail ("an empty variable name", uri_template);
      if (!g_hash_table_add (seen, names[i]))
        fail ("a variable named twice", uri_template);
      if (strstr (uri_template, names[i]) == NULL)
        fail ("a variable the template does not name", uri_template);
      if (strchr (names[i], '{') != NULL || strchr (names[i], '}') != NULL ||
          strchr (names[i], ',') != NULL)
        fail ("a variable name holding a brace or a comma", uri_template);
    }
}

static void
check_expansion (const char *uri_template,
                 GHashTable *values)
{
  g_autofree char *bare = mcp_uri_template_expand (uri_template, NULL);
  g_autofree char *expanded = mcp_uri_template_expand (uri_template, values);
  gboolean utf8 = g_utf8_validate (uri_template, -1, NULL);

  if (strlen (bare) > strlen (uri_template))
    fail ("an expansion without values longer than its template", uri_template);
  if (utf8 && !g_utf8_validate (expanded, -1, NULL))
    fail ("the expansion of a UTF-8 template is not UTF-8", uri_template);
  if (count_char (expanded, '{') > count_char (uri_template, '{') ||
      count_char (expanded, '}') > count_char (uri_template, '}'))
    fail ("a value added a brace", uri_template);

  /* what the values add is encoded: no control character or space that
   * the template does not hold */
  for (const guchar *p = (const guchar *) expanded; *p != '\0'; p++)
    if ((*p < 0x20 || *p == ' ' || *p == 0x7f) && strchr (uri_template, *p) == NULL)
      fail ("a value added a control character or a space", uri_template);

  /* twice the same */
  {
    g_autofree char *again = mcp_uri_template_expand (uri_template, values);

    if (strcmp (again, expanded) != 0)
      fail ("two expansions differ", uri_template);
  }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = NULL;
  g_autoptr(GHashTable) values = g_hash_table_new (g_str_hash, g_str_equal);
  g_auto(GStrv) lines = NULL;
  char *separator;

  fuzz_abort_on_warnings ();

  /* The template is a JSON string: no nul. */
  if (memchr (data, '\0', size) != NULL)
    return 0;
  text = g_strndup ((const char *) data, size);

  separator = strstr (text, "\n--\n");
  if (separator != NULL)
    {
      *separator = '\0';
      lines = g_strsplit (separator + 4, "\n", 100);
      for (guint i = 0; lines[i] != NULL; i++)
        {
          char *equals = strchr (lines[i], '=');

          /* values are typed into an entry: UTF-8 */
          if (equals == NULL || !g_utf8_validate (equals + 1, -1, NULL))
            continue;
          *equals = '\0';
          g_hash_table_insert (values, lines[i], equals + 1);
        }
    }

  check_variables (text);
  check_expansion (text, values);

  return 0;
}
