/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client"

#include "config.h"

#include "mcp-client.h"
#include "mcp-client-private.h"

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-url-policy.h"

/* Turns a successful response into what the request's task returns. */
typedef void (*ResultFunc) (McpClient *self,
                            GTask     *task,
                            JsonNode  *result);

/* A request waiting for its response. Owned by the pending table. */
typedef struct
{
  McpClient        *client;            /* borrowed */
  gint64            id;
  char             *method;
  GTask            *task;
  gint64            expires_us;        /* monotonic; 0: never */
  GSource          *cancel_source;
  guint             timeout_ms;
  gint64            deadline_us;       /* monotonic; 0: no maximum total */
  guint             max_total_ms;
  McpProgressFunc   progress_func;
  gpointer          progress_data;
  ResultFunc        result_func;       /* NULL: the result node itself */
  /* What a stateless request is sent again with: after an input_required
   * result (with the answers), or when its response stream broke. */
  JsonObject       *params;            /* the caller's, without our _meta */
  McpRequestOptions options;
  guint             sends;             /* how often it went out for a broken stream */
  guint             rounds;            /* input_required rounds so far */
  guint             headers_refetched : 1; /* tools/list again after a -32020 */
} PendingRequest;

struct _McpClient
{
  GObject          parent_instance;

  /* g_get_real_time() of the last message the server sent; 0: none */
  gint64           last_contact;

  /* owned */
  McpTransport    *transport;
  McpServerInfo   *server_info;
  char            *protocol_version;
  char            *client_name;
  char            *client_version;
  GHashTable      *pending;            /* gint64 id → PendingRequest */
  GTask           *connect_task;
  GSource         *connect_timeout_source;
  GSource         *timer;              /* fires at the earliest expires_us */
  GError          *closed_error;       /* why the transport closed, once it has */
  JsonObject      *capabilities;       /* declared in initialize; NULL: {} */
  GHashTable      *request_handlers;   /* method → RequestHandler */
  GHashTable      *incoming;           /* id key → IncomingRequest */

  McpClientState   state;
  McpProtocolEra   era;                /* what connect found */
  McpProtocolEra   era_hint;           /* what to try first */
  char            *log_level;          /* sent in every stateless request's _meta */
  /* The stateless revision's subscriptions/listen: the one request whose
   * response stream carries list changes and resource updates. */
  GHashTable      *listen_uris;        /* resources subscribed to (a set) */
  /* The last tools/list, name → McpTool: a stateless tools/call over HTTP
   * mirrors the arguments its schema marks x-mcp-header into headers. */
  GHashTable      *listed_tools;
  GCancellable    *listen_cancellable; /* the listen request out, or NULL */
  guint            listen_retry_id;
  guint            listen_failures;    /* in a row, for the backoff */
  gint64           listen_id;          /* its request id: the subscriptionId */
  GPtrArray       *listen_waiters;     /* GTasks done when the server acknowledges */
  guint            listen_unsupported : 1;
  guint            request_timeout_ms;
  guint            connect_timeout_ms;
  gint64           next_id;
  guint            transport_connected : 1;
  guint            probing : 1;        /* server/discover is out */
  guint            probe_retried : 1;  /* sent again after -32022 */
};

G_DEFINE_FINAL_TYPE (McpClient, mcp_client, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_TRANSPORT,
  PROP_STATE,
  PROP_SERVER_INFO,
  PROP_PROTOCOL_VERSION,
  PROP_ERA,
  PROP_REQUEST_TIMEOUT,
  PROP_CONNECT_TIMEOUT,
  N_PROPS
};

enum {
  TOOLS_LIST_CHANGED,
  RESOURCES_LIST_CHANGED,
  PROMPTS_LIST_CHANGED,
  LOG_MESSAGE,
  NOTIFICATION,
  SERVER_NOTIFICATION,
  WARNING,
  CLOSED,
  N_SIGNALS
};

/* A front end's answer to one kind of server-to-client request. */
typedef struct
{
  McpClientRequestFunc  func;
  gpointer              data;
  GDestroyNotify        destroy;
} RequestHandler;

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

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void mcp_client_fail_pending   (McpClient    *self,
                                       const GError *error);
static void listen_start              (McpClient    *self);
static void listen_return             (McpClient    *self,
                                       const GError *error);
static gboolean listen_filter_notification (McpClient  *self,
                                            const char *method,
                                            JsonObject *params);
static void connect_finish_with_error (McpClient    *self,
                                       GError       *error,
                                       gboolean      close_transport);
static void handle_cancelled          (McpClient    *self,
                                       JsonObject   *params);

/* ------------------------------------------------------------------------ */
/* Small helpers                                                            */

static char *
describe_server (McpClient *self)
{
  if (self->server_info != NULL && mcp_server_info_get_name (self->server_info) != NULL)
    return g_strdup_printf ("“%s”", mcp_server_info_get_name (self->server_info));

  if (self->transport != NULL)
    {
      g_autofree char *desc = mcp_transport_describe (self->transport);

      if (desc != NULL)
        return g_strdup_printf ("“%s”", desc);
    }

  return g_strdup (_("the server"));
}

char *
mcp_client_describe_server (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);

  return describe_server (self);
}

static char *
format_duration (guint ms)
{
  if (ms % 1000 == 0)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u second", "%u seconds", ms / 1000),
                            ms / 1000);
  return g_strdup_printf (_("%.1f seconds"), ms / 1000.0);
}

static void
mcp_client_set_state (McpClient      *self,
                      McpClientState  state)
{
  if (self->state == state)
    return;

  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

static JsonObject *
copy_object_shallow (JsonObject *object)
{
  JsonObject *copy = json_object_new ();
  JsonObjectIter iter;
  const char *name;
  JsonNode *node;

  if (object == NULL)
    return copy;

  json_object_iter_init (&iter, object);
  while (json_object_iter_next (&iter, &name, &node))
    json_object_set_member (copy, name, json_node_copy (node));

  return copy;
}

static JsonNode *
node_new_object_take (JsonObject *object)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_node_take_object (node, object);
  return node;
}

static gboolean
mcp_client_send (McpClient   *self,
                 McpMessage  *message,
                 GError     **error)
{
  if (self->closed_error != NULL)
    {
      g_propagate_error (error, g_error_copy (self->closed_error));
      return FALSE;
    }

  if (self->transport == NULL || mcp_transport_is_closed (self->transport))
    {
      g_autofree char *server = describe_server (self);

      g_set_error (error, MCP_ERROR, MCP_ERROR_NOT_CONNECTED,
                   _("Not connected to %s"), server);
      return FALSE;
    }

  return mcp_transport_send (self->transport, message, error);
}

static void
send_cancelled_notification (McpClient  *self,
                             gint64      id,
                             const char *reason)
{
  g_autoptr(JsonObject) params = json_object_new ();
  g_autoptr(GError) error = NULL;

  json_object_set_int_member (params, "requestId", id);
  if (reason != NULL)
    json_object_set_string_member (params, "reason", reason);

  if (!mcp_client_notify (self, "notifications/cancelled", params, &error))
    g_debug ("Could not send notifications/cancelled for request %" G_GINT64_FORMAT ": %s",
             id, error->message);
}

/* ------------------------------------------------------------------------ */
/* Pending requests                                                         */

static void
pending_request_free (PendingRequest *pending)
{
  if (pending->cancel_source != NULL)
    {
      g_source_destroy (pending->cancel_source);
      g_source_unref (pending->cancel_source);
    }
  g_clear_object (&pending->task);
  g_free (pending->method);
  g_clear_pointer (&pending->params, json_object_unref);
  g_free (pending);
}

/* Takes the request out of the table; the caller completes its task. */
static PendingRequest *
mcp_client_steal_pending (McpClient *self,
                          gint64     id)
{
  PendingRequest *pending = NULL;
  gint64 *key = NULL;

  if (!g_hash_table_steal_extended (self->pending, &id, (gpointer *) &key, (gpointer *) &pending))
    return NULL;

  g_free (key);
  return pending;
}

/* Every request has its own deadline; one timer per client serves them
 * all, set to the earliest. A GSource per request would cost every main
 * loop iteration a look at each of them. */
static void
mcp_client_schedule_timer (McpClient *self,
                           gint64     expires_us)
{
  gint64 ready_time = g_source_get_ready_time (self->timer);

  if (expires_us != 0 && (ready_time < 0 || expires_us < ready_time))
    g_source_set_ready_time (self->timer, expires_us);
}

static void
pending_request_arm_timeout (PendingRequest *pending)
{
  if (pending->timeout_ms == 0)
    {
      pending->expires_us = pending->deadline_us;
    }
  else
    {
      pending->expires_us = g_get_monotonic_time () + (gint64) pending->timeout_ms * 1000;
      if (pending->deadline_us != 0)
        pending->expires_us = MIN (pending->expires_us, pending->deadline_us);
    }

  mcp_client_schedule_timer (pending->client, pending->expires_us);
}

static void
pending_request_time_out (McpClient      *self,
                          PendingRequest *pending)
{
  g_autofree char *server = describe_server (self);
  g_autofree char *duration = NULL;
  GError *error;

  if (pending->deadline_us != 0 && pending->expires_us >= pending->deadline_us)
    {
      duration = format_duration (pending->max_total_ms);
      error = g_error_new (MCP_ERROR, MCP_ERROR_TIMEOUT,
                           _("%s did not finish “%s” within %s, the most a request may take "
                             "even while it reports progress"),
                           server, pending->method, duration);
    }
  else
    {
      duration = format_duration (pending->timeout_ms);
      error = g_error_new (MCP_ERROR, MCP_ERROR_TIMEOUT,
                           _("No answer from %s to “%s” within %s"),
                           server, pending->method, duration);
    }

  /* The specification forbids cancelling initialize. */
  if (g_strcmp0 (pending->method, "initialize") != 0)
    send_cancelled_notification (self, pending->id, error->message);

  g_task_return_error (pending->task, error);
  pending_request_free (pending);
}

static gboolean
on_timer_dispatch (GSource     *source,
                   GSourceFunc  callback,
                   gpointer     user_data)
{
  McpClient *self = user_data;
  g_autoptr(GPtrArray) expired = g_ptr_array_new ();
  gint64 now = g_get_monotonic_time ();
  gint64 next = -1;
  GHashTableIter iter;
  PendingRequest *pending;

  g_object_ref (self);

  g_hash_table_iter_init (&iter, self->pending);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &pending))
    {
      if (pending->expires_us == 0)
        continue;
      if (pending->expires_us <= now)
        {
          g_ptr_array_add (expired, pending);
          g_hash_table_iter_remove (&iter);
        }
      else if (next < 0 || pending->expires_us < next)
        next = pending->expires_us;
    }

  g_source_set_ready_time (source, next);

  for (guint i = 0; i < expired->len; i++)
    pending_request_time_out (self, g_ptr_array_index (expired, i));

  g_object_unref (self);
  return G_SOURCE_CONTINUE;
}

static GSourceFuncs timer_funcs = {
  .dispatch = on_timer_dispatch,
};

static gboolean
on_request_cancelled_cb (GCancellable *cancellable,
                         gpointer      user_data)
{
  PendingRequest *pending = user_data;
  McpClient *self = pending->client;

  pending = mcp_client_steal_pending (self, pending->id);
  g_assert (pending != NULL);

  if (g_strcmp0 (pending->method, "initialize") != 0)
    send_cancelled_notification (self, pending->id, "Cancelled by the user");

  g_clear_pointer (&pending->cancel_source, g_source_unref);
  g_task_return_new_error (pending->task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                           _("The request “%s” was cancelled"), pending->method);
  pending_request_free (pending);

  return G_SOURCE_REMOVE;
}

static void
mcp_client_fail_pending (McpClient    *self,
                         const GError *error)
{
  GHashTableIter iter;
  PendingRequest *pending;
  g_autoptr(GPtrArray) all = g_ptr_array_new ();

  g_hash_table_iter_init (&iter, self->pending);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &pending))
    {
      g_ptr_array_add (all, pending);
      g_hash_table_iter_remove (&iter);  /* frees the key only */
    }

  for (guint i = 0; i < all->len; i++)
    {
      pending = g_ptr_array_index (all, i);
      g_task_return_error (pending->task, g_error_copy (error));
      pending_request_free (pending);
    }
}

static gboolean
is_stateless (McpClient *self)
{
  return self->era == MCP_PROTOCOL_ERA_MODERN || self->probing;
}

static JsonObject *
client_info_new (McpClient *self)
{
  JsonObject *info = json_object_new ();

  json_object_set_string_member (info, "name", self->client_name);
  json_object_set_string_member (info, "title", "Plugboard");
  json_object_set_string_member (info, "version", self->client_version);
  return info;
}

/* The params a request goes out with: the caller's @params, the progress
 * token when asked for, and in the stateless revision the per-request
 * protocol fields in _meta (version, capabilities, who we are, log level),
 * which every such request must carry. NULL: no params at all. */
static JsonNode *
build_params_node (McpClient  *self,
                   JsonObject *params,
                   gboolean    with_progress,
                   gint64      id)
{
  gboolean stateless = is_stateless (self);
  JsonObject *copy;
  JsonObject *meta;
  JsonNode *old_meta;

  if (!with_progress && !stateless)
    {
      JsonNode *node;

      if (params == NULL)
        return NULL;
      node = json_node_new (JSON_NODE_OBJECT);
      json_node_set_object (node, params);
      return node;
    }

  copy = copy_object_shallow (params);
  old_meta = params ? json_object_get_member (params, "_meta") : NULL;
  if (old_meta != NULL && JSON_NODE_HOLDS_OBJECT (old_meta))
    meta = copy_object_shallow (json_node_get_object (old_meta));
  else
    meta = json_object_new ();

  if (with_progress)
    json_object_set_int_member (meta, "progressToken", id);

  if (stateless)
    {
      json_object_set_string_member (meta, MCP_META_PROTOCOL_VERSION,
                                     self->protocol_version != NULL && self->era == MCP_PROTOCOL_ERA_MODERN
                                     ? self->protocol_version : MCP_PROTOCOL_VERSION_MODERN);
      json_object_set_object_member (meta, MCP_META_CLIENT_CAPABILITIES,
                                     self->capabilities != NULL
                                     ? copy_object_shallow (self->capabilities)
                                     : json_object_new ());
      json_object_set_object_member (meta, MCP_META_CLIENT_INFO, client_info_new (self));
      if (self->log_level != NULL)
        json_object_set_string_member (meta, MCP_META_LOG_LEVEL, self->log_level);
    }

  json_object_set_object_member (copy, "_meta", meta);
  return node_new_object_take (copy);
}

/* Mcp-Param-* headers (2026-07-28, SEP-2243) for a stateless tools/call,
 * from the schema of the tool as last listed. */
static void
add_param_headers (McpClient  *self,
                   JsonObject *params,
                   McpMessage *message)
{
  JsonNode *name = json_object_get_member (params, "name");
  JsonNode *arguments = json_object_get_member (params, "arguments");
  McpTool *tool;

  if (name == NULL || !JSON_NODE_HOLDS_VALUE (name) ||
      json_node_get_value_type (name) != G_TYPE_STRING ||
      arguments == NULL || !JSON_NODE_HOLDS_OBJECT (arguments))
    return;

  tool = g_hash_table_lookup (self->listed_tools, json_node_get_string (name));
  if (tool != NULL)
    mcp_tool_add_param_headers (tool, json_node_get_object (arguments), message);
}

/* Returns the request now pending, or NULL when @task was answered (an
 * error, cancelled). */
static PendingRequest *
send_request_full (McpClient               *self,
                   const char              *method,
                   JsonObject              *params,
                   const McpRequestOptions *options,
                   ResultFunc               result_func,
                   GTask                   *task,
                   guint                    sends,
                   guint                    rounds)
{
  g_autoptr(McpMessage) message = NULL;
  g_autoptr(JsonNode) id_node = NULL;
  g_autoptr(JsonNode) params_node = NULL;
  g_autoptr(GError) error = NULL;
  GCancellable *cancellable = g_task_get_cancellable (task);
  PendingRequest *pending;
  gint64 *key;
  gint64 id;

  if (g_cancellable_set_error_if_cancelled (cancellable, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return NULL;
    }

  id = self->next_id++;
  id_node = mcp_message_id_new_int (id);
  params_node = build_params_node (self, params,
                                   options != NULL && options->progress_func != NULL, id);
  message = mcp_message_new_request (id_node, method, params_node);
  if (self->era == MCP_PROTOCOL_ERA_MODERN && params != NULL &&
      g_str_equal (method, "tools/call") && mcp_transport_mirrors_param_headers (self->transport))
    add_param_headers (self, params, message);

  if (!mcp_client_send (self, message, &error))
    {
      /* A server that died a moment ago: its transport is still winding
       * down. Wait for the closed signal, which says why, instead of
       * reporting a bare "closing". */
      if (!g_error_matches (error, MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED) ||
          self->closed_error != NULL ||
          mcp_transport_is_closed (self->transport))
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return NULL;
        }
      g_clear_error (&error);
    }

  pending = g_new0 (PendingRequest, 1);
  pending->client = self;
  pending->id = id;
  pending->method = g_strdup (method);
  pending->task = g_object_ref (task);
  pending->result_func = result_func;
  pending->timeout_ms = self->request_timeout_ms;
  pending->params = params != NULL ? json_object_ref (params) : NULL;
  pending->sends = sends;
  pending->rounds = rounds;

  if (options != NULL)
    {
      pending->options = *options;
      if (options->timeout_ms == MCP_REQUEST_TIMEOUT_NONE)
        pending->timeout_ms = 0;
      else if (options->timeout_ms != 0)
        pending->timeout_ms = options->timeout_ms;
      pending->max_total_ms = options->max_total_timeout_ms;
      if (options->max_total_timeout_ms != 0)
        pending->deadline_us = g_get_monotonic_time () + (gint64) options->max_total_timeout_ms * 1000;
      pending->progress_func = options->progress_func;
      pending->progress_data = options->progress_data;
    }

  key = g_new (gint64, 1);
  *key = id;
  g_hash_table_insert (self->pending, key, pending);

  pending_request_arm_timeout (pending);

  if (cancellable != NULL)
    {
      pending->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_static_name (pending->cancel_source, "[mcp-client] request cancelled");
      g_source_set_callback (pending->cancel_source, G_SOURCE_FUNC (on_request_cancelled_cb),
                             pending, NULL);
      g_source_attach (pending->cancel_source, g_main_context_get_thread_default ());
    }

  return pending;
}

/* Sends a request without looking at the client's state: connect uses it
 * for initialize before the client is ready. */
static void
mcp_client_send_request (McpClient               *self,
                         const char              *method,
                         JsonObject              *params,
                         const McpRequestOptions *options,
                         ResultFunc               result_func,
                         GTask                   *task)
{
  send_request_full (self, method, params, options, result_func, task, 1, 0);
}

/* Sends @pending's request again, with a new id (the stateless revision
 * wants one per attempt), for the same task; @params replace its own when
 * given. @pending is freed; the new one is returned, NULL when the task
 * was answered instead. */
static PendingRequest *
resend_pending (McpClient      *self,
                PendingRequest *pending,
                JsonObject     *params,
                guint           sends,
                guint           rounds)
{
  g_autoptr(GTask) task = g_object_ref (pending->task);
  g_autofree char *method = g_strdup (pending->method);
  g_autoptr(JsonObject) old_params = pending->params ? json_object_ref (pending->params) : NULL;
  McpRequestOptions options = pending->options;
  ResultFunc result_func = pending->result_func;

  pending_request_free (pending);
  return send_request_full (self, method, params != NULL ? params : old_params, &options,
                            result_func, task, sends, rounds);
}

/* ------------------------------------------------------------------------ */
/* Incoming messages                                                        */

/* ------------------------------------------------------------------------ */
/* Multi round-trip requests (2026-07-28): a result of resultType
 * "input_required" asks for elicitation, sampling or roots first. The same
 * handlers that answer a server's requests in the handshake era answer
 * them; the request then goes again, with a new id, the answers in
 * inputResponses and the server's requestState echoed untouched.          */

/* A request whose response stream broke goes out at most this often. */
#define MAX_SENDS 3

/* A server that asks again and again (for roots, which need no person)
 * would keep us busy for ever. */
#define MAX_INPUT_ROUNDS 32

typedef struct
{
  McpClient      *client;        /* owned */
  PendingRequest *pending;       /* owned; not in the pending table */
  JsonObject     *responses;     /* key → the handler's answer */
  JsonNode       *request_state; /* NULL: none to echo */
  GCancellable   *cancellable;   /* cancels the handlers still at work */
  GError         *error;         /* the first handler's failure */
  guint           waiting;
} InputRound;

static void
input_round_free (InputRound *round)
{
  g_cancellable_cancel (round->cancellable);
  if (round->pending != NULL)
    pending_request_free (round->pending);
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
  PendingRequest *pending = g_steal_pointer (&round->pending);
  g_autoptr(JsonObject) params = NULL;
  GCancellable *cancellable = g_task_get_cancellable (pending->task);

  if (g_cancellable_is_cancelled (cancellable))
    {
      g_task_return_new_error (pending->task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                               _("The request “%s” was cancelled"), pending->method);
      pending_request_free (pending);
      return;
    }

  if (round->error != NULL)
    {
      g_autofree char *server = describe_server (self);

      /* Translators: the first %s is a method such as “tools/call”, the
       * second the server, the third why. */
      g_task_return_new_error (pending->task, round->error->domain, round->error->code,
                               _("Could not answer what “%s” asked of %s: %s"),
                               pending->method, server, round->error->message);
      pending_request_free (pending);
      return;
    }

  params = copy_object_shallow (pending->params);
  json_object_set_object_member (params, "inputResponses", json_object_ref (round->responses));
  json_object_remove_member (params, "requestState");
  if (round->request_state != NULL)
    json_object_set_member (params, "requestState", json_node_copy (round->request_state));

  resend_pending (self, pending, params, pending->sends, pending->rounds + 1);
}

typedef struct
{
  InputRound *round;
  char       *key;
} InputAnswer;

/* A URL-mode elicitation whose address the URL policy refuses never
 * reaches a person: TRUE with @error saying why. */
static gboolean
url_elicitation_refused (const char  *method,
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
input_round_start (McpClient      *self,
                   PendingRequest *pending,
                   JsonObject     *result)
{
  g_autofree char *server = describe_server (self);
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
      pending_request_free (pending);
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
          RequestHandler *handler = g_hash_table_lookup (self->request_handlers, method);
          InputAnswer *answer = g_new0 (InputAnswer, 1);
          GTask *task;

          answer->round = round;
          answer->key = g_strdup (key);
          round->waiting++;

          task = g_task_new (self, round->cancellable, on_input_answered_cb, answer);
          g_task_set_source_tag (task, input_round_start);
          g_task_set_check_cancellable (task, FALSE);
          if (url_elicitation_refused (method,
                                       params != NULL && JSON_NODE_HOLDS_OBJECT (params)
                                       ? json_node_get_object (params) : NULL,
                                       &refused))
            {
              /* Declined: the round's answer has no room for a reason. */
              JsonObject *decline = json_object_new ();

              g_debug ("Declined a URL elicitation: %s", refused->message);
              g_clear_error (&refused);
              json_object_set_string_member (decline, "action", "decline");
              g_task_return_pointer (task, node_new_object_take (decline), (GDestroyNotify) json_node_unref);
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
static gboolean
handle_result_type (McpClient      *self,
                    PendingRequest *pending,
                    JsonNode       *result)
{
  JsonNode *type;
  const char *name;

  if (!is_stateless (self) || result == NULL || !JSON_NODE_HOLDS_OBJECT (result))
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
    g_autofree char *server = describe_server (self);

    g_task_return_new_error (pending->task, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                             /* Translators: %s is the server, then a method, then the result type it sent. */
                             _("%s answered “%s” with a result type Plugboard does not know: “%s”"),
                             server, pending->method, name != NULL ? name : _("not a string"));
    pending_request_free (pending);
    return TRUE;
  }
}

/* A tools/call refused with -32020 while its tool is listed again. */
typedef struct
{
  PendingRequest *pending;
  GError         *error;   /* the refusal, for when listing fails */
} Relist;

static void
on_relisted_for_headers_cb (GObject      *object,
                            GAsyncResult *result,
                            gpointer      user_data)
{
  McpClient *self = MCP_CLIENT (object);
  Relist *relist = user_data;
  g_autoptr(GPtrArray) tools = NULL;
  g_autoptr(GError) error = NULL;
  PendingRequest *pending;

  tools = mcp_client_list_tools_finish (self, result, &error);
  if (tools == NULL)
    {
      g_debug ("Listing tools again after a header mismatch failed: %s", error->message);
      g_task_return_error (relist->pending->task, g_steal_pointer (&relist->error));
      pending_request_free (relist->pending);
    }
  else
    {
      pending = resend_pending (self, relist->pending, NULL, relist->pending->sends,
                                relist->pending->rounds);
      if (pending != NULL)
        pending->headers_refetched = TRUE;
    }

  g_clear_error (&relist->error);
  g_free (relist);
}

/* SEP-2243: a server that finds the Mcp-Param-* headers of a tools/call
 * wrong (400 -32020) has a schema other than the one listed; the client
 * lists the tools again and sends the call once more. TRUE when it did. */
static gboolean
relist_for_header_mismatch (McpClient      *self,
                            PendingRequest *pending,
                            McpMessage     *message)
{
  Relist *relist;

  if (mcp_message_get_error_code (message) != MCP_JSONRPC_ERROR_HEADER_MISMATCH ||
      pending->headers_refetched || self->era != MCP_PROTOCOL_ERA_MODERN ||
      g_strcmp0 (pending->method, "tools/call") != 0 ||
      !mcp_transport_mirrors_param_headers (self->transport))
    return FALSE;

  g_debug ("tools/call refused for its headers (%s); listing the tools again",
           mcp_message_get_error_message (message));

  relist = g_new0 (Relist, 1);
  relist->pending = pending;
  relist->error = mcp_message_to_gerror (message);
  mcp_client_list_tools_async (self, g_task_get_cancellable (pending->task),
                               on_relisted_for_headers_cb, relist);
  return TRUE;
}

static void
handle_response (McpClient  *self,
                 McpMessage *message)
{
  PendingRequest *pending;
  gint64 id;

  if (!mcp_message_get_int_id (message, &id))
    {
      if (mcp_message_get_kind (message) == MCP_MESSAGE_ERROR)
        g_debug ("Server sent an error not tied to a request: %d %s",
                 mcp_message_get_error_code (message),
                 mcp_message_get_error_message (message));
      else
        g_debug ("Ignoring a response with an id this client never used");
      return;
    }

  pending = mcp_client_steal_pending (self, id);
  if (pending == NULL)
    {
      /* A late answer to a request that timed out or was cancelled. */
      g_debug ("Ignoring a response to unknown or finished request %" G_GINT64_FORMAT, id);
      return;
    }

  if (mcp_message_get_kind (message) == MCP_MESSAGE_ERROR)
    {
      if (relist_for_header_mismatch (self, pending, message))
        return;
      g_task_return_error (pending->task, mcp_message_to_gerror (message));
    }
  else if (handle_result_type (self, pending, mcp_message_get_result (message)))
    {
      return;
    }
  else if (pending->result_func != NULL)
    {
      pending->result_func (self, pending->task, mcp_message_get_result (message));
    }
  else
    {
      JsonNode *result = mcp_message_get_result (message);

      g_task_return_pointer (pending->task,
                             result ? json_node_ref (result) : json_node_new (JSON_NODE_NULL),
                             (GDestroyNotify) json_node_unref);
    }

  pending_request_free (pending);
}

static void
handle_progress (McpClient  *self,
                 JsonObject *params)
{
  PendingRequest *pending;
  JsonNode *token;
  JsonNode *node;
  double progress = 0;
  double total = -1;
  const char *text = NULL;
  gint64 id;

  if (params == NULL || (token = json_object_get_member (params, "progressToken")) == NULL)
    return;

  /* Our tokens are the request ids, sent as integers. */
  if (!JSON_NODE_HOLDS_VALUE (token) || json_node_get_value_type (token) != G_TYPE_INT64)
    return;

  id = json_node_get_int (token);
  pending = g_hash_table_lookup (self->pending, &id);
  if (pending == NULL || pending->progress_func == NULL)
    return;

  node = json_object_get_member (params, "progress");
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node))
    progress = json_node_get_double (node);
  node = json_object_get_member (params, "total");
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node))
    total = json_node_get_double (node);
  node = json_object_get_member (params, "message");
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    text = json_node_get_string (node);

  /* Progress shows the server is alive: start the timeout again, up to the
   * request's maximum total. */
  pending_request_arm_timeout (pending);

  pending->progress_func (progress, total, text, pending->progress_data);
}

static void
handle_notification (McpClient  *self,
                     McpMessage *message)
{
  const char *method = mcp_message_get_method (message);
  JsonObject *params = mcp_message_get_params_object (message);

  if (self->era == MCP_PROTOCOL_ERA_MODERN && listen_filter_notification (self, method, params))
    return;

  /* Before handling it, so that a log shows the notification ahead of
   * whatever it causes. */
  g_signal_emit (self, signals[SERVER_NOTIFICATION], 0, method, params);

  if (g_str_equal (method, "notifications/progress"))
    handle_progress (self, params);
  else if (g_str_equal (method, "notifications/cancelled"))
    handle_cancelled (self, params);
  else if (g_str_equal (method, "notifications/tools/list_changed"))
    g_signal_emit (self, signals[TOOLS_LIST_CHANGED], 0);
  else if (g_str_equal (method, "notifications/resources/list_changed"))
    g_signal_emit (self, signals[RESOURCES_LIST_CHANGED], 0);
  else if (g_str_equal (method, "notifications/prompts/list_changed"))
    g_signal_emit (self, signals[PROMPTS_LIST_CHANGED], 0);
  else if (g_str_equal (method, "notifications/message") && params != NULL)
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

      g_signal_emit (self, signals[LOG_MESSAGE], 0,
                     level ? level : "info", logger,
                     json_object_get_member (params, "data"));
    }
  else
    g_signal_emit (self, signals[NOTIFICATION], 0, message);
}

static void
request_handler_free (gpointer data)
{
  RequestHandler *handler = data;

  if (handler->destroy != NULL)
    handler->destroy (handler->data);
  g_free (handler);
}

static void
incoming_request_free (gpointer data)
{
  IncomingRequest *incoming = data;

  g_free (incoming->key);
  g_clear_pointer (&incoming->id, json_node_unref);
  g_free (incoming->method);
  g_clear_object (&incoming->cancellable);
  g_free (incoming);
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
      incoming_request_free (incoming);
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
  incoming_request_free (incoming);
}

static void
handle_request (McpClient  *self,
                McpMessage *message)
{
  const char *method = mcp_message_get_method (message);
  RequestHandler *handler;
  g_autoptr(McpMessage) reply = NULL;
  g_autoptr(GError) refused = NULL;
  g_autofree char *key = NULL;

  if (g_str_equal (method, "ping"))
    {
      g_autoptr(JsonNode) empty = node_new_object_take (json_object_new ());

      reply = mcp_message_new_result (mcp_message_get_id (message), empty);
      send_reply (self, reply, method);
      return;
    }

  handler = g_hash_table_lookup (self->request_handlers, method);
  key = id_key (mcp_message_get_id (message));

  if (handler != NULL && url_elicitation_refused (method, mcp_message_get_params_object (message), &refused))
    {
      /* Declined with the reason, before anyone is asked to open it. */
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
      g_task_set_source_tag (task, handle_request);
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
static void
handle_cancelled (McpClient  *self,
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
static void
cancel_incoming (McpClient *self)
{
  GHashTableIter iter;
  IncomingRequest *incoming;

  if (self->incoming == NULL)
    return;

  g_hash_table_iter_init (&iter, self->incoming);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &incoming))
    g_cancellable_cancel (incoming->cancellable);
}

static void
on_transport_message_cb (McpClient    *self,
                         McpMessage   *message,
                         McpTransport *transport)
{
  self->last_contact = g_get_real_time ();

  switch (mcp_message_get_kind (message))
    {
    case MCP_MESSAGE_RESULT:
    case MCP_MESSAGE_ERROR:
      handle_response (self, message);
      break;

    case MCP_MESSAGE_NOTIFICATION:
      handle_notification (self, message);
      break;

    case MCP_MESSAGE_REQUEST:
      handle_request (self, message);
      break;

    default:
      g_assert_not_reached ();
    }
}

static void
on_transport_request_failed_cb (McpClient    *self,
                                JsonNode     *id,
                                const GError *error,
                                McpTransport *transport)
{
  PendingRequest *pending;

  if (!JSON_NODE_HOLDS_VALUE (id) || json_node_get_value_type (id) != G_TYPE_INT64)
    return;

  pending = mcp_client_steal_pending (self, json_node_get_int (id));
  if (pending == NULL)
    return;

  /* The stateless revision has no Last-Event-ID: a response stream that
   * broke before the answer is the request to send again, with a new id. */
  if (g_error_matches (error, MCP_ERROR, MCP_ERROR_STREAM_BROKEN) &&
      self->era == MCP_PROTOCOL_ERA_MODERN && pending->sends < MAX_SENDS)
    {
      g_debug ("Sending “%s” again (attempt %u): %s", pending->method, pending->sends + 1, error->message);
      resend_pending (self, pending, NULL, pending->sends + 1, pending->rounds);
      return;
    }

  g_task_return_error (pending->task, g_error_copy (error));
  pending_request_free (pending);
}

static void
on_transport_closed_cb (McpClient    *self,
                        const GError *reason,
                        McpTransport *transport)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *server = describe_server (self);

  g_object_ref (self);

  /* The transport's reason names the server already ("Server “x” exited
   * with status 3"). */
  if (reason != NULL)
    error = g_error_new_literal (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED, reason->message);
  else
    error = g_error_new (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                         _("Connection to %s was closed"), server);

  g_clear_error (&self->closed_error);
  self->closed_error = g_error_copy (error);

  /* Before the transport's own connect finished, its callback reports the
   * failure (a command that cannot start, say) better than we can. */
  if (self->connect_task != NULL && self->transport_connected)
    connect_finish_with_error (self, g_error_copy (error), FALSE);
  g_clear_handle_id (&self->listen_retry_id, g_source_remove);
  listen_return (self, error);
  mcp_client_fail_pending (self, error);
  cancel_incoming (self);
  mcp_client_set_state (self, MCP_CLIENT_STATE_CLOSED);
  g_signal_emit (self, signals[CLOSED], 0, reason);

  g_object_unref (self);
}

/* ------------------------------------------------------------------------ */
/* Lifecycle: the handshake, the protocol version and the session live here
 * and nowhere else, so that the stateless revision can sit beside it.     */

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
  json_object_set_object_member (params, "clientInfo", client_info_new (self));

  return params;
}

/* What either era's opening answered: who the server is, the version and
 * the era every later request goes by. */
static void
lifecycle_settle (McpClient      *self,
                  McpServerInfo  *info,
                  const char     *version,
                  McpProtocolEra  era)
{
  g_set_object (&self->server_info, info);
  g_free (self->protocol_version);
  self->protocol_version = g_strdup (version);
  self->era = era;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SERVER_INFO]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROTOCOL_VERSION]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERA]);
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
      server = describe_server (self);
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("%s answered initialize with something that is not an object"), server);
      return FALSE;
    }

  info = mcp_server_info_new_from_json (json_node_get_object (result), error);
  if (info == NULL)
    {
      if (error != NULL && *error != NULL)
        {
          server = describe_server (self);
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

  lifecycle_settle (self, info, version, MCP_PROTOCOL_ERA_LEGACY);
  return TRUE;
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
  g_autofree char *server = describe_server (self);
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
                                       : node_new_object_take (json_object_new ()));
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

  lifecycle_settle (self, info, chosen, MCP_PROTOCOL_ERA_MODERN);
  return TRUE;
}

static void
connect_finish_with_error (McpClient *self,
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

static void
connect_finish_ready (McpClient *self)
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
      connect_finish_with_error (self, g_steal_pointer (&error), TRUE);
      return;
    }

  /* Only now: some servers register tools when they see it. */
  if (!mcp_client_notify (self, "notifications/initialized", NULL, &error))
    {
      connect_finish_with_error (self, g_steal_pointer (&error), TRUE);
      return;
    }

  connect_finish_ready (self);
}

static void
lifecycle_send_initialize (McpClient *self)
{
  g_autoptr(JsonObject) params = lifecycle_build_initialize_params (self);
  g_autoptr(GTask) init_task = NULL;

  init_task = g_task_new (self, g_task_get_cancellable (self->connect_task), on_initialize_cb, NULL);
  g_task_set_source_tag (init_task, lifecycle_send_initialize);
  mcp_client_send_request (self, "initialize", params, NULL, NULL, init_task);
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

static void lifecycle_start (McpClient *self);

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
      connect_finish_ready (self);
      listen_start (self);
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
      lifecycle_start (self);
      return;
    }

  if (self->era_hint != MCP_PROTOCOL_ERA_MODERN &&
      lifecycle_judge_probe_error (self, error) == PROBE_LEGACY)
    {
      g_debug ("Not a stateless server (%s); sending initialize", error->message);
      lifecycle_send_initialize (self);
      return;
    }

  if (node == NULL && error->domain == MCP_JSONRPC_ERROR)
    {
      g_autofree char *server = describe_server (self);

      g_prefix_error (&error, _("%s refused server/discover: "), server);
    }
  connect_finish_with_error (self, g_steal_pointer (&error), TRUE);
}

/* The era comes first: a stateless request (server/discover), where the
 * transport can carry one, then initialize if the answer is not modern. */
static void
lifecycle_start (McpClient *self)
{
  McpRequestOptions options = { 0 };
  g_autoptr(GTask) task = NULL;

  if (self->era_hint == MCP_PROTOCOL_ERA_LEGACY || !mcp_transport_supports_stateless (self->transport))
    {
      lifecycle_send_initialize (self);
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
  g_task_set_source_tag (task, lifecycle_start);
  mcp_client_send_request (self, "server/discover", NULL, &options, NULL, task);
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
        connect_finish_with_error (self, g_steal_pointer (&error), TRUE);
      return;
    }

  self->transport_connected = TRUE;

  if (self->connect_task == NULL)
    {
      /* Gave up meanwhile; stop what we started. */
      mcp_transport_close_async (self->transport, NULL, NULL, NULL);
      return;
    }

  lifecycle_start (self);
}

static gboolean
on_connect_timeout_cb (gpointer user_data)
{
  McpClient *self = user_data;
  g_autofree char *server = describe_server (self);
  g_autofree char *duration = format_duration (self->connect_timeout_ms);

  g_clear_pointer (&self->connect_timeout_source, g_source_unref);
  connect_finish_with_error (self,
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

/* ------------------------------------------------------------------------ */
/* subscriptions/listen (2026-07-28): one long request per client whose
 * response stream carries the notifications asked for — list changes the
 * server declares and updates of the resources subscribed to. They arrive
 * as any notification does, so the same signals report them. A stream that
 * ends is opened again (with a new id), after a growing pause.           */

static gboolean
listen_retry_cb (gpointer user_data)
{
  McpClient *self = user_data;

  self->listen_retry_id = 0;
  listen_start (self);
  return G_SOURCE_REMOVE;
}

static void
listen_stop (McpClient *self)
{
  g_clear_handle_id (&self->listen_retry_id, g_source_remove);
  if (self->listen_cancellable != NULL)
    {
      g_cancellable_cancel (self->listen_cancellable);
      g_clear_object (&self->listen_cancellable);
    }
}

/* Finishes what waits for the stream to be acknowledged: a subscription
 * counts from then on. */
static void
listen_return (McpClient    *self,
               const GError *error)
{
  g_autoptr(GPtrArray) waiters = g_steal_pointer (&self->listen_waiters);

  self->listen_waiters = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; waiters != NULL && i < waiters->len; i++)
    {
      GTask *task = g_ptr_array_index (waiters, i);

      if (error != NULL)
        g_task_return_error (task, g_error_copy (error));
      else
        g_task_return_boolean (task, TRUE);
    }
}

/* notifications/subscriptions/acknowledged, and any notification of a
 * listen stream: TRUE when @message should be dropped (it belongs to a
 * stream we no longer listen to). */
static gboolean
listen_filter_notification (McpClient  *self,
                            const char *method,
                            JsonObject *params)
{
  JsonNode *meta = params ? json_object_get_member (params, "_meta") : NULL;
  JsonNode *id = meta && JSON_NODE_HOLDS_OBJECT (meta)
                 ? json_object_get_member (json_node_get_object (meta), MCP_META_SUBSCRIPTION_ID) : NULL;
  gboolean current;

  if (id == NULL)
    return FALSE;

  current = self->listen_cancellable != NULL && JSON_NODE_HOLDS_VALUE (id) &&
            json_node_get_value_type (id) == G_TYPE_INT64 && json_node_get_int (id) == self->listen_id;
  if (!current)
    {
      g_debug ("Dropping “%s” of a subscription that has ended", method);
      return TRUE;
    }

  if (g_str_equal (method, "notifications/subscriptions/acknowledged"))
    {
      self->listen_failures = 0;
      listen_return (self, NULL);
    }
  return FALSE;
}

static void
on_listen_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  McpClient *self = MCP_CLIENT (object);
  g_autoptr(GCancellable) cancellable = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  guint delay_s;

  node = g_task_propagate_pointer (G_TASK (result), &error);

  /* Stopped, or replaced by one with another filter. */
  if (g_cancellable_is_cancelled (cancellable) || cancellable != self->listen_cancellable)
    return;
  g_clear_object (&self->listen_cancellable);

  if (self->state != MCP_CLIENT_STATE_READY)
    return;

  if (g_error_matches (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_METHOD_NOT_FOUND))
    {
      g_autofree char *server = describe_server (self);
      g_autoptr(GError) unsupported = g_error_new (MCP_ERROR, MCP_ERROR_UNSUPPORTED,
                                                   _("%s does not offer subscriptions/listen"), server);

      g_debug ("%s", unsupported->message);
      self->listen_unsupported = TRUE;
      listen_return (self, unsupported);
      return;
    }

  if (error != NULL)
    self->listen_failures++;
  else
    self->listen_failures = 0;
  delay_s = MIN (60, 1u << MIN (self->listen_failures, 6));
  g_debug ("The subscriptions/listen stream ended (%s); opening it again in %u s",
           error != NULL ? error->message : "by the server", delay_s);
  self->listen_retry_id = g_timeout_add_seconds (delay_s, listen_retry_cb, self);
  g_source_set_static_name (g_main_context_find_source_by_id (NULL, self->listen_retry_id),
                            "[mcp-client] listen again");
}

static gboolean
capability_flag (McpClient  *self,
                 const char *capability,
                 const char *member)
{
  JsonObject *capabilities = self->server_info ? mcp_server_info_get_capabilities (self->server_info) : NULL;
  JsonNode *node = capabilities ? json_object_get_member (capabilities, capability) : NULL;
  JsonNode *flag;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return FALSE;
  flag = json_object_get_member (json_node_get_object (node), member);
  return flag != NULL && JSON_NODE_HOLDS_VALUE (flag) &&
         json_node_get_value_type (flag) == G_TYPE_BOOLEAN && json_node_get_boolean (flag);
}

/* (Re)opens the listen request with what there is to listen to now. */
static void
listen_start (McpClient *self)
{
  g_autoptr(JsonObject) params = NULL;
  g_autoptr(GTask) task = NULL;
  JsonObject *filter;
  McpRequestOptions options = { .timeout_ms = MCP_REQUEST_TIMEOUT_NONE };
  gboolean any = FALSE;

  listen_stop (self);
  if (self->era != MCP_PROTOCOL_ERA_MODERN || self->state != MCP_CLIENT_STATE_READY ||
      self->listen_unsupported)
    return;

  filter = json_object_new ();
  if (capability_flag (self, "tools", "listChanged"))
    json_object_set_boolean_member (filter, "toolsListChanged", any = TRUE);
  if (capability_flag (self, "prompts", "listChanged"))
    json_object_set_boolean_member (filter, "promptsListChanged", any = TRUE);
  if (capability_flag (self, "resources", "listChanged"))
    json_object_set_boolean_member (filter, "resourcesListChanged", any = TRUE);
  if (capability_flag (self, "resources", "subscribe") && g_hash_table_size (self->listen_uris) > 0)
    {
      JsonArray *uris = json_array_new ();
      GHashTableIter iter;
      const char *uri;

      g_hash_table_iter_init (&iter, self->listen_uris);
      while (g_hash_table_iter_next (&iter, (gpointer *) &uri, NULL))
        json_array_add_string_element (uris, uri);
      json_object_set_array_member (filter, "resourceSubscriptions", uris);
      any = TRUE;
    }

  params = json_object_new ();
  json_object_set_object_member (params, "notifications", filter);
  if (!any)
    {
      listen_return (self, NULL);
      return;
    }

  self->listen_cancellable = g_cancellable_new ();
  self->listen_id = self->next_id;
  task = g_task_new (self, self->listen_cancellable, on_listen_cb, g_object_ref (self->listen_cancellable));
  g_task_set_source_tag (task, listen_start);
  mcp_client_send_request (self, "subscriptions/listen", params, &options, NULL, task);
}

void
mcp_client_stateless_subscribe (McpClient  *self,
                                const char *uri,
                                gboolean    subscribe,
                                GTask      *task)
{
  gboolean changed;

  if (subscribe)
    changed = g_hash_table_add (self->listen_uris, g_strdup (uri));
  else
    changed = g_hash_table_remove (self->listen_uris, uri);

  if (!changed || self->listen_unsupported)
    {
      g_task_return_boolean (task, TRUE);
      g_object_unref (task);
      return;
    }

  /* Done once the server acknowledged the new filter: an update after
   * that reaches us. */
  g_ptr_array_add (self->listen_waiters, task);
  listen_start (self);
}

/* ------------------------------------------------------------------------ */
/* Requests                                                                 */

static gboolean
mcp_client_check_ready (McpClient  *self,
                        const char *method,
                        GTask      *task)
{
  g_autofree char *server = NULL;

  if (self->state == MCP_CLIENT_STATE_READY)
    return TRUE;

  server = describe_server (self);
  g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NOT_CONNECTED,
                           _("Cannot send “%s”: not connected to %s"), method, server);
  return FALSE;
}

void
mcp_client_request_async (McpClient               *self,
                          const char              *method,
                          JsonObject              *params,
                          const McpRequestOptions *options,
                          GCancellable            *cancellable,
                          GAsyncReadyCallback      callback,
                          gpointer                 user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (method != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_client_request_async);

  if (mcp_client_check_ready (self, method, task))
    mcp_client_send_request (self, method, params, options, NULL, task);
}

JsonNode *
mcp_client_request_finish (McpClient     *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

gboolean
mcp_client_notify (McpClient   *self,
                   const char  *method,
                   JsonObject  *params,
                   GError     **error)
{
  g_autoptr(McpMessage) message = NULL;
  g_autoptr(JsonNode) params_node = NULL;

  g_return_val_if_fail (MCP_IS_CLIENT (self), FALSE);
  g_return_val_if_fail (method != NULL, FALSE);

  /* The stateless revision defines one notification from the client,
   * cancellation (which the HTTP transport turns into closing the request's
   * stream); roots/list_changed and initialized are gone with the session. */
  if (self->era == MCP_PROTOCOL_ERA_MODERN && !g_str_equal (method, "notifications/cancelled"))
    {
      g_debug ("Not sending “%s”: the stateless revision has no such notification", method);
      return TRUE;
    }

  if (params != NULL)
    {
      params_node = json_node_new (JSON_NODE_OBJECT);
      json_node_set_object (params_node, params);
    }

  message = mcp_message_new_notification (method, params_node);
  return mcp_client_send (self, message, error);
}

static void
on_ping_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;

  node = mcp_client_request_finish (MCP_CLIENT (object), result, &error);
  if (node == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

void
mcp_client_ping_async (McpClient           *self,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (MCP_IS_CLIENT (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_client_ping_async);
  /* The stateless revision has no ping; server/discover is its cheapest
   * round trip. */
  mcp_client_request_async (self, self->era == MCP_PROTOCOL_ERA_MODERN ? "server/discover" : "ping",
                            NULL, NULL, cancellable, on_ping_cb, task);
}

gboolean
mcp_client_ping_finish (McpClient     *self,
                        GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ------------------------------------------------------------------------ */
/* tools/list, resources/list, resources/templates/list, prompts/list, paged */

#define MAX_LIST_PAGES 10000

typedef GObject    *(*ListItemNew) (JsonObject  *object,
                                    GError     **error);
typedef const char *(*ListItemKey) (gpointer     item);

typedef struct
{
  const char  *method;    /* "tools/list" */
  const char  *member;    /* "tools" */
  const char  *what;      /* "tools", for messages */
  ListItemNew  item_new;
  ListItemKey  item_key;  /* what makes an item unique */
} ListKind;

typedef struct
{
  const ListKind *kind;
  GPtrArray      *items;
  GHashTable     *keys;
  char           *cursor;
  guint           pages;
  guint64         bytes;        /* of the pages so far, estimated */
  gint64          fresh_until;  /* monotonic µs; the minimum over the pages */
  McpCacheScope   scope;        /* private when any page is */
  guint           restarted : 1;
} ListPaged;

static void
list_paged_free (ListPaged *state)
{
  g_clear_pointer (&state->items, g_ptr_array_unref);
  g_clear_pointer (&state->keys, g_hash_table_unref);
  g_free (state->cursor);
  g_free (state);
}

static void list_paged_next_page (GTask *task);

static void
list_paged_reset (ListPaged *state)
{
  g_ptr_array_set_size (state->items, 0);
  g_hash_table_remove_all (state->keys);
  g_clear_pointer (&state->cursor, g_free);
  state->pages = 0;
  state->bytes = 0;
  state->fresh_until = MCP_LIST_FRESH_UNTIL_CHANGED;
  state->scope = MCP_CACHE_SCOPE_PUBLIC;
}

/* The stateless era's cache hints of one page (caching: "each page is an
 * independently cacheable response"): ttlMs absent, not an integer or
 * negative counts as 0, stale at once; a cacheScope other than "public"
 * as private, the safe reading. The handshake era has no hints: its
 * listings stay fresh until a list_changed notification says otherwise. */
static void
list_paged_note_hints (McpClient  *self,
                       ListPaged  *state,
                       JsonObject *object_result,
                       gint64      received)
{
  JsonNode *ttl_node;
  JsonNode *scope_node;
  gint64 ttl_ms = 0;
  gint64 fresh_until;

  if (mcp_client_get_era (self) != MCP_PROTOCOL_ERA_MODERN)
    return;

  ttl_node = json_object_get_member (object_result, "ttlMs");
  if (ttl_node != NULL && JSON_NODE_HOLDS_VALUE (ttl_node) &&
      json_node_get_value_type (ttl_node) == G_TYPE_INT64)
    ttl_ms = MAX (json_node_get_int (ttl_node), 0);

  /* A huge ttlMs must not overflow into the past. */
  if (ttl_ms >= (G_MAXINT64 - received) / 1000)
    fresh_until = G_MAXINT64 - 1;
  else
    fresh_until = received + ttl_ms * 1000;
  state->fresh_until = MIN (state->fresh_until, fresh_until);

  scope_node = json_object_get_member (object_result, "cacheScope");
  if (scope_node == NULL || !JSON_NODE_HOLDS_VALUE (scope_node) ||
      json_node_get_value_type (scope_node) != G_TYPE_STRING ||
      g_strcmp0 (json_node_get_string (scope_node), "public") != 0)
    state->scope = MCP_CACHE_SCOPE_PRIVATE;
}

static void
on_list_paged_page_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  McpClient *self = MCP_CLIENT (object);
  g_autoptr(GTask) task = user_data;
  ListPaged *state = g_task_get_task_data (task);
  const ListKind *kind = state->kind;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *server = NULL;
  JsonObject *object_result;
  JsonNode *items_node;
  JsonNode *cursor_node;
  JsonArray *items;
  gint64 received;

  node = mcp_client_request_finish (self, result, &error);
  received = g_get_monotonic_time ();

  /* caching: on an invalid cursor "discard all cached pages and re-fetch
   * from the beginning" (once: a server that refuses its own first cursor
   * again is broken, not stale). */
  if (node == NULL && state->cursor != NULL && !state->restarted &&
      g_error_matches (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_INVALID_PARAMS))
    {
      server = describe_server (self);
      g_debug ("%s answered cursor “%s” of %s with: %s; listing again from the start",
               server, state->cursor, kind->method, error->message);
      list_paged_reset (state);
      state->restarted = TRUE;
      list_paged_next_page (g_steal_pointer (&task));
      return;
    }

  if (node == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  server = describe_server (self);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                               _("%s answered %s with something that is not an object"),
                               server, kind->method);
      return;
    }

  /* Bounded in bytes too: an endless listing of big pages would take
   * gigabytes long before the page limit. */
  state->bytes += mcp_json_estimate_size (node);
  if (state->bytes > MCP_CLIENT_MAX_LIST_BYTES)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE,
                               _("%s sent more than %u MiB of %s (%u pages); stopped reading"),
                               server, MCP_CLIENT_MAX_LIST_BYTES / (1024 * 1024),
                               kind->what, state->pages + 1);
      return;
    }

  object_result = json_node_get_object (node);
  list_paged_note_hints (self, state, object_result, received);
  items_node = json_object_get_member (object_result, kind->member);
  if (items_node == NULL || !JSON_NODE_HOLDS_ARRAY (items_node))
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                               _("%s answered %s without a “%s” array"),
                               server, kind->method, kind->member);
      return;
    }

  items = json_node_get_array (items_node);
  for (guint i = 0; i < json_array_get_length (items); i++)
    {
      JsonNode *element = json_array_get_element (items, i);
      g_autoptr(GError) item_error = NULL;
      g_autoptr(GObject) item = NULL;
      const char *key;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        {
          g_debug ("%s: %s page %u: %s[%u] is not an object; skipped",
                   server, kind->method, state->pages + 1, kind->member, i);
          continue;
        }

      item = kind->item_new (json_node_get_object (element), &item_error);
      if (item == NULL)
        {
          /* One broken item must not hide the others. */
          g_debug ("%s: %s page %u: %s[%u] skipped: %s",
                   server, kind->method, state->pages + 1, kind->member, i,
                   item_error->message);
          continue;
        }

      key = kind->item_key (item);
      if (g_hash_table_contains (state->keys, key))
        {
          g_debug ("%s: %s lists “%s” twice; keeping the first",
                   server, kind->method, key);
          continue;
        }

      g_hash_table_add (state->keys, g_strdup (key));
      g_ptr_array_add (state->items, g_steal_pointer (&item));
    }

  state->pages++;

  cursor_node = json_object_get_member (object_result, "nextCursor");
  if (cursor_node != NULL && JSON_NODE_HOLDS_VALUE (cursor_node) &&
      json_node_get_value_type (cursor_node) == G_TYPE_STRING)
    {
      const char *cursor = json_node_get_string (cursor_node);

      if (g_strcmp0 (cursor, state->cursor) == 0 || state->pages >= MAX_LIST_PAGES)
        {
          g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                   _("%s keeps sending more pages of %s (cursor “%s” after "
                                     "%u pages); stopped reading"),
                                   server, kind->what, cursor, state->pages);
          return;
        }

      g_free (state->cursor);
      state->cursor = g_strdup (cursor);
      list_paged_next_page (g_steal_pointer (&task));
      return;
    }

  g_task_return_pointer (task, g_ptr_array_ref (state->items), (GDestroyNotify) g_ptr_array_unref);
}

static void
list_paged_next_page (GTask *task)
{
  McpClient *self = g_task_get_source_object (task);
  ListPaged *state = g_task_get_task_data (task);
  g_autoptr(JsonObject) params = NULL;

  if (state->cursor != NULL)
    {
      params = json_object_new ();
      json_object_set_string_member (params, "cursor", state->cursor);
    }

  mcp_client_request_async (self, state->kind->method, params, NULL,
                            g_task_get_cancellable (task),
                            on_list_paged_page_cb, task);
}

/* @declared: whether the server's capabilities offer this listing; when it
 * does not, the answer is an empty array without asking. */
static void
list_paged_async (McpClient           *self,
                  const ListKind      *kind,
                  gboolean             declared,
                  gpointer             source_tag,
                  GCancellable        *cancellable,
                  GAsyncReadyCallback  callback,
                  gpointer             user_data)
{
  GTask *task;
  ListPaged *state;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, source_tag);

  state = g_new0 (ListPaged, 1);
  state->kind = kind;
  state->items = g_ptr_array_new_with_free_func (g_object_unref);
  state->keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  state->fresh_until = MCP_LIST_FRESH_UNTIL_CHANGED;
  state->scope = MCP_CACHE_SCOPE_PUBLIC;
  g_task_set_task_data (task, state, (GDestroyNotify) list_paged_free);

  if (!declared)
    {
      g_task_return_pointer (task, g_ptr_array_ref (state->items),
                             (GDestroyNotify) g_ptr_array_unref);
      g_object_unref (task);
      return;
    }

  list_paged_next_page (task);
}

static GPtrArray *
list_paged_finish (McpClient     *self,
                   GAsyncResult  *result,
                   gpointer       source_tag,
                   GError       **error)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static gboolean
is_list_result (GAsyncResult *result)
{
  gpointer tag = g_task_get_source_tag (G_TASK (result));

  return tag == mcp_client_list_tools_async ||
         tag == mcp_client_list_resources_async ||
         tag == mcp_client_list_resource_templates_async ||
         tag == mcp_client_list_prompts_async;
}

void
mcp_client_list_get_freshness (McpClient     *self,
                               GAsyncResult  *result,
                               gint64        *fresh_until,
                               McpCacheScope *scope)
{
  ListPaged *state;

  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (g_task_is_valid (result, self));
  g_return_if_fail (is_list_result (result));

  state = g_task_get_task_data (G_TASK (result));
  if (fresh_until != NULL)
    *fresh_until = state->fresh_until;
  if (scope != NULL)
    *scope = state->scope;
}

static gboolean
server_declares (McpClient *self,
                 gboolean (*has) (McpServerInfo *))
{
  McpServerInfo *info = mcp_client_get_server_info (self);

  return info != NULL && has (info);
}

/* Through GObject, not casts of the typed functions: calling a function
 * through a pointer of another type is undefined. */
static GObject *
tool_new (JsonObject  *object,
          GError     **error)
{
  return G_OBJECT (mcp_tool_new_from_json (object, error));
}

static const char *
tool_key (gpointer item)
{
  return mcp_tool_get_name (item);
}

static const ListKind list_tools_kind = {
  "tools/list", "tools", "tools", tool_new, tool_key,
};

void
mcp_client_list_tools_async (McpClient           *self,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_return_if_fail (MCP_IS_CLIENT (self));

  list_paged_async (self, &list_tools_kind, TRUE, mcp_client_list_tools_async,
                    cancellable, callback, user_data);
}

/* Keeps the listing for the Mcp-Param-* headers of later calls. Over
 * Streamable HTTP in the stateless era, a tool whose x-mcp-header
 * declarations break SEP-2243's rules is left out (its calls could not
 * carry the headers the server expects), with a warning in the server's
 * log (the "warning" signal). */
static void
remember_listed_tools (McpClient *self,
                       GPtrArray *tools)
{
  gboolean check = self->era == MCP_PROTOCOL_ERA_MODERN &&
                   mcp_transport_mirrors_param_headers (self->transport);

  g_hash_table_remove_all (self->listed_tools);

  for (guint i = 0; i < tools->len;)
    {
      McpTool *tool = g_ptr_array_index (tools, i);
      g_autoptr(GError) error = NULL;

      if (check && !mcp_tool_check_param_headers (tool, &error))
        {
          g_autofree char *text = NULL;

          /* Translators: %s says what is wrong with the tool's schema; it
           * names the tool. */
          text = g_strdup_printf (_("Left out of the tool list: %s"), error->message);
          g_debug ("%s", text);
          g_signal_emit (self, signals[WARNING], 0, text);
          g_ptr_array_remove_index (tools, i);
          continue;
        }

      g_hash_table_replace (self->listed_tools, g_strdup (mcp_tool_get_name (tool)),
                            g_object_ref (tool));
      i++;
    }
}

GPtrArray *
mcp_client_list_tools_finish (McpClient     *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  GPtrArray *tools = list_paged_finish (self, result, mcp_client_list_tools_async, error);

  if (tools != NULL)
    remember_listed_tools (self, tools);
  return tools;
}

static GObject *
resource_new (JsonObject  *object,
              GError     **error)
{
  return G_OBJECT (mcp_resource_new_from_json (object, error));
}

static const char *
resource_key (gpointer item)
{
  return mcp_resource_get_uri (item);
}

static const ListKind list_resources_kind = {
  "resources/list", "resources", "resources", resource_new, resource_key,
};

void
mcp_client_list_resources_async (McpClient           *self,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_return_if_fail (MCP_IS_CLIENT (self));

  list_paged_async (self, &list_resources_kind,
                    server_declares (self, mcp_server_info_has_resources),
                    mcp_client_list_resources_async,
                    cancellable, callback, user_data);
}

GPtrArray *
mcp_client_list_resources_finish (McpClient     *self,
                                  GAsyncResult  *result,
                                  GError       **error)
{
  return list_paged_finish (self, result, mcp_client_list_resources_async, error);
}

static GObject *
resource_template_new (JsonObject  *object,
                       GError     **error)
{
  return G_OBJECT (mcp_resource_template_new_from_json (object, error));
}

static const char *
resource_template_key (gpointer item)
{
  return mcp_resource_template_get_uri_template (item);
}

static const ListKind list_resource_templates_kind = {
  "resources/templates/list", "resourceTemplates", "resource templates",
  resource_template_new, resource_template_key,
};

void
mcp_client_list_resource_templates_async (McpClient           *self,
                                          GCancellable        *cancellable,
                                          GAsyncReadyCallback  callback,
                                          gpointer             user_data)
{
  g_return_if_fail (MCP_IS_CLIENT (self));

  list_paged_async (self, &list_resource_templates_kind,
                    server_declares (self, mcp_server_info_has_resources),
                    mcp_client_list_resource_templates_async,
                    cancellable, callback, user_data);
}

GPtrArray *
mcp_client_list_resource_templates_finish (McpClient     *self,
                                           GAsyncResult  *result,
                                           GError       **error)
{
  return list_paged_finish (self, result, mcp_client_list_resource_templates_async, error);
}

static GObject *
prompt_new (JsonObject  *object,
            GError     **error)
{
  return G_OBJECT (mcp_prompt_new_from_json (object, error));
}

static const char *
prompt_key (gpointer item)
{
  return mcp_prompt_get_name (item);
}

static const ListKind list_prompts_kind = {
  "prompts/list", "prompts", "prompts", prompt_new, prompt_key,
};

void
mcp_client_list_prompts_async (McpClient           *self,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_return_if_fail (MCP_IS_CLIENT (self));

  list_paged_async (self, &list_prompts_kind,
                    server_declares (self, mcp_server_info_has_prompts),
                    mcp_client_list_prompts_async,
                    cancellable, callback, user_data);
}

GPtrArray *
mcp_client_list_prompts_finish (McpClient     *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  return list_paged_finish (self, result, mcp_client_list_prompts_async, error);
}

/* ------------------------------------------------------------------------ */
/* tools/call                                                               */

static void
return_tool_result (McpClient *self,
                    GTask     *task,
                    JsonNode  *node)
{
  g_autoptr(GError) error = NULL;
  McpToolResult *tool_result;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autofree char *server = describe_server (self);

      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                               _("%s answered tools/call “%s” with something that is not an object"),
                               server, (const char *) g_task_get_task_data (task));
      return;
    }

  tool_result = mcp_tool_result_new_from_json (json_node_get_object (node), &error);
  if (tool_result == NULL)
    {
      g_autofree char *server = describe_server (self);

      g_prefix_error (&error, _("Invalid result of “%s” from %s: "),
                      (const char *) g_task_get_task_data (task), server);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_task_return_pointer (task, tool_result, g_object_unref);
}

void
mcp_client_call_tool_async (McpClient               *self,
                            const char              *name,
                            JsonObject              *arguments,
                            const McpRequestOptions *options,
                            GCancellable            *cancellable,
                            GAsyncReadyCallback      callback,
                            gpointer                 user_data)
{
  g_autoptr(JsonObject) params = NULL;
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_client_call_tool_async);
  g_task_set_task_data (task, g_strdup (name), g_free);

  if (!mcp_client_check_ready (self, "tools/call", task))
    return;

  params = json_object_new ();
  json_object_set_string_member (params, "name", name);
  if (arguments != NULL)
    json_object_set_object_member (params, "arguments", json_object_ref (arguments));
  else
    json_object_set_object_member (params, "arguments", json_object_new ());

  mcp_client_send_request (self, "tools/call", params, options, return_tool_result, task);
}

McpToolResult *
mcp_client_call_tool_finish (McpClient     *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ------------------------------------------------------------------------ */
/* Closing                                                                  */

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

  server = describe_server (self);
  error = g_error_new (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                       _("The connection to %s was closed"), server);

  if (self->connect_task != NULL)
    connect_finish_with_error (self, g_error_copy (error), FALSE);

  mcp_client_fail_pending (self, error);
  cancel_incoming (self);
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

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

McpClient *
mcp_client_new (McpTransport *transport)
{
  g_return_val_if_fail (MCP_IS_TRANSPORT (transport), NULL);

  return g_object_new (MCP_TYPE_CLIENT, "transport", transport, NULL);
}

McpTransport *
mcp_client_get_transport (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);
  return self->transport;
}

McpClientState
mcp_client_get_state (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), MCP_CLIENT_STATE_CLOSED);
  return self->state;
}

McpServerInfo *
mcp_client_get_server_info (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);
  return self->server_info;
}

const char *
mcp_client_get_protocol_version (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);
  return self->protocol_version;
}

void
mcp_client_set_request_timeout (McpClient *self,
                                guint      timeout_ms)
{
  g_return_if_fail (MCP_IS_CLIENT (self));

  if (self->request_timeout_ms == timeout_ms)
    return;

  self->request_timeout_ms = timeout_ms;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REQUEST_TIMEOUT]);
}

void
mcp_client_set_connect_timeout (McpClient *self,
                                guint      timeout_ms)
{
  g_return_if_fail (MCP_IS_CLIENT (self));

  if (self->connect_timeout_ms == timeout_ms)
    return;

  self->connect_timeout_ms = timeout_ms;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONNECT_TIMEOUT]);
}

McpProtocolEra
mcp_client_get_era (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), MCP_PROTOCOL_ERA_UNKNOWN);

  return self->era;
}

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

void
mcp_client_set_stateless_log_level (McpClient  *self,
                                    const char *level)
{
  g_return_if_fail (MCP_IS_CLIENT (self));

  g_free (self->log_level);
  self->log_level = g_strdup (level);
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
mcp_client_set_request_handler (McpClient            *self,
                                const char           *method,
                                McpClientRequestFunc  func,
                                gpointer              user_data,
                                GDestroyNotify        destroy)
{
  RequestHandler *handler;

  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (method != NULL);

  if (func == NULL)
    {
      g_hash_table_remove (self->request_handlers, method);
      if (destroy != NULL)
        destroy (user_data);
      return;
    }

  handler = g_new0 (RequestHandler, 1);
  handler->func = func;
  handler->data = user_data;
  handler->destroy = destroy;
  g_hash_table_replace (self->request_handlers, g_strdup (method), handler);
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

static void
mcp_client_constructed (GObject *object)
{
  McpClient *self = MCP_CLIENT (object);

  G_OBJECT_CLASS (mcp_client_parent_class)->constructed (object);

  g_assert (self->transport != NULL);

  g_signal_connect_object (self->transport, "message",
                           G_CALLBACK (on_transport_message_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->transport, "closed",
                           G_CALLBACK (on_transport_closed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->transport, "request-failed",
                           G_CALLBACK (on_transport_request_failed_cb), self, G_CONNECT_SWAPPED);
}

static void
mcp_client_dispose (GObject *object)
{
  McpClient *self = MCP_CLIENT (object);

  if (self->pending != NULL && g_hash_table_size (self->pending) > 0)
    {
      g_autoptr(GError) error = g_error_new_literal (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                                                     _("The client was destroyed"));
      mcp_client_fail_pending (self, error);
    }

  if (self->connect_timeout_source != NULL)
    {
      g_source_destroy (self->connect_timeout_source);
      g_clear_pointer (&self->connect_timeout_source, g_source_unref);
    }

  listen_stop (self);
  if (self->listen_waiters != NULL && self->listen_waiters->len > 0)
    {
      g_autoptr(GError) error = g_error_new_literal (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                                                     _("The client was destroyed"));
      listen_return (self, error);
    }

  if (self->timer != NULL)
    {
      g_source_destroy (self->timer);
      g_clear_pointer (&self->timer, g_source_unref);
    }

  if (self->transport != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->transport, self);
      /* Never leave a server process behind. */
      if (!mcp_transport_is_closed (self->transport))
        mcp_transport_close_async (self->transport, NULL, NULL, NULL);
    }

  g_clear_object (&self->transport);
  g_clear_object (&self->server_info);
  g_clear_object (&self->connect_task);
  /* A handler's user data may hold what owns the client. */
  if (self->request_handlers != NULL)
    g_hash_table_remove_all (self->request_handlers);

  G_OBJECT_CLASS (mcp_client_parent_class)->dispose (object);
}

static void
mcp_client_finalize (GObject *object)
{
  McpClient *self = MCP_CLIENT (object);

  g_clear_pointer (&self->pending, g_hash_table_unref);
  g_clear_pointer (&self->request_handlers, g_hash_table_unref);
  g_clear_pointer (&self->incoming, g_hash_table_unref);
  g_clear_pointer (&self->listen_uris, g_hash_table_unref);
  g_clear_pointer (&self->listed_tools, g_hash_table_unref);
  g_clear_pointer (&self->listen_waiters, g_ptr_array_unref);
  g_clear_pointer (&self->capabilities, json_object_unref);
  g_clear_error (&self->closed_error);
  g_free (self->protocol_version);
  g_free (self->log_level);
  g_free (self->client_name);
  g_free (self->client_version);

  G_OBJECT_CLASS (mcp_client_parent_class)->finalize (object);
}

static void
mcp_client_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  McpClient *self = MCP_CLIENT (object);

  switch (prop_id)
    {
    case PROP_TRANSPORT:
      g_value_set_object (value, self->transport);
      break;

    case PROP_STATE:
      g_value_set_int (value, self->state);
      break;

    case PROP_SERVER_INFO:
      g_value_set_object (value, self->server_info);
      break;

    case PROP_PROTOCOL_VERSION:
      g_value_set_string (value, self->protocol_version);
      break;

    case PROP_ERA:
      g_value_set_int (value, self->era);
      break;

    case PROP_REQUEST_TIMEOUT:
      g_value_set_uint (value, self->request_timeout_ms);
      break;

    case PROP_CONNECT_TIMEOUT:
      g_value_set_uint (value, self->connect_timeout_ms);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_client_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  McpClient *self = MCP_CLIENT (object);

  switch (prop_id)
    {
    case PROP_TRANSPORT:
      self->transport = g_value_dup_object (value);
      break;

    case PROP_REQUEST_TIMEOUT:
      mcp_client_set_request_timeout (self, g_value_get_uint (value));
      break;

    case PROP_CONNECT_TIMEOUT:
      mcp_client_set_connect_timeout (self, g_value_get_uint (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_client_class_init (McpClientClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = mcp_client_constructed;
  object_class->dispose = mcp_client_dispose;
  object_class->finalize = mcp_client_finalize;
  object_class->get_property = mcp_client_get_property;
  object_class->set_property = mcp_client_set_property;

  properties[PROP_TRANSPORT] =
    g_param_spec_object ("transport", NULL, NULL,
                         MCP_TYPE_TRANSPORT,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  /* An McpClientState; an int until the engine has enum types registered. */
  properties[PROP_STATE] =
    g_param_spec_int ("state", NULL, NULL,
                      MCP_CLIENT_STATE_NEW, MCP_CLIENT_STATE_CLOSED, MCP_CLIENT_STATE_NEW,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_SERVER_INFO] =
    g_param_spec_object ("server-info", NULL, NULL,
                         MCP_TYPE_SERVER_INFO,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_PROTOCOL_VERSION] =
    g_param_spec_string ("protocol-version", NULL, NULL,
                         NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /* An McpProtocolEra: what connect found. */
  properties[PROP_ERA] =
    g_param_spec_int ("era", NULL, NULL,
                      MCP_PROTOCOL_ERA_UNKNOWN, MCP_PROTOCOL_ERA_MODERN, MCP_PROTOCOL_ERA_UNKNOWN,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_REQUEST_TIMEOUT] =
    g_param_spec_uint ("request-timeout", NULL, NULL,
                       0, G_MAXUINT, MCP_CLIENT_DEFAULT_REQUEST_TIMEOUT_MS,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_CONNECT_TIMEOUT] =
    g_param_spec_uint ("connect-timeout", NULL, NULL,
                       0, G_MAXUINT, MCP_CLIENT_DEFAULT_CONNECT_TIMEOUT_MS,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[TOOLS_LIST_CHANGED] =
    g_signal_new ("tools-list-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[RESOURCES_LIST_CHANGED] =
    g_signal_new ("resources-list-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[PROMPTS_LIST_CHANGED] =
    g_signal_new ("prompts-list-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[LOG_MESSAGE] =
    g_signal_new ("log-message", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3,
                  G_TYPE_STRING, G_TYPE_STRING,
                  JSON_TYPE_NODE | G_SIGNAL_TYPE_STATIC_SCOPE);
  signals[NOTIFICATION] =
    g_signal_new ("notification", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, MCP_TYPE_MESSAGE);
  signals[SERVER_NOTIFICATION] =
    g_signal_new ("server-notification", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE,
                  JSON_TYPE_OBJECT | G_SIGNAL_TYPE_STATIC_SCOPE);
  signals[WARNING] =
    g_signal_new ("warning", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
  signals[CLOSED] =
    g_signal_new ("closed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
mcp_client_init (McpClient *self)
{
  self->state = MCP_CLIENT_STATE_NEW;
  self->request_timeout_ms = MCP_CLIENT_DEFAULT_REQUEST_TIMEOUT_MS;
  self->connect_timeout_ms = MCP_CLIENT_DEFAULT_CONNECT_TIMEOUT_MS;
  self->next_id = 1;
  self->client_name = g_strdup ("plugboard");
  self->client_version = g_strdup (PACKAGE_VERSION);
  self->pending = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->request_handlers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, request_handler_free);
  self->incoming = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, incoming_request_free);
  self->listen_uris = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->listed_tools = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->listen_waiters = g_ptr_array_new_with_free_func (g_object_unref);

  self->timer = g_source_new (&timer_funcs, sizeof (GSource));
  g_source_set_static_name (self->timer, "[mcp-client] request timeouts");
  g_source_set_callback (self->timer, NULL, self, NULL);
  g_source_attach (self->timer, g_main_context_get_thread_default ());
}

gint64
mcp_client_get_last_contact (McpClient *self)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), 0);

  return self->last_contact;
}
