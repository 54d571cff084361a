/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "mcp-client-shape.h"

G_BEGIN_DECLS

/**
 * McpClientServer:
 *
 * One server as one client's file has it, read by mcp_clients_scan_async().
 */
typedef struct
{
  McpClientKind   kind;
  McpConfigScope  scope;
  char           *file;        /* absolute path */
  char           *name;
  JsonObject     *native;      /* as the file has it */
  JsonObject     *entry;       /* in Plugboard's shape (to_plugboard()) */
  char          **notes;       /* what the conversion said; NULL-terminated */
} McpClientServer;

void mcp_client_server_free (McpClientServer *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (McpClientServer, mcp_client_server_free)

/**
 * McpClientSummary:
 *
 * What mcp_clients_scan_async() found of one client.
 */
typedef struct
{
  McpClientKind  kind;
  gboolean       present;      /* mcp_client_kind_is_present() */
  GPtrArray     *files;        /* McpClientFile, as dup_files() */
  GPtrArray     *file_errors;  /* char*: a file that exists but cannot be
                                * read or parsed ("PATH: line 3: …") */
  GPtrArray     *servers;      /* McpClientServer, file order */
} McpClientSummary;

void mcp_client_summary_free (McpClientSummary *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (McpClientSummary, mcp_client_summary_free)

/* Reads, off the main thread, every client's files (as
 * mcp_client_kind_dup_files() names them; @plugboard_dir NULL: the
 * default): a GPtrArray of McpClientSummary, one per McpClientKind in
 * enum order. A file that cannot be read is in file_errors; the rest goes
 * on. */
void       mcp_clients_scan_async  (const char           *home,
                                    const char           *config_home,
                                    const char           *plugboard_dir,
                                    const char           *project_dir,
                                    GCancellable         *cancellable,
                                    GAsyncReadyCallback   callback,
                                    gpointer              user_data);
GPtrArray *mcp_clients_scan_finish (GAsyncResult         *result,
                                    GError              **error);

/* "Which of my clients have this server, and do they differ?": from a
 * scan, every McpClientServer named @name (borrowed pointers, scan order);
 * *@differ is TRUE when their entries in Plugboard's shape are not all
 * equal (JSON equality, members in any order). */
GPtrArray *mcp_clients_find_server (GPtrArray            *summaries,
                                    const char           *name,
                                    gboolean             *differ);

/**
 * McpCopyTarget:
 *
 * One file a copy would change, and how.
 */
typedef struct
{
  McpClientKind   kind;
  McpConfigScope  scope;
  char           *path;
  GBytes         *before;      /* NULL: no file yet */
  GBytes         *after;       /* NULL: not changed (error, or the same) */
  char           *diff;        /* unified diff of before → after with 3
                                * lines of context, "--- PATH" / "+++ PATH"
                                * headers; secrets (env and header values)
                                * masked as "•••"; NULL: no change */
  GPtrArray      *notes;       /* char*: what the target cannot express, and
                                * for each server "NAME: added" / "NAME:
                                * replaced" / "NAME: the same already" */
  GError         *error;       /* this target cannot be done (the file does
                                * not parse, the target cannot run the
                                * server…); the other targets still can */
} McpCopyTarget;

void mcp_copy_target_free (McpCopyTarget *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (McpCopyTarget, mcp_copy_target_free)

typedef enum
{
  MCP_COPY_FLAGS_NONE      = 0,
  MCP_COPY_FLAGS_REPLACE   = 1 << 0,  /* a server of that name in the target
                                       * is replaced (its unknown members
                                       * kept); without it, the target's
                                       * error says it is there already */
} McpCopyFlags;

/* Plans copying @names (NULL: every server of @from's @from_scope file)
 * from client @from to each of @targets (@n_targets McpClientKinds, into
 * their @to_scope file; a client without that scope gets its USER file),
 * converting each entry (mcp_client_shape_from_plugboard()), without
 * writing anything: a GPtrArray of McpCopyTarget, one per target file, in
 * order. Off the main thread. */
void       mcp_client_copy_plan_async   (McpClientKind         from,
                                         McpConfigScope        from_scope,
                                         const char * const   *names,
                                         const McpClientKind  *targets,
                                         guint                 n_targets,
                                         McpConfigScope        to_scope,
                                         McpCopyFlags          flags,
                                         const char           *home,
                                         const char           *config_home,
                                         const char           *plugboard_dir,
                                         const char           *project_dir,
                                         GCancellable         *cancellable,
                                         GAsyncReadyCallback   callback,
                                         gpointer              user_data);
GPtrArray *mcp_client_copy_plan_finish  (GAsyncResult         *result,
                                         GError              **error);

/* Writes the planned targets that have a change and no error, one file at
 * a time, each under the lock of its folder with a backup (mcp-config-
 * file.h): when a file's bytes are no longer @before, another program
 * changed it since the preview and that file is not written (its error
 * says so; plan again). Finishes TRUE when every file was written, else
 * FALSE with the first error; each target's error field is set. */
void       mcp_client_copy_apply_async  (GPtrArray            *plan,
                                         GCancellable         *cancellable,
                                         GAsyncReadyCallback   callback,
                                         gpointer              user_data);
gboolean   mcp_client_copy_apply_finish (GAsyncResult         *result,
                                         GError              **error);

/* A unified diff of two texts (3 lines of context; NULL when equal), for
 * previews: "--- @label" / "+++ @label" and "@@ -a,b +c,d @@" hunks. */
char      *mcp_text_diff                (const char           *label,
                                         const char           *before,
                                         const char           *after);

G_END_DECLS
