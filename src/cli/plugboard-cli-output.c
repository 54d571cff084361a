/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include <string.h>

#include "mcp-json-private.h"
#include "mcp-redact.h"
#include "mcp-task.h"

#include "plugboard-cli-private.h"

/* plugboard-cli's output.
 *
 * Strings from servers and files reach the terminal only with their
 * control characters escaped (mcp_escape_controls()): one_line(),
 * pad_to_width() and escape() for what must stay on one line, and for
 * everything else the print handlers main() installs, through which every
 * g_print() and g_printerr() goes (newlines kept, CR and ESC written as
 * \u000d and \u001b). */

#define STDERR_TAIL_LINES 5

/* TEXT on one line: line breaks and tabs as spaces, every other control
 * character escaped. */
char *
plugboard_cli_one_line (const char *text)
{
  g_autoptr(GString) s = g_string_new (text ? text : "");

  g_string_replace (s, "\r\n", "\n", 0);
  for (gsize i = 0; i < s->len; i++)
    {
      if (s->str[i] == '\n' || s->str[i] == '\t')
        s->str[i] = ' ';
    }
  while (s->len > 0 && s->str[s->len - 1] == ' ')
    g_string_truncate (s, s->len - 1);

  return mcp_escape_controls (s->str, MCP_ESCAPE_DEFAULT);
}

/* TEXT with every control character escaped, newlines too: for names. */
char *
plugboard_cli_escape (const char *text)
{
  return mcp_escape_controls (text ? text : "", MCP_ESCAPE_DEFAULT);
}

/* How many terminal columns TEXT takes once escaped (as pad_to_width()
 * prints it): East Asian wide characters take two, combining marks and
 * zero-width characters none. Tables pad by this, not by bytes, so
 * translated headers and names line up in Chinese as in English, and a
 * name holding ESC [ 2 K takes the columns its escaped form takes. */
int
plugboard_cli_display_width (const char *text)
{
  g_autofree char *shown = plugboard_cli_escape (text);
  int width = 0;

  for (const char *p = shown; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_iszerowidth (c))
        continue;
      width += g_unichar_iswide (c) ? 2 : 1;
    }

  return width;
}

/* TEXT, escaped, followed by spaces up to WIDTH columns (at least TEXT). */
char *
plugboard_cli_pad_to_width (const char *text,
                            int         width)
{
  int have = plugboard_cli_display_width (text);
  g_autofree char *shown = plugboard_cli_escape (text);
  GString *s = g_string_new (shown);

  for (int i = have; i < width; i++)
    g_string_append_c (s, ' ');

  return g_string_free (s, FALSE);
}

/* The print handlers: every g_print() and g_printerr() */
static void
write_escaped (FILE       *stream,
               const char *string)
{
  g_autofree char *shown = mcp_escape_controls (string, MCP_ESCAPE_KEEP_NEWLINES);
  const char *charset;

  /* What g_print() does without a handler: the locale's charset. */
  if (!g_get_console_charset (&charset))
    {
      g_autofree char *converted = g_convert_with_fallback (shown, -1, charset, "UTF-8", "?",
                                                            NULL, NULL, NULL);

      if (converted != NULL)
        {
          g_free (shown);
          shown = g_steal_pointer (&converted);
        }
    }
  fputs (shown, stream);
  fflush (stream);
}

/* fprintf() to @stream, escaped as g_print() and g_printerr() are. */
void
plugboard_cli_print_to (FILE       *stream,
                        const char *format,
                        ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  write_escaped (stream, text);
}

static void
print_handler (const char *string)
{
  write_escaped (stdout, string);
}

static void
printerr_handler (const char *string)
{
  write_escaped (stderr, string);
}

void
plugboard_cli_install_print_handlers (void)
{
  g_set_print_handler (print_handler);
  g_set_printerr_handler (printerr_handler);
}

void
plugboard_cli_end_progress_line (PlugboardCli *cli)
{
  if (cli != NULL && cli->progress_line_open)
    {
      fputs ("\n", stderr);
      cli->progress_line_open = FALSE;
    }
}

G_GNUC_PRINTF (2, 3)
void
plugboard_cli_print_failure (PlugboardCli *cli,
                             const char   *format,
                             ...)
{
  g_autofree char *message = NULL;
  g_autofree char *redacted = NULL;
  g_autofree char *line = NULL;
  g_auto(GStrv) secrets = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  /* The last way out of an error: no secret of a server started (what its
   * ${VAR}s gave, env and header values), no URL's user info or query
   * values, no credentials, no control characters. */
  secrets = mcp_redact_dup_secrets ();
  redacted = mcp_redact_text (message, (const char * const *) secrets);
  line = plugboard_cli_one_line (redacted);
  fflush (stdout);
  plugboard_cli_end_progress_line (cli);
  fprintf (stderr, PROGRAM_NAME ": %s\n", line);
  fflush (stderr);
}

/* One line of a table: every cell but the last padded to its column's
 * display width, two spaces between columns. */
void
plugboard_cli_print_table_row (const int   *widths,
                               guint        n_cells,
                               const char **cells)
{
  g_autoptr(GString) line = g_string_new (NULL);

  for (guint i = 0; i < n_cells; i++)
    {
      if (i + 1 < n_cells)
        {
          g_autofree char *padded = plugboard_cli_pad_to_width (cells[i], widths[i]);

          g_string_append (line, padded);
          g_string_append (line, "  ");
        }
      else
        {
          g_autofree char *shown = plugboard_cli_escape (cells[i]);

          g_string_append (line, shown);
        }
    }
  g_print ("%s\n", line->str);
}

/* @node as JSON text, through the protocol's writer rather than
 * json-glib's generator: every number in its shortest form that reads
 * back the same (0.7, not 0.69999999999999996). */
char *
plugboard_cli_json_to_string (JsonNode *node,
                              gboolean  pretty)
{
  GString *text = g_string_new (NULL);

  if (pretty)
    mcp_json_append_pretty (text, node);
  else
    mcp_json_append (text, node);
  return g_string_free (text, FALSE);
}

void
plugboard_cli_print_json (JsonNode *node)
{
  g_autofree char *text = plugboard_cli_json_to_string (node, TRUE);

  /* The writer escapes C0 controls but not DEL, C1 controls or bidi
   * overrides; these occur only inside strings, where the print handler's
   * "\u009b" is the same JSON. */
  g_print ("%s\n", text);
}

void
plugboard_cli_print_json_object (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);

  json_node_set_object (node, object);
  plugboard_cli_print_json (node);
}

/* A JSON array of what @get_json gives for each item of @model. */
void
plugboard_cli_print_json_objects (GListModel  *model,
                                  JsonObject *(*get_json) (gpointer item))
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_ARRAY);
  g_autoptr(JsonArray) array = json_array_new ();
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      json_array_add_object_element (array, json_object_ref (get_json (item)));
    }
  json_node_set_array (node, array);
  plugboard_cli_print_json (node);
}

/* @text, with a line end after it when it has none. */
void
plugboard_cli_print_text_block (const char *text)
{
  gsize len;

  if (text == NULL)
    return;

  len = strlen (text);
  g_print ("%s%s", text, len == 0 || text[len - 1] != '\n' ? "\n" : "");
}

void
plugboard_cli_print_description (const char *indent,
                                 const char *description)
{
  g_autofree char *line = NULL;

  if (description == NULL || *description == '\0')
    return;
  line = plugboard_cli_one_line (description);
  g_strstrip (line);
  if (*line != '\0')
    g_print ("%s%s\n", indent, line);
}

static gboolean
text_duplicates_structured (GPtrArray *content,
                            JsonNode  *structured)
{
  for (guint i = 0; i < content->len; i++)
    {
      McpContent *block = g_ptr_array_index (content, i);
      g_autoptr(JsonParser) parser = NULL;
      JsonNode *root;

      if (mcp_content_get_kind (block) != MCP_CONTENT_TEXT ||
          mcp_content_get_text (block) == NULL)
        continue;

      parser = json_parser_new_immutable ();
      if (!json_parser_load_from_data (parser, mcp_content_get_text (block), -1, NULL))
        continue;
      root = json_parser_get_root (parser);
      if (root != NULL && json_node_equal (root, structured))
        return TRUE;
    }

  return FALSE;
}

static void
print_data_size (McpContent *block)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) data = mcp_content_get_data (block, &error);
  const char *mime_type = mcp_content_get_mime_type (block);

  if (mime_type == NULL)
    mime_type = _("unknown type");

  if (error != NULL)
    {
      g_autofree char *line = plugboard_cli_one_line (error->message);

      g_print (_("%s, unreadable data: %s\n"), mime_type, line);
    }
  else
    {
      g_print (_("%s, %lu bytes\n"), mime_type,
               (unsigned long) (data ? g_bytes_get_size (data) : 0));
    }
}

void
plugboard_cli_print_content_block (McpContent *block)
{
  switch (mcp_content_get_kind (block))
    {
    case MCP_CONTENT_TEXT:
      plugboard_cli_print_text_block (mcp_content_get_text (block));
      break;

    case MCP_CONTENT_IMAGE:
    case MCP_CONTENT_AUDIO:
      print_data_size (block);
      break;

    case MCP_CONTENT_RESOURCE_LINK:
      g_print (_("link: %s %s\n"),
               mcp_content_get_name (block) ? mcp_content_get_name (block) : "",
               mcp_content_get_uri (block) ? mcp_content_get_uri (block) : "");
      break;

    case MCP_CONTENT_RESOURCE:
      g_print ("%s\n", mcp_content_get_uri (block) ? mcp_content_get_uri (block) : _("resource"));
      if (mcp_content_get_text (block) != NULL)
        plugboard_cli_print_text_block (mcp_content_get_text (block));
      else
        print_data_size (block);
      break;

    case MCP_CONTENT_UNKNOWN:
    default:
      {
        g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
        g_autofree char *text = NULL;

        json_node_set_object (node, mcp_content_get_json (block));
        text = plugboard_cli_json_to_string (node, FALSE);
        g_print (_("%s content: %s\n"),
                 mcp_content_get_type_name (block) ? mcp_content_get_type_name (block) : _("unknown"),
                 text);
      }
      break;
    }
}

void
plugboard_cli_print_tool_result (McpToolResult *result)
{
  GPtrArray *content = mcp_tool_result_get_content (result);
  JsonNode *structured = mcp_tool_result_get_structured_content (result);

  for (guint i = 0; content != NULL && i < content->len; i++)
    plugboard_cli_print_content_block (g_ptr_array_index (content, i));

  if (structured != NULL && !JSON_NODE_HOLDS_NULL (structured) &&
      (content == NULL || !text_duplicates_structured (content, structured)))
    plugboard_cli_print_json (structured);
}

void
plugboard_cli_print_processed_notes (FILE               *stream,
                                     McpProcessedResult *processed,
                                     gboolean            with_files)
{
  const char * const *files = mcp_processed_result_get_files (processed);
  const char * const *notes = mcp_processed_result_get_notes (processed);

  for (guint i = 0; with_files && files != NULL && files[i] != NULL; i++)
    plugboard_cli_print_to (stream, _("saved: %s\n"), files[i]);
  for (guint i = 0; notes != NULL && notes[i] != NULL; i++)
    plugboard_cli_print_to (stream, _("note: %s\n"), notes[i]);
}

void
plugboard_cli_show_progress (PlugboardCli *cli,
                             double        progress,
                             double        total,
                             const char   *message)
{
  g_autoptr(GString) line = g_string_new ("[");
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append (line, g_ascii_formatd (buf, sizeof buf, "%g", progress));
  if (total >= 0)
    {
      g_string_append_c (line, '/');
      g_string_append (line, g_ascii_formatd (buf, sizeof buf, "%g", total));
    }
  g_string_append_c (line, ']');
  if (message != NULL && *message != '\0')
    {
      g_autofree char *text = plugboard_cli_one_line (message);

      g_string_append_c (line, ' ');
      g_string_append (line, text);
    }

  if (cli->stderr_is_tty)
    {
      fprintf (stderr, "\r\033[K%s", line->str);
      cli->progress_line_open = TRUE;
    }
  else
    {
      fprintf (stderr, "%s\n", line->str);
    }
  fflush (stderr);
}

/* "task ID: working — Gathering sources..." on stderr, once per change;
 * @last_line keeps the line shown last. */
void
plugboard_cli_print_task_status (PlugboardCli *cli,
                                 McpTask      *task,
                                 char        **last_line)
{
  const char *message = mcp_task_get_status_message (task);
  const char *status = mcp_task_get_status_string (task);
  g_autofree char *text = message ? plugboard_cli_one_line (message) : NULL;
  g_autofree char *line = NULL;

  line = g_strdup_printf (_("task %s: %s%s%s"), mcp_task_get_id (task), status ? status : "?",
                          text && *text ? " — " : "", text && *text ? text : "");
  if (g_strcmp0 (line, *last_line) == 0)
    return;

  g_free (*last_line);
  *last_line = g_steal_pointer (&line);
  fflush (stdout);
  plugboard_cli_end_progress_line (cli);
  g_printerr ("%s\n", *last_line);
}

/* What a stdio server said last on stderr, to say why it failed. */
void
plugboard_cli_print_stderr_tail (McpServerConnection *connection)
{
  g_auto(GStrv) lines = mcp_server_connection_dup_stderr_tail (connection);
  guint n = lines ? g_strv_length (lines) : 0;
  guint first = n > STDERR_TAIL_LINES ? n - STDERR_TAIL_LINES : 0;

  if (n == 0)
    return;
  fputs (ngettext ("  The server's last line on stderr:\n",
                   "  The server's last lines on stderr:\n", n - first), stderr);
  for (guint i = first; i < n; i++)
    g_printerr ("    %s\n", lines[i]);
}
