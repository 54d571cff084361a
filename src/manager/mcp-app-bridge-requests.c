/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-app-bridge"

#include "config.h"

#include "mcp-app-bridge-private.h"

#include <string.h>

#include "mcp-call.h"
#include "mcp-error.h"
#include "mcp-interaction.h"
#include "mcp-url-policy.h"

/* The page's requests that take time: a tool call, a resource read, a
 * link or a file for the person. Each holds the request's id and a weak
 * reference to the bridge, so that a view that goes away takes its bridge
 * with it (dispose closes it, which cancels them); an answer that comes
 * after the bridge closed or went is dropped. */

/* Not a JSON-RPC code of its own: the ext-apps hosts answer refusals with
 * the implementation-defined server error. */
#define APP_ERROR_REFUSED (-32000)

/* A download offers at most this many files. */
#define MAX_DOWNLOAD_FILES 32
/* A suggested file name is cut to this many bytes. */
#define MAX_FILE_NAME 200

typedef struct
{
  GWeakRef  bridge;
  JsonNode *id;
} Request;

static void
request_init (Request      *request,
              McpAppBridge *self,
              JsonNode     *id)
{
  g_weak_ref_init (&request->bridge, self);
  request->id = json_node_copy (id);
}

static Request *
request_new (McpAppBridge *self,
             JsonNode     *id)
{
  Request *request = g_new0 (Request, 1);

  request_init (request, self, id);
  return request;
}

/* The bridge while it is open, else NULL. */
static McpAppBridge *
request_dup_bridge (Request *request)
{
  g_autoptr(McpAppBridge) self = g_weak_ref_get (&request->bridge);

  if (self == NULL || mcp_app_bridge_get_closed (self))
    return NULL;
  return g_steal_pointer (&self);
}

/* Ends the request: the bridge, when its answer may still go to the page;
 * NULL when it closed or went away. */
static McpAppBridge *
request_end (Request *request)
{
  g_autoptr(McpAppBridge) self = g_weak_ref_get (&request->bridge);

  if (self == NULL)
    return NULL;
  mcp_app_bridge_end_request (self);
  if (mcp_app_bridge_get_closed (self))
    return NULL;
  return g_steal_pointer (&self);
}

static void
request_clear (Request *request)
{
  g_weak_ref_clear (&request->bridge);
  g_clear_pointer (&request->id, json_node_unref);
}

static void
request_free (Request *request)
{
  request_clear (request);
  g_free (request);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Request, request_free)

static void
reply_refused (McpAppBridge *self,
               JsonNode     *id,
               const char   *what,
               const char   *text)
{
  mcp_app_bridge_note_blocked (self, what, text);
  mcp_app_bridge_reply_error (self, id, APP_ERROR_REFUSED, text);
}

/* An error of the engine as the page sees it: a server's JSON-RPC error
 * keeps its code. */
static void
reply_gerror (McpAppBridge *self,
              JsonNode     *id,
              const GError *error)
{
  int code = MCP_JSONRPC_ERROR_INTERNAL_ERROR;

  if (error->domain == MCP_JSONRPC_ERROR)
    code = error->code;
  else if (g_error_matches (error, MCP_ERROR, MCP_ERROR_PERMISSION_DENIED))
    code = APP_ERROR_REFUSED;
  mcp_app_bridge_reply_error (self, id, code, error->message);
}

static const char *
server_name (McpAppBridge *self)
{
  return mcp_pool_tool_get_server_name (mcp_app_bridge_get_tool (self));
}

/* ---- tools/call ---------------------------------------------------------- */

/* The tool @name of the bridge's own server, or NULL. */
static McpPoolTool *
find_server_tool (McpAppBridge *self,
                  const char   *name)
{
  GListModel *pool = G_LIST_MODEL (mcp_project_get_tool_pool (mcp_app_bridge_get_project (self)));
  const char *server = server_name (self);

  for (guint i = 0; i < g_list_model_get_n_items (pool); i++)
    {
      g_autoptr(McpPoolTool) tool = g_list_model_get_item (pool, i);

      if (g_strcmp0 (mcp_pool_tool_get_server_name (tool), server) == 0 &&
          g_strcmp0 (mcp_tool_get_name (mcp_pool_tool_get_tool (tool)), name) == 0)
        return g_steal_pointer (&tool);
    }
  return NULL;
}

static void
call_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(Request) request = user_data;
  g_autoptr(McpAppBridge) self = NULL;
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;

  processed = mcp_call_run_finish (MCP_CALL (object), result, &error);
  self = request_end (request);
  if (self == NULL)
    return;
  if (processed == NULL)
    {
      if (g_error_matches (error, MCP_ERROR, MCP_ERROR_PERMISSION_DENIED))
        mcp_app_bridge_note_blocked (self, "tools/call", error->message);
      reply_gerror (self, request->id, error);
      return;
    }
  /* The page asked the server: it gets what the server said, not what
   * Plugboard cut for showing. */
  node = json_node_init_object (json_node_alloc (),
                                mcp_tool_result_get_json (mcp_processed_result_get_original (processed)));
  mcp_app_bridge_reply (self, request->id, node);
}

void
mcp_app_bridge_call_tool (McpAppBridge *self,
                          JsonNode     *id,
                          JsonObject   *params)
{
  g_autoptr(McpPoolTool) tool = NULL;
  g_autoptr(McpCall) call = NULL;
  g_autoptr(JsonObject) empty = NULL;
  JsonNode *arguments = json_object_get_member (params, "arguments");
  const char *name = mcp_app_bridge_string_member (params, "name");

  if (name == NULL)
    {
      mcp_app_bridge_end_request (self);
      mcp_app_bridge_reply_error (self, id, MCP_JSONRPC_ERROR_INVALID_PARAMS, "tools/call: “name” must be a string");
      return;
    }
  if (arguments != NULL && !JSON_NODE_HOLDS_OBJECT (arguments) && !JSON_NODE_HOLDS_NULL (arguments))
    {
      mcp_app_bridge_end_request (self);
      mcp_app_bridge_reply_error (self, id, MCP_JSONRPC_ERROR_INVALID_PARAMS,
                                  "tools/call: “arguments” must be an object");
      return;
    }

  tool = find_server_tool (self, name);
  if (tool == NULL)
    {
      g_autofree char *text = g_strdup_printf ("Tool “%s” is not a tool of the server “%s”",
                                               name, server_name (self));

      mcp_app_bridge_end_request (self);
      reply_refused (self, id, "tools/call", text);
      return;
    }
  if (!(mcp_tool_get_ui_visibility (mcp_pool_tool_get_tool (tool)) & MCP_TOOL_VISIBILITY_APP))
    {
      g_autofree char *text = g_strdup_printf ("Tool “%s” of the server “%s” is not visible to apps "
                                               "(its _meta.ui.visibility lacks \"app\")",
                                               name, server_name (self));

      mcp_app_bridge_end_request (self);
      reply_refused (self, id, "tools/call", text);
      return;
    }

  call = mcp_project_new_call (mcp_app_bridge_get_project (self), tool,
                               arguments != NULL && JSON_NODE_HOLDS_OBJECT (arguments)
                               ? json_node_get_object (arguments) : (empty = json_object_new ()),
                               MCP_CALL_FLAGS_NONE);
  mcp_call_run_async (call, mcp_app_bridge_get_cancellable (self), call_done_cb, request_new (self, id));
}

/* ---- resources/read ------------------------------------------------------ */

static McpClient *
server_client (McpAppBridge *self)
{
  McpServerConnection *connection = mcp_pool_tool_get_connection (mcp_app_bridge_get_tool (self));

  return connection != NULL ? mcp_server_connection_get_client (connection) : NULL;
}

static void
read_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(Request) request = user_data;
  g_autoptr(McpAppBridge) self = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;

  node = mcp_client_request_finish (MCP_CLIENT (object), result, &error);
  self = request_end (request);
  if (self == NULL)
    return;
  if (node == NULL)
    reply_gerror (self, request->id, error);
  else
    mcp_app_bridge_reply (self, request->id, node);
}

void
mcp_app_bridge_read_resource (McpAppBridge *self,
                              JsonNode     *id,
                              JsonObject   *params)
{
  g_autoptr(JsonObject) request = json_object_new ();
  const char *uri = mcp_app_bridge_string_member (params, "uri");
  McpClient *client = server_client (self);

  if (uri == NULL)
    {
      mcp_app_bridge_end_request (self);
      mcp_app_bridge_reply_error (self, id, MCP_JSONRPC_ERROR_INVALID_PARAMS, "resources/read: “uri” must be a string");
      return;
    }
  if (client == NULL)
    {
      g_autofree char *text = g_strdup_printf ("The server “%s” is not connected", server_name (self));

      mcp_app_bridge_end_request (self);
      mcp_app_bridge_reply_error (self, id, MCP_JSONRPC_ERROR_INTERNAL_ERROR, text);
      return;
    }

  json_object_set_string_member (request, "uri", uri);
  mcp_client_request_async (client, "resources/read", request, NULL, mcp_app_bridge_get_cancellable (self),
                            read_done_cb, request_new (self, id));
}

/* ---- ui/open-link -------------------------------------------------------- */

static void
open_link_done_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(Request) request = user_data;
  g_autoptr(McpAppBridge) self = NULL;
  g_autoptr(GError) error = NULL;
  gboolean opened;

  opened = mcp_interaction_open_link_finish (MCP_INTERACTION (object), result, &error);
  self = request_end (request);
  if (self == NULL)
    return;
  if (error != NULL)
    reply_gerror (self, request->id, error);
  else if (!opened)
    mcp_app_bridge_reply_error (self, request->id, APP_ERROR_REFUSED, "Link opening denied by user");
  else
    mcp_app_bridge_reply (self, request->id, NULL);
}

void
mcp_app_bridge_open_link (McpAppBridge *self,
                          JsonNode     *id,
                          JsonObject   *params)
{
  McpInteraction *interaction = mcp_project_get_interaction (mcp_app_bridge_get_project (self));
  g_autoptr(GError) error = NULL;
  g_autofree char *host = NULL;
  const char *url = mcp_app_bridge_string_member (params, "url");

  if (url == NULL)
    {
      mcp_app_bridge_end_request (self);
      mcp_app_bridge_reply_error (self, id, MCP_JSONRPC_ERROR_INVALID_PARAMS, "ui/open-link: “url” must be a string");
      return;
    }
  if (!mcp_url_policy_check (url, MCP_URL_USE_BROWSER, &host, &error))
    {
      g_autofree char *text = g_strdup_printf ("Policy violation: %s", error->message);

      mcp_app_bridge_end_request (self);
      reply_refused (self, id, "ui/open-link", text);
      return;
    }
  if (interaction == NULL)
    {
      mcp_app_bridge_end_request (self);
      mcp_app_bridge_reply_error (self, id, APP_ERROR_REFUSED, "Link opening denied: there is no one to ask");
      return;
    }

  mcp_interaction_open_link_async (interaction, server_name (self), url, host,
                                   mcp_app_bridge_get_cancellable (self), open_link_done_cb,
                                   request_new (self, id));
}

/* ---- ui/download-file ---------------------------------------------------- */

char *
mcp_app_bridge_dup_file_name (const char *uri)
{
  g_autoptr(GString) name = g_string_new (NULL);
  g_autofree char *unescaped = NULL;
  const char *segment;
  const char *end;

  if (uri == NULL)
    return g_strdup ("download");
  /* The last segment of the path: no query or fragment. */
  end = uri + strcspn (uri, "?#");
  unescaped = g_uri_unescape_segment (uri, end, NULL);
  if (unescaped == NULL)
    unescaped = g_strndup (uri, end - uri);
  if (!g_utf8_validate (unescaped, -1, NULL))
    {
      g_free (unescaped);
      unescaped = g_strdup ("");
    }
  segment = unescaped;
  for (const char *p = unescaped; *p != '\0'; p++)
    if (*p == '/' || *p == '\\' || *p == ':')
      segment = p + 1;

  for (const char *p = segment; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_iscntrl (c) || c == 0x7f || g_unichar_type (c) == G_UNICODE_FORMAT)
        continue;
      if (name->len + (g_utf8_next_char (p) - p) > MAX_FILE_NAME)
        break;
      g_string_append_unichar (name, c);
    }
  /* Neither hidden nor "..": leading dots go. */
  while (name->len > 0 && name->str[0] == '.')
    g_string_erase (name, 0, 1);
  g_strstrip (name->str);
  name->len = strlen (name->str);
  if (name->len == 0)
    return g_strdup ("download");
  return g_string_free (g_steal_pointer (&name), FALSE);
}

typedef struct
{
  char   *name;
  char   *content_type;
  GBytes *contents;
} File;

static void
file_free (File *file)
{
  g_free (file->name);
  g_free (file->content_type);
  g_bytes_unref (file->contents);
  g_free (file);
}

typedef struct
{
  Request    request;
  JsonArray *contents;
  guint      index;
  GPtrArray *files;
  guint      saved;
  gsize      total;
  gboolean   failed;
} Download;

static void
download_free (Download *download)
{
  request_clear (&download->request);
  g_clear_pointer (&download->contents, json_array_unref);
  g_clear_pointer (&download->files, g_ptr_array_unref);
  g_free (download);
}

static void download_next (Download *download);

static void
download_refuse (Download   *download,
                 int         code,
                 const char *text)
{
  Request *request = &download->request;
  g_autoptr(McpAppBridge) self = request_end (request);

  if (self != NULL)
    {
      if (code == APP_ERROR_REFUSED)
        reply_refused (self, request->id, "ui/download-file", text);
      else
        mcp_app_bridge_reply_error (self, request->id, code, text);
    }
  download_free (download);
}

/* Adds the embedded resource @resource; FALSE (and answered) when it is
 * not one or too big. */
static gboolean
download_add (Download   *download,
              JsonObject *resource,
              const char *uri)
{
  const char *text = mcp_app_bridge_string_member (resource, "text");
  const char *blob = mcp_app_bridge_string_member (resource, "blob");
  File *file;
  GBytes *bytes;

  if (text != NULL)
    bytes = g_bytes_new (text, strlen (text));
  else if (blob != NULL)
    {
      gsize length;
      guchar *data;

      /* Decoded only when it fits: base64 is 4 bytes for 3. */
      if (strlen (blob) / 4 * 3 > MCP_APP_BRIDGE_MAX_DOWNLOAD - download->total)
        {
          download_refuse (download, APP_ERROR_REFUSED, "Download too large (at most 64 MiB)");
          return FALSE;
        }
      data = g_base64_decode (blob, &length);
      bytes = g_bytes_new_take (data, length);
    }
  else
    {
      download_refuse (download, MCP_JSONRPC_ERROR_INVALID_PARAMS,
                       "ui/download-file: a resource has neither “text” nor “blob”");
      return FALSE;
    }

  if (g_bytes_get_size (bytes) > MCP_APP_BRIDGE_MAX_DOWNLOAD - download->total)
    {
      g_bytes_unref (bytes);
      download_refuse (download, APP_ERROR_REFUSED, "Download too large (at most 64 MiB)");
      return FALSE;
    }
  download->total += g_bytes_get_size (bytes);

  file = g_new0 (File, 1);
  file->name = mcp_app_bridge_dup_file_name (uri != NULL ? uri : mcp_app_bridge_string_member (resource, "uri"));
  file->content_type = g_strdup (mcp_app_bridge_string_member (resource, "mimeType"));
  file->contents = bytes;
  g_ptr_array_add (download->files, file);
  return TRUE;
}

static void
download_read_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  Download *download = user_data;
  g_autoptr(McpAppBridge) self = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  JsonNode *contents = NULL;
  JsonNode *first;

  node = mcp_client_request_finish (MCP_CLIENT (object), result, &error);
  self = request_dup_bridge (&download->request);
  if (self == NULL)
    {
      download_refuse (download, 0, NULL);
      return;
    }
  if (node == NULL)
    {
      download_refuse (download, MCP_JSONRPC_ERROR_INTERNAL_ERROR, error->message);
      return;
    }
  if (JSON_NODE_HOLDS_OBJECT (node))
    contents = json_object_get_member (json_node_get_object (node), "contents");
  if (contents == NULL || !JSON_NODE_HOLDS_ARRAY (contents) ||
      json_array_get_length (json_node_get_array (contents)) == 0 ||
      !JSON_NODE_HOLDS_OBJECT (first = json_array_get_element (json_node_get_array (contents), 0)))
    {
      download_refuse (download, MCP_JSONRPC_ERROR_INTERNAL_ERROR,
                       "resources/read of a resource link gave no contents");
      return;
    }
  if (!download_add (download, json_node_get_object (first), NULL))
    return;
  download->index++;
  download_next (download);
}

static void download_save (Download *download);

static void
download_next (Download *download)
{
  g_autoptr(McpAppBridge) self = request_dup_bridge (&download->request);

  if (self == NULL)
    {
      download_refuse (download, 0, NULL);
      return;
    }

  for (; download->index < json_array_get_length (download->contents); download->index++)
    {
      JsonNode *node = json_array_get_element (download->contents, download->index);
      JsonObject *item = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *type = item != NULL ? mcp_app_bridge_string_member (item, "type") : NULL;

      if (g_strcmp0 (type, "resource") == 0 &&
          json_object_has_member (item, "resource") &&
          JSON_NODE_HOLDS_OBJECT (json_object_get_member (item, "resource")))
        {
          if (!download_add (download, json_object_get_object_member (item, "resource"), NULL))
            return;
        }
      else if (g_strcmp0 (type, "resource_link") == 0 && mcp_app_bridge_string_member (item, "uri") != NULL)
        {
          g_autoptr(JsonObject) params = json_object_new ();
          McpClient *client = server_client (self);

          if (client == NULL)
            {
              download_refuse (download, MCP_JSONRPC_ERROR_INTERNAL_ERROR, "The server is not connected");
              return;
            }
          /* Read from the view's own server, never fetched by Plugboard. */
          json_object_set_string_member (params, "uri", mcp_app_bridge_string_member (item, "uri"));
          mcp_client_request_async (client, "resources/read", params, NULL,
                                    mcp_app_bridge_get_cancellable (self), download_read_cb, download);
          return;
        }
      else
        {
          download_refuse (download, MCP_JSONRPC_ERROR_INVALID_PARAMS,
                           "ui/download-file: each of “contents” must be an embedded resource or a resource link");
          return;
        }
    }

  download->index = 0;
  download_save (download);
}

static void
download_saved_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  Download *download = user_data;
  g_autoptr(McpAppBridge) self = NULL;
  g_autoptr(GError) error = NULL;

  if (!mcp_interaction_save_file_finish (MCP_INTERACTION (object), result, &error))
    download->failed = TRUE;
  self = request_dup_bridge (&download->request);
  if (self == NULL)
    {
      download_refuse (download, 0, NULL);
      return;
    }
  download->index++;
  download_save (download);
}

static void
download_save (Download *download)
{
  g_autoptr(McpAppBridge) self = request_dup_bridge (&download->request);
  McpInteraction *interaction;
  File *file;

  if (self == NULL)
    {
      download_refuse (download, 0, NULL);
      return;
    }
  interaction = mcp_project_get_interaction (mcp_app_bridge_get_project (self));

  if (download->index >= download->files->len || interaction == NULL)
    {
      g_autoptr(JsonObject) object = json_object_new ();
      g_autoptr(JsonNode) node = NULL;

      if (download->failed || interaction == NULL)
        json_object_set_boolean_member (object, "isError", TRUE);
      node = json_node_init_object (json_node_alloc (), object);
      {
        g_autoptr(McpAppBridge) open = request_end (&download->request);

        if (open != NULL)
          mcp_app_bridge_reply (open, download->request.id, node);
      }
      download_free (download);
      return;
    }

  file = g_ptr_array_index (download->files, download->index);
  mcp_interaction_save_file_async (interaction, server_name (self), file->name, file->content_type,
                                   file->contents, mcp_app_bridge_get_cancellable (self),
                                   download_saved_cb, download);
}

void
mcp_app_bridge_download_file (McpAppBridge *self,
                              JsonNode     *id,
                              JsonObject   *params)
{
  JsonNode *contents = json_object_get_member (params, "contents");
  Download *download;

  if (contents == NULL || !JSON_NODE_HOLDS_ARRAY (contents) ||
      json_array_get_length (json_node_get_array (contents)) == 0 ||
      json_array_get_length (json_node_get_array (contents)) > MAX_DOWNLOAD_FILES)
    {
      mcp_app_bridge_end_request (self);
      mcp_app_bridge_reply_error (self, id, MCP_JSONRPC_ERROR_INVALID_PARAMS,
                                  "ui/download-file: “contents” must be an array of 1 to 32 resources");
      return;
    }

  download = g_new0 (Download, 1);
  request_init (&download->request, self, id);
  download->contents = json_array_ref (json_node_get_array (contents));
  download->files = g_ptr_array_new_with_free_func ((GDestroyNotify) file_free);
  download_next (download);
}
