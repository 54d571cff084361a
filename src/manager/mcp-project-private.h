/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-project.h"
#include "mcp-server-list.h"

G_BEGIN_DECLS

/* Between the parts of McpProject: mcp-project.c (the object, loading,
 * the settings-to-manager wiring), -operations.c, -rules.c, -save.c and
 * -try.c. */

struct _McpProject
{
  GObject              parent_instance;

  McpClientKind        client;
  char                *project_dir;
  char                *user_config_dir;

  McpSettings         *settings;
  McpServerManager    *manager;
  McpServerList       *servers;
  McpLimits           *limits;
  GBinding            *limit_bindings[MCP_N_LIMITS];  /* limits → manager */
  McpToolPool         *tool_pool;
  McpPermissions      *permissions;
  char                *permissions_key;
  McpToolHistory      *history;
  McpRoots            *roots;
  GPtrArray           *unsaved;       /* McpServerConfig: servers being tried */
  McpInteraction      *interaction;

  guint                loaded : 1;

  GStrv                connect_only;  /* mcp_project_set_connect_only() */
  guint                ad_hoc : 1;    /* mcp_project_new_ad_hoc() */
};

/* Gives the manager the settings' servers and then the servers being tried. */
void                 mcp_project_push_configs      (McpProject    *self);
/* The index of the server @name being tried in self->unsaved. */
gboolean             mcp_project_find_unsaved      (McpProject    *self,
                                                    const char    *name,
                                                    guint         *index);
/* @name's entry in the settings, or NULL and @error (saying when it is
 * only being tried). */
McpServerConfig     *mcp_project_lookup_config     (McpProject    *self,
                                                    const char    *name,
                                                    GError       **error);
McpServerConnection *mcp_project_lookup_connection (McpProject    *self,
                                                    const char    *name,
                                                    GError       **error);
/* Finishes the settings write whose _async function is the task's data,
 * and returns its result through the task (owned, @user_data). */
void                 mcp_project_write_done_cb     (GObject       *object,
                                                    GAsyncResult  *result,
                                                    gpointer       user_data);

/* Ends the try of @name (when it is one: not in the settings), the
 * manager told; FALSE when there was none (mcp-project-save.c). */
gboolean             mcp_project_discard_unsaved   (McpProject    *self,
                                                    const char    *name);
/* After a write succeeded: a server being tried that was saved under
 * another name ends (the task's "tried-name" and "new-name"). */
void                 mcp_project_write_saved       (McpProject    *self,
                                                    GTask         *task);
/* The writes of MCP_PROJECT_OP_ENABLE/DISABLE and REMOVE in @scope,
 * completing @task (owned). */
void                 mcp_project_write_enabled     (McpProject     *self,
                                                    GTask          *task,
                                                    const char     *name,
                                                    McpConfigScope  scope,
                                                    gboolean        enabled);
void                 mcp_project_write_removal     (McpProject     *self,
                                                    GTask          *task,
                                                    const char     *name,
                                                    McpConfigScope  scope);

/* A new McpPermissions when the rules changed, or always with @force
 * (mcp-project.c). */
void                 mcp_project_update_permissions (McpProject    *self,
                                                     gboolean       force);
/* The capability history's check on @permissions, and its "tool-changed"
 * watched (mcp-project-changes.c). */
void                 mcp_project_check_changes     (McpProject     *self,
                                                    McpPermissions *permissions);
void                 mcp_project_watch_changes     (McpProject     *self);
extern guint         mcp_project_tool_changed_signal;

/* mcp_project_push_configs() while connect_only is set (mcp-project.c). */
void                 mcp_project_push_only         (McpProject    *self);
/* load_async of an ad-hoc project: no file, its server connected; takes
 * @task (mcp-project.c). */
void                 mcp_project_load_ad_hoc       (McpProject    *self,
                                                    GTask         *task);

G_END_DECLS
