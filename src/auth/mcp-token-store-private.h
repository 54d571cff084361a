/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "mcp-token-store.h"

G_BEGIN_DECLS

/* McpTokenStore's parts: the object (mcp-token-store.c), its operations
 * (mcp-token-store-op.c) and backends (mcp-token-store-file.c,
 * mcp-token-store-secret.c). */

#define BACKEND_SECRET_SERVICE "secret-service"
#define BACKEND_FILE           "file"
#define BACKEND_AUTO           "auto"

#define KIND_TOKENS "tokens"
#define KIND_CLIENT "client"

struct _McpTokenStore
{
  GObject     parent_instance;

  /* owned */
  char       *backend;
  char       *fallback_path;

  /* BACKEND_SECRET_SERVICE, BACKEND_FILE or NULL while undecided */
  const char *active_backend;
  /* Why the store fell back to the file; said once tokens or clients
   * really go there or come from there (not on every empty lookup). */
  char       *fallback_reason;
  guint       fallback_announced : 1;
};

/* One operation, whichever backend ends up serving it. */
typedef enum
{
  OP_LOOKUP,
  OP_STORE,
  OP_CLEAR,
} OpKind;

typedef struct
{
  OpKind      op;
  const char *kind;         /* KIND_TOKENS / KIND_CLIENT; for OP_CLEAR the one being cleared */
  char       *server_name;
  char       *server_url;
  /* KIND_CLIENT: the issuer the client belongs to; NULL looks up any
   * client of the server (and stores one that names no issuer). */
  char       *issuer;
  JsonNode   *value;        /* OP_STORE */
} Op;

/* mcp-token-store.c */
void        mcp_token_store_set_active_backend (McpTokenStore       *self,
                                                const char          *backend);
/* Switches to the file for good; says so later, once (see below). */
void        mcp_token_store_fall_back_to_file  (McpTokenStore       *self,
                                                const GError        *why);
/* After a fall back, says so once (::fallback-used) when a record is
 * really read from the file or written to it. */
void        mcp_token_store_announce_fallback  (McpTokenStore       *self);

/* mcp-token-store-op.c */
/* "sign-in" or "OAuth client", for messages */
const char *mcp_token_store_describe_kind      (const char          *kind);
/* Returns @node (NULL: nothing stored), read as the record @task looks up,
 * from @where (a file name or "the keyring", for messages). */
void        mcp_token_store_return_lookup      (GTask               *task,
                                                JsonNode            *node,
                                                const char          *where);
/* Runs @task's Op on its backend; takes @task. */
void        mcp_token_store_run_op             (GTask               *task);
/* Takes @value. */
void        mcp_token_store_start_op           (McpTokenStore       *self,
                                                OpKind               kind_of_op,
                                                const char          *kind,
                                                const char          *server_name,
                                                const char          *server_url,
                                                const char          *issuer,
                                                JsonNode            *value,
                                                gpointer             source_tag,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);

/* mcp-token-store-file.c: does not take @task */
void        mcp_token_store_run_file           (GTask               *task);

/* mcp-token-store-secret.c: takes @task */
void        mcp_token_store_run_secret         (GTask               *task);

G_END_DECLS
