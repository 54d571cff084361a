/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-registry"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <libsoup/soup.h>
#include <errno.h>
#include <string.h>

#include "mcp-registry-private.h"
#include "mcp-url-policy.h"

#define MAX_ANSWER_BYTES (8 * 1024 * 1024)
#define READ_CHUNK       (64 * 1024)
#define MAX_PAGE_SERVERS 1000
#define DEFAULT_TIMEOUT_S 30

struct _McpRegistry
{
  GObject      parent_instance;

  /* owned */
  char        *base_url;      /* without a trailing '/' */
  char        *cache_dir;
  SoupSession *session;
  guint        timeout_s;
};

enum
{
  PROP_0,
  PROP_TIMEOUT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (McpRegistry, mcp_registry, G_TYPE_OBJECT)

void
mcp_registry_page_free (McpRegistryPage *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->servers, g_ptr_array_unref);
  g_free (self->next_cursor);
  g_free (self);
}

static void
mcp_registry_finalize (GObject *object)
{
  McpRegistry *self = (McpRegistry *) object;

  g_free (self->base_url);
  g_free (self->cache_dir);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (mcp_registry_parent_class)->finalize (object);
}

static void
mcp_registry_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  McpRegistry *self = MCP_REGISTRY (object);

  switch (prop_id)
    {
    case PROP_TIMEOUT:
      g_value_set_uint (value, self->timeout_s);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_registry_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  McpRegistry *self = MCP_REGISTRY (object);

  switch (prop_id)
    {
    case PROP_TIMEOUT:
      if (self->timeout_s != g_value_get_uint (value))
        {
          self->timeout_s = g_value_get_uint (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_registry_class_init (McpRegistryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mcp_registry_finalize;
  object_class->get_property = mcp_registry_get_property;
  object_class->set_property = mcp_registry_set_property;

  /* Seconds a request may take in all (tests make it short) */
  properties[PROP_TIMEOUT] =
    g_param_spec_uint ("timeout", NULL, NULL, 1, 600, DEFAULT_TIMEOUT_S,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mcp_registry_init (McpRegistry *self)
{
  self->timeout_s = DEFAULT_TIMEOUT_S;
  self->session = soup_session_new_with_options ("user-agent", PACKAGE_NAME "/" PACKAGE_VERSION " ",
                                                 NULL);
}

McpRegistry *
mcp_registry_new (const char *base_url,
                  const char *cache_dir)
{
  McpRegistry *self = g_object_new (MCP_TYPE_REGISTRY, NULL);
  gsize length;

  self->base_url = g_strdup (base_url != NULL ? base_url : MCP_REGISTRY_DEFAULT_URL);
  length = strlen (self->base_url);
  while (length > 0 && self->base_url[length - 1] == '/')
    self->base_url[--length] = '\0';
  self->cache_dir = cache_dir != NULL
    ? g_strdup (cache_dir)
    : g_build_filename (g_get_user_cache_dir (), "plugboard", "registry", NULL);
  return self;
}

const char *
mcp_registry_get_base_url (McpRegistry *self)
{
  g_return_val_if_fail (MCP_IS_REGISTRY (self), NULL);
  return self->base_url;
}

/* One GET, with the cache behind it. */

typedef JsonNode *(*ReadAnswer) (JsonNode *root, GError **error);

typedef struct
{
  char         *url;
  char         *cache_path;
  GCancellable *inner;          /* cancelled by the caller's or the timeout */
  GCancellable *outer;
  gulong        cancelled_id;
  guint         timeout_id;
  gboolean      timed_out;
  GByteArray   *body;
  GInputStream *stream;
  guint         status;
  gboolean      (*parse) (JsonNode *root, GTask *task, gboolean from_cache, gint64 fetched, GError **error);
  GError       *failure;        /* why the network failed, while the cache is read */
} Fetch;

static void
fetch_free (Fetch *fetch)
{
  g_free (fetch->url);
  g_free (fetch->cache_path);
  if (fetch->outer != NULL)
    g_cancellable_disconnect (fetch->outer, fetch->cancelled_id);
  g_clear_object (&fetch->outer);
  g_clear_object (&fetch->inner);
  g_clear_handle_id (&fetch->timeout_id, g_source_remove);
  g_clear_pointer (&fetch->body, g_byte_array_unref);
  g_clear_object (&fetch->stream);
  g_clear_error (&fetch->failure);
  g_free (fetch);
}

static gboolean
fetch_timeout_cb (gpointer data)
{
  Fetch *fetch = data;

  fetch->timeout_id = 0;
  fetch->timed_out = TRUE;
  g_cancellable_cancel (fetch->inner);
  return G_SOURCE_REMOVE;
}

static void
outer_cancelled_cb (GCancellable *cancellable,
                    GCancellable *inner)
{
  g_cancellable_cancel (inner);
}

static gboolean
fetch_cancelled (GTask *task)
{
  Fetch *fetch = g_task_get_task_data (task);

  if (fetch->outer != NULL && g_cancellable_is_cancelled (fetch->outer))
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Operation was cancelled"));
      return TRUE;
    }
  return FALSE;
}

static void
cache_read_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Fetch *fetch = g_task_get_task_data (task);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *contents = NULL;
  JsonObject *cached = NULL;
  JsonNode *answer = NULL;
  gsize length;

  if (fetch_cancelled (task))
    return;

  if (g_file_load_contents_finish (G_FILE (object), result, &contents, &length, NULL, NULL) &&
      json_parser_load_from_data (parser, contents, length, NULL) &&
      JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    cached = json_node_get_object (json_parser_get_root (parser));
  /* Only the answer to this very URL */
  if (cached != NULL &&
      g_strcmp0 (json_object_get_string_member_with_default (cached, "url", ""), fetch->url) == 0)
    answer = json_object_get_member (cached, "answer");

  if (answer == NULL ||
      !fetch->parse (answer, task, TRUE, json_object_get_int_member_with_default (cached, "fetched", 0),
                     NULL))
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NETWORK,
                               _("The registry cannot be reached at “%s” and nothing is cached: %s"),
                               fetch->url, fetch->failure->message);
      return;
    }
  g_debug ("%s: answered from the cache (%s)", fetch->url, fetch->failure->message);
}

/* The network failed with @error: the cache answers, or says why not. */
static void
fetch_failed (GTask  *task,
              GError *error)
{
  Fetch *fetch = g_task_get_task_data (task);
  g_autoptr(GFile) file = NULL;

  g_clear_handle_id (&fetch->timeout_id, g_source_remove);
  if (fetch_cancelled (task))
    {
      g_error_free (error);
      return;
    }
  if (fetch->timed_out)
    {
      g_clear_error (&error);
      error = g_error_new (MCP_ERROR, MCP_ERROR_TIMEOUT,
                           _("no answer within %u s"),
                           ((McpRegistry *) g_task_get_source_object (task))->timeout_s);
    }
  fetch->failure = error;

  file = g_file_new_for_path (fetch->cache_path);
  g_file_load_contents_async (file, g_task_get_cancellable (task), cache_read_cb, g_object_ref (task));
}

static void
cache_written_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Fetch *fetch = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  /* A cache that cannot be written costs only the answer next time. */
  if (!g_file_replace_contents_finish (G_FILE (object), result, NULL, &error))
    g_message ("Cannot cache the registry's answer in %s: %s", fetch->cache_path, error->message);
  /* The answer was kept by parse (): see propagate () */
  if (!fetch_cancelled (task))
    g_task_return_pointer (task, NULL, NULL);
}

static void
fetch_got_body (GTask *task)
{
  Fetch *fetch = g_task_get_task_data (task);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) cached = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFile) dir = NULL;
  g_autoptr(GBytes) bytes = NULL;
  char *text;
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  gsize length;

  if (fetch->status == SOUP_STATUS_NOT_FOUND)
    {
      g_clear_handle_id (&fetch->timeout_id, g_source_remove);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                               _("The registry at “%s” has no such server"), fetch->url);
      return;
    }
  if (!SOUP_STATUS_IS_SUCCESSFUL (fetch->status))
    {
      fetch_failed (task, g_error_new (MCP_ERROR, MCP_ERROR_HTTP, _("HTTP status %u"), fetch->status));
      return;
    }
  if (!json_parser_load_from_data (parser, (const char *) fetch->body->data, fetch->body->len, &error))
    {
      fetch_failed (task, g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                       _("the answer is not JSON: %s"), error->message));
      return;
    }
  if (!fetch->parse (json_parser_get_root (parser), task, FALSE, now, &error))
    {
      fetch_failed (task, g_steal_pointer (&error));
      return;
    }
  g_clear_handle_id (&fetch->timeout_id, g_source_remove);

  /* Cached with the URL it answers, so that a file is never taken for
   * another request's. */
  cached = json_object_new ();
  json_object_set_string_member (cached, "url", fetch->url);
  json_object_set_int_member (cached, "fetched", now);
  json_object_set_member (cached, "answer", json_node_copy (json_parser_get_root (parser)));
  node = json_node_init_object (json_node_alloc (), cached);
  text = json_to_string (node, FALSE);
  length = strlen (text);
  bytes = g_bytes_new_take (text, length);

  file = g_file_new_for_path (fetch->cache_path);
  dir = g_file_get_parent (file);
  if (g_mkdir_with_parents (g_file_peek_path (dir), 0700) != 0)
    {
      g_message ("Cannot cache the registry's answer in %s: %s", fetch->cache_path, g_strerror (errno));
      g_task_return_pointer (task, NULL, NULL);
      return;
    }
  /* Atomic: a temporary file renamed over the old one */
  g_file_replace_contents_bytes_async (file, bytes, NULL, FALSE,
                                       G_FILE_CREATE_PRIVATE | G_FILE_CREATE_REPLACE_DESTINATION,
                                       NULL, cache_written_cb, g_object_ref (task));
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Fetch *fetch = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, &error);
  if (bytes == NULL)
    {
      fetch_failed (task, g_steal_pointer (&error));
      return;
    }
  if (g_bytes_get_size (bytes) == 0)
    {
      fetch_got_body (task);
      return;
    }
  if (fetch->body->len + g_bytes_get_size (bytes) > MAX_ANSWER_BYTES)
    {
      g_cancellable_cancel (fetch->inner);
      fetch_failed (task, g_error_new (MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE,
                                       _("the answer is larger than %d MiB"),
                                       MAX_ANSWER_BYTES / (1024 * 1024)));
      return;
    }
  g_byte_array_append (fetch->body, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_input_stream_read_bytes_async (fetch->stream, READ_CHUNK, G_PRIORITY_DEFAULT, fetch->inner,
                                   read_cb, g_steal_pointer (&task));
}

static void
send_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Fetch *fetch = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  SoupMessage *message;

  fetch->stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  if (fetch->stream == NULL)
    {
      fetch_failed (task, g_steal_pointer (&error));
      return;
    }
  message = soup_session_get_async_result_message (SOUP_SESSION (object), result);
  fetch->status = soup_message_get_status (message);
  g_input_stream_read_bytes_async (fetch->stream, READ_CHUNK, G_PRIORITY_DEFAULT, fetch->inner,
                                   read_cb, g_steal_pointer (&task));
}

static void
fetch_start (McpRegistry  *self,
             GTask        *task,
             const char   *url,
             gboolean    (*parse) (JsonNode *, GTask *, gboolean, gint64, GError **))
{
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *digest = NULL;
  g_autofree char *file_name = NULL;
  GCancellable *cancellable = g_task_get_cancellable (task);
  Fetch *fetch;

  if (!mcp_url_policy_check (url, MCP_URL_USE_FETCH, NULL, &error))
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NETWORK,
                               _("The registry at “%s” is refused: %s"), self->base_url, error->message);
      return;
    }
  message = soup_message_new (SOUP_METHOD_GET, url);
  if (message == NULL)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NETWORK,
                               _("The registry address “%s” is not a URL"), self->base_url);
      return;
    }
  soup_message_headers_replace (soup_message_get_request_headers (message), "Accept", "application/json");

  fetch = g_new0 (Fetch, 1);
  fetch->url = g_strdup (url);
  fetch->parse = parse;
  digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, url, -1);
  file_name = g_strconcat (digest, ".json", NULL);
  fetch->cache_path = g_build_filename (self->cache_dir, file_name, NULL);
  fetch->body = g_byte_array_new ();
  fetch->inner = g_cancellable_new ();
  if (cancellable != NULL)
    {
      fetch->outer = g_object_ref (cancellable);
      fetch->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (outer_cancelled_cb),
                                                   fetch->inner, NULL);
    }
  g_task_set_task_data (task, fetch, (GDestroyNotify) fetch_free);
  fetch->timeout_id = g_timeout_add_seconds (self->timeout_s, fetch_timeout_cb, fetch);

  soup_session_send_async (self->session, message, G_PRIORITY_DEFAULT, fetch->inner,
                           send_cb, g_object_ref (task));
}

/* Reading the answers */

static gboolean
parse_page (JsonNode  *root,
            GTask     *task,
            gboolean   from_cache,
            gint64     fetched,
            GError   **error)
{
  g_autoptr(McpRegistryPage) page = g_new0 (McpRegistryPage, 1);
  JsonObject *object;
  JsonNode *servers, *metadata;
  JsonArray *array;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE, _("the answer is not a JSON object"));
      return FALSE;
    }
  object = json_node_get_object (root);
  servers = json_object_get_member (object, "servers");
  if (servers == NULL || !JSON_NODE_HOLDS_ARRAY (servers))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE, _("%s: expected %s"), "servers", _("an array"));
      return FALSE;
    }
  array = json_node_get_array (servers);
  if (json_array_get_length (array) > MAX_PAGE_SERVERS)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("servers: more than %d servers in one page"), MAX_PAGE_SERVERS);
      return FALSE;
    }

  page->servers = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *item = json_array_get_element (array, i);
      g_autofree char *at = g_strdup_printf ("servers[%u]", i);
      McpRegistryServer *server;

      if (!JSON_NODE_HOLDS_OBJECT (item))
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE, _("%s: expected %s"), at, _("an object"));
          return FALSE;
        }
      server = mcp_registry_server_new_at (json_node_get_object (item), at, error);
      if (server == NULL)
        return FALSE;
      g_ptr_array_add (page->servers, server);
    }

  metadata = json_object_get_member (object, "metadata");
  if (metadata != NULL && JSON_NODE_HOLDS_OBJECT (metadata))
    {
      JsonNode *cursor = json_object_get_member (json_node_get_object (metadata), "nextCursor");

      if (cursor != NULL && !JSON_NODE_HOLDS_NULL (cursor))
        {
          if (!JSON_NODE_HOLDS_VALUE (cursor) || json_node_get_value_type (cursor) != G_TYPE_STRING)
            {
              g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE, _("%s: expected %s"),
                           "metadata.nextCursor", _("a string"));
              return FALSE;
            }
          if (*json_node_get_string (cursor) != '\0')
            page->next_cursor = json_node_dup_string (cursor);
        }
    }

  page->from_cache = from_cache;
  page->fetched = fetched;
  if (from_cache)
    g_task_return_pointer (task, g_steal_pointer (&page), (GDestroyNotify) mcp_registry_page_free);
  else
    g_object_set_data_full (G_OBJECT (task), "answer", g_steal_pointer (&page),
                            (GDestroyNotify) mcp_registry_page_free);
  return TRUE;
}

static gboolean
parse_server (JsonNode  *root,
              GTask     *task,
              gboolean   from_cache,
              gint64     fetched,
              GError   **error)
{
  McpRegistryServer *server;

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE, _("the answer is not a JSON object"));
      return FALSE;
    }
  server = mcp_registry_server_new_at (json_node_get_object (root), "", error);
  if (server == NULL)
    return FALSE;
  if (from_cache)
    g_task_return_pointer (task, server, g_object_unref);
  else
    g_object_set_data_full (G_OBJECT (task), "answer", server, g_object_unref);
  return TRUE;
}

void
mcp_registry_search_async (McpRegistry         *self,
                           const char          *term,
                           const char          *cursor,
                           guint                limit,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GString) url = NULL;
  char separator = '?';

  g_return_if_fail (MCP_IS_REGISTRY (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_registry_search_async);

  url = g_string_new (self->base_url);
  g_string_append (url, "/v0.1/servers");
  if (term != NULL && *term != '\0')
    {
      g_string_append_printf (url, "%csearch=", separator);
      g_string_append_uri_escaped (url, term, NULL, TRUE);
      separator = '&';
    }
  if (cursor != NULL && *cursor != '\0')
    {
      g_string_append_printf (url, "%ccursor=", separator);
      g_string_append_uri_escaped (url, cursor, NULL, TRUE);
      separator = '&';
    }
  if (limit > 0)
    g_string_append_printf (url, "%climit=%u", separator, MIN (limit, 100));

  fetch_start (self, task, url->str, parse_page);
}

static gpointer
propagate (McpRegistry   *self,
           GAsyncResult  *result,
           gpointer       source_tag,
           GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  gpointer value;

  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, NULL);

  value = g_task_propagate_pointer (G_TASK (result), &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  if (value != NULL)
    return value;
  /* Fetched from the network: the answer read before it was cached */
  return g_object_steal_data (G_OBJECT (result), "answer");
}

McpRegistryPage *
mcp_registry_search_finish (McpRegistry   *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  return propagate (self, result, mcp_registry_search_async, error);
}

void
mcp_registry_get_async (McpRegistry         *self,
                        const char          *name,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *escaped = NULL;
  g_autofree char *url = NULL;

  g_return_if_fail (MCP_IS_REGISTRY (self));
  g_return_if_fail (name != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_registry_get_async);

  escaped = g_uri_escape_string (name, NULL, FALSE);
  url = g_strdup_printf ("%s/v0.1/servers/%s/versions/latest", self->base_url, escaped);
  fetch_start (self, task, url, parse_server);
}

McpRegistryServer *
mcp_registry_get_finish (McpRegistry   *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  return propagate (self, result, mcp_registry_get_async, error);
}
