/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-json"

#include "config.h"

#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "mcp-json-private.h"

static void
fail (const char *what)
{
  g_printerr ("fuzz-json: %s\n", what);
  abort ();
}

/* Whatever mcp_json_parse() accepts, mcp_json_append() writes as JSON that
 * parses again and writes the same way a second time; the pretty layout
 * (what plugboard-cli prints) parses back to the same value too. */
int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) first = g_string_new (NULL);
  g_autoptr(GString) second = g_string_new (NULL);
  g_autoptr(GString) pretty = g_string_new (NULL);
  g_autoptr(JsonNode) from_pretty = NULL;

  node = mcp_json_parse ((const char *) data, size, &error);
  if (node == NULL)
    {
      if (error == NULL || error->message == NULL || error->message[0] == '\0')
        fail ("a refusal without a message");
      return 0;
    }
  if (error != NULL)
    fail ("a value and an error");

  mcp_json_append (first, node);
  if (!g_utf8_validate (first->str, first->len, NULL))
    fail ("output that is not UTF-8");

  again = mcp_json_parse (first->str, first->len, &error);
  if (again == NULL)
    {
      g_printerr ("%s\n%s\n", first->str, error->message);
      fail ("output that does not parse");
    }
  if (!json_node_equal (node, again))
    fail ("output that parses to another value");

  mcp_json_append (second, again);
  if (strcmp (first->str, second->str) != 0)
    {
      g_printerr ("%s\n%s\n", first->str, second->str);
      fail ("output that is written differently the second time");
    }

  mcp_json_append_pretty (pretty, node);
  from_pretty = mcp_json_parse (pretty->str, pretty->len, &error);
  if (from_pretty == NULL || !json_node_equal (node, from_pretty))
    {
      g_printerr ("%s\n", pretty->str);
      fail ("pretty output that does not parse back to the same value");
    }

  return 0;
}
