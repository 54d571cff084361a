/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-app-view"

#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <adwaita.h>
#include <libsoup/soup.h>
#include <webkit/webkit.h>

#include "mcp-app-note.h"
#include "test-engine.h"
#include "plugboard-app-view.h"
#include "ui-test-common.h"
#include "ui-test-setup.h"

/* Issue 25, points 2 and 4: PlugboardAppView shows an MCP Apps interface
 * in its own web process, speaks the bridge's protocol with the page (a
 * hand-written one, and the real page of server-basic-vanillajs), and
 * keeps the page in its sandbox: every attempt to reach out gets nothing
 * and is noted. The bridge is real, on a project whose server is
 * server-basic-vanillajs (node). */

#define BASIC_SCRIPT "@modelcontextprotocol/server-basic-vanillajs/dist/index.js"
#define BASIC_HTML   "@modelcontextprotocol/server-basic-vanillajs/dist/mcp-app.html"
#define BASIC_TOOL   "mcp__basic__get-time"

static PlugboardApplication *app;
static char *test_root;

/* A page that speaks the protocol by hand: it initializes, keeps what it
 * receives in window.received and the host context in window.hostContext,
 * and answers the teardown. */
static const char protocol_page[] =
  "<!doctype html><html><head><meta charset='utf-8'>%s</head><body><p id='status'>page</p><script>\n"
  "window.received = [];\n"
  "window.addEventListener ('message', (e) => {\n"
  "  if (e.source !== window.parent) return;\n"
  "  const m = e.data;\n"
  "  window.received.push (m);\n"
  "  if (m.id === 1 && m.result) {\n"
  "    window.hostContext = m.result.hostContext;\n"
  "    window.parent.postMessage ({ jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {} }, '*');\n"
  "  }\n"
  "  if (m.method === 'ui/notifications/host-context-changed')\n"
  "    window.hostContext = Object.assign ({}, window.hostContext, m.params);\n"
  "  if (m.method === 'ui/resource-teardown')\n"
  "    window.parent.postMessage ({ jsonrpc: '2.0', id: m.id, result: {} }, '*');\n"
  "});\n"
  "window.parent.postMessage ({ jsonrpc: '2.0', id: 1, method: 'ui/initialize', params: {\n"
  "  protocolVersion: '2026-01-26', appInfo: { name: 'test', version: '1' },\n"
  "  appCapabilities: { availableDisplayModes: ['inline', 'fullscreen'] } } }, '*');\n"
  "</script></body></html>";

typedef struct
{
  UiTestSetup setup;
  McpPoolTool *tool;
  McpAppBridge *bridge;
  GtkWindow *window;
  PlugboardAppView *view;
} Fixture;

static char *
basic_servers (void)
{
  g_autofree char *node = test_find_node ();
  g_autofree char *script = test_find_node_module (BASIC_SCRIPT);
  g_autofree char *node_json = NULL;
  g_autofree char *script_json = NULL;

  if (!test_have_node_script (node, script))
    return NULL;
  node_json = test_json_string (node);
  script_json = test_json_string (script);
  return g_strdup_printf ("\"basic\": {\"command\": %s, \"args\": [%s, \"--stdio\"]}",
                          node_json, script_json);
}

/* A resource as resources/read gives it: @html with `_meta.ui` from
 * @meta_json (the text of the ui object; NULL: none). */
static McpUiResource *
make_resource (const char *html,
               const char *meta_json)
{
  g_autoptr(JsonNode) result = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(GError) error = NULL;
  JsonObject *object = json_object_new ();
  JsonObject *content = json_object_new ();
  JsonArray *contents = json_array_new ();
  McpUiResource *resource;

  json_object_set_string_member (content, "uri", "ui://test/page");
  json_object_set_string_member (content, "mimeType", MCP_UI_MIME_TYPE);
  json_object_set_string_member (content, "text", html);
  if (meta_json != NULL)
    {
      g_autofree char *text = g_strdup_printf ("{\"ui\": %s}", meta_json);
      JsonNode *meta = json_from_string (text, &error);

      g_assert_no_error (error);
      json_object_set_member (content, "_meta", meta);
    }
  json_array_add_object_element (contents, content);
  json_object_set_array_member (object, "contents", contents);
  json_node_take_object (result, object);

  resource = mcp_ui_resource_new_from_read_result ("ui://test/page", result, NULL, &error);
  g_assert_no_error (error);
  return resource;
}

static char *
protocol_html (const char *head)
{
  return g_strdup_printf (protocol_page, head != NULL ? head : "");
}

static gboolean
fixture_open_project (Fixture *fixture)
{
  g_autofree char *servers = basic_servers ();
  g_autofree char *settings = NULL;

  if (servers == NULL)
    return FALSE;
  settings = g_strdup_printf ("{\"mcpServers\": {%s}}", servers);
  ui_test_setup_open (&fixture->setup, app, "test-app-view", settings, 800, 600);
  fixture->tool = mcp_tool_pool_lookup (mcp_project_get_tool_pool (fixture->setup.project), BASIC_TOOL);
  g_assert_nonnull (fixture->tool);
  g_object_ref (fixture->tool);
  return TRUE;
}

static gboolean
view_loaded (gpointer data)
{
  return plugboard_app_view_get_loaded (data);
}

/* The view of @resource in a window of its own, loaded. */
static void
fixture_show (Fixture       *fixture,
              McpUiResource *resource)
{
  fixture->bridge = mcp_app_bridge_new (fixture->setup.project, fixture->tool, resource);
  fixture->window = GTK_WINDOW (gtk_window_new ());
  g_object_ref_sink (fixture->window);
  gtk_window_set_default_size (fixture->window, 640, 480);
  fixture->view = PLUGBOARD_APP_VIEW (plugboard_app_view_new ());
  gtk_window_set_child (fixture->window, GTK_WIDGET (fixture->view));
  gtk_widget_set_valign (GTK_WIDGET (fixture->view), GTK_ALIGN_START);
  plugboard_app_view_set_bridge (fixture->view, fixture->bridge);
  gtk_window_present (fixture->window);
  test_iterate_until (view_loaded, fixture->view, "the page to load");
}

/* The project, and the hand-written page with `_meta.ui` @meta_json
 * shown; FALSE (the test skipped) without node or the server. */
static gboolean
fixture_open_page (Fixture    *fixture,
                   const char *meta_json)
{
  g_autofree char *html = protocol_html (NULL);
  g_autoptr(McpUiResource) resource = NULL;

  if (!fixture_open_project (fixture))
    return FALSE;
  resource = make_resource (html, meta_json);
  fixture_show (fixture, resource);
  return TRUE;
}

static gboolean
bridge_initialized (gpointer data)
{
  return mcp_app_bridge_get_initialized (data);
}

static void
fixture_clear (Fixture *fixture)
{
  if (fixture->view != NULL)
    plugboard_app_view_set_bridge (fixture->view, NULL);
  if (fixture->window != NULL)
    gtk_window_destroy (fixture->window);
  g_clear_object (&fixture->window);
  fixture->view = NULL;
  g_clear_object (&fixture->bridge);
  g_clear_object (&fixture->tool);
  ui_test_setup_clear (&fixture->setup);
}

/* @script's value as a string, run in the page's world and waited for. */
static char *
run_js (Fixture    *fixture,
        const char *script)
{
  WebKitWebView *web_view = WEBKIT_WEB_VIEW (plugboard_app_view_get_web_view (fixture->view));
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(JSCValue) value = NULL;
  g_autoptr(GError) error = NULL;

  webkit_web_view_evaluate_javascript (web_view, script, -1, NULL, NULL, NULL,
                                       test_result_cb, &result);
  test_wait_result (&result, "the page's script");
  value = webkit_web_view_evaluate_javascript_finish (web_view, result, &error);
  g_assert_no_error (error);
  return jsc_value_to_string (value);
}

typedef struct
{
  Fixture    *fixture;
  const char *script;
} JsCondition;

static gboolean
js_true (gpointer data)
{
  JsCondition *condition = data;
  g_autofree char *value = run_js (condition->fixture, condition->script);

  if (strcmp (value, "true") == 0)
    return TRUE;
  test_wait_ms (50);
  return FALSE;
}

/* Waits until @script is true in the page. */
static void
wait_js (Fixture    *fixture,
         const char *script)
{
  JsCondition condition = { fixture, script };

  test_iterate_until (js_true, &condition, script);
}

/* How many notes of what was blocked have @detail in their text. */
static guint
count_blocked (McpAppBridge *bridge,
               const char   *detail)
{
  GListModel *notes = mcp_app_bridge_get_notes (bridge);
  guint count = 0;

  for (guint i = 0; i < g_list_model_get_n_items (notes); i++)
    {
      g_autoptr(McpAppNote) note = g_list_model_get_item (notes, i);

      if (mcp_app_note_get_kind (note) == MCP_APP_NOTE_BLOCKED &&
          strstr (mcp_app_note_get_text (note), detail) != NULL)
        count++;
    }
  return count;
}

typedef struct
{
  McpAppBridge *bridge;
  const char   *detail;
} NoteCondition;

static gboolean
blocked_noted (gpointer data)
{
  NoteCondition *condition = data;

  return count_blocked (condition->bridge, condition->detail) > 0;
}

static void
wait_blocked (McpAppBridge *bridge,
              const char   *detail)
{
  NoteCondition condition = { bridge, detail };

  test_iterate_until (blocked_noted, &condition, detail);
}

/* ------------------------------------------------------------------------ */
/* The protocol                                                             */

static gboolean
height_is (gpointer data)
{
  Fixture *fixture = data;
  int wanted = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (fixture->view), "wanted"));

  return gtk_widget_get_height (GTK_WIDGET (fixture->view)) == wanted;
}

static void
wait_height (Fixture *fixture,
             int      height)
{
  g_object_set_data (G_OBJECT (fixture->view), "wanted", GINT_TO_POINTER (height));
  test_iterate_until (height_is, fixture, "the view's height");
}

static void
test_app_view_protocol (void)
{
  Fixture fixture = { 0 };
  g_autoptr(McpUiResource) resource = NULL;
  g_autofree char *html = protocol_html (NULL);
  g_autoptr(JsonNode) arguments = NULL;
  g_autoptr(JsonNode) result = NULL;
  g_autofree char *value = NULL;
  g_autofree char *locale = NULL;

  if (!fixture_open_project (&fixture))
    return;

  resource = make_resource (html, NULL);
  fixture_show (&fixture, resource);
  test_iterate_until (bridge_initialized, fixture.bridge, "ui/notifications/initialized");

  /* The host context comes from the desktop. */
  value = run_js (&fixture, "window.hostContext.platform");
  g_assert_cmpstr (value, ==, "desktop");
  g_clear_pointer (&value, g_free);
  value = run_js (&fixture, "window.hostContext.theme");
  g_assert_cmpstr (value, ==, adw_style_manager_get_dark (adw_style_manager_get_default ()) ? "dark" : "light");
  g_clear_pointer (&value, g_free);
  value = run_js (&fixture, "window.hostContext.locale");
  g_assert_cmpstr (value, ==, "de-DE");
  g_clear_pointer (&value, g_free);
  value = run_js (&fixture, "window.hostContext.timeZone");
  g_assert_cmpstr (value, ==, "Europe/Berlin");
  g_clear_pointer (&value, g_free);
  value = run_js (&fixture, "window.hostContext.userAgent.startsWith ('Plugboard/') && "
                            "window.hostContext.deviceCapabilities.hover === true && "
                            "window.hostContext.availableDisplayModes.includes ('fullscreen') && "
                            "window.hostContext.styles.variables['--color-background-primary'].startsWith ('light-dark(')");
  g_assert_cmpstr (value, ==, "true");
  g_clear_pointer (&value, g_free);

  /* Input and result, set on the bridge, reach the page. */
  arguments = json_from_string ("{\"city\": \"Berlin\"}", NULL);
  mcp_app_bridge_set_tool_input (fixture.bridge, json_node_get_object (arguments), NULL);
  result = json_from_string ("{\"content\": [{\"type\": \"text\", \"text\": \"12:00\"}],"
                             " \"structuredContent\": {\"time\": \"12:00\"}}", NULL);
  mcp_app_bridge_set_tool_result (fixture.bridge, json_node_get_object (result));
  wait_js (&fixture, "window.received.some (m => m.method === 'ui/notifications/tool-input' && "
                     "m.params.arguments.city === 'Berlin') && "
                     "window.received.some (m => m.method === 'ui/notifications/tool-result' && "
                     "m.params.structuredContent.time === '12:00')");
  /* … in the order they were set. */
  value = run_js (&fixture, "window.received.findIndex (m => m.method === 'ui/notifications/tool-input') < "
                            "window.received.findIndex (m => m.method === 'ui/notifications/tool-result')");
  g_assert_cmpstr (value, ==, "true");
  g_clear_pointer (&value, g_free);

  /* The page's size decides the view's height, within limits. */
  wait_height (&fixture, 400);
  g_free (run_js (&fixture, "window.parent.postMessage ({ jsonrpc: '2.0', method: "
                            "'ui/notifications/size-changed', params: { width: 300, height: 250 } }, '*'); 1"));
  wait_height (&fixture, 250);
  g_free (run_js (&fixture, "window.parent.postMessage ({ jsonrpc: '2.0', method: "
                            "'ui/notifications/size-changed', params: { width: 300, height: 90000 } }, '*'); 1"));
  wait_height (&fixture, 1600);
  g_free (run_js (&fixture, "window.parent.postMessage ({ jsonrpc: '2.0', method: "
                            "'ui/notifications/size-changed', params: { width: 300, height: 1 } }, '*'); 1"));
  wait_height (&fixture, 80);

  /* A width change goes out as containerDimensions. */
  gtk_widget_set_halign (GTK_WIDGET (fixture.view), GTK_ALIGN_START);
  gtk_widget_set_size_request (GTK_WIDGET (fixture.view), 500, -1);
  wait_js (&fixture, "window.hostContext.containerDimensions.width === 500");

  /* The theme follows the desktop's. */
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
  wait_js (&fixture, "window.hostContext.theme === 'dark'");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);
  wait_js (&fixture, "window.hostContext.theme === 'light'");
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);

  /* Messages that are not JSON-RPC stay the page's own. */
  g_free (run_js (&fixture, "window.own = 0; window.addEventListener ('message', e => { if (e.data === 'hello') window.own++; });"
                            "window.postMessage ('hello', '*'); 1"));
  wait_js (&fixture, "window.own === 1");

  /* A frame cannot speak for the page: the handler without the token. */
  g_free (run_js (&fixture, "window.webkit.messageHandlers.plugboardApp.postMessage ("
                            "JSON.stringify ({ jsonrpc: '2.0', method: 'ui/notifications/size-changed', "
                            "params: { width: 1, height: 700 } })); 1"));
  wait_blocked (fixture.bridge, "not from the interface");
  g_assert_cmpint (mcp_app_bridge_get_content_height (fixture.bridge), ==, 1);

  fixture_clear (&fixture);
}

static gboolean
web_view_in_window (gpointer data)
{
  Fixture *fixture = data;
  GtkRoot *root = gtk_widget_get_root (plugboard_app_view_get_web_view (fixture->view));

  return root != NULL && root != GTK_ROOT (fixture->window);
}

static gboolean
web_view_inline (gpointer data)
{
  Fixture *fixture = data;

  return gtk_widget_get_parent (plugboard_app_view_get_web_view (fixture->view)) == GTK_WIDGET (fixture->view);
}

/* The page asks for fullscreen: its web view moves to a fullscreen window
 * (the page keeps running); closing that window brings it back inline,
 * and the page is told. */
static void
test_app_view_fullscreen (void)
{
  Fixture fixture = { 0 };
  GtkWindow *fullscreen;

  if (!fixture_open_page (&fixture, NULL))
    return;
  test_iterate_until (bridge_initialized, fixture.bridge, "initialized");

  g_free (run_js (&fixture, "window.parent.postMessage ({ jsonrpc: '2.0', id: 7, method: 'ui/request-display-mode', "
                            "params: { mode: 'fullscreen' } }, '*'); 1"));
  wait_js (&fixture, "window.received.some (m => m.id === 7 && m.result && m.result.mode === 'fullscreen')");
  test_iterate_until (web_view_in_window, &fixture, "the fullscreen window");
  fullscreen = GTK_WINDOW (gtk_widget_get_root (plugboard_app_view_get_web_view (fixture.view)));
  g_assert_cmpstr (mcp_app_bridge_get_display_mode (fixture.bridge), ==, "fullscreen");
  /* The page lives on in its new place. */
  wait_js (&fixture, "document.getElementById ('status').textContent === 'page'");

  gtk_window_close (fullscreen);
  test_iterate_until (web_view_inline, &fixture, "the web view back inline");
  g_assert_cmpstr (mcp_app_bridge_get_display_mode (fixture.bridge), ==, "inline");
  wait_js (&fixture, "window.hostContext.displayMode === 'inline'");

  fixture_clear (&fixture);
}

/* The page of server-basic-vanillajs, as its server gives it, with the
 * real ext-apps App in it: it initializes and shows the result. */
static void
test_app_view_basic (void)
{
  Fixture fixture = { 0 };
  g_autofree char *path = test_find_node_module (BASIC_HTML);
  g_autoptr(McpUiResource) resource = NULL;
  g_autoptr(JsonNode) arguments = NULL;
  g_autoptr(JsonNode) result = NULL;
  g_autofree char *html = NULL;
  g_autoptr(GError) error = NULL;

  if (path == NULL)
    {
      g_test_skip ("server-basic-vanillajs is missing");
      return;
    }
  if (!fixture_open_project (&fixture))
    return;

  g_file_get_contents (path, &html, NULL, &error);
  g_assert_no_error (error);
  resource = make_resource (html, NULL);
  fixture_show (&fixture, resource);
  test_iterate_until (bridge_initialized, fixture.bridge, "the real App's initialized");

  arguments = json_from_string ("{}", NULL);
  mcp_app_bridge_set_tool_input (fixture.bridge, json_node_get_object (arguments), NULL);
  result = json_from_string ("{\"content\": [{\"type\": \"text\", \"text\": \"1999-12-31T23:59:59Z\"}],"
                             " \"structuredContent\": {\"time\": \"1999-12-31T23:59:59Z\"}}", NULL);
  mcp_app_bridge_set_tool_result (fixture.bridge, json_node_get_object (result));
  wait_js (&fixture, "document.getElementById ('server-time').textContent.includes ('1999-12-31T23:59:59Z')");

  fixture_clear (&fixture);
}

/* ------------------------------------------------------------------------ */
/* The sandbox                                                              */

typedef struct
{
  SoupServer *server;
  guint16 port;
  guint requests;
} Counter;

static void
counter_cb (SoupServer        *server,
            SoupServerMessage *message,
            const char        *path,
            GHashTable        *query,
            gpointer           user_data)
{
  Counter *counter = user_data;

  counter->requests++;
  soup_server_message_get_response_headers (message);
  soup_message_headers_append (soup_server_message_get_response_headers (message),
                               "Access-Control-Allow-Origin", "*");
  soup_server_message_set_status (message, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (message, "text/plain", SOUP_MEMORY_STATIC, "ok", 2);
}

static void
counter_start (Counter *counter)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSList) uris = NULL;

  counter->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (counter->server, NULL, counter_cb, counter, NULL);
  soup_server_listen_local (counter->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);
  uris = soup_server_get_uris (counter->server);
  counter->port = g_uri_get_port (uris->data);
  g_slist_free_full (g_steal_pointer (&uris), (GDestroyNotify) g_uri_unref);
}

/* Undeclared origins get nothing: fetch, XHR, WebSocket and an image to a
 * real server on 127.0.0.1 never reach it, even with the page's own meta
 * CSP "connect-src *" (a page can only narrow the header's policy); each
 * is noted. Declared in connectDomains, the same fetch reaches it. */
static void
test_app_view_sandbox_connect (void)
{
  Fixture fixture = { 0 };
  Counter counter = { 0 };
  g_autoptr(McpUiResource) resource = NULL;
  g_autoptr(McpUiResource) declared = NULL;
  g_autofree char *html = protocol_html ("<meta http-equiv='Content-Security-Policy' content='connect-src *; img-src *'>");
  g_autofree char *script = NULL;
  g_autofree char *meta = NULL;
  g_autofree char *origin = NULL;

  if (!fixture_open_project (&fixture))
    return;
  counter_start (&counter);
  origin = g_strdup_printf ("http://127.0.0.1:%u", counter.port);

  resource = make_resource (html, NULL);
  fixture_show (&fixture, resource);
  test_iterate_until (bridge_initialized, fixture.bridge, "initialized");

  script = g_strdup_printf ("window.failed = 0;\n"
                            "fetch ('%1$s/fetch').catch (() => window.failed++);\n"
                            "const x = new XMLHttpRequest (); x.onerror = () => window.failed++;\n"
                            "x.open ('GET', '%1$s/xhr'); x.send ();\n"
                            "try { const w = new WebSocket ('ws://127.0.0.1:%2$u/ws'); w.onerror = () => window.failed++; }"
                            " catch (e) { window.failed++; }\n"
                            "const i = new Image (); i.onerror = () => window.failed++; i.src = '%1$s/img';\n"
                            "1", origin, counter.port);
  g_free (run_js (&fixture, script));
  wait_js (&fixture, "window.failed === 4");
  wait_blocked (fixture.bridge, "/fetch");
  wait_blocked (fixture.bridge, "/xhr");
  wait_blocked (fixture.bridge, "ws://127.0.0.1");
  wait_blocked (fixture.bridge, "/img");
  test_wait_ms (300);
  g_assert_cmpuint (counter.requests, ==, 0);

  /* Declared, the same fetch gets through: the test can fail. */
  meta = g_strdup_printf ("{\"csp\": {\"connectDomains\": [\"%s\"]}}", origin);
  declared = make_resource (html, meta);
  plugboard_app_view_set_bridge (fixture.view, NULL);
  g_clear_object (&fixture.bridge);
  fixture.bridge = mcp_app_bridge_new (fixture.setup.project, fixture.tool, declared);
  plugboard_app_view_set_bridge (fixture.view, fixture.bridge);
  test_iterate_until (view_loaded, fixture.view, "the page to load");
  g_clear_pointer (&script, g_free);
  script = g_strdup_printf ("window.got = ''; fetch ('%s/fetch').then (r => r.text ()).then (t => window.got = t); 1",
                            origin);
  g_free (run_js (&fixture, script));
  wait_js (&fixture, "window.got === 'ok'");
  g_assert_cmpuint (counter.requests, ==, 1);

  fixture_clear (&fixture);
  g_clear_object (&counter.server);
}

/* No way out of the page: navigations of the top frame, a link, a popup,
 * file: URLs, another path of the page's own scheme. */
static void
test_app_view_sandbox_escape (void)
{
  Fixture fixture = { 0 };
  g_autofree char *value = NULL;

  if (!fixture_open_page (&fixture, NULL))
    return;
  test_iterate_until (bridge_initialized, fixture.bridge, "initialized");

  g_free (run_js (&fixture, "location = 'https://example.invalid/away'; 1"));
  wait_blocked (fixture.bridge, "https://example.invalid/away");
  /* WebKit itself refuses a file: page to a page of another scheme before
   * any policy is asked: nothing to note, and the page stays. */
  g_free (run_js (&fixture, "location = 'file:///etc/passwd'; 1"));
  test_wait_ms (300);
  value = run_js (&fixture, "location.href");
  g_assert_cmpstr (value, ==, "plugboard-app://interface/index.html");
  g_clear_pointer (&value, g_free);
  g_free (run_js (&fixture, "const a = document.createElement ('a'); a.href = 'https://example.invalid/link';"
                            "document.body.appendChild (a); a.click (); 1"));
  wait_blocked (fixture.bridge, "https://example.invalid/link");
  g_free (run_js (&fixture, "window.popup = window.open ('https://example.invalid/popup'); 1"));
  wait_blocked (fixture.bridge, "https://example.invalid/popup");
  value = run_js (&fixture, "window.popup === null");
  g_assert_cmpstr (value, ==, "true");
  g_clear_pointer (&value, g_free);

  /* file: gets nothing, by fetch or in a frame. */
  g_free (run_js (&fixture, "window.file = 'pending'; fetch ('file:///etc/passwd').then (r => r.text ())"
                            ".then (t => window.file = t, () => window.file = 'refused'); 1"));
  wait_js (&fixture, "window.file === 'refused'");
  g_free (run_js (&fixture, "window.f = document.createElement ('iframe'); f.src = 'file:///etc/passwd';"
                            "document.body.appendChild (f); 1"));
  test_wait_ms (300);
  value = run_js (&fixture, "f.contentDocument === null || f.contentDocument.body === null || "
                            "!f.contentDocument.body.textContent.includes ('root:')");
  g_assert_cmpstr (value, ==, "true");
  g_clear_pointer (&value, g_free);
  /* …and the frame's attempt is noted (WebKit refuses it silently). */
  wait_blocked (fixture.bridge, "iframe file:///etc/passwd");
  /* A frame of an undeclared origin: the CSP's frame-src, noted. */
  g_free (run_js (&fixture, "const g = document.createElement ('iframe'); g.src = 'https://example.invalid/frame';"
                            "document.body.appendChild (g); 1"));
  wait_blocked (fixture.bridge, "frame-src https://example.invalid");

  /* The page's scheme serves the document and nothing else. */
  g_free (run_js (&fixture, "window.other = 'pending'; fetch ('other.html').then (r => r.text ())"
                            ".then (t => window.other = t, () => window.other = 'refused'); 1"));
  wait_js (&fixture, "window.other === 'refused'");
  wait_blocked (fixture.bridge, "plugboard-app://interface/other.html");

  /* Still the page, still initialized. */
  value = run_js (&fixture, "document.getElementById ('status').textContent + ' ' + location.href");
  g_assert_cmpstr (value, ==, "page plugboard-app://interface/index.html");
  g_clear_pointer (&value, g_free);

  fixture_clear (&fixture);
}

/* The page asks where it is; window.geo says what it got. */
static const char request_position[] =
  "window.geo = 'pending'; navigator.geolocation.getCurrentPosition ("
  "() => window.geo = 'granted', (e) => window.geo = 'denied ' + e.code); 1";

/* A permission the interface did not declare is denied without asking,
 * and noted. */
static void
test_app_view_sandbox_permission (void)
{
  Fixture fixture = { 0 };
  g_autofree char *value = NULL;

  if (!fixture_open_page (&fixture, NULL))
    return;

  g_free (run_js (&fixture, request_position));
  wait_js (&fixture, "window.geo.startsWith ('denied')");
  wait_blocked (fixture.bridge, "geolocation");
  /* Undeclared, the camera is not even there to ask for. */
  value = run_js (&fixture, "navigator.mediaDevices === undefined || navigator.mediaDevices.getUserMedia === undefined");
  g_assert_cmpstr (value, ==, "true");
  g_clear_pointer (&value, g_free);

  fixture_clear (&fixture);
}

/* The permission request's dialog, once shown. */
static gboolean
permission_dialog_shown (gpointer data)
{
  AdwMessageDialog **dialog = data;
  g_autoptr(GListModel) toplevels = g_object_ref (gtk_window_get_toplevels ());
  guint n = g_list_model_get_n_items (toplevels);

  for (guint i = 0; i < n && *dialog == NULL; i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
        *dialog = ADW_MESSAGE_DIALOG (window);
    }
  return *dialog != NULL;
}

/* A declared permission asks the person, naming the server; denied, the
 * page gets nothing and it is noted. */
static void
test_app_view_permission_asked (void)
{
  Fixture fixture = { 0 };
  AdwMessageDialog *dialog = NULL;

  if (!fixture_open_page (&fixture, "{\"permissions\": {\"geolocation\": {}}}"))
    return;

  g_free (run_js (&fixture, request_position));
  test_iterate_until (permission_dialog_shown, &dialog, "the permission's question");
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "“basic”"));
  g_assert_cmpuint (count_blocked (fixture.bridge, "geolocation"), ==, 0);
  adw_message_dialog_response (dialog, "deny");
  wait_js (&fixture, "window.geo.startsWith ('denied')");
  wait_blocked (fixture.bridge, "geolocation");

  fixture_clear (&fixture);
}

/* ------------------------------------------------------------------------ */
/* The web process                                                          */

/* Whether @pid descends from this process. */
static gboolean
is_descendant (int pid)
{
  int self = getpid ();

  for (int depth = 0; pid > 1 && depth < 16; depth++)
    {
      g_autofree char *path = g_strdup_printf ("/proc/%d/stat", pid);
      g_autofree char *stat = NULL;
      const char *close;
      int ppid;

      if (!g_file_get_contents (path, &stat, NULL, NULL))
        return FALSE;
      close = strrchr (stat, ')');
      if (close == NULL || sscanf (close + 2, "%*c %d", &ppid) != 1)
        return FALSE;
      if (ppid == self)
        return TRUE;
      pid = ppid;
    }
  return FALSE;
}

static guint64
rss_kib (int pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/status", pid);
  g_autofree char *status = NULL;
  const char *line;
  guint64 kib = 0;

  if (g_file_get_contents (path, &status, NULL, NULL) &&
      (line = strstr (status, "VmRSS:")) != NULL)
    kib = g_ascii_strtoull (line + strlen ("VmRSS:"), NULL, 10);
  return kib;
}

/* The WebKit processes below this one whose name starts with @prefix,
 * their count and RSS in KiB. */
static guint
webkit_processes (const char *prefix,
                  guint64    *rss)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc", 0, NULL);
  const char *name;
  guint count = 0;

  *rss = 0;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autofree char *comm = NULL;
      int pid = atoi (name);

      if (pid <= 0)
        continue;
      path = g_strdup_printf ("/proc/%d/comm", pid);
      if (!g_file_get_contents (path, &comm, NULL, NULL) || !g_str_has_prefix (comm, prefix) ||
          !is_descendant (pid))
        continue;
      count++;
      *rss += rss_kib (pid);
    }
  return count;
}

static void
report_memory (const char *when)
{
  guint64 own = rss_kib (getpid ()), web, network;
  guint n_web = webkit_processes ("WebKitWebProc", &web);
  guint n_network = webkit_processes ("WebKitNetwork", &network);

  g_test_message ("memory %s: Plugboard %" G_GUINT64_FORMAT " KiB; %u web process(es) %" G_GUINT64_FORMAT
                  " KiB; %u network process(es) %" G_GUINT64_FORMAT " KiB; total %" G_GUINT64_FORMAT " KiB",
                  when, own, n_web, web, n_network, network, own + web + network);
}

static gboolean
no_web_process (gpointer data)
{
  guint64 rss;

  if (webkit_processes ("WebKitWebProc", &rss) == 0)
    return TRUE;
  test_wait_ms (50);
  return FALSE;
}

/* The web process lives as long as the interface is shown; the figures
 * go to the log. */
static void
test_app_view_memory (void)
{
  Fixture fixture = { 0 };
  g_autoptr(McpUiResource) resource = NULL;
  g_autofree char *path = test_find_node_module (BASIC_HTML);
  g_autofree char *html = NULL;
  guint64 rss;

  if (path == NULL || !g_file_get_contents (path, &html, NULL, NULL))
    {
      g_test_skip ("server-basic-vanillajs is missing");
      return;
    }
  if (!fixture_open_project (&fixture))
    return;

  test_iterate_until (no_web_process, NULL, "no web process before");
  report_memory ("without a view");

  resource = make_resource (html, NULL);
  fixture_show (&fixture, resource);
  test_iterate_until (bridge_initialized, fixture.bridge, "initialized");
  g_assert_cmpuint (webkit_processes ("WebKitWebProc", &rss), >=, 1);
  report_memory ("with the view shown");

  plugboard_app_view_set_bridge (fixture.view, NULL);
  g_assert_null (plugboard_app_view_get_web_view (fixture.view));
  g_assert_false (plugboard_app_view_get_loaded (fixture.view));
  test_iterate_until (no_web_process, NULL, "the web process to end after the view closed");
  report_memory ("after the view closed");
  g_assert_true (mcp_app_bridge_get_closed (fixture.bridge));

  fixture_clear (&fixture);
}

static void
test_app_view_supported (void)
{
  g_autoptr(GtkWidget) view = g_object_ref_sink (plugboard_app_view_new ());

  g_assert_true (plugboard_app_view_is_supported ());
  g_assert_null (plugboard_app_view_get_web_view (PLUGBOARD_APP_VIEW (view)));
  g_assert_null (gtk_widget_get_first_child (view));
}

int
main (int   argc,
      char *argv[])
{
  /* The host context's locale and time zone come from the session (the
   * language from LANGUAGE: the C library here may have no German locale,
   * and the web process must not warn about it). */
  g_setenv ("LANGUAGE", "de_DE", TRUE);
  g_setenv ("LANG", "C.UTF-8", TRUE);
  g_setenv ("TZ", "Europe/Berlin", TRUE);
  /* G_DEBUG=fatal-warnings is this process's (GLib read it when it
   * loaded); WebKit's web process would inherit it and die of its own
   * warnings about the buses a test machine lacks (a11y). */
  g_unsetenv ("G_DEBUG");
  test_root = ui_test_make_root ("test-app-view", UI_TEST_XDG_CONFIG | UI_TEST_XDG_DATA | UI_TEST_XDG_CACHE);
  app = ui_test_start (&argc, &argv);

  g_test_add_func ("/ui/app-view/supported", test_app_view_supported);
  g_test_add_func ("/ui/app-view/protocol", test_app_view_protocol);
  g_test_add_func ("/ui/app-view/fullscreen", test_app_view_fullscreen);
  g_test_add_func ("/ui/app-view/basic-vanillajs", test_app_view_basic);
  g_test_add_func ("/ui/app-view/sandbox/connect", test_app_view_sandbox_connect);
  g_test_add_func ("/ui/app-view/sandbox/escape", test_app_view_sandbox_escape);
  g_test_add_func ("/ui/app-view/sandbox/permission", test_app_view_sandbox_permission);
  g_test_add_func ("/ui/app-view/sandbox/permission-asked", test_app_view_permission_asked);
  g_test_add_func ("/ui/app-view/memory", test_app_view_memory);

  return ui_test_run_and_clean (&app, &test_root);
}
