/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-client.h"
#include "mcp-server-config.h"
#include "mcp-server-manager.h"
#include "mcp-settings.h"

G_BEGIN_DECLS

/* The engine in tests: configs from JSON, clients connected and closed,
 * and the outcome of McpSettings', McpServerManager's and
 * McpServerConnection's async calls, which the tests check each their own
 * way. Every wait is bounded (test-util.h). */

/* A config of the user scope named @name from @json, the text of what
 * "mcpServers"."@name" holds; the test fails when it is not valid. */
McpServerConfig *test_config_from_json (const char *name,
                                        const char *json);
/* One running mcp-fixture-server with @args (the body of a JSON array;
 * NULL: none). */
McpServerConfig *test_fixture_config   (const char *name,
                                        const char *args);

/* McpSettings of @user_dir and @project_dir, loaded; loading must
 * succeed. */
McpSettings     *test_settings_load    (const char *user_dir,
                                        const char *project_dir);

/* What an async call ended with: what its _finish returned and set (the
 * error is the test's to free). test_outcome_for() readies @outcome for
 * @finish, a foo_finish (source, result, error) that returns a gboolean,
 * and returns it as the user_data of test_outcome_cb(), which fills it;
 * test_outcome_done() is the TestCondition that waits for it:
 *
 *   mcp_settings_load_async (settings, NULL, test_outcome_cb,
 *                            test_outcome_for (&loaded, mcp_settings_load_finish));
 *   test_iterate_until (test_outcome_done, &loaded, "the settings");
 */
typedef gboolean (*TestFinishFunc) (gpointer       source,
                                    GAsyncResult  *result,
                                    GError       **error);

typedef struct
{
  TestFinishFunc  finish;
  gboolean        done;
  gboolean        ok;
  GError         *error;
} TestOutcome;

gpointer test_outcome_for      (TestOutcome  *outcome,
                                gpointer      finish);
void     test_outcome_cb       (GObject      *source,
                                GAsyncResult *result,
                                gpointer      outcome);
gboolean test_outcome_done     (gpointer      data);

/* @text as a JSON string literal (quoted and escaped). */
char    *test_json_string      (const char    *text);

/* Connect or close @client and wait; what the _finish returned. */
gboolean test_client_connect   (McpClient     *client,
                                GError       **error);
gboolean test_client_close     (McpClient     *client,
                                GError       **error);

/* A client on @transport, as "plugboard-test". */
McpClient *test_client_new           (McpTransport  *transport);
/* Connect @client and wait; it must succeed and leave the client ready. */
void       test_client_connect_ready (McpClient     *client);
/* Both: a client on @transport, connected and ready. */
McpClient *test_client_new_connected (McpTransport  *transport);

/* Close @client and wait; it must succeed and leave the client closed. */
void     test_client_close_ok  (McpClient     *client);
/* Ping through @client and wait; what mcp_client_ping_finish() returned. */
gboolean test_client_ping      (McpClient     *client,
                                GError       **error);

/* Call the tool @name through @client and wait; what
 * mcp_client_call_tool_finish() returned. @arguments_json: the text of a
 * JSON object, or NULL for none. */
McpToolResult *test_client_call_tool_json    (McpClient               *client,
                                              const char              *name,
                                              const char              *arguments_json,
                                              const McpRequestOptions *options,
                                              GCancellable            *cancellable,
                                              GError                 **error);
/* The same with the arguments {"message": @message} (NULL: none), what the
 * fixtures' echo-like tools take. */
McpToolResult *test_client_call_tool_message (McpClient               *client,
                                              const char              *name,
                                              const char              *message,
                                              GError                 **error);

/* The text of @result's only content block, which must be text. */
const char *test_result_only_text  (McpToolResult *result);
/* The text of @result's first content block (there must be one). */
const char *test_result_first_text (McpToolResult *result);

/* Wait until @connection is in @state. */
void     test_wait_connection_state (McpServerConnection *connection,
                                     McpServerState       state);
/* Wait until @manager has a server @name in @state (looked up anew each
 * time: the manager may make its connections again). */
void     test_wait_server_state     (McpServerManager    *manager,
                                     const char          *name,
                                     McpServerState       state);

/* Wait until @manager has settled, or has closed; either must succeed. */
void     test_manager_settle   (McpServerManager *manager);
void     test_manager_close    (McpServerManager *manager);

G_END_DECLS
