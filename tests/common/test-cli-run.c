/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-cli-run"

#include "config.h"

#include "test-cli-run.h"

#include <string.h>

#include "test-util.h"

void
test_cli_init (TestCli        *cli,
               const char     *path,
               const TestDirs *dirs)
{
  *cli = (TestCli) { .path = path };
  if (dirs != NULL)
    {
      cli->config_dir = dirs->user_dir;
      cli->project_dir = dirs->project_dir;
      cli->xdg_root = dirs->root;
    }
}

GPtrArray *
test_cli_argv (const TestCli      *cli,
               const char * const *args)
{
  GPtrArray *argv = g_ptr_array_new ();
  guint i = 0;

  g_ptr_array_add (argv, (char *) cli->path);
  /* The global options, before the verb. */
  for (; args[i] != NULL && (g_str_equal (args[i], "--interactive") ||
                             g_str_has_prefix (args[i], "--trace=")); i++)
    g_ptr_array_add (argv, (char *) args[i]);
  if (args[i] != NULL)
    g_ptr_array_add (argv, (char *) args[i++]);
  if (cli->config_dir != NULL)
    {
      g_ptr_array_add (argv, (char *) "--config-dir");
      g_ptr_array_add (argv, (char *) cli->config_dir);
    }
  if (cli->project_dir != NULL)
    {
      g_ptr_array_add (argv, (char *) "--project");
      g_ptr_array_add (argv, (char *) cli->project_dir);
    }
  for (; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  return argv;
}

GSubprocessLauncher *
test_cli_launcher (const TestCli    *cli,
                   GSubprocessFlags  flags)
{
  static const char * const unset[] = {
    "MCP_TIMEOUT", "MCP_TOOL_TIMEOUT", "MCP_SERVER_CONNECTION_BATCH_SIZE",
    "MAX_MCP_OUTPUT_TOKENS", "G_MESSAGES_DEBUG",
  };
  static const struct { const char *name; const char *dir; } xdg[] = {
    { "XDG_CONFIG_HOME", "xdg-config" },
    { "XDG_CACHE_HOME", "xdg-cache" },
    { "XDG_DATA_HOME", "xdg-data" },
    { "XDG_STATE_HOME", "xdg-state" },
  };
  GSubprocessLauncher *launcher = g_subprocess_launcher_new (flags);
  const char *cwd = cli->cwd != NULL ? cli->cwd : cli->project_dir;

  /* The tests set their own limits; the caller's must not leak in. */
  for (guint i = 0; i < G_N_ELEMENTS (unset); i++)
    g_subprocess_launcher_unsetenv (launcher, unset[i]);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  for (guint i = 0; cli->xdg_root != NULL && i < G_N_ELEMENTS (xdg); i++)
    {
      g_autofree char *dir = g_build_filename (cli->xdg_root, xdg[i].dir, NULL);

      g_subprocess_launcher_setenv (launcher, xdg[i].name, dir, TRUE);
    }
  for (guint i = 0; cli->env != NULL && cli->env[i] != NULL; i += 2)
    {
      if (cli->env[i + 1] != NULL)
        g_subprocess_launcher_setenv (launcher, cli->env[i], cli->env[i + 1], TRUE);
      else
        g_subprocess_launcher_unsetenv (launcher, cli->env[i]);
    }
  if (cwd != NULL)
    g_subprocess_launcher_set_cwd (launcher, cwd);
  return launcher;
}

static guint
bound_of (const TestCli *cli)
{
  return cli->bound_s != 0 ? cli->bound_s : TEST_HANG_BOUND_S;
}

void
test_cli_run (TestRun            *run,
              const TestCli      *cli,
              const char * const *args)
{
  g_autoptr(GPtrArray) argv = test_cli_argv (cli, args);

  test_run_piped (run, test_cli_launcher (cli, G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                               G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                               G_SUBPROCESS_FLAGS_STDERR_PIPE),
                  (const char * const *) argv->pdata, NULL, bound_of (cli));
  if (cli->text)
    {
      g_assert_true (g_utf8_validate (run->out, -1, NULL));
      g_assert_true (g_utf8_validate (run->err, -1, NULL));
    }
}

void
test_cli_run_pty (TestRun            *run,
                  const TestCli      *cli,
                  const char * const *args,
                  const TestRunStep  *steps)
{
  g_autoptr(GPtrArray) argv = test_cli_argv (cli, args);
  GSubprocessLauncher *launcher = test_cli_launcher (cli, G_SUBPROCESS_FLAGS_NONE);

  g_subprocess_launcher_setenv (launcher, "TERM", "dumb", TRUE);
  test_run_pty_steps (run, launcher, (const char * const *) argv->pdata, steps, bound_of (cli));
}

void
test_cli_assert_failure_line (const char *err,
                              const char *needle)
{
  g_auto(GStrv) lines = g_strsplit (err, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (g_str_has_prefix (lines[i], "plugboard-cli: ") &&
          (needle == NULL || strstr (lines[i], needle) != NULL))
        return;
    }
  g_error ("no line “plugboard-cli: …%s…” on stderr:\n%s", needle ? needle : "", err);
}

JsonNode *
test_cli_parse_json (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (json_parser_get_root (parser));
  return json_node_copy (json_parser_get_root (parser));
}

gboolean
test_cli_have_tools (const char *cli_path,
                     const char *fixture_path)
{
  return test_have_program (cli_path, "MCP_TEST_PLUGBOARD_CLI") &&
         test_have_program (fixture_path, "MCP_TEST_FIXTURE_SERVER");
}
