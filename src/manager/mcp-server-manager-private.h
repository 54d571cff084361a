/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-server-manager.h"
#include "mcp-server-connection-private.h"

G_BEGIN_DECLS

/* Between the parts of McpServerManager only:
 *
 * mcp-server-manager.c           the object: the list model, properties,
 *                                lookups
 * mcp-server-manager-batches.c   connecting in batches; wait_settled
 * mcp-server-manager-configs.c   set_configs, the enabled toggle, the
 *                                listings' LRU
 * mcp-server-manager-close.c     closing every connection
 * mcp-server-manager-sign-in.c   OAuth sign-in and sign-out
 * mcp-server-manager-requests.c  server-to-client request handlers, roots
 */

struct _McpServerManager
{
  GObject       parent_instance;

  /* owned */
  GPtrArray    *connections;         /* McpServerConnection, the model */
  GHashTable   *memo;                /* memo key → McpServerConnection (borrowed from connections) */
  GHashTable   *enabled_overrides;   /* name → GINT_TO_POINTER (1 + enabled) */
  GQueue        local_queue;         /* McpServerConnection, owned refs */
  GQueue        remote_queue;
  GQueue        lru;                 /* borrowed; most recently used first */
  GPtrArray    *settle_waiters;      /* GTask */
  GHashTable   *closing;             /* McpServerConnection being closed → itself */
  GCancellable *cancellable;
  char        **environ;
  McpTokenStore *token_store;
  char         *needs_auth_cache_path;
  GHashTable   *request_handlers;    /* method → McpServerRequestHandler, shared with connections */
  McpRoots     *roots;               /* answers roots/list; nullable */
  gulong        roots_changed_id;

  guint         local_active;
  guint         remote_active;
  guint         local_batch_size;
  guint         remote_batch_size;
  guint         connect_timeout;
  guint         tool_timeout;
  guint         request_timeout;
  guint         max_output_tokens;
  guint         trace_kib;
  guint         oauth_request_timeout;
  guint         backoff_base;
  guint         connecting;
  gboolean      closed;
};

/* mcp-server-manager.c */
gboolean mcp_server_manager_is_listed            (McpServerManager    *self,
                                                  McpServerConnection *connection);
/* Counts the connections connecting now, for the "connecting" property. */
void     mcp_server_manager_update_connecting    (McpServerManager    *self);

/* mcp-server-manager-batches.c */
/* Answers the wait_settled callers once no server is pending. */
void     mcp_server_manager_check_settled        (McpServerManager    *self);
/* Queues @connection for its batch (none after close). */
void     mcp_server_manager_enqueue              (McpServerManager    *self,
                                                  McpServerConnection *connection);
/* Starts what the batch sizes allow of the queues. */
void     mcp_server_manager_pump                 (McpServerManager    *self);

/* mcp-server-manager-requests.c */
/* Sends notifications/roots/list_changed to @server when it is ready. */
void     mcp_server_manager_notify_roots_changed (McpServerManager    *self,
                                                  const char          *server);

G_END_DECLS
