/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-client.h"
#include "mcp-client-private.h"
#include "mcp-error.h"

/* Era detection: where the transport can carry a stateless request, connect
 * asks server/discover first (the 2026-07-28 revision); an answer that is
 * not modern sends it to initialize (mcp-client-connect.c). */

void
mcp_client_set_era_hint (McpClient      *self,
                         McpProtocolEra  era)
{
  g_return_if_fail (MCP_IS_CLIENT (self));

  self->era_hint = era;
}

McpProtocolEra
mcp_client_get_era_hint (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), MCP_PROTOCOL_ERA_UNKNOWN);

  return self->era_hint;
}

/* The stateless revisions Plugboard speaks, newest first. */
static const char * const modern_versions[] = {
  MCP_PROTOCOL_VERSION_MODERN,
  NULL
};

/* The newest of our stateless versions that @list (a JSON array of
 * version strings, from a DiscoverResult or a -32022's data) names, or
 * NULL. */
static const char *
choose_modern_version (JsonNode *list)
{
  JsonArray *array;

  if (list == NULL || !JSON_NODE_HOLDS_ARRAY (list))
    return NULL;
  array = json_node_get_array (list);

  for (guint i = 0; modern_versions[i] != NULL; i++)
    for (guint j = 0; j < json_array_get_length (array); j++)
      {
        JsonNode *v = json_array_get_element (array, j);

        if (JSON_NODE_HOLDS_VALUE (v) && json_node_get_value_type (v) == G_TYPE_STRING &&
            g_str_equal (json_node_get_string (v), modern_versions[i]))
          return modern_versions[i];
      }

  return NULL;
}

/* A DiscoverResult: the versions the server speaks (one of ours must be
 * among them), its capabilities, serverInfo and instructions, as
 * initialize would have answered them. */
static gboolean
lifecycle_accept_discover_result (McpClient  *self,
                                  JsonNode   *result,
                                  GError    **error)
{
  g_autoptr(JsonObject) as_initialize = NULL;
  g_autoptr(McpServerInfo) info = NULL;
  g_autofree char *server = mcp_client_describe_server (self);
  JsonObject *object;
  JsonNode *versions;
  JsonNode *node;
  const char *chosen = NULL;

  if (result == NULL || !JSON_NODE_HOLDS_OBJECT (result))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("%s answered server/discover with something that is not an object"), server);
      return FALSE;
    }
  object = json_node_get_object (result);

  versions = json_object_get_member (object, "supportedVersions");
  if (versions == NULL || !JSON_NODE_HOLDS_ARRAY (versions))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("%s answered server/discover without a list of supportedVersions"), server);
      return FALSE;
    }

  chosen = choose_modern_version (versions);
  if (chosen == NULL)
    {
      g_autofree char *theirs = json_to_string (versions, FALSE);

      /* Not an error of the server's: one that speaks only handshake
       * revisions (and says so) is met with initialize. */
      g_set_error (error, MCP_ERROR, MCP_ERROR_UNSUPPORTED_VERSION,
                   /* Translators: %s is the server, then a JSON list of versions. */
                   _("%s speaks none of Plugboard's stateless protocol versions (it lists %s)"),
                   server, theirs);
      return FALSE;
    }

  as_initialize = json_object_new ();
  json_object_set_string_member (as_initialize, "protocolVersion", chosen);
  node = json_object_get_member (object, "capabilities");
  json_object_set_member (as_initialize, "capabilities",
                          node != NULL ? json_node_copy (node)
                                       : mcp_client_node_new_object_take (json_object_new ()));
  /* Who the server is rides in the result's _meta in this revision; some
   * servers put it where initialize had it. Neither is required. */
  node = json_object_get_member (object, "serverInfo");
  if (node == NULL)
    {
      JsonNode *meta = json_object_get_member (object, "_meta");

      if (meta != NULL && JSON_NODE_HOLDS_OBJECT (meta))
        node = json_object_get_member (json_node_get_object (meta), MCP_META_SERVER_INFO);
    }
  if (node != NULL)
    json_object_set_member (as_initialize, "serverInfo", json_node_copy (node));
  else
    {
      JsonObject *anonymous = json_object_new ();
      g_autofree char *what = mcp_transport_describe (self->transport);

      json_object_set_string_member (anonymous, "name", what != NULL ? what : "server");
      json_object_set_string_member (anonymous, "version", "");
      json_object_set_object_member (as_initialize, "serverInfo", anonymous);
    }
  if ((node = json_object_get_member (object, "instructions")) != NULL)
    json_object_set_member (as_initialize, "instructions", json_node_copy (node));

  info = mcp_server_info_new_from_json (as_initialize, error);
  if (info == NULL)
    {
      if (error != NULL && *error != NULL)
        g_prefix_error (error, _("Invalid server/discover result from %s: "), server);
      return FALSE;
    }

  mcp_client_settle (self, info, chosen, MCP_PROTOCOL_ERA_MODERN);
  return TRUE;
}

/* What a failed server/discover says of the server's era. */
typedef enum
{
  PROBE_LEGACY,   /* not a modern answer: the server wants initialize */
  PROBE_MODERN,   /* a modern error: the server is stateless, and refused */
  PROBE_FATAL,    /* the connection itself failed: no point trying more */
} ProbeVerdict;

static ProbeVerdict
lifecycle_judge_probe_error (McpClient    *self,
                             const GError *error)
{
  /* A header mismatch or a missing capability: a stateless server that
   * refused this request. Anything else — "Method not found", "Server not
   * initialized", and also an unsupported version (a server that speaks none
   * of our stateless versions may still speak a handshake one, which
   * initialize finds) — sends us to initialize. */
  if (error->domain == MCP_JSONRPC_ERROR)
    return error->code == MCP_JSONRPC_ERROR_HEADER_MISMATCH ||
           error->code == MCP_JSONRPC_ERROR_MISSING_CLIENT_CAPABILITY
           ? PROBE_MODERN : PROBE_LEGACY;

  if (g_error_matches (error, MCP_ERROR, MCP_ERROR_HTTP) ||
      g_error_matches (error, MCP_ERROR, MCP_ERROR_TIMEOUT) ||
      g_error_matches (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE) ||
      g_error_matches (error, MCP_ERROR, MCP_ERROR_UNSUPPORTED_VERSION))
    return PROBE_LEGACY;

  return PROBE_FATAL;
}

/* TRUE when an UnsupportedProtocolVersion error's data list one of our
 * stateless versions in "supported". */
static gboolean
lists_modern_version (JsonNode *data)
{
  if (data == NULL || !JSON_NODE_HOLDS_OBJECT (data))
    return FALSE;
  return choose_modern_version (json_object_get_member (json_node_get_object (data), "supported")) != NULL;
}

static void
on_discover_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  McpClient *self = MCP_CLIENT (object);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;

  node = g_task_propagate_pointer (G_TASK (result), &error);
  self->probing = FALSE;

  /* Timed out or cancelled while we waited: the connect task is gone. */
  if (self->connect_task == NULL)
    return;

  if (node != NULL && lifecycle_accept_discover_result (self, node, &error))
    {
      mcp_client_connect_finish_ready (self);
      mcp_client_listen_start (self);
      return;
    }

  /* An unsupported version from a stateless server that lists one of ours
   * (what it rejected may not have been the version we meant): once more,
   * as the revision says, before falling back. */
  if (g_error_matches (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_UNSUPPORTED_PROTOCOL_VERSION) &&
      !self->probe_retried && lists_modern_version (mcp_jsonrpc_error_get_data (error)))
    {
      g_debug ("server/discover refused the version, which the server lists; asking once more");
      self->probe_retried = TRUE;
      mcp_client_lifecycle_start (self);
      return;
    }

  if (self->era_hint != MCP_PROTOCOL_ERA_MODERN &&
      lifecycle_judge_probe_error (self, error) == PROBE_LEGACY)
    {
      g_debug ("Not a stateless server (%s); sending initialize", error->message);
      mcp_client_send_initialize (self);
      return;
    }

  if (node == NULL && error->domain == MCP_JSONRPC_ERROR)
    {
      g_autofree char *server = mcp_client_describe_server (self);

      g_prefix_error (&error, _("%s refused server/discover: "), server);
    }
  mcp_client_connect_finish_with_error (self, g_steal_pointer (&error), TRUE);
}

/* The era comes first: a stateless request (server/discover), where the
 * transport can carry one, then initialize if the answer is not modern. */
void
mcp_client_lifecycle_start (McpClient *self)
{
  McpRequestOptions options = { 0 };
  g_autoptr(GTask) task = NULL;

  if (self->era_hint == MCP_PROTOCOL_ERA_LEGACY || !mcp_transport_supports_stateless (self->transport))
    {
      mcp_client_send_initialize (self);
      return;
    }

  /* A server of the handshake era may say nothing to a request before
   * initialize; it gets this long before we try initialize — at most half
   * the connect timeout, so that initialize has the other half. */
  if (self->era_hint != MCP_PROTOCOL_ERA_MODERN)
    options.timeout_ms = MIN (MCP_CLIENT_PROBE_TIMEOUT_MS,
                              self->connect_timeout_ms != 0 ? MAX (self->connect_timeout_ms / 2, 1) : G_MAXUINT);

  self->probing = TRUE;
  task = g_task_new (self, g_task_get_cancellable (self->connect_task), on_discover_cb, NULL);
  g_task_set_source_tag (task, mcp_client_lifecycle_start);
  mcp_client_send_request (self, "server/discover", NULL, &options, NULL, task);
}
