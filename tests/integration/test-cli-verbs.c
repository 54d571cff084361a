/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-cli-verbs"

#include "config.h"

#include <signal.h>
#include <string.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "test-cli-run.h"
#include "test-dirs.h"
#include "test-engine.h"
#include "test-json.h"
#include "test-run.h"
#include "test-util.h"

/* Issue 23, points 8 and 9, on the built plugboard-cli: every verb on one
 * server works with the server given on the command line (stdio,
 * Streamable HTTP, legacy SSE) against server-everything; complete and
 * subscribe; call --tool-arg typed by the inputSchema; the server's log
 * messages on stderr during call; list and get --json; get's instructions.
 * Besides server-everything, a server written against the TypeScript SDK
 * (VERBS_SCRIPT): a tool with every JSON Schema type, a log message in each
 * call, instructions, and a resource updated every 200 ms once subscribed
 * to. */

#define HANG_BOUND_S 90
#define LISTEN_BOUND_S 30

static const char *cli_path;
static char *node_path;
static char *everything_script;

static const char VERBS_SCRIPT[] =
  "const sdk = '%s';\n"
  "const { Server } = await import(sdk + '/server/index.js');\n"
  "const { StdioServerTransport } = await import(sdk + '/server/stdio.js');\n"
  "const t = await import(sdk + '/types.js');\n"
  "const mode = process.argv[2] || '';\n"
  "const mark = process.argv[3] || '';\n"
  "let n = 0;\n"
  "let timer = null;\n"
  "const resources = mode === 'nosub' ? {} : { subscribe: true };\n"
  "const server = new Server({ name: 'verbs-fixture', version: '1.0.0' },\n"
  "  { capabilities: { resources, tools: {}, logging: {} },\n"
  "    instructions: 'Call show with anything.\\nIt echoes the arguments.' });\n"
  "server.setRequestHandler(t.ListResourcesRequestSchema, async () =>\n"
  "  ({ resources: [{ uri: 'test://counter', name: 'counter' }] }));\n"
  "server.setRequestHandler(t.ReadResourceRequestSchema, async (r) =>\n"
  "  ({ contents: [{ uri: r.params.uri, mimeType: 'text/plain', text: 'count ' + n }] }));\n"
  "if (mode !== 'nosub') {\n"
  "  server.setRequestHandler(t.SubscribeRequestSchema, async (r) => {\n"
  "    const uri = r.params.uri;\n"
  "    timer = setInterval(() => {\n"
  "      n++;\n"
  "      server.notification({ method: 'notifications/resources/updated', params: { uri: 'test://other' } });\n"
  "      server.notification({ method: 'notifications/resources/updated', params: { uri } });\n"
  "    }, 200);\n"
  "    return {};\n"
  "  });\n"
  "  server.setRequestHandler(t.UnsubscribeRequestSchema, async (r) => {\n"
  "    clearInterval(timer);\n"
  "    if (mark) (await import('node:fs')).writeFileSync(mark, 'unsubscribed ' + r.params.uri);\n"
  "    return {};\n"
  "  });\n"
  "}\n"
  "server.setRequestHandler(t.ListToolsRequestSchema, async () => ({ tools: [{\n"
  "  name: 'show', description: 'Echoes its arguments as JSON.',\n"
  "  inputSchema: { type: 'object', additionalProperties: false, properties: {\n"
  "    s: { type: 'string' }, n: { type: 'integer' }, x: { type: 'number' }, flag: { type: 'boolean' },\n"
  "    obj: { type: 'object' }, list: { type: 'array' }, nothing: { type: 'null' },\n"
  "    any: {}, multi: { type: ['integer', 'string'] } } } },\n"
  "  { name: 'open', description: 'Takes anything.',\n"
  "    inputSchema: { type: 'object', properties: { s: { type: 'string' } } } }] }));\n"
  "server.setRequestHandler(t.CallToolRequestSchema, async (r) => {\n"
  "  await server.sendLoggingMessage({ level: 'warning', logger: 'fixture',\n"
  "                                    data: 'first line\\nsecond\\u001b[31m line' });\n"
  "  return { content: [{ type: 'text', text: JSON.stringify(r.params.arguments ?? {}) }] };\n"
  "});\n"
  "await server.connect(new StdioServerTransport());\n";

/* node, server-everything and the SDK's script, or FALSE after skipping. */
static gboolean
have_servers (void)
{
  if (!test_have_program (cli_path, "MCP_TEST_PLUGBOARD_CLI"))
    return FALSE;
  if (node_path == NULL)
    node_path = test_find_node ();
  if (everything_script == NULL)
    everything_script = test_find_node_module (TEST_EVERYTHING_SCRIPT);
  return test_have_node_script (node_path, everything_script);
}

/* The SDK server's script written into @dirs->root: its path. */
static char *
write_verbs_script (TestDirs *dirs)
{
  g_autofree char *entry = test_sdk_script_server (dirs->root, "verbs", VERBS_SCRIPT);

  g_assert_nonnull (entry);
  return g_build_filename (dirs->root, "verbs.mjs", NULL);
}

static void
run_cli_full (TestRun            *run,
              TestDirs           *dirs,
              const char * const *args)
{
  TestCli cli;

  test_cli_init (&cli, cli_path, dirs);
  cli.bound_s = HANG_BOUND_S;
  test_cli_run (run, &cli, args);
}

#define run_cli(run, ...) run_cli_full ((run), NULL, TEST_CLI_ARGS (__VA_ARGS__))

static void
assert_success (TestRun    *run,
                const char *what)
{
  if (run->exit_status != 0)
    g_test_message ("%s: stdout: %s\nstderr: %s", what, run->out, run->err);
  g_assert_cmpint (run->exit_status, ==, 0);
}

/* server-everything in its "streamableHttp" or "sse" mode on a port of
 * its own, listening. */
typedef struct
{
  GSubprocess *process;
  guint16      port;
} Everything;

static void
everything_stop (Everything *server)
{
  if (server->process != NULL)
    {
      g_subprocess_force_exit (server->process);
      g_subprocess_wait (server->process, NULL, NULL);
    }
  g_clear_object (&server->process);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Everything, everything_stop)

static void
everything_start (Everything *server,
                  const char *mode)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *port = NULL;
  gint64 deadline;

  server->port = test_pick_port ();
  port = g_strdup_printf ("%u", server->port);
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                        G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_subprocess_launcher_setenv (launcher, "PORT", port, TRUE);
  g_subprocess_launcher_set_child_setup (launcher, test_die_with_parent, NULL, NULL);
  server->process = g_subprocess_launcher_spawn (launcher, &error, node_path, everything_script, mode, NULL);
  g_assert_no_error (error);

  deadline = g_get_monotonic_time () + LISTEN_BOUND_S * G_USEC_PER_SEC;
  for (;;)
    {
      g_autoptr(GSocketClient) client = g_socket_client_new ();
      g_autoptr(GSocketConnection) connection = NULL;

      connection = g_socket_client_connect_to_host (client, "127.0.0.1", server->port, NULL, NULL);
      if (connection != NULL)
        break;
      if (g_get_monotonic_time () > deadline)
        g_error ("server-everything %s did not listen on port %u within %d s", mode, server->port,
                 LISTEN_BOUND_S);
      g_usleep (100 * 1000);
    }
}

static guint
count_updates (GPtrArray  *lines,
               const char *needle)
{
  guint n = 0;

  for (guint i = 0; i < lines->len; i++)
    if (strstr (g_ptr_array_index (lines, i), needle) != NULL)
      n++;
  return n;
}

typedef struct
{
  GPtrArray  *lines;
  const char *needle;
  guint       wanted;
} LineWait;

static gboolean
have_lines (gpointer data)
{
  LineWait *wait = data;

  return count_updates (wait->lines, wait->needle) >= wait->wanted;
}

static void
on_exited_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_subprocess_wait_finish (G_SUBPROCESS (object), result, NULL);
  *(gboolean *) user_data = TRUE;
}

/* Runs plugboard-cli with @args until @wait holds of what it wrote (its
 * stdout or stderr lines, into @out_lines and @err_lines), then sends it
 * SIGINT: its exit status once it is gone. */
static int
run_until_interrupted (const char * const *args,
                       GPtrArray          *out_lines,
                       GPtrArray          *err_lines,
                       LineWait           *wait,
                       const char         *what)
{
  g_autoptr(GPtrArray) argv = NULL;
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  TestLineReader *out_reader, *err_reader;
  gboolean exited = FALSE;
  TestCli cli;

  test_cli_init (&cli, cli_path, NULL);
  argv = test_cli_argv (&cli, args);
  launcher = test_cli_launcher (&cli, G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                      G_SUBPROCESS_FLAGS_STDERR_PIPE);
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  out_reader = test_line_reader_new (g_subprocess_get_stdout_pipe (process), out_lines, "stdout");
  err_reader = test_line_reader_new (g_subprocess_get_stderr_pipe (process), err_lines, "stderr");

  test_iterate_until (have_lines, wait, what);
  g_subprocess_send_signal (process, SIGINT);
  g_subprocess_wait_async (process, NULL, on_exited_cb, &exited);
  test_iterate_until (test_flag_set, &exited, "plugboard-cli to exit after SIGINT");
  test_line_reader_free (out_reader);
  test_line_reader_free (err_reader);

  g_assert_true (g_subprocess_get_if_exited (process));
  return g_subprocess_get_exit_status (process);
}

/* subscribe: server-everything sends updates only once a tool of it is
 * called in the same session, so this says that the subscription was
 * made, and that Ctrl-C ends it with 130. */
static void
check_subscribe_ad_hoc (const char * const *server_args)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(GPtrArray) out_lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) err_lines = g_ptr_array_new_with_free_func (g_free);
  LineWait wait = {
    err_lines, "Subscribed to demo://resource/static/document/features.md of “mcp-servers/everything”", 1,
  };

  g_ptr_array_add (args, (char *) "subscribe");
  g_ptr_array_add (args, (char *) "demo://resource/static/document/features.md");
  for (guint j = 0; server_args[j] != NULL; j++)
    g_ptr_array_add (args, (char *) server_args[j]);
  g_ptr_array_add (args, NULL);

  g_assert_cmpint (run_until_interrupted ((const char * const *) args->pdata, out_lines, err_lines, &wait,
                                          "the subscription"), ==, 130);
  g_assert_cmpuint (count_updates (err_lines, "plugboard-cli:"), ==, 0);
}

/* Point 8: each verb on one server with the server after @server_args
 * (NULL-terminated: "--" and the command, or --http/--sse and the URL). */
static void
check_verbs_ad_hoc (const char * const *server_args)
{
  static const char * const verbs[][6] = {
    { "resources", NULL },
    { "templates", NULL },
    { "read", "demo://resource/static/document/features.md", NULL },
    { "prompts", NULL },
    { "prompt", "args-prompt", "--arg", "city=Berlin", NULL },
    { "log-level", "debug", NULL },
    { "tasks", "--json", NULL },
    { "complete", "--prompt", "completable-prompt", "department", "Sa", NULL },
  };
  static const char * const expected[] = {
    "demo://resource/static/document/architecture.md",
    "demo://resource/dynamic/text/{resourceId}",
    "# ",
    "completable-prompt",
    "Berlin",
    "now sends log messages of level debug and above",
    "[",
    "Sales\n",
  };

  G_STATIC_ASSERT (G_N_ELEMENTS (verbs) == G_N_ELEMENTS (expected));

  for (guint i = 0; i < G_N_ELEMENTS (verbs); i++)
    {
      g_autoptr(GPtrArray) args = g_ptr_array_new ();
      g_auto(TestRun) run = { 0 };

      for (guint j = 0; verbs[i][j] != NULL; j++)
        g_ptr_array_add (args, (char *) verbs[i][j]);
      for (guint j = 0; server_args[j] != NULL; j++)
        g_ptr_array_add (args, (char *) server_args[j]);
      g_ptr_array_add (args, NULL);

      run_cli_full (&run, NULL, (const char * const *) args->pdata);
      g_test_message ("%s: %s", verbs[i][0], run.out);
      assert_success (&run, verbs[i][0]);
      g_assert_nonnull (strstr (run.out, expected[i]));
    }

  check_subscribe_ad_hoc (server_args);
}

static void
test_ad_hoc_stdio (void)
{
  if (!have_servers ())
    return;
  check_verbs_ad_hoc ((const char *[]) { "--", node_path, everything_script, "stdio", NULL });
}

static void
test_ad_hoc_http (void)
{
  g_auto(Everything) server = { 0 };
  g_autofree char *url = NULL;

  if (!have_servers ())
    return;
  everything_start (&server, "streamableHttp");
  url = g_strdup_printf ("http://127.0.0.1:%u/mcp", server.port);
  check_verbs_ad_hoc ((const char *[]) { "--http", url, NULL });
}

static void
test_ad_hoc_sse (void)
{
  g_auto(Everything) server = { 0 };
  g_autofree char *url = NULL;

  if (!have_servers ())
    return;
  everything_start (&server, "sse");
  url = g_strdup_printf ("http://127.0.0.1:%u/sse", server.port);
  check_verbs_ad_hoc ((const char *[]) { "--sse", url, NULL });
}

/* The ad-hoc form takes no NAME: a word too many is refused, naming it. */
static void
test_ad_hoc_usage (void)
{
  g_auto(TestRun) extra = { 0 };
  g_auto(TestRun) missing = { 0 };
  g_auto(TestRun) help = { 0 };

  if (!have_servers ())
    return;

  run_cli (&extra, "resources", "everything", "--", node_path, everything_script, "stdio");
  g_assert_cmpint (extra.exit_status, ==, 2);
  test_cli_assert_failure_line (extra.err, "Unexpected argument “everything”");

  run_cli (&missing, "read", "--http", "http://127.0.0.1:9/mcp");
  g_assert_cmpint (missing.exit_status, ==, 2);
  test_cli_assert_failure_line (missing.err, "Missing the URI of the resource");

  /* --help says the ad-hoc form. */
  run_cli (&help, "--help");
  g_assert_cmpint (help.exit_status, ==, 0);
  g_assert_nonnull (strstr (help.err, "prompt, complete, skills, skill, subscribe, log-level and tasks"));
  g_assert_nonnull (strstr (help.err, "  complete "));
  g_assert_nonnull (strstr (help.err, "  subscribe "));
}

/* What an ad-hoc server does not offer is said with the name it gives
 * itself, not the command's. */
static void
test_ad_hoc_none (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autofree char *script = NULL;
  g_auto(TestRun) prompts = { 0 };
  g_auto(TestRun) unknown = { 0 };

  if (!have_servers ())
    return;
  test_dirs_init (&dirs, "cli-verbs");
  script = write_verbs_script (&dirs);

  run_cli (&prompts, "prompts", "--", node_path, script);
  assert_success (&prompts, "prompts");
  g_assert_cmpstr (prompts.out, ==, "“verbs-fixture” does not offer prompts "
                                    "(its capabilities do not declare “prompts”).\n");

  run_cli (&unknown, "prompt", "nothing", "--", node_path, everything_script, "stdio");
  g_assert_cmpint (unknown.exit_status, ==, 3);
  test_cli_assert_failure_line (unknown.err, "“mcp-servers/everything” has no prompt “nothing”");
}

/* complete: a prompt's argument, then the next one with the first in the
 * context, a template's argument, --json; and what is refused. */
static void
test_complete (void)
{
  g_auto(TestRun) department = { 0 };
  g_auto(TestRun) name = { 0 };
  g_auto(TestRun) template = { 0 };
  g_auto(TestRun) json = { 0 };
  g_auto(TestRun) neither = { 0 };
  g_auto(TestRun) both = { 0 };
  g_auto(TestRun) context = { 0 };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;

  if (!have_servers ())
    return;

  run_cli (&department, "complete", "--prompt", "completable-prompt", "department", "",
           "--", node_path, everything_script, "stdio");
  assert_success (&department, "complete department");
  g_assert_cmpstr (department.out, ==, "Engineering\nSales\nMarketing\nSupport\n");

  run_cli (&name, "complete", "--prompt", "completable-prompt", "name", "--context", "department=Sales",
           "--", node_path, everything_script, "stdio");
  assert_success (&name, "complete name");
  g_assert_cmpstr (name.out, ==, "David\nEve\nFrank\n");

  run_cli (&template, "complete", "--template", "demo://resource/dynamic/text/{resourceId}", "resourceId", "1",
           "--", node_path, everything_script, "stdio");
  assert_success (&template, "complete template");
  g_assert_cmpstr (template.out, ==, "1\n");

  run_cli (&json, "complete", "--json", "--prompt", "completable-prompt", "department", "E",
           "--", node_path, everything_script, "stdio");
  assert_success (&json, "complete --json");
  root = test_cli_parse_json (json.out);
  object = json_node_get_object (root);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "values")), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (json_object_get_array_member (object, "values"), 0), ==,
                   "Engineering");
  g_assert_false (json_object_get_boolean_member (object, "hasMore"));

  run_cli (&neither, "complete", "department", "--", node_path, everything_script, "stdio");
  g_assert_cmpint (neither.exit_status, ==, 2);
  test_cli_assert_failure_line (neither.err, "--prompt PROMPT or --template URI-TEMPLATE");

  run_cli (&both, "complete", "--prompt", "p", "--template", "t", "a", "--", node_path, everything_script, "stdio");
  g_assert_cmpint (both.exit_status, ==, 2);

  run_cli (&context, "complete", "--prompt", "p", "--context", "nothing", "a",
           "--", node_path, everything_script, "stdio");
  g_assert_cmpint (context.exit_status, ==, 2);
  test_cli_assert_failure_line (context.err, "--context “nothing” is not of the form NAME=VALUE");
}

/* A server without the completions capability is said to offer none. */
static void
test_complete_unsupported (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autofree char *script = NULL;
  g_auto(TestRun) run = { 0 };

  if (!have_servers ())
    return;
  test_dirs_init (&dirs, "cli-verbs");
  script = write_verbs_script (&dirs);

  run_cli (&run, "complete", "--prompt", "p", "a", "--", node_path, script);
  g_assert_cmpint (run.exit_status, ==, 3);
  test_cli_assert_failure_line (run.err, "does not offer completions");
  g_assert_cmpstr (run.out, ==, "");
}

/* subscribe: a line per update of that URI (not of another), the contents
 * with --read; Ctrl-C unsubscribes and exits 130. */
static void
test_subscribe (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autofree char *script = NULL;
  g_autofree char *mark = NULL;
  g_autofree char *marked = NULL;
  g_autoptr(GPtrArray) out_lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) err_lines = g_ptr_array_new_with_free_func (g_free);
  LineWait wait = { out_lines, " updated: test://counter", 3 };
  gboolean saw_contents = FALSE;
  int status;

  if (!have_servers ())
    return;
  test_dirs_init (&dirs, "cli-verbs");
  script = write_verbs_script (&dirs);
  mark = g_build_filename (dirs.root, "unsubscribed", NULL);

  status = run_until_interrupted (TEST_CLI_ARGS ("subscribe", "test://counter", "--read",
                                                 "--", node_path, script, "sub", mark),
                                  out_lines, err_lines, &wait, "three updates of test://counter");

  g_assert_cmpint (status, ==, 130);
  g_assert_cmpuint (count_updates (out_lines, "test://other"), ==, 0);
  for (guint i = 0; i < out_lines->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (out_lines, i), "  count "))
      saw_contents = TRUE;
  g_assert_true (saw_contents);
  g_assert_cmpuint (count_updates (err_lines, "Subscribed to test://counter"), ==, 1);
  g_assert_cmpuint (count_updates (err_lines, "cancelled"), ==, 0);

  /* The server was told. */
  marked = test_read_file (mark);
  g_assert_cmpstr (marked, ==, "unsubscribed test://counter");
}

/* A server that does not declare resources.subscribe is refused before
 * anything is asked; so is a missing URI. */
static void
test_subscribe_unsupported (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autofree char *script = NULL;
  g_auto(TestRun) run = { 0 };
  g_auto(TestRun) missing = { 0 };

  if (!have_servers ())
    return;
  test_dirs_init (&dirs, "cli-verbs");
  script = write_verbs_script (&dirs);

  run_cli (&run, "subscribe", "test://counter", "--", node_path, script, "nosub");
  g_assert_cmpint (run.exit_status, ==, 3);
  test_cli_assert_failure_line (run.err, "“verbs-fixture” does not offer subscriptions "
                                "(its capabilities do not declare “resources.subscribe”)");

  run_cli (&missing, "subscribe", "--", node_path, script);
  g_assert_cmpint (missing.exit_status, ==, 2);
  test_cli_assert_failure_line (missing.err, "Missing the URI of the resource");
}

/* call --tool-arg: each value typed by its property's type. */
static void
test_tool_arg_types (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autofree char *script = NULL;
  g_auto(TestRun) run = { 0 };
  g_auto(TestRun) over = { 0 };
  g_auto(TestRun) sum = { 0 };
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonNode) arguments = NULL;
  JsonObject *object;
  const char *text;

  if (!have_servers ())
    return;
  test_dirs_init (&dirs, "cli-verbs");
  script = write_verbs_script (&dirs);

  run_cli (&run, "call", "show", "--json",
           "--tool-arg", "s=007", "--tool-arg", "n=-3", "--tool-arg", "x=2.5", "--tool-arg", "flag=false",
           "--tool-arg", "obj={\"a\": [1]}", "--tool-arg", "list=[1, \"two\"]", "--tool-arg", "nothing=null",
           "--tool-arg", "any=12", "--tool-arg", "multi=abc",
           "--", node_path, script);
  assert_success (&run, "call show");
  root = test_cli_parse_json (run.out);
  text = json_object_get_string_member (json_array_get_object_element (
           json_object_get_array_member (json_node_get_object (root), "content"), 0), "text");
  arguments = test_cli_parse_json (text);
  object = json_node_get_object (arguments);
  g_assert_cmpstr (json_object_get_string_member (object, "s"), ==, "007");
  g_assert_cmpint (json_object_get_int_member (object, "n"), ==, -3);
  g_assert_cmpfloat (json_object_get_double_member (object, "x"), ==, 2.5);
  g_assert_true (JSON_NODE_HOLDS_VALUE (json_object_get_member (object, "flag")));
  g_assert_false (json_object_get_boolean_member (object, "flag"));
  g_assert_cmpint (json_array_get_int_element (json_object_get_array_member (
                     json_object_get_object_member (object, "obj"), "a"), 0), ==, 1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (object, "list")), ==, 2);
  g_assert_true (json_object_get_null_member (object, "nothing"));
  g_assert_cmpint (json_object_get_int_member (object, "any"), ==, 12);
  g_assert_cmpstr (json_object_get_string_member (object, "multi"), ==, "abc");

  /* --tool-arg wins over the same key in --args; the rest of --args stays. */
  run_cli (&over, "call", "show", "--args", "{\"s\": \"from args\", \"n\": 1}", "--tool-arg", "s=from tool-arg",
           "--", node_path, script);
  assert_success (&over, "call show --args --tool-arg");
  g_assert_nonnull (strstr (over.out, "\"s\":\"from tool-arg\""));
  g_assert_nonnull (strstr (over.out, "\"n\":1"));

  /* server-everything's get-sum: numbers, whatever they look like. */
  run_cli (&sum, "call", "get-sum", "--tool-arg", "a=1e1", "--tool-arg", "b=-0.5",
           "--", node_path, everything_script, "stdio");
  assert_success (&sum, "call get-sum");
  g_assert_cmpstr (sum.out, ==, "The sum of 10 and -0.5 is 9.5.\n");
}

/* Values that are not of their type, keys the schema refuses, and forms
 * that are not KEY=VALUE: usage errors naming the key and the type. */
static void
test_tool_arg_errors (void)
{
  static const struct
  {
    const char *arg;
    const char *needle;
  } cases[] = {
    { "n=2.5", "--tool-arg n: the value is not of type integer" },
    { "n=12abc", "--tool-arg n: the value is not of type integer" },
    { "x=", "--tool-arg x: the value is not of type number" },
    { "x= 1", "--tool-arg x: the value is not of type number" },
    { "x=Infinity", "--tool-arg x: the value is not of type number" },
    { "flag=yes", "--tool-arg flag: the value is not of type boolean" },
    { "obj=[1]", "--tool-arg obj: the value is not of type object" },
    { "list={", "--tool-arg list: the value is not of type array" },
    { "nothing=0", "--tool-arg nothing: the value is not of type null" },
    { "typo=1", "--tool-arg typo: the tool “show” takes no argument “typo” (it takes s, n, x, flag, obj, "
                "list, nothing, any, multi)" },
    { "=1", "is not of the form KEY=VALUE" },
    { "secret-without-equals", "is not of the form KEY=VALUE" },
  };
  g_auto(TestDirs) dirs = { 0 };
  g_autofree char *script = NULL;
  g_auto(TestRun) twice = { 0 };
  g_auto(TestRun) open = { 0 };

  if (!have_servers ())
    return;
  test_dirs_init (&dirs, "cli-verbs");
  script = write_verbs_script (&dirs);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(TestRun) run = { 0 };

      run_cli (&run, "call", "show", "--tool-arg", cases[i].arg, "--", node_path, script);
      g_test_message ("%s: %s", cases[i].arg, run.err);
      g_assert_cmpint (run.exit_status, ==, 2);
      test_cli_assert_failure_line (run.err, cases[i].needle);
      g_assert_cmpstr (run.out, ==, "");
      /* The server was not called: no log message of its call. */
      g_assert_null (strstr (run.err, "server log"));
    }

  run_cli (&twice, "call", "show", "--tool-arg", "s=a", "--tool-arg", "s=b", "--", node_path, script);
  g_assert_cmpint (twice.exit_status, ==, 2);
  test_cli_assert_failure_line (twice.err, "--tool-arg s is given twice");

  /* A schema that allows other members: sent, with a warning. */
  run_cli (&open, "call", "open", "--tool-arg", "extra=[true]", "--", node_path, script);
  assert_success (&open, "call open");
  g_assert_nonnull (strstr (open.out, "\"extra\":[true]"));
  g_assert_nonnull (strstr (open.err, "warning: the inputSchema of “open” has no property “extra”"));
}

/* The server's log messages during call go to stderr, one line each and
 * escaped, never to stdout — for an ad-hoc server and a configured one. */
static void
test_call_log_on_stderr (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autofree char *script = NULL;
  g_autofree char *settings = NULL;
  g_autofree char *node_json = NULL;
  g_autofree char *script_json = NULL;
  g_auto(TestRun) ad_hoc = { 0 };
  g_auto(TestRun) configured = { 0 };
  g_autoptr(JsonNode) root = NULL;
  const char *line = "server log [warning] fixture: first line second\\u001b[31m line\n";

  if (!have_servers ())
    return;
  test_dirs_init_cli (&dirs, "cli-verbs");
  script = write_verbs_script (&dirs);

  run_cli (&ad_hoc, "call", "show", "--json", "--", node_path, script);
  assert_success (&ad_hoc, "call show");
  g_assert_nonnull (strstr (ad_hoc.err, line));
  g_assert_null (strstr (ad_hoc.out, "first line"));
  root = test_cli_parse_json (ad_hoc.out);
  g_assert_nonnull (root);

  node_json = test_json_string (node_path);
  script_json = test_json_string (script);
  settings = g_strdup_printf ("{\"mcpServers\": {\"verbs\": {\"command\": %s, \"args\": [%s]}},"
                              " \"permissions\": {\"allow\": [\"mcp__verbs\"]}}",
                              node_json, script_json);
  test_write_file (dirs.user_file, settings);
  run_cli_full (&configured, &dirs, TEST_CLI_ARGS ("call", "verbs", "show", "--tool-arg", "s=x"));
  assert_success (&configured, "call verbs show");
  g_assert_nonnull (strstr (configured.err, line));
  g_assert_cmpstr (configured.out, ==, "{\"s\":\"x\"}\n");
}

/* list --json and get --json parse, say the state and mask the secrets;
 * get shows the server's instructions. */
static void
test_list_get_json (void)
{
  g_auto(TestDirs) dirs = { 0 };
  g_autofree char *script = NULL;
  g_autofree char *settings = NULL;
  g_autofree char *node_json = NULL;
  g_autofree char *script_json = NULL;
  g_auto(TestRun) list = { 0 };
  g_auto(TestRun) get = { 0 };
  g_auto(TestRun) get_text = { 0 };
  g_auto(TestRun) remote = { 0 };
  g_autoptr(JsonNode) list_root = NULL;
  g_autoptr(JsonNode) get_root = NULL;
  g_autoptr(JsonNode) remote_root = NULL;
  JsonArray *servers;
  JsonObject *object, *entry;

  if (!have_servers ())
    return;
  test_dirs_init_cli (&dirs, "cli-verbs");
  script = write_verbs_script (&dirs);

  node_json = test_json_string (node_path);
  script_json = test_json_string (script);
  settings = g_strdup_printf ("{\"mcpServers\": {"
                              "\"verbs\": {\"command\": %s, \"args\": [%s], \"env\": {\"API_KEY\": \"sekrit-env\"}},"
                              "\"remote\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:9/mcp?key=sekrit-query\","
                              " \"headers\": {\"Authorization\": \"Bearer sekrit-header\"},"
                              " \"oauth\": {\"clientId\": \"pub-id\", \"clientSecret\": \"sekrit-oauth\"}}}}",
                              node_json, script_json);
  test_write_file (dirs.user_file, settings);

  run_cli_full (&list, &dirs, TEST_CLI_ARGS ("list", "--json"));
  assert_success (&list, "list --json");
  g_assert_null (strstr (list.out, "sekrit"));
  list_root = test_cli_parse_json (list.out);
  servers = json_node_get_array (list_root);
  g_assert_cmpuint (json_array_get_length (servers), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      object = json_array_get_object_element (servers, i);
      g_assert_cmpstr (json_object_get_string_member (object, "scope"), ==, "user");
      g_assert_true (json_object_get_boolean_member (object, "enabled"));
      g_assert_cmpstr (json_object_get_string_member (object, "approval"), ==, "not-needed");
      if (g_str_equal (json_object_get_string_member (object, "name"), "verbs"))
        {
          g_assert_cmpstr (json_object_get_string_member (object, "transport"), ==, "stdio");
          g_assert_cmpstr (json_object_get_string_member (object, "state"), ==, "connected");
          g_assert_true (json_object_get_null_member (object, "error"));
        }
      else
        {
          g_assert_cmpstr (json_object_get_string_member (object, "transport"), ==, "http");
          g_assert_cmpstr (json_object_get_string_member (object, "state"), ==, "failed");
          g_assert_nonnull (json_object_get_string_member (object, "error"));
        }
    }

  run_cli_full (&get, &dirs, TEST_CLI_ARGS ("get", "verbs", "--json"));
  assert_success (&get, "get --json");
  g_assert_null (strstr (get.out, "sekrit"));
  get_root = test_cli_parse_json (get.out);
  object = json_node_get_object (get_root);
  g_assert_cmpstr (json_object_get_string_member (object, "name"), ==, "verbs");
  g_assert_cmpstr (json_object_get_string_member (object, "state"), ==, "connected");
  g_assert_cmpstr (json_object_get_string_member (object, "file"), ==, dirs.user_file);
  entry = json_object_get_object_member (object, "entry");
  g_assert_cmpstr (json_object_get_string_member (entry, "command"), ==, node_path);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (entry, "env"), "API_KEY"), ==,
                   "***");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (object, "serverInfo"), "name"),
                   ==, "verbs-fixture");
  g_assert_true (json_object_has_member (json_object_get_object_member (object, "capabilities"), "tools"));
  g_assert_cmpstr (json_object_get_string_member (object, "instructions"), ==,
                   "Call show with anything.\nIt echoes the arguments.");

  run_cli_full (&remote, &dirs, TEST_CLI_ARGS ("get", "remote", "--json"));
  assert_success (&remote, "get remote --json");
  g_assert_null (strstr (remote.out, "sekrit"));
  remote_root = test_cli_parse_json (remote.out);
  entry = json_object_get_object_member (json_node_get_object (remote_root), "entry");
  g_assert_cmpstr (json_object_get_string_member (entry, "url"), ==, "http://127.0.0.1:9/mcp?key=***");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (entry, "headers"),
                                                  "Authorization"), ==, "***");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (entry, "oauth"), "clientId"),
                   ==, "pub-id");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (entry, "oauth"), "clientSecret"),
                   ==, "***");

  run_cli_full (&get_text, &dirs, TEST_CLI_ARGS ("get", "verbs"));
  assert_success (&get_text, "get");
  g_assert_nonnull (strstr (get_text.out, "  instructions:\n    Call show with anything.\n"
                                          "    It echoes the arguments.\n"));
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);

  cli_path = g_getenv ("MCP_TEST_PLUGBOARD_CLI");

  g_test_add_func ("/cli-verbs/ad-hoc/stdio", test_ad_hoc_stdio);
  g_test_add_func ("/cli-verbs/ad-hoc/http", test_ad_hoc_http);
  g_test_add_func ("/cli-verbs/ad-hoc/sse", test_ad_hoc_sse);
  g_test_add_func ("/cli-verbs/ad-hoc/usage", test_ad_hoc_usage);
  g_test_add_func ("/cli-verbs/ad-hoc/none", test_ad_hoc_none);
  g_test_add_func ("/cli-verbs/complete", test_complete);
  g_test_add_func ("/cli-verbs/complete/unsupported", test_complete_unsupported);
  g_test_add_func ("/cli-verbs/subscribe", test_subscribe);
  g_test_add_func ("/cli-verbs/subscribe/unsupported", test_subscribe_unsupported);
  g_test_add_func ("/cli-verbs/call/tool-arg/types", test_tool_arg_types);
  g_test_add_func ("/cli-verbs/call/tool-arg/errors", test_tool_arg_errors);
  g_test_add_func ("/cli-verbs/call/log-on-stderr", test_call_log_on_stderr);
  g_test_add_func ("/cli-verbs/list-get-json", test_list_get_json);

  status = g_test_run ();

  g_free (node_path);
  g_free (everything_script);
  return status;
}
