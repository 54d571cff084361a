/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-client.h"
#include "mcp-client-private.h"
#include "mcp-error.h"

/* Multi round-trip requests (2026-07-28): a result of resultType
 * "input_required" asks for elicitation, sampling or roots first. The same
 * handlers that answer a server's requests in the handshake era answer
 * them (mcp-client-server-requests.c); the request then goes again, with a
 * new id, the answers in inputResponses and the server's requestState
 * echoed untouched. */

/* A server that asks again and again (for roots, which need no person)
 * would keep us busy for ever. */
#define MAX_INPUT_ROUNDS 32

typedef struct
{
  McpClient        *client;        /* owned */
  McpClientPending *pending;       /* owned; not in the pending table */
  JsonObject       *responses;     /* key → the handler's answer */
  JsonNode         *request_state; /* NULL: none to echo */
  GCancellable     *cancellable;   /* cancels the handlers still at work */
  GError           *error;         /* the first handler's failure */
  guint             waiting;
} InputRound;

static void
input_round_free (InputRound *round)
{
  g_cancellable_cancel (round->cancellable);
  if (round->pending != NULL)
    mcp_client_pending_free (round->pending);
  g_clear_pointer (&round->responses, json_object_unref);
  g_clear_pointer (&round->request_state, json_node_unref);
  g_clear_object (&round->cancellable);
  g_clear_error (&round->error);
  g_clear_object (&round->client);
  g_free (round);
}

static void
input_round_finish (InputRound *round)
{
  McpClient *self = round->client;
  McpClientPending *pending = g_steal_pointer (&round->pending);
  g_autoptr(JsonObject) params = NULL;
  GCancellable *cancellable = g_task_get_cancellable (pending->task);

  if (g_cancellable_is_cancelled (cancellable))
    {
      g_task_return_new_error (pending->task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                               _("The request “%s” was cancelled"), pending->method);
      mcp_client_pending_free (pending);
      return;
    }

  if (round->error != NULL)
    {
      g_autofree char *server = mcp_client_describe_server (self);

      /* Translators: the first %s is a method such as “tools/call”, the
       * second the server, the third why. */
      g_task_return_new_error (pending->task, round->error->domain, round->error->code,
                               _("Could not answer what “%s” asked of %s: %s"),
                               pending->method, server, round->error->message);
      mcp_client_pending_free (pending);
      return;
    }

  params = mcp_client_copy_object_shallow (pending->params);
  json_object_set_object_member (params, "inputResponses", json_object_ref (round->responses));
  json_object_remove_member (params, "requestState");
  if (round->request_state != NULL)
    json_object_set_member (params, "requestState", json_node_copy (round->request_state));

  mcp_client_resend_pending (self, pending, params, pending->sends, pending->rounds + 1);
}

typedef struct
{
  InputRound *round;
  char       *key;
} InputAnswer;

static void
on_input_answered_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  InputAnswer *answer = user_data;
  InputRound *round = answer->round;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;

  node = g_task_propagate_pointer (G_TASK (result), &error);

  if (node != NULL)
    json_object_set_member (round->responses, answer->key, g_steal_pointer (&node));
  else if (round->error == NULL)
    {
      round->error = g_steal_pointer (&error);
      /* The request is given up: the other questions need no answer. */
      g_cancellable_cancel (round->cancellable);
    }

  g_free (answer->key);
  g_free (answer);

  if (--round->waiting == 0)
    {
      input_round_finish (round);
      input_round_free (round);
    }
}

/* @result asked for input: ask the handlers, then send @pending again. */
static void
input_round_start (McpClient        *self,
                   McpClientPending *pending,
                   JsonObject       *result)
{
  g_autofree char *server = mcp_client_describe_server (self);
  InputRound *round;
  JsonNode *requests = json_object_get_member (result, "inputRequests");
  JsonNode *state = json_object_get_member (result, "requestState");
  g_autoptr(GError) refused = NULL;
  GError *error = NULL;
  JsonObjectIter iter;
  const char *key;
  JsonNode *node;

  if (requests != NULL && JSON_NODE_HOLDS_NULL (requests))
    requests = NULL;
  if (state != NULL && JSON_NODE_HOLDS_NULL (state))
    state = NULL;

  if (pending->rounds >= MAX_INPUT_ROUNDS)
    error = g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                         /* Translators: %s is the server, then a method, then a number. */
                         _("%s kept asking for input to “%s” (%u times); stopped"),
                         server, pending->method, pending->rounds);
  else if (requests != NULL && !JSON_NODE_HOLDS_OBJECT (requests))
    error = g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                         _("%s answered “%s” with inputRequests that are not an object"),
                         server, pending->method);
  else if (state != NULL && !(JSON_NODE_HOLDS_VALUE (state) &&
                              json_node_get_value_type (state) == G_TYPE_STRING))
    error = g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                         _("%s answered “%s” with a requestState that is not a string"),
                         server, pending->method);
  else if (requests == NULL && state == NULL)
    error = g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                         _("%s answered “%s” with input_required but asked for nothing"),
                         server, pending->method);

  /* Every question must be one we can answer before any is asked. */
  if (error == NULL && requests != NULL)
    {
      json_object_iter_init (&iter, json_node_get_object (requests));
      while (error == NULL && json_object_iter_next (&iter, &key, &node))
        {
          JsonObject *request = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
          JsonNode *method = request ? json_object_get_member (request, "method") : NULL;
          JsonNode *params = request ? json_object_get_member (request, "params") : NULL;

          if (method == NULL || !JSON_NODE_HOLDS_VALUE (method) ||
              json_node_get_value_type (method) != G_TYPE_STRING ||
              (params != NULL && !JSON_NODE_HOLDS_OBJECT (params) && !JSON_NODE_HOLDS_NULL (params)))
            error = g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                 /* Translators: %s is the server, then a key the server chose, then a method. */
                                 _("%s sent an input request “%s” for “%s” without a method or with params that are not an object"),
                                 server, key, pending->method);
          else if (!g_hash_table_contains (self->request_handlers, json_node_get_string (method)))
            error = g_error_new (MCP_ERROR, MCP_ERROR_UNSUPPORTED,
                                 /* Translators: %s is the server, then a method such as “sampling/createMessage”, then
                                  * a method such as “tools/call”. */
                                 _("%s asked for “%s” to answer “%s”, which Plugboard did not offer it"),
                                 server, json_node_get_string (method), pending->method);
        }
    }

  if (error != NULL)
    {
      g_task_return_error (pending->task, error);
      mcp_client_pending_free (pending);
      return;
    }

  /* Out of the pending table, the request's own cancel source would find
   * nothing: the round watches the cancellable instead. */
  if (pending->cancel_source != NULL)
    {
      g_source_destroy (pending->cancel_source);
      g_clear_pointer (&pending->cancel_source, g_source_unref);
    }

  round = g_new0 (InputRound, 1);
  round->client = g_object_ref (self);
  round->pending = pending;
  round->responses = json_object_new ();
  round->request_state = state ? json_node_copy (state) : NULL;
  round->cancellable = g_cancellable_new ();
  /* Cancelling the request stops the questions too. */
  if (g_task_get_cancellable (pending->task) != NULL)
    g_cancellable_connect (g_task_get_cancellable (pending->task),
                           G_CALLBACK (g_cancellable_cancel),
                           g_object_ref (round->cancellable), g_object_unref);
  /* One more than the questions, so that an answer given at once does
   * not finish the round before every question was asked. */
  round->waiting = 1;

  if (requests != NULL)
    {
      json_object_iter_init (&iter, json_node_get_object (requests));
      while (json_object_iter_next (&iter, &key, &node))
        {
          JsonObject *request = json_node_get_object (node);
          const char *method = json_object_get_string_member (request, "method");
          JsonNode *params = json_object_get_member (request, "params");
          McpClientRequestHandler *handler = g_hash_table_lookup (self->request_handlers, method);
          InputAnswer *answer = g_new0 (InputAnswer, 1);
          GTask *task;

          answer->round = round;
          answer->key = g_strdup (key);
          round->waiting++;

          task = g_task_new (self, round->cancellable, on_input_answered_cb, answer);
          g_task_set_source_tag (task, input_round_start);
          g_task_set_check_cancellable (task, FALSE);
          if (mcp_client_url_elicitation_refused (method,
                                                  params != NULL && JSON_NODE_HOLDS_OBJECT (params)
                                                  ? json_node_get_object (params) : NULL,
                                                  &refused))
            {
              /* Declined: the round's answer has no room for a reason. */
              JsonObject *decline = json_object_new ();

              g_debug ("Declined a URL elicitation: %s", refused->message);
              g_clear_error (&refused);
              json_object_set_string_member (decline, "action", "decline");
              g_task_return_pointer (task, mcp_client_node_new_object_take (decline), (GDestroyNotify) json_node_unref);
              g_object_unref (task);
              continue;
            }
          handler->func (self, method,
                         params != NULL && JSON_NODE_HOLDS_OBJECT (params) ? json_node_get_object (params) : NULL,
                         task, handler->data);
        }
    }

  if (--round->waiting == 0)
    {
      input_round_finish (round);
      input_round_free (round);
    }
}

/* The stateless revision's resultType: "complete" (or none, from servers of
 * the handshake era) is the answer; "input_required" asks for input first;
 * anything else is invalid. TRUE when @pending was taken care of. */
gboolean
mcp_client_handle_result_type (McpClient        *self,
                               McpClientPending *pending,
                               JsonNode         *result)
{
  JsonNode *type;
  const char *name;

  if (!mcp_client_is_stateless (self) || result == NULL || !JSON_NODE_HOLDS_OBJECT (result))
    return FALSE;

  type = json_object_get_member (json_node_get_object (result), "resultType");
  if (type == NULL)
    return FALSE;

  name = JSON_NODE_HOLDS_VALUE (type) && json_node_get_value_type (type) == G_TYPE_STRING
         ? json_node_get_string (type) : NULL;

  if (g_strcmp0 (name, "complete") == 0)
    return FALSE;

  if (g_strcmp0 (name, "input_required") == 0)
    {
      input_round_start (self, pending, json_node_get_object (result));
      return TRUE;
    }

  {
    g_autofree char *server = mcp_client_describe_server (self);

    g_task_return_new_error (pending->task, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                             /* Translators: %s is the server, then a method, then the result type it sent. */
                             _("%s answered “%s” with a result type Plugboard does not know: “%s”"),
                             server, pending->method, name != NULL ? name : _("not a string"));
    mcp_client_pending_free (pending);
    return TRUE;
  }
}
