/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "mcp-config-file-lock.h"
#include "mcp-json-document.h"

G_BEGIN_DECLS

/* The largest settings file Plugboard reads. */
#define MCP_CONFIG_FILE_MAX_SIZE (16 * 1024 * 1024)

/* How many backups of one file are kept. */
#define MCP_CONFIG_FILE_BACKUPS_KEPT 10

/* Blocking: call these from a worker thread, never the main loop. */

/* The file's bytes. Only a regular file (a symlink to one is fine) of at
 * most MCP_CONFIG_FILE_MAX_SIZE bytes is read; a FIFO or a device is never
 * opened. A missing file is G_IO_ERROR_NOT_FOUND. Every message names the
 * file. */
GBytes            *mcp_config_file_read          (const char    *path,
                                                  GError       **error);

/* @path itself when it is not a symlink, else the file it finally points
 * to (which may not exist yet): writes go there, so a symlinked settings
 * file stays a symlink. */
char              *mcp_config_file_resolve       (const char    *path);

/* Replaces @path with @contents: a temporary file in the same folder with
 * the mode (and owner) of the file it replaces, or @new_mode for a new
 * one, every write checked, fsync, rename, fsync of the folder. On failure
 * @path is as it was and the temporary file is gone. Temporary files that
 * a killed writer left beside @path are removed first: call it under the
 * lock. */
gboolean           mcp_config_file_replace       (const char    *path,
                                                  GBytes        *contents,
                                                  guint          new_mode,
                                                  GError       **error);

/* $XDG_STATE_HOME/plugboard/backups; a relative $XDG_STATE_HOME (or
 * $HOME) is ignored, as the XDG specification says, never taken relative
 * to the working directory. */
char              *mcp_config_file_get_backup_dir (void);
/* Where a backup of @path made now would go (for messages and tests). */
char              *mcp_config_file_backup_prefix (const char    *path);
/* Saves @contents, the bytes of @path before an edit, as a new backup with
 * @mode, through mcp_config_file_replace(), and says where in
 * @backup_path; removes what a writer killed during an earlier backup of
 * @path left. Call it under the lock of @path's folder. When the edit is
 * then not made, remove the new backup; when it is, call
 * mcp_config_file_prune_backups(). */
gboolean           mcp_config_file_backup        (const char    *path,
                                                  GBytes        *contents,
                                                  guint          mode,
                                                  char         **backup_path,
                                                  GError       **error);
/* Keeps the newest MCP_CONFIG_FILE_BACKUPS_KEPT of @path's backups. */
void               mcp_config_file_prune_backups (const char    *path);

/* The last step of an edit of @path (whose bytes are at @target: see
 * mcp_config_file_resolve()), under the lock of its folder: when @changed
 * differs from @current (NULL: no file yet), a backup of @current with
 * @mode is made (with @backup), then @target is replaced (0600 when new);
 * if that fails, the new backup is taken back and no older one is rotated
 * out. */
gboolean           mcp_config_file_commit        (const char    *path,
                                                  const char    *target,
                                                  GBytes        *current,
                                                  guint          mode,
                                                  GBytes        *changed,
                                                  gboolean       backup,
                                                  GError       **error);

/* Changes @document (the file as it is now) and says what went wrong. */
typedef gboolean (*McpConfigFileEditFunc) (McpJsonDocument  *document,
                                           gpointer          user_data,
                                           GError          **error);

/* One file's whole read-change-write, for the files that need nothing
 * more: under the lock of its folder, @path is read (missing: an empty
 * object), @edit changes its document in place, and when the text
 * changed, a backup is made (with @backup) and the file replaced (0600 for
 * a new one). A file that does not parse is never written. *@written (if
 * not NULL) is the document as the file now is. */
gboolean           mcp_config_file_edit          (const char             *path,
                                                  McpJsonDialect          dialect,
                                                  gboolean                backup,
                                                  McpConfigFileEditFunc   edit,
                                                  gpointer                user_data,
                                                  McpJsonDocument       **written,
                                                  GCancellable           *cancellable,
                                                  GError                **error);

G_END_DECLS
