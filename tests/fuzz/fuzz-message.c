/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-message"

#include "config.h"

#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "mcp-error.h"
#include "mcp-message.h"

/* JSON-RPC messages: mcp_message_parse() on one JSON text from a server (a
 * message or a batch). Checks:
 * - a refusal has a message, and gives no messages;
 * - every message read is of one kind with what that kind needs (a method
 *   for a request or notification, an id for a request, result or error);
 * - it writes as one line of UTF-8 JSON that parses again to one message
 *   of the same kind, method and id, and writes the same way again;
 * - an error message makes a GError with a message.
 * Warnings and criticals are fatal. */

static void
fail (const char *what)
{
  g_printerr ("fuzz-message: %s\n", what);
  abort ();
}

static void
check_message (McpMessage *message)
{
  McpMessageKind kind = mcp_message_get_kind (message);
  g_autofree char *text = NULL;
  g_autofree char *text_again = NULL;
  g_autoptr(GPtrArray) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  McpMessage *other;
  gsize length = 0;
  gsize length_again = 0;
  gint64 int_id;

  switch (kind)
    {
    case MCP_MESSAGE_REQUEST:
      if (mcp_message_get_method (message) == NULL || mcp_message_get_id (message) == NULL)
        fail ("a request without a method or an id");
      break;
    case MCP_MESSAGE_NOTIFICATION:
      if (mcp_message_get_method (message) == NULL || mcp_message_get_id (message) != NULL)
        fail ("a notification without a method, or with an id");
      break;
    case MCP_MESSAGE_RESULT:
      if (mcp_message_get_result (message) == NULL)
        fail ("a result without a result");
      break;
    case MCP_MESSAGE_ERROR:
      {
        g_autoptr(GError) peer = mcp_message_to_gerror (message);

        if (peer == NULL || peer->message == NULL)
          fail ("an error message that makes no GError");
        if (mcp_message_get_error_message (message) == NULL)
          fail ("an error without a message");
      }
      break;
    default:
      fail ("a message of no kind");
    }

  (void) mcp_message_get_int_id (message, &int_id);
  (void) mcp_message_get_params_object (message);
  (void) mcp_message_get_error_code (message);
  (void) mcp_message_get_error_data (message);

  text = mcp_message_to_string (message, &length);
  if (text == NULL || strlen (text) != length)
    fail ("a message written with a wrong length");
  if (memchr (text, '\n', length) != NULL)
    fail ("a message written on more than one line");
  if (!g_utf8_validate (text, (gssize) length, NULL))
    fail ("a message written as something that is not UTF-8");

  again = mcp_message_parse (text, (gssize) length, &error);
  if (again == NULL)
    {
      g_printerr ("%s\n%s\n", text, error->message);
      fail ("a message written as something that does not parse");
    }
  if (again->len != 1)
    fail ("a message written as more than one");
  other = g_ptr_array_index (again, 0);
  if (mcp_message_get_kind (other) != kind ||
      g_strcmp0 (mcp_message_get_method (other), mcp_message_get_method (message)) != 0)
    fail ("a message that reads back as another kind or method");
  if ((mcp_message_get_id (other) == NULL) != (mcp_message_get_id (message) == NULL) ||
      (mcp_message_get_id (message) != NULL &&
       !json_node_equal (mcp_message_get_id (other), mcp_message_get_id (message))))
    fail ("a message that reads back with another id");

  text_again = mcp_message_to_string (other, &length_again);
  if (length != length_again || memcmp (text, text_again, length) != 0)
    {
      g_printerr ("%s\n%s\n", text, text_again);
      fail ("a message written differently the second time");
    }

  node = mcp_message_to_node (message);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    fail ("a message that is not an object");
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GPtrArray) messages = NULL;
  g_autoptr(GError) error = NULL;

  fuzz_abort_on_warnings ();

  messages = mcp_message_parse ((const char *) data, (gssize) size, &error);
  if (messages == NULL)
    {
      g_autoptr(JsonNode) id = NULL;

      if (error == NULL || error->message == NULL || error->message[0] == '\0')
        fail ("a refusal without a message");
      /* What a refused line may still tell: an integer or string id. */
      id = mcp_message_recover_id ((const char *) data, size);
      if (id != NULL && (JSON_NODE_TYPE (id) != JSON_NODE_VALUE ||
                         (json_node_get_value_type (id) != G_TYPE_INT64 &&
                          json_node_get_value_type (id) != G_TYPE_STRING)))
        fail ("a recovered id that is neither an integer nor a string");
      if (id != NULL && json_node_get_value_type (id) == G_TYPE_STRING &&
          !g_utf8_validate (json_node_get_string (id), -1, NULL))
        fail ("a recovered id that is not UTF-8");
      return 0;
    }
  if (error != NULL)
    fail ("messages and an error");

  for (guint i = 0; i < messages->len; i++)
    check_message (g_ptr_array_index (messages, i));

  return 0;
}
