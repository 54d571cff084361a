/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-list-bytes"

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "mcp-client.h"
#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-transport.h"
#include "test-loopback-transport.h"
#include "test-util.h"

/* Issue 20: a listing is bounded in bytes across its pages, not only in
 * pages. The test is the server, over a loopback transport: every page of
 * tools/list (prompts/list, resources/list, resources/templates/list,
 * tasks/list) is big and names a next cursor, for ever. The listing must
 * fail with MCP_ERROR_MESSAGE_TOO_LARGE after about 64 MiB of pages,
 * naming the server and the list, with a bounded peak memory; unbounded,
 * it read 10,000 pages (1.65 GB with 100 tools a page). */

#define DESCRIPTION_BYTES 10240

typedef struct
{
  TestLoopbackTransport *transport;
  guint                  seen;
} Loopback;

static gboolean
request_waiting (gpointer data)
{
  Loopback *loop = data;

  return test_loopback_transport_request_sent (loop->transport, loop->seen);
}

typedef struct
{
  Loopback      *loop;
  GAsyncResult **result;
} Waiting;

static gboolean
request_or_result (gpointer data)
{
  Waiting *waiting = data;

  return *waiting->result != NULL || request_waiting (waiting->loop);
}

/* The next request: its method must be @method. */
static McpMessage *
next_request (Loopback   *loop,
              const char *method)
{
  test_iterate_until (request_waiting, loop, method);
  for (;;)
    {
      McpMessage *candidate = g_ptr_array_index (loop->transport->sent, loop->seen++);

      if (mcp_message_get_kind (candidate) == MCP_MESSAGE_REQUEST)
        {
          g_assert_cmpstr (mcp_message_get_method (candidate), ==, method);
          return candidate;
        }
    }
}

static void
answer (Loopback   *loop,
        McpMessage *request,
        JsonObject *result)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), result);
  g_autoptr(McpMessage) message = mcp_message_new_result (mcp_message_get_id (request), node);

  mcp_transport_emit_message (MCP_TRANSPORT (loop->transport), message);
}

static McpClient *
connect_loopback (Loopback *loop)
{
  g_autoptr(McpTransport) transport = MCP_TRANSPORT (test_loopback_transport_new (FALSE));
  g_autoptr(McpClient) client = mcp_client_new (transport);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  const char *init = "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{},\"prompts\":{},"
                     "\"resources\":{},\"tasks\":{\"list\":{}}},\"serverInfo\":{\"name\":\"endless\",\"version\":\"1\"}}";

  loop->transport = TEST_LOOPBACK_TRANSPORT (transport);
  loop->seen = 0;
  mcp_client_set_era_hint (client, MCP_PROTOCOL_ERA_LEGACY);
  mcp_client_connect_async (client, NULL, test_result_cb, &result);
  node = mcp_json_parse (init, strlen (init), &error);
  g_assert_no_error (error);
  answer (loop, next_request (loop, "initialize"), json_node_get_object (node));
  g_assert_true (mcp_client_connect_finish (client, test_wait_result (&result, "connecting"), &error));
  g_assert_no_error (error);
  return g_steal_pointer (&client);
}

/* The peak resident memory of this process, in bytes. */
static guint64
peak_rss (void)
{
  g_autofree char *status = NULL;
  const char *line;

  g_assert_true (g_file_get_contents ("/proc/self/status", &status, NULL, NULL));
  line = strstr (status, "VmHWM:");
  g_assert_nonnull (line);
  return g_ascii_strtoull (line + strlen ("VmHWM:"), NULL, 10) * 1024;
}

typedef struct
{
  const char *name;
  const char *method;
  const char *member;
  const char *what;     /* in the error */
  guint       per_page;
  void      (*start)  (McpClient *, GCancellable *, GAsyncReadyCallback, gpointer);
  GPtrArray *(*finish) (McpClient *, GAsyncResult *, GError **);
} Listing;

static JsonObject *
make_item (const Listing *listing,
           guint          page,
           guint          i,
           const char    *description)
{
  JsonObject *item = json_object_new ();
  g_autofree char *name = g_strdup_printf ("%s-%u-%u", listing->name, page, i);

  if (g_str_equal (listing->member, "tasks"))
    {
      json_object_set_string_member (item, "taskId", name);
      json_object_set_string_member (item, "status", "working");
      json_object_set_string_member (item, "createdAt", "2026-01-01T00:00:00Z");
      json_object_set_string_member (item, "lastUpdatedAt", "2026-01-01T00:00:00Z");
      json_object_set_int_member (item, "ttl", 60000);
      json_object_set_string_member (item, "statusMessage", description);
      return item;
    }

  json_object_set_string_member (item, "name", name);
  json_object_set_string_member (item, "description", description);
  if (g_str_equal (listing->member, "tools"))
    {
      JsonObject *schema = json_object_new ();

      json_object_set_string_member (schema, "type", "object");
      json_object_set_object_member (item, "inputSchema", schema);
    }
  else if (g_str_equal (listing->member, "resources"))
    {
      g_autofree char *uri = g_strdup_printf ("test://r/%u/%u", page, i);

      json_object_set_string_member (item, "uri", uri);
    }
  else if (g_str_equal (listing->member, "resourceTemplates"))
    {
      g_autofree char *uri = g_strdup_printf ("test://t/%u/%u/{x}", page, i);

      json_object_set_string_member (item, "uriTemplate", uri);
    }
  return item;
}

static void
check_endless (const Listing *listing)
{
  Loopback loop = { 0 };
  g_autoptr(McpClient) client = connect_loopback (&loop);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *description = g_strnfill (DESCRIPTION_BYTES, 'd');
  guint64 rss_before = peak_rss ();
  guint64 page_bytes = 0;
  guint pages = 0;
  g_autofree char *limit = g_strdup_printf ("%u MiB", MCP_CLIENT_MAX_LIST_BYTES / (1024 * 1024));

  listing->start (client, NULL, test_result_cb, &result);

  while (result == NULL)
    {
      Waiting waiting = { &loop, &result };
      McpMessage *request;
      g_autoptr(JsonObject) page = json_object_new ();
      g_autoptr(JsonNode) whole = NULL;
      JsonArray *array;
      g_autofree char *cursor = NULL;

      /* the request for the next page, or the end of the listing */
      test_iterate_until (request_or_result, &waiting, "a page or the end");
      if (result != NULL)
        break;
      request = next_request (&loop, listing->method);

      array = json_array_new ();
      for (guint i = 0; i < listing->per_page; i++)
        json_array_add_object_element (array, make_item (listing, pages, i, description));
      json_object_set_array_member (page, listing->member, array);
      cursor = g_strdup_printf ("page-%u", pages + 1);
      json_object_set_string_member (page, "nextCursor", cursor);
      whole = json_node_init_object (json_node_alloc (), page);
      if (pages == 0)
        {
          g_autoptr(GString) text = g_string_new (NULL);

          /* the estimate the client counts is near the real size */
          mcp_json_append (text, whole);
          page_bytes = text->len;
          g_assert_cmpuint (mcp_json_estimate_size (whole), >=, page_bytes * 9 / 10);
          g_assert_cmpuint (mcp_json_estimate_size (whole), <=, page_bytes * 11 / 10);
        }
      answer (&loop, request, page);
      pages++;
      g_assert_cmpuint (pages, <, 10000);
    }

  items = listing->finish (client, result, &error);
  g_test_message ("%s: %u pages of %" G_GUINT64_FORMAT " bytes; peak memory grew by %" G_GUINT64_FORMAT " MiB: %s",
                  listing->method, pages, page_bytes, (peak_rss () - rss_before) / (1024 * 1024),
                  error != NULL ? error->message : "(no error)");
  g_assert_null (items);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "“endless”"));
  g_assert_nonnull (strstr (error->message, listing->what));
  g_assert_nonnull (strstr (error->message, limit));
  g_assert_true (g_str_has_prefix (error->message, "“endless” sent more than"));

  /* stopped at about the byte limit, not at the page limit */
  g_assert_cmpuint ((guint64) pages * page_bytes, >=, (guint64) MCP_CLIENT_MAX_LIST_BYTES * 9 / 10);
  g_assert_cmpuint ((guint64) (pages - 1) * page_bytes, <=, (guint64) MCP_CLIENT_MAX_LIST_BYTES * 11 / 10);
  /* what is kept meanwhile is about the listing's bytes, never GBs */
  g_assert_cmpuint (peak_rss () - rss_before, <, (guint64) 6 * MCP_CLIENT_MAX_LIST_BYTES);
}

static const Listing listings[] = {
  { "tool", "tools/list", "tools", "tools", 100,
    mcp_client_list_tools_async, mcp_client_list_tools_finish },
  { "prompt", "prompts/list", "prompts", "prompts", 400,
    mcp_client_list_prompts_async, mcp_client_list_prompts_finish },
  { "resource", "resources/list", "resources", "resources", 400,
    mcp_client_list_resources_async, mcp_client_list_resources_finish },
  { "template", "resources/templates/list", "resourceTemplates", "resource templates", 400,
    mcp_client_list_resource_templates_async, mcp_client_list_resource_templates_finish },
  { "task", "tasks/list", "tasks", "tasks", 400,
    mcp_client_list_tasks_async, mcp_client_list_tasks_finish },
};

static void
test_endless (gconstpointer data)
{
  check_endless (data);
}

/* A listing under the limit is whole: 20 pages of 1 MiB. */
static void
test_under_limit (void)
{
  Loopback loop = { 0 };
  g_autoptr(McpClient) client = connect_loopback (&loop);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) tools = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *description = g_strnfill (DESCRIPTION_BYTES, 'd');

  mcp_client_list_tools_async (client, NULL, test_result_cb, &result);
  for (guint p = 0; p < 20; p++)
    {
      McpMessage *request = next_request (&loop, "tools/list");
      g_autoptr(JsonObject) page = json_object_new ();
      JsonArray *array = json_array_new ();

      for (guint i = 0; i < 100; i++)
        json_array_add_object_element (array, make_item (&listings[0], p, i, description));
      json_object_set_array_member (page, "tools", array);
      if (p < 19)
        {
          g_autofree char *cursor = g_strdup_printf ("page-%u", p + 1);

          json_object_set_string_member (page, "nextCursor", cursor);
        }
      answer (&loop, request, page);
    }
  tools = mcp_client_list_tools_finish (client, test_wait_result (&result, "the listing"), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tools->len, ==, 2000);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (listings); i++)
    {
      g_autofree char *path = g_strdup_printf ("/client/list-bytes/endless-%s", listings[i].name);

      g_test_add_data_func (path, &listings[i], test_endless);
    }
  g_test_add_func ("/client/list-bytes/under-limit", test_under_limit);

  return g_test_run ();
}
