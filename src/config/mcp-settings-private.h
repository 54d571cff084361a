/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-settings.h"

G_BEGIN_DECLS

struct _McpSettings
{
  GObject          parent_instance;

  guint            loading;
  guint            writing : 1;
  guint            reload_pending : 1;
  guint            generation;

  /* owned */
  char            *user_config_dir;
  char            *project_dir;
  char            *user_path;
  char            *project_path;
  GFile           *user_file;
  GFile           *project_file;
  GFileMonitor    *user_monitor;
  GFileMonitor    *project_monitor;
  GCancellable    *cancellable;
  GBytes          *user_bytes;      /* as last loaded; NULL: no file */
  GBytes          *project_bytes;
  GError          *user_error;      /* why it could not be read, or NULL */
  GError          *project_error;
  GListStore      *servers;
  GListStore      *shadowed;
  GPtrArray       *problems;
  GHashTable      *approvals;       /* name → McpApproval */
  GPtrArray       *pending;         /* names */
  char           **allow;
  char           **deny;
  char           **ask;
  GQueue           writes;          /* GTasks */
};

/* mcp-settings.c */
const char *mcp_settings_scope_file        (McpSettings    *self,
                                            McpConfigScope  scope);
const char *mcp_settings_scope_name        (McpConfigScope  scope);
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

/* mcp-settings-write.c */
void        mcp_settings_run_next_write    (McpSettings    *self);

G_END_DECLS
