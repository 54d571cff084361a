/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-config-file.h"

G_BEGIN_DECLS

/* What our temporary files have after the name of the file they replace */
#define TEMPORARY_MARK ".plugboard-"

/* Whether @name (at @path) is a file a writer that was killed left. */
typedef gboolean (*McpConfigFileStaleFunc) (const char *path,
                                            const char *name,
                                            const char *prefix);

/* mcp-config-file.c */
/* @format (a translated message) takes the path, then the cause */
void      mcp_config_file_set_errno_error  (GError                 **error,
                                            int                      errsv,
                                            const char              *format,
                                            const char              *path);

/* mcp-config-file-replace.c */
/* Six letters or digits, as mkstemp() puts after a name */
gboolean  mcp_config_file_is_random_suffix (const char              *suffix);
/* Removes the files of @dir that @is_stale finds stale. */
void      mcp_config_file_remove_stale     (const char              *dir,
                                            McpConfigFileStaleFunc   is_stale,
                                            const char              *prefix);

G_END_DECLS
