/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "test-dirs.h"
#include "test-run.h"

G_BEGIN_DECLS

/* The built plugboard-cli, run by the CLI's tests as a person or a script
 * would: how to run it, once, for every CLI test. */
typedef struct
{
  const char         *path;         /* the built plugboard-cli */
  const char         *config_dir;   /* NULL: no --config-dir */
  const char         *project_dir;  /* NULL: no --project; else the cwd too */
  const char         *xdg_root;     /* NULL: the XDG dirs are left alone */
  const char         *cwd;          /* NULL: @project_dir (or ours) */
  const char * const *env;          /* NAME, VALUE, …, NULL; a NULL VALUE unsets */
  gboolean            text;         /* stdout and stderr must be UTF-8 */
  guint               bound_s;      /* the hang bound; 0: TEST_HANG_BOUND_S */
} TestCli;

/* @cli for @path in @dirs (NULL: none) made by test_dirs_init_cli(): its
 * user folder as --config-dir, its project as --project and cwd, the XDG
 * dirs inside its root. */
void                 test_cli_init      (TestCli             *cli,
                                         const char          *path,
                                         const TestDirs      *dirs);

/* plugboard-cli [--interactive…] [--trace=FILE] VERB [--config-dir D]
 * [--project P] ARGS… for @args (NULL-terminated: the global options —
 * --interactive, --trace=FILE —, the verb, its arguments), owned by the
 * caller, NULL-terminated. */
GPtrArray           *test_cli_argv      (const TestCli       *cli,
                                         const char * const  *args);

/* A launcher (transfer full) with the environment of every run: the
 * caller's MCP_TIMEOUT, MCP_TOOL_TIMEOUT, MCP_SERVER_CONNECTION_BATCH_SIZE,
 * MAX_MCP_OUTPUT_TOKENS and G_MESSAGES_DEBUG unset, LC_ALL=C.UTF-8, the
 * XDG config, cache, data and state homes inside @cli->xdg_root, then
 * @cli->env; in @cli's cwd. */
GSubprocessLauncher *test_cli_launcher  (const TestCli       *cli,
                                         GSubprocessFlags     flags);

/* Runs plugboard-cli with @args with pipes (stdin closed: no terminal
 * anywhere) and collects its output and status. */
void                 test_cli_run       (TestRun             *run,
                                         const TestCli       *cli,
                                         const char * const  *args);

/* Runs plugboard-cli with @args on a pseudo-terminal (TERM=dumb) and
 * answers @steps (ended by a NULL prompt); run->prompted says whether
 * every prompt showed. */
void                 test_cli_run_pty   (TestRun             *run,
                                         const TestCli       *cli,
                                         const char * const  *args,
                                         const TestRunStep   *steps);

/* Every failure is one line on stderr that starts with the program's name:
 * fails unless @err has one “plugboard-cli: …@needle…” (@needle NULL:
 * any). */
void                 test_cli_assert_failure_line (const char *err,
                                                   const char *needle);

/* What --json printed: @text parsed, or the test fails. */
JsonNode            *test_cli_parse_json (const char *text);

/* The built plugboard-cli (MCP_TEST_PLUGBOARD_CLI) and the fixture server
 * (MCP_TEST_FIXTURE_SERVER), or FALSE after skipping the test. */
gboolean             test_cli_have_tools (const char *cli_path,
                                          const char *fixture_path);

/* The arguments of a call, NULL-terminated: TEST_CLI_ARGS ("list", "-v"). */
#define TEST_CLI_ARGS(...) ((const char * const []) { __VA_ARGS__, NULL })

G_END_DECLS
