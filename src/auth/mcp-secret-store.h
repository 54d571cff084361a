/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/**
 * McpSecretStore:
 *
 * Secrets a person gave Plugboard for a server's settings (an API key asked
 * for when installing from the registry), kept out of every settings file:
 * the Secret Service (schema "org.plugboard.Plugboard.Secret", attribute
 * "id"; label "Plugboard: ID"), or, when none answers, the same 0600
 * fallback file McpTokenStore uses (its "secrets" member), with the same
 * one-time notice. Plugboard's settings refer to one as "${secret:ID}" in
 * an env or header value, URL or argument; the manager fills the reference
 * in just before a connection starts (mcp-server-connection), and a
 * missing secret is an error naming the server and the ID, never its
 * value. An ID is [A-Za-z0-9._-]{1,128}.
 */
#define MCP_TYPE_SECRET_STORE (mcp_secret_store_get_type ())
G_DECLARE_FINAL_TYPE (McpSecretStore, mcp_secret_store, MCP, SECRET_STORE, GObject)

/* @backend: "auto", "secret-service" or "file"; @fallback_path NULL: the
 * token store's default file */
McpSecretStore *mcp_secret_store_new            (const char          *backend,
                                                 const char          *fallback_path);
/* The process's store (backend "auto"): what the manager reads. */
McpSecretStore *mcp_secret_store_get_default    (void);
gboolean        mcp_secret_store_id_is_valid    (const char          *id);
/* A new ID for a secret of @server's @name ("weather.API_KEY", made unique
 * with a suffix by the caller when needed) */
char           *mcp_secret_store_make_id        (const char          *server,
                                                 const char          *name);
void            mcp_secret_store_store_async    (McpSecretStore      *self,
                                                 const char          *id,
                                                 const char          *value,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
gboolean        mcp_secret_store_store_finish   (McpSecretStore      *self,
                                                 GAsyncResult        *result,
                                                 GError             **error);
/* Finishes with the value (NULL and no error: no such secret) */
void            mcp_secret_store_lookup_async   (McpSecretStore      *self,
                                                 const char          *id,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
char           *mcp_secret_store_lookup_finish  (McpSecretStore      *self,
                                                 GAsyncResult        *result,
                                                 GError             **error);
void            mcp_secret_store_clear_async    (McpSecretStore      *self,
                                                 const char          *id,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
gboolean        mcp_secret_store_clear_finish   (McpSecretStore      *self,
                                                 GAsyncResult        *result,
                                                 GError             **error);
/* The IDs of every secret kept (sorted; never a value) */
void            mcp_secret_store_list_async     (McpSecretStore      *self,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
char          **mcp_secret_store_list_finish    (McpSecretStore      *self,
                                                 GAsyncResult        *result,
                                                 GError             **error);

G_END_DECLS
