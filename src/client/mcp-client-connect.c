/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-client.h"
#include "mcp-client-private.h"
#include "mcp-error.h"

/* Connecting and closing: the transport's connect, the connect timeout, the
 * handshake of the 2024-11-05 to 2025-11-25 revisions (initialize, then
 * notifications/initialized), what the client says of itself (its
 * capabilities and clientInfo), and closing. The stateless revision's
 * opening (server/discover) is in mcp-client-discover.c; a transport that
 * closes by itself, in mcp-client-dispatch.c. */

static const char * const supported_versions[] = {
  MCP_PROTOCOL_VERSION_LATEST,
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
  NULL
};

const char * const *
mcp_client_get_supported_protocol_versions (void)
{
  return supported_versions;
}

JsonObject *
mcp_client_build_client_info (McpClient *self)
{
  JsonObject *info = json_object_new ();

  json_object_set_string_member (info, "name", self->client_name);
  json_object_set_string_member (info, "title", "Plugboard");
  json_object_set_string_member (info, "version", self->client_version);
  return info;
}

void
mcp_client_set_capabilities (McpClient  *self,
                             JsonObject *capabilities)
{
  g_return_if_fail (MCP_IS_CLIENT (self));

  g_clear_pointer (&self->capabilities, json_object_unref);
  if (capabilities != NULL)
    self->capabilities = json_object_ref (capabilities);
}

void
mcp_client_set_client_info (McpClient  *self,
                            const char *name,
                            const char *version)
{
  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (version != NULL);

  g_free (self->client_name);
  self->client_name = g_strdup (name);
  g_free (self->client_version);
  self->client_version = g_strdup (version);
}

static JsonObject *
lifecycle_build_initialize_params (McpClient *self)
{
  JsonObject *params = json_object_new ();

  json_object_set_string_member (params, "protocolVersion", MCP_PROTOCOL_VERSION_LATEST);
  /* Roots, sampling and elicitation are declared once they have handlers
   * (mcp_client_set_capabilities()). */
  json_object_set_object_member (params, "capabilities",
                                 self->capabilities != NULL
                                 ? json_object_ref (self->capabilities)
                                 : json_object_new ());
  json_object_set_object_member (params, "clientInfo", mcp_client_build_client_info (self));

  return params;
}

static gboolean
lifecycle_accept_initialize_result (McpClient  *self,
                                    JsonNode   *result,
                                    GError    **error)
{
  g_autoptr(McpServerInfo) info = NULL;
  g_autofree char *server = NULL;
  const char *version;

  if (result == NULL || !JSON_NODE_HOLDS_OBJECT (result))
    {
      server = mcp_client_describe_server (self);
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("%s answered initialize with something that is not an object"), server);
      return FALSE;
    }

  info = mcp_server_info_new_from_json (json_node_get_object (result), error);
  if (info == NULL)
    {
      if (error != NULL && *error != NULL)
        {
          server = mcp_client_describe_server (self);
          g_prefix_error (error, _("Invalid initialize result from %s: "), server);
        }
      return FALSE;
    }

  version = mcp_server_info_get_protocol_version (info);
  if (version == NULL || !g_strv_contains (supported_versions, version))
    {
      g_autofree char *known = g_strjoinv (", ", (char **) supported_versions);

      server = g_strdup_printf ("“%s”", mcp_server_info_get_name (info));
      g_set_error (error, MCP_ERROR, MCP_ERROR_UNSUPPORTED_VERSION,
                   _("%s speaks MCP protocol version “%s”, which Plugboard does not support "
                     "(it supports %s)"),
                   server, version ? version : "", known);
      return FALSE;
    }

  mcp_client_settle (self, info, version, MCP_PROTOCOL_ERA_LEGACY);
  return TRUE;
}

void
mcp_client_connect_finish_with_error (McpClient *self,
                                      GError    *error,
                                      gboolean   close_transport)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->connect_task);

  if (self->connect_timeout_source != NULL)
    {
      g_source_destroy (self->connect_timeout_source);
      g_clear_pointer (&self->connect_timeout_source, g_source_unref);
    }

  /* A failed connection never leaves a server process behind. */
  mcp_client_set_state (self, MCP_CLIENT_STATE_CLOSED);
  if (close_transport && self->transport != NULL && !mcp_transport_is_closed (self->transport))
    mcp_transport_close_async (self->transport, NULL, NULL, NULL);

  if (task != NULL)
    g_task_return_error (task, error);
  else
    g_error_free (error);
}

void
mcp_client_connect_finish_ready (McpClient *self)
{
  g_autoptr(GTask) task = NULL;

  if (self->connect_timeout_source != NULL)
    {
      g_source_destroy (self->connect_timeout_source);
      g_clear_pointer (&self->connect_timeout_source, g_source_unref);
    }

  task = g_steal_pointer (&self->connect_task);
  mcp_client_set_state (self, MCP_CLIENT_STATE_READY);
  g_task_return_boolean (task, TRUE);
}

static void
on_initialize_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  McpClient *self = MCP_CLIENT (object);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;

  node = g_task_propagate_pointer (G_TASK (result), &error);

  /* Timed out or cancelled while we waited: the connect task is gone. */
  if (self->connect_task == NULL)
    return;

  if (node == NULL || !lifecycle_accept_initialize_result (self, node, &error))
    {
      mcp_client_connect_finish_with_error (self, g_steal_pointer (&error), TRUE);
      return;
    }

  /* Only now: some servers register tools when they see it. */
  if (!mcp_client_notify (self, "notifications/initialized", NULL, &error))
    {
      mcp_client_connect_finish_with_error (self, g_steal_pointer (&error), TRUE);
      return;
    }

  mcp_client_connect_finish_ready (self);
}

void
mcp_client_send_initialize (McpClient *self)
{
  g_autoptr(JsonObject) params = lifecycle_build_initialize_params (self);
  g_autoptr(GTask) init_task = NULL;

  init_task = g_task_new (self, g_task_get_cancellable (self->connect_task), on_initialize_cb, NULL);
  g_task_set_source_tag (init_task, mcp_client_send_initialize);
  mcp_client_send_request (self, "initialize", params, NULL, NULL, init_task);
}

static void
on_transport_connected_cb (GObject      *object,
                           GAsyncResult *result,
                           gpointer      user_data)
{
  g_autoptr(McpClient) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_transport_connect_finish (MCP_TRANSPORT (object), result, &error))
    {
      if (self->connect_task != NULL)
        mcp_client_connect_finish_with_error (self, g_steal_pointer (&error), TRUE);
      return;
    }

  self->transport_connected = TRUE;

  if (self->connect_task == NULL)
    {
      /* Gave up meanwhile; stop what we started. */
      mcp_transport_close_async (self->transport, NULL, NULL, NULL);
      return;
    }

  mcp_client_lifecycle_start (self);
}

static gboolean
on_connect_timeout_cb (gpointer user_data)
{
  McpClient *self = user_data;
  g_autofree char *server = mcp_client_describe_server (self);
  g_autofree char *duration = mcp_client_format_duration (self->connect_timeout_ms);

  g_clear_pointer (&self->connect_timeout_source, g_source_unref);
  mcp_client_connect_finish_with_error (self,
                                        g_error_new (MCP_ERROR, MCP_ERROR_TIMEOUT,
                                                     _("Timed out after %s connecting to %s"),
                                                     duration, server),
                                        TRUE);
  return G_SOURCE_REMOVE;
}

void
mcp_client_connect_async (McpClient           *self,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_client_connect_async);

  if (self->state != MCP_CLIENT_STATE_NEW)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_FAILED,
                               _("This connection was already started; make a new client to "
                                 "connect again"));
      return;
    }

  mcp_client_set_state (self, MCP_CLIENT_STATE_CONNECTING);
  self->connect_task = g_steal_pointer (&task);

  if (self->connect_timeout_ms != 0)
    {
      self->connect_timeout_source = g_timeout_source_new (self->connect_timeout_ms);
      g_source_set_static_name (self->connect_timeout_source, "[mcp-client] connect timeout");
      g_source_set_callback (self->connect_timeout_source, on_connect_timeout_cb, self, NULL);
      g_source_attach (self->connect_timeout_source, g_main_context_get_thread_default ());
    }

  mcp_transport_connect_async (self->transport, cancellable,
                               on_transport_connected_cb, g_object_ref (self));
}

gboolean
mcp_client_connect_finish (McpClient     *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
on_transport_closed_for_close_cb (GObject      *object,
                                  GAsyncResult *result,
                                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_transport_close_finish (MCP_TRANSPORT (object), result, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

void
mcp_client_close_async (McpClient           *self,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *server = NULL;

  g_return_if_fail (MCP_IS_CLIENT (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_client_close_async);

  server = mcp_client_describe_server (self);
  error = g_error_new (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                       _("The connection to %s was closed"), server);

  if (self->connect_task != NULL)
    mcp_client_connect_finish_with_error (self, g_error_copy (error), FALSE);

  mcp_client_fail_pending (self, error);
  mcp_client_cancel_incoming (self);
  mcp_client_set_state (self, MCP_CLIENT_STATE_CLOSED);

  if (self->transport == NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  mcp_transport_close_async (self->transport, cancellable,
                             on_transport_closed_for_close_cb, g_steal_pointer (&task));
}

gboolean
mcp_client_close_finish (McpClient     *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
