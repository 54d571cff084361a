/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <string.h>

#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>
#include <libsoup/soup.h>

#include "mcp-http-transport.h"
#include "mcp-json-private.h"
#include "mcp-limits.h"
#include "mcp-oauth-provider.h"
#include "mcp-processed-result.h"
#include "mcp-project.h"
#include "test-engine.h"
#include "test-util.h"

/* McpLimits (issue 22): the one reader of the six variables, the
 * environment over the preferences (a memory GSettings backend with the
 * schema compiled in data/), and the values the manager hands on to the
 * transports and OAuth providers it builds. */

static const McpLimit all_limits[] = {
  MCP_LIMIT_CONNECT_TIMEOUT,
  MCP_LIMIT_TOOL_TIMEOUT,
  MCP_LIMIT_REQUEST_TIMEOUT,
  MCP_LIMIT_LOCAL_BATCH_SIZE,
  MCP_LIMIT_REMOTE_BATCH_SIZE,
  MCP_LIMIT_MAX_OUTPUT_TOKENS,
};

static void
unset_all (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (all_limits); i++)
    g_unsetenv (mcp_limit_get_variable (all_limits[i]));
}

static guint
get_property (McpLimits *limits,
              McpLimit   limit)
{
  guint value = 0;

  g_object_get (limits, mcp_limit_get_property_name (limit), &value, NULL);
  g_assert_cmpuint (value, ==, mcp_limits_get (limits, limit));

  return value;
}

/* NULL (and a skip) when the schema is not compiled. */
static GSettings *
memory_settings (void)
{
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettingsBackend) backend = NULL;
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APPLICATION_ID, TRUE);
  if (schema == NULL)
    {
      g_test_skip ("the GSettings schema is not available");
      return NULL;
    }

  backend = g_memory_settings_backend_new ();
  return g_settings_new_full (schema, backend, NULL);
}

static void
test_names (void)
{
  static const char * const variables[] = {
    "MCP_TIMEOUT", "MCP_TOOL_TIMEOUT", "MCP_REQUEST_TIMEOUT_MS",
    "MCP_SERVER_CONNECTION_BATCH_SIZE", "MCP_REMOTE_SERVER_CONNECTION_BATCH_SIZE",
    "MAX_MCP_OUTPUT_TOKENS",
  };
  static const char * const keys[] = {
    "connect-timeout", "tool-timeout", "request-timeout",
    "local-batch-size", "remote-batch-size", "max-output-tokens",
  };

  for (guint i = 0; i < G_N_ELEMENTS (all_limits); i++)
    {
      g_assert_cmpstr (mcp_limit_get_variable (all_limits[i]), ==, variables[i]);
      g_assert_cmpstr (mcp_limit_get_property_name (all_limits[i]), ==, keys[i]);
    }
}

static void
test_defaults (void)
{
  g_autoptr(McpLimits) limits = NULL;

  unset_all ();
  g_setenv ("MCP_TIMEOUT", "", TRUE);  /* empty is unset */
  limits = mcp_limits_new (NULL);
  g_unsetenv ("MCP_TIMEOUT");

  g_assert_cmpuint (get_property (limits, MCP_LIMIT_CONNECT_TIMEOUT), ==, 30000);
  g_assert_cmpuint (get_property (limits, MCP_LIMIT_TOOL_TIMEOUT), ==, 0);
  g_assert_cmpuint (get_property (limits, MCP_LIMIT_REQUEST_TIMEOUT), ==,
                    MCP_HTTP_TRANSPORT_DEFAULT_REQUEST_TIMEOUT_MS);
  g_assert_cmpuint (get_property (limits, MCP_LIMIT_LOCAL_BATCH_SIZE), ==, 3);
  g_assert_cmpuint (get_property (limits, MCP_LIMIT_REMOTE_BATCH_SIZE), ==, 20);
  g_assert_cmpuint (get_property (limits, MCP_LIMIT_MAX_OUTPUT_TOKENS), ==, 25000);
  g_assert_cmpuint (mcp_limits_get_max_output_characters (limits), ==, 100000);
  g_assert_cmpuint (mcp_limits_get_oauth_request_timeout (limits), ==, 30000);

  for (guint i = 0; i < G_N_ELEMENTS (all_limits); i++)
    {
      g_assert_null (mcp_limits_get_override (limits, all_limits[i]));
      g_assert_null (mcp_limits_get_environment_value (limits, all_limits[i]));
    }
}

/* Each variable wins over its preference, and keeps winning when the
 * preference changes; the others follow the preferences. */
static void
test_environment_over_settings (void)
{
  g_autoptr(GSettings) settings = memory_settings ();

  if (settings == NULL)
    return;

  unset_all ();
  for (guint i = 0; i < G_N_ELEMENTS (all_limits); i++)
    {
      McpLimit limit = all_limits[i];
      const char *key = mcp_limit_get_property_name (limit);
      /* Within the keys' ranges: a batch is at most 100. */
      guint scale = limit == MCP_LIMIT_LOCAL_BATCH_SIZE || limit == MCP_LIMIT_REMOTE_BATCH_SIZE ? 1 : 100;
      g_autofree char *variable_value = g_strdup_printf ("%u", 70 * scale);
      g_autoptr(McpLimits) limits = NULL;

      g_settings_set_uint (settings, key, 50 * scale);
      g_setenv (mcp_limit_get_variable (limit), variable_value, TRUE);
      limits = mcp_limits_new (settings);
      g_unsetenv (mcp_limit_get_variable (limit));

      g_assert_cmpuint (get_property (limits, limit), ==, 70 * scale);
      g_assert_cmpstr (mcp_limits_get_override (limits, limit), ==, mcp_limit_get_variable (limit));
      g_assert_cmpstr (mcp_limits_get_environment_value (limits, limit), ==, variable_value);
      g_settings_set_uint (settings, key, 60 * scale);
      g_assert_cmpuint (get_property (limits, limit), ==, 70 * scale);

      /* Read once: the variable's later change is not seen. */
      g_assert_cmpstr (mcp_limits_get_override (limits, limit), ==, mcp_limit_get_variable (limit));

      for (guint j = 0; j < G_N_ELEMENTS (all_limits); j++)
        {
          if (j == i)
            continue;
          g_assert_null (mcp_limits_get_override (limits, all_limits[j]));
          g_assert_cmpuint (get_property (limits, all_limits[j]), ==,
                            g_settings_get_uint (settings, mcp_limit_get_property_name (all_limits[j])));
        }

      g_settings_reset (settings, key);
    }

  /* No variable: the preference, and its changes at once. */
  {
    g_autoptr(McpLimits) limits = mcp_limits_new (settings);

    g_assert_cmpuint (get_property (limits, MCP_LIMIT_CONNECT_TIMEOUT), ==, 30000);
    g_settings_set_uint (settings, "connect-timeout", 12345);
    g_assert_cmpuint (get_property (limits, MCP_LIMIT_CONNECT_TIMEOUT), ==, 12345);
    g_settings_set_uint (settings, "max-output-tokens", 2000);
    g_assert_cmpuint (mcp_limits_get_max_output_characters (limits), ==, 8000);
    /* OAuth keeps its own default: the preference is for MCP requests. */
    g_settings_set_uint (settings, "request-timeout", 7000);
    g_assert_cmpuint (get_property (limits, MCP_LIMIT_REQUEST_TIMEOUT), ==, 7000);
    g_assert_cmpuint (mcp_limits_get_oauth_request_timeout (limits), ==, 30000);
  }
}

/* What the engine did with a value before McpLimits: one that is not a
 * whole number (or above G_MAXUINT) is ignored and the limit keeps its
 * default, not the preference; 0 is a batch of 1 and an output of 1 token;
 * MCP_TIMEOUT=0 and MCP_REQUEST_TIMEOUT_MS=0 mean no timeout, but OAuth
 * requests keep their 30 s. */
static void
test_invalid_values (void)
{
  g_autoptr(GSettings) settings = memory_settings ();
  g_autoptr(McpLimits) limits = NULL;

  if (settings == NULL)
    return;

  unset_all ();
  g_settings_set_uint (settings, "tool-timeout", 5000);
  g_settings_set_uint (settings, "connect-timeout", 5000);
  g_settings_set_uint (settings, "remote-batch-size", 9);
  g_setenv ("MCP_TOOL_TIMEOUT", "soon", TRUE);
  g_setenv ("MCP_TIMEOUT", "-5", TRUE);
  g_setenv ("MCP_REMOTE_SERVER_CONNECTION_BATCH_SIZE", "99999999999", TRUE);
  g_setenv ("MCP_SERVER_CONNECTION_BATCH_SIZE", "0", TRUE);
  g_setenv ("MAX_MCP_OUTPUT_TOKENS", "0", TRUE);
  g_setenv ("MCP_REQUEST_TIMEOUT_MS", "0", TRUE);
  limits = mcp_limits_new (settings);
  unset_all ();

  g_assert_cmpuint (get_property (limits, MCP_LIMIT_TOOL_TIMEOUT), ==, 0);
  g_assert_null (mcp_limits_get_override (limits, MCP_LIMIT_TOOL_TIMEOUT));
  g_assert_cmpstr (mcp_limits_get_environment_value (limits, MCP_LIMIT_TOOL_TIMEOUT), ==, "soon");
  g_settings_set_uint (settings, "tool-timeout", 6000);
  g_assert_cmpuint (get_property (limits, MCP_LIMIT_TOOL_TIMEOUT), ==, 0);

  g_assert_cmpuint (get_property (limits, MCP_LIMIT_CONNECT_TIMEOUT), ==, 30000);
  g_assert_null (mcp_limits_get_override (limits, MCP_LIMIT_CONNECT_TIMEOUT));
  g_assert_cmpuint (get_property (limits, MCP_LIMIT_REMOTE_BATCH_SIZE), ==, 20);
  g_assert_null (mcp_limits_get_override (limits, MCP_LIMIT_REMOTE_BATCH_SIZE));

  g_assert_cmpuint (get_property (limits, MCP_LIMIT_LOCAL_BATCH_SIZE), ==, 1);
  g_assert_cmpstr (mcp_limits_get_override (limits, MCP_LIMIT_LOCAL_BATCH_SIZE), ==,
                   "MCP_SERVER_CONNECTION_BATCH_SIZE");
  g_assert_cmpuint (get_property (limits, MCP_LIMIT_MAX_OUTPUT_TOKENS), ==, 1);
  g_assert_cmpuint (get_property (limits, MCP_LIMIT_REQUEST_TIMEOUT), ==, 0);
  g_assert_cmpstr (mcp_limits_get_override (limits, MCP_LIMIT_REQUEST_TIMEOUT), ==,
                   "MCP_REQUEST_TIMEOUT_MS");
  g_assert_cmpuint (mcp_limits_get_oauth_request_timeout (limits), ==, 30000);

  g_settings_reset (settings, "tool-timeout");
  g_settings_reset (settings, "connect-timeout");
  g_settings_reset (settings, "remote-batch-size");
}

static void
test_oauth_request_timeout (void)
{
  g_autoptr(McpLimits) limits = NULL;
  guint value = 0;

  unset_all ();
  g_setenv ("MCP_REQUEST_TIMEOUT_MS", "1500", TRUE);
  limits = mcp_limits_new (NULL);
  g_unsetenv ("MCP_REQUEST_TIMEOUT_MS");

  g_assert_cmpuint (mcp_limits_get_oauth_request_timeout (limits), ==, 1500);
  g_object_get (limits, "oauth-request-timeout", &value, NULL);
  g_assert_cmpuint (value, ==, 1500);
}

/* ------------------------------------------------------------------------ */
/* What the manager builds                                                  */

/* A server that never answers. */
static void
hang_handler (SoupServer        *server,
              SoupServerMessage *message,
              const char        *path,
              GHashTable        *query,
              gpointer           user_data)
{
  soup_server_message_pause (message);
}

static gboolean
connection_failed (gpointer data)
{
  return mcp_server_connection_get_state (data) == MCP_SERVER_STATE_FAILED;
}

/* MCP_REQUEST_TIMEOUT_MS reaches the manager of a project, the HTTP
 * transport it builds (the request is given up after 300 ms, long before
 * the 30 s connect timeout) and the server's OAuth provider. */
static void
test_manager_passes_on (void)
{
  g_autoptr(SoupServer) server = soup_server_new (NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(McpProject) project = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *url = NULL;
  g_autofree char *json = NULL;
  GSList *uris;
  McpServerManager *manager;
  McpServerConnection *connection;
  McpOAuthProvider *provider;
  const GError *failure;
  guint value = 0;
  gint64 start;

  soup_server_add_handler (server, NULL, hang_handler, NULL, NULL);
  g_assert_true (soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error));
  g_assert_no_error (error);
  uris = soup_server_get_uris (server);
  url = g_strdup_printf ("http://127.0.0.1:%d/mcp", g_uri_get_port (uris->data));
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);

  unset_all ();
  g_setenv ("MCP_REQUEST_TIMEOUT_MS", "300", TRUE);
  json = g_strdup_printf ("{\"type\":\"http\",\"url\":\"%s\"}", url);
  node = mcp_json_parse (json, strlen (json), &error);
  g_assert_no_error (error);
  project = mcp_project_new_ad_hoc (NULL, "slow", json_node_get_object (node), &error);
  g_unsetenv ("MCP_REQUEST_TIMEOUT_MS");
  g_assert_no_error (error);
  g_assert_nonnull (project);

  g_assert_cmpstr (mcp_limits_get_override (mcp_project_get_limits (project), MCP_LIMIT_REQUEST_TIMEOUT),
                   ==, "MCP_REQUEST_TIMEOUT_MS");
  manager = mcp_project_get_manager (project);
  g_object_get (manager, "request-timeout", &value, NULL);
  g_assert_cmpuint (value, ==, 300);
  g_object_get (manager, "oauth-request-timeout", &value, NULL);
  g_assert_cmpuint (value, ==, 300);

  start = g_get_monotonic_time ();
  mcp_project_load_async (project, NULL, test_result_cb, &result);
  test_wait_result (&result, "the project to load");
  g_assert_true (mcp_project_load_finish (project, result, &error));
  g_assert_no_error (error);

  connection = mcp_server_manager_lookup (manager, "slow");
  g_assert_nonnull (connection);
  test_iterate_until (connection_failed, connection, "the connection to fail");
  g_assert_cmpint (g_get_monotonic_time () - start, <, 20 * G_USEC_PER_SEC);
  failure = mcp_server_connection_get_error (connection);
  g_assert_nonnull (failure);
  g_assert_nonnull (strstr (failure->message, "300 ms"));

  provider = mcp_server_connection_get_oauth_provider (connection);
  g_assert_nonnull (provider);
  g_assert_cmpuint (mcp_oauth_provider_get_request_timeout (provider), ==, 300);

  test_manager_close (manager);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/limits/names", test_names);
  g_test_add_func ("/limits/defaults", test_defaults);
  g_test_add_func ("/limits/environment-over-settings", test_environment_over_settings);
  g_test_add_func ("/limits/invalid-values", test_invalid_values);
  g_test_add_func ("/limits/oauth-request-timeout", test_oauth_request_timeout);
  g_test_add_func ("/limits/manager-passes-on", test_manager_passes_on);

  return g_test_run ();
}
