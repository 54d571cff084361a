/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-stdio-harness"

#include "config.h"

#include "test-stdio-harness.h"

#include <signal.h>
#include <string.h>

#include "mcp-stdio-transport.h"
#include "test-util.h"

static void
on_message (McpTransport     *transport,
            McpMessage       *message,
            TestStdioHarness *h)
{
  g_ptr_array_add (h->messages, g_object_ref (message));
}

static void
on_invalid_line (McpTransport     *transport,
                 const char       *line,
                 const GError     *error,
                 TestStdioHarness *h)
{
  g_assert_nonnull (error);
  g_ptr_array_add (h->invalid_lines, g_strdup (line));
}

static void
on_stderr_line (McpTransport     *transport,
                const char       *line,
                TestStdioHarness *h)
{
  g_ptr_array_add (h->stderr_lines, g_strdup (line));
}

static void
on_closed (McpTransport     *transport,
           const GError     *reason,
           TestStdioHarness *h)
{
  g_assert_false (h->closed);
  h->closed = TRUE;
  if (reason != NULL)
    h->reason = g_error_copy (reason);
}

static void
on_exited (McpTransport     *transport,
           int               wait_status,
           TestStdioHarness *h)
{
  h->exited = TRUE;
  h->wait_status = wait_status;
}

TestStdioHarness *
test_stdio_harness_new (const char * const *argv,
                        const char * const *env,
                        const char         *cwd)
{
  TestStdioHarness *h = g_new0 (TestStdioHarness, 1);

  h->transport = mcp_stdio_transport_new (argv, env, cwd);
  h->messages = g_ptr_array_new_with_free_func (g_object_unref);
  h->invalid_lines = g_ptr_array_new_with_free_func (g_free);
  h->stderr_lines = g_ptr_array_new_with_free_func (g_free);
  g_signal_connect (h->transport, "message", G_CALLBACK (on_message), h);
  g_signal_connect (h->transport, "invalid-line", G_CALLBACK (on_invalid_line), h);
  g_signal_connect (h->transport, "stderr-line", G_CALLBACK (on_stderr_line), h);
  g_signal_connect (h->transport, "closed", G_CALLBACK (on_closed), h);
  g_signal_connect (h->transport, "exited", G_CALLBACK (on_exited), h);
  return h;
}

void
test_stdio_harness_free (TestStdioHarness *h)
{
  g_signal_handlers_disconnect_by_data (h->transport, h);
  g_clear_object (&h->transport);
  g_ptr_array_unref (h->messages);
  g_ptr_array_unref (h->invalid_lines);
  g_ptr_array_unref (h->stderr_lines);
  g_clear_error (&h->reason);
  g_free (h);
}

gboolean
test_stdio_harness_connect (TestStdioHarness  *h,
                            GError           **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_transport_connect_async (h->transport, NULL, test_result_cb, &result);
  return mcp_transport_connect_finish (h->transport,
                                       test_wait_result (&result, "the transport to connect"),
                                       error);
}

void
test_stdio_harness_close (TestStdioHarness *h)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  mcp_transport_close_async (h->transport, NULL, test_result_cb, &result);
  g_assert_true (mcp_transport_close_finish (h->transport,
                                             test_wait_result (&result, "the transport to close"),
                                             &error));
  g_assert_no_error (error);
  g_assert_true (h->closed);
  g_assert_true (mcp_transport_is_closed (h->transport));
}

void
test_stdio_harness_send_request (TestStdioHarness *h,
                                 gint64            id,
                                 const char       *method,
                                 const char       *params_json)
{
  g_autoptr(JsonNode) id_node = mcp_message_id_new_int (id);
  g_autoptr(JsonNode) params = NULL;
  g_autoptr(McpMessage) message = NULL;
  g_autoptr(GError) error = NULL;

  if (params_json != NULL)
    {
      params = json_from_string (params_json, &error);
      g_assert_no_error (error);
    }
  message = mcp_message_new_request (id_node, method, params);
  g_assert_true (mcp_transport_send (h->transport, message, &error));
  g_assert_no_error (error);
}

const char *
test_message_result_text (McpMessage *message)
{
  JsonNode *result = mcp_message_get_result (message);
  JsonArray *content;

  g_assert_nonnull (result);
  content = json_object_get_array_member (json_node_get_object (result), "content");
  g_assert_cmpuint (json_array_get_length (content), >=, 1);
  return json_object_get_string_member (json_array_get_object_element (content, 0), "text");
}

gboolean
test_pid_is_gone (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree char *contents = NULL;
  const char *paren;

  if (kill (pid, 0) != 0)
    return TRUE;
  /* A zombie waiting for init to reap it is gone for our purpose. */
  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return TRUE;
  paren = strrchr (contents, ')');
  return paren != NULL && (paren[2] == 'Z' || paren[2] == 'X');
}

gboolean
test_lines_contain (GPtrArray  *lines,
                    const char *needle)
{
  for (guint i = 0; i < lines->len; i++)
    if (strstr (g_ptr_array_index (lines, i), needle) != NULL)
      return TRUE;
  return FALSE;
}
