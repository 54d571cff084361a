/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-json-document.h"
#include "mcp-settings-private.h"

G_BEGIN_DECLS

/* One change of McpSettings' files, as the parts of its writer share it
 * (mcp-settings-write.c, mcp-settings-transaction.c, mcp-settings-edit.c,
 * mcp-settings-edit-lists.c). */

typedef enum
{
  OP_SAVE,          /* add, edit, rename and move, in one */
  OP_REMOVE,
  OP_SET_ENABLED,
  OP_APPROVAL,
  OP_BIND,          /* approvals by name get their digest */
  OP_PERMISSION,    /* a rule into one of allow, ask, deny, or out of all */
  OP_RESET_APPROVALS, /* every project server's approval or rejection forgotten */
} OpKind;

typedef enum
{
  FILE_USER = SETTINGS_FILE_USER,           /* the user and local scopes */
  FILE_PROJECT = SETTINGS_FILE_PROJECT,
  FILE_PLUGBOARD = SETTINGS_FILE_PLUGBOARD, /* another client's approvals and rules */
  N_FILES = SETTINGS_N_FILES,
} FileKind;

typedef struct
{
  char            *path;      /* as the settings name it */
  char            *target;    /* where the bytes are (symlinks followed) */
  GBytes          *known;     /* as the settings last read it */
  GBytes          *current;   /* as it is under the lock; NULL: no file */
  guint            mode;
  McpJsonDialect   dialect;
  McpJsonDocument *document;
  gboolean         used;
} FileEdit;

typedef struct
{
  OpKind          kind;
  char           *name;       /* NULL: a new server */
  McpConfigScope  scope;
  char           *new_name;
  McpConfigScope  to;
  JsonNode       *entry;      /* deep copies: the thread's own */
  JsonNode       *expected;
  gboolean        flag;
  McpSettingsLayout layout;   /* the client's files, as the settings have them */
  GPtrArray      *bindings;   /* Binding: approvedMcpjsonServers members to write */
  gboolean        untouched;  /* nothing was changed: nothing is written */
  FileEdit        files[N_FILES];
} WriteOp;

typedef struct
{
  char     *name;
  JsonNode *value;            /* {"digest": "sha256:…", "launch": {…}} */
} Binding;

static inline FileKind
file_of (McpConfigScope scope)
{
  return scope == MCP_CONFIG_SCOPE_PROJECT ? FILE_PROJECT : FILE_USER;
}

/* Where the approvals (and Claude Code's disabledMcpServers) are, and
 * where the permission rules are */
static inline FileEdit *
lists_file (WriteOp *op)
{
  return &op->files[op->layout.lists_file];
}

static inline FileEdit *
rules_file (WriteOp *op)
{
  return &op->files[op->layout.rules_file];
}

/* A failed edit of a document names the file. */
static inline gboolean
in_file (gboolean   ok,
         FileEdit  *file,
         GError   **error)
{
  if (!ok)
    g_prefix_error (error, "%s: ", file->path);

  return ok;
}

/* mcp-settings-transaction.c */
/* Checks @op and queues it as a GTask of @self that owns it: one change
 * at a time, each on what the one before wrote, then one reload. */
void       mcp_settings_queue_write         (McpSettings          *self,
                                             WriteOp              *op,
                                             gpointer              source_tag,
                                             GCancellable         *cancellable,
                                             GAsyncReadyCallback   callback,
                                             gpointer              user_data);

/* mcp-settings-edit.c: the changes to the servers' entries */
/* projects["<dir>"][@member], the local scope's (for another client:
 * where its approvals are kept) */
char     **mcp_settings_edit_local_path     (WriteOp              *op,
                                             const char           *member);
/* Whether the new entry of @op is a server (the error names @file) */
gboolean   mcp_settings_edit_check_entry    (WriteOp              *op,
                                             const char           *file,
                                             GError              **error);
/* Removes @name from the array at @path (all of it, or all but the first
 * when @keep_one); no array is fine. */
gboolean   mcp_settings_edit_remove_string  (FileEdit             *file,
                                             char                **path,
                                             const char           *name,
                                             gboolean              keep_one,
                                             GError              **error);
/* Makes @op's change in the documents of its files, in memory. */
gboolean   mcp_settings_edit_apply          (WriteOp              *op,
                                             GError              **error);

/* mcp-settings-edit-lists.c: the approvals and the permission rules */
/* Whether the array at @path holds the string @name */
gboolean   mcp_settings_edit_has_string     (FileEdit             *file,
                                             char                **path,
                                             const char           *name);
gboolean   mcp_settings_edit_bind           (WriteOp              *op,
                                             GError              **error);
gboolean   mcp_settings_edit_approval       (WriteOp              *op,
                                             GError              **error);
gboolean   mcp_settings_edit_rule           (WriteOp              *op,
                                             GError              **error);
gboolean   mcp_settings_edit_reset_approvals (WriteOp             *op,
                                              GError             **error);

G_END_DECLS
