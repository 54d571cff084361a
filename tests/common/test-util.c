/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-util"

#include "config.h"

#include "test-util.h"

#include <signal.h>
#include <string.h>
#include <sys/prctl.h>

#include <glib/gstdio.h>

static guint hang_bound_s = TEST_HANG_BOUND_S;

void
test_set_hang_bound (guint seconds)
{
  g_assert_cmpuint (seconds, >, 0);
  hang_bound_s = seconds;
}

guint
test_get_hang_bound (void)
{
  return hang_bound_s;
}

static gboolean
hang_cb (gpointer user_data)
{
  const char *what = user_data;

  g_error ("the test hung: %s did not happen within %u s",
           what != NULL ? what : "what it waited for", hang_bound_s);
  return G_SOURCE_REMOVE;
}

guint
test_hang_guard (const char *what)
{
  return g_timeout_add_seconds (hang_bound_s, hang_cb, (gpointer) what);
}

static gboolean
set_flag_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

guint
test_deadline (guint     seconds,
               gboolean *expired)
{
  *expired = FALSE;
  return g_timeout_add_seconds (seconds, set_flag_cb, expired);
}

void
test_iterate_until (TestCondition  condition,
                    gpointer       data,
                    const char    *what)
{
  guint guard = test_hang_guard (what);

  while (!condition (data))
    g_main_context_iteration (NULL, TRUE);

  g_source_remove (guard);
}

gboolean
test_flag_set (gpointer data)
{
  return *(gboolean *) data;
}

void
test_iterate_pending (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

void
test_wait_ms (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, set_flag_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

void
test_result_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

gboolean
test_result_set (gpointer data)
{
  return *(GAsyncResult **) data != NULL;
}

GAsyncResult *
test_wait_result (GAsyncResult **result,
                  const char    *what)
{
  test_iterate_until (test_result_set, result, what);
  return *result;
}

const char *
test_fixture_server (void)
{
  const char *path = g_getenv ("MCP_TEST_FIXTURE_SERVER");

  g_assert_nonnull (path);
  return path;
}

char *
test_find_node (void)
{
  const char *node = g_getenv ("MCP_TEST_NODE");

  return node != NULL && *node != '\0' ? g_find_program_in_path (node) : NULL;
}

char *
test_find_node_module (const char *module_path)
{
  const char *modules = g_getenv ("MCP_TEST_NODE_MODULES");
  g_autofree char *path = NULL;

  if (modules == NULL)
    return NULL;
  path = g_build_filename (modules, module_path, NULL);
  return g_file_test (path, G_FILE_TEST_EXISTS) ? g_steal_pointer (&path) : NULL;
}

gboolean
test_have_node_script (const char *node,
                       const char *script)
{
  if (node == NULL)
    {
      g_test_skip ("node (MCP_TEST_NODE) is missing");
      return FALSE;
    }
  if (script == NULL)
    {
      g_test_skip ("a script of MCP_TEST_NODE_MODULES is missing (npm ci --prefix tests)");
      return FALSE;
    }
  return TRUE;
}

char *
test_sdk_script_server (const char *dir,
                        const char *name,
                        const char *script_format)
{
  g_autofree char *node_path = test_find_node ();
  g_autofree char *sdk = test_find_node_module ("@modelcontextprotocol/sdk/dist/esm");
  g_autofree char *sdk_uri = NULL;
  g_autofree char *script = NULL;
  g_autofree char *file = g_strdup_printf ("%s.mjs", name);
  g_autofree char *script_path = NULL;
  g_autoptr(GError) error = NULL;

  if (node_path == NULL || sdk == NULL)
    return NULL;

  sdk_uri = g_filename_to_uri (sdk, NULL, &error);
  g_assert_no_error (error);
  /* The format is the test's own script. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  script = g_strdup_printf (script_format, sdk_uri);
#pragma GCC diagnostic pop
  script_path = g_build_filename (dir, file, NULL);
  g_file_set_contents (script_path, script, -1, &error);
  g_assert_no_error (error);

  return g_strdup_printf ("\"%s\": {\"command\": \"%s\", \"args\": [\"%s\"]}",
                          name, node_path, script_path);
}

gboolean
test_have_program (const char *path,
                   const char *variable)
{
  if (path == NULL || !g_file_test (path, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip_printf ("%s is not set or not built", variable);
      return FALSE;
    }
  return TRUE;
}

gboolean
test_find_everything (char **out_node,
                      char **out_script)
{
  g_autofree char *node_path = test_find_node ();
  g_autofree char *script = test_find_node_module (TEST_EVERYTHING_SCRIPT);

  if (!test_have_node_script (node_path, script))
    return FALSE;

  *out_node = g_steal_pointer (&node_path);
  *out_script = g_steal_pointer (&script);
  return TRUE;
}

void
test_die_with_parent (gpointer user_data)
{
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

guint16
test_pick_port (void)
{
  g_autoptr(GSocket) socket = NULL;
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(GError) error = NULL;
  guint16 port;

  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  g_socket_bind (socket, any, FALSE, &error);
  g_assert_no_error (error);
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);
  port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  g_socket_close (socket, NULL);

  return port;
}

char *
test_write_loopback_module (const char *dir)
{
  static const char module[] =
    "import net from 'node:net';\n"
    "const listen = net.Server.prototype.listen;\n"
    "net.Server.prototype.listen = function (...args) {\n"
    "  if (args[0] === 3000 && process.env.PLUGBOARD_TEST_PORT)\n"
    "    args[0] = parseInt (process.env.PLUGBOARD_TEST_PORT, 10);\n"
    "  const port = args[0];\n"
    "  if ((typeof port === 'number' || (typeof port === 'string' && /^[0-9]+$/.test (port)))\n"
    "      && typeof args[1] !== 'string')\n"
    "    args.splice (1, 0, '127.0.0.1');\n"
    "  return listen.apply (this, args);\n"
    "};\n";
  g_autofree char *path = g_build_filename (dir, "loopback.mjs", NULL);
  g_autoptr(GError) error = NULL;
  char *uri;

  test_write_file (path, module);
  uri = g_filename_to_uri (path, NULL, &error);
  g_assert_no_error (error);
  return uri;
}

void
test_wait_listening (guint16     port,
                     guint       seconds,
                     const char *what)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) seconds * G_USEC_PER_SEC;

  for (;;)
    {
      g_autoptr(GSocketClient) client = g_socket_client_new ();
      g_autoptr(GSocketConnection) connection = NULL;

      connection = g_socket_client_connect_to_host (client, "127.0.0.1", port, NULL, NULL);
      if (connection != NULL)
        return;
      if (g_get_monotonic_time () > deadline)
        g_error ("%s did not listen on 127.0.0.1:%u within %u s", what, port, seconds);
      g_usleep (100 * 1000);
    }
}

void
test_write_file (const char *path,
                 const char *contents)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
}

char *
test_read_listening (GSubprocess *process)
{
  g_autoptr(GDataInputStream) out = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;

  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));
  line = g_data_input_stream_read_line_utf8 (out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (line);
  g_assert_true (g_str_has_prefix (line, "listening on "));
  return g_strdup (line + strlen ("listening on "));
}

guint16
test_read_listening_port (GSubprocess *process)
{
  g_autofree char *where = test_read_listening (process);
  guint64 port = 0;

  g_assert_true (g_ascii_string_to_unsigned (where, 10, 1, G_MAXUINT16, &port, NULL));
  return (guint16) port;
}

char *
test_read_modern_fixture_url (GSubprocess *process)
{
  g_autoptr(GDataInputStream) out = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  guint64 port = 0;

  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));
  line = g_data_input_stream_read_line_utf8 (out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (line);
  g_assert_true (g_str_has_prefix (line, "PORT "));
  g_assert_true (g_ascii_string_to_unsigned (line + 5, 10, 1, G_MAXUINT16, &port, NULL));
  return g_strdup_printf ("http://127.0.0.1:%u/mcp", (guint) port);
}

char *
test_read_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);

  return contents;
}

void
test_remove_tree (const char *path)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (g_file_test (path, G_FILE_TEST_IS_SYMLINK) || !g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_unlink (path);
      return;
    }

  dir = g_dir_open (path, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      test_remove_tree (child);
    }
  g_rmdir (path);
}
