/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include <string.h>

#include "mcp-doctor.h"

#include "plugboard-cli-private.h"

/* plugboard-cli doctor: the connection doctor's checks of one server,
 * printed as each finishes, or as JSON at the end. */

typedef struct
{
  PlugboardCli *cli;
  gboolean      utf8;
} Printer;

static const char *
marker (McpDoctorStatus status,
        gboolean        utf8)
{
  switch (status)
    {
    case MCP_DOCTOR_STATUS_PASS:
      return utf8 ? "✓" : "+";
    case MCP_DOCTOR_STATUS_FAIL:
      return utf8 ? "✗" : "x";
    case MCP_DOCTOR_STATUS_WARN:
      return "!";
    case MCP_DOCTOR_STATUS_SKIPPED:
    case MCP_DOCTOR_STATUS_RUNNING:
    default:
      return "-";
    }
}

static void
print_check (McpDoctorCheck *check,
             gboolean        utf8)
{
  const char *seen = mcp_doctor_check_get_seen (check);
  const char *fix = mcp_doctor_check_get_fix (check);

  /* The texts are the engine's, with what servers wrote escaped already;
   * g_print() escapes once more what reaches the terminal. */
  g_print ("%s %s\n", marker (mcp_doctor_check_get_status (check), utf8),
           mcp_doctor_check_get_title (check));
  if (seen != NULL && seen[0] != '\0')
    plugboard_cli_print_indented ("    ", seen);
  if (fix != NULL && fix[0] != '\0')
    {
      /* Translators: before what to do about a failed check */
      g_autofree char *line = g_strdup_printf (_("fix: %s"), fix);

      plugboard_cli_print_indented ("    ", line);
    }
}

static void
on_checks_changed_cb (GListModel *checks,
                      guint       position,
                      guint       removed,
                      guint       added,
                      Printer    *printer)
{
  if (printer->cli->json)
    return;

  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(McpDoctorCheck) check = g_list_model_get_item (checks, i);

      if (mcp_doctor_check_get_status (check) != MCP_DOCTOR_STATUS_RUNNING)
        print_check (check, printer->utf8);
    }
}

static void
print_json (McpDoctor *doctor)
{
  GListModel *checks = mcp_doctor_get_checks (doctor);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "server");
  json_builder_add_string_value (builder, mcp_doctor_get_server_name (doctor));
  json_builder_set_member_name (builder, "ok");
  json_builder_add_boolean_value (builder, !mcp_doctor_has_failure (doctor));
  json_builder_set_member_name (builder, "checks");
  json_builder_begin_array (builder);
  for (guint i = 0; i < g_list_model_get_n_items (checks); i++)
    {
      g_autoptr(McpDoctorCheck) check = g_list_model_get_item (checks, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "id");
      json_builder_add_string_value (builder, mcp_doctor_check_get_id (check));
      json_builder_set_member_name (builder, "title");
      json_builder_add_string_value (builder, mcp_doctor_check_get_title (check));
      json_builder_set_member_name (builder, "status");
      json_builder_add_string_value (builder, mcp_doctor_status_to_string (mcp_doctor_check_get_status (check)));
      json_builder_set_member_name (builder, "seen");
      json_builder_add_string_value (builder, mcp_doctor_check_get_seen (check));
      json_builder_set_member_name (builder, "fix");
      if (mcp_doctor_check_get_fix (check) != NULL)
        json_builder_add_string_value (builder, mcp_doctor_check_get_fix (check));
      else
        json_builder_add_null_value (builder);
      json_builder_set_member_name (builder, "durationMs");
      json_builder_add_int_value (builder, mcp_doctor_check_get_duration (check) / 1000);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  plugboard_cli_print_json (root);
}

static McpServerConnection *
ad_hoc_connection (PlugboardCli *cli)
{
  GListModel *servers = G_LIST_MODEL (plugboard_cli_get_manager (cli));
  g_autoptr(McpServerConnection) connection = NULL;

  if (g_list_model_get_n_items (servers) == 0)
    return NULL;
  connection = g_list_model_get_item (servers, 0);
  return connection;
}

int
plugboard_cli_doctor (PlugboardCli *cli,
                      int           argc,
                      char        **argv)
{
  g_autoptr(McpDoctor) doctor = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  McpServerConnection *connection = NULL;
  McpServerConfig *config = NULL;
  Printer printer = { cli, FALSE };
  const char *charset;
  gulong handler;
  int status;

  if (plugboard_cli_is_ad_hoc (argc, argv))
    {
      if ((status = plugboard_cli_parse_ad_hoc_options (cli, NULL, TRUE, &argc, &argv)) != 0 ||
          (status = plugboard_cli_check_count (cli, argc, argv, 0, 0, "")) != 0 ||
          (status = plugboard_cli_open_ad_hoc (cli)) != 0)
        return status;
      connection = ad_hoc_connection (cli);
    }
  else
    {
      const char *name;

      if ((status = plugboard_cli_parse_settings_options (cli, NULL, FALSE, TRUE, &argc, &argv)) != 0 ||
          (status = plugboard_cli_check_count (cli, argc, argv, 1, 1, _("the name of the server"))) != 0)
        return status;
      name = argv[1];
      /* The doctor starts the server itself: the project connects nothing. */
      if ((status = plugboard_cli_load_project (cli, (const char *[]) { NULL })) != 0 ||
          (status = plugboard_cli_refuse_broken_files (cli)) != 0 ||
          (config = plugboard_cli_lookup_or_fail (cli, name, &status)) == NULL)
        return status;
    }

  if (connection != NULL)
    doctor = mcp_doctor_new_for_connection (connection);
  else if (config != NULL)
    {
      doctor = mcp_doctor_new (config, NULL);
      mcp_doctor_set_timeout (doctor, mcp_limits_get (cli->limits, MCP_LIMIT_CONNECT_TIMEOUT));
    }
  else
    {
      plugboard_cli_print_failure (cli, "%s", _("No server to diagnose"));
      return EXIT_SETTINGS;
    }
  if (cli->timeout_ms > 0)
    mcp_doctor_set_timeout (doctor, cli->timeout_ms);
  printer.utf8 = g_get_console_charset (&charset);
  handler = g_signal_connect (mcp_doctor_get_checks (doctor), "items-changed",
                              G_CALLBACK (on_checks_changed_cb), &printer);

  mcp_doctor_run_async (doctor, cli->cancellable, plugboard_cli_store_result_cb, &result);
  plugboard_cli_wait_for_result (&result);
  g_signal_handler_disconnect (mcp_doctor_get_checks (doctor), handler);
  if (!mcp_doctor_run_finish (doctor, result, &error))
    {
      if (cli->interrupted)
        return plugboard_cli_cancelled (cli);
      plugboard_cli_print_failure (cli, "%s", error->message);
      return EXIT_CONNECTION;
    }

  if (cli->json)
    print_json (doctor);

  return mcp_doctor_has_failure (doctor) ? EXIT_TOOL_ERROR : 0;
}
