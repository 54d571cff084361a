/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-app-view"

#include "config.h"

#include <glib/gi18n.h>

#include "plugboard-app-view-private.h"

#if HAVE_WEBKIT

#include <string.h>

#include <libsoup/soup.h>

/* The page is served from memory under a scheme of its own; nothing else is
 * served under it. The scheme is registered as secure (the page is a
 * secure context, as on https, so that the declared permissions and
 * loopback http/ws connections work as the specification expects) but
 * neither local (a local scheme could load file: URLs) nor CORS-enabled
 * (no other origin may read from it). */
#define APP_SCHEME    "plugboard-app"
#define APP_HOST      "interface"
#define SANDBOX_WORLD "plugboard-sandbox"
#define APP_HANDLER   "plugboardApp"
#define SANDBOX_HANDLER "plugboardSandbox"
#define TOKEN_LENGTH  32

/* Top frame, main world, at document start: the page's JSON-RPC messages
 * to its "parent" (itself: it is the top frame) go to the host instead;
 * with the token, which a frame of another origin does not know. */
static const char bridge_script[] =
  "(function () {\n"
  "  const token = '%s';\n"
  "  const handler = window.webkit.messageHandlers." APP_HANDLER ";\n"
  "  const post = window.postMessage.bind (window);\n"
  "  const stringify = JSON.stringify;\n"
  "  window.postMessage = function (message, ...rest) {\n"
  "    if (message !== null && typeof message === 'object' && message.jsonrpc === '2.0') {\n"
  "      handler.postMessage (token + stringify (message));\n"
  "      return;\n"
  "    }\n"
  "    return post (message, ...rest);\n"
  "  };\n"
  "}) ();\n";

/* Isolated world (the page's scripts cannot see or remove it): what the
 * CSP refused is told to the host; so is a frame or object pointed at a
 * file: URL, which WebKit refuses before any policy or CSP check could
 * say so (the frame stays empty). */
static const char sandbox_script[] =
  "(function () {\n"
  "  const handler = window.webkit.messageHandlers." SANDBOX_HANDLER ";\n"
  "  document.addEventListener ('securitypolicyviolation', function (event) {\n"
  "    handler.postMessage (JSON.stringify ({ directive: event.effectiveDirective, uri: event.blockedURI }));\n"
  "  }, true);\n"
  "  const check = function (node) {\n"
  "    if (node.nodeType !== 1) return;\n"
  "    for (const name of ['src', 'data']) {\n"
  "      const value = node.getAttribute (name);\n"
  "      if (value !== null && /^\\s*file:/i.test (value))\n"
  "        handler.postMessage (JSON.stringify ({ element: node.localName, file: value.trim ().slice (0, 2048) }));\n"
  "    }\n"
  "  };\n"
  "  new MutationObserver (function (records) {\n"
  "    for (const record of records) {\n"
  "      if (record.type === 'attributes') check (record.target);\n"
  "      for (const node of record.addedNodes || []) {\n"
  "        check (node);\n"
  "        if (node.querySelectorAll) node.querySelectorAll ('iframe, frame, object, embed').forEach (check);\n"
  "      }\n"
  "    }\n"
  "  }).observe (document, { subtree: true, childList: true, attributes: true,\n"
  "                          attributeFilter: ['src', 'data'] });\n"
  "}) ();\n";

/* A host message to the page, as if its parent had posted it. */
static const char deliver_function[] =
  "return window.dispatchEvent (new MessageEvent ('message', "
  "{ data: JSON.parse (text), source: window, origin: location.origin }));";

static void
deliver_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(JSCValue) value = NULL;
  g_autoptr(GError) error = NULL;

  value = webkit_web_view_call_async_javascript_function_finish (WEBKIT_WEB_VIEW (object), result, &error);
  if (value == NULL)
    g_debug ("A message to the interface was not delivered: %s", error->message);
}

/* The text goes as an argument, never into the script's source; the calls
 * reach the page in the order they are made. */
static void
deliver (WebKitWebView *web_view,
         const char    *text)
{
  GVariantDict arguments;

  g_variant_dict_init (&arguments, NULL);
  g_variant_dict_insert (&arguments, "text", "s", text);
  webkit_web_view_call_async_javascript_function (web_view, deliver_function, -1,
                                                  g_variant_dict_end (&arguments),
                                                  NULL, NULL, NULL, deliver_cb, NULL);
}

/* The message the top frame's script posted, without its token; NULL
 * when it does not start with @token. */
static char *
take_message (JSCValue   *value,
              const char *token)
{
  g_autofree char *text = NULL;

  if (token == NULL || !jsc_value_is_string (value))
    return NULL;
  text = jsc_value_to_string (value);
  if (strlen (text) < TOKEN_LENGTH || memcmp (text, token, TOKEN_LENGTH) != 0)
    return NULL;
  return g_strdup (text + TOKEN_LENGTH);
}

static void
note_blocked (PlugboardAppView *self,
              const char       *what,
              const char       *detail)
{
  g_debug ("Blocked %s: %s", what, detail);
  if (self->bridge != NULL)
    mcp_app_bridge_note_blocked (self->bridge, what, detail);
}

static char *
permissions_policy (McpUiPermissions permissions)
{
  return g_strdup_printf ("camera=%s, microphone=%s, geolocation=%s, clipboard-write=%s",
                          (permissions & MCP_UI_PERMISSION_CAMERA) ? "(self)" : "()",
                          (permissions & MCP_UI_PERMISSION_MICROPHONE) ? "(self)" : "()",
                          (permissions & MCP_UI_PERMISSION_GEOLOCATION) ? "(self)" : "()",
                          (permissions & MCP_UI_PERMISSION_CLIPBOARD_WRITE) ? "(self)" : "()");
}

static void
weak_ref_free (gpointer data)
{
  g_weak_ref_clear (data);
  g_free (data);
}

/* The one document; every other request under the scheme is refused. */
static void
scheme_request_cb (WebKitURISchemeRequest *request,
                   gpointer                user_data)
{
  g_autoptr(PlugboardAppView) self = g_weak_ref_get (user_data);
  const char *uri = webkit_uri_scheme_request_get_uri (request);
  g_autoptr(WebKitURISchemeResponse) response = NULL;
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *csp = NULL;
  g_autofree char *policy = NULL;
  SoupMessageHeaders *headers;
  McpUiResource *resource;

  /* A page being torn down, or gone with its widget, gets nothing. */
  if (self == NULL || webkit_uri_scheme_request_get_web_view (request) != self->web_view)
    {
      g_autoptr(GError) error = g_error_new (G_IO_ERROR, G_IO_ERROR_CLOSED, "The interface is closed");

      webkit_uri_scheme_request_finish_error (request, error);
      return;
    }

  if (self->bridge == NULL || self->document_uri == NULL ||
      g_strcmp0 (uri, self->document_uri) != 0 ||
      g_strcmp0 (webkit_uri_scheme_request_get_http_method (request), "GET") != 0)
    {
      g_autoptr(GError) error = g_error_new (G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                                             "Only the interface's document is served");

      note_blocked (self, "file", uri);
      webkit_uri_scheme_request_finish_error (request, error);
      return;
    }

  resource = mcp_app_bridge_get_resource (self->bridge);
  bytes = g_bytes_new (mcp_ui_resource_get_html (resource), mcp_ui_resource_get_html_length (resource));
  stream = g_memory_input_stream_new_from_bytes (bytes);
  response = webkit_uri_scheme_response_new (stream, g_bytes_get_size (bytes));
  webkit_uri_scheme_response_set_status (response, SOUP_STATUS_OK, NULL);
  webkit_uri_scheme_response_set_content_type (response, "text/html; charset=utf-8");

  /* A header, not a meta element: the page's own policy can then only
   * narrow it (every policy applies). */
  csp = mcp_ui_resource_build_csp (resource);
  policy = permissions_policy (mcp_ui_resource_get_permissions (resource));
  headers = soup_message_headers_new (SOUP_MESSAGE_HEADERS_RESPONSE);
  soup_message_headers_append (headers, "Content-Security-Policy", csp);
  soup_message_headers_append (headers, "X-Content-Type-Options", "nosniff");
  soup_message_headers_append (headers, "Referrer-Policy", "no-referrer");
  soup_message_headers_append (headers, "Permissions-Policy", policy);
  soup_message_headers_append (headers, "Cache-Control", "no-store");
  webkit_uri_scheme_response_set_http_headers (response, headers);

  webkit_uri_scheme_request_finish_with_response (request, response);
}

/* The navigations allowed: the document itself, a frame's empty or srcdoc
 * document, and one to an origin of the declared frame domains (the CSP's
 * frame-src holds frames to the same). WebKit does not say here whether a
 * navigation is the top frame's: one to a declared frame origin that turns
 * out to be the top frame's is stopped in load_changed_cb — so the most
 * a page can reach that way is an origin its server declared. */
static gboolean
navigation_allowed (PlugboardAppView *self,
                    const char       *uri)
{
  if (g_strcmp0 (uri, self->document_uri) == 0 ||
      g_strcmp0 (uri, "about:blank") == 0 ||
      g_strcmp0 (uri, "about:srcdoc") == 0)
    return TRUE;

  return mcp_ui_resource_allows_frame (mcp_app_bridge_get_resource (self->bridge), uri);
}

static gboolean
decide_policy_cb (WebKitWebView            *web_view,
                  WebKitPolicyDecision     *decision,
                  WebKitPolicyDecisionType  type,
                  PlugboardAppView         *self)
{
  WebKitNavigationAction *action;
  const char *uri;

  if (type == WEBKIT_POLICY_DECISION_TYPE_RESPONSE)
    return FALSE;

  action = webkit_navigation_policy_decision_get_navigation_action (WEBKIT_NAVIGATION_POLICY_DECISION (decision));
  uri = webkit_uri_request_get_uri (webkit_navigation_action_get_request (action));

  if (type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION)
    {
      note_blocked (self, "popup", uri);
      webkit_policy_decision_ignore (decision);
      return TRUE;
    }

  if (self->bridge != NULL && navigation_allowed (self, uri))
    webkit_policy_decision_use (decision);
  else
    {
      note_blocked (self, "navigation", uri);
      webkit_policy_decision_ignore (decision);
    }
  return TRUE;
}

static void
load_changed_cb (WebKitWebView    *web_view,
                 WebKitLoadEvent   event,
                 PlugboardAppView *self)
{
  const char *uri = webkit_web_view_get_uri (web_view);

  /* Only the document may be the top frame's. */
  if (g_strcmp0 (uri, self->document_uri) != 0)
    {
      if (event == WEBKIT_LOAD_STARTED || event == WEBKIT_LOAD_REDIRECTED)
        {
          note_blocked (self, "navigation", uri);
          webkit_web_view_stop_loading (web_view);
        }
      return;
    }

  if (event == WEBKIT_LOAD_FINISHED)
    plugboard_app_view_set_loaded (self, TRUE);
}

static GtkWidget *
create_cb (WebKitWebView          *web_view,
           WebKitNavigationAction *action,
           PlugboardAppView       *self)
{
  note_blocked (self, "popup", webkit_uri_request_get_uri (webkit_navigation_action_get_request (action)));
  return NULL;
}

/* Only what edits or copies text stays in the context menu: nothing that
 * opens, saves or follows a link or an image. */
static gboolean
context_menu_cb (WebKitWebView       *web_view,
                 WebKitContextMenu   *menu,
                 WebKitHitTestResult *hit_test,
                 PlugboardAppView    *self)
{
  GList *items = g_list_copy (webkit_context_menu_get_items (menu));

  for (GList *l = items; l != NULL; l = l->next)
    {
      WebKitContextMenuItem *item = l->data;

      switch (webkit_context_menu_item_get_stock_action (item))
        {
        case WEBKIT_CONTEXT_MENU_ACTION_COPY:
        case WEBKIT_CONTEXT_MENU_ACTION_CUT:
        case WEBKIT_CONTEXT_MENU_ACTION_PASTE:
        case WEBKIT_CONTEXT_MENU_ACTION_DELETE:
        case WEBKIT_CONTEXT_MENU_ACTION_SELECT_ALL:
        case WEBKIT_CONTEXT_MENU_ACTION_INSPECT_ELEMENT:
          break;
        default:
          webkit_context_menu_remove (menu, item);
        }
    }
  g_list_free (items);

  return webkit_context_menu_get_n_items (menu) == 0;
}

/* A permission request asks the person only when the interface declared
 * the permission; the answer is the request's. */
typedef struct
{
  WebKitPermissionRequest *request;
  McpAppBridge *bridge;
  char *what;
} PermissionAsk;

static void
permission_ask_free (PermissionAsk *ask)
{
  g_clear_object (&ask->request);
  g_clear_object (&ask->bridge);
  g_free (ask->what);
  g_free (ask);
}

static void
permission_response_cb (AdwMessageDialog *dialog,
                        const char       *response,
                        PermissionAsk    *ask)
{
  if (g_strcmp0 (response, "allow") == 0)
    webkit_permission_request_allow (ask->request);
  else
    {
      webkit_permission_request_deny (ask->request);
      mcp_app_bridge_note_blocked (ask->bridge, "permission", ask->what);
    }
}

static void
ask_permission (PlugboardAppView        *self,
                WebKitPermissionRequest *request,
                const char              *what,
                const char              *label)
{
  McpPoolTool *tool = mcp_app_bridge_get_tool (self->bridge);
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  PermissionAsk *ask;
  GtkWidget *dialog;

  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                   _("Allow the Interface?"), NULL);
  /* TRANSLATORS: a tool's name, a server's name, a permission ("the camera") */
  adw_message_dialog_format_body (ADW_MESSAGE_DIALOG (dialog),
                                  _("The interface of “%s” from server “%s” asks to use %s."),
                                  mcp_pool_tool_get_display_name (tool),
                                  mcp_pool_tool_get_server_name (tool), label);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "deny", _("_Deny"),
                                    "allow", _("_Allow"),
                                    NULL);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "deny");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "deny");

  ask = g_new0 (PermissionAsk, 1);
  ask->request = g_object_ref (request);
  ask->bridge = g_object_ref (self->bridge);
  ask->what = g_strdup (what);
  g_signal_connect_data (dialog, "response", G_CALLBACK (permission_response_cb), ask,
                         (GClosureNotify) permission_ask_free, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static gboolean
permission_request_cb (WebKitWebView           *web_view,
                       WebKitPermissionRequest *request,
                       PlugboardAppView        *self)
{
  McpUiPermissions declared = MCP_UI_PERMISSION_NONE;
  McpUiPermissions wanted = MCP_UI_PERMISSION_NONE;
  const char *what = G_OBJECT_TYPE_NAME (request);
  const char *label = NULL;

  if (self->bridge != NULL)
    declared = mcp_ui_resource_get_permissions (mcp_app_bridge_get_resource (self->bridge));

  if (WEBKIT_IS_GEOLOCATION_PERMISSION_REQUEST (request))
    {
      wanted = MCP_UI_PERMISSION_GEOLOCATION;
      what = "geolocation";
      label = _("your location");
    }
  else if (WEBKIT_IS_USER_MEDIA_PERMISSION_REQUEST (request) &&
           !webkit_user_media_permission_is_for_display_device (WEBKIT_USER_MEDIA_PERMISSION_REQUEST (request)))
    {
      WebKitUserMediaPermissionRequest *media = WEBKIT_USER_MEDIA_PERMISSION_REQUEST (request);

      if (webkit_user_media_permission_is_for_video_device (media))
        wanted |= MCP_UI_PERMISSION_CAMERA;
      if (webkit_user_media_permission_is_for_audio_device (media))
        wanted |= MCP_UI_PERMISSION_MICROPHONE;
      what = wanted == MCP_UI_PERMISSION_CAMERA ? "camera" :
             wanted == MCP_UI_PERMISSION_MICROPHONE ? "microphone" : "camera, microphone";
      label = wanted == MCP_UI_PERMISSION_CAMERA ? _("the camera") :
              wanted == MCP_UI_PERMISSION_MICROPHONE ? _("the microphone") :
              _("the camera and the microphone");
    }

  if (wanted == MCP_UI_PERMISSION_NONE || (declared & wanted) != wanted)
    {
      note_blocked (self, "permission", what);
      webkit_permission_request_deny (request);
      return TRUE;
    }

  ask_permission (self, request, what, label);
  return TRUE;
}

/* The bridge's messages, only from the top frame's script (the token). */
static void
app_message_cb (WebKitUserContentManager *manager,
                JSCValue                 *value,
                PlugboardAppView         *self)
{
  g_autofree char *text = take_message (value, self->token);

  if (self->bridge == NULL)
    return;
  if (text == NULL)
    {
      note_blocked (self, "message", _("a message not from the interface’s own page"));
      return;
    }
  mcp_app_bridge_receive (self->bridge, text, strlen (text));
}

static void
sandbox_message_cb (WebKitUserContentManager *manager,
                    JSCValue                 *value,
                    PlugboardAppView         *self)
{
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *detail = NULL;
  JsonObject *object;

  if (!jsc_value_is_string (value))
    return;
  text = jsc_value_to_string (value);
  node = json_from_string (text, NULL);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return;
  object = json_node_get_object (node);
  if (json_object_has_member (object, "file"))
    {
      const char *url = json_object_get_string_member_with_default (object, "file", NULL);
      const char *element = json_object_get_string_member_with_default (object, "element", "?");
      g_autofree char *where = NULL;

      if (url == NULL)
        return;
      /* "iframe file:///etc/passwd" */
      where = g_strdup_printf ("%s %s", element, url);
      note_blocked (self, "file", where);
      return;
    }
  detail = g_strdup_printf ("%s %s",
                            json_object_get_string_member_with_default (object, "directive", "?"),
                            json_object_get_string_member_with_default (object, "uri", ""));
  note_blocked (self, "csp", g_strstrip (detail));
}

static WebKitUserContentManager *
new_content_manager (PlugboardAppView *self)
{
  g_autoptr(WebKitUserContentManager) manager = webkit_user_content_manager_new ();
  g_autoptr(WebKitUserScript) bridge = NULL;
  g_autoptr(WebKitUserScript) sandbox = NULL;
  g_autofree char *source = g_strdup_printf (bridge_script, self->token);

  bridge = webkit_user_script_new (source,
                                   WEBKIT_USER_CONTENT_INJECT_TOP_FRAME,
                                   WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START,
                                   NULL, NULL);
  sandbox = webkit_user_script_new_for_world (sandbox_script,
                                              WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES,
                                              WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START,
                                              SANDBOX_WORLD, NULL, NULL);
  webkit_user_content_manager_add_script (manager, bridge);
  webkit_user_content_manager_add_script (manager, sandbox);

  webkit_user_content_manager_register_script_message_handler (manager, APP_HANDLER, NULL);
  webkit_user_content_manager_register_script_message_handler (manager, SANDBOX_HANDLER, SANDBOX_WORLD);
  g_signal_connect_object (manager, "script-message-received::" APP_HANDLER,
                           G_CALLBACK (app_message_cb), self, 0);
  g_signal_connect_object (manager, "script-message-received::" SANDBOX_HANDLER,
                           G_CALLBACK (sandbox_message_cb), self, 0);

  return g_steal_pointer (&manager);
}

static WebKitSettings *
new_settings (McpUiPermissions permissions)
{
  gboolean media = (permissions & (MCP_UI_PERMISSION_CAMERA | MCP_UI_PERMISSION_MICROPHONE)) != 0;

  /* Media capture exists in the page only when it was declared (the
   * person is still asked); everything that opens, files or lingers is
   * off. */
  return webkit_settings_new_with_settings ("enable-javascript", TRUE,
                                            "javascript-can-open-windows-automatically", FALSE,
                                            "javascript-can-access-clipboard",
                                            (permissions & MCP_UI_PERMISSION_CLIPBOARD_WRITE) != 0,
                                            "allow-file-access-from-file-urls", FALSE,
                                            "allow-universal-access-from-file-urls", FALSE,
                                            "allow-top-navigation-to-data-urls", FALSE,
                                            "allow-modal-dialogs", FALSE,
                                            "enable-developer-extras", (gboolean) DEVELOPMENT,
                                            "enable-page-cache", FALSE,
                                            "enable-back-forward-navigation-gestures", FALSE,
                                            "enable-fullscreen", FALSE,
                                            "enable-media-stream", media,
                                            "enable-webrtc", media,
                                            NULL);
}

void
plugboard_app_view_web_start (PlugboardAppView *self)
{
  g_autoptr(WebKitUserContentManager) manager = NULL;
  g_autoptr(WebKitSettings) settings = NULL;
  WebKitSecurityManager *security;
  McpUiResource *resource;
  guint8 random[TOKEN_LENGTH / 2];
  GWeakRef *self_ref;
  static const char * const modes[] = { "inline", "fullscreen", NULL };

  g_assert (self->web_view == NULL);
  g_assert (self->bridge != NULL);

  resource = mcp_app_bridge_get_resource (self->bridge);

  for (guint i = 0; i < G_N_ELEMENTS (random); i++)
    random[i] = g_random_int_range (0, 256);
  self->token = g_malloc (TOKEN_LENGTH + 1);
  for (guint i = 0; i < G_N_ELEMENTS (random); i++)
    g_snprintf (self->token + 2 * i, 3, "%02x", random[i]);

  /* A context and session of its own: the web process and its data live
   * exactly as long as the interface is shown, and nothing is shared with
   * another interface. */
  self->session = webkit_network_session_new_ephemeral ();
  self->context = webkit_web_context_new ();
  webkit_web_context_set_cache_model (self->context, WEBKIT_CACHE_MODEL_DOCUMENT_VIEWER);
  self_ref = g_new0 (GWeakRef, 1);
  g_weak_ref_init (self_ref, self);
  webkit_web_context_register_uri_scheme (self->context, APP_SCHEME, scheme_request_cb,
                                          self_ref, weak_ref_free);
  security = webkit_web_context_get_security_manager (self->context);
  webkit_security_manager_register_uri_scheme_as_secure (security, APP_SCHEME);

  manager = new_content_manager (self);
  settings = new_settings (mcp_ui_resource_get_permissions (resource));
  self->web_view = g_object_new (WEBKIT_TYPE_WEB_VIEW,
                                 "web-context", self->context,
                                 "network-session", self->session,
                                 "user-content-manager", manager,
                                 "settings", settings,
                                 NULL);
  g_object_ref_sink (self->web_view);
  g_signal_connect_object (self->web_view, "decide-policy", G_CALLBACK (decide_policy_cb), self, 0);
  g_signal_connect_object (self->web_view, "load-changed", G_CALLBACK (load_changed_cb), self, 0);
  g_signal_connect_object (self->web_view, "create", G_CALLBACK (create_cb), self, 0);
  g_signal_connect_object (self->web_view, "context-menu", G_CALLBACK (context_menu_cb), self, 0);
  g_signal_connect_object (self->web_view, "permission-request", G_CALLBACK (permission_request_cb), self, 0);
  gtk_widget_set_parent (GTK_WIDGET (self->web_view), GTK_WIDGET (self));

  if (mcp_ui_resource_get_border (resource) == MCP_UI_BORDER_VISIBLE)
    gtk_widget_add_css_class (GTK_WIDGET (self), "card");

  mcp_app_bridge_set_available_display_modes (self->bridge, modes);

  self->document_uri = g_strdup (APP_SCHEME "://" APP_HOST "/index.html");
  webkit_web_view_load_uri (self->web_view, self->document_uri);
}

/* While the page is told of its teardown, it still hears the bridge and
 * is heard: the teardown holds the web view, its context and session, and
 * the bridge, not the widget (which may be gone). */
typedef struct
{
  McpAppBridge *bridge;
  WebKitWebView *web_view;
  WebKitWebContext *context;
  WebKitNetworkSession *session;
  char *token;
} Teardown;

static void
teardown_free (Teardown *teardown)
{
  if (teardown->web_view != NULL)
    {
      g_signal_handlers_disconnect_by_data (webkit_web_view_get_user_content_manager (teardown->web_view),
                                            teardown);
      /* Nothing more is said to the page: its process ends now rather
       * than when WebKit gets to it. */
      webkit_web_view_terminate_web_process (teardown->web_view);
    }
  if (teardown->bridge != NULL)
    g_signal_handlers_disconnect_by_data (teardown->bridge, teardown);
  g_clear_object (&teardown->bridge);
  g_clear_object (&teardown->web_view);
  g_clear_object (&teardown->context);
  g_clear_object (&teardown->session);
  g_free (teardown->token);
  g_free (teardown);
}

static void
teardown_post_cb (McpAppBridge *bridge,
                  const char   *text,
                  Teardown     *teardown)
{
  deliver (teardown->web_view, text);
}

static void
teardown_message_cb (WebKitUserContentManager *manager,
                     JSCValue                 *value,
                     Teardown                 *teardown)
{
  g_autofree char *text = take_message (value, teardown->token);

  if (text != NULL)
    mcp_app_bridge_receive (teardown->bridge, text, strlen (text));
}

static void
teardown_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!mcp_app_bridge_teardown_finish (MCP_APP_BRIDGE (object), result, &error))
    g_debug ("The interface's teardown: %s", error->message);
  teardown_free (user_data);
}

void
plugboard_app_view_web_stop (PlugboardAppView *self)
{
  Teardown *teardown;

  gtk_widget_remove_css_class (GTK_WIDGET (self), "card");
  g_clear_pointer (&self->document_uri, g_free);

  if (self->web_view == NULL)
    return;

  g_signal_handlers_disconnect_by_data (self->web_view, self);
  g_signal_handlers_disconnect_by_data (webkit_web_view_get_user_content_manager (self->web_view), self);
  gtk_widget_unparent (GTK_WIDGET (self->web_view));

  teardown = g_new0 (Teardown, 1);
  teardown->web_view = g_steal_pointer (&self->web_view);
  teardown->context = g_steal_pointer (&self->context);
  teardown->session = g_steal_pointer (&self->session);
  teardown->token = g_steal_pointer (&self->token);
  if (self->bridge == NULL || mcp_app_bridge_get_closed (self->bridge))
    {
      teardown_free (teardown);
      return;
    }

  teardown->bridge = g_object_ref (self->bridge);
  g_signal_connect (teardown->bridge, "post", G_CALLBACK (teardown_post_cb), teardown);
  g_signal_connect (webkit_web_view_get_user_content_manager (teardown->web_view),
                    "script-message-received::" APP_HANDLER,
                    G_CALLBACK (teardown_message_cb), teardown);
  mcp_app_bridge_teardown_async (teardown->bridge, "closed", NULL, teardown_cb, teardown);
}

void
plugboard_app_view_web_post (PlugboardAppView *self,
                             const char       *text)
{
  if (self->web_view != NULL)
    deliver (self->web_view, text);
}

#endif /* HAVE_WEBKIT */
