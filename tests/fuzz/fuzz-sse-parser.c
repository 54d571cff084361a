/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-sse-parser"

#include "config.h"

#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "mcp-error.h"
#include "mcp-sse-parser.h"

/* Small, so the limit is reached often. */
#define MAX_BUFFER 4096

typedef struct
{
  GString *log;
} Run;

static void
fail (const char *what)
{
  g_printerr ("fuzz-sse-parser: %s\n", what);
  abort ();
}

static void
on_event (const char *event_type,
          const char *data,
          const char *last_event_id,
          gpointer    user_data)
{
  Run *run = user_data;
  gsize data_len = strlen (data);

  if (event_type == NULL || event_type[0] == '\0')
    fail ("an event without a type");
  if (!g_utf8_validate (data, -1, NULL) || !g_utf8_validate (event_type, -1, NULL))
    fail ("an event that is not UTF-8");
  if (last_event_id != NULL && (last_event_id[0] == '\0' || !g_utf8_validate (last_event_id, -1, NULL)))
    fail ("a last event ID that is empty or not UTF-8");
  /* Replacement characters may triple invalid bytes; nothing more. */
  if (data_len > 3 * MAX_BUFFER)
    fail ("an event larger than the limit");

  g_string_append_printf (run->log, "%zu:%s|%zu:", strlen (event_type), event_type, data_len);
  g_string_append_len (run->log, data, data_len);
  g_string_append_printf (run->log, "|%s\n", last_event_id != NULL ? last_event_id : "-");
}

/* Feeds @data in chunks whose sizes come from @seed (0 for one chunk) and
 * returns the log of events, the error and the final state. */
static char *
parse (const uint8_t *data,
       size_t         size,
       guint32        seed)
{
  g_autoptr(McpSseParser) parser = mcp_sse_parser_new (MAX_BUFFER);
  g_autoptr(GError) error = NULL;
  Run run = { g_string_new (NULL) };
  size_t offset = 0;
  GRand *rand = seed != 0 ? g_rand_new_with_seed (seed) : NULL;

  while (offset < size)
    {
      size_t chunk = size - offset;

      if (rand != NULL)
        {
          /* Mostly tiny chunks, to split at line ends, CRLFs and the BOM. */
          size_t pick = g_rand_int_range (rand, 0, 8) == 0 ?
                        (size_t) g_rand_int_range (rand, 0, 512) :
                        (size_t) g_rand_int_range (rand, 0, 4);

          chunk = MIN (chunk, pick);
        }

      if (!mcp_sse_parser_feed (parser, (const char *) data + offset, chunk,
                                on_event, &run, &error))
        break;
      offset += chunk;
    }

  if (error != NULL)
    {
      if (!g_error_matches (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE))
        fail ("an error other than MESSAGE_TOO_LARGE");
      g_string_append_printf (run.log, "error: %s\n", error->message);
    }
  mcp_sse_parser_finish (parser);
  g_string_append_printf (run.log, "id=%s retry=%" G_GINT64_FORMAT "\n",
                          mcp_sse_parser_get_last_event_id (parser) != NULL ?
                            mcp_sse_parser_get_last_event_id (parser) : "-",
                          mcp_sse_parser_get_retry (parser));

  g_clear_pointer (&rand, g_rand_free);
  return g_string_free (run.log, FALSE);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *whole = parse (data, size, 0);
  guint32 seed = 2166136261u;

  for (size_t i = 0; i < size; i++)
    seed = (seed ^ data[i]) * 16777619u;

  /* However the stream is cut, the events are the same. */
  for (guint32 round = 1; round <= 4; round++)
    {
      g_autofree char *split = parse (data, size, seed + round);

      if (strcmp (whole, split) != 0)
        {
          g_printerr ("whole:\n%s\nsplit:\n%s\n", whole, split);
          fail ("chunking changed the events");
        }
    }

  return 0;
}
