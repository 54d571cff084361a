/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client"

#include "config.h"

#include "mcp-client.h"

#include <glib/gi18n.h>

#include "mcp-client-private.h"
#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-url-policy.h"

/* Requests from the server (ping, and sampling, elicitation, roots and the
 * like through the handlers the front ends set): the incoming table, the
 * answers, and the server's notifications/cancelled. */

/* A request from the server waiting for its handler's answer. Owned by the
 * incoming table until answered; the reply task's callback gets a borrowed
 * pointer to it through its key. */
typedef struct
{
  char         *key;
  JsonNode     *id;
  char         *method;
  GCancellable *cancellable;
  gboolean      cancelled_by_server;
} IncomingRequest;

void
mcp_client_request_handler_free (gpointer data)
{
  McpClientRequestHandler *handler = data;

  if (handler->destroy != NULL)
    handler->destroy (handler->data);
  g_free (handler);
}

void
mcp_client_incoming_request_free (gpointer data)
{
  IncomingRequest *incoming = data;

  g_free (incoming->key);
  g_clear_pointer (&incoming->id, json_node_unref);
  g_free (incoming->method);
  g_clear_object (&incoming->cancellable);
  g_free (incoming);
}

void
mcp_client_set_request_handler (McpClient            *self,
                                const char           *method,
                                McpClientRequestFunc  func,
                                gpointer              user_data,
                                GDestroyNotify        destroy)
{
  McpClientRequestHandler *handler;

  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (method != NULL);

  if (func == NULL)
    {
      g_hash_table_remove (self->request_handlers, method);
      if (destroy != NULL)
        destroy (user_data);
      return;
    }

  handler = g_new0 (McpClientRequestHandler, 1);
  handler->func = func;
  handler->data = user_data;
  handler->destroy = destroy;
  g_hash_table_replace (self->request_handlers, g_strdup (method), handler);
}

/* A URL-mode elicitation whose address the URL policy refuses never
 * reaches a person: TRUE with @error saying why. */
gboolean
mcp_client_url_elicitation_refused (const char  *method,
                                    JsonObject  *params,
                                    GError     **error)
{
  const char *mode;

  if (g_strcmp0 (method, "elicitation/create") != 0 || params == NULL)
    return FALSE;

  mode = mcp_json_optional_string (params, "mode", "elicitation", NULL);
  if (g_strcmp0 (mode, "url") != 0)
    return FALSE;

  return !mcp_url_policy_check (mcp_json_optional_string (params, "url", "elicitation", NULL),
                                MCP_URL_USE_BROWSER, NULL, error);
}

/* JSON-RPC ids are strings or integers; "i:42" and "s:42" keep them apart. */
static char *
id_key (JsonNode *id)
{
  if (id == NULL || !JSON_NODE_HOLDS_VALUE (id))
    return NULL;
  if (json_node_get_value_type (id) == G_TYPE_INT64)
    return g_strdup_printf ("i:%" G_GINT64_FORMAT, json_node_get_int (id));
  if (json_node_get_value_type (id) == G_TYPE_DOUBLE)
    return g_strdup_printf ("i:%" G_GINT64_FORMAT, (gint64) json_node_get_double (id));
  if (json_node_get_value_type (id) == G_TYPE_STRING)
    return g_strdup_printf ("s:%s", json_node_get_string (id));
  return NULL;
}

static void
send_reply (McpClient  *self,
            McpMessage *reply,
            const char *method)
{
  g_autoptr(GError) error = NULL;

  if (!mcp_client_send (self, reply, &error))
    g_debug ("Could not answer the server's “%s” request: %s", method, error->message);
}

static void
on_request_answered_cb (GObject      *object,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  McpClient *self = MCP_CLIENT (object);
  g_autofree char *key = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) answer = NULL;
  g_autoptr(McpMessage) reply = NULL;
  IncomingRequest *incoming = NULL;

  answer = g_task_propagate_pointer (G_TASK (result), &error);

  /* The key is the request's own (incoming->key), freed with it. */
  if (!g_hash_table_steal_extended (self->incoming, key, NULL, (gpointer *) &incoming))
    return;

  /* The server gave the request up (or the session ended): it expects no
   * answer any more. */
  if (incoming->cancelled_by_server || g_cancellable_is_cancelled (incoming->cancellable))
    {
      g_debug ("Not answering the server's cancelled “%s” request", incoming->method);
      mcp_client_incoming_request_free (incoming);
      return;
    }

  if (answer != NULL)
    {
      reply = mcp_message_new_result (incoming->id, answer);
    }
  else if (error != NULL && error->domain == MCP_JSONRPC_ERROR)
    {
      reply = mcp_message_new_error (incoming->id, error->code, error->message,
                                     mcp_jsonrpc_error_get_data (error));
    }
  else
    {
      g_autofree char *text = g_strdup_printf ("Internal error: %s",
                                               error != NULL ? error->message : "no answer");

      reply = mcp_message_new_error (incoming->id, MCP_JSONRPC_ERROR_INTERNAL_ERROR, text, NULL);
    }

  send_reply (self, reply, incoming->method);
  mcp_client_incoming_request_free (incoming);
}

void
mcp_client_handle_request (McpClient  *self,
                           McpMessage *message)
{
  const char *method = mcp_message_get_method (message);
  McpClientRequestHandler *handler;
  g_autoptr(McpMessage) reply = NULL;
  g_autoptr(GError) refused = NULL;
  g_autofree char *key = NULL;

  if (g_str_equal (method, "ping"))
    {
      g_autoptr(JsonNode) empty = mcp_client_node_new_object_take (json_object_new ());

      reply = mcp_message_new_result (mcp_message_get_id (message), empty);
      send_reply (self, reply, method);
      return;
    }

  handler = g_hash_table_lookup (self->request_handlers, method);
  key = id_key (mcp_message_get_id (message));

  if (handler != NULL && mcp_client_url_elicitation_refused (method, mcp_message_get_params_object (message), &refused))
    {
      g_autofree char *warning = NULL;

      /* Declined with the reason, before anyone is asked to open it; the
       * person hears why nothing was shown. */
      warning = g_strdup_printf (_("A page the server asked to open was refused: %s"), refused->message);
      mcp_client_emit_signal (self, MCP_CLIENT_SIGNAL_WARNING, warning);
      reply = mcp_message_new_error (mcp_message_get_id (message), MCP_JSONRPC_ERROR_INVALID_PARAMS,
                                     refused->message, NULL);
      send_reply (self, reply, method);
      return;
    }

  if (handler != NULL && key != NULL && !g_hash_table_contains (self->incoming, key))
    {
      IncomingRequest *incoming = g_new0 (IncomingRequest, 1);
      GTask *task;

      incoming->key = g_strdup (key);
      incoming->id = json_node_ref (mcp_message_get_id (message));
      incoming->method = g_strdup (method);
      incoming->cancellable = g_cancellable_new ();
      g_hash_table_insert (self->incoming, incoming->key, incoming);

      task = g_task_new (self, incoming->cancellable, on_request_answered_cb, g_strdup (key));
      g_task_set_source_tag (task, mcp_client_handle_request);
      g_task_set_check_cancellable (task, FALSE);
      handler->func (self, method, mcp_message_get_params_object (message), task, handler->data);
      return;
    }

  if (handler != NULL && key != NULL)
    {
      reply = mcp_message_new_error (mcp_message_get_id (message),
                                     MCP_JSONRPC_ERROR_INVALID_REQUEST,
                                     "A request with this id is still being answered", NULL);
    }
  else
    {
      g_autofree char *text = g_strdup_printf ("Method not found: %s", method);

      reply = mcp_message_new_error (mcp_message_get_id (message),
                                     MCP_JSONRPC_ERROR_METHOD_NOT_FOUND, text, NULL);
    }

  send_reply (self, reply, method);
}

/* notifications/cancelled from the server: one of its requests to us. */
void
mcp_client_handle_cancelled (McpClient  *self,
                             JsonObject *params)
{
  g_autofree char *key = NULL;
  IncomingRequest *incoming;

  if (params == NULL)
    return;

  key = id_key (json_object_get_member (params, "requestId"));
  if (key == NULL || (incoming = g_hash_table_lookup (self->incoming, key)) == NULL)
    return;

  incoming->cancelled_by_server = TRUE;
  g_cancellable_cancel (incoming->cancellable);
}

/* The session is over: every handler still at work may stop. */
void
mcp_client_cancel_incoming (McpClient *self)
{
  GHashTableIter iter;
  IncomingRequest *incoming;

  if (self->incoming == NULL)
    return;

  g_hash_table_iter_init (&iter, self->incoming);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &incoming))
    g_cancellable_cancel (incoming->cancellable);
}
