/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-server-config.h"
#include "mcp-server-manager.h"
#include "mcp-settings.h"

G_BEGIN_DECLS

/* The engine's servers in tests: configs from JSON, and the outcome of
 * McpSettings', McpServerManager's and McpServerConnection's async calls,
 * which the tests check each their own way. */

/* A config of the user scope named @name from @json, the text of what
 * "mcpServers"."@name" holds; the test fails when it is not valid. */
McpServerConfig *test_config_from_json (const char *name,
                                        const char *json);
/* One running mcp-fixture-server with @args (the body of a JSON array;
 * NULL: none). */
McpServerConfig *test_fixture_config   (const char *name,
                                        const char *args);

/* What an async call ended with: its _finish's answer and error (to be
 * freed). The callbacks below fill it; test_outcome_done() is the
 * TestCondition that waits for it. */
typedef struct
{
  gboolean  done;
  gboolean  ok;
  GError   *error;
} TestOutcome;

gboolean test_outcome_done     (gpointer      data);
void     test_settings_loaded_cb (GObject      *object,
                                  GAsyncResult *result,
                                  gpointer      outcome);
void     test_manager_settled_cb (GObject      *object,
                                  GAsyncResult *result,
                                  gpointer      outcome);
void     test_manager_closed_cb  (GObject      *object,
                                  GAsyncResult *result,
                                  gpointer      outcome);
void     test_connection_ensured_cb (GObject      *object,
                                     GAsyncResult *result,
                                     gpointer      outcome);
void     test_connection_reconnected_cb (GObject      *object,
                                         GAsyncResult *result,
                                         gpointer      outcome);

/* Wait until @manager has settled, or has closed; either must succeed. */
void     test_manager_settle   (McpServerManager *manager);
void     test_manager_close    (McpServerManager *manager);

G_END_DECLS
