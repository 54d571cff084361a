/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "mcp-server-manager.h"
#include "mcp-settings.h"
#include "test-tool-call.h"
#include "mcp-tool-pool.h"
#include "test-util.h"

G_BEGIN_DECLS

/* server-everything over stdio through McpSettings and McpServerManager,
 * for the integration tests of issue 8. */

typedef struct
{
  char             *dir;          /* removed by everything_fixture_tear_down() */
  char             *project_dir;
  McpSettings      *settings;
  McpServerManager *manager;
  McpToolPool      *pool;
} EverythingFixture;

typedef void (*EverythingPrepareFunc) (McpServerManager *manager,
                                       gpointer          data);

/* FALSE (and the test skipped) when node or server-everything is missing. */
gboolean       everything_available      (void);
/* The server is "everything"; @prepare sets handlers before it connects.
 * Waits until it is connected and lists its tools. */
void           everything_fixture_set_up (EverythingFixture     *fixture,
                                          EverythingPrepareFunc  prepare,
                                          gpointer               data);
void           everything_fixture_tear_down (EverythingFixture *fixture);
McpServerConnection *everything_connection (EverythingFixture *fixture);

/* Waits until the pool lists "mcp__everything__@name". */
void           everything_wait_tool      (EverythingFixture *fixture,
                                          const char        *name);
/* Waits until @pool lists @qualified (mcp__server__tool). */
void           everything_wait_pool_tool (McpToolPool       *pool,
                                          const char        *qualified);
/* Waits until @pool lists @qualified, then runs it
 * with @arguments (JSON text), allowed by a rule of its own. */
McpProcessedResult *everything_run_pool_tool (McpToolPool  *pool,
                                              const char   *qualified,
                                              const char   *arguments,
                                              GError      **error);
/* The text of every content block, each followed by a newline. */
char          *everything_result_text    (McpProcessedResult *processed);
JsonObject    *everything_object         (const char *json);
/* The member "everything" of an "mcpServers" object being built in
 * @builder: @node running @script over stdio. */
void           everything_add_server     (JsonBuilder *builder,
                                          const char  *node,
                                          const char  *script);
/* Writes what @builder built as @user_dir's settings.json and loads the
 * settings of @user_dir and @project_dir. */
McpSettings   *everything_settings_load  (JsonBuilder *builder,
                                          const char  *user_dir,
                                          const char  *project_dir);

G_END_DECLS
