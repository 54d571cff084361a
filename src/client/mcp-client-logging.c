/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-client.h"
#include "mcp-client-private.h"
#include "mcp-error.h"

/* Logging: logging/setLevel in the handshake era, the level every request
 * carries in its _meta in the stateless one, and the server's log messages
 * (notifications/message), reported by the log-message signal. */

const char * const *
mcp_client_get_log_levels (void)
{
  static const char * const levels[] = {
    "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency", NULL
  };

  return levels;
}

void
mcp_client_set_log_level_async (McpClient           *self,
                                const char          *level,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  JsonObject *params;

  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (level != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_client_set_log_level_async);

  if (!g_strv_contains (mcp_client_get_log_levels (), level))
    {
      g_autofree char *levels = g_strjoinv (", ", (GStrv) mcp_client_get_log_levels ());

      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_ARGUMENT,
                               _("“%s” is not a log level; use one of %s"), level, levels);
      return;
    }
  if (!mcp_client_check_offers (self, task, mcp_server_info_has_logging, _("logging"), "logging/setLevel"))
    return;

  /* The stateless revision has no logging/setLevel: every request carries
   * the level in its _meta from now on. */
  if (mcp_client_get_era (self) == MCP_PROTOCOL_ERA_MODERN)
    {
      mcp_client_set_stateless_log_level (self, level);
      g_task_return_boolean (task, TRUE);
      return;
    }

  params = json_object_new ();
  json_object_set_string_member (params, "level", level);
  mcp_client_request_for_task (self, g_steal_pointer (&task), "logging/setLevel", params, NULL,
                               NULL, NULL);
}

gboolean
mcp_client_set_log_level_finish (McpClient     *self,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
mcp_client_set_stateless_log_level (McpClient  *self,
                                    const char *level)
{
  g_return_if_fail (MCP_IS_CLIENT (self));

  g_free (self->log_level);
  self->log_level = g_strdup (level);
}

void
mcp_client_handle_log_message (McpClient  *self,
                               JsonObject *params)
{
  const char *level = NULL;
  const char *logger = NULL;
  JsonNode *node;

  node = json_object_get_member (params, "level");
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    level = json_node_get_string (node);
  node = json_object_get_member (params, "logger");
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    logger = json_node_get_string (node);

  mcp_client_emit_signal (self, MCP_CLIENT_SIGNAL_LOG_MESSAGE,
                          level ? level : "info", logger,
                          json_object_get_member (params, "data"));
}
