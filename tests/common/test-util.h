/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* What the engine's tests need again and again, once. No GTK here: the
 * app's tests add theirs in tests/ui/ui-test-common.h. */

/* ------------------------------------------------------------------------ */
/* Waiting on the main context                                              */

/* Every wait below is bounded: when what it waits for has not come within
 * the hang bound, the test fails (g_error) saying what it waited for, rather
 * than running into meson's timeout. The bound only catches a hang; nothing
 * is timed against it. It is TEST_HANG_BOUND_S unless main() sets another
 * with test_set_hang_bound() (before g_test_run()). A @what of NULL is said
 * as "what it waited for". */
#define TEST_HANG_BOUND_S 60

void      test_set_hang_bound (guint          seconds);
guint     test_get_hang_bound (void);

/* A timeout source that fails the test, naming @what, once the hang bound
 * has passed; g_source_remove() it when the wait is over. For a wait
 * written out by hand. */
guint     test_hang_guard     (const char    *what);

/* A timeout source that only sets *@expired (first set to FALSE) to TRUE
 * after @seconds, for a wait that has to clean up (stop a process) before
 * it fails, or that gives up; remove it when the wait is over, unless it
 * expired. */
guint     test_deadline       (guint          seconds,
                               gboolean      *expired);

typedef gboolean (*TestCondition) (gpointer data);

/* Runs the main context until @condition (@data) holds; a hang fails the
 * test naming @what. */
void      test_iterate_until  (TestCondition  condition,
                               gpointer       data,
                               const char    *what);

/* The same for an expression, which names itself: TEST_WAIT_UNTIL (n > 2). */
#define TEST_WAIT_UNTIL(cond)                                           \
  G_STMT_START {                                                        \
    guint test_guard_ = test_hang_guard (#cond);                        \
    while (!(cond))                                                     \
      g_main_context_iteration (NULL, TRUE);                            \
    g_source_remove (test_guard_);                                      \
  } G_STMT_END

/* A TestCondition: *(gboolean *) @data. */
gboolean  test_flag_set       (gpointer       data);

/* Dispatches what is ready, without blocking. */
void      test_iterate_pending (void);

/* Runs the main context for @ms (not a wait for anything: a test that
 * checks nothing happens meanwhile, or lets a display settle). */
void      test_wait_ms        (guint          ms);

/* ------------------------------------------------------------------------ */
/* Async results                                                            */

/* An async callback that keeps the result in the GAsyncResult * that
 * @user_data points to (a reference: g_autoptr it); test_result_set() is
 * its TestCondition, and test_wait_result() waits for it and returns it. */
void      test_result_cb      (GObject       *object,
                               GAsyncResult  *result,
                               gpointer       user_data);
gboolean  test_result_set     (gpointer       data);
GAsyncResult *test_wait_result (GAsyncResult **result,
                                const char    *what);

/* ------------------------------------------------------------------------ */
/* Fixtures and files                                                       */

/* The path of mcp-fixture-server (MCP_TEST_FIXTURE_SERVER, which meson
 * sets); the test fails when it is not set. */
const char *test_fixture_server (void);

/* Node programs from tests/node_modules (npm ci --prefix tests): the node
 * program (MCP_TEST_NODE, looked up in PATH) and a file of the modules
 * (below MCP_TEST_NODE_MODULES), or NULL when they are not there. A test
 * that needs them asks test_have_node_script() first, which skips it
 * (saying what is missing) and returns FALSE when either is NULL. */
#define TEST_EVERYTHING_SCRIPT "@modelcontextprotocol/server-everything/dist/index.js"

char     *test_find_node      (void);
char     *test_find_node_module (const char *module_path);
gboolean  test_have_node_script (const char *node,
                                 const char *script);

/* A server written against the MCP TypeScript SDK: @script_format (a
 * printf format whose one %s is the SDK's file: URI, for its imports) is
 * written to @dir/@name.mjs, and its "mcpServers" entry returned
 * ("@name": {"command": node, "args": [the script]}), or NULL when node or
 * the SDK is missing. */
char     *test_sdk_script_server (const char *dir,
                                  const char *name,
                                  const char *script_format);

/* Whether the program @path (from the environment variable @variable,
 * which meson sets) is there; when not, the test is skipped saying so. */
gboolean  test_have_program   (const char *path,
                               const char *variable);

/* node and server-everything's script in *@out_node and *@out_script, or
 * FALSE after skipping the test when either is missing. */
gboolean  test_find_everything (char **out_node,
                                char **out_script);

/* A GSpawnChildSetupFunc (g_subprocess_launcher_set_child_setup) for a
 * server the test starts: it is killed when the test dies, so a failed
 * assertion leaves no process behind. */
void      test_die_with_parent (gpointer     user_data);

/* A TCP port on 127.0.0.1 that was free a moment ago, for a server that
 * must be told its port. */
guint16   test_pick_port      (void);

/* For the TypeScript SDK's example servers, which listen on every
 * interface, some always on port 3000: writes @dir/loopback.mjs, a module
 * for node's --import that makes a server listen on 127.0.0.1 only (and on
 * $PLUGBOARD_TEST_PORT when it asks for port 3000), and returns its file:
 * URI. */
char     *test_write_loopback_module (const char *dir);
/* Waits until something listens on 127.0.0.1:@port, at most @seconds (then
 * the test fails naming @what). */
void      test_wait_listening (guint16     port,
                               guint       seconds,
                               const char *what);

/* The first line a fixture server (@process, spawned with a stdout pipe)
 * writes, which must be "listening on WHERE": WHERE (its port or its URL),
 * or the test fails. A blocking read: the test's own timeout bounds it. */
char     *test_read_listening      (GSubprocess   *process);
/* The same for a fixture that says its port: the port (1 to 65535). */
guint16   test_read_listening_port (GSubprocess   *process);
/* The URL of mcp-modern-fixture --port 0 (@process, spawned with a stdout
 * pipe), from the "PORT N" it writes first: http://127.0.0.1:N/mcp. */
char     *test_read_modern_fixture_url (GSubprocess *process);

/* The folders on the way are made; failures fail the test. */
void      test_write_file     (const char    *path,
                               const char    *contents);
char     *test_read_file      (const char    *path);
/* Removes @path and, for a folder, all it holds; a symbolic link is removed,
 * never followed. */
void      test_remove_tree    (const char    *path);

G_END_DECLS
