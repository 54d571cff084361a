/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-app-bridge"

#include "config.h"

#include <string.h>

#include "mcp-app-bridge.h"
#include "mcp-app-bridge-private.h"
#include "mcp-app-note.h"
#include "mcp-interaction.h"
#include "mcp-project.h"
#include "mcp-trace.h"
#include "mcp-ui-resource.h"
#include "test-dirs.h"
#include "test-engine.h"
#include "test-run.h"
#include "test-util.h"

/* McpAppBridge against a scripted page: the test hands it the strings a
 * page would post and reads what it posts back, with the stdio fixture
 * server's MCP Apps tools (--apps) behind it in a real McpProject, and a
 * person (TestPerson) who answers as each test says. */

/* ---- the person ------------------------------------------------------------ */

#define TEST_TYPE_PERSON (test_person_get_type ())
G_DECLARE_FINAL_TYPE (TestPerson, test_person, TEST, PERSON, McpInteraction)

struct _TestPerson
{
  McpInteraction  parent_instance;

  gboolean        yes;         /* the answer to asks, links and files */
  gboolean        hold;        /* keep link tasks unanswered in @held */
  guint           n_asks;
  GPtrArray      *links;       /* "url host", in order */
  GPtrArray      *files;       /* "name|type|contents", in order */
  GPtrArray      *held;        /* GTask */
};

G_DEFINE_FINAL_TYPE (TestPerson, test_person, MCP_TYPE_INTERACTION)

static void
test_person_ask_tool_async (McpInteraction      *interaction,
                            McpPoolTool         *tool,
                            JsonObject          *arguments,
                            const char          *rule,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  TestPerson *self = TEST_PERSON (interaction);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  self->n_asks++;
  g_task_return_boolean (task, self->yes);
}

static gboolean
test_person_finish (McpInteraction  *interaction,
                    GAsyncResult    *result,
                    GError         **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
test_person_open_link_async (McpInteraction      *interaction,
                             const char          *server_name,
                             const char          *url,
                             const char          *host,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  TestPerson *self = TEST_PERSON (interaction);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_assert_cmpstr (server_name, ==, "fix");
  g_ptr_array_add (self->links, g_strdup_printf ("%s %s", url, host));
  if (self->hold)
    g_ptr_array_add (self->held, g_steal_pointer (&task));
  else
    g_task_return_boolean (task, self->yes);
}

static void
test_person_save_file_async (McpInteraction      *interaction,
                             const char          *server_name,
                             const char          *name,
                             const char          *content_type,
                             GBytes              *contents,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  TestPerson *self = TEST_PERSON (interaction);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  gsize size;
  const char *data = g_bytes_get_data (contents, &size);

  g_ptr_array_add (self->files, g_strdup_printf ("%s|%s|%.*s", name, content_type ? content_type : "",
                                                 (int) size, data));
  g_task_return_boolean (task, self->yes);
}

static void
test_person_finalize (GObject *object)
{
  TestPerson *self = TEST_PERSON (object);

  g_ptr_array_unref (self->links);
  g_ptr_array_unref (self->files);
  g_ptr_array_unref (self->held);
  G_OBJECT_CLASS (test_person_parent_class)->finalize (object);
}

static void
test_person_class_init (TestPersonClass *klass)
{
  McpInteractionClass *interaction_class = MCP_INTERACTION_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = test_person_finalize;
  interaction_class->ask_tool_async = test_person_ask_tool_async;
  interaction_class->ask_tool_finish = test_person_finish;
  interaction_class->open_link_async = test_person_open_link_async;
  interaction_class->open_link_finish = test_person_finish;
  interaction_class->save_file_async = test_person_save_file_async;
  interaction_class->save_file_finish = test_person_finish;
}

static void
test_person_init (TestPerson *self)
{
  self->yes = TRUE;
  self->links = g_ptr_array_new_with_free_func (g_free);
  self->files = g_ptr_array_new_with_free_func (g_free);
  self->held = g_ptr_array_new_with_free_func (g_object_unref);
}

/* ---- the fixture ----------------------------------------------------------- */

typedef struct
{
  TestDirs       dirs;
  McpTokenStore *store;
  McpProject    *project;
  TestPerson    *person;
  McpAppBridge  *bridge;
  GPtrArray     *posts;
  guint          n_teardown_requests;
} Fixture;

static void
post_cb (McpAppBridge *bridge,
         const char   *text,
         Fixture      *f)
{
  g_ptr_array_add (f->posts, g_strdup (text));
}

static void
teardown_requested_cb (McpAppBridge *bridge,
                       Fixture      *f)
{
  f->n_teardown_requests++;
}

static McpUiResource *
fixture_resource (void)
{
  g_autoptr(JsonNode) result = NULL;
  g_autoptr(GError) error = NULL;
  McpUiResource *resource;

  result = json_from_string ("{\"contents\":[{\"uri\":\"ui://fixture/app.html\","
                             "\"mimeType\":\"text/html;profile=mcp-app\",\"text\":\"<p>app\","
                             "\"_meta\":{\"ui\":{\"csp\":{\"connectDomains\":[\"https://api.example.com\","
                             "\"'unsafe-eval'\"]},\"permissions\":{\"clipboardWrite\":{}}}}}]}", &error);
  g_assert_no_error (error);
  resource = mcp_ui_resource_new_from_read_result ("ui://fixture/app.html", result, NULL, &error);
  g_assert_no_error (error);
  return resource;
}

static McpPoolTool *
pool_tool (Fixture    *f,
           const char *qualified_name)
{
  McpPoolTool *tool = mcp_tool_pool_lookup (mcp_project_get_tool_pool (f->project), qualified_name);

  g_assert_nonnull (tool);
  return tool;
}

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *store_path = NULL;
  g_autofree char *cache_path = NULL;
  g_autofree char *user = NULL;
  g_autoptr(McpServerManager) manager = NULL;
  g_autoptr(McpUiResource) resource = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  test_dirs_init (&f->dirs, "app-bridge");
  g_assert_cmpint (g_mkdir_with_parents (f->dirs.user_dir, 0700), ==, 0);
  store_path = g_build_filename (f->dirs.root, "credentials.json", NULL);
  f->store = mcp_token_store_new ("file", store_path);

  /* "fix" has the app tools; "other" has "big", which "fix" lacks. */
  user = g_strdup_printf ("{\"mcpServers\": {"
                          "\"fix\": {\"command\": \"%s\", \"args\": [\"--apps\"]},"
                          "\"other\": {\"command\": \"%s\", \"args\": [\"--big\"]}},"
                          " \"permissions\": {\"deny\": [\"mcp__fix__app-only\"]}}",
                          test_fixture_server (), test_fixture_server ());
  test_write_file (f->dirs.user_file, user);

  cache_path = g_build_filename (f->dirs.root, "cache", "needs-auth.json", NULL);
  manager = g_object_new (MCP_TYPE_SERVER_MANAGER,
                          "token-store", f->store,
                          "needs-auth-cache-path", cache_path,
                          "connect-timeout", 10000,
                          NULL);
  f->project = mcp_project_new_with_manager (f->dirs.project_dir, f->dirs.user_dir, manager);
  mcp_project_load_async (f->project, NULL, test_result_cb, &result);
  test_wait_result (&result, "the project to load");
  g_assert_true (mcp_project_load_finish (f->project, result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);
  mcp_server_manager_wait_settled_async (manager, NULL, test_result_cb, &result);
  test_wait_result (&result, "the servers to settle");
  g_assert_true (mcp_server_manager_wait_settled_finish (manager, result, &error));
  g_assert_no_error (error);

  f->person = g_object_new (TEST_TYPE_PERSON, NULL);
  mcp_project_set_interaction (f->project, MCP_INTERACTION (f->person));

  resource = fixture_resource ();
  f->posts = g_ptr_array_new_with_free_func (g_free);
  f->bridge = mcp_app_bridge_new (f->project, pool_tool (f, "mcp__fix__app-echo"), resource);
  g_signal_connect (f->bridge, "post", G_CALLBACK (post_cb), f);
  g_signal_connect (f->bridge, "teardown-requested", G_CALLBACK (teardown_requested_cb), f);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  McpServerManager *manager = mcp_project_get_manager (f->project);
  g_autoptr(GAsyncResult) result = NULL;

  g_clear_object (&f->bridge);
  mcp_server_manager_close_async (manager, NULL, test_result_cb, &result);
  test_wait_result (&result, "the manager to close");
  g_assert_true (mcp_server_manager_close_finish (manager, result, NULL));
  g_clear_object (&f->person);
  g_clear_object (&f->project);
  g_clear_object (&f->store);
  g_clear_pointer (&f->posts, g_ptr_array_unref);
  test_dirs_clear (&f->dirs);
}

/* ---- the page -------------------------------------------------------------- */

static void
page_send (Fixture    *f,
           const char *text)
{
  mcp_app_bridge_receive (f->bridge, text, strlen (text));
}

static JsonObject *
post_object (Fixture *f,
             guint    index)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (index, <, f->posts->len);
  node = json_from_string (g_ptr_array_index (f->posts, index), &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (node), "jsonrpc"), ==, "2.0");
  return json_object_ref (json_node_get_object (node));
}

/* The posted response whose id is @id (JSON text: "7", "\"a\""), or NULL. */
static JsonObject *
find_response (Fixture    *f,
               const char *id)
{
  for (guint i = 0; i < f->posts->len; i++)
    {
      g_autoptr(JsonObject) object = post_object (f, i);
      g_autofree char *text = NULL;

      if (!json_object_has_member (object, "id") || json_object_has_member (object, "method"))
        continue;
      text = json_to_string (json_object_get_member (object, "id"), FALSE);
      if (g_str_equal (text, id))
        return g_steal_pointer (&object);
    }
  return NULL;
}

static gboolean
has_response (gpointer data)
{
  gpointer *args = data;
  g_autoptr(JsonObject) response = find_response (args[0], args[1]);

  return response != NULL;
}

/* Sends a request of the page and waits for its answer. */
static JsonObject *
page_request (Fixture    *f,
              const char *id,
              const char *method,
              const char *params)
{
  g_autofree char *text = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%s,\"method\":\"%s\",\"params\":%s}",
                                           id, method, params != NULL ? params : "{}");
  gpointer args[] = { f, (gpointer) id };

  page_send (f, text);
  test_iterate_until (has_response, args, method);
  return find_response (f, id);
}

static JsonObject *
result_of (JsonObject *response)
{
  g_assert_true (json_object_has_member (response, "result"));
  return json_object_get_object_member (response, "result");
}

static const char *
error_message (JsonObject *response,
               int         code)
{
  JsonObject *error;

  g_assert_true (json_object_has_member (response, "error"));
  error = json_object_get_object_member (response, "error");
  g_assert_cmpint (json_object_get_int_member (error, "code"), ==, code);
  return json_object_get_string_member (error, "message");
}

static void
page_initialize (Fixture    *f,
                 const char *modes)
{
  g_autofree char *params = g_strdup_printf ("{\"protocolVersion\":\"2026-01-26\","
                                             "\"appInfo\":{\"name\":\"page\",\"version\":\"1\"},"
                                             "\"appCapabilities\":{\"availableDisplayModes\":%s}}",
                                             modes != NULL ? modes : "[\"inline\"]");
  g_autoptr(JsonObject) response = page_request (f, "0", "ui/initialize", params);

  g_assert_nonnull (result_of (response));
  page_send (f, "{\"jsonrpc\":\"2.0\",\"method\":\"ui/notifications/initialized\"}");
  g_assert_true (mcp_app_bridge_get_initialized (f->bridge));
}

static guint
count_notes (Fixture        *f,
             McpAppNoteKind  kind)
{
  GListModel *notes = mcp_app_bridge_get_notes (f->bridge);
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (notes); i++)
    {
      g_autoptr(McpAppNote) note = g_list_model_get_item (notes, i);

      n += mcp_app_note_get_kind (note) == kind;
    }
  return n;
}

static McpAppNote *
last_note (Fixture *f)
{
  GListModel *notes = mcp_app_bridge_get_notes (f->bridge);
  guint n = g_list_model_get_n_items (notes);

  g_assert_cmpuint (n, >, 0);
  return g_list_model_get_item (notes, n - 1);
}

/* ---- the tests --------------------------------------------------------------- */

/* ui/initialize: the spec's result, the resource's validated CSP and
 * permissions; the call's input and result wait for initialized and go in
 * order; a context change sends only what changed. */
static void
test_initialize (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(JsonObject) arguments = json_object_new ();
  g_autoptr(JsonObject) tool_result = NULL;
  g_autoptr(JsonObject) context = json_object_new ();
  g_autoptr(JsonObject) response = NULL;
  g_autoptr(JsonObject) input = NULL;
  g_autoptr(JsonObject) output = NULL;
  g_autoptr(JsonObject) changed = NULL;
  g_autoptr(JsonNode) id = mcp_message_id_new_string ("call-1");
  g_autoptr(JsonNode) parsed = NULL;
  JsonObject *result, *caps, *sandbox, *host_context, *params;
  JsonArray *connect;

  json_object_set_string_member (arguments, "message", "hi");
  mcp_app_bridge_set_tool_input (f->bridge, arguments, id);
  parsed = json_from_string ("{\"content\":[{\"type\":\"text\",\"text\":\"app-echo: hi\"}]}", NULL);
  tool_result = json_object_ref (json_node_get_object (parsed));
  mcp_app_bridge_set_tool_result (f->bridge, tool_result);
  g_assert_cmpuint (f->posts->len, ==, 0);

  response = page_request (f, "0", "ui/initialize",
                           "{\"protocolVersion\":\"2026-01-26\",\"appInfo\":{\"name\":\"page\",\"version\":\"1\"},"
                           "\"appCapabilities\":{}}");
  result = result_of (response);
  g_assert_cmpstr (json_object_get_string_member (result, "protocolVersion"), ==, "2026-01-26");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (result, "hostInfo"), "name"),
                   ==, "plugboard");
  caps = json_object_get_object_member (result, "hostCapabilities");
  for (guint i = 0; i < 7; i++)
    g_assert_true (json_object_has_member (caps, (const char *[]) { "openLinks", "downloadFile", "serverTools",
                                                                    "serverResources", "logging", "message",
                                                                    "updateModelContext" }[i]));
  sandbox = json_object_get_object_member (caps, "sandbox");
  connect = json_object_get_array_member (json_object_get_object_member (sandbox, "csp"), "connectDomains");
  /* Only the valid origin: 'unsafe-eval' is no origin. */
  g_assert_cmpuint (json_array_get_length (connect), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (connect, 0), ==, "https://api.example.com");
  g_assert_true (json_object_has_member (json_object_get_object_member (sandbox, "permissions"), "clipboardWrite"));
  host_context = json_object_get_object_member (result, "hostContext");
  g_assert_cmpstr (json_object_get_string_member (host_context, "platform"), ==, "desktop");
  g_assert_cmpstr (json_object_get_string_member (host_context, "displayMode"), ==, "inline");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (
                     json_object_get_object_member (host_context, "toolInfo"), "tool"), "name"), ==, "app-echo");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (host_context, "toolInfo"), "id"),
                   ==, "call-1");

  /* Nothing more until the page says it is ready. */
  g_assert_cmpuint (f->posts->len, ==, 1);
  g_assert_false (mcp_app_bridge_get_initialized (f->bridge));
  page_send (f, "{\"jsonrpc\":\"2.0\",\"method\":\"ui/notifications/initialized\",\"params\":{}}");
  g_assert_true (mcp_app_bridge_get_initialized (f->bridge));
  g_assert_cmpuint (f->posts->len, ==, 3);
  input = post_object (f, 1);
  g_assert_cmpstr (json_object_get_string_member (input, "method"), ==, "ui/notifications/tool-input");
  params = json_object_get_object_member (input, "params");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (params, "arguments"), "message"),
                   ==, "hi");
  output = post_object (f, 2);
  g_assert_cmpstr (json_object_get_string_member (output, "method"), ==, "ui/notifications/tool-result");
  g_assert_true (json_object_has_member (json_object_get_object_member (output, "params"), "content"));

  /* Only what changed goes out; the same again sends nothing. */
  json_object_set_string_member (context, "theme", "dark");
  json_object_set_string_member (context, "platform", "desktop");
  mcp_app_bridge_update_host_context (f->bridge, context);
  g_assert_cmpuint (f->posts->len, ==, 4);
  changed = post_object (f, 3);
  g_assert_cmpstr (json_object_get_string_member (changed, "method"), ==, "ui/notifications/host-context-changed");
  params = json_object_get_object_member (changed, "params");
  g_assert_cmpuint (json_object_get_size (params), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (params, "theme"), ==, "dark");
  mcp_app_bridge_update_host_context (f->bridge, context);
  g_assert_cmpuint (f->posts->len, ==, 4);

  /* Cancelled goes too; ping answers {}. */
  mcp_app_bridge_set_tool_cancelled (f->bridge, "user");
  g_assert_cmpuint (f->posts->len, ==, 5);
  {
    g_autoptr(JsonObject) pong = page_request (f, "\"p\"", "ping", NULL);

    g_assert_cmpuint (json_object_get_size (result_of (pong)), ==, 0);
  }
}

/* tools/call: only app-visible tools of the bridge's own server, through
 * the permission evaluator and the person. */
static void
test_tools_call (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(JsonObject) allowed = NULL;
  g_autoptr(JsonObject) denied = NULL;
  g_autoptr(JsonObject) refused = NULL;
  g_autoptr(JsonObject) other = NULL;
  g_autoptr(JsonObject) hidden = NULL;
  g_autoptr(JsonObject) unknown = NULL;
  g_autoptr(JsonObject) bad = NULL;
  JsonArray *content;
  const char *message;

  page_initialize (f, NULL);

  /* A string id stays a string; the server's result as it sent it. */
  allowed = page_request (f, "\"call-a\"", "tools/call", "{\"name\":\"app-echo\",\"arguments\":{\"message\":\"hi\"}}");
  content = json_object_get_array_member (result_of (allowed), "content");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (content, 0), "text"),
                   ==, "app-echo: hi");
  g_assert_cmpuint (f->person->n_asks, ==, 0);

  denied = page_request (f, "11", "tools/call", "{\"name\":\"app-only\",\"arguments\":{}}");
  message = error_message (denied, -32000);
  g_assert_nonnull (strstr (message, "mcp__fix__app-only"));
  g_assert_nonnull (strstr (message, "denied by the permission rule"));
  g_assert_cmpuint (f->person->n_asks, ==, 0);

  /* Destructive: the person is asked, and says no. */
  f->person->yes = FALSE;
  refused = page_request (f, "12", "tools/call", "{\"name\":\"app-delete\"}");
  message = error_message (refused, -32000);
  g_assert_nonnull (strstr (message, "not allowed to run"));
  g_assert_cmpuint (f->person->n_asks, ==, 1);
  f->person->yes = TRUE;

  other = page_request (f, "13", "tools/call", "{\"name\":\"big\",\"arguments\":{\"bytes\":10}}");
  g_assert_nonnull (strstr (error_message (other, -32000), "not a tool of the server “fix”"));
  hidden = page_request (f, "14", "tools/call", "{\"name\":\"model-only\"}");
  g_assert_nonnull (strstr (error_message (hidden, -32000), "not visible to apps"));
  unknown = page_request (f, "15", "tools/call", "{\"name\":\"nope\"}");
  error_message (unknown, -32000);
  bad = page_request (f, "16", "tools/call", "{\"name\":\"app-echo\",\"arguments\":[1]}");
  error_message (bad, -32602);
  g_assert_cmpuint (f->person->n_asks, ==, 1);
  /* Three refused by the bridge, two by the permission. */
  g_assert_cmpuint (count_notes (f, MCP_APP_NOTE_BLOCKED), ==, 5);
}

/* resources/read: the same server, its result and its errors passed on. */
static void
test_resources_read (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(JsonObject) read = NULL;
  g_autoptr(JsonObject) missing = NULL;
  JsonArray *contents;

  page_initialize (f, NULL);
  read = page_request (f, "1", "resources/read", "{\"uri\":\"fixture://report.csv\"}");
  contents = json_object_get_array_member (result_of (read), "contents");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (contents, 0), "text"),
                   ==, "a,b\n1,2\n");
  missing = page_request (f, "2", "resources/read", "{\"uri\":\"fixture://nothing\"}");
  g_assert_nonnull (strstr (error_message (missing, -32002), "fixture://nothing"));
}

/* ui/open-link: the URL policy first; the person sees the host. */
static void
test_open_link (Fixture       *f,
                gconstpointer  data)
{
  static const char * const hostile[] = {
    "javascript:alert(1)", "file:///etc/passwd", "data:text/html,<script>x</script>",
    "http://example.com/", "https://user:pw@example.com/", "-https://example.com",
  };
  g_autoptr(JsonObject) opened = NULL;
  g_autoptr(JsonObject) loopback = NULL;
  g_autoptr(JsonObject) declined = NULL;

  page_initialize (f, NULL);
  opened = page_request (f, "1", "ui/open-link", "{\"url\":\"https://example.com/docs?q=1\"}");
  g_assert_cmpuint (json_object_get_size (result_of (opened)), ==, 0);
  g_assert_cmpuint (f->person->links->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (f->person->links, 0), ==, "https://example.com/docs?q=1 example.com");
  loopback = page_request (f, "2", "ui/open-link", "{\"url\":\"http://127.0.0.1:8080/\"}");
  result_of (loopback);

  f->person->yes = FALSE;
  declined = page_request (f, "3", "ui/open-link", "{\"url\":\"https://example.com/\"}");
  g_assert_cmpstr (error_message (declined, -32000), ==, "Link opening denied by user");
  g_assert_cmpuint (f->person->links->len, ==, 3);

  for (guint i = 0; i < G_N_ELEMENTS (hostile); i++)
    {
      g_autofree char *id = g_strdup_printf ("%u", 10 + i);
      g_autofree char *params = NULL;
      g_autoptr(JsonObject) response = NULL;
      g_autoptr(JsonNode) url = json_node_init_string (json_node_alloc (), hostile[i]);
      g_autofree char *quoted = json_to_string (url, FALSE);

      params = g_strdup_printf ("{\"url\":%s}", quoted);
      response = page_request (f, id, "ui/open-link", params);
      g_assert_true (g_str_has_prefix (error_message (response, -32000), "Policy violation"));
    }
  /* Never asked. */
  g_assert_cmpuint (f->person->links->len, ==, 3);
  g_assert_cmpuint (count_notes (f, MCP_APP_NOTE_BLOCKED), ==, G_N_ELEMENTS (hostile));
}

/* ui/download-file: embedded text and blobs, links read from the same
 * server; names made bare. */
static void
test_download_file (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(JsonObject) saved = NULL;
  g_autoptr(JsonObject) linked = NULL;
  g_autoptr(JsonObject) missing = NULL;
  g_autoptr(JsonObject) cancelled = NULL;
  g_autoptr(JsonObject) bad = NULL;

  page_initialize (f, NULL);
  saved = page_request (f, "1", "ui/download-file",
                        "{\"contents\":["
                        "{\"type\":\"resource\",\"resource\":{\"uri\":\"file:///tmp/notes.txt\","
                        "\"mimeType\":\"text/plain\",\"text\":\"hello\"}},"
                        "{\"type\":\"resource\",\"resource\":{\"uri\":\"../../etc/passwd\",\"text\":\"x\"}},"
                        "{\"type\":\"resource\",\"resource\":{\"uri\":\"data:,%2e%2e%2f%0a\","
                        "\"mimeType\":\"application/octet-stream\",\"blob\":\"aGk=\"}}]}");
  g_assert_cmpuint (json_object_get_size (result_of (saved)), ==, 0);
  g_assert_cmpuint (f->person->files->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (f->person->files, 0), ==, "notes.txt|text/plain|hello");
  g_assert_cmpstr (g_ptr_array_index (f->person->files, 1), ==, "passwd||x");
  g_assert_cmpstr (g_ptr_array_index (f->person->files, 2), ==, "download|application/octet-stream|hi");

  linked = page_request (f, "2", "ui/download-file",
                         "{\"contents\":[{\"type\":\"resource_link\",\"uri\":\"fixture://report.csv\","
                         "\"name\":\"report\"}]}");
  result_of (linked);
  g_assert_cmpstr (g_ptr_array_index (f->person->files, 3), ==, "report.csv|text/csv|a,b\n1,2\n");

  missing = page_request (f, "3", "ui/download-file",
                          "{\"contents\":[{\"type\":\"resource_link\",\"uri\":\"fixture://nothing\",\"name\":\"n\"}]}");
  error_message (missing, -32603);

  f->person->yes = FALSE;
  cancelled = page_request (f, "4", "ui/download-file",
                            "{\"contents\":[{\"type\":\"resource\",\"resource\":{\"uri\":\"a.txt\",\"text\":\"a\"}}]}");
  g_assert_true (json_object_get_boolean_member (result_of (cancelled), "isError"));

  bad = page_request (f, "5", "ui/download-file", "{\"contents\":[{\"type\":\"image\",\"data\":\"\"}]}");
  error_message (bad, -32602);
  g_assert_cmpuint (f->person->files->len, ==, 5);
}

static void
test_file_names (void)
{
  static const struct { const char *uri; const char *name; } cases[] = {
    { "../../etc/passwd", "passwd" },
    { "file:///home/me/report%20final.pdf", "report final.pdf" },
    { "https://example.com/a/b.csv?x=/y#z", "b.csv" },
    { "..", "download" },
    { "/", "download" },
    { "", "download" },
    { "ui://x/.bashrc", "bashrc" },
    { "a%2F..%2F..%2Fb", "b" },
    { "x%0d%0aevil\x7f.txt", "xevil.txt" },
    { "C:\\Windows\\win.ini", "win.ini" },
    { "%ff%fe", "download" },
  };
  g_autofree char *long_uri = g_strnfill (5000, 'a');
  g_autofree char *long_name = mcp_app_bridge_dup_file_name (long_uri);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = mcp_app_bridge_dup_file_name (cases[i].uri);

      g_assert_cmpstr (name, ==, cases[i].name);
    }
  g_assert_cmpuint (strlen (long_name), ==, 200);
}

/* ui/message, ui/update-model-context, notifications/message: notes; the
 * context replaced, not added. */
static void
test_notes (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(JsonObject) message = NULL;
  g_autoptr(JsonObject) first = NULL;
  g_autoptr(JsonObject) second = NULL;
  g_autoptr(McpAppNote) note = NULL;
  guint n_posts;

  page_initialize (f, NULL);
  message = page_request (f, "1", "ui/message",
                          "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"one\"},"
                          "{\"type\":\"image\",\"data\":\"\",\"mimeType\":\"image/png\"},"
                          "{\"type\":\"text\",\"text\":\"two\"}]}");
  result_of (message);
  note = last_note (f);
  g_assert_cmpint (mcp_app_note_get_kind (note), ==, MCP_APP_NOTE_MESSAGE);
  g_assert_cmpstr (mcp_app_note_get_title (note), ==, "Message");
  g_assert_cmpstr (mcp_app_note_get_text (note), ==, "one\ntwo");
  g_assert_cmpstr (json_object_get_string_member (mcp_app_note_get_params (note), "role"), ==, "user");
  g_clear_object (&note);

  first = page_request (f, "2", "ui/update-model-context", "{\"content\":[{\"type\":\"text\",\"text\":\"old\"}]}");
  second = page_request (f, "3", "ui/update-model-context", "{\"structuredContent\":{\"n\":1}}");
  result_of (second);
  g_assert_cmpuint (count_notes (f, MCP_APP_NOTE_MODEL_CONTEXT), ==, 1);
  note = last_note (f);
  g_assert_cmpstr (mcp_app_note_get_text (note), ==, "{\"n\":1}");
  g_clear_object (&note);

  n_posts = f->posts->len;
  page_send (f, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
                "\"params\":{\"level\":\"warning\",\"data\":\"careful\"}}");
  g_assert_cmpuint (f->posts->len, ==, n_posts);
  note = last_note (f);
  g_assert_cmpint (mcp_app_note_get_kind (note), ==, MCP_APP_NOTE_LOG);
  g_assert_cmpstr (mcp_app_note_get_title (note), ==, "Log (warning)");
  g_assert_cmpstr (mcp_app_note_get_text (note), ==, "careful");
  g_assert_cmpuint (g_list_model_get_n_items (mcp_app_bridge_get_notes (f->bridge)), ==, 3);
}

/* ui/request-display-mode: granted when both sides list the mode. */
static void
test_display_mode (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(JsonObject) refused = NULL;
  g_autoptr(JsonObject) granted = NULL;
  g_autoptr(JsonObject) unlisted = NULL;
  g_autoptr(JsonObject) changed = NULL;
  g_autoptr(JsonObject) bad = NULL;

  page_initialize (f, "[\"inline\",\"fullscreen\"]");
  /* The host offers only inline so far. */
  refused = page_request (f, "1", "ui/request-display-mode", "{\"mode\":\"fullscreen\"}");
  g_assert_cmpstr (json_object_get_string_member (result_of (refused), "mode"), ==, "inline");

  mcp_app_bridge_set_available_display_modes (f->bridge, (const char *[]) { "inline", "fullscreen", "pip", NULL });
  granted = page_request (f, "2", "ui/request-display-mode", "{\"mode\":\"fullscreen\"}");
  g_assert_cmpstr (json_object_get_string_member (result_of (granted), "mode"), ==, "fullscreen");
  g_assert_cmpstr (mcp_app_bridge_get_display_mode (f->bridge), ==, "fullscreen");
  /* The page did not list pip. */
  unlisted = page_request (f, "3", "ui/request-display-mode", "{\"mode\":\"pip\"}");
  g_assert_cmpstr (json_object_get_string_member (result_of (unlisted), "mode"), ==, "fullscreen");
  bad = page_request (f, "4", "ui/request-display-mode", "{\"mode\":42}");
  error_message (bad, -32602);

  /* The person left fullscreen: the page is told. */
  mcp_app_bridge_set_display_mode (f->bridge, "inline");
  changed = post_object (f, f->posts->len - 1);
  g_assert_cmpstr (json_object_get_string_member (changed, "method"), ==, "ui/notifications/host-context-changed");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (changed, "params"), "displayMode"),
                   ==, "inline");
}

static void
test_size_changed (Fixture       *f,
                   gconstpointer  data)
{
  g_assert_cmpint (mcp_app_bridge_get_content_width (f->bridge), ==, -1);
  page_initialize (f, NULL);
  page_send (f, "{\"jsonrpc\":\"2.0\",\"method\":\"ui/notifications/size-changed\","
                "\"params\":{\"width\":500,\"height\":1e12}}");
  g_assert_cmpint (mcp_app_bridge_get_content_width (f->bridge), ==, 500);
  g_assert_cmpint (mcp_app_bridge_get_content_height (f->bridge), ==, 10000);
  page_send (f, "{\"jsonrpc\":\"2.0\",\"method\":\"ui/notifications/size-changed\","
                "\"params\":{\"width\":\"wide\",\"height\":-5.5}}");
  g_assert_cmpint (mcp_app_bridge_get_content_width (f->bridge), ==, 500);
  g_assert_cmpint (mcp_app_bridge_get_content_height (f->bridge), ==, 0);
  page_send (f, "{\"jsonrpc\":\"2.0\",\"method\":\"ui/notifications/size-changed\",\"params\":[1,2]}");
  g_assert_cmpint (mcp_app_bridge_get_content_height (f->bridge), ==, 0);

  page_send (f, "{\"jsonrpc\":\"2.0\",\"method\":\"ui/notifications/request-teardown\"}");
  g_assert_cmpuint (f->n_teardown_requests, ==, 1);
}

/* What is not JSON-RPC, too big or too many. */
static void
test_errors (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(JsonObject) unknown = NULL;
  g_autoptr(JsonObject) garbage = NULL;
  g_autoptr(JsonObject) batch = NULL;
  g_autoptr(JsonObject) too_many = NULL;
  g_autoptr(JsonObject) huge_answer = NULL;
  g_autoptr(GString) huge = g_string_new ("{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"ping\",\"params\":{\"x\":\"");
  guint n_posts;

  page_initialize (f, NULL);
  /* Without a call yet, the context names the tool, and no call. */
  {
    g_autoptr(JsonObject) initialize = find_response (f, "0");
    JsonObject *info = json_object_get_object_member (json_object_get_object_member (result_of (initialize),
                                                                                     "hostContext"), "toolInfo");

    g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (info, "tool"), "name"),
                     ==, "app-echo");
    g_assert_false (json_object_has_member (info, "id"));
  }
  unknown = page_request (f, "\"u\"", "ui/teleport", NULL);
  g_assert_nonnull (strstr (error_message (unknown, -32601), "ui/teleport"));

  n_posts = f->posts->len;
  page_send (f, "this is not json");
  g_assert_cmpuint (f->posts->len, ==, n_posts + 1);
  garbage = post_object (f, n_posts);
  error_message (garbage, -32700);
  g_assert_true (json_object_has_member (garbage, "id"));
  g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (garbage, "id")));
  page_send (f, "");
  page_send (f, "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}");
  g_assert_cmpuint (f->posts->len, ==, n_posts + 3);

  page_send (f, "[{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"},{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}]");
  batch = post_object (f, f->posts->len - 1);
  error_message (batch, -32600);

  /* Over 4 MiB: refused without reading it (and unanswered: its id is
   * not read either). */
  while (huge->len <= MCP_APP_BRIDGE_MAX_MESSAGE)
    g_string_append (huge, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
  g_string_append (huge, "\"}}");
  n_posts = f->posts->len;
  mcp_app_bridge_receive (f->bridge, huge->str, huge->len);
  g_assert_cmpuint (f->posts->len, ==, n_posts);
  huge_answer = find_response (f, "99");
  g_assert_null (huge_answer);
  g_assert_cmpuint (count_notes (f, MCP_APP_NOTE_BLOCKED), ==, 1);

  /* 16 links waiting for the person; the 17th is refused at once. */
  f->person->hold = TRUE;
  for (guint i = 0; i < 16; i++)
    {
      g_autofree char *text = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%u,\"method\":\"ui/open-link\","
                                               "\"params\":{\"url\":\"https://example.com/%u\"}}", 100 + i, i);

      page_send (f, text);
    }
  g_assert_cmpuint (f->person->held->len, ==, 16);
  too_many = page_request (f, "200", "ui/open-link", "{\"url\":\"https://example.com/x\"}");
  g_assert_nonnull (strstr (error_message (too_many, -32603), "Too many"));
  g_assert_cmpuint (f->person->held->len, ==, 16);
  /* Sync requests still work. */
  {
    g_autoptr(JsonObject) pong = page_request (f, "201", "ping", NULL);

    result_of (pong);
  }

  /* One answer frees a place. */
  {
    g_autoptr(GTask) task = g_ptr_array_steal_index (f->person->held, 0);
    g_autoptr(JsonObject) first = NULL;
    gpointer args[] = { f, (gpointer) "100" };

    g_task_return_boolean (task, TRUE);
    test_iterate_until (has_response, args, "the first link's answer");
    first = find_response (f, "100");
    result_of (first);
  }

  /* Closed: the answers that come later are dropped. */
  n_posts = f->posts->len;
  mcp_app_bridge_close (f->bridge);
  g_assert_true (mcp_app_bridge_get_closed (f->bridge));
  while (f->person->held->len > 0)
    {
      g_autoptr(GTask) task = g_ptr_array_steal_index (f->person->held, 0);

      g_task_return_boolean (task, TRUE);
    }
  test_wait_ms (50);
  page_send (f, "{\"jsonrpc\":\"2.0\",\"id\":300,\"method\":\"ping\"}");
  mcp_app_bridge_set_tool_cancelled (f->bridge, "gone");
  g_assert_cmpuint (f->posts->len, ==, n_posts);
}

static void
teardown_done_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  gboolean *done = user_data;
  g_autoptr(GError) error = NULL;

  g_assert_true (mcp_app_bridge_teardown_finish (MCP_APP_BRIDGE (object), result, &error));
  g_assert_no_error (error);
  *done = TRUE;
}

/* ui/resource-teardown: the page's answer ends it; a page that does not
 * answer does not hold it. */
static void
test_teardown (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(JsonObject) request = NULL;
  g_autoptr(McpAppBridge) second = NULL;
  g_autofree char *answer = NULL;
  gboolean done = FALSE;
  gint64 start;
  guint n_posts;

  page_initialize (f, NULL);
  mcp_app_bridge_teardown_async (f->bridge, "closed", NULL, teardown_done_cb, &done);
  request = post_object (f, f->posts->len - 1);
  g_assert_cmpstr (json_object_get_string_member (request, "method"), ==, "ui/resource-teardown");
  g_assert_false (done);
  answer = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"id\":%" G_GINT64_FORMAT ",\"result\":{}}",
                            json_object_get_int_member (request, "id"));
  page_send (f, answer);
  test_iterate_until (test_flag_set, &done, "the teardown");
  g_assert_true (mcp_app_bridge_get_closed (f->bridge));
  n_posts = f->posts->len;
  page_send (f, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}");
  g_assert_cmpuint (f->posts->len, ==, n_posts);

  /* A page that never answers: closed after the wait. */
  second = mcp_app_bridge_new (f->project, pool_tool (f, "mcp__fix__app-echo"), NULL);
  mcp_app_bridge_set_teardown_timeout (second, 200);
  done = FALSE;
  start = g_get_monotonic_time ();
  mcp_app_bridge_teardown_async (second, NULL, NULL, teardown_done_cb, &done);
  test_iterate_until (test_flag_set, &done, "the unanswered teardown");
  g_assert_cmpint (g_get_monotonic_time () - start, >=, 150 * 1000);
  g_assert_true (mcp_app_bridge_get_closed (second));
}

/* Everything either way is in the server's trace, kind APP. */
static void
test_trace (Fixture       *f,
            gconstpointer  data)
{
  McpTrace *trace = mcp_server_connection_get_trace (mcp_pool_tool_get_connection (
                                                       mcp_app_bridge_get_tool (f->bridge)));
  g_autoptr(JsonObject) refused = NULL;
  guint n_in = 0, n_out = 0, n_blocked = 0, n_invalid = 0;
  gboolean saw_initialize = FALSE;

  page_initialize (f, NULL);
  refused = page_request (f, "1", "ui/open-link", "{\"url\":\"javascript:alert(1)\"}");
  page_send (f, "garbage");

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (trace)); i++)
    {
      g_autoptr(McpTraceEntry) entry = g_list_model_get_item (G_LIST_MODEL (trace), i);
      g_autofree char *summary = NULL;
      g_autoptr(GString) json = g_string_new (NULL);

      if (mcp_trace_entry_get_kind (entry) != MCP_TRACE_KIND_APP)
        continue;
      summary = mcp_trace_entry_dup_summary (entry);
      mcp_trace_entry_append_json (entry, "fix", json);
      g_assert_nonnull (strstr (json->str, "\"kind\":\"app\""));
      if (mcp_trace_entry_get_direction (entry) == MCP_TRACE_DIRECTION_IN)
        {
          n_in++;
          g_assert_true (g_str_has_prefix (summary, "page → "));
        }
      else if (mcp_trace_entry_get_direction (entry) == MCP_TRACE_DIRECTION_OUT)
        n_out++;
      else
        {
          n_blocked++;
          g_assert_cmpstr (mcp_trace_entry_get_method (entry), ==, "blocked");
          g_assert_nonnull (strstr (mcp_trace_entry_get_text (entry), "ui/open-link"));
        }
      if (mcp_trace_entry_get_error_class (entry) == MCP_TRACE_ERROR_PROTOCOL &&
          mcp_trace_entry_get_direction (entry) == MCP_TRACE_DIRECTION_IN)
        n_invalid++;
      if (g_strcmp0 (mcp_trace_entry_get_method (entry), "ui/initialize") == 0)
        {
          saw_initialize = TRUE;
          g_assert_cmpstr (mcp_trace_entry_get_id (entry), ==, "0");
        }

      /* Read back from JSON Lines the same. */
      {
        g_autoptr(JsonNode) node = json_from_string (json->str, NULL);
        g_autoptr(McpTraceEntry) back = mcp_trace_entry_new_from_json (json_node_get_object (node), NULL, NULL);

        g_assert_nonnull (back);
        g_assert_cmpint (mcp_trace_entry_get_kind (back), ==, MCP_TRACE_KIND_APP);
        g_assert_cmpint (mcp_trace_entry_get_direction (back), ==, mcp_trace_entry_get_direction (entry));
        g_assert_cmpstr (mcp_trace_entry_get_method (back), ==, mcp_trace_entry_get_method (entry));
      }
    }
  /* A secret a page posts is masked in the trace, as a server's is. */
  page_send (f, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
                "\"params\":{\"level\":\"info\",\"data\":{\"access_token\":\"sk-live-1234567890\"}}}");
  {
    guint n = g_list_model_get_n_items (G_LIST_MODEL (trace));
    g_autoptr(McpTraceEntry) last = g_list_model_get_item (G_LIST_MODEL (trace), n - 1);

    g_assert_cmpint (mcp_trace_entry_get_kind (last), ==, MCP_TRACE_KIND_APP);
    g_assert_null (strstr (mcp_trace_entry_get_text (last), "sk-live-1234567890"));
    g_assert_nonnull (strstr (mcp_trace_entry_get_text (last), "access_token"));
  }

  /* initialize, initialized, open-link, garbage in; their three answers out. */
  g_assert_cmpuint (n_in, ==, 4);
  g_assert_cmpuint (n_out, ==, 3);
  g_assert_cmpuint (n_blocked, ==, 1);
  g_assert_cmpuint (n_invalid, ==, 1);
  g_assert_true (saw_initialize);
}

static void
add_checked (GString    *lines,
             const char *schema,
             JsonObject *value)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), value);
  g_autofree char *text = json_to_string (node, FALSE);

  g_string_append_printf (lines, "{\"schema\":\"%s\",\"value\":%s}\n", schema, text);
}

/* What the bridge sends passes the ext-apps SDK's schemas, which its App
 * (every real page) checks a host's messages with. */
static void
test_sdk_schemas (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GString) lines = g_string_new (NULL);
  g_autoptr(JsonObject) arguments = json_object_new ();
  g_autoptr(JsonObject) context = NULL;
  g_autoptr(JsonObject) tool_result = NULL;
  g_autoptr(JsonObject) initialize = NULL;
  g_autoptr(JsonObject) mode = NULL;
  g_autoptr(JsonObject) link = NULL;
  g_autoptr(JsonObject) download = NULL;
  g_autoptr(JsonNode) parsed = NULL;
  g_autoptr(JsonNode) id = mcp_message_id_new_int (4);
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autofree char *script = g_test_build_filename (G_TEST_DIST, "integration", "app-bridge-schemas.mjs", NULL);
  const char *node = g_getenv ("MCP_TEST_NODE") != NULL ? g_getenv ("MCP_TEST_NODE") : "node";
  const char *argv[] = { node, script, NULL };
  g_auto(TestRun) run = { 0 };
  guint first;

  mcp_app_bridge_set_available_display_modes (f->bridge, (const char *[]) { "inline", "fullscreen", NULL });
  json_object_set_string_member (arguments, "message", "hi");
  mcp_app_bridge_set_tool_input (f->bridge, arguments, id);
  parsed = json_from_string ("{\"content\":[{\"type\":\"text\",\"text\":\"hi\"}],"
                             "\"structuredContent\":{\"n\":1}}", NULL);
  tool_result = json_object_ref (json_node_get_object (parsed));
  mcp_app_bridge_set_tool_result (f->bridge, tool_result);
  mcp_app_bridge_set_tool_cancelled (f->bridge, "user");
  g_clear_pointer (&parsed, json_node_unref);
  parsed = json_from_string ("{\"theme\":\"dark\",\"locale\":\"de-DE\",\"timeZone\":\"Europe/Berlin\","
                             "\"containerDimensions\":{\"width\":800,\"maxHeight\":600},"
                             "\"styles\":{\"variables\":{\"--color-background-primary\":\"#fff\"}}}", NULL);
  context = json_object_ref (json_node_get_object (parsed));
  mcp_app_bridge_update_host_context (f->bridge, context);

  initialize = page_request (f, "0", "ui/initialize",
                             "{\"protocolVersion\":\"2026-01-26\",\"appInfo\":{\"name\":\"p\",\"version\":\"1\"},"
                             "\"appCapabilities\":{\"availableDisplayModes\":[\"inline\",\"fullscreen\"]}}");
  add_checked (lines, "McpUiInitializeResultSchema", result_of (initialize));
  first = f->posts->len;
  page_send (f, "{\"jsonrpc\":\"2.0\",\"method\":\"ui/notifications/initialized\"}");
  g_assert_cmpuint (f->posts->len, ==, first + 3);
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(JsonObject) message = post_object (f, first + i);

      json_object_remove_member (message, "jsonrpc");
      add_checked (lines, (const char *[]) { "McpUiToolInputNotificationSchema", "McpUiToolResultNotificationSchema",
                                             "McpUiToolCancelledNotificationSchema" }[i], message);
    }
  json_object_set_string_member (context, "theme", "light");
  mcp_app_bridge_update_host_context (f->bridge, context);
  {
    g_autoptr(JsonObject) changed = post_object (f, f->posts->len - 1);

    json_object_remove_member (changed, "jsonrpc");
    add_checked (lines, "McpUiHostContextChangedNotificationSchema", changed);
  }
  mode = page_request (f, "1", "ui/request-display-mode", "{\"mode\":\"fullscreen\"}");
  add_checked (lines, "McpUiRequestDisplayModeResultSchema", result_of (mode));
  link = page_request (f, "2", "ui/open-link", "{\"url\":\"https://example.com/\"}");
  add_checked (lines, "McpUiOpenLinkResultSchema", result_of (link));
  download = page_request (f, "3", "ui/download-file",
                           "{\"contents\":[{\"type\":\"resource\",\"resource\":{\"uri\":\"a.txt\",\"text\":\"a\"}}]}");
  add_checked (lines, "McpUiDownloadFileResultSchema", result_of (download));
  mcp_app_bridge_teardown_async (f->bridge, "closed", NULL, NULL, NULL);
  {
    g_autoptr(JsonObject) teardown = post_object (f, f->posts->len - 1);

    json_object_remove_member (teardown, "jsonrpc");
    json_object_remove_member (teardown, "id");
    add_checked (lines, "McpUiResourceTeardownRequestSchema", teardown);
  }
  mcp_app_bridge_close (f->bridge);

  test_run_piped (&run, g_steal_pointer (&launcher), argv, lines->str, 60);
  g_test_message ("%s%s", run.out, run.err);
  g_assert_cmpint (run.exit_status, ==, 0);
  g_assert_nonnull (strstr (run.out, "9 checked, 0 failed"));
}

/* A real MCP Apps server (the npm server-basic-vanillajs): its interface
 * read through resources/read into the bridge, its tool get-time called
 * from the page, and the interface read again as the page may. */
static void
test_real_app_server (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autoptr(McpTokenStore) store = NULL;
  g_autoptr(McpServerManager) manager = NULL;
  g_autoptr(McpProject) project = NULL;
  g_autoptr(McpUiResource) resource = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) read = NULL;
  g_autoptr(JsonObject) initialize = NULL;
  g_autoptr(JsonObject) call = NULL;
  g_autoptr(JsonObject) again = NULL;
  g_autofree char *store_path = NULL;
  g_autofree char *cache_path = NULL;
  g_autofree char *user = NULL;
  g_autofree char *script = NULL;
  g_autofree char *uri_json = NULL;
  McpPoolTool *tool;
  McpClient *client;
  Fixture f = { 0 };
  const char *modules = g_getenv ("MCP_TEST_NODE_MODULES");
  const char *node = g_getenv ("MCP_TEST_NODE") != NULL ? g_getenv ("MCP_TEST_NODE") : "node";
  const char *uri;
  JsonArray *content;

  if (modules == NULL)
    {
      g_test_skip ("MCP_TEST_NODE_MODULES is not set");
      return;
    }
  script = g_build_filename (modules, "@modelcontextprotocol", "server-basic-vanillajs", "dist", "index.js", NULL);
  if (!g_file_test (script, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("server-basic-vanillajs is not installed");
      return;
    }

  test_dirs_init (&dirs, "app-bridge-real");
  g_assert_cmpint (g_mkdir_with_parents (dirs.user_dir, 0700), ==, 0);
  store_path = g_build_filename (dirs.root, "credentials.json", NULL);
  store = mcp_token_store_new ("file", store_path);
  user = g_strdup_printf ("{\"mcpServers\": {\"basic\": {\"command\": \"%s\", \"args\": [\"%s\", \"--stdio\"]}}}",
                          node, script);
  test_write_file (dirs.user_file, user);
  cache_path = g_build_filename (dirs.root, "cache", "needs-auth.json", NULL);
  manager = g_object_new (MCP_TYPE_SERVER_MANAGER, "token-store", store, "needs-auth-cache-path", cache_path,
                          "connect-timeout", 30000, NULL);
  project = mcp_project_new_with_manager (dirs.project_dir, dirs.user_dir, manager);
  mcp_project_load_async (project, NULL, test_result_cb, &result);
  test_wait_result (&result, "the project to load");
  g_assert_true (mcp_project_load_finish (project, result, &error));
  g_clear_object (&result);
  mcp_server_manager_wait_settled_async (manager, NULL, test_result_cb, &result);
  test_wait_result (&result, "the server to settle");
  g_assert_true (mcp_server_manager_wait_settled_finish (manager, result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);

  tool = mcp_tool_pool_lookup (mcp_project_get_tool_pool (project), "mcp__basic__get-time");
  g_assert_nonnull (tool);
  uri = mcp_tool_get_ui_resource_uri (mcp_pool_tool_get_tool (tool));
  g_assert_cmpstr (uri, ==, "ui://get-time/mcp-app.html");
  client = mcp_server_connection_get_client (mcp_pool_tool_get_connection (tool));
  {
    g_autoptr(JsonObject) params = json_object_new ();

    json_object_set_string_member (params, "uri", uri);
    mcp_client_request_async (client, "resources/read", params, NULL, NULL, test_result_cb, &result);
    test_wait_result (&result, "the interface");
    read = mcp_client_request_finish (client, result, &error);
    g_assert_no_error (error);
    g_clear_object (&result);
  }
  resource = mcp_ui_resource_new_from_read_result (uri, read, NULL, &error);
  g_assert_no_error (error);

  f.person = g_object_new (TEST_TYPE_PERSON, NULL);
  mcp_project_set_interaction (project, MCP_INTERACTION (f.person));
  f.posts = g_ptr_array_new_with_free_func (g_free);
  f.project = project;
  f.bridge = mcp_app_bridge_new (project, tool, resource);
  g_signal_connect (f.bridge, "post", G_CALLBACK (post_cb), &f);

  initialize = page_request (&f, "0", "ui/initialize",
                             "{\"protocolVersion\":\"2026-01-26\",\"appInfo\":{\"name\":\"Get Time App\",\"version\":\"1.0.0\"},"
                             "\"appCapabilities\":{}}");
  g_assert_true (json_object_has_member (json_object_get_object_member (result_of (initialize), "hostCapabilities"),
                                         "sandbox"));
  page_send (&f, "{\"jsonrpc\":\"2.0\",\"method\":\"ui/notifications/initialized\"}");
  call = page_request (&f, "1", "tools/call", "{\"name\":\"get-time\",\"arguments\":{}}");
  content = json_object_get_array_member (result_of (call), "content");
  g_assert_cmpuint (json_array_get_length (content), >=, 1);
  /* An ISO 8601 time of this year. */
  g_assert_nonnull (strstr (json_object_get_string_member (json_array_get_object_element (content, 0), "text"), "T"));
  uri_json = g_strdup_printf ("{\"uri\":\"%s\"}", uri);
  again = page_request (&f, "2", "resources/read", uri_json);
  g_assert_nonnull (strstr (json_object_get_string_member (
                      json_array_get_object_element (json_object_get_array_member (result_of (again), "contents"), 0),
                      "text"), "<html"));

  mcp_app_bridge_close (f.bridge);
  g_clear_object (&f.bridge);
  mcp_server_manager_close_async (manager, NULL, test_result_cb, &result);
  test_wait_result (&result, "the manager to close");
  g_assert_true (mcp_server_manager_close_finish (manager, result, NULL));
  g_clear_object (&f.person);
  g_clear_pointer (&f.posts, g_ptr_array_unref);
}

static gboolean
trace_has_message (McpTrace   *trace,
                   const char *method)
{
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (trace)); i++)
    {
      g_autoptr(McpTraceEntry) entry = g_list_model_get_item (G_LIST_MODEL (trace), i);

      if (mcp_trace_entry_get_kind (entry) == MCP_TRACE_KIND_MESSAGE &&
          mcp_trace_entry_get_direction (entry) == MCP_TRACE_DIRECTION_OUT &&
          g_strcmp0 (mcp_trace_entry_get_method (entry), method) == 0)
        return TRUE;
    }
  return FALSE;
}

/* The view went away: dropping the bridge cancels what the page started
 * (the server is told), and what comes back later is dropped. */
static void
test_dispose (Fixture       *f,
              gconstpointer  data)
{
  McpTrace *trace = mcp_server_connection_get_trace (mcp_pool_tool_get_connection (
                                                       mcp_app_bridge_get_tool (f->bridge)));
  GWeakRef weak;
  guint n_posts;

  page_initialize (f, NULL);
  f->person->hold = TRUE;
  page_send (f, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
                "\"params\":{\"name\":\"slow\",\"arguments\":{\"ms\":20000}}}");
  page_send (f, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ui/open-link\","
                "\"params\":{\"url\":\"https://example.com/\"}}");
  TEST_WAIT_UNTIL (trace_has_message (trace, "tools/call"));
  g_assert_cmpuint (f->person->held->len, ==, 1);
  n_posts = f->posts->len;

  g_weak_ref_init (&weak, f->bridge);
  g_clear_object (&f->bridge);
  /* Nothing the requests hold keeps it alive. */
  g_assert_null (g_weak_ref_get (&weak));
  g_weak_ref_clear (&weak);
  TEST_WAIT_UNTIL (trace_has_message (trace, "notifications/cancelled"));
  {
    g_autoptr(GTask) task = g_ptr_array_steal_index (f->person->held, 0);

    g_assert_true (g_cancellable_is_cancelled (g_task_get_cancellable (task)));
    g_task_return_boolean (task, TRUE);
  }
  test_wait_ms (100);
  g_assert_cmpuint (f->posts->len, ==, n_posts);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/app-bridge/" path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("initialize", test_initialize);
  ADD ("tools-call", test_tools_call);
  ADD ("resources-read", test_resources_read);
  ADD ("open-link", test_open_link);
  ADD ("download-file", test_download_file);
  ADD ("notes", test_notes);
  ADD ("display-mode", test_display_mode);
  ADD ("size-changed", test_size_changed);
  ADD ("errors", test_errors);
  ADD ("teardown", test_teardown);
  ADD ("trace", test_trace);
  ADD ("sdk-schemas", test_sdk_schemas);
  ADD ("dispose", test_dispose);
#undef ADD
  g_test_add_func ("/app-bridge/file-names", test_file_names);
  g_test_add_func ("/app-bridge/real-app-server", test_real_app_server);

  return g_test_run ();
}
