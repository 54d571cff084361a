/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-app-bridge"

#include "config.h"

#include "mcp-app-bridge.h"
#include "mcp-app-bridge-private.h"

#include <glib/gi18n.h>

#include "mcp-app-note-private.h"
#include "mcp-error.h"
#include "mcp-message.h"
#include "mcp-trace.h"

struct _McpAppBridge
{
  GObject         parent_instance;

  McpProject     *project;
  McpPoolTool    *tool;
  McpUiResource  *resource;
  McpTrace       *trace;
  GListStore     *notes;
  McpAppNote     *context_note;
  JsonObject     *host_context;
  char          **available_modes;
  char          **page_modes;
  char           *display_mode;
  /* What waits for ui/notifications/initialized, oldest first. */
  GPtrArray      *queued;
  GCancellable   *cancellable;

  GTask          *teardown;
  guint           teardown_source;
  guint           teardown_timeout_ms;
  gint64          teardown_id;
  gint64          next_id;

  guint           in_flight;
  int             content_width;
  int             content_height;
  guint           answered_initialize : 1;
  guint           initialized : 1;
  guint           closed : 1;
  guint           tool_input_sent : 1;
};

G_DEFINE_FINAL_TYPE (McpAppBridge, mcp_app_bridge, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_TOOL,
  PROP_RESOURCE,
  PROP_INITIALIZED,
  PROP_DISPLAY_MODE,
  PROP_CONTENT_WIDTH,
  PROP_CONTENT_HEIGHT,
  PROP_CLOSED,
  N_PROPS
};

enum {
  POST,
  TEARDOWN_REQUESTED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* Sizes a page may say it needs: beyond these it is lying or broken. */
#define MAX_CONTENT_SIDE 10000

/* ---- sending ------------------------------------------------------------ */

static void
post_message (McpAppBridge *self,
              McpMessage   *message)
{
  g_autofree char *text = NULL;
  gsize length;

  if (self->closed)
    return;
  text = mcp_message_to_string (message, &length);
  if (self->trace != NULL)
    mcp_trace_record_app (self->trace, MCP_TRACE_DIRECTION_OUT, message, text, length, NULL);
  g_signal_emit (self, signals[POST], 0, text);
}

/* Notifications about the call wait for the page to say it is ready. */
static void
post_when_initialized (McpAppBridge *self,
                       McpMessage   *message)
{
  if (self->closed)
    return;
  if (self->initialized)
    post_message (self, message);
  else
    g_ptr_array_add (self->queued, g_object_ref (message));
}

static void
notify_page (McpAppBridge *self,
             const char   *method,
             JsonObject   *params)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), params);
  g_autoptr(McpMessage) message = mcp_message_new_notification (method, node);

  post_when_initialized (self, message);
}

void
mcp_app_bridge_reply (McpAppBridge *self,
                      JsonNode     *id,
                      JsonNode     *result)
{
  g_autoptr(McpMessage) message = NULL;
  g_autoptr(JsonNode) empty = NULL;

  g_assert (MCP_IS_APP_BRIDGE (self));

  if (result == NULL)
    {
      result = empty = json_node_new (JSON_NODE_OBJECT);
      json_node_take_object (empty, json_object_new ());
    }
  message = mcp_message_new_result (id, result);
  post_message (self, message);
}

void
mcp_app_bridge_reply_error (McpAppBridge *self,
                            JsonNode     *id,
                            int           code,
                            const char   *text)
{
  g_autoptr(McpMessage) message = NULL;

  g_assert (MCP_IS_APP_BRIDGE (self));

  message = mcp_message_new_error (id, code, text, NULL);
  post_message (self, message);
}

/* ---- notes -------------------------------------------------------------- */

void
mcp_app_bridge_add_note (McpAppBridge   *self,
                         McpAppNoteKind  kind,
                         const char     *title,
                         const char     *text,
                         JsonObject     *params)
{
  g_autoptr(McpAppNote) note = mcp_app_note_new (kind, title, text, params);
  guint position;

  g_assert (MCP_IS_APP_BRIDGE (self));

  /* The model's context is one thing, not a history: the latest replaces
   * the previous, and moves to the end as the newest note. */
  if (kind == MCP_APP_NOTE_MODEL_CONTEXT)
    {
      if (self->context_note != NULL &&
          g_list_store_find (self->notes, self->context_note, &position))
        g_list_store_remove (self->notes, position);
      g_set_object (&self->context_note, note);
    }
  g_list_store_append (self->notes, note);
}

static void
note_blocked (McpAppBridge *self,
              const char   *what,
              const char   *detail)
{
  g_autofree char *title = NULL;

  if (self->trace != NULL)
    mcp_trace_record_app_blocked (self->trace, what, detail);
  /* Translators: a note of an app view; %s is what was blocked: "navigation", "tools/call" … */
  title = g_strdup_printf (_("Blocked %s"), what);
  mcp_app_bridge_add_note (self, MCP_APP_NOTE_BLOCKED, title, detail, NULL);
}

void
mcp_app_bridge_note_blocked (McpAppBridge *self,
                             const char   *what,
                             const char   *detail)
{
  g_return_if_fail (MCP_IS_APP_BRIDGE (self));
  g_return_if_fail (what != NULL);

  note_blocked (self, what, detail);
}

/* The text blocks of @params' "content", one a line. */
static char *
dup_content_text (JsonObject *params)
{
  g_autoptr(GString) text = g_string_new (NULL);
  JsonNode *content = json_object_get_member (params, "content");
  JsonArray *array;

  if (content == NULL || !JSON_NODE_HOLDS_ARRAY (content))
    return NULL;
  array = json_node_get_array (content);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *block = json_array_get_element (array, i);
      JsonObject *object;
      JsonNode *type;
      JsonNode *part;

      if (!JSON_NODE_HOLDS_OBJECT (block))
        continue;
      object = json_node_get_object (block);
      type = json_object_get_member (object, "type");
      part = json_object_get_member (object, "text");
      if (type == NULL || json_node_get_value_type (type) != G_TYPE_STRING ||
          !g_str_equal (json_node_get_string (type), "text") ||
          part == NULL || json_node_get_value_type (part) != G_TYPE_STRING)
        continue;
      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, json_node_get_string (part));
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

const char *
mcp_app_bridge_string_member (JsonObject *object,
                              const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  if (node == NULL || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static void
note_message (McpAppBridge *self,
              JsonObject   *params)
{
  g_autofree char *text = dup_content_text (params);

  mcp_app_bridge_add_note (self, MCP_APP_NOTE_MESSAGE, _("Message"), text, params);
}

static void
note_model_context (McpAppBridge *self,
                    JsonObject   *params)
{
  g_autofree char *text = dup_content_text (params);
  JsonNode *structured = json_object_get_member (params, "structuredContent");

  if ((text == NULL || *text == '\0') && structured != NULL)
    {
      g_free (text);
      text = json_to_string (structured, FALSE);
    }
  mcp_app_bridge_add_note (self, MCP_APP_NOTE_MODEL_CONTEXT, _("Model context"), text, params);
}

static void
note_log (McpAppBridge *self,
          JsonObject   *params)
{
  const char *level = mcp_app_bridge_string_member (params, "level");
  JsonNode *data = json_object_get_member (params, "data");
  g_autofree char *title = NULL;
  g_autofree char *text = NULL;

  if (data != NULL && json_node_get_value_type (data) == G_TYPE_STRING)
    text = g_strdup (json_node_get_string (data));
  else if (data != NULL)
    text = json_to_string (data, FALSE);
  /* Translators: a note of an app view; %s is a log level: "info", "error" … */
  title = g_strdup_printf (_("Log (%s)"), level != NULL ? level : "info");
  mcp_app_bridge_add_note (self, MCP_APP_NOTE_LOG, title, text, params);
}

/* ---- host context --------------------------------------------------------- */

static JsonNode *
strv_node (char **strv)
{
  JsonArray *array = json_array_new ();
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);

  for (guint i = 0; strv != NULL && strv[i] != NULL; i++)
    json_array_add_string_element (array, strv[i]);
  json_node_take_array (node, array);
  return node;
}

/* Sets @context's members in the host context; the ones that changed go to
 * the page once it has had its initialize answer. */
static void
merge_host_context (McpAppBridge *self,
                    JsonObject   *context)
{
  g_autoptr(JsonObject) changed = json_object_new ();
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;

  json_object_iter_init (&iter, context);
  while (json_object_iter_next (&iter, &name, &value))
    {
      JsonNode *old = json_object_get_member (self->host_context, name);

      if (old != NULL && json_node_equal (old, value))
        continue;
      json_object_set_member (self->host_context, name, json_node_copy (value));
      json_object_set_member (changed, name, json_node_copy (value));
    }

  if (self->answered_initialize && json_object_get_size (changed) > 0)
    notify_page (self, "ui/notifications/host-context-changed", changed);
}

void
mcp_app_bridge_update_host_context (McpAppBridge *self,
                                    JsonObject   *context)
{
  g_return_if_fail (MCP_IS_APP_BRIDGE (self));
  g_return_if_fail (context != NULL);

  merge_host_context (self, context);
}

JsonObject *
mcp_app_bridge_get_host_context (McpAppBridge *self)
{
  g_return_val_if_fail (MCP_IS_APP_BRIDGE (self), NULL);
  return self->host_context;
}

static void
set_display_mode (McpAppBridge *self,
                  const char   *mode)
{
  g_autoptr(JsonObject) context = json_object_new ();

  if (g_strcmp0 (self->display_mode, mode) == 0)
    return;
  g_free (self->display_mode);
  self->display_mode = g_strdup (mode);
  json_object_set_string_member (context, "displayMode", mode);
  merge_host_context (self, context);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DISPLAY_MODE]);
}

static gboolean
is_display_mode (const char *mode)
{
  return mode != NULL && g_strv_contains ((const char * const[]) { "inline", "fullscreen", "pip", NULL }, mode);
}

void
mcp_app_bridge_set_available_display_modes (McpAppBridge       *self,
                                            const char * const *modes)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(JsonObject) context = json_object_new ();

  g_return_if_fail (MCP_IS_APP_BRIDGE (self));

  for (guint i = 0; modes != NULL && modes[i] != NULL; i++)
    if (is_display_mode (modes[i]))
      g_strv_builder_add (builder, modes[i]);
  g_strfreev (self->available_modes);
  self->available_modes = g_strv_builder_end (builder);
  json_object_set_member (context, "availableDisplayModes", strv_node (self->available_modes));
  merge_host_context (self, context);
}

void
mcp_app_bridge_set_display_mode (McpAppBridge *self,
                                 const char   *mode)
{
  g_return_if_fail (MCP_IS_APP_BRIDGE (self));
  g_return_if_fail (is_display_mode (mode));

  set_display_mode (self, mode);
}

/* ---- the call the view shows ------------------------------------------- */

/* hostContext.toolInfo: the tool the view belongs to, and the id of the
 * call it shows once known. */
static void
set_tool_info (McpAppBridge *self,
               JsonNode     *request_id)
{
  g_autoptr(JsonObject) context = json_object_new ();
  JsonObject *info = json_object_new ();

  if (request_id != NULL && !JSON_NODE_HOLDS_NULL (request_id))
    json_object_set_member (info, "id", json_node_copy (request_id));
  json_object_set_object_member (info, "tool",
                                 json_object_ref (mcp_tool_get_json (mcp_pool_tool_get_tool (self->tool))));
  json_object_set_object_member (context, "toolInfo", info);
  merge_host_context (self, context);
}

void
mcp_app_bridge_set_tool_input (McpAppBridge *self,
                               JsonObject   *arguments,
                               JsonNode     *request_id)
{
  g_autoptr(JsonObject) params = json_object_new ();

  g_return_if_fail (MCP_IS_APP_BRIDGE (self));

  /* The view shows one call: its input goes once. */
  if (self->tool_input_sent)
    return;
  self->tool_input_sent = TRUE;

  set_tool_info (self, request_id);
  json_object_set_object_member (params, "arguments",
                                 arguments != NULL ? json_object_ref (arguments) : json_object_new ());
  notify_page (self, "ui/notifications/tool-input", params);
}

void
mcp_app_bridge_set_tool_result (McpAppBridge *self,
                                JsonObject   *result)
{
  g_return_if_fail (MCP_IS_APP_BRIDGE (self));
  g_return_if_fail (result != NULL);

  notify_page (self, "ui/notifications/tool-result", result);
}

void
mcp_app_bridge_set_tool_cancelled (McpAppBridge *self,
                                   const char   *reason)
{
  g_autoptr(JsonObject) params = json_object_new ();

  g_return_if_fail (MCP_IS_APP_BRIDGE (self));

  if (reason != NULL)
    json_object_set_string_member (params, "reason", reason);
  notify_page (self, "ui/notifications/tool-cancelled", params);
}

/* ---- the page's messages ------------------------------------------------ */

/* A deep copy of @object in a node: what was sent must not change with
 * the host's object afterwards. */
static JsonNode *
object_node (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), object);
  g_autofree char *text = json_to_string (node, FALSE);

  return json_from_string (text, NULL);
}

static JsonObject *
dup_host_capabilities (McpAppBridge *self)
{
  JsonObject *caps = json_object_new ();
  JsonObject *sandbox = json_object_new ();
  JsonObject *message = json_object_new ();
  JsonObject *context = json_object_new ();

  json_object_set_object_member (caps, "openLinks", json_object_new ());
  json_object_set_object_member (caps, "downloadFile", json_object_new ());
  json_object_set_object_member (caps, "serverTools", json_object_new ());
  json_object_set_object_member (caps, "serverResources", json_object_new ());
  json_object_set_object_member (caps, "logging", json_object_new ());
  json_object_set_object_member (message, "text", json_object_new ());
  json_object_set_object_member (caps, "message", message);
  json_object_set_object_member (context, "text", json_object_new ());
  json_object_set_object_member (context, "structuredContent", json_object_new ());
  json_object_set_object_member (caps, "updateModelContext", context);
  if (self->resource != NULL)
    {
      json_object_set_object_member (sandbox, "csp", mcp_ui_resource_dup_csp_json (self->resource));
      json_object_set_object_member (sandbox, "permissions",
                                     mcp_ui_resource_dup_permissions_json (self->resource));
    }
  else
    {
      json_object_set_object_member (sandbox, "csp", json_object_new ());
      json_object_set_object_member (sandbox, "permissions", json_object_new ());
    }
  json_object_set_object_member (caps, "sandbox", sandbox);
  return caps;
}

static void
answer_initialize (McpAppBridge *self,
                   JsonNode     *id,
                   JsonObject   *params)
{
  g_autoptr(JsonNode) node = NULL;
  JsonObject *result = json_object_new ();
  JsonObject *host = json_object_new ();
  JsonObject *app_caps = NULL;
  JsonNode *modes;

  /* What the page can show: request-display-mode needs it on both sides. */
  if (params != NULL && json_object_has_member (params, "appCapabilities") &&
      JSON_NODE_HOLDS_OBJECT (json_object_get_member (params, "appCapabilities")))
    app_caps = json_object_get_object_member (params, "appCapabilities");
  modes = app_caps != NULL ? json_object_get_member (app_caps, "availableDisplayModes") : NULL;
  g_clear_pointer (&self->page_modes, g_strfreev);
  if (modes != NULL && JSON_NODE_HOLDS_ARRAY (modes))
    {
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
      JsonArray *array = json_node_get_array (modes);

      for (guint i = 0; i < json_array_get_length (array) && i < 8; i++)
        {
          JsonNode *mode = json_array_get_element (array, i);

          if (json_node_get_value_type (mode) == G_TYPE_STRING &&
              is_display_mode (json_node_get_string (mode)))
            g_strv_builder_add (builder, json_node_get_string (mode));
        }
      self->page_modes = g_strv_builder_end (builder);
    }

  json_object_set_string_member (result, "protocolVersion", MCP_UI_PROTOCOL_VERSION);
  json_object_set_string_member (host, "name", "plugboard");
  json_object_set_string_member (host, "title", "Plugboard");
  json_object_set_string_member (host, "version", PACKAGE_VERSION);
  json_object_set_object_member (result, "hostInfo", host);
  json_object_set_object_member (result, "hostCapabilities", dup_host_capabilities (self));
  json_object_set_member (result, "hostContext", object_node (self->host_context));
  node = json_node_init_object (json_node_alloc (), result);
  json_object_unref (result);

  mcp_app_bridge_reply (self, id, node);
  self->answered_initialize = TRUE;
}

static void
flush_queue (McpAppBridge *self)
{
  g_autoptr(GPtrArray) queued = g_steal_pointer (&self->queued);

  self->queued = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < queued->len; i++)
    post_message (self, g_ptr_array_index (queued, i));
}

static void
answer_display_mode (McpAppBridge *self,
                     JsonNode     *id,
                     JsonObject   *params)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonObject) result = json_object_new ();
  const char *mode = mcp_app_bridge_string_member (params, "mode");

  if (!is_display_mode (mode))
    {
      mcp_app_bridge_reply_error (self, id, MCP_JSONRPC_ERROR_INVALID_PARAMS,
                                  "mode must be \"inline\", \"fullscreen\" or \"pip\"");
      return;
    }
  if (self->available_modes != NULL && g_strv_contains ((const char * const *) self->available_modes, mode) &&
      self->page_modes != NULL && g_strv_contains ((const char * const *) self->page_modes, mode))
    set_display_mode (self, mode);

  json_object_set_string_member (result, "mode", self->display_mode);
  node = json_node_init_object (json_node_alloc (), result);
  mcp_app_bridge_reply (self, id, node);
}

static void
size_changed (McpAppBridge *self,
              JsonObject   *params)
{
  static const struct { const char *name; guint prop; gsize offset; } sides[] = {
    { "width", PROP_CONTENT_WIDTH, G_STRUCT_OFFSET (McpAppBridge, content_width) },
    { "height", PROP_CONTENT_HEIGHT, G_STRUCT_OFFSET (McpAppBridge, content_height) },
  };

  for (guint i = 0; i < G_N_ELEMENTS (sides); i++)
    {
      JsonNode *node = json_object_get_member (params, sides[i].name);
      int *field = G_STRUCT_MEMBER_P (self, sides[i].offset);
      double value;
      int side;

      if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
        continue;
      if (json_node_get_value_type (node) == G_TYPE_INT64)
        value = (double) json_node_get_int (node);
      else if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
        value = json_node_get_double (node);
      else
        continue;
      if (value != value)
        continue;
      side = (int) CLAMP (value, 0, MAX_CONTENT_SIDE);
      if (*field == side)
        continue;
      *field = side;
      g_object_notify_by_pspec (G_OBJECT (self), properties[sides[i].prop]);
    }
}

static void
receive_request (McpAppBridge *self,
                 McpMessage   *message)
{
  const char *method = mcp_message_get_method (message);
  JsonNode *id = mcp_message_get_id (message);
  JsonObject *params = mcp_message_get_params_object (message);
  g_autoptr(JsonObject) empty = NULL;
  static const char * const later[] = {
    "tools/call", "resources/read", "ui/open-link", "ui/download-file", NULL
  };

  if (params == NULL)
    params = empty = json_object_new ();

  if (g_str_equal (method, "ui/initialize"))
    answer_initialize (self, id, params);
  else if (g_str_equal (method, "ping"))
    mcp_app_bridge_reply (self, id, NULL);
  else if (g_str_equal (method, "ui/message"))
    {
      note_message (self, params);
      mcp_app_bridge_reply (self, id, NULL);
    }
  else if (g_str_equal (method, "ui/update-model-context"))
    {
      note_model_context (self, params);
      mcp_app_bridge_reply (self, id, NULL);
    }
  else if (g_str_equal (method, "ui/request-display-mode"))
    answer_display_mode (self, id, params);
  else if (g_strv_contains (later, method))
    {
      if (self->in_flight >= MCP_APP_BRIDGE_MAX_IN_FLIGHT)
        {
          note_blocked (self, method, "more than 16 requests in flight");
          mcp_app_bridge_reply_error (self, id, MCP_JSONRPC_ERROR_INTERNAL_ERROR,
                                      "Too many requests in flight (at most 16)");
          return;
        }
      self->in_flight++;
      if (g_str_equal (method, "tools/call"))
        mcp_app_bridge_call_tool (self, id, params);
      else if (g_str_equal (method, "resources/read"))
        mcp_app_bridge_read_resource (self, id, params);
      else if (g_str_equal (method, "ui/open-link"))
        mcp_app_bridge_open_link (self, id, params);
      else
        mcp_app_bridge_download_file (self, id, params);
    }
  else
    {
      g_autofree char *text = g_strdup_printf ("Method not found: %s", method);

      mcp_app_bridge_reply_error (self, id, MCP_JSONRPC_ERROR_METHOD_NOT_FOUND, text);
    }
}

static void
receive_notification (McpAppBridge *self,
                      McpMessage   *message)
{
  const char *method = mcp_message_get_method (message);
  JsonObject *params = mcp_message_get_params_object (message);
  g_autoptr(JsonObject) empty = NULL;

  if (params == NULL)
    params = empty = json_object_new ();

  if (g_str_equal (method, "ui/notifications/initialized"))
    {
      if (self->initialized)
        return;
      self->initialized = TRUE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INITIALIZED]);
      flush_queue (self);
    }
  else if (g_str_equal (method, "ui/notifications/size-changed"))
    size_changed (self, params);
  else if (g_str_equal (method, "ui/notifications/request-teardown"))
    g_signal_emit (self, signals[TEARDOWN_REQUESTED], 0);
  else if (g_str_equal (method, "notifications/message"))
    note_log (self, params);
  /* Other notifications need no answer and change nothing here. */
}

static void finish_teardown (McpAppBridge *self);

static void
receive_response (McpAppBridge *self,
                  McpMessage   *message)
{
  gint64 id;

  if (self->teardown != NULL && mcp_message_get_int_id (message, &id) && id == self->teardown_id)
    finish_teardown (self);
}

void
mcp_app_bridge_receive (McpAppBridge *self,
                        const char   *text,
                        gsize         length)
{
  g_autoptr(GPtrArray) messages = NULL;
  g_autoptr(GError) error = NULL;
  McpMessage *message;

  g_return_if_fail (MCP_IS_APP_BRIDGE (self));
  g_return_if_fail (text != NULL || length == 0);

  if (self->closed)
    return;

  if (length > MCP_APP_BRIDGE_MAX_MESSAGE)
    {
      g_autoptr(JsonNode) id = mcp_message_recover_id (text, length);
      g_autofree char *detail = g_strdup_printf ("a message of %" G_GSIZE_FORMAT " bytes (at most %d)",
                                                 length, MCP_APP_BRIDGE_MAX_MESSAGE);

      g_set_error (&error, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE, "%s", detail);
      if (self->trace != NULL)
        mcp_trace_record_app (self->trace, MCP_TRACE_DIRECTION_IN, NULL, text, length, error);
      note_blocked (self, "message", detail);
      if (id != NULL)
        mcp_app_bridge_reply_error (self, id, MCP_JSONRPC_ERROR_INVALID_REQUEST, "Message too large (at most 4 MiB)");
      return;
    }

  messages = mcp_message_parse (text != NULL ? text : "", length, &error);
  if (messages != NULL && messages->len != 1)
    {
      g_clear_pointer (&messages, g_ptr_array_unref);
      g_set_error_literal (&error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_INVALID_REQUEST,
                           "A batch: an app sends one message at a time");
    }
  if (messages == NULL)
    {
      g_autoptr(JsonNode) id = mcp_message_recover_id (text != NULL ? text : "", length);
      int code = g_error_matches (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_INVALID_REQUEST)
                 ? MCP_JSONRPC_ERROR_INVALID_REQUEST : MCP_JSONRPC_ERROR_PARSE_ERROR;

      if (self->trace != NULL)
        mcp_trace_record_app (self->trace, MCP_TRACE_DIRECTION_IN, NULL, text != NULL ? text : "", length, error);
      mcp_app_bridge_reply_error (self, id, code, error->message);
      return;
    }

  message = g_ptr_array_index (messages, 0);
  if (self->trace != NULL)
    mcp_trace_record_app (self->trace, MCP_TRACE_DIRECTION_IN, message, text, length, NULL);

  switch (mcp_message_get_kind (message))
    {
    case MCP_MESSAGE_REQUEST:
      receive_request (self, message);
      break;
    case MCP_MESSAGE_NOTIFICATION:
      receive_notification (self, message);
      break;
    case MCP_MESSAGE_RESULT:
    case MCP_MESSAGE_ERROR:
      receive_response (self, message);
      break;
    }
}

void
mcp_app_bridge_end_request (McpAppBridge *self)
{
  g_assert (MCP_IS_APP_BRIDGE (self));
  g_assert (self->in_flight > 0);

  self->in_flight--;
}

/* ---- teardown ------------------------------------------------------------ */

void
mcp_app_bridge_close (McpAppBridge *self)
{
  g_autoptr(GTask) teardown = NULL;

  g_return_if_fail (MCP_IS_APP_BRIDGE (self));

  if (self->closed)
    return;
  self->closed = TRUE;
  g_cancellable_cancel (self->cancellable);
  g_ptr_array_set_size (self->queued, 0);
  g_clear_handle_id (&self->teardown_source, g_source_remove);
  teardown = g_steal_pointer (&self->teardown);
  if (teardown != NULL)
    g_task_return_boolean (teardown, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CLOSED]);
}

static void
finish_teardown (McpAppBridge *self)
{
  mcp_app_bridge_close (self);
}

static gboolean
teardown_timeout_cb (gpointer user_data)
{
  McpAppBridge *self = user_data;

  self->teardown_source = 0;
  g_debug ("The page did not answer ui/resource-teardown in time");
  finish_teardown (self);
  return G_SOURCE_REMOVE;
}

void
mcp_app_bridge_teardown_async (McpAppBridge        *self,
                               const char          *reason,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(JsonObject) params = json_object_new ();
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) id = NULL;
  g_autoptr(McpMessage) message = NULL;

  g_return_if_fail (MCP_IS_APP_BRIDGE (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_app_bridge_teardown_async);

  /* Closed already, or a teardown under way: nothing more to wait for. */
  if (self->closed || self->teardown != NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  if (reason != NULL)
    json_object_set_string_member (params, "reason", reason);
  node = json_node_init_object (json_node_alloc (), params);
  self->teardown_id = ++self->next_id;
  id = mcp_message_id_new_int (self->teardown_id);
  message = mcp_message_new_request (id, "ui/resource-teardown", node);
  self->teardown = g_steal_pointer (&task);
  self->teardown_source = g_timeout_add (self->teardown_timeout_ms, teardown_timeout_cb, self);
  post_message (self, message);
}

gboolean
mcp_app_bridge_teardown_finish (McpAppBridge  *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}

void
mcp_app_bridge_set_teardown_timeout (McpAppBridge *self,
                                     guint         timeout_ms)
{
  g_assert (MCP_IS_APP_BRIDGE (self));
  self->teardown_timeout_ms = timeout_ms;
}

/* ---- the object ------------------------------------------------------------ */

static void
mcp_app_bridge_dispose (GObject *object)
{
  McpAppBridge *self = MCP_APP_BRIDGE (object);

  if (!self->closed)
    mcp_app_bridge_close (self);
  g_clear_object (&self->context_note);
  if (self->notes != NULL)
    g_list_store_remove_all (self->notes);

  G_OBJECT_CLASS (mcp_app_bridge_parent_class)->dispose (object);
}

static void
mcp_app_bridge_finalize (GObject *object)
{
  McpAppBridge *self = MCP_APP_BRIDGE (object);

  g_clear_object (&self->project);
  g_clear_object (&self->tool);
  g_clear_object (&self->resource);
  g_clear_object (&self->trace);
  g_clear_object (&self->notes);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->host_context, json_object_unref);
  g_clear_pointer (&self->queued, g_ptr_array_unref);
  g_strfreev (self->available_modes);
  g_strfreev (self->page_modes);
  g_free (self->display_mode);

  G_OBJECT_CLASS (mcp_app_bridge_parent_class)->finalize (object);
}

static void
mcp_app_bridge_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  McpAppBridge *self = MCP_APP_BRIDGE (object);

  switch (prop_id)
    {
    case PROP_TOOL:
      g_value_set_object (value, self->tool);
      break;
    case PROP_RESOURCE:
      g_value_set_object (value, self->resource);
      break;
    case PROP_INITIALIZED:
      g_value_set_boolean (value, self->initialized);
      break;
    case PROP_DISPLAY_MODE:
      g_value_set_string (value, self->display_mode);
      break;
    case PROP_CONTENT_WIDTH:
      g_value_set_int (value, self->content_width);
      break;
    case PROP_CONTENT_HEIGHT:
      g_value_set_int (value, self->content_height);
      break;
    case PROP_CLOSED:
      g_value_set_boolean (value, self->closed);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_app_bridge_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  McpAppBridge *self = MCP_APP_BRIDGE (object);

  switch (prop_id)
    {
    case PROP_TOOL:
      self->tool = g_value_dup_object (value);
      break;
    case PROP_RESOURCE:
      self->resource = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_app_bridge_class_init (McpAppBridgeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = mcp_app_bridge_dispose;
  object_class->finalize = mcp_app_bridge_finalize;
  object_class->get_property = mcp_app_bridge_get_property;
  object_class->set_property = mcp_app_bridge_set_property;

  properties[PROP_TOOL] =
    g_param_spec_object ("tool", NULL, NULL, MCP_TYPE_POOL_TOOL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RESOURCE] =
    g_param_spec_object ("resource", NULL, NULL, MCP_TYPE_UI_RESOURCE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_INITIALIZED] =
    g_param_spec_boolean ("initialized", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_DISPLAY_MODE] =
    g_param_spec_string ("display-mode", NULL, NULL, "inline",
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CONTENT_WIDTH] =
    g_param_spec_int ("content-width", NULL, NULL, -1, MAX_CONTENT_SIDE, -1,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CONTENT_HEIGHT] =
    g_param_spec_int ("content-height", NULL, NULL, -1, MAX_CONTENT_SIDE, -1,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CLOSED] =
    g_param_spec_boolean ("closed", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[POST] =
    g_signal_new ("post", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
  signals[TEARDOWN_REQUESTED] =
    g_signal_new ("teardown-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
mcp_app_bridge_init (McpAppBridge *self)
{
  self->notes = g_list_store_new (MCP_TYPE_APP_NOTE);
  self->queued = g_ptr_array_new_with_free_func (g_object_unref);
  self->cancellable = g_cancellable_new ();
  self->host_context = json_object_new ();
  self->display_mode = g_strdup ("inline");
  self->available_modes = g_strdupv ((char *[]) { (char *) "inline", NULL });
  self->content_width = -1;
  self->content_height = -1;
  self->teardown_timeout_ms = MCP_APP_BRIDGE_TEARDOWN_TIMEOUT_MS;

  json_object_set_string_member (self->host_context, "platform", "desktop");
  json_object_set_string_member (self->host_context, "displayMode", "inline");
  json_object_set_member (self->host_context, "availableDisplayModes", strv_node (self->available_modes));
}

McpAppBridge *
mcp_app_bridge_new (McpProject    *project,
                    McpPoolTool   *tool,
                    McpUiResource *resource)
{
  McpAppBridge *self;
  McpServerConnection *connection;

  g_return_val_if_fail (MCP_IS_PROJECT (project), NULL);
  g_return_val_if_fail (MCP_IS_POOL_TOOL (tool), NULL);
  g_return_val_if_fail (resource == NULL || MCP_IS_UI_RESOURCE (resource), NULL);

  self = g_object_new (MCP_TYPE_APP_BRIDGE, "tool", tool, "resource", resource, NULL);
  self->project = g_object_ref (project);
  set_tool_info (self, NULL);
  connection = mcp_pool_tool_get_connection (tool);
  if (connection != NULL && mcp_server_connection_get_trace (connection) != NULL)
    self->trace = g_object_ref (mcp_server_connection_get_trace (connection));
  return self;
}

McpProject *
mcp_app_bridge_get_project (McpAppBridge *self)
{
  return self->project;
}

GCancellable *
mcp_app_bridge_get_cancellable (McpAppBridge *self)
{
  return self->cancellable;
}

McpPoolTool *
mcp_app_bridge_get_tool (McpAppBridge *self)
{
  g_return_val_if_fail (MCP_IS_APP_BRIDGE (self), NULL);
  return self->tool;
}

McpUiResource *
mcp_app_bridge_get_resource (McpAppBridge *self)
{
  g_return_val_if_fail (MCP_IS_APP_BRIDGE (self), NULL);
  return self->resource;
}

gboolean
mcp_app_bridge_get_initialized (McpAppBridge *self)
{
  g_return_val_if_fail (MCP_IS_APP_BRIDGE (self), FALSE);
  return self->initialized;
}

gboolean
mcp_app_bridge_get_closed (McpAppBridge *self)
{
  g_return_val_if_fail (MCP_IS_APP_BRIDGE (self), FALSE);
  return self->closed;
}

const char *
mcp_app_bridge_get_display_mode (McpAppBridge *self)
{
  g_return_val_if_fail (MCP_IS_APP_BRIDGE (self), NULL);
  return self->display_mode;
}

int
mcp_app_bridge_get_content_width (McpAppBridge *self)
{
  g_return_val_if_fail (MCP_IS_APP_BRIDGE (self), -1);
  return self->content_width;
}

int
mcp_app_bridge_get_content_height (McpAppBridge *self)
{
  g_return_val_if_fail (MCP_IS_APP_BRIDGE (self), -1);
  return self->content_height;
}

GListModel *
mcp_app_bridge_get_notes (McpAppBridge *self)
{
  g_return_val_if_fail (MCP_IS_APP_BRIDGE (self), NULL);
  return G_LIST_MODEL (self->notes);
}
