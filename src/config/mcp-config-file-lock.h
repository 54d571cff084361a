/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/**
 * McpConfigFileLock:
 *
 * An exclusive advisory lock (flock) on the folder a settings file lives
 * in, held from reading the file to replacing it. Every writer of
 * Plugboard takes it (the app, each plugboard-cli process and each
 * thread), so two edits of one file are made one after the other, each on
 * what the other wrote. It is the folder, not the file, that is locked: a
 * replaced file is a new inode, and a lock file would be left behind in a
 * person's project.
 */
typedef struct _McpConfigFileLock McpConfigFileLock;

/* Blocking: call these from a worker thread, never the main loop. */

/* Locks @folder (created, mode 0700, when missing); waits for another
 * writer for at most 30 seconds, or until @cancellable. */
McpConfigFileLock *mcp_config_file_lock_folder   (const char        *folder,
                                                  GCancellable      *cancellable,
                                                  GError           **error);
void               mcp_config_file_unlock        (McpConfigFileLock *lock);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (McpConfigFileLock, mcp_config_file_unlock)

G_END_DECLS
