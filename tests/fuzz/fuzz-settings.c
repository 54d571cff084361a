/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-settings"

#include "config.h"

#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "mcp-settings-private.h"

/* The settings parser, McpSettings, on two documents at once.
 *
 * The input is the user's settings.json, a line "====" and the project's
 * .mcp.json: the first "\n====\n" splits it. Without one the whole input
 * is the user file and there is no project file. The local scope is the
 * user file's projects["/fuzz/project"].
 *
 * mcp_settings_apply_bytes() reads them with no file I/O; then every getter
 * is walked. Checks:
 * - every problem has a non-empty UTF-8 message that names its file, one
 *   of the two, and a JSON path;
 * - each server (effective or shadowed) is read from the file of its
 *   scope, has a non-empty UTF-8 name, what its transport needs (a
 *   command, a URL), UTF-8 strings and a memo key that is stable;
 * - an effective name is there once and lookup() finds it; a shadowed
 *   config is hidden by one of a higher scope;
 * - a project server that is not approved is off; the pending ones are
 *   project servers whose approval is pending;
 * - applying no files afterwards leaves nothing behind.
 * Warnings and criticals are fatal. */

#define USER_FILE "/fuzz/config/settings.json"
#define PROJECT_FILE "/fuzz/project/.mcp.json"
#define SEPARATOR "\n====\n"

static void
fail (const char *what)
{
  g_printerr ("fuzz-settings: %s\n", what);
  abort ();
}

static void
check_utf8 (const char *text,
            const char *what)
{
  if (text == NULL || !g_utf8_validate (text, -1, NULL))
    {
      g_printerr ("fuzz-settings: %s is NULL or not UTF-8\n", what);
      abort ();
    }
}

static void
check_strv (const char * const *strv,
            const char         *must_contain,
            const char         *what)
{
  if (strv == NULL)
    return;

  for (guint i = 0; strv[i] != NULL; i++)
    {
      check_utf8 (strv[i], what);
      if (must_contain != NULL && strstr (strv[i], must_contain) == NULL)
        {
          g_printerr ("fuzz-settings: %s “%s” has no “%s”\n", what, strv[i], must_contain);
          abort ();
        }
    }
}

static const char *
file_of_scope (McpConfigScope scope)
{
  return scope == MCP_CONFIG_SCOPE_PROJECT ? PROJECT_FILE : USER_FILE;
}

static void
check_config (McpServerConfig *config)
{
  McpConfigScope scope = mcp_server_config_get_scope (config);
  McpTransportKind transport = mcp_server_config_get_transport (config);
  const char *name = mcp_server_config_get_name (config);
  g_autofree char *key = NULL;
  g_autofree char *again = NULL;

  check_utf8 (name, "a server name");
  if (name[0] == '\0')
    fail ("a server with an empty name");
  if (scope > MCP_CONFIG_SCOPE_LOCAL)
    fail ("a scope out of range");
  if (g_strcmp0 (mcp_server_config_get_file (config), file_of_scope (scope)) != 0)
    fail ("a server read from another file than its scope's");
  check_utf8 (mcp_server_config_get_json_path (config), "a server's JSON path");
  if (!g_str_has_prefix (mcp_server_config_get_json_path (config), "$."))
    fail ("a server's JSON path that does not start with “$.”");
  if (transport > MCP_TRANSPORT_KIND_WS_IDE)
    fail ("a transport out of range");
  check_utf8 (mcp_server_config_get_transport_name (config), "a transport name");
  if (mcp_server_config_is_remote (config) != (transport != MCP_TRANSPORT_KIND_STDIO))
    fail ("is_remote() that disagrees with the transport");

  if (transport == MCP_TRANSPORT_KIND_STDIO)
    {
      check_utf8 (mcp_server_config_get_command (config), "a command");
      if (mcp_server_config_get_command (config)[0] == '\0')
        fail ("a stdio server with an empty command");
    }
  else if (transport == MCP_TRANSPORT_KIND_HTTP || transport == MCP_TRANSPORT_KIND_SSE ||
           transport == MCP_TRANSPORT_KIND_WS)
    {
      check_utf8 (mcp_server_config_get_url (config), "a URL");
    }
  check_strv (mcp_server_config_get_args (config), NULL, "an argument");
  check_strv (mcp_server_config_get_env (config), "=", "an environment pair");
  check_strv (mcp_server_config_get_headers (config), ": ", "a header");
  if (mcp_server_config_get_cwd (config) != NULL)
    check_utf8 (mcp_server_config_get_cwd (config), "a working directory");
  if (mcp_server_config_get_url (config) != NULL)
    check_utf8 (mcp_server_config_get_url (config), "a URL");
  (void) mcp_server_config_get_oauth (config);
  (void) mcp_server_config_get_enabled (config);
  (void) mcp_server_config_get_connect_timeout (config);
  (void) mcp_server_config_get_tool_timeout (config);
  if (mcp_server_config_get_json (config) == NULL)
    fail ("a server without its JSON");

  key = mcp_server_config_dup_memo_key (config);
  again = mcp_server_config_dup_memo_key (config);
  check_utf8 (key, "a memo key");
  if (strcmp (key, again) != 0)
    fail ("a memo key that changes from one call to the next");
}

static void
check_problems (GPtrArray *problems)
{
  if (problems == NULL)
    fail ("no problem array");

  for (guint i = 0; i < problems->len; i++)
    {
      McpSettingsProblem *problem = g_ptr_array_index (problems, i);

      check_utf8 (problem->message, "a problem's message");
      if (problem->message[0] == '\0')
        fail ("a problem with an empty message");
      if (g_strcmp0 (problem->file, USER_FILE) != 0 && g_strcmp0 (problem->file, PROJECT_FILE) != 0)
        fail ("a problem in neither file");
      if (strstr (problem->message, problem->file) == NULL)
        {
          g_printerr ("%s\n", problem->message);
          fail ("a problem whose message does not name its file");
        }
      check_utf8 (problem->json_path, "a problem's JSON path");
      if (problem->json_path[0] != '$')
        fail ("a problem whose JSON path does not start with “$”");
    }
}

static void
check_settings (McpSettings *settings)
{
  GListModel *servers = mcp_settings_get_servers (settings);
  GListModel *shadowed = mcp_settings_get_shadowed (settings);
  g_autoptr(GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_auto(GStrv) pending = NULL;

  check_problems (mcp_settings_get_problems (settings));

  for (guint i = 0; i < g_list_model_get_n_items (servers); i++)
    {
      g_autoptr(McpServerConfig) config = g_list_model_get_item (servers, i);
      const char *name = mcp_server_config_get_name (config);
      McpApproval approval;

      check_config (config);
      if (!g_hash_table_add (names, g_strdup (name)))
        fail ("a name that is effective twice");
      if (mcp_settings_lookup (settings, name) != config)
        fail ("lookup() that does not find an effective server");
      if (mcp_settings_lookup_in_scope (settings, name, mcp_server_config_get_scope (config)) != config)
        fail ("lookup_in_scope() that does not find an effective server");

      approval = mcp_settings_get_approval (settings, name);
      if (approval > MCP_APPROVAL_REJECTED)
        fail ("an approval out of range");
      if (mcp_server_config_get_scope (config) == MCP_CONFIG_SCOPE_PROJECT)
        {
          if (approval == MCP_APPROVAL_NOT_NEEDED)
            fail ("a project server that needs no approval");
          if (approval != MCP_APPROVAL_APPROVED && mcp_server_config_get_enabled (config))
            fail ("a project server that is on without approval");
        }
    }

  for (guint i = 0; i < g_list_model_get_n_items (shadowed); i++)
    {
      g_autoptr(McpServerConfig) config = g_list_model_get_item (shadowed, i);
      const char *name = mcp_server_config_get_name (config);
      McpServerConfig *winner;

      check_config (config);
      winner = mcp_settings_lookup (settings, name);
      if (winner == NULL)
        fail ("a shadowed server that nothing shadows");
      if (mcp_server_config_get_scope (winner) <= mcp_server_config_get_scope (config))
        fail ("a shadowed server hidden by one of a scope no higher");
      if (mcp_settings_lookup_in_scope (settings, name, mcp_server_config_get_scope (config)) != config)
        fail ("lookup_in_scope() that does not find a shadowed server");
    }

  pending = mcp_settings_dup_pending_approvals (settings);
  if (pending == NULL)
    fail ("no pending list");
  for (guint i = 0; pending[i] != NULL; i++)
    {
      check_utf8 (pending[i], "a pending name");
      if (mcp_settings_get_approval (settings, pending[i]) != MCP_APPROVAL_PENDING)
        fail ("a pending server whose approval is not pending");
      if (mcp_settings_lookup_in_scope (settings, pending[i], MCP_CONFIG_SCOPE_PROJECT) == NULL)
        fail ("a pending server that is not a project server");
    }

  if (mcp_settings_get_permissions_allow (settings) == NULL ||
      mcp_settings_get_permissions_deny (settings) == NULL ||
      mcp_settings_get_permissions_ask (settings) == NULL)
    fail ("a permissions list that is NULL");
  check_strv (mcp_settings_get_permissions_allow (settings), NULL, "an allowed permission");
  check_strv (mcp_settings_get_permissions_deny (settings), NULL, "a denied permission");
  check_strv (mcp_settings_get_permissions_ask (settings), NULL, "a permission to ask");
}

/* The bytes as mcp_config_file_read() gives them: the data is never NULL,
 * not even for an empty file. */
static GBytes *
file_bytes (const uint8_t *data,
            size_t         size)
{
  return g_bytes_new_take (g_memdup2 (size > 0 ? data : (const uint8_t *) "", MAX (size, 1)), size);
}

static const uint8_t *
find_separator (const uint8_t *data,
                size_t         size)
{
  const size_t length = strlen (SEPARATOR);

  for (size_t i = 0; i + length <= size; i++)
    {
      if (data[i] == '\n' && memcmp (data + i, SEPARATOR, length) == 0)
        return data + i;
    }

  return NULL;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(McpSettings) settings = NULL;
  g_autoptr(GBytes) user = NULL;
  g_autoptr(GBytes) project = NULL;
  const uint8_t *separator = find_separator (data, size);
  g_auto(GStrv) pending = NULL;

  fuzz_abort_on_warnings ();

  /* for the ${VAR} of the entries: expansion problems are reported at once */
  g_setenv ("FUZZ_TOKEN", "secret", TRUE);
  g_setenv ("FUZZ_EMPTY", "", TRUE);

  if (separator != NULL)
    {
      const uint8_t *second = separator + strlen (SEPARATOR);

      user = file_bytes (data, separator - data);
      project = file_bytes (second, size - (second - data));
    }
  else
    {
      user = file_bytes (data, size);
    }

  settings = mcp_settings_new ("/fuzz/config", "/fuzz/project");
  if (g_strcmp0 (mcp_settings_get_file (settings, MCP_CONFIG_SCOPE_USER), USER_FILE) != 0 ||
      g_strcmp0 (mcp_settings_get_file (settings, MCP_CONFIG_SCOPE_PROJECT), PROJECT_FILE) != 0)
    fail ("settings files other than expected");

  mcp_settings_apply_bytes (settings, user, project);
  check_settings (settings);

  /* Nothing of the files before is left behind. */
  mcp_settings_apply_bytes (settings, NULL, NULL);
  pending = mcp_settings_dup_pending_approvals (settings);
  if (g_list_model_get_n_items (mcp_settings_get_servers (settings)) != 0 ||
      g_list_model_get_n_items (mcp_settings_get_shadowed (settings)) != 0 ||
      mcp_settings_get_problems (settings)->len != 0 ||
      pending[0] != NULL ||
      mcp_settings_get_permissions_allow (settings)[0] != NULL)
    fail ("no files that leave servers, problems or permissions");

  return 0;
}
