/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-server-connection"

#include "config.h"

#include "mcp-server-connection.h"
#include "mcp-server-connection-private.h"

#include <glib/gi18n.h>

#include "mcp-http-transport.h"
#include "mcp-ide-lock.h"
#include "mcp-sse-transport.h"
#include "mcp-stdio-transport.h"
#include "mcp-websocket-transport.h"

/* The transport a server's settings describe: a process (stdio), a
 * remote server (Streamable HTTP, legacy SSE, WebSocket) with its stored
 * OAuth tokens loaded first, or a running IDE found by its lock file. */

typedef struct
{
  char *directory;
  char *ide_name;
} IdeLookup;

static void
ide_lookup_free (gpointer data)
{
  IdeLookup *lookup = data;

  g_free (lookup->directory);
  g_free (lookup->ide_name);
  g_free (lookup);
}

static void
find_ide_lock_thread (GTask        *task,
                      gpointer      source_object,
                      gpointer      task_data,
                      GCancellable *cancellable)
{
  IdeLookup *lookup = task_data;
  g_autoptr(GFile) directory = g_file_new_for_path (lookup->directory);
  g_autoptr(GPtrArray) locks = NULL;
  g_autoptr(GError) error = NULL;

  locks = mcp_ide_lock_list (directory, &error);
  if (locks == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  for (guint i = 0; i < locks->len; i++)
    {
      McpIdeLock *lock = g_ptr_array_index (locks, i);

      if (lookup->ide_name == NULL ||
          g_strcmp0 (mcp_ide_lock_get_ide_name (lock), lookup->ide_name) == 0)
        {
          g_task_return_pointer (task, g_object_ref (lock), g_object_unref);
          return;
        }
    }

  if (lookup->ide_name != NULL)
    g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_FAILED,
                             /* Translators: the first %s is an IDE's name, the second a folder */
                             _("No running IDE named “%s” found in “%s”"),
                             lookup->ide_name, lookup->directory);
  else
    g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_FAILED,
                             /* Translators: %s is a folder */
                             _("No running IDE found: no lock file in “%s”"),
                             lookup->directory);
}

static void
on_ide_lock_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  McpServerConnection *self = MCP_SERVER_CONNECTION (object);
  g_autoptr(GCancellable) attempt = user_data;
  g_autoptr(McpIdeLock) lock = NULL;
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(GError) error = NULL;

  lock = g_task_propagate_pointer (G_TASK (result), &error);
  if (g_cancellable_is_cancelled (attempt) || attempt != self->attempt_cancellable)
    return;

  if (lock == NULL)
    {
      g_autoptr(GError) failure = g_error_new (error->domain, error->code, "“%s”: %s",
                                               mcp_server_config_get_name (self->config),
                                               error->message);

      mcp_server_connection_finish_attempt (self, MCP_SERVER_STATE_FAILED, failure);
      return;
    }

  transport = mcp_server_connection_new_ide_transport (lock);
  mcp_server_connection_connect_transport (self, transport);
}

static const char *
json_string_member (JsonObject *object,
                    const char *name)
{
  JsonNode *node;

  if (object == NULL || !json_object_has_member (object, name))
    return NULL;

  node = json_object_get_member (object, name);
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

McpTransport *
mcp_server_connection_new_transport (McpServerConfig  *config,
                                     McpAuthProvider  *auth_provider,
                                     GError          **error)
{
  switch (mcp_server_config_get_transport (config))
    {
    case MCP_TRANSPORT_KIND_STDIO:
      {
        g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
        g_auto(GStrv) argv = NULL;

        if (mcp_server_config_get_command (config) == NULL)
          {
            g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                         _("Server “%s” has no command: give it a “command” in its settings"),
                         mcp_server_config_get_name (config));
            return NULL;
          }

        g_strv_builder_add (builder, mcp_server_config_get_command (config));
        if (mcp_server_config_get_args (config) != NULL)
          g_strv_builder_addv (builder, (const char **) mcp_server_config_get_args (config));
        argv = g_strv_builder_end (builder);

        return mcp_stdio_transport_new ((const char * const *) argv,
                                        mcp_server_config_get_env (config),
                                        mcp_server_config_get_cwd (config));
      }

    case MCP_TRANSPORT_KIND_HTTP:
    case MCP_TRANSPORT_KIND_SSE:
    case MCP_TRANSPORT_KIND_WS:
      if (mcp_server_config_get_url (config) == NULL)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                       _("Server “%s” has no URL: give it a “url” in its settings"),
                       mcp_server_config_get_name (config));
          return NULL;
        }

      if (mcp_server_config_get_transport (config) == MCP_TRANSPORT_KIND_HTTP)
        return mcp_http_transport_new (mcp_server_config_get_url (config),
                                       mcp_server_config_get_headers (config), auth_provider);
      if (mcp_server_config_get_transport (config) == MCP_TRANSPORT_KIND_SSE)
        return mcp_sse_transport_new (mcp_server_config_get_url (config),
                                      mcp_server_config_get_headers (config), auth_provider);
      return mcp_websocket_transport_new (mcp_server_config_get_url (config),
                                          mcp_server_config_get_headers (config), auth_provider);

    case MCP_TRANSPORT_KIND_SSE_IDE:
    case MCP_TRANSPORT_KIND_WS_IDE:
    default:
      g_assert_not_reached ();
    }

  return NULL;
}

typedef struct
{
  McpServerConnection *self;
  GCancellable        *attempt;
  McpServerConfig     *expanded;
} OAuthLoad;

static void
oauth_load_free (OAuthLoad *load)
{
  g_clear_object (&load->self);
  g_clear_object (&load->attempt);
  g_clear_object (&load->expanded);
  g_free (load);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OAuthLoad, oauth_load_free)

/* The transport of @expanded, with @provider (nullable) for credentials,
 * connected. */
static void
connect_expanded (McpServerConnection *self,
                  McpServerConfig     *expanded,
                  McpOAuthProvider    *provider)
{
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(GError) error = NULL;

  transport = mcp_server_connection_new_transport (expanded, provider != NULL ? MCP_AUTH_PROVIDER (provider) : NULL,
                             &error);
  if (transport == NULL)
    {
      mcp_server_connection_finish_attempt (self, MCP_SERVER_STATE_FAILED, error);
      return;
    }
  if (MCP_IS_REMOTE_TRANSPORT (transport))
    mcp_remote_transport_set_request_timeout (MCP_REMOTE_TRANSPORT (transport), self->request_timeout);

  mcp_server_connection_connect_transport (self, transport);
}

static void
on_oauth_loaded_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(OAuthLoad) load = user_data;
  McpOAuthProvider *provider = MCP_OAUTH_PROVIDER (object);
  McpServerConnection *self = load->self;
  g_autoptr(GError) error = NULL;

  if (!mcp_oauth_provider_load_finish (provider, result, &error) &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (g_cancellable_is_cancelled (load->attempt) || load->attempt != self->attempt_cancellable)
    return;

  /* Without stored tokens the server's 401 says what to do; an unreadable
   * store is no reason not to try. */
  if (error != NULL)
    g_debug ("“%s”: could not load stored sign-in: %s",
             mcp_server_config_get_name (self->config), error->message);

  connect_expanded (self, load->expanded, provider);
}

void
mcp_server_connection_open_transport (McpServerConnection *self,
                                      McpServerConfig     *expanded)
{
  McpTransportKind kind = mcp_server_config_get_transport (expanded);

  if (kind == MCP_TRANSPORT_KIND_SSE_IDE || kind == MCP_TRANSPORT_KIND_WS_IDE)
    {
      g_autoptr(GTask) task = NULL;
      JsonObject *json = mcp_server_config_get_json (expanded);
      IdeLookup *lookup = g_new0 (IdeLookup, 1);
      const char *directory = json_string_member (json, "ideLockDir");

      lookup->directory = directory != NULL
                          ? g_strdup (directory)
                          : g_build_filename (g_get_home_dir (), ".claude", "ide", NULL);
      lookup->ide_name = g_strdup (json_string_member (json, "ideName"));

      /* Reading the lock files is file I/O: not on the main thread. */
      task = g_task_new (self, self->attempt_cancellable, on_ide_lock_cb,
                         g_object_ref (self->attempt_cancellable));
      g_task_set_source_tag (task, mcp_server_connection_open_transport);
      g_task_set_task_data (task, lookup, ide_lookup_free);
      g_task_run_in_thread (task, find_ide_lock_thread);
      return;
    }

  if (mcp_server_connection_kind_has_oauth (kind) && mcp_server_config_get_url (expanded) != NULL)
    {
      McpOAuthProvider *provider = mcp_server_connection_ensure_oauth_provider (self, expanded);
      OAuthLoad *load = g_new0 (OAuthLoad, 1);

      /* Stored tokens first, so that the first request carries them. */
      load->self = g_object_ref (self);
      load->attempt = g_object_ref (self->attempt_cancellable);
      load->expanded = g_object_ref (expanded);
      mcp_oauth_provider_load_async (provider, self->attempt_cancellable,
                                     on_oauth_loaded_cb, load);
      return;
    }

  connect_expanded (self, expanded, NULL);
}

gboolean
mcp_server_connection_fall_back_to_sse (McpServerConnection *self,
                                        McpClient           *client,
                                        const GError        *error)
{
  McpTransport *transport = mcp_client_get_transport (client);
  McpRemoteTransport *remote;
  g_autoptr(McpTransport) sse = NULL;
  g_autofree char *text = NULL;
  guint status;

  /* Auth challenges, network failures and other statuses are answers of a
   * Streamable HTTP server (or of none): only these three mean "not here". */
  if (!MCP_IS_HTTP_TRANSPORT (transport) || !g_error_matches (error, MCP_ERROR, MCP_ERROR_HTTP))
    return FALSE;
  status = mcp_http_transport_get_refusal_status (MCP_HTTP_TRANSPORT (transport));
  if (status != SOUP_STATUS_BAD_REQUEST && status != SOUP_STATUS_NOT_FOUND &&
      status != SOUP_STATUS_METHOD_NOT_ALLOWED)
    return FALSE;

  remote = MCP_REMOTE_TRANSPORT (transport);
  sse = mcp_sse_transport_new (mcp_remote_transport_get_url (remote),
                               mcp_remote_transport_get_headers (remote),
                               mcp_remote_transport_get_auth_provider (remote));
  mcp_remote_transport_set_request_timeout (MCP_REMOTE_TRANSPORT (sse),
                                            mcp_remote_transport_get_request_timeout (remote));

  g_clear_error (&self->fallback_from);
  self->fallback_from = g_error_copy (error);
  g_free (self->transport_fallback);
  /* Translators: why the legacy HTTP+SSE transport is used; %u is an HTTP
   * status (400, 404 or 405). */
  self->transport_fallback = g_strdup_printf (_("the server refused Streamable HTTP: HTTP %u"), status);
  self->active_transport = MCP_TRANSPORT_KIND_SSE;

  /* Translators: %u is an HTTP status (400, 404 or 405). */
  text = g_strdup_printf (_("The server refused Streamable HTTP (HTTP %u); trying the legacy HTTP+SSE transport"),
                          status);
  mcp_server_connection_append_log (self, MCP_LOG_ENTRY_STATE, text);

  mcp_server_connection_drop_client (self, &self->pending_client);
  mcp_server_connection_connect_transport (self, sse);
  return TRUE;
}

GError *
mcp_server_connection_explain_fallback_failure (McpServerConnection *self,
                                                const GError        *error)
{
  if (self->fallback_from == NULL)
    return g_error_copy (error);

  return g_error_new (error->domain, error->code,
                      /* Translators: the first %s says how Streamable HTTP failed, the
                       * second how the legacy HTTP+SSE transport tried next failed. */
                      _("%s; the legacy HTTP+SSE transport tried next failed too: %s"),
                      self->fallback_from->message, error->message);
}

const char *
mcp_server_connection_get_transport_fallback (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  return self->transport_fallback;
}

McpTransportKind
mcp_server_connection_get_active_transport (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), MCP_TRANSPORT_KIND_STDIO);

  return self->active_transport;
}

char *
mcp_server_connection_dup_transport_description (McpServerConnection *self)
{
  const char *name;

  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  switch (self->active_transport)
    {
    case MCP_TRANSPORT_KIND_STDIO:
      name = _("stdio");
      break;
    case MCP_TRANSPORT_KIND_HTTP:
      name = _("Streamable HTTP");
      break;
    case MCP_TRANSPORT_KIND_SSE:
    case MCP_TRANSPORT_KIND_SSE_IDE:
      name = _("legacy HTTP+SSE");
      break;
    case MCP_TRANSPORT_KIND_WS:
    case MCP_TRANSPORT_KIND_WS_IDE:
    default:
      name = _("WebSocket");
      break;
    }

  if (self->transport_fallback == NULL)
    return g_strdup (name);
  /* Translators: a transport's name, then why it is used, e.g. “legacy
   * HTTP+SSE (the server refused Streamable HTTP: HTTP 404)”. */
  return g_strdup_printf (_("%s (%s)"), name, self->transport_fallback);
}

McpTransport *
mcp_server_connection_new_ide_transport (McpIdeLock *lock)
{
  g_autofree char *url = mcp_ide_lock_dup_url (lock);
  g_auto(GStrv) headers = mcp_ide_lock_dup_headers (lock);

  if (g_strcmp0 (mcp_ide_lock_get_transport (lock), "ws") == 0)
    return mcp_websocket_transport_new (url, (const char * const *) headers, NULL);

  return mcp_sse_transport_new (url, (const char * const *) headers, NULL);
}
