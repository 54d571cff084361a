/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-engine"

#include "config.h"

#include "test-engine.h"

#include <string.h>

#include "mcp-json-private.h"
#include "test-util.h"

McpServerConfig *
test_config_from_json (const char *name,
                       const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = mcp_json_parse (json, strlen (json), &error);
  g_autofree char *path = g_strdup_printf ("$.mcpServers.%s", name);
  McpServerConfig *config;

  g_assert_no_error (error);
  config = mcp_server_config_new_from_json (name, MCP_CONFIG_SCOPE_USER,
                                            json_node_get_object (node),
                                            "test-settings.json", path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (config);
  return config;
}

McpServerConfig *
test_fixture_config (const char *name,
                     const char *args)
{
  g_autoptr(GString) json = g_string_new ("{\"command\":");

  mcp_json_append_string (json, test_fixture_server ());
  g_string_append_printf (json, ",\"args\":[%s]}", args != NULL ? args : "");
  return test_config_from_json (name, json->str);
}

gpointer
test_outcome_for (TestOutcome *outcome,
                  gpointer     finish)
{
  g_assert_null (outcome->error);
  *outcome = (TestOutcome) { .finish = (TestFinishFunc) finish };
  return outcome;
}

void
test_outcome_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      outcome)
{
  TestOutcome *o = outcome;

  o->ok = o->finish (source, result, &o->error);
  o->done = TRUE;
}

gboolean
test_outcome_done (gpointer data)
{
  return ((TestOutcome *) data)->done;
}

gboolean
test_client_connect (McpClient  *client,
                     GError    **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_client_connect_async (client, NULL, test_result_cb, &result);
  return mcp_client_connect_finish (client, test_wait_result (&result, "the client to connect"), error);
}

gboolean
test_client_close (McpClient  *client,
                   GError    **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_client_close_async (client, NULL, test_result_cb, &result);
  return mcp_client_close_finish (client, test_wait_result (&result, "the client to close"), error);
}

/* Waits for @outcome, which must be a success. */
static void
wait_success (TestOutcome *outcome,
              const char  *what)
{
  test_iterate_until (test_outcome_done, outcome, what);
  g_assert_no_error (outcome->error);
  g_assert_true (outcome->ok);
}

void
test_manager_settle (McpServerManager *manager)
{
  TestOutcome o = { 0 };

  mcp_server_manager_wait_settled_async (manager, NULL, test_outcome_cb,
                                         test_outcome_for (&o, mcp_server_manager_wait_settled_finish));
  wait_success (&o, "the servers to settle");
}

void
test_manager_close (McpServerManager *manager)
{
  TestOutcome o = { 0 };

  mcp_server_manager_close_async (manager, NULL, test_outcome_cb,
                                  test_outcome_for (&o, mcp_server_manager_close_finish));
  wait_success (&o, "the manager to close");
}
