/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-url-elicitation"

#include "config.h"

#include <string.h>

#include "mcp-client.h"
#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-transport.h"
#include "test-loopback-transport.h"
#include "test-util.h"

/* Issue 20, finding 1: a URL-mode elicitation/create whose address the URL
 * policy refuses is declined by McpClient with the reason, before the
 * front end (and so the person, and a browser) ever sees it. The test is
 * the server, over a loopback transport. */

typedef struct
{
  TestLoopbackTransport *transport;
  guint                  handled;
  char                  *last_url;
} Loopback;

static void
elicitation_cb (McpClient  *client,
                const char *method,
                JsonObject *params,
                GTask      *reply,
                gpointer    user_data)
{
  Loopback *loop = user_data;
  JsonObject *result = json_object_new ();

  loop->handled++;
  g_free (loop->last_url);
  loop->last_url = g_strdup (mcp_json_optional_string (params, "url", "elicitation", NULL));
  json_object_set_string_member (result, "action", "accept");
  g_task_return_pointer (reply, json_node_init_object (json_node_alloc (), result),
                         (GDestroyNotify) json_node_unref);
  json_object_unref (result);
  g_object_unref (reply);
}

static gboolean
reply_sent (gpointer data)
{
  Loopback *loop = data;

  for (guint i = 0; i < loop->transport->sent->len; i++)
    {
      McpMessage *message = g_ptr_array_index (loop->transport->sent, i);
      McpMessageKind kind = mcp_message_get_kind (message);

      if (kind == MCP_MESSAGE_RESULT || kind == MCP_MESSAGE_ERROR)
        {
          JsonNode *id = mcp_message_get_id (message);

          if (id != NULL && JSON_NODE_HOLDS_VALUE (id) && json_node_get_value_type (id) == G_TYPE_STRING &&
              g_str_has_prefix (json_node_get_string (id), "elicit-"))
            return TRUE;
        }
    }
  return FALSE;
}

/* The client's answer to the server's elicitation/create for @url. */
static McpMessage *
ask (Loopback   *loop,
     const char *url)
{
  g_autoptr(JsonObject) params = json_object_new ();
  g_autoptr(JsonNode) id = json_node_new (JSON_NODE_VALUE);
  g_autoptr(JsonNode) params_node = NULL;
  g_autoptr(McpMessage) request = NULL;

  g_ptr_array_set_size (loop->transport->sent, 0);
  json_object_set_string_member (params, "mode", "url");
  json_object_set_string_member (params, "elicitationId", "e-1");
  json_object_set_string_member (params, "message", "Connect your account");
  json_object_set_string_member (params, "url", url);
  json_node_set_string (id, "elicit-1");
  params_node = json_node_init_object (json_node_alloc (), params);
  request = mcp_message_new_request (id, "elicitation/create", params_node);
  mcp_transport_emit_message (MCP_TRANSPORT (loop->transport), request);
  test_iterate_until (reply_sent, loop, "the answer to elicitation/create");

  for (guint i = 0; i < loop->transport->sent->len; i++)
    {
      McpMessage *message = g_ptr_array_index (loop->transport->sent, i);

      if (mcp_message_get_kind (message) == MCP_MESSAGE_RESULT ||
          mcp_message_get_kind (message) == MCP_MESSAGE_ERROR)
        return g_object_ref (message);
    }
  g_assert_not_reached ();
}

static McpClient *
connect_loopback (Loopback *loop)
{
  g_autoptr(McpTransport) transport = MCP_TRANSPORT (test_loopback_transport_new (FALSE));
  g_autoptr(McpClient) client = mcp_client_new (transport);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) init = NULL;
  g_autoptr(McpMessage) answer = NULL;
  const char *init_text = "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                          "\"serverInfo\":{\"name\":\"asker\",\"version\":\"1\"}}";
  McpMessage *initialize = NULL;

  loop->transport = TEST_LOOPBACK_TRANSPORT (transport);
  mcp_client_set_era_hint (client, MCP_PROTOCOL_ERA_LEGACY);
  mcp_client_set_request_handler (client, "elicitation/create", elicitation_cb, loop, NULL);
  mcp_client_connect_async (client, NULL, test_result_cb, &result);
  while (initialize == NULL)
    {
      g_main_context_iteration (NULL, TRUE);
      for (guint i = 0; i < loop->transport->sent->len && initialize == NULL; i++)
        if (mcp_message_get_kind (g_ptr_array_index (loop->transport->sent, i)) == MCP_MESSAGE_REQUEST)
          initialize = g_ptr_array_index (loop->transport->sent, i);
    }
  g_assert_cmpstr (mcp_message_get_method (initialize), ==, "initialize");
  init = mcp_json_parse (init_text, strlen (init_text), &error);
  g_assert_no_error (error);
  answer = mcp_message_new_result (mcp_message_get_id (initialize), init);
  mcp_transport_emit_message (MCP_TRANSPORT (loop->transport), answer);
  g_assert_true (mcp_client_connect_finish (client, test_wait_result (&result, "connecting"), &error));
  g_assert_no_error (error);
  return g_steal_pointer (&client);
}

static void
test_refused_urls_declined (void)
{
  const struct {
    const char *url;
    const char *says;
  } cases[] = {
    { "javascript:alert(document.cookie)", "“javascript:” address" },
    { "file:///etc/passwd", "“file:” address" },
    { "smb://evil.example/share", "“smb:” address" },
    { "ssh://evil.example", "“ssh:” address" },
    { "connect?state=1", "not a complete address" },
    { "http://evil.example/connect", "unencrypted http" },
    { "--renderer-cmd-prefix=touch", "begins with “-”" },
    { "https://evil.example/\x1b[2K", "control character" },
    { "https://alice:hunter2@evil.example/", "user name or password" },
  };
  Loopback loop = { 0 };
  g_autoptr(McpClient) client = connect_loopback (&loop);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(McpMessage) reply = ask (&loop, cases[i].url);
      const char *message;

      g_assert_cmpint (mcp_message_get_kind (reply), ==, MCP_MESSAGE_ERROR);
      g_assert_cmpint (mcp_message_get_error_code (reply), ==, MCP_JSONRPC_ERROR_INVALID_PARAMS);
      message = mcp_message_get_error_message (reply);
      g_test_message ("%s", message);
      g_assert_nonnull (strstr (message, "Plugboard will not open"));
      g_assert_nonnull (strstr (message, cases[i].says));
      g_assert_null (strstr (message, "hunter2"));
      g_assert_cmpuint (loop.handled, ==, 0);
    }

  /* An address the policy lets through reaches the front end. */
  {
    g_autoptr(McpMessage) reply = ask (&loop, "https://accounts.example.com/connect?state=1");

    g_assert_cmpint (mcp_message_get_kind (reply), ==, MCP_MESSAGE_RESULT);
    g_assert_cmpuint (loop.handled, ==, 1);
    g_assert_cmpstr (loop.last_url, ==, "https://accounts.example.com/connect?state=1");
  }

  g_free (loop.last_url);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/client/url-elicitation/refused-urls-declined", test_refused_urls_declined);

  return g_test_run ();
}
