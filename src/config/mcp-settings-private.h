/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-settings.h"

G_BEGIN_DECLS

/* Where a client keeps what: the object of servers of each scope (NULL:
 * the client lacks that scope), each file's dialect, and where the
 * approvals and the permission rules are (shared with the writer's
 * thread, so plain data). */
typedef enum
{
  SETTINGS_FILE_USER,       /* the user and local scopes */
  SETTINGS_FILE_PROJECT,
  SETTINGS_FILE_PLUGBOARD,  /* Plugboard's own user file, for another client */
  SETTINGS_N_FILES,
} McpSettingsFileKind;

typedef struct
{
  McpClientKind        client;
  char                *home;
  char                *project_dir;
  char               **containers[3];       /* by McpConfigScope */
  McpJsonDialect       dialects[SETTINGS_N_FILES];
  McpSettingsFileKind  lists_file;          /* approvals, disabledMcpServers */
  char               **lists_prefix;        /* {"projects", DIR} or {"clients", ID, "projects", DIR} */
  McpSettingsFileKind  rules_file;          /* "permissions", projects[DIR].permissions */
} McpSettingsLayout;

struct _McpSettings
{
  GObject          parent_instance;

  guint            loading;
  guint            writing : 1;
  guint            reload_pending : 1;
  guint            generation;

  McpClientKind    client;

  /* owned */
  char            *user_config_dir;
  char            *project_dir;
  char            *home;            /* another client's: for "~" */
  char            *user_path;
  char            *project_path;    /* NULL: the client has no project file */
  GFile           *user_file;
  GFile           *project_file;
  GFileMonitor    *user_monitor;
  GFileMonitor    *project_monitor;
  GCancellable    *cancellable;
  GBytes          *user_bytes;      /* as last loaded; NULL: no file */
  GBytes          *project_bytes;
  GError          *user_error;      /* why it could not be read, or NULL */
  GError          *project_error;
  /* Another client's settings keep the person's approvals (unless the
   * client keeps its own, as Claude Code does) and permission rules in
   * Plugboard's own user file; NULL for Plugboard's settings. */
  char            *plugboard_path;
  GFile           *plugboard_file;
  GFileMonitor    *plugboard_monitor;
  GBytes          *plugboard_bytes;
  GError          *plugboard_error;
  McpSettingsLayout layout;
  GHashTable      *notes;           /* "scope\nname" → GStrv of the conversion */
  GListStore      *servers;
  GListStore      *shadowed;
  GPtrArray       *problems;
  GHashTable      *approvals;       /* name → McpApproval */
  GHashTable      *launches;        /* name → McpApprovalState, of project servers */
  GHashTable      *bind_tried;      /* "name digest" bound by a load of ours already */
  GPtrArray       *pending;         /* names */
  char           **allow;
  char           **deny;
  char           **ask;
  /* each scope's own lists: [0] user, [1] local; by McpRuleList - 1 */
  char           **scope_rules[2][3];
  GQueue           writes;          /* GTasks */
};

void        mcp_settings_layout_copy       (McpSettingsLayout       *dest,
                                            const McpSettingsLayout *src);
void        mcp_settings_layout_clear      (McpSettingsLayout       *layout);

/* What the settings know of a project server's approval */
typedef struct
{
  char       *digest;             /* of what it runs now */
  JsonObject *launch;             /* what it runs now, masked */
  char       *approved_digest;    /* as approved; NULL: by name only */
  JsonObject *approved_launch;
  gboolean    expands;            /* the digest is of the expanded launch */
} McpApprovalState;

/* mcp-settings.c */
McpApprovalState *mcp_settings_get_approval_state (McpSettings    *self,
                                                   const char     *name);
const char *mcp_settings_scope_file        (McpSettings    *self,
                                            McpConfigScope  scope);
const char *mcp_settings_scope_name        (McpConfigScope  scope);
void        mcp_settings_emit_changed      (McpSettings    *self);

/* mcp-settings-client.c */
/* The key of self->notes */
char       *mcp_settings_notes_key         (const char     *name,
                                            McpConfigScope  scope);
/* Fills self->layout, the paths and the files for self->client. */
void        mcp_settings_set_up_files      (McpSettings    *self);
/* @native, an entry of @layout's client, in Plugboard's shape (a new
 * reference; Plugboard's own: @native itself); @notes as
 * mcp_client_shape_to_plugboard() has them. @inputs: VS Code's. */
JsonObject *mcp_settings_layout_to_plugboard   (const McpSettingsLayout *layout,
                                                const char              *name,
                                                JsonObject              *native,
                                                JsonArray               *inputs,
                                                GPtrArray               *notes,
                                                GError                 **error);
/* @entry (Plugboard's shape) as @layout's client has it, over @base (the
 * entry there now, or NULL); @new_inputs as for the shape's context. */
JsonObject *mcp_settings_layout_from_plugboard (const McpSettingsLayout *layout,
                                                const char              *name,
                                                JsonObject              *entry,
                                                JsonObject              *base,
                                                JsonArray               *inputs,
                                                JsonArray               *new_inputs,
                                                GPtrArray               *notes,
                                                GError                 **error);

/* mcp-settings-load.c */
/* Reads the files again; @task (or NULL: a reload of our own, which emits
 * "changed" when something changed) completes when they are applied. */
void        mcp_settings_start_load        (McpSettings    *self,
                                            GTask          *task);
/* Takes @user and @project (NULL: no file) as the files' bytes and
 * rebuilds the models from them at once, with no file read (the settings
 * fuzz target). */
void        mcp_settings_apply_bytes       (McpSettings    *self,
                                            GBytes         *user,
                                            GBytes         *project);
/* NULL is a file that is not there */
gboolean    mcp_settings_bytes_equal       (GBytes         *a,
                                            GBytes         *b);

/* mcp-settings-read.c */
/* Rebuilds the models from the bytes last read. */
void        mcp_settings_apply_documents   (McpSettings    *self);

/* mcp-settings-transaction.c */
void        mcp_settings_run_next_write    (McpSettings    *self);

/* mcp-settings-write.c */
/* Writes the digest of each server in @names (approved by name only) into
 * approvedMcpjsonServers, where the file still approves it by name and
 * holds no digest for it; no write when there is nothing to do. */
void        mcp_settings_bind_approvals    (McpSettings         *self,
                                            GPtrArray           *names,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);

G_END_DECLS
