/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "bench-json-schema"

#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcp-json-private.h"
#include "mcp-json-schema.h"
#include "test-json.h"

/* JSON Schema validation of schema bombs (issue 20) against a baseline in
 * the same run: a plain schema, an object of 40 typed properties checked
 * against a value that has them all. Each bomb must stop at its bound
 * ("not validated: the schema is too complex"); the table gives the
 * median wall time of R runs and the ratio to the baseline, never a timed
 * assert.
 *
 *   bench-json-schema [--runs R]
 */

static int opt_runs = 21;

static const GOptionEntry entries[] = {
  { "runs", 0, 0, G_OPTION_ARG_INT, &opt_runs, "Runs of each schema (default 21)", "R" },
  { NULL }
};

static JsonNode *
parse (const char *text)
{
  g_autoptr(GError) error = NULL;
  JsonNode *node = mcp_json_parse (text, strlen (text), &error);

  if (node == NULL)
    g_error ("bench-json-schema: %s", error->message);
  return node;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* The median of R runs, in ms; the outcome of the last. */
static double
measure (const char           *schema_text,
         const char           *instance_text,
         McpJsonSchemaOutcome *outcome)
{
  g_autoptr(JsonNode) schema = parse (schema_text);
  g_autoptr(JsonNode) instance = parse (instance_text);
  g_autofree double *times = g_new (double, opt_runs);

  for (int i = 0; i < opt_runs; i++)
    {
      g_autoptr(GPtrArray) problems = NULL;
      gint64 start = g_get_monotonic_time ();

      *outcome = mcp_json_schema_check (schema, schema, instance, NULL, &problems);
      times[i] = (g_get_monotonic_time () - start) / 1000.0;
    }
  qsort (times, opt_runs, sizeof (double), compare_doubles);
  return times[opt_runs / 2];
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("- JSON Schema validation benchmark");
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) plain = g_string_new ("{\"type\":\"object\",\"properties\":{");
  g_autoptr(GString) value = g_string_new ("{");
  g_autofree char *one_of_18 = test_json_nested_schema ("oneOf", 18, "{\"type\":\"integer\"}");
  g_autofree char *one_of_30 = test_json_nested_schema ("oneOf", 30, "{\"type\":\"integer\"}");
  g_autofree char *all_of_30 = test_json_nested_schema ("allOf", 30, "{\"type\":\"integer\"}");
  g_autofree char *any_of_30 = test_json_nested_schema ("anyOf", 30, "{\"type\":\"string\"}");
  struct { const char *name; const char *schema; const char *instance; } bombs[] = {
    { "oneOf [$ref #, $ref #]", "{\"oneOf\":[{\"$ref\":\"#\"},{\"$ref\":\"#\"}]}", "{}" },
    { "18 nested oneOf", one_of_18, "1" },
    { "30 nested oneOf", one_of_30, "1" },
    { "30 nested allOf", all_of_30, "1" },
    { "30 nested anyOf", any_of_30, "1" },
  };
  McpJsonSchemaOutcome outcome;
  double baseline;
  gboolean failed = FALSE;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "bench-json-schema: %s\n", error->message);
      return 2;
    }
  opt_runs = MAX (opt_runs, 1);

  for (guint i = 0; i < 40; i++)
    {
      g_string_append_printf (plain, "%s\"p%u\":{\"type\":\"%s\"}", i > 0 ? "," : "", i,
                              i % 2 == 0 ? "string" : "integer");
      g_string_append_printf (value, i % 2 == 0 ? "%s\"p%u\":\"text\"" : "%s\"p%u\":7", i > 0 ? "," : "", i);
    }
  g_string_append (plain, "}}");
  g_string_append_c (value, '}');

  baseline = measure (plain->str, value->str, &outcome);
  if (outcome != MCP_JSON_SCHEMA_VALID)
    failed = TRUE;

  printf ("\nbench-json-schema: median of %d runs; baseline: an object of 40 typed properties, valid\n"
          "(%.4f ms); budget %u steps\n\n", opt_runs, baseline, MCP_JSON_SCHEMA_MAX_STEPS);
  printf ("| %-26s | %10s | %12s | %-12s |\n", "schema", "ms", "vs baseline", "outcome");
  printf ("|----------------------------|------------|--------------|--------------|\n");
  for (guint i = 0; i < G_N_ELEMENTS (bombs); i++)
    {
      double ms = measure (bombs[i].schema, bombs[i].instance, &outcome);

      printf ("| %-26s | %10.3f | %11.1fx | %-12s |\n", bombs[i].name, ms,
              baseline > 0 ? ms / baseline : 0.0,
              outcome == MCP_JSON_SCHEMA_TOO_COMPLEX ? "too complex" : "ANSWERED");
      if (outcome != MCP_JSON_SCHEMA_TOO_COMPLEX)
        failed = TRUE;
    }
  printf ("\n");

  return failed ? 1 : 0;
}
