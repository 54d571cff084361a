/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "mcp-client-shape.h"
#include "mcp-server-config.h"
#include "mcp-settings-problem.h"
#include "mcp-config-enums.h"

G_BEGIN_DECLS

typedef enum
{
  MCP_APPROVAL_NOT_NEEDED,   /* not a project server */
  MCP_APPROVAL_PENDING,      /* a .mcp.json server the person has not decided on */
  MCP_APPROVAL_APPROVED,
  MCP_APPROVAL_REJECTED,
  MCP_APPROVAL_CHANGED,      /* approved, but what it runs changed since: it does not start */
} McpApproval;

#define MCP_TYPE_SETTINGS (mcp_settings_get_type ())

G_DECLARE_FINAL_TYPE (McpSettings, mcp_settings, MCP, SETTINGS, GObject)

/**
 * McpSettings:
 *
 * The three scopes of server settings, merged:
 *   user:    <user-config-dir>/settings.json, "mcpServers"
 *   project: <project-dir>/.mcp.json, "mcpServers"
 *   local:   the user file's projects["<project-dir>"].mcpServers
 * For the same name local wins over project over user.
 *
 * get_servers() is a GListModel of McpServerConfig, one per effective
 * server, in the order names first appear (user, project, local).
 * get_shadowed() holds the configs that a higher scope hides (shown, not
 * lost). An entry that is invalid is left out of both (it shadows
 * nothing) and reported in get_problems().
 *
 * A project server needs approval: the user file's projects["<dir>"]
 * arrays "enabledMcpjsonServers" / "disabledMcpjsonServers" (or
 * "enableAllProjectMcpServers": true) keep the decision, as Claude Code
 * keeps it. An approval is bound to what the server runs: Plugboard keeps
 * projects["<dir>"].approvedMcpjsonServers[name] = {"digest": "sha256:…",
 * "launch": {…}} beside the name (mcp-launch.h: the digest covers command,
 * arguments, env names and values, folder, URL, headers and the project's
 * real folder; "launch" is what was approved, secrets only as digests).
 * When the digest of what the server would run now differs, it is
 * MCP_APPROVAL_CHANGED: it does not start, and it is pending again
 * (dup_pending_approvals()) until approved anew. A server approved by
 * name only (an approval made before, or by another client, or
 * "enableAllProjectMcpServers") starts the first time and is bound then:
 * the load that finds it writes its digest, once. A project server that
 * is pending, changed or rejected is in get_servers() with get_enabled()
 * FALSE whatever its JSON says; get_approval() tells why.
 *
 * "permissions" ({"allow": [], "deny": [], "ask": []}) is read from the
 * user file and from projects["<dir>"]; the lists are concatenated (user
 * first).
 *
 * "disabled": true in an entry (Claude Desktop's key), and a name in
 * projects["<dir>"].disabledMcpServers (Claude Code's), turn a user or
 * local server off as "enabled": false does.
 *
 * Both files are watched: an outside edit reloads and emits "changed".
 * Files are read off the main thread, only when they are regular files of
 * at most 16 MiB; one that cannot be read is a problem (json_path "$")
 * and is never written.
 *
 * Writes go one at a time, each as one transaction in a worker thread
 * (mcp-settings-write.c): under a lock of the file's folder, shared with
 * every other Plugboard process, the file is read as it is now, the change
 * is spliced into its text (McpJsonDocument: every byte outside the member
 * changed stays as it was), the previous bytes are saved in
 * $XDG_STATE_HOME/plugboard/backups/ and the file is replaced through a
 * checked temporary file and a rename. An outside edit of another member
 * is kept; one of the member being changed refuses the change. A file that
 * does not parse is never written. After a write the settings reload once
 * and "changed" is emitted.
 *
 * Properties: user-config-dir, project-dir, home (construct-only strings),
 * client (McpClientKind, construct-only; see mcp_settings_new_for_client()).
 * Signal: changed (no arguments).
 */

/* @user_config_dir: NULL for g_get_user_config_dir()/plugboard;
 * @project_dir: an absolute path */
McpSettings        *mcp_settings_new                  (const char       *user_config_dir,
                                                       const char       *project_dir);

const char         *mcp_settings_get_user_config_dir  (McpSettings      *self);
/* The servers of another MCP client (mcp-client-shape.h), read and
 * written in that client's files and shape: each scope is the client's
 * McpClientFile of that scope (mcp_client_kind_dup_files(@kind, @home,
 * NULL, @user_config_dir, @project_dir); a scope the client lacks has no
 * file and adding to it is an error naming the client). Entries are
 * converted with mcp_client_shape_to_plugboard() on load, so
 * get_servers() holds McpServerConfigs in Plugboard's shape whose
 * get_file() is the client's file; every write converts back with
 * mcp_client_shape_from_plugboard() (the entry there as @base, so what
 * Plugboard does not understand is kept), splices only that entry into
 * the client's file (JSON, JSONC, TOML or YAML) under the same lock, with
 * the same backups, and never adds a member the client does not know.
 * Approvals of a client's project servers are bound to their digest as
 * for Plugboard's, and kept in Plugboard's own user file (under
 * "clients"[ID]."projects"[DIR]), never in the client's. Claude Code's
 * approvals are its own (~/.claude.json, as Plugboard's). Permission
 * rules are Plugboard's own (its user file) whatever the client.
 * @kind MCP_CLIENT_KIND_PLUGBOARD is mcp_settings_new (@user_config_dir,
 * @project_dir). */
McpSettings        *mcp_settings_new_for_client       (McpClientKind     kind,
                                                       const char       *home,
                                                       const char       *user_config_dir,
                                                       const char       *project_dir);
McpClientKind       mcp_settings_get_client           (McpSettings      *self);
/* Whether @scope has a file for this client (Plugboard: all three). */
gboolean            mcp_settings_has_scope            (McpSettings      *self,
                                                       McpConfigScope    scope);
/* For a display of what Plugboard keeps but does not use: the notes of
 * the conversion of server @name's entry in @scope into Plugboard's shape
 * as last loaded (mcp_client_shape_to_plugboard(): "includeTools: kept,
 * not used by Plugboard"), one line each; NULL when there are none (always
 * for Plugboard's own settings). The members themselves are in the
 * config's get_json() and stay in the client's file. */
char              **mcp_settings_dup_notes            (McpSettings      *self,
                                                       const char       *name,
                                                       McpConfigScope    scope);

const char         *mcp_settings_get_project_dir      (McpSettings      *self);
/* the file each scope lives in */
const char         *mcp_settings_get_file             (McpSettings      *self,
                                                       McpConfigScope    scope);
/* The JSON path of the entry of server @name in @scope's file
 * ("$.mcpServers.NAME", or under "$.projects[DIR]" for the local scope). */
char               *mcp_settings_dup_entry_json_path  (McpSettings      *self,
                                                       const char       *name,
                                                       McpConfigScope    scope);

void                mcp_settings_load_async           (McpSettings         *self,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
/* Fails only when cancelled: a missing file is an empty scope, and one
 * that cannot be read or parsed is a problem. */
gboolean            mcp_settings_load_finish          (McpSettings         *self,
                                                       GAsyncResult        *result,
                                                       GError             **error);

GListModel         *mcp_settings_get_servers          (McpSettings      *self);
GListModel         *mcp_settings_get_shadowed         (McpSettings      *self);
/* the effective config of @name, or NULL */
McpServerConfig    *mcp_settings_lookup               (McpSettings      *self,
                                                       const char       *name);
/* the config of @name in @scope, effective or shadowed, or NULL */
McpServerConfig    *mcp_settings_lookup_in_scope      (McpSettings      *self,
                                                       const char       *name,
                                                       McpConfigScope    scope);
/* element type McpSettingsProblem */
GPtrArray          *mcp_settings_get_problems         (McpSettings      *self);

McpApproval         mcp_settings_get_approval         (McpSettings      *self,
                                                       const char       *name);
/* the project servers pending approval (MCP_APPROVAL_PENDING or
 * MCP_APPROVAL_CHANGED), in file order */
char              **mcp_settings_dup_pending_approvals (McpSettings     *self);
/* For a server that is MCP_APPROVAL_CHANGED: what changed since it was
 * approved, one line each, secrets masked (mcp_launch_dup_changes()); NULL
 * otherwise. */
char              **mcp_settings_dup_approval_changes  (McpSettings     *self,
                                                        const char      *name);

const char * const *mcp_settings_get_permissions_allow (McpSettings     *self);
const char * const *mcp_settings_get_permissions_deny  (McpSettings     *self);
const char * const *mcp_settings_get_permissions_ask   (McpSettings     *self);

/* Write-back. Each fails with MCP_ERROR_INVALID_CONFIG for a bad entry,
 * a name that is (or is not) there, or a file that does not parse. */
void                mcp_settings_add_server_async     (McpSettings         *self,
                                                       const char          *name,
                                                       McpConfigScope       scope,
                                                       JsonObject          *object,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
gboolean            mcp_settings_add_server_finish    (McpSettings         *self,
                                                       GAsyncResult        *result,
                                                       GError             **error);
/* replaces the entry, keeping its place in the file */
void                mcp_settings_edit_server_async    (McpSettings         *self,
                                                       const char          *name,
                                                       McpConfigScope       scope,
                                                       JsonObject          *object,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
gboolean            mcp_settings_edit_server_finish   (McpSettings         *self,
                                                       GAsyncResult        *result,
                                                       GError             **error);
void                mcp_settings_rename_server_async  (McpSettings         *self,
                                                       const char          *name,
                                                       McpConfigScope       scope,
                                                       const char          *new_name,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
gboolean            mcp_settings_rename_server_finish (McpSettings         *self,
                                                       GAsyncResult        *result,
                                                       GError             **error);
void                mcp_settings_remove_server_async  (McpSettings         *self,
                                                       const char          *name,
                                                       McpConfigScope       scope,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
gboolean            mcp_settings_remove_server_finish (McpSettings         *self,
                                                       GAsyncResult        *result,
                                                       GError             **error);
/* Sets "enabled": false, or removes "enabled" (true is the default). For a
 * project server it approves or rejects it in the local scope instead:
 * the shared .mcp.json is not changed. */
void                mcp_settings_set_server_enabled_async  (McpSettings         *self,
                                                            const char          *name,
                                                            McpConfigScope       scope,
                                                            gboolean             enabled,
                                                            GCancellable        *cancellable,
                                                            GAsyncReadyCallback  callback,
                                                            gpointer             user_data);
gboolean            mcp_settings_set_server_enabled_finish (McpSettings         *self,
                                                            GAsyncResult        *result,
                                                            GError             **error);
/* Moves the entry (its bytes, as it is now) from @from to @to: one file,
 * or the destination first, then the source. */
void                mcp_settings_move_server_async    (McpSettings         *self,
                                                       const char          *name,
                                                       McpConfigScope       from,
                                                       McpConfigScope       to,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
gboolean            mcp_settings_move_server_finish   (McpSettings         *self,
                                                       GAsyncResult        *result,
                                                       GError             **error);
/* One Save of the server editor, as one change under one lock and with
 * one reload: renames @name of @scope to @new_name, moves it to
 * @new_scope (its bytes first, so that unknown members keep their
 * spelling), and makes it @entry, touching only the members that differ.
 * @name NULL adds @entry as a new server. @expected is the entry the edit
 * was made on (NULL: as last loaded): when the file now holds something
 * else there, another program changed it meanwhile and nothing is
 * written. */
void                mcp_settings_save_server_async    (McpSettings         *self,
                                                       const char          *name,
                                                       McpConfigScope       scope,
                                                       const char          *new_name,
                                                       McpConfigScope       new_scope,
                                                       JsonObject          *entry,
                                                       JsonObject          *expected,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
gboolean            mcp_settings_save_server_finish   (McpSettings         *self,
                                                       GAsyncResult        *result,
                                                       GError             **error);
/* Approves or rejects a project server. Approving binds the approval to
 * what the server runs as these settings last loaded it (the digest and
 * the launch of mcp-launch.h), so what the person saw is what starts. */
void                mcp_settings_set_approval_async   (McpSettings         *self,
                                                       const char          *name,
                                                       gboolean             approved,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
gboolean            mcp_settings_set_approval_finish  (McpSettings         *self,
                                                       GAsyncResult        *result,
                                                       GError             **error);
/* Forgets every approval and rejection of the project's servers (the
 * local scope's enabled/disabledMcpjsonServers, enableAllProjectMcpServers
 * and the digests): each is pending again. */
void                mcp_settings_reset_approvals_async (McpSettings        *self,
                                                        GCancellable       *cancellable,
                                                        GAsyncReadyCallback callback,
                                                        gpointer            user_data);
gboolean            mcp_settings_reset_approvals_finish (McpSettings       *self,
                                                         GAsyncResult      *result,
                                                         GError           **error);

/* Where a permission rule goes: none of the lists, allow, ask or deny. */
typedef enum
{
  MCP_RULE_NONE,
  MCP_RULE_ALLOW,
  MCP_RULE_ASK,
  MCP_RULE_DENY,
} McpRuleList;

/* Puts @rule ("mcp__SERVER" or "mcp__SERVER__TOOL") in @list of the
 * "permissions" of @scope (the user file's, or its entry for this project
 * for the local scope), and takes it out of that scope's other lists
 * (MCP_RULE_NONE: out of all three). One locked write; every other byte
 * of the file stays as it is. */
void                mcp_settings_set_rule_async       (McpSettings         *self,
                                                       const char          *rule,
                                                       McpConfigScope       scope,
                                                       McpRuleList          list,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
gboolean            mcp_settings_set_rule_finish      (McpSettings         *self,
                                                       GAsyncResult        *result,
                                                       GError             **error);
/* The rules of @list as @scope's own "permissions" has them, in order
 * (the user file's, or its entry for this project for the local scope;
 * the project's .mcp.json has none: an empty list). What the evaluator
 * reads is the user's then the local ones (get_permissions_*). */
const char * const *mcp_settings_get_scope_rules      (McpSettings         *self,
                                                       McpConfigScope       scope,
                                                       McpRuleList          list);

G_END_DECLS
