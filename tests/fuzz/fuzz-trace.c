/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-trace"

#include "config.h"

#include "fuzz.h"

#include <string.h>

#include "mcp-trace.h"

/* The trace (issue 24) on what servers and files give it: a body or a
 * message of any bytes is masked into valid UTF-8, with the values of
 * the secret members it names gone, and the JSON Lines of what was
 * recorded read back to the same records; any file given to
 * `trace show` is read or refused, never a crash. */

#define SECRET "s3cr3t-VALUE"

static void
fail (const char *what,
      const char *text)
{
  g_printerr ("fuzz-trace: %s: %.300s\n", what, text != NULL ? text : "(null)");
  abort ();
}

static void
check_text (const char *what,
            const char *text)
{
  if (text != NULL && !g_utf8_validate (text, -1, NULL))
    fail (what, "not UTF-8");
  if (text != NULL && strstr (text, SECRET) != NULL)
    fail (what, text);
}

/* Each record written, read back and written again: the same line. */
static void
check_round_trip (McpTrace *trace)
{
  g_autoptr(GString) first = g_string_new (NULL);
  g_autoptr(GString) second = g_string_new (NULL);
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GPtrArray) servers = NULL;
  g_autoptr(GError) error = NULL;

  mcp_trace_append_jsonl (trace, "srv", first);
  if (!g_utf8_validate (first->str, first->len, NULL))
    fail ("JSON Lines that are not UTF-8", first->str);
  check_text ("a secret in the JSON Lines", first->str);
  entries = mcp_trace_read_jsonl (first->str, first->len, &servers, &error);
  if (entries == NULL)
    fail ("JSON Lines that do not read back", error->message);
  for (guint i = 0; i < entries->len; i++)
    {
      mcp_trace_entry_append_json (g_ptr_array_index (entries, i), g_ptr_array_index (servers, i), second);
      g_string_append_c (second, '\n');
    }
  if (!g_str_equal (first->str, second->str))
    fail ("records that change when read back", second->str);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(McpTrace) trace = mcp_trace_new (MCP_TRACE_MIN_MAX_BYTES);
  const char *secrets[] = { SECRET, NULL };
  g_autofree char *text = NULL;
  g_autoptr(GPtrArray) messages = NULL;
  g_autoptr(GPtrArray) read = NULL;

  fuzz_abort_on_warnings ();
  mcp_trace_set_secrets (trace, secrets);

  /* As a file given to trace show. */
  read = mcp_trace_read_jsonl ((const char *) data, size, NULL, NULL);
  for (guint i = 0; read != NULL && i < read->len; i++)
    {
      g_autofree char *summary = mcp_trace_entry_dup_summary (g_ptr_array_index (read, i));
      g_autofree char *curl = mcp_trace_entry_dup_curl (g_ptr_array_index (read, i), "http://x/");
      g_autoptr(GString) line = g_string_new (NULL);

      mcp_trace_entry_append_json (g_ptr_array_index (read, i), NULL, line);
    }

  /* As what a server sent: a message, a line that is not one, stderr. */
  text = g_strndup ((const char *) data, size);
  messages = mcp_message_parse ((const char *) data, size, NULL);
  if (messages != NULL && messages->len == 1)
    {
      McpTraceEntry *entry = mcp_trace_record_message (trace, MCP_TRACE_DIRECTION_IN,
                                                       g_ptr_array_index (messages, 0),
                                                       (const char *) data, size);

      check_text ("a message", mcp_trace_entry_get_text (entry));
    }
  else
    mcp_trace_record_invalid (trace, (const char *) data, size, NULL);
  mcp_trace_record_stderr (trace, text);
  mcp_trace_record_event (trace, "error", text, NULL, NULL);
  mcp_trace_record_sse_event (trace, 0, "x", text, 5, (const char *) data, size);
  {
    g_autoptr(GPtrArray) entries = mcp_trace_dup_entries (trace);

    for (guint i = 0; i < entries->len; i++)
      {
        g_autofree char *summary = mcp_trace_entry_dup_summary (g_ptr_array_index (entries, i));

        if (!g_utf8_validate (summary, -1, NULL))
          fail ("a summary that is not UTF-8", summary);
        check_text ("an entry's text", mcp_trace_entry_get_text (g_ptr_array_index (entries, i)));
      }
  }

  /* As an HTTP body: a form and JSON. */
  {
    g_autoptr(SoupMessage) msg = soup_message_new ("POST", "http://127.0.0.1/token?code=" SECRET "&state=a");
    McpTraceEntry *form = mcp_trace_record_http (trace, msg, (const char *) data, size,
                                                 "application/x-www-form-urlencoded");
    McpTraceEntry *json;

    check_text ("a form", mcp_trace_entry_get_request_body (form));
    check_text ("a URL", mcp_trace_entry_get_url (form));
    mcp_trace_http_got_body (trace, form, (const char *) data, size);
    json = mcp_trace_lookup_http (trace, msg);
    if (json != form)
      fail ("an exchange that is not found by its message", NULL);
  }

  check_round_trip (trace);
  return 0;
}
