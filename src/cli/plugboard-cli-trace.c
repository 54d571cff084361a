/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "plugboard-cli-private.h"

#include "mcp-redact.h"
#include "mcp-sign-in-steps.h"
#include "mcp-trace.h"

/* `--trace FILE` on every verb: each server's trace (McpServerConnection's,
 * masked when recorded) written as JSON Lines when the verb ends; and
 * `trace show FILE`, which prints such a file for people. */

/* What a --trace run keeps of each server: more than the app's ring, a
 * command's whole run. */
#define CLI_TRACE_KIB (256 * 1024)
/* What `trace show` reads at most. */
#define MAX_TRACE_FILE (512 * 1024 * 1024)

gboolean
plugboard_cli_open_trace (PlugboardCli  *cli,
                          const char    *path,
                          GError       **error)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  g_autoptr(GError) local = NULL;

  /* Opened now, so that a path that cannot be written is said before the
   * command runs; private, though nothing in it is secret. */
  cli->trace_stream = G_OUTPUT_STREAM (g_file_replace (file, NULL, FALSE, G_FILE_CREATE_PRIVATE,
                                                       NULL, &local));
  if (cli->trace_stream == NULL)
    {
      g_set_error (error, G_IO_ERROR, local->code,
                   /* Translators: %s is a file name, then why. */
                   _("Cannot write the trace to %s: %s"), path, local->message);
      return FALSE;
    }
  cli->trace_path = g_strdup (path);
  return TRUE;
}

void
plugboard_cli_size_traces (PlugboardCli     *cli,
                           McpServerManager *manager)
{
  if (cli->trace_stream != NULL)
    g_object_set (manager, "trace-kib", CLI_TRACE_KIB, NULL);
}

typedef struct
{
  McpTraceEntry *entry;
  const char    *server;
} Record;

static int
compare_records (gconstpointer a,
                 gconstpointer b)
{
  const Record *ra = a;
  const Record *rb = b;
  gint64 ta = mcp_trace_entry_get_time (ra->entry);
  gint64 tb = mcp_trace_entry_get_time (rb->entry);

  if (ta != tb)
    return ta < tb ? -1 : 1;
  if (ra->server != rb->server)
    return g_strcmp0 (ra->server, rb->server);
  return mcp_trace_entry_get_seq (ra->entry) < mcp_trace_entry_get_seq (rb->entry) ? -1 : 1;
}

/* Every server's entries, in the order they happened. */
void
plugboard_cli_write_trace (PlugboardCli     *cli,
                           McpServerManager *manager)
{
  g_autoptr(GArray) records = g_array_new (FALSE, FALSE, sizeof (Record));
  g_autoptr(GPtrArray) keep = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  guint n;

  if (cli->trace_stream == NULL)
    return;

  n = manager != NULL ? g_list_model_get_n_items (G_LIST_MODEL (manager)) : 0;
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpServerConnection) connection = g_list_model_get_item (G_LIST_MODEL (manager), i);
      GPtrArray *entries = mcp_trace_dup_entries (mcp_server_connection_get_trace (connection));
      const char *name = g_intern_string (mcp_server_connection_get_name (connection));

      g_ptr_array_add (keep, entries);
      for (guint j = 0; j < entries->len; j++)
        {
          Record record = { g_ptr_array_index (entries, j), name };

          g_array_append_val (records, record);
        }
    }
  g_array_sort (records, compare_records);

  for (guint i = 0; i < records->len; i++)
    {
      Record *record = &g_array_index (records, Record, i);

      mcp_trace_entry_append_json (record->entry, record->server, out);
      g_string_append_c (out, '\n');
    }

  if (!g_output_stream_write_all (cli->trace_stream, out->str, out->len, NULL, NULL, &error) ||
      !g_output_stream_close (cli->trace_stream, NULL, &error))
    plugboard_cli_print_failure (cli, _("Cannot write the trace to %s: %s"), cli->trace_path,
                                 error->message);
  g_clear_object (&cli->trace_stream);
}

/* ---- trace show ------------------------------------------------------------ */

static void
print_time (gint64 time)
{
  g_autoptr(GDateTime) utc = g_date_time_new_from_unix_utc (time / G_USEC_PER_SEC);
  g_autoptr(GDateTime) local = utc != NULL ? g_date_time_to_local (utc) : NULL;
  g_autofree char *text = local != NULL ? g_date_time_format (local, "%H:%M:%S") : g_strdup ("??:??:??");

  printf ("%s.%03d  ", text, (int) ((time % G_USEC_PER_SEC) / 1000));
}

static void
print_escaped (const char *label,
               const char *text)
{
  g_autofree char *escaped = mcp_escape_controls (text, MCP_ESCAPE_KEEP_NEWLINES);
  g_auto(GStrv) lines = g_strsplit (escaped, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    printf ("      %s%s\n", i == 0 && label != NULL ? label : "", lines[i]);
}

static void
print_headers (const char         *label,
               const char * const *headers)
{
  if (headers == NULL || headers[0] == NULL)
    return;
  printf ("      %s\n", label);
  for (guint i = 0; headers[i] != NULL && headers[i + 1] != NULL; i += 2)
    {
      g_autofree char *line = g_strdup_printf ("%s: %s", headers[i], headers[i + 1]);

      print_escaped ("  ", line);
    }
}

/* The whole of an entry, for --full. */
static void
print_details (McpTraceEntry *entry)
{
  const char *text = mcp_trace_entry_get_text (entry);

  if (mcp_trace_entry_get_kind (entry) == MCP_TRACE_KIND_HTTP)
    {
      print_headers (_("request headers:"), mcp_trace_entry_get_request_headers (entry));
      if (mcp_trace_entry_get_request_body (entry) != NULL)
        print_escaped (_("request body: "), mcp_trace_entry_get_request_body (entry));
      print_headers (_("response headers:"), mcp_trace_entry_get_response_headers (entry));
      if (mcp_trace_entry_get_response_body (entry) != NULL)
        print_escaped (_("response body: "), mcp_trace_entry_get_response_body (entry));
      return;
    }

  if (text == NULL || mcp_trace_entry_get_kind (entry) == MCP_TRACE_KIND_STDERR)
    return;
  if ((mcp_trace_entry_get_kind (entry) == MCP_TRACE_KIND_MESSAGE ||
       mcp_trace_entry_get_kind (entry) == MCP_TRACE_KIND_APP) && !mcp_trace_entry_get_truncated (entry))
    {
      g_autoptr(JsonNode) node = json_from_string (text, NULL);

      if (node != NULL)
        {
          g_autofree char *pretty = plugboard_cli_json_to_string (node, TRUE);

          print_escaped (NULL, pretty);
          return;
        }
    }
  print_escaped (NULL, text);
}

typedef struct
{
  char     *path;
  char     *server;
  char     *kind;
  gboolean  full;
  gboolean  errors;
  gboolean  auth;
} ShowOptions;

/* By McpTraceKind. */
static const char * const kind_names[] = {
  "message", "invalid", "http", "sse", "stderr", "event", "auth", "app", NULL
};

static gboolean
kind_matches (McpTraceEntry *entry,
              const char    *kind)
{
  McpTraceKind k = mcp_trace_entry_get_kind (entry);

  return kind == NULL || (k < G_N_ELEMENTS (kind_names) - 1 && g_str_equal (kind_names[k], kind));
}

static int
show (PlugboardCli *cli,
      ShowOptions  *options)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GPtrArray) servers = NULL;
  g_autoptr(GMappedFile) mapped = NULL;
  g_autoptr(GHashTable) by_seq = NULL;
  gboolean several = FALSE;
  guint shown = 0;

  mapped = g_mapped_file_new (options->path, FALSE, &error);
  if (mapped == NULL)
    {
      plugboard_cli_print_failure (cli, _("Cannot read %s: %s"), options->path, error->message);
      return EXIT_USAGE;
    }
  if (g_mapped_file_get_length (mapped) > MAX_TRACE_FILE)
    {
      plugboard_cli_print_failure (cli, _("%s is larger than 512 MiB; not read"), options->path);
      return EXIT_USAGE;
    }

  entries = mcp_trace_read_jsonl (g_mapped_file_get_contents (mapped), g_mapped_file_get_length (mapped),
                                  &servers, &error);
  if (entries == NULL)
    {
      plugboard_cli_print_failure (cli, "%s: %s", options->path, error->message);
      return EXIT_USAGE;
    }

  for (guint i = 1; i < servers->len; i++)
    several |= g_strcmp0 (g_ptr_array_index (servers, i), g_ptr_array_index (servers, 0)) != 0;

  /* A sign-in step shows the HTTP exchange that made it: entries by server
   * and number. */
  by_seq = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < entries->len; i++)
    g_hash_table_insert (by_seq,
                         g_strdup_printf ("%s\x1f%" G_GUINT64_FORMAT,
                                          (const char *) g_ptr_array_index (servers, i) ?: "",
                                          mcp_trace_entry_get_seq (g_ptr_array_index (entries, i))),
                         g_ptr_array_index (entries, i));

  for (guint i = 0; i < entries->len; i++)
    {
      McpTraceEntry *entry = g_ptr_array_index (entries, i);
      const char *server = g_ptr_array_index (servers, i);
      g_autofree char *summary = NULL;
      g_autofree char *escaped = NULL;
      gboolean failed = mcp_trace_entry_get_error_class (entry) != MCP_TRACE_ERROR_NONE;

      if ((options->server != NULL && g_strcmp0 (server, options->server) != 0) ||
          !kind_matches (entry, options->auth ? "auth" : options->kind) || (options->errors && !failed))
        continue;

      if (mcp_trace_entry_get_kind (entry) == MCP_TRACE_KIND_AUTH)
        {
          g_autofree char *key = g_strdup_printf ("%s\x1f%" G_GUINT64_FORMAT, server ?: "",
                                                  mcp_trace_entry_get_http_seq (entry));
          McpTraceEntry *exchange = mcp_trace_entry_get_http_seq (entry) != 0
                                    ? g_hash_table_lookup (by_seq, key) : NULL;
          g_autofree char *text = mcp_sign_in_step_format (entry, exchange, options->full);
          g_autofree char *escaped_step = mcp_escape_controls (text, MCP_ESCAPE_KEEP_NEWLINES);

          print_time (mcp_trace_entry_get_time (entry));
          if (several && server != NULL)
            {
              g_autofree char *name = mcp_escape_controls (server, MCP_ESCAPE_DEFAULT);

              printf ("%s  ", name);
            }
          fputs (escaped_step, stdout);
          if (*escaped_step != '\0' && escaped_step[strlen (escaped_step) - 1] != '\n')
            fputc ('\n', stdout);
          shown++;
          continue;
        }

      summary = mcp_trace_entry_dup_summary (entry);
      escaped = mcp_escape_controls (summary, MCP_ESCAPE_DEFAULT);
      print_time (mcp_trace_entry_get_time (entry));
      if (several && server != NULL)
        {
          g_autofree char *name = mcp_escape_controls (server, MCP_ESCAPE_DEFAULT);

          printf ("%s  ", name);
        }
      printf ("%s\n", escaped);
      if (failed && mcp_trace_entry_get_error_text (entry) != NULL &&
          mcp_trace_entry_get_kind (entry) != MCP_TRACE_KIND_MESSAGE)
        print_escaped (_("error: "), mcp_trace_entry_get_error_text (entry));
      if (options->full)
        print_details (entry);
      shown++;
    }

  if (shown == 0)
    printf ("%s\n", _("(nothing in the trace matches)"));
  return 0;
}

int
plugboard_cli_trace (PlugboardCli *cli,
                     int           argc,
                     char        **argv)
{
  ShowOptions options = { 0 };
  g_auto(GStrv) rest = NULL;
  const GOptionEntry entries[] = {
    { "server", 0, 0, G_OPTION_ARG_STRING, &options.server, N_("Only this server's entries"), N_("NAME") },
    { "kind", 0, 0, G_OPTION_ARG_STRING, &options.kind,
      N_("Only entries of this kind: message, invalid, http, sse, stderr, event, auth, app"), N_("KIND") },
    { "errors", 0, 0, G_OPTION_ARG_NONE, &options.errors, N_("Only what failed"), NULL },
    { "auth", 0, 0, G_OPTION_ARG_NONE, &options.auth,
      N_("Only the steps of a sign-in, each with its HTTP exchange"), NULL },
    { "full", 0, 0, G_OPTION_ARG_NONE, &options.full,
      N_("Also each message's JSON, and each HTTP exchange's headers and bodies"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &rest, NULL, NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("show FILE");
  g_autoptr(GError) error = NULL;
  int status;

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context, _("Print a trace that --trace wrote (JSON Lines) for people."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return plugboard_cli_usage_error (cli->verb, "%s", error->message);
  if (rest == NULL || g_strv_length (rest) != 2 || !g_str_equal (rest[0], "show"))
    {
      g_free (options.server);
      g_free (options.kind);
      return plugboard_cli_usage_error (cli->verb, _("Say “trace show FILE”"));
    }
  if (options.kind != NULL && !g_strv_contains (kind_names, options.kind))
    {
      g_autofree char *kind = g_steal_pointer (&options.kind);

      g_free (options.server);
      return plugboard_cli_usage_error (cli->verb, _("--kind %s: not a kind of entry"), kind);
    }

  options.path = rest[1];
  status = show (cli, &options);
  g_free (options.server);
  g_free (options.kind);
  return status;
}
