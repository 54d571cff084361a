/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "mcp-call.h"
#include "mcp-interaction.h"
#include "mcp-limits.h"
#include "mcp-permissions.h"
#include "mcp-server-manager.h"
#include "mcp-settings.h"
#include "mcp-tool-history.h"
#include "mcp-tool-pool.h"
#include "mcp-manager-enums.h"

G_BEGIN_DECLS

#define MCP_TYPE_PROJECT (mcp_project_get_type ())

G_DECLARE_FINAL_TYPE (McpProject, mcp_project, MCP, PROJECT, GObject)

/**
 * McpProject:
 *
 * What the window shows for one project folder: its McpSettings (user,
 * project and local scopes) and the McpServerManager connecting them. Not
 * a widget, and it keeps no state the engine has: the window binds to the
 * manager's and the settings' models. Every operation a person can do on a
 * server is here, so it is tested without a display; the window only maps
 * them to actions, dialogs and toasts.
 *
 * Properties: project-dir (construct-only; NULL: the home directory, where
 * only the user scope and the home folder's local scope apply),
 * user-config-dir (construct-only; NULL: the default), settings, manager
 * (read-only), servers (GListModel, read-only, see below), loaded (bool),
 * tool-pool (McpToolPool over the manager, read-only), permissions
 * (McpPermissions from the settings' "permissions", a new object notified
 * when the rules change), history (McpToolHistory; by default one at
 * $XDG_DATA_HOME/plugboard/saved-arguments.json made on first use; tests
 * set their own).
 *
 * The project's McpRoots (the project folder, and the folders added per
 * server) is made with the project and given to its manager before any
 * server connects, so roots/list is answered and declared.
 *
 * "servers" lists, in order, every effective server (McpServerConnection
 * items from the manager) and then every shadowed entry (McpServerConfig
 * items from mcp_settings_get_shadowed()): a row's item is one or the
 * other.
 *
 * After load_async the manager gets the settings' servers, and again after
 * every "changed" of the settings (an outside edit, or a write of ours).
 * The manager's limits come from the project's McpLimits (property
 * "limits", construct-only; by default one following the application's
 * GSettings keys when the schema is installed): the environment
 * variables, then the preferences.
 */
McpProject *mcp_project_new              (const char *project_dir,
                                          const char *user_config_dir);
/* Tests: a manager made by the caller (e.g. with a token store and a
 * needs-auth cache path in a temporary folder). */
McpProject *mcp_project_new_with_manager (const char       *project_dir,
                                          const char       *user_config_dir,
                                          McpServerManager *manager);

/* The project as another MCP client sees it: its settings are
 * mcp_settings_new_for_client (@kind, NULL, @user_config_dir,
 * @project_dir), and everything else (connections, tools, calls, sign-in,
 * history, rules) is as for Plugboard's own. Property "client"
 * (McpClientKind, construct-only, default PLUGBOARD). */
McpProject *mcp_project_new_for_client   (McpClientKind  kind,
                                          const char    *project_dir,
                                          const char    *user_config_dir);
McpClientKind     mcp_project_get_client       (McpProject  *self);

const char       *mcp_project_get_project_dir  (McpProject  *self);
McpSettings      *mcp_project_get_settings     (McpProject  *self);
/* The limits: the one reader of MCP_TIMEOUT and the others (McpLimits). */
McpLimits        *mcp_project_get_limits       (McpProject  *self);
McpServerManager *mcp_project_get_manager      (McpProject  *self);
GListModel       *mcp_project_get_servers      (McpProject  *self);
gboolean          mcp_project_get_loaded       (McpProject  *self);
McpToolPool      *mcp_project_get_tool_pool    (McpProject  *self);
McpPermissions   *mcp_project_get_permissions  (McpProject  *self);
McpToolHistory   *mcp_project_get_history      (McpProject  *self);
McpRoots         *mcp_project_get_roots        (McpProject  *self);
void              mcp_project_set_history      (McpProject     *self,
                                                McpToolHistory *history);

/* The person, as the front end asks them (NULL: no one; asks are refused
 * and the servers' requests the interaction does not answer are not
 * declared). Property "interaction". */
McpInteraction   *mcp_project_get_interaction  (McpProject     *self);
void              mcp_project_set_interaction  (McpProject     *self,
                                                McpInteraction *interaction);
/* A call of @tool with @arguments through the project: its permissions,
 * its interaction, its history (see McpCall). */
McpCall          *mcp_project_new_call         (McpProject     *self,
                                                McpPoolTool    *tool,
                                                JsonObject     *arguments,
                                                McpCallFlags    flags);

void              mcp_project_load_async       (McpProject          *self,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
gboolean          mcp_project_load_finish      (McpProject    *self,
                                                GAsyncResult  *result,
                                                GError       **error);

/* The person's operations. Each finishes when the settings were written
 * (and reloaded) or the manager acted; errors are the engine's. @name is
 * an effective server's name; @scope the scope of its entry. */
typedef enum
{
  MCP_PROJECT_OP_RECONNECT,      /* reconnect (also: connect a failed or needs-auth one) */
  MCP_PROJECT_OP_ENABLE,
  MCP_PROJECT_OP_DISABLE,
  MCP_PROJECT_OP_DUPLICATE,      /* adds "<name>-copy" (-copy-2, …) in the same scope */
  MCP_PROJECT_OP_REMOVE,
  MCP_PROJECT_OP_APPROVE,        /* a project server, as last loaded (mcp_settings_set_approval_async) */
  MCP_PROJECT_OP_REJECT,
  MCP_PROJECT_OP_SIGN_OUT,
  MCP_PROJECT_OP_RESET_APPROVALS, /* every project server pending again; @name is NULL */
} McpProjectOp;

void              mcp_project_run_async        (McpProject          *self,
                                                McpProjectOp         op,
                                                const char          *name,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
/* For DUPLICATE, @out_name gets the new name. */
gboolean          mcp_project_run_finish       (McpProject    *self,
                                                GAsyncResult  *result,
                                                char         **out_name,
                                                GError       **error);

/* @rule (checked with mcp_permissions_check_rule(); any rule can be taken
 * out with MCP_RULE_NONE) into @list of @scope's "permissions" (user or
 * local; the project scope has none), out of that scope's other lists;
 * finished with mcp_project_set_tool_rule_finish(). */
void              mcp_project_set_rule_async   (McpProject          *self,
                                                const char          *rule,
                                                McpConfigScope       scope,
                                                McpRuleList          list,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);

/* The permission rule of @tool alone (its qualified name) into @list,
 * or out of every list (MCP_RULE_NONE), in the scope its server's rules
 * belong to. */
void              mcp_project_set_tool_rule_async  (McpProject          *self,
                                                    McpPoolTool         *tool,
                                                    McpRuleList          list,
                                                    GCancellable        *cancellable,
                                                    GAsyncReadyCallback  callback,
                                                    gpointer             user_data);
gboolean          mcp_project_set_tool_rule_finish (McpProject    *self,
                                                    GAsyncResult  *result,
                                                    GError       **error);
/* The rule of every tool of the server @name ("mcp__NAME"), the same way;
 * finished with mcp_project_set_tool_rule_finish(). */
void              mcp_project_set_server_rule_async (McpProject          *self,
                                                     const char          *name,
                                                     McpRuleList          list,
                                                     GCancellable        *cancellable,
                                                     GAsyncReadyCallback  callback,
                                                     gpointer             user_data);

void              mcp_project_move_async       (McpProject          *self,
                                                const char          *name,
                                                McpConfigScope       to,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
gboolean          mcp_project_move_finish      (McpProject    *self,
                                                GAsyncResult  *result,
                                                GError       **error);

/* One Save of the server editor as one transaction (see
 * mcp_settings_save_server_async(): one lock, one write of each file, one
 * reload): @name of @scope renamed to @new_name, moved to @new_scope and
 * made @entry, touching only the members that differ; @expected is the
 * entry as it was when the edit began (NULL: as last loaded), and nothing
 * is written when the file holds something else there now. @name NULL
 * adds @entry as a new server. @name a server being tried (see
 * mcp_project_try_server()) saves it as a new entry: under its own name
 * the saved entry takes the try's place (keeping its connection), under
 * another the try ends. */
void              mcp_project_save_server_async  (McpProject          *self,
                                                  const char          *name,
                                                  McpConfigScope       scope,
                                                  const char          *new_name,
                                                  McpConfigScope       new_scope,
                                                  JsonObject          *entry,
                                                  JsonObject          *expected,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
gboolean          mcp_project_save_server_finish (McpProject    *self,
                                                  GAsyncResult  *result,
                                                  GError       **error);

/* Adds @entry as the server @name of @scope (e.g. one imported from
 * another app). */
void              mcp_project_add_server_async   (McpProject          *self,
                                                  const char          *name,
                                                  McpConfigScope       scope,
                                                  JsonObject          *entry,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
gboolean          mcp_project_add_server_finish  (McpProject    *self,
                                                  GAsyncResult  *result,
                                                  GError       **error);

/* MCP_PROJECT_OP_REMOVE, ENABLE and DISABLE on the entry of @scope, which
 * need not be the effective one (plugboard-cli's --scope); finished with
 * mcp_project_run_finish(). Approvals are MCP_PROJECT_OP_APPROVE and
 * REJECT. */
void              mcp_project_remove_server_async      (McpProject          *self,
                                                        const char          *name,
                                                        McpConfigScope       scope,
                                                        GCancellable        *cancellable,
                                                        GAsyncReadyCallback  callback,
                                                        gpointer             user_data);
void              mcp_project_set_server_enabled_async (McpProject          *self,
                                                        const char          *name,
                                                        McpConfigScope       scope,
                                                        gboolean             enabled,
                                                        GCancellable        *cancellable,
                                                        GAsyncReadyCallback  callback,
                                                        gpointer             user_data);

/* Undo of REMOVE: puts the entry back as it was (same scope, same JSON). */
void              mcp_project_restore_async    (McpProject          *self,
                                                const char          *name,
                                                McpConfigScope       scope,
                                                JsonObject          *entry,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
gboolean          mcp_project_restore_finish   (McpProject    *self,
                                                GAsyncResult  *result,
                                                GError       **error);

/* OAuth sign-in through the manager: the sign-in address goes through the
 * URL policy (a refusal ends the sign-in, saying why) to the interaction's
 * show_sign_in_url. */
void              mcp_project_sign_in_async    (McpProject          *self,
                                                const char          *name,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
gboolean          mcp_project_sign_in_finish   (McpProject    *self,
                                                GAsyncResult  *result,
                                                GError       **error);

/* Adds the reference example server "everything"
 * ({"command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"]})
 * in the user scope ("everything-2"… when taken). */
void              mcp_project_add_example_async  (McpProject          *self,
                                                  GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
gboolean          mcp_project_add_example_finish (McpProject    *self,
                                                  GAsyncResult  *result,
                                                  char         **out_name,
                                                  GError       **error);

/* Trying a server without saving it: @entry (an "mcpServers" entry) is
 * connected as @name in no file (mcp_server_config_new_unsaved(): user
 * scope for roots and rules) and listed with the others until it is
 * discarded (MCP_PROJECT_OP_REMOVE), saved (an entry of that name in the
 * settings replaces it, keeping the connection when it is the same entry)
 * or the project closes. Trying the same name again replaces the try. Fails
 * when the settings have a server of that name, or @entry is not a valid
 * entry (the error says where). Reconnect, sign-in and sign-out, rules and
 * every tool work on it; enable, disable, duplicate and move say to save it
 * first. */
gboolean          mcp_project_try_server       (McpProject  *self,
                                                const char  *name,
                                                JsonObject  *entry,
                                                GError     **error);
/* The server @name being tried, or NULL. */
McpServerConfig  *mcp_project_lookup_unsaved   (McpProject *self,
                                                const char *name);

/* plugboard-cli: a verb connects only what it needs. With @names set,
 * the manager gets only the servers named (an empty list: none; a name
 * the settings lack is left out); NULL, the default, gives it every
 * server, as the app has it. Set it before load_async; set again, it
 * applies at once. The settings, the permissions and the "servers" list
 * still cover every server of the settings. */
void              mcp_project_set_connect_only (McpProject         *self,
                                                const char * const *names);

/* plugboard-cli's ad-hoc server (a command or a URL given on the command
 * line): a project of that one server, tried as @name (see
 * mcp_project_try_server()). It reads no settings file (the settings stay
 * empty: load_async reads nothing and connects the server), offers no
 * roots (it has no project folder), and its permissions are
 * mcp_permissions_new_command_line(): the command line is the consent.
 * @manager: NULL for a new one, or one made by the caller (e.g. with a
 * token store and a needs-auth cache of its own: nobody can sign in to a
 * server that is in no settings). Set the interaction before loading.
 * NULL and @error when @entry is not a valid entry. */
McpProject       *mcp_project_new_ad_hoc       (McpServerManager  *manager,
                                                const char        *name,
                                                JsonObject        *entry,
                                                GError           **error);

/* What changed in the server @name's tools, resources, templates, prompts
 * and instructions since its previous connection (@since NULL) or since
 * @since, from the capability history: McpCapabilityChange items. NULL
 * and @error when there is no such server. */
GPtrArray        *mcp_project_list_changes     (McpProject         *self,
                                                const char         *name,
                                                GDateTime          *since,
                                                GError            **error);
/* Whether the tool @tool of @name changed since the person confirmed it
 * (an allow rule for it is then suspended). */
gboolean          mcp_project_tool_changed     (McpProject         *self,
                                                const char         *name,
                                                const char         *tool);
/* The person reviewed the change of @tool: its description and schema as
 * they are now become the confirmed ones, and an allow rule applies again. */
gboolean          mcp_project_confirm_tool     (McpProject         *self,
                                                const char         *name,
                                                const char         *tool,
                                                GError            **error);

G_END_DECLS
