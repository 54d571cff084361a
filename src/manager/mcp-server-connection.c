/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-server-connection"

#include "config.h"

#include "mcp-server-connection.h"
#include "mcp-server-connection-private.h"

#include <string.h>
#include <sys/wait.h>

#include <glib/gi18n.h>

#include "mcp-http-transport.h"
#include "mcp-json-private.h"
#include "mcp-ide-lock.h"
#include "mcp-launch.h"
#include "mcp-needs-auth-cache.h"
#include "mcp-redact.h"
#include "mcp-sse-transport.h"
#include "mcp-stdio-transport.h"
#include "mcp-task.h"
#include "mcp-tool-call.h"
#include "mcp-websocket-transport.h"

#define STDERR_TAIL_LINES    20
#define STDERR_MESSAGE_LINES 5
#define LOG_NOTIFICATION_MAX_CHARS 2000

/* What a listing lists, in this order. */
typedef enum
{
  LIST_TOOLS              = 1 << 0,
  LIST_RESOURCES          = 1 << 1,
  LIST_RESOURCE_TEMPLATES = 1 << 2,
  LIST_PROMPTS            = 1 << 3,
  LIST_ALL                = 0xf,
} ListKind;

#define N_LIST_KINDS 4

/* How long one kind's listing may be used (the 2026-07-28 revision's
 * ttlMs and cacheScope; see mcp_client_list_get_freshness()). */
typedef struct
{
  gint64         fresh_until;    /* monotonic µs; MCP_LIST_FRESH_UNTIL_CHANGED */
  McpCacheScope  scope;
  char          *authorization;  /* a digest of the Authorization it was listed with; NULL: none */
} ListCache;

struct _McpServerConnection
{
  GObject          parent_instance;

  /* owned */
  McpServerConfig *config;
  /* What the last connect found the server to speak: the next connect (a
   * reconnect, a restarted process of the same settings) goes straight to
   * it, and probes again when that fails. */
  McpProtocolEra   known_era;
  char            *memo_key;
  char           **environ;
  guint            connect_timeout;
  guint            tool_timeout;        /* 0: none, when the config sets none */
  guint            request_timeout;     /* each HTTP request of a remote transport */
  guint            max_output_tokens;
  guint            backoff_base;
  McpTokenStore   *token_store;           /* NULL: the default */
  char            *needs_auth_cache_path; /* NULL: the default */
  GHashTable      *request_handlers;      /* shared with the manager; nullable */
  char            *needs_auth_key;        /* NULL: no OAuth */
  McpOAuthProvider *oauth_provider;       /* remote servers, made on first use */

  McpServerState   state;
  GError          *error;
  McpClient       *client;          /* NULL unless connected */
  McpClient       *pending_client;  /* the attempt's, until it connected */
  GListStore      *tools;
  GListStore      *resources;
  GListStore      *resource_templates;
  GListStore      *prompts;
  char           **stderr_tail;
  char           **secrets;               /* masked in all that leaves; NULL: not known yet */
  GListStore      *log;                   /* McpLogEntry, kept across reconnects */
  char            *log_level;             /* the level the server accepted; made again on reconnect */
  GHashTable      *subscriptions;         /* URIs subscribed to; made again on reconnect */

  GCancellable    *attempt_cancellable;   /* non-NULL while an attempt runs */
  GPtrArray       *waiters;               /* GTask of ensure_connected/reconnect */
  GCancellable    *list_cancellable;      /* a refresh of the listing */
  GPtrArray       *list_waiters;          /* GTask waiting for a refresh */
  ListCache        list_cache[N_LIST_KINDS];
  gint64           needs_auth_until;      /* monotonic µs */
  guint            backoff_id;
  guint            reconnects;            /* in a row, since the last connect */

  guint            connecting : 1;
  guint            has_listing : 1;
  guint            disabled : 1;
  guint            signing_in : 1;
  guint            relist_mask : 4;     /* list_changed during a listing: ListKind */
  guint            listing_mask : 4;    /* what the listing under way lists */
};

enum {
  PROP_0,
  PROP_CONFIG,
  PROP_NAME,
  PROP_STATE,
  PROP_ERROR,
  PROP_CLIENT,
  PROP_TOOLS,
  PROP_RESOURCES,
  PROP_RESOURCE_TEMPLATES,
  PROP_PROMPTS,
  PROP_STDERR_TAIL,
  PROP_CONNECTING,
  PROP_LOG,
  PROP_LOG_LEVEL,
  N_PROPS
};

enum {
  TOOLS_CHANGED,
  MEMO_DROPPED,
  LISTING_USED,
  RESOURCE_UPDATED,
  TASK_STATUS,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (McpServerConnection, mcp_server_connection, G_TYPE_OBJECT)

static void start_attempt (McpServerConnection *self);

const char *
mcp_server_state_to_string (McpServerState state)
{
  switch (state)
    {
    case MCP_SERVER_STATE_PENDING:
      return "pending";
    case MCP_SERVER_STATE_CONNECTED:
      return "connected";
    case MCP_SERVER_STATE_FAILED:
      return "failed";
    case MCP_SERVER_STATE_NEEDS_AUTH:
      return "needs-auth";
    case MCP_SERVER_STATE_DISABLED:
      return "disabled";
    default:
      return "unknown";
    }
}

/* ------------------------------------------------------------------------ */
/* OAuth                                                                    */

static gboolean
kind_has_oauth (McpTransportKind kind)
{
  return kind == MCP_TRANSPORT_KIND_HTTP ||
         kind == MCP_TRANSPORT_KIND_SSE ||
         kind == MCP_TRANSPORT_KIND_WS;
}

/* The URL without user info, query or fragment: what identifies the server
 * in the needs-auth cache file without writing a secret there. */
static char *
url_for_cache_key (const char *url)
{
  g_autofree char *text = g_strndup (url, strcspn (url, "?#"));
  const char *scheme_end = strstr (text, "://");

  if (scheme_end != NULL)
    {
      const char *host = scheme_end + 3;
      const char *path = host + strcspn (host, "/");
      const char *at = memchr (host, '@', path - host);

      if (at != NULL)
        return g_strdup_printf ("%.*s%s", (int) (host - text), text, at + 1);
    }

  return g_steal_pointer (&text);
}

/* The provider for @expanded (the config with ${VAR} expanded): the one we
 * have while the URL stays the same, else a new one. */
static McpOAuthProvider *
ensure_oauth_provider (McpServerConnection *self,
                       McpServerConfig     *expanded)
{
  const char *url = mcp_server_config_get_url (expanded);

  if (!kind_has_oauth (mcp_server_config_get_transport (expanded)) || url == NULL)
    return NULL;

  if (self->oauth_provider != NULL &&
      g_strcmp0 (mcp_oauth_provider_get_server_url (self->oauth_provider), url) == 0)
    return self->oauth_provider;

  g_clear_object (&self->oauth_provider);
  self->oauth_provider = mcp_oauth_provider_new (mcp_server_config_get_name (expanded), url,
                                                 mcp_server_config_get_oauth (expanded),
                                                 self->token_store);
  return self->oauth_provider;
}

static gboolean
has_oauth (McpServerConnection *self)
{
  return self->needs_auth_key != NULL;
}

/* ------------------------------------------------------------------------ */
/* Secrets                                                                  */

/* What the attempt under way (or the last one) runs with: every value its
 * ${VAR}s gave, env and header values, URL user info and query values. */
static void
set_secrets (McpServerConnection *self,
             McpServerConfig     *expanded)
{
  g_clear_pointer (&self->secrets, g_strfreev);
  self->secrets = mcp_server_config_dup_secrets (expanded);
  mcp_redact_register_secrets ((const char * const *) self->secrets);
}

static const char * const *
get_secrets (McpServerConnection *self)
{
  if (self->secrets == NULL)
    {
      g_autoptr(McpServerConfig) expanded = NULL;

      expanded = mcp_server_config_expand (self->config,
                                           (const char * const *) self->environ, NULL);
      set_secrets (self, expanded != NULL ? expanded : self->config);
    }

  return (const char * const *) self->secrets;
}

/* The one place where a message about this server leaves the engine: its
 * error, its log, its stderr tail. */
static char *
redact (McpServerConnection *self,
        const char          *text)
{
  return mcp_redact_text (text, get_secrets (self));
}

/* A copy, so that an extended error keeps its data. */
static GError *
redact_error (McpServerConnection *self,
              const GError        *error)
{
  GError *copy;

  if (error == NULL)
    return NULL;
  copy = g_error_copy (error);
  g_free (copy->message);
  copy->message = redact (self, error->message);
  return copy;
}

/* ------------------------------------------------------------------------ */
/* Log                                                                      */

static void
push_log_entry (McpServerConnection *self,
                McpLogEntry         *entry)
{
  if (g_list_model_get_n_items (G_LIST_MODEL (self->log)) >= MCP_SERVER_CONNECTION_LOG_MAX)
    g_list_store_remove (self->log, 0);
  g_list_store_append (self->log, entry);
}

static void
append_log (McpServerConnection *self,
            McpLogEntryKind      kind,
            const char          *text)
{
  g_autofree char *shown = redact (self, text);
  g_autoptr(McpLogEntry) entry = mcp_log_entry_new (kind, shown);

  push_log_entry (self, entry);
}

static void
log_state (McpServerConnection *self,
           McpServerState       state,
           const GError        *error)
{
  g_autofree char *text = NULL;

  switch (state)
    {
    case MCP_SERVER_STATE_PENDING:
      text = g_strdup (_("Connecting…"));
      break;
    case MCP_SERVER_STATE_CONNECTED:
      {
        guint n = g_list_model_get_n_items (G_LIST_MODEL (self->tools));

        text = g_strdup_printf (ngettext ("Connected (%u tool)", "Connected (%u tools)", n), n);
      }
      break;
    case MCP_SERVER_STATE_FAILED:
      text = g_strdup_printf (_("Failed: %s"), error != NULL ? error->message : _("unknown reason"));
      break;
    case MCP_SERVER_STATE_NEEDS_AUTH:
      text = g_strdup_printf (_("Needs sign-in: %s"), error != NULL ? error->message : _("sign in to use it"));
      break;
    case MCP_SERVER_STATE_DISABLED:
      if (self->config != NULL && mcp_server_config_get_disabled_reason (self->config) != NULL)
        /* Translators: %s says why, e.g. "awaiting approval" */
        text = g_strdup_printf (_("Disabled: %s"), mcp_server_config_get_disabled_reason (self->config));
      else
        text = g_strdup (_("Disabled"));
      break;
    default:
      g_assert_not_reached ();
    }

  append_log (self, MCP_LOG_ENTRY_STATE, text);
}

static void
on_stderr_line_cb (McpStdioTransport   *transport,
                   const char          *line,
                   McpServerConnection *self)
{
  append_log (self, MCP_LOG_ENTRY_STDERR, line);
}

/* At most @max characters, the last one an ellipsis when cut. */
static void
cut_text (GString *text,
          glong    max)
{
  if (g_utf8_strlen (text->str, -1) > max)
    {
      const char *end = g_utf8_offset_to_pointer (text->str, max - 1);

      g_string_truncate (text, end - text->str);
      g_string_append (text, "…");
    }
}

static void
on_server_notification_cb (McpClient           *client,
                           const char          *method,
                           JsonObject          *params,
                           McpServerConnection *self)
{
  g_autoptr(GString) text = NULL;

  /* A log message gets an entry of its own, with its level and logger
   * (on_log_message_cb). */
  if (params != NULL && g_strcmp0 (method, "notifications/message") == 0)
    return;

  text = g_string_new (method);
  if (params != NULL)
    {
      g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), params);

      g_string_append_c (text, ' ');
      mcp_json_append (text, node);
    }

  cut_text (text, LOG_NOTIFICATION_MAX_CHARS);
  append_log (self, MCP_LOG_ENTRY_NOTIFICATION, text->str);
}

static void
on_log_message_cb (McpClient           *client,
                   const char          *level,
                   const char          *logger,
                   JsonNode            *data,
                   McpServerConnection *self)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(McpLogEntry) entry = NULL;
  g_autofree char *shown = NULL;

  if (data != NULL && JSON_NODE_HOLDS_VALUE (data) && json_node_get_value_type (data) == G_TYPE_STRING)
    g_string_append (text, json_node_get_string (data));
  else if (data != NULL)
    mcp_json_append (text, data);

  /* The level and logger in front, cut like the notifications. */
  cut_text (text, LOG_NOTIFICATION_MAX_CHARS - strlen (level) -
                  (logger != NULL ? g_utf8_strlen (logger, -1) + 1 : 0) - 2);
  shown = redact (self, text->str);
  entry = mcp_log_entry_new_message (level, logger, shown);
  push_log_entry (self, entry);
}

/* A tool left out of the listing, …: the person looks in the log for why. */
static void
on_client_warning_cb (McpClient           *client,
                      const char          *message,
                      McpServerConnection *self)
{
  if (client == self->client)
    append_log (self, MCP_LOG_ENTRY_WARNING, message);
}

static void
on_notification_cb (McpClient           *client,
                    McpMessage          *message,
                    McpServerConnection *self)
{
  const char *method = mcp_message_get_method (message);
  JsonObject *params = mcp_message_get_params_object (message);

  if (client != self->client)
    return;

  if (g_strcmp0 (method, "notifications/resources/updated") == 0)
    {
      JsonNode *node = params != NULL ? json_object_get_member (params, "uri") : NULL;
      const char *uri = node != NULL && json_node_get_value_type (node) == G_TYPE_STRING
                        ? json_node_get_string (node) : NULL;

      if (uri == NULL)
        {
          g_debug ("“%s”: notifications/resources/updated without a uri",
                   mcp_server_config_get_name (self->config));
          return;
        }
      g_signal_emit (self, signals[RESOURCE_UPDATED], 0, uri);
    }
  else if (g_strcmp0 (method, "notifications/tasks/status") == 0)
    {
      g_autoptr(McpTask) task = NULL;
      g_autoptr(GError) error = NULL;

      if (params != NULL)
        task = mcp_task_new_from_json (params, &error);
      if (task == NULL)
        {
          g_debug ("“%s”: notifications/tasks/status skipped: %s",
                   mcp_server_config_get_name (self->config),
                   error != NULL ? error->message : "no params");
          return;
        }
      g_signal_emit (self, signals[TASK_STATUS], 0, task);
    }
}

/* ------------------------------------------------------------------------ */
/* State                                                                    */

static void
set_state (McpServerConnection *self,
           McpServerState       state,
           const GError        *unredacted)
{
  g_autoptr(GError) error = redact_error (self, unredacted);
  gboolean error_changed;

  error_changed = (self->error != NULL) != (error != NULL) ||
                  (error != NULL &&
                   (self->error->domain != error->domain ||
                    self->error->code != error->code ||
                    g_strcmp0 (self->error->message, error->message) != 0));

  if (error_changed)
    {
      g_clear_error (&self->error);
      if (error != NULL)
        self->error = g_error_copy (error);
    }

  /* The error first, so that a handler of notify::state reads the reason. */
  if (error_changed)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);

  if (self->state != state)
    {
      g_debug ("“%s”: %s → %s%s%s", mcp_server_config_get_name (self->config),
               mcp_server_state_to_string (self->state),
               mcp_server_state_to_string (state),
               error != NULL ? ": " : "", error != NULL ? error->message : "");
      self->state = state;
      if (state != MCP_SERVER_STATE_PENDING)
        log_state (self, state, error);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
    }
  else if (error_changed && error != NULL)
    {
      /* The same state for another reason. */
      log_state (self, state, error);
    }
}

static void
set_connecting (McpServerConnection *self,
                gboolean             connecting)
{
  if (self->connecting == !!connecting)
    return;

  self->connecting = !!connecting;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONNECTING]);
}

typedef JsonObject *(*ItemJson) (gpointer item);

/* Through functions of this type, not casts of the typed getters: calling
 * a function through a pointer of another type is undefined. */
static JsonObject *
tool_json (gpointer item)
{
  return mcp_tool_get_json (item);
}

static JsonObject *
resource_json (gpointer item)
{
  return mcp_resource_get_json (item);
}

static JsonObject *
resource_template_json (gpointer item)
{
  return mcp_resource_template_get_json (item);
}

static JsonObject *
prompt_json (gpointer item)
{
  return mcp_prompt_get_json (item);
}

/* Whether @store holds @items already, as the server described them. A
 * listing made again because its ttlMs ran out is most often the same:
 * the tool pool and the list views bound to the store need not rebuild. */
static gboolean
store_holds (GListStore *store,
             GPtrArray  *items,
             ItemJson    item_json)
{
  guint n_items = g_list_model_get_n_items (G_LIST_MODEL (store));

  if (n_items != (items != NULL ? items->len : 0))
    return FALSE;

  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr(GObject) held = g_list_model_get_item (G_LIST_MODEL (store), i);

      if (!json_object_equal (item_json (held), item_json (g_ptr_array_index (items, i))))
        return FALSE;
    }

  return TRUE;
}

static void
set_tools (McpServerConnection *self,
           GPtrArray           *tools)
{
  guint n_items = g_list_model_get_n_items (G_LIST_MODEL (self->tools));

  if (n_items == 0 && (tools == NULL || tools->len == 0))
    return;

  /* "tools-changed" says the listing was refreshed, changed or not. */
  if (!store_holds (self->tools, tools, tool_json))
    g_list_store_splice (self->tools, 0, n_items,
                         tools != NULL ? tools->pdata : NULL,
                         tools != NULL ? tools->len : 0);
  g_signal_emit (self, signals[TOOLS_CHANGED], 0);
}

static void
set_store (GListStore *store,
           GPtrArray  *items,
           ItemJson    item_json)
{
  guint n_items = g_list_model_get_n_items (G_LIST_MODEL (store));

  if (store_holds (store, items, item_json))
    return;

  g_list_store_splice (store, 0, n_items,
                       items != NULL ? items->pdata : NULL,
                       items != NULL ? items->len : 0);
}

static void
clear_list_cache (McpServerConnection *self)
{
  for (guint i = 0; i < N_LIST_KINDS; i++)
    {
      self->list_cache[i].fresh_until = 0;
      self->list_cache[i].scope = MCP_CACHE_SCOPE_PUBLIC;
      g_clear_pointer (&self->list_cache[i].authorization, g_free);
    }
}

static void
clear_listing (McpServerConnection *self)
{
  g_cancellable_cancel (self->list_cancellable);
  g_clear_object (&self->list_cancellable);
  self->has_listing = FALSE;
  self->relist_mask = 0;
  self->listing_mask = 0;
  clear_list_cache (self);
  set_tools (self, NULL);
  set_store (self->resources, NULL, resource_json);
  set_store (self->resource_templates, NULL, resource_template_json);
  set_store (self->prompts, NULL, prompt_json);
}

static void
return_tasks (GPtrArray    *tasks,
              const GError *error)
{
  for (guint i = 0; tasks != NULL && i < tasks->len; i++)
    {
      GTask *task = g_ptr_array_index (tasks, i);

      if (error != NULL)
        g_task_return_error (task, g_error_copy (error));
      else
        g_task_return_boolean (task, TRUE);
    }
}

static void
set_stderr_tail (McpServerConnection *self,
                 McpTransport        *transport)
{
  g_auto(GStrv) lines = NULL;
  guint n;

  if (!MCP_IS_STDIO_TRANSPORT (transport))
    return;

  lines = mcp_stdio_transport_dup_stderr_lines (MCP_STDIO_TRANSPORT (transport));
  n = g_strv_length (lines);
  g_clear_pointer (&self->stderr_tail, g_strfreev);
  self->stderr_tail = g_new0 (char *, MIN (n, STDERR_TAIL_LINES) + 1);
  for (guint i = n > STDERR_TAIL_LINES ? n - STDERR_TAIL_LINES : 0, j = 0; i < n; i++, j++)
    self->stderr_tail[j] = redact (self, lines[i]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STDERR_TAIL]);
}

/* The reason with the last lines the server wrote to stderr, which usually
 * say why it stopped. */
static GError *
describe_failure (McpServerConnection *self,
                  const GError        *reason)
{
  g_autoptr(GString) message = g_string_new (reason->message);
  g_autofree char *shown = NULL;
  GError *copy;
  guint n = self->stderr_tail != NULL ? g_strv_length (self->stderr_tail) : 0;

  if (n > 0)
    {
      g_string_append (message, _("\nLast lines on stderr:"));
      for (guint i = n > STDERR_MESSAGE_LINES ? n - STDERR_MESSAGE_LINES : 0; i < n; i++)
        g_string_append_printf (message, "\n  %s", self->stderr_tail[i]);
    }
  shown = redact (self, message->str);
  copy = g_error_copy (reason);
  g_free (copy->message);
  copy->message = g_steal_pointer (&shown);

  return copy;
}

static void
drop_client (McpServerConnection  *self,
             McpClient           **client_ptr)
{
  g_autoptr(McpClient) client = g_steal_pointer (client_ptr);

  if (client == NULL)
    return;

  g_signal_handlers_disconnect_by_data (client, self);
  if (mcp_client_get_state (client) != MCP_CLIENT_STATE_CLOSED ||
      !mcp_transport_is_closed (mcp_client_get_transport (client)))
    mcp_client_close_async (client, NULL, NULL, NULL);
}

static void
finish_attempt (McpServerConnection *self,
                McpServerState       state,
                const GError        *unredacted)
{
  g_autoptr(GPtrArray) waiters = g_steal_pointer (&self->waiters);
  g_autoptr(GError) error = redact_error (self, unredacted);

  g_clear_object (&self->attempt_cancellable);
  self->waiters = g_ptr_array_new_with_free_func (g_object_unref);

  if (state == MCP_SERVER_STATE_NEEDS_AUTH)
    self->needs_auth_until = g_get_monotonic_time () + MCP_SERVER_CONNECTION_NEEDS_AUTH_CACHE_US;

  set_state (self, state, error);
  /* The client property reads NULL until connected. */
  if (state == MCP_SERVER_STATE_CONNECTED)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CLIENT]);
  set_connecting (self, FALSE);
  return_tasks (waiters, error);
}

/* Callers that wait with no attempt under way (a sign-in held them). */
static void
fail_held_waiters (McpServerConnection *self,
                   const GError        *unredacted)
{
  g_autoptr(GPtrArray) waiters = NULL;
  g_autoptr(GError) error = NULL;

  if (self->attempt_cancellable != NULL || self->waiters->len == 0)
    return;
  error = redact_error (self, unredacted);

  waiters = g_steal_pointer (&self->waiters);
  self->waiters = g_ptr_array_new_with_free_func (g_object_unref);
  return_tasks (waiters, error);
}

/* ------------------------------------------------------------------------ */
/* Reconnection                                                             */

static gboolean
is_network_failure (const GError *error)
{
  return error != NULL &&
         (g_error_matches (error, MCP_ERROR, MCP_ERROR_NETWORK) ||
          mcp_transport_error_is_terminal (error));
}

static gboolean
backoff_cb (gpointer user_data)
{
  McpServerConnection *self = user_data;

  self->backoff_id = 0;
  if (!self->disabled && !self->signing_in && self->attempt_cancellable == NULL &&
      self->state != MCP_SERVER_STATE_CONNECTED)
    start_attempt (self);

  return G_SOURCE_REMOVE;
}

static void
schedule_reconnect (McpServerConnection *self)
{
  guint delay = self->backoff_base;

  if (self->reconnects >= MCP_SERVER_CONNECTION_MAX_RECONNECTS)
    {
      g_debug ("“%s”: giving up after %u reconnections",
               mcp_server_config_get_name (self->config), self->reconnects);
      self->reconnects = 0;
      return;
    }

  for (guint i = 0; i < self->reconnects && delay < MCP_SERVER_CONNECTION_MAX_BACKOFF_MS; i++)
    delay *= 2;
  delay = MIN (delay, MCP_SERVER_CONNECTION_MAX_BACKOFF_MS);
  self->reconnects++;

  g_debug ("“%s”: reconnecting in %u ms (attempt %u)",
           mcp_server_config_get_name (self->config), delay, self->reconnects);
  g_clear_handle_id (&self->backoff_id, g_source_remove);
  self->backoff_id = g_timeout_add (delay, backoff_cb, self);
}

/* ------------------------------------------------------------------------ */
/* The session                                                              */

typedef struct
{
  McpServerConnection *self;
  guint                mask;  /* what is left to list, kind included */
  ListKind             kind;
  char                *authorization;  /* what it is listed under: authorization_digest() */
} ListStep;

static void
list_step_free (ListStep *step)
{
  g_free (step->authorization);
  g_free (step);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ListStep, list_step_free)

/* What tells one authorization context from another (caching: a private
 * listing "MUST NOT be shared across authorization contexts (e.g. a
 * different access token requires a different cache)"): a digest of the
 * Authorization header the requests carry now, so that the token itself
 * is kept nowhere else. NULL when they carry none. A sign-in, a sign-out,
 * a refreshed or a stepped-up token each make a new context. */
static char *
authorization_digest (McpServerConnection *self)
{
  g_autofree char *authorization = NULL;
  char *digest;

  if (self->oauth_provider == NULL)
    return NULL;

  authorization = mcp_auth_provider_get_authorization (MCP_AUTH_PROVIDER (self->oauth_provider));
  if (authorization == NULL)
    return NULL;

  digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, authorization, -1);
  explicit_bzero (authorization, strlen (authorization));
  return digest;
}

/* The kinds whose listing should not be used any more: stale by their
 * ttlMs, or private and listed under another authorization. */
static guint
stale_kinds (McpServerConnection *self)
{
  g_autofree char *authorization = authorization_digest (self);
  gint64 now = g_get_monotonic_time ();
  guint mask = 0;

  for (guint i = 0; i < N_LIST_KINDS; i++)
    {
      const ListCache *cache = &self->list_cache[i];

      if (now >= cache->fresh_until ||
          (cache->scope == MCP_CACHE_SCOPE_PRIVATE &&
           g_strcmp0 (cache->authorization, authorization) != 0))
        mask |= 1u << i;
    }

  return mask;
}

static void list_step (McpServerConnection *self,
                       guint                mask);

static void
refresh_listing (McpServerConnection *self,
                 guint                mask)
{
  g_assert (self->client != NULL);

  g_cancellable_cancel (self->list_cancellable);
  g_clear_object (&self->list_cancellable);
  self->list_cancellable = g_cancellable_new ();

  /* A partial refresh of a listing the LRU dropped would leave it half made. */
  if (!self->has_listing)
    mask = LIST_ALL;

  self->listing_mask = mask;
  list_step (self, mask);
}

static void
on_list_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(ListStep) step = user_data;
  g_autoptr(McpServerConnection) self = step->self;
  McpClient *client = MCP_CLIENT (object);
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(GPtrArray) waiters = NULL;
  g_autoptr(GError) error = NULL;
  const char *what = NULL;
  ListCache *cache;
  guint remaining;

  switch (step->kind)
    {
    case LIST_TOOLS:
      items = mcp_client_list_tools_finish (client, result, &error);
      what = "tools";
      break;
    case LIST_RESOURCES:
      items = mcp_client_list_resources_finish (client, result, &error);
      what = "resources";
      break;
    case LIST_RESOURCE_TEMPLATES:
      items = mcp_client_list_resource_templates_finish (client, result, &error);
      what = "resource templates";
      break;
    case LIST_PROMPTS:
      items = mcp_client_list_prompts_finish (client, result, &error);
      what = "prompts";
      break;
    case LIST_ALL:
    default:
      g_assert_not_reached ();
    }

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (client != self->client)
    return;

  /* A server that cannot list them is still connected; it has none, until
   * it says its list changed (asking again on every use would only get the
   * same error). */
  cache = &self->list_cache[g_bit_nth_lsf (step->kind, -1)];
  cache->fresh_until = MCP_LIST_FRESH_UNTIL_CHANGED;
  cache->scope = MCP_CACHE_SCOPE_PUBLIC;
  g_clear_pointer (&cache->authorization, g_free);
  if (error != NULL)
    g_debug ("“%s”: listing %s failed: %s",
             mcp_server_config_get_name (self->config), what, error->message);
  else
    {
      mcp_client_list_get_freshness (client, result, &cache->fresh_until, &cache->scope);
      cache->authorization = g_steal_pointer (&step->authorization);
    }

  switch (step->kind)
    {
    case LIST_TOOLS:
      set_tools (self, items);
      break;
    case LIST_RESOURCES:
      set_store (self->resources, items, resource_json);
      break;
    case LIST_RESOURCE_TEMPLATES:
      set_store (self->resource_templates, items, resource_template_json);
      break;
    case LIST_PROMPTS:
      set_store (self->prompts, items, prompt_json);
      break;
    case LIST_ALL:
    default:
      g_assert_not_reached ();
    }

  remaining = step->mask & ~(guint) step->kind;
  if (remaining != 0)
    {
      list_step (self, remaining);
      return;
    }

  g_clear_object (&self->list_cancellable);
  self->listing_mask = 0;

  self->has_listing = TRUE;
  g_signal_emit (self, signals[LISTING_USED], 0);

  waiters = g_steal_pointer (&self->list_waiters);
  self->list_waiters = g_ptr_array_new_with_free_func (g_object_unref);

  if (self->attempt_cancellable != NULL)
    {
      self->reconnects = 0;
      finish_attempt (self, MCP_SERVER_STATE_CONNECTED, NULL);
    }

  return_tasks (waiters, NULL);

  if (self->relist_mask != 0 && self->client != NULL && self->list_cancellable == NULL)
    {
      guint mask = self->relist_mask;

      self->relist_mask = 0;
      refresh_listing (self, mask);
    }
}

static void
list_step (McpServerConnection *self,
           guint                mask)
{
  ListStep *step;

  g_assert (mask != 0);

  step = g_new0 (ListStep, 1);
  step->self = g_object_ref (self);
  step->mask = mask;
  step->kind = mask & -mask;
  step->authorization = authorization_digest (self);

  switch (step->kind)
    {
    case LIST_TOOLS:
      mcp_client_list_tools_async (self->client, self->list_cancellable, on_list_cb, step);
      break;
    case LIST_RESOURCES:
      mcp_client_list_resources_async (self->client, self->list_cancellable, on_list_cb, step);
      break;
    case LIST_RESOURCE_TEMPLATES:
      mcp_client_list_resource_templates_async (self->client, self->list_cancellable,
                                                on_list_cb, step);
      break;
    case LIST_PROMPTS:
      mcp_client_list_prompts_async (self->client, self->list_cancellable, on_list_cb, step);
      break;
    case LIST_ALL:
    default:
      g_assert_not_reached ();
    }
}

static void
list_changed (McpServerConnection *self,
              McpClient           *client,
              guint                mask,
              const char          *what)
{
  if (client != self->client)
    return;

  g_debug ("“%s”: %s changed, listing again", mcp_server_config_get_name (self->config), what);

  /* The listing under way may have been answered before the change. */
  if (self->list_cancellable != NULL)
    self->relist_mask |= mask;
  else
    refresh_listing (self, mask);
}

static void
on_tools_list_changed_cb (McpClient           *client,
                          McpServerConnection *self)
{
  list_changed (self, client, LIST_TOOLS, "tools");
}

static void
on_resources_list_changed_cb (McpClient           *client,
                              McpServerConnection *self)
{
  list_changed (self, client, LIST_RESOURCES | LIST_RESOURCE_TEMPLATES, "resources");
}

static void
on_prompts_list_changed_cb (McpClient           *client,
                            McpServerConnection *self)
{
  list_changed (self, client, LIST_PROMPTS, "prompts");
}

static void
on_client_closed_cb (McpClient           *client,
                     const GError        *reason,
                     McpServerConnection *self)
{
  g_autoptr(McpServerConnection) hold = g_object_ref (self);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) list_waiters = NULL;
  McpTransport *transport = mcp_client_get_transport (client);
  gboolean retry;

  /* The connect callback reports a failure during connect itself. */
  if (client != self->client)
    return;

  set_stderr_tail (self, transport);
  if (reason != NULL)
    error = describe_failure (self, reason);
  else
    error = g_error_new (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                         _("The connection to “%s” was closed"),
                         mcp_server_config_get_name (self->config));

  retry = reason != NULL &&
          mcp_server_config_is_remote (self->config) &&
          !g_error_matches (reason, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);

  /* The listings and the memo entry go together. */
  drop_client (self, &self->client);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CLIENT]);
  clear_listing (self);
  g_signal_emit (self, signals[MEMO_DROPPED], 0);

  list_waiters = g_steal_pointer (&self->list_waiters);
  self->list_waiters = g_ptr_array_new_with_free_func (g_object_unref);

  {
    gboolean auth = g_error_matches (reason, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);
    McpServerState state = auth ? MCP_SERVER_STATE_NEEDS_AUTH : MCP_SERVER_STATE_FAILED;

    if (auth && has_oauth (self))
      mcp_needs_auth_cache_add (self->needs_auth_cache_path, self->needs_auth_key);

    if (self->attempt_cancellable != NULL)
      {
        g_cancellable_cancel (self->attempt_cancellable);
        finish_attempt (self, state, error);
      }
    else
      set_state (self, state, error);
  }

  return_tasks (list_waiters, error);

  if (retry)
    schedule_reconnect (self);
}

static void
on_reapplied_level_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(McpServerConnection) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_client_set_log_level_finish (MCP_CLIENT (object), result, &error))
    {
      g_autofree char *text = g_strdup_printf (_("Could not set the log level again: %s"),
                                               error->message);

      append_log (self, MCP_LOG_ENTRY_STATE, text);
      /* A server that no longer declares logging keeps no level. */
      if (g_error_matches (error, MCP_ERROR, MCP_ERROR_UNSUPPORTED) &&
          MCP_CLIENT (object) == self->client)
        {
          g_clear_pointer (&self->log_level, g_free);
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOG_LEVEL]);
        }
    }
}

static void
on_resubscribed_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(McpServerConnection) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_client_subscribe_resource_finish (MCP_CLIENT (object), result, &error))
    {
      g_autofree char *text = g_strdup_printf (_("Could not subscribe again: %s"), error->message);

      append_log (self, MCP_LOG_ENTRY_STATE, text);
    }
}

/* The log level and subscriptions of the previous session, made again. */
static void
apply_session_settings (McpServerConnection *self)
{
  GHashTableIter iter;
  const char *uri;

  if (self->log_level != NULL)
    mcp_client_set_log_level_async (self->client, self->log_level, NULL,
                                    on_reapplied_level_cb, g_object_ref (self));

  g_hash_table_iter_init (&iter, self->subscriptions);
  while (g_hash_table_iter_next (&iter, (gpointer *) &uri, NULL))
    mcp_client_subscribe_resource_async (self->client, uri, TRUE, NULL,
                                         on_resubscribed_cb, g_object_ref (self));
}

static void
on_connect_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(McpServerConnection) self = user_data;
  McpClient *client = MCP_CLIENT (object);
  g_autoptr(GError) error = NULL;

  if (!mcp_client_connect_finish (client, result, &error) &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (client != self->pending_client)
    return;

  if (error != NULL)
    {
      g_autoptr(GError) failure = NULL;
      gboolean auth = g_error_matches (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH);

      set_stderr_tail (self, mcp_client_get_transport (client));
      failure = describe_failure (self, error);
      /* The era remembered may be what failed: probe next time. */
      if (!auth && !is_network_failure (error))
        self->known_era = MCP_PROTOCOL_ERA_UNKNOWN;
      drop_client (self, &self->pending_client);
      /* Other processes (and the next start) need not ask again soon. */
      if (auth && has_oauth (self))
        mcp_needs_auth_cache_add (self->needs_auth_cache_path, self->needs_auth_key);
      finish_attempt (self,
                      auth ? MCP_SERVER_STATE_NEEDS_AUTH : MCP_SERVER_STATE_FAILED,
                      failure);

      /* A server that is still away while reconnecting: try again later. */
      if (!auth && self->reconnects > 0 &&
          (is_network_failure (error) ||
           g_error_matches (error, MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED)))
        schedule_reconnect (self);
      else
        self->reconnects = 0;
      return;
    }

  self->client = g_steal_pointer (&self->pending_client);
  self->known_era = mcp_client_get_era (self->client);
  self->needs_auth_until = 0;
  if (has_oauth (self))
    mcp_needs_auth_cache_remove (self->needs_auth_cache_path, self->needs_auth_key);

  /* It may have gone between connecting and now. */
  if (mcp_client_get_state (self->client) == MCP_CLIENT_STATE_CLOSED)
    {
      g_autoptr(McpClient) hold = g_object_ref (self->client);

      on_client_closed_cb (hold, NULL, self);
      return;
    }

  /* Before the listing, so that a caller who waits for the connection
   * finds them made. */
  apply_session_settings (self);
  refresh_listing (self, LIST_ALL);
}

/* ------------------------------------------------------------------------ */
/* Server-to-client requests                                                */

McpServerRequestHandler *
mcp_server_request_handler_new (const char           *method,
                                JsonObject           *capabilities,
                                McpServerRequestFunc  func,
                                gpointer              data,
                                GDestroyNotify        destroy)
{
  McpServerRequestHandler *handler = g_atomic_rc_box_new0 (McpServerRequestHandler);

  handler->method = g_strdup (method);
  handler->capabilities = capabilities != NULL ? json_object_ref (capabilities) : NULL;
  handler->func = func;
  handler->data = data;
  handler->destroy = destroy;

  return handler;
}

McpServerRequestHandler *
mcp_server_request_handler_ref (McpServerRequestHandler *handler)
{
  return g_atomic_rc_box_acquire (handler);
}

static void
request_handler_clear (gpointer data)
{
  McpServerRequestHandler *handler = data;

  if (handler->destroy != NULL)
    handler->destroy (handler->data);
  g_free (handler->method);
  g_clear_pointer (&handler->capabilities, json_object_unref);
}

void
mcp_server_request_handler_unref (McpServerRequestHandler *handler)
{
  g_atomic_rc_box_release_full (handler, request_handler_clear);
}

void
mcp_server_connection_set_request_handlers (McpServerConnection *self,
                                            GHashTable          *handlers)
{
  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));

  if (handlers != NULL)
    g_hash_table_ref (handlers);
  g_clear_pointer (&self->request_handlers, g_hash_table_unref);
  self->request_handlers = handlers;
}

/* Members of @from into @into; objects on both sides merge member by
 * member ({"elicitation": {"form": {}}} and {"elicitation": {"url": {}}}
 * make {"elicitation": {"form": {}, "url": {}}}). */
static void
merge_capabilities (JsonObject *into,
                    JsonObject *from)
{
  JsonObjectIter iter;
  const char *name;
  JsonNode *node;

  json_object_iter_init (&iter, from);
  while (json_object_iter_next (&iter, &name, &node))
    {
      JsonNode *existing = json_object_get_member (into, name);

      if (existing != NULL && JSON_NODE_HOLDS_OBJECT (existing) && JSON_NODE_HOLDS_OBJECT (node))
        {
          JsonObject *merged = json_object_new ();

          merge_capabilities (merged, json_node_get_object (existing));
          merge_capabilities (merged, json_node_get_object (node));
          json_object_set_object_member (into, name, merged);
        }
      else if (JSON_NODE_HOLDS_OBJECT (node))
        {
          JsonObject *copy = json_object_new ();

          merge_capabilities (copy, json_node_get_object (node));
          json_object_set_object_member (into, name, copy);
        }
      else
        {
          json_object_set_member (into, name, json_node_copy (node));
        }
    }
}

typedef struct
{
  GWeakRef                 connection;
  McpServerRequestHandler *handler;
} ClientRequestHandler;

static void
client_request_handler_free (gpointer data)
{
  ClientRequestHandler *trampoline = data;

  g_weak_ref_clear (&trampoline->connection);
  mcp_server_request_handler_unref (trampoline->handler);
  g_free (trampoline);
}

static void
on_client_request_cb (McpClient  *client,
                      const char *method,
                      JsonObject *params,
                      GTask      *reply,
                      gpointer    user_data)
{
  ClientRequestHandler *trampoline = user_data;
  g_autoptr(McpServerConnection) self = g_weak_ref_get (&trampoline->connection);

  if (self == NULL)
    {
      /* Sent to the server in the JSON-RPC error: not translated. */
      g_task_return_new_error (reply, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_INTERNAL_ERROR,
                               "The client is shutting down");
      g_object_unref (reply);
      return;
    }

  trampoline->handler->func (self, method, params, reply, trampoline->handler->data);
}

/* The capabilities and handlers of the manager's table, as they are now. */
static void
apply_request_handlers (McpServerConnection *self,
                        McpClient           *client)
{
  g_autoptr(JsonObject) capabilities = json_object_new ();
  GHashTableIter iter;
  McpServerRequestHandler *handler;

  if (self->request_handlers == NULL)
    return;

  g_hash_table_iter_init (&iter, self->request_handlers);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &handler))
    {
      ClientRequestHandler *trampoline = g_new0 (ClientRequestHandler, 1);

      g_weak_ref_init (&trampoline->connection, self);
      trampoline->handler = mcp_server_request_handler_ref (handler);
      mcp_client_set_request_handler (client, handler->method, on_client_request_cb,
                                      trampoline, client_request_handler_free);
      if (handler->capabilities != NULL)
        merge_capabilities (capabilities, handler->capabilities);
    }

  mcp_client_set_capabilities (client, capabilities);
}

static void
connect_transport (McpServerConnection *self,
                   McpTransport        *transport)
{
  McpClient *client;
  guint timeout;

  g_assert (self->pending_client == NULL);

  client = mcp_client_new (transport);
  mcp_client_set_client_info (client, PACKAGE_NAME, PACKAGE_VERSION);
  timeout = mcp_server_config_get_connect_timeout (self->config);
  mcp_client_set_connect_timeout (client, timeout > 0 ? timeout : self->connect_timeout);
  apply_request_handlers (self, client);
  mcp_client_set_era_hint (client, self->known_era);

  g_signal_connect_object (client, "closed",
                           G_CALLBACK (on_client_closed_cb), self, 0);
  g_signal_connect_object (client, "tools-list-changed",
                           G_CALLBACK (on_tools_list_changed_cb), self, 0);
  g_signal_connect_object (client, "resources-list-changed",
                           G_CALLBACK (on_resources_list_changed_cb), self, 0);
  g_signal_connect_object (client, "prompts-list-changed",
                           G_CALLBACK (on_prompts_list_changed_cb), self, 0);
  g_signal_connect_object (client, "server-notification",
                           G_CALLBACK (on_server_notification_cb), self, 0);
  g_signal_connect_object (client, "log-message",
                           G_CALLBACK (on_log_message_cb), self, 0);
  g_signal_connect_object (client, "warning",
                           G_CALLBACK (on_client_warning_cb), self, 0);
  g_signal_connect_object (client, "notification",
                           G_CALLBACK (on_notification_cb), self, 0);
  /* Lines that come after the client is dropped are still the server's. */
  if (MCP_IS_STDIO_TRANSPORT (transport))
    g_signal_connect_object (transport, "stderr-line",
                             G_CALLBACK (on_stderr_line_cb), self, 0);

  self->pending_client = client;
  mcp_client_connect_async (client, self->attempt_cancellable,
                            on_connect_cb, g_object_ref (self));
}

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

      finish_attempt (self, MCP_SERVER_STATE_FAILED, failure);
      return;
    }

  transport = mcp_ide_lock_new_transport (lock);
  connect_transport (self, transport);
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

static McpTransport *
new_transport (McpServerConfig  *config,
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

static void
connect_remote (McpServerConnection *self,
                McpServerConfig     *expanded,
                McpOAuthProvider    *provider)
{
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(GError) error = NULL;

  transport = new_transport (expanded, provider != NULL ? MCP_AUTH_PROVIDER (provider) : NULL,
                             &error);
  if (transport == NULL)
    {
      finish_attempt (self, MCP_SERVER_STATE_FAILED, error);
      return;
    }
  if (MCP_IS_REMOTE_TRANSPORT (transport))
    mcp_remote_transport_set_request_timeout (MCP_REMOTE_TRANSPORT (transport), self->request_timeout);

  connect_transport (self, transport);
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

  connect_remote (self, load->expanded, provider);
}

static void
start_attempt (McpServerConnection *self)
{
  g_autoptr(McpServerConfig) expanded = NULL;
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(GError) error = NULL;
  McpTransportKind kind;

  g_assert (self->attempt_cancellable == NULL);
  g_assert (!self->disabled);

  g_clear_handle_id (&self->backoff_id, g_source_remove);
  self->attempt_cancellable = g_cancellable_new ();
  set_connecting (self, TRUE);
  /* Every attempt, also the first one (which starts from pending). */
  log_state (self, MCP_SERVER_STATE_PENDING, NULL);
  set_state (self, MCP_SERVER_STATE_PENDING, NULL);

  expanded = mcp_server_config_expand (self->config,
                                       (const char * const *) self->environ, &error);
  if (expanded == NULL)
    {
      finish_attempt (self, MCP_SERVER_STATE_FAILED, error);
      return;
    }
  set_secrets (self, expanded);

  /* The settings hand over a project server only when what it runs is what
   * was approved; what it runs is decided here, with this environment,
   * so it is checked again here before anything starts. */
  if (mcp_server_config_get_approved_digest (self->config) != NULL)
    {
      g_autofree char *digest = mcp_launch_dup_digest (self->config,
                                                       (const char * const *) self->environ);

      if (g_strcmp0 (digest, mcp_server_config_get_approved_digest (self->config)) != 0)
        {
          g_autoptr(GError) changed = NULL;

          changed = g_error_new (MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                                 /* Translators: %s is a server's name */
                                 _("“%s” was not started: what it would run (its command, arguments, "
                                   "environment, folder or address, after ${VAR} expansion) is not what "
                                   "was approved. Approve it again to start it."),
                                 mcp_server_config_get_name (self->config));
          finish_attempt (self, MCP_SERVER_STATE_FAILED, changed);
          return;
        }
    }

  kind = mcp_server_config_get_transport (expanded);
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
      g_task_set_source_tag (task, start_attempt);
      g_task_set_task_data (task, lookup, ide_lookup_free);
      g_task_run_in_thread (task, find_ide_lock_thread);
      return;
    }

  if (kind_has_oauth (kind) && mcp_server_config_get_url (expanded) != NULL)
    {
      McpOAuthProvider *provider = ensure_oauth_provider (self, expanded);
      OAuthLoad *load = g_new0 (OAuthLoad, 1);

      /* Stored tokens first, so that the first request carries them. */
      load->self = g_object_ref (self);
      load->attempt = g_object_ref (self->attempt_cancellable);
      load->expanded = g_object_ref (expanded);
      mcp_oauth_provider_load_async (provider, self->attempt_cancellable,
                                     on_oauth_loaded_cb, load);
      return;
    }

  transport = new_transport (expanded, NULL, &error);
  if (transport == NULL)
    {
      finish_attempt (self, MCP_SERVER_STATE_FAILED, error);
      return;
    }
  if (MCP_IS_REMOTE_TRANSPORT (transport))
    mcp_remote_transport_set_request_timeout (MCP_REMOTE_TRANSPORT (transport), self->request_timeout);

  connect_transport (self, transport);
}

/* ------------------------------------------------------------------------ */
/* Public                                                                   */

void
mcp_server_connection_replace_config (McpServerConnection *self,
                                      McpServerConfig     *config)
{
  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));
  g_return_if_fail (MCP_IS_SERVER_CONFIG (config));

  if (self->config == config)
    return;

  g_set_object (&self->config, config);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CONFIG]);
}

McpServerConfig *
mcp_server_connection_get_config (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  return self->config;
}

const char *
mcp_server_connection_get_name (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  return mcp_server_config_get_name (self->config);
}

McpServerState
mcp_server_connection_get_state (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), MCP_SERVER_STATE_FAILED);

  return self->state;
}

const GError *
mcp_server_connection_get_error (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  return self->error;
}

McpClient *
mcp_server_connection_get_client (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  return self->state == MCP_SERVER_STATE_CONNECTED ? self->client : NULL;
}

GListModel *
mcp_server_connection_get_tools (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  return G_LIST_MODEL (self->tools);
}

GListModel *
mcp_server_connection_get_resources (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  return G_LIST_MODEL (self->resources);
}

GListModel *
mcp_server_connection_get_resource_templates (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  return G_LIST_MODEL (self->resource_templates);
}

GListModel *
mcp_server_connection_get_prompts (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  return G_LIST_MODEL (self->prompts);
}

GListModel *
mcp_server_connection_get_log (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  return G_LIST_MODEL (self->log);
}

GStrv
mcp_server_connection_dup_stderr_tail (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  if (self->stderr_tail == NULL)
    return g_new0 (char *, 1);

  return g_strdupv (self->stderr_tail);
}

void
mcp_server_connection_ensure_connected_async (McpServerConnection *self,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_server_connection_ensure_connected_async);

  if (self->disabled)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NOT_CONNECTED,
                               _("Server “%s” is disabled"),
                               mcp_server_config_get_name (self->config));
      return;
    }

  if (self->attempt_cancellable != NULL)
    {
      g_ptr_array_add (self->waiters, g_steal_pointer (&task));
      return;
    }

  if (self->state == MCP_SERVER_STATE_CONNECTED && self->client != NULL)
    {
      guint stale = self->has_listing ? stale_kinds (self) : LIST_ALL;

      if (stale == 0)
        {
          g_signal_emit (self, signals[LISTING_USED], 0);
          g_task_return_boolean (task, TRUE);
          return;
        }

      /* The LRU dropped the listing, or a kind of it went stale (its ttlMs
       * ran out, or it is private and the token changed): list again
       * before answering. This is the only place a stale listing is made
       * again: a ttlMs is no polling interval. A listing under way answers
       * the caller; what it does not list comes after it. */
      g_ptr_array_add (self->list_waiters, g_steal_pointer (&task));
      if (self->list_cancellable == NULL)
        {
          g_debug ("“%s”: listing again what is stale (0x%x)",
                   mcp_server_config_get_name (self->config), stale);
          refresh_listing (self, stale);
        }
      else if (self->has_listing)
        self->relist_mask |= stale & ~self->listing_mask;
      return;
    }

  /* The sign-in's own reconnection serves it. */
  if (self->signing_in)
    {
      g_ptr_array_add (self->waiters, g_steal_pointer (&task));
      return;
    }

  /* Asking again within the 15 minutes would only get the same 401. */
  if (self->state == MCP_SERVER_STATE_NEEDS_AUTH &&
      g_get_monotonic_time () < self->needs_auth_until &&
      self->error != NULL)
    {
      g_task_return_error (task, g_error_copy (self->error));
      return;
    }

  /* The same, remembered by another process or an earlier start. */
  if (has_oauth (self))
    {
      gint64 remaining = mcp_needs_auth_cache_remaining (self->needs_auth_cache_path,
                                                         self->needs_auth_key);

      if (remaining > 0)
        {
          guint minutes = (guint) ((remaining + 59) / 60);
          g_autoptr(GError) error = NULL;

          error = g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                               /* Translators: %s is the server's name, %u a number of minutes */
                               g_dngettext (NULL, "Sign-in is needed for “%s”: it asked for authorization "
                                            "recently; it will be tried again in %u minute, or after signing in",
                                            "Sign-in is needed for “%s”: it asked for authorization "
                                            "recently; it will be tried again in %u minutes, or after signing in",
                                            minutes),
                               mcp_server_config_get_name (self->config), minutes);
          self->needs_auth_until = g_get_monotonic_time () + remaining * G_TIME_SPAN_SECOND;
          set_state (self, MCP_SERVER_STATE_NEEDS_AUTH, error);
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
    }

  g_ptr_array_add (self->waiters, g_steal_pointer (&task));
  start_attempt (self);
}

gboolean
mcp_server_connection_ensure_connected_finish (McpServerConnection  *self,
                                               GAsyncResult         *result,
                                               GError              **error)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
mcp_server_connection_reconnect_async (McpServerConnection *self,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_server_connection_reconnect_async);

  if (self->disabled)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NOT_CONNECTED,
                               _("Server “%s” is disabled"),
                               mcp_server_config_get_name (self->config));
      return;
    }

  /* An attempt under way already makes a new session; a sign-in under
   * way makes one when it is done. */
  if (self->attempt_cancellable != NULL || self->signing_in)
    {
      g_ptr_array_add (self->waiters, g_steal_pointer (&task));
      return;
    }

  g_clear_handle_id (&self->backoff_id, g_source_remove);
  self->needs_auth_until = 0;
  self->reconnects = 0;

  if (self->client != NULL)
    {
      g_autoptr(GPtrArray) list_waiters = g_steal_pointer (&self->list_waiters);
      g_autoptr(GError) error = g_error_new (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                                             _("The connection to “%s” is being renewed"),
                                             mcp_server_config_get_name (self->config));

      self->list_waiters = g_ptr_array_new_with_free_func (g_object_unref);
      drop_client (self, &self->client);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CLIENT]);
      clear_listing (self);
      return_tasks (list_waiters, error);
    }

  g_ptr_array_add (self->waiters, g_steal_pointer (&task));
  start_attempt (self);
}

gboolean
mcp_server_connection_reconnect_finish (McpServerConnection  *self,
                                        GAsyncResult         *result,
                                        GError              **error)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ------------------------------------------------------------------------ */
/* Private                                                                  */

McpServerConnection *
mcp_server_connection_new (McpServerConfig *config)
{
  McpServerConnection *self;

  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (config), NULL);

  self = g_object_new (MCP_TYPE_SERVER_CONNECTION, "config", config, NULL);
  self->memo_key = mcp_server_config_dup_memo_key (config);
  if (kind_has_oauth (mcp_server_config_get_transport (config)) &&
      mcp_server_config_get_url (config) != NULL)
    {
      g_autofree char *url = url_for_cache_key (mcp_server_config_get_url (config));

      self->needs_auth_key = g_strdup_printf ("%s %s", mcp_server_config_get_name (config), url);
    }
  if (!mcp_server_config_get_enabled (config))
    {
      self->disabled = TRUE;
      self->state = MCP_SERVER_STATE_DISABLED;
      log_state (self, MCP_SERVER_STATE_DISABLED, NULL);
    }

  return self;
}

McpOAuthProvider *
mcp_server_connection_get_oauth_provider (McpServerConnection *self)
{
  g_autoptr(McpServerConfig) expanded = NULL;
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  if (!has_oauth (self))
    return NULL;

  expanded = mcp_server_config_expand (self->config,
                                       (const char * const *) self->environ, &error);
  if (expanded == NULL)
    {
      g_debug ("“%s”: %s", mcp_server_config_get_name (self->config), error->message);
      return self->oauth_provider;
    }

  return ensure_oauth_provider (self, expanded);
}

void
mcp_server_connection_set_token_store (McpServerConnection *self,
                                       McpTokenStore       *store)
{
  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));
  g_return_if_fail (store == NULL || MCP_IS_TOKEN_STORE (store));

  g_set_object (&self->token_store, store);
}

void
mcp_server_connection_set_needs_auth_cache_path (McpServerConnection *self,
                                                 const char          *path)
{
  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));

  g_free (self->needs_auth_cache_path);
  self->needs_auth_cache_path = g_strdup (path);
}

const char *
mcp_server_connection_get_needs_auth_key (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  return self->needs_auth_key;
}

gboolean
mcp_server_connection_get_signing_in (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), FALSE);

  return self->signing_in;
}

void
mcp_server_connection_set_signing_in (McpServerConnection *self,
                                      gboolean             signing_in)
{
  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));

  if (self->signing_in == !!signing_in)
    return;

  self->signing_in = !!signing_in;
  if (signing_in)
    return;

  self->needs_auth_until = 0;
  if (self->waiters->len > 0 && self->attempt_cancellable == NULL && !self->disabled)
    start_attempt (self);
}

void
mcp_server_connection_set_signed_out (McpServerConnection *self)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));

  if (self->disabled)
    return;

  error = g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                       _("Signed out of “%s”: sign in to use it again"),
                       mcp_server_config_get_name (self->config));
  self->needs_auth_until = 0;
  set_state (self, MCP_SERVER_STATE_NEEDS_AUTH, error);
}

const char *
mcp_server_connection_get_memo_key (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  return self->memo_key;
}

gboolean
mcp_server_connection_is_connecting (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), FALSE);

  return self->connecting;
}

gboolean
mcp_server_connection_has_listing (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), FALSE);

  return self->has_listing;
}

void
mcp_server_connection_set_environ (McpServerConnection *self,
                                   const char * const  *environ)
{
  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));

  g_strfreev (self->environ);
  self->environ = g_strdupv ((char **) environ);
}

void
mcp_server_connection_set_connect_timeout (McpServerConnection *self,
                                           guint                timeout_ms)
{
  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));

  self->connect_timeout = timeout_ms;
}

void
mcp_server_connection_set_limits (McpServerConnection *self,
                                  guint                tool_timeout_ms,
                                  guint                request_timeout_ms,
                                  guint                max_output_tokens)
{
  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));

  self->tool_timeout = tool_timeout_ms;
  self->request_timeout = request_timeout_ms;
  self->max_output_tokens = MAX (max_output_tokens, 1);
}

guint
mcp_server_connection_get_tool_timeout (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), 0);

  if (self->config != NULL && mcp_server_config_get_tool_timeout (self->config) != 0)
    return mcp_server_config_get_tool_timeout (self->config);
  return self->tool_timeout;
}

gsize
mcp_server_connection_get_max_output_characters (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), 0);

  return (gsize) self->max_output_tokens * MCP_CHARACTERS_PER_TOKEN;
}

void
mcp_server_connection_set_backoff_base (McpServerConnection *self,
                                        guint                base_ms)
{
  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));

  self->backoff_base = MAX (base_ms, 1);
}

static void
shut_down (McpServerConnection *self,
           const GError        *why)
{
  g_autoptr(GPtrArray) list_waiters = g_steal_pointer (&self->list_waiters);
  gboolean had_client = self->client != NULL;

  self->list_waiters = g_ptr_array_new_with_free_func (g_object_unref);
  g_clear_handle_id (&self->backoff_id, g_source_remove);
  self->reconnects = 0;

  if (self->attempt_cancellable != NULL)
    g_cancellable_cancel (self->attempt_cancellable);

  drop_client (self, &self->pending_client);
  drop_client (self, &self->client);
  if (had_client)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CLIENT]);
  clear_listing (self);
  return_tasks (list_waiters, why);
}

void
mcp_server_connection_set_disabled (McpServerConnection *self,
                                    gboolean             disabled)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));

  if (self->disabled == !!disabled)
    return;

  self->disabled = !!disabled;
  if (!disabled)
    {
      set_state (self, MCP_SERVER_STATE_PENDING, NULL);
      return;
    }

  error = g_error_new (MCP_ERROR, MCP_ERROR_NOT_CONNECTED, _("Server “%s” is disabled"),
                       mcp_server_config_get_name (self->config));
  shut_down (self, error);
  self->needs_auth_until = 0;
  if (self->attempt_cancellable != NULL)
    finish_attempt (self, MCP_SERVER_STATE_DISABLED, error);
  fail_held_waiters (self, error);
  set_state (self, MCP_SERVER_STATE_DISABLED, NULL);
}

void
mcp_server_connection_drop_listing (McpServerConnection *self)
{
  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));

  if (!self->has_listing)
    return;

  g_debug ("“%s”: listing dropped from the cache", mcp_server_config_get_name (self->config));
  clear_listing (self);
}

static void
on_close_client_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_client_close_finish (MCP_CLIENT (object), result, &error))
    g_debug ("Closing “%s”: %s",
             mcp_server_config_get_name (MCP_SERVER_CONNECTION (g_task_get_source_object (task))->config),
             error->message);

  g_task_return_boolean (task, TRUE);
}

void
mcp_server_connection_close_async (McpServerConnection *self,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(McpClient) client = NULL;
  g_autoptr(GError) error = NULL;
  gboolean was_connected;

  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_server_connection_close_async);

  client = self->client != NULL ? g_object_ref (self->client)
         : self->pending_client != NULL ? g_object_ref (self->pending_client)
         : NULL;
  was_connected = self->state == MCP_SERVER_STATE_CONNECTED;

  error = g_error_new (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                       _("The connection to “%s” was closed"),
                       mcp_server_config_get_name (self->config));
  if (client != NULL)
    g_signal_handlers_disconnect_by_data (client, self);
  g_clear_object (&self->pending_client);
  if (self->client != NULL)
    {
      g_clear_object (&self->client);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CLIENT]);
    }
  shut_down (self, error);

  if (self->attempt_cancellable != NULL)
    finish_attempt (self, self->disabled ? MCP_SERVER_STATE_DISABLED : MCP_SERVER_STATE_FAILED,
                    self->disabled ? NULL : error);
  else if (was_connected)
    set_state (self, MCP_SERVER_STATE_FAILED, error);
  fail_held_waiters (self, error);

  if (client == NULL)
    {
      g_task_return_boolean (task, TRUE);
      return;
    }

  mcp_client_close_async (client, NULL, on_close_client_cb, g_steal_pointer (&task));
}

gboolean
mcp_server_connection_close_finish (McpServerConnection  *self,
                                    GAsyncResult         *result,
                                    GError              **error)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static void
mcp_server_connection_dispose (GObject *object)
{
  McpServerConnection *self = MCP_SERVER_CONNECTION (object);
  g_autoptr(GError) error = g_error_new (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                                         _("The connection was disposed"));

  if (self->config != NULL)
    {
      shut_down (self, error);
      if (self->attempt_cancellable != NULL)
        {
          g_autoptr(GPtrArray) waiters = g_steal_pointer (&self->waiters);

          g_clear_object (&self->attempt_cancellable);
          self->waiters = g_ptr_array_new_with_free_func (g_object_unref);
          return_tasks (waiters, error);
        }
      fail_held_waiters (self, error);
    }

  g_clear_object (&self->oauth_provider);

  G_OBJECT_CLASS (mcp_server_connection_parent_class)->dispose (object);
}

static void
mcp_server_connection_finalize (GObject *object)
{
  McpServerConnection *self = MCP_SERVER_CONNECTION (object);

  g_clear_object (&self->config);
  g_clear_pointer (&self->memo_key, g_free);
  g_clear_pointer (&self->needs_auth_key, g_free);
  g_clear_pointer (&self->needs_auth_cache_path, g_free);
  g_clear_pointer (&self->request_handlers, g_hash_table_unref);
  g_clear_object (&self->token_store);
  g_clear_pointer (&self->environ, g_strfreev);
  g_clear_error (&self->error);
  g_clear_object (&self->tools);
  g_clear_object (&self->resources);
  g_clear_object (&self->resource_templates);
  g_clear_object (&self->prompts);
  g_clear_pointer (&self->stderr_tail, g_strfreev);
  g_clear_pointer (&self->secrets, g_strfreev);
  g_clear_object (&self->log);
  g_clear_pointer (&self->log_level, g_free);
  g_clear_pointer (&self->subscriptions, g_hash_table_unref);
  g_clear_object (&self->attempt_cancellable);
  g_clear_object (&self->list_cancellable);
  g_clear_pointer (&self->waiters, g_ptr_array_unref);
  g_clear_pointer (&self->list_waiters, g_ptr_array_unref);
  clear_list_cache (self);

  G_OBJECT_CLASS (mcp_server_connection_parent_class)->finalize (object);
}

static void
mcp_server_connection_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  McpServerConnection *self = MCP_SERVER_CONNECTION (object);

  switch (prop_id)
    {
    case PROP_CONFIG:
      g_value_set_object (value, self->config);
      break;
    case PROP_NAME:
      g_value_set_string (value, mcp_server_connection_get_name (self));
      break;
    case PROP_STATE:
      g_value_set_int (value, self->state);
      break;
    case PROP_ERROR:
      g_value_set_boxed (value, self->error);
      break;
    case PROP_CLIENT:
      g_value_set_object (value, mcp_server_connection_get_client (self));
      break;
    case PROP_TOOLS:
      g_value_set_object (value, self->tools);
      break;
    case PROP_RESOURCES:
      g_value_set_object (value, self->resources);
      break;
    case PROP_RESOURCE_TEMPLATES:
      g_value_set_object (value, self->resource_templates);
      break;
    case PROP_PROMPTS:
      g_value_set_object (value, self->prompts);
      break;
    case PROP_STDERR_TAIL:
      g_value_take_boxed (value, mcp_server_connection_dup_stderr_tail (self));
      break;
    case PROP_CONNECTING:
      g_value_set_boolean (value, self->connecting);
      break;
    case PROP_LOG:
      g_value_set_object (value, self->log);
      break;
    case PROP_LOG_LEVEL:
      g_value_set_string (value, self->log_level);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_server_connection_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  McpServerConnection *self = MCP_SERVER_CONNECTION (object);

  switch (prop_id)
    {
    case PROP_CONFIG:
      self->config = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_server_connection_class_init (McpServerConnectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = mcp_server_connection_dispose;
  object_class->finalize = mcp_server_connection_finalize;
  object_class->get_property = mcp_server_connection_get_property;
  object_class->set_property = mcp_server_connection_set_property;

  properties[PROP_CONFIG] =
    g_param_spec_object ("config", NULL, NULL, MCP_TYPE_SERVER_CONFIG,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATE] =
    g_param_spec_int ("state", NULL, NULL,
                      MCP_SERVER_STATE_PENDING, MCP_SERVER_STATE_DISABLED,
                      MCP_SERVER_STATE_PENDING,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ERROR] =
    g_param_spec_boxed ("error", NULL, NULL, G_TYPE_ERROR,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CLIENT] =
    g_param_spec_object ("client", NULL, NULL, MCP_TYPE_CLIENT,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TOOLS] =
    g_param_spec_object ("tools", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RESOURCES] =
    g_param_spec_object ("resources", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RESOURCE_TEMPLATES] =
    g_param_spec_object ("resource-templates", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PROMPTS] =
    g_param_spec_object ("prompts", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_STDERR_TAIL] =
    g_param_spec_boxed ("stderr-tail", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CONNECTING] =
    g_param_spec_boolean ("connecting", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOG] =
    g_param_spec_object ("log", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOG_LEVEL] =
    g_param_spec_string ("log-level", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[TOOLS_CHANGED] =
    g_signal_new ("tools-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[MEMO_DROPPED] =
    g_signal_new ("memo-dropped", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[LISTING_USED] =
    g_signal_new ("listing-used", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[RESOURCE_UPDATED] =
    g_signal_new ("resource-updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[TASK_STATUS] =
    g_signal_new ("task-status", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, MCP_TYPE_TASK);
}

static void
mcp_server_connection_init (McpServerConnection *self)
{
  self->tools = g_list_store_new (MCP_TYPE_TOOL);
  self->resources = g_list_store_new (MCP_TYPE_RESOURCE);
  self->resource_templates = g_list_store_new (MCP_TYPE_RESOURCE_TEMPLATE);
  self->prompts = g_list_store_new (MCP_TYPE_PROMPT);
  self->log = g_list_store_new (MCP_TYPE_LOG_ENTRY);
  self->subscriptions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->waiters = g_ptr_array_new_with_free_func (g_object_unref);
  self->list_waiters = g_ptr_array_new_with_free_func (g_object_unref);
  self->connect_timeout = MCP_CLIENT_DEFAULT_CONNECT_TIMEOUT_MS;
  self->request_timeout = MCP_HTTP_TRANSPORT_DEFAULT_REQUEST_TIMEOUT_MS;
  self->max_output_tokens = MCP_DEFAULT_MAX_OUTPUT_TOKENS;
  self->backoff_base = 1000;
}

/* ------------------------------------------------------------------------ */
/* Log level and subscriptions                                              */

static McpClient *
require_client (McpServerConnection  *self,
                GError              **error)
{
  if (self->client == NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_NOT_CONNECTED,
                   _("“%s” is not connected"), mcp_server_config_get_name (self->config));
      return NULL;
    }
  return self->client;
}

static void
on_set_log_level_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpServerConnection *self = g_task_get_source_object (task);
  GError *error = NULL;

  if (!mcp_client_set_log_level_finish (MCP_CLIENT (object), result, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  if (g_strcmp0 (self->log_level, g_task_get_task_data (task)) != 0)
    {
      g_free (self->log_level);
      self->log_level = g_strdup (g_task_get_task_data (task));
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOG_LEVEL]);
    }
  g_task_return_boolean (task, TRUE);
}

void
mcp_server_connection_set_log_level_async (McpServerConnection *self,
                                           const char          *level,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  GError *error = NULL;
  McpClient *client;

  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));
  g_return_if_fail (level != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_server_connection_set_log_level_async);
  g_task_set_task_data (task, g_strdup (level), g_free);

  client = require_client (self, &error);
  if (client == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  mcp_client_set_log_level_async (client, level, cancellable,
                                  on_set_log_level_cb, g_steal_pointer (&task));
}

gboolean
mcp_server_connection_set_log_level_finish (McpServerConnection *self,
                                            GAsyncResult        *result,
                                            GError             **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

const char *
mcp_server_connection_get_log_level (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  return self->log_level;
}

static void
on_subscribe_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpServerConnection *self = g_task_get_source_object (task);
  const char *uri = g_task_get_task_data (task);
  gboolean subscribe = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (task), "subscribe"));
  GError *error = NULL;

  if (!mcp_client_subscribe_resource_finish (MCP_CLIENT (object), result, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  if (subscribe)
    g_hash_table_add (self->subscriptions, g_strdup (uri));
  else
    g_hash_table_remove (self->subscriptions, uri);
  g_task_return_boolean (task, TRUE);
}

void
mcp_server_connection_subscribe_async (McpServerConnection *self,
                                       const char          *uri,
                                       gboolean             subscribe,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  GError *error = NULL;
  McpClient *client;

  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));
  g_return_if_fail (uri != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_server_connection_subscribe_async);
  g_task_set_task_data (task, g_strdup (uri), g_free);
  g_object_set_data (G_OBJECT (task), "subscribe", GINT_TO_POINTER (!!subscribe));

  client = require_client (self, &error);
  if (client == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  mcp_client_subscribe_resource_async (client, uri, subscribe, cancellable,
                                       on_subscribe_cb, g_steal_pointer (&task));
}

gboolean
mcp_server_connection_subscribe_finish (McpServerConnection *self,
                                        GAsyncResult        *result,
                                        GError             **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

gboolean
mcp_server_connection_is_subscribed (McpServerConnection *self,
                                     const char          *uri)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), FALSE);

  return uri != NULL && g_hash_table_contains (self->subscriptions, uri);
}
