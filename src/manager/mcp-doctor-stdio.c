/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-doctor"

#include "config.h"

#include "mcp-doctor.h"
#include "mcp-doctor-private.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "mcp-error.h"
#include "mcp-redact.h"
#include "mcp-server-connection-private.h"
#include "mcp-stdio-transport.h"

/* The checks of a stdio server: the command, found and executable, its
 * interpreter, then the server started by the real McpStdioTransport and
 * McpClient, whose signals and errors say where it stopped. */

static const char * const interpreters[] = {
  "node", "npx", "uvx", "uv", "python3", "python", "docker", "bun", "deno", NULL
};

void
mcp_doctor_stdio_reset (McpDoctor *self)
{
  if (self->client != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->client, self);
      g_signal_handlers_disconnect_by_data (mcp_client_get_transport (self->client), self);
      if (mcp_client_get_state (self->client) != MCP_CLIENT_STATE_CLOSED ||
          !mcp_transport_is_closed (mcp_client_get_transport (self->client)))
        mcp_client_close_async (self->client, NULL, NULL, NULL);
      g_clear_object (&self->client);
    }
  g_clear_pointer (&self->program, g_free);
  g_clear_pointer (&self->interpreter, g_free);
  g_clear_error (&self->connect_error);
  g_clear_pointer (&self->invalid_line, g_free);
  g_clear_pointer (&self->stderr_lines, g_strfreev);
  self->connect_time = 0;
  self->exited = FALSE;
  self->wait_status = 0;
}

static const char *
search_path (McpDoctor *self)
{
  const char *path = mcp_doctor_getenv (self, "PATH");

  return path != NULL ? path : "/usr/bin:/bin";
}

/* The first @name in @path: an executable file, else any file of that
 * name (so that a file without the x bit is found, and said so). */
static char *
find_in (const char *name,
         const char *path,
         const char *cwd)
{
  g_auto(GStrv) dirs = g_strsplit (path, ":", -1);
  g_autofree char *other = NULL;

  for (guint i = 0; dirs[i] != NULL; i++)
    {
      const char *dir = dirs[i][0] != '\0' ? dirs[i] : ".";
      g_autofree char *candidate = NULL;

      if (!g_path_is_absolute (dir) && cwd != NULL)
        candidate = g_build_filename (cwd, dir, name, NULL);
      else
        candidate = g_build_filename (dir, name, NULL);

      if (g_file_test (candidate, G_FILE_TEST_IS_DIR) || !g_file_test (candidate, G_FILE_TEST_EXISTS))
        continue;
      if (g_file_test (candidate, G_FILE_TEST_IS_EXECUTABLE))
        return g_steal_pointer (&candidate);
      if (other == NULL)
        other = g_steal_pointer (&candidate);
    }

  return g_steal_pointer (&other);
}

/* ------------------------------------------------------------------------ */
/* Command found                                                            */

static void
on_login_shell_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(McpDoctor) self = user_data;
  const char *command = mcp_server_config_get_command (self->expanded);
  g_autofree char *output = NULL;
  g_autofree char *found = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  int wait_status = -1;

  output = mcp_doctor_run_command_finish (self, result, &wait_status, &error);
  if (mcp_doctor_step_aborted (self))
    return;

  /* What a profile prints comes first; `command -v` answers last. */
  if (output != NULL && g_spawn_check_wait_status (wait_status, NULL))
    {
      lines = g_strsplit (output, "\n", -1);
      for (guint i = 0; lines[i] != NULL; i++)
        {
          g_strstrip (lines[i]);
          if (g_path_is_absolute (lines[i]) && g_file_test (lines[i], G_FILE_TEST_EXISTS))
            {
              g_free (found);
              found = g_strdup (lines[i]);
            }
        }
    }

  if (found != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (found);
      g_autofree char *fix = NULL;

      fix = g_strdup_printf (_("Use the full path “%s” as the command, or add “%s” to PATH in the "
                               "server's “env”."), found, dir);
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL,
                            /* Translators: the first %s is a command, the second a folder,
                             * the third the list of folders in PATH */
                            g_strdup_printf (_("“%s” is found by your login shell in %s but not in "
                                               "Plugboard's PATH (%s)."),
                                             command, dir, search_path (self)),
                            fix);
      return;
    }

  mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL,
                        /* Translators: the first %s is a command, the second the folders in PATH */
                        g_strdup_printf (_("No “%s” in PATH (%s), nor in your login shell's PATH."),
                                         command, search_path (self)),
                        _("Install the program, or give its full path as the command."));
}

static void
check_command (McpDoctor *self)
{
  const char *command = mcp_server_config_get_command (self->expanded);
  const char *cwd = mcp_server_config_get_cwd (self->expanded);
  const char *shell;

  if (command == NULL || command[0] == '\0')
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL,
                            g_strdup (_("The server has no command.")),
                            _("Give it a “command” in its settings."));
      return;
    }

  if (strchr (command, '/') != NULL)
    {
      g_autofree char *full = NULL;

      if (!g_path_is_absolute (command) && cwd != NULL)
        full = g_build_filename (cwd, command, NULL);
      else
        full = g_strdup (command);

      if (!g_file_test (full, G_FILE_TEST_EXISTS))
        {
          mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL,
                                /* Translators: %s is a file's path */
                                g_strdup_printf (_("%s does not exist."), full),
                                _("Check the path in the server's “command”: the program may have "
                                  "moved or not be installed."));
          return;
        }
      self->program = g_steal_pointer (&full);
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_PASS,
                            /* Translators: %s is a file's path */
                            g_strdup_printf (_("The command is %s."), self->program), NULL);
      return;
    }

  self->program = find_in (command, search_path (self), cwd);
  if (self->program != NULL)
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_PASS,
                            /* Translators: the first %s is a file's path, the second the
                             * folders in PATH */
                            g_strdup_printf (_("Found %s in PATH (%s)."),
                                             self->program, search_path (self)),
                            NULL);
      return;
    }

  /* The classic case: nvm, asdf or Homebrew set PATH in a shell profile,
   * which a desktop app never reads. */
  shell = mcp_doctor_getenv (self, "SHELL");
  if (shell != NULL && g_path_is_absolute (shell) && g_file_test (shell, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_autofree char *quoted = g_shell_quote (command);
      g_autofree char *script = g_strdup_printf ("command -v %s", quoted);
      const char *argv[] = { shell, "-lc", script, NULL };

      mcp_doctor_run_command_async (self, argv, on_login_shell_cb, g_object_ref (self));
      return;
    }

  mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL,
                        g_strdup_printf (_("No “%s” in PATH (%s)."), command, search_path (self)),
                        _("Install the program, or give its full path as the command."));
}

/* ------------------------------------------------------------------------ */
/* Executable                                                               */

/* The program a "#!" line runs: "/usr/bin/env node" gives "node" looked
 * up in PATH; NULL in *@missing when it exists. */
static char *
read_interpreter (McpDoctor  *self,
                  const char *path,
                  char      **missing)
{
  g_autofree char *head = NULL;
  g_auto(GStrv) words = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) stream = NULL;
  char buffer[256];
  gssize n;
  guint i;

  *missing = NULL;
  /* A small local file, its first line only. */
  stream = g_file_read (file, NULL, NULL);
  if (stream == NULL)
    return NULL;
  n = g_input_stream_read (G_INPUT_STREAM (stream), buffer, sizeof buffer - 1, NULL, NULL);
  if (n < 2 || buffer[0] != '#' || buffer[1] != '!')
    return NULL;
  buffer[n] = '\0';
  head = g_strndup (buffer + 2, strcspn (buffer + 2, "\r\n"));
  words = g_strsplit_set (g_strstrip (head), " \t", -1);
  for (i = 0; words[i] != NULL && words[i][0] == '\0'; i++)
    ;
  if (words[i] == NULL)
    return NULL;

  if (!g_file_test (words[i], G_FILE_TEST_IS_EXECUTABLE))
    {
      *missing = g_strdup (words[i]);
      return NULL;
    }

  if (g_str_has_suffix (words[i], "/env"))
    {
      /* Flags such as -S come before the program. */
      for (i++; words[i] != NULL && (words[i][0] == '-' || words[i][0] == '\0'); i++)
        ;
      if (words[i] == NULL)
        return NULL;
      if (strchr (words[i], '/') == NULL)
        {
          g_autofree char *found = find_in (words[i], search_path (self),
                                            mcp_server_config_get_cwd (self->expanded));

          if (found == NULL)
            {
              *missing = g_strdup (words[i]);
              return NULL;
            }
        }
    }

  return g_path_get_basename (words[i]);
}

static void
check_executable (McpDoctor *self)
{
  g_autofree char *missing = NULL;
  GStatBuf st;

  if (g_stat (self->program, &st) != 0)
    {
      int saved = errno;

      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL,
                            g_strdup_printf ("%s: %s", self->program, g_strerror (saved)),
                            _("Check that the file exists and that you may read it."));
      return;
    }

  if (S_ISDIR (st.st_mode))
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL,
                            /* Translators: %s is a path */
                            g_strdup_printf (_("%s is a folder, not a program."), self->program),
                            _("Give the program inside it as the command."));
      return;
    }

  if (!g_file_test (self->program, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_autofree char *fix = NULL;

      /* Translators: %s is a path; the command in quotes is not translated */
      fix = g_strdup_printf (_("Make it executable (“chmod +x %s”), or run it through its "
                               "interpreter (e.g. “node”, “python3”) with the file as an argument."),
                             self->program);
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL,
                            /* Translators: %s is a path, %o its permission bits */
                            g_strdup_printf (_("%s is not executable (mode %o)."),
                                             self->program, (guint) (st.st_mode & 07777)),
                            fix);
      return;
    }

  self->interpreter = read_interpreter (self, self->program, &missing);
  if (missing != NULL)
    {
      g_autofree char *fix = NULL;

      /* Translators: %s is a program */
      fix = g_strdup_printf (_("Install “%s”, or change the script's first line (#!) to an "
                               "interpreter that is installed."), missing);
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL,
                            /* Translators: the first %s is a script's path, the second the
                             * interpreter its #! line names */
                            g_strdup_printf (_("%s is a script for “%s”, which is not installed "
                                               "or not executable."),
                                             self->program, missing),
                            fix);
      return;
    }

  mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_PASS,
                        /* Translators: %s is a path, %o its permission bits */
                        g_strdup_printf (_("%s is an executable file (mode %o)."),
                                         self->program, (guint) (st.st_mode & 07777)),
                        NULL);
}

/* ------------------------------------------------------------------------ */
/* Interpreter                                                              */

typedef struct
{
  McpDoctor *self;
  char      *name;
  GString   *seen;
  gboolean   then_node;   /* npx: node's version too */
} Version;

static void
version_free (Version *version)
{
  g_clear_object (&version->self);
  g_free (version->name);
  g_string_free (version->seen, TRUE);
  g_free (version);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Version, version_free)

static void ask_version (Version *version, const char *program);

static void
on_version_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(Version) version = user_data;
  McpDoctor *self = version->self;
  g_autofree char *output = NULL;
  g_autofree char *first = NULL;
  g_autoptr(GError) error = NULL;
  int wait_status = -1;

  output = mcp_doctor_run_command_finish (self, result, &wait_status, &error);
  if (mcp_doctor_step_aborted (self))
    return;

  if (output == NULL || !g_spawn_check_wait_status (wait_status, NULL))
    {
      g_autofree char *fix = NULL;
      g_autofree char *said = output != NULL ? mcp_doctor_quote (g_strstrip (output)) : NULL;

      /* Translators: %s is a program such as node or python3 */
      fix = g_strdup_printf (_("Reinstall “%s”, or check that the one found first in PATH is the "
                               "one you meant."), version->name);
      if (version->seen->len > 0)
        g_string_append_c (version->seen, '\n');
      /* Translators: the first %s is a program, the second what went wrong */
      g_string_append_printf (version->seen, _("“%s --version” failed: %s"), version->name,
                              error != NULL ? error->message : said != NULL ? said : "");
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL,
                            g_string_free (g_steal_pointer (&version->seen), FALSE), fix);
      version->seen = g_string_new (NULL);
      return;
    }

  first = g_strndup (output, strcspn (output, "\r\n"));
  {
    g_autofree char *quoted = mcp_doctor_quote (g_strstrip (first));

    if (version->seen->len > 0)
      g_string_append_c (version->seen, '\n');
    g_string_append_printf (version->seen, "%s %s", version->name, quoted);
  }

  if (version->then_node)
    {
      g_autofree char *node = find_in ("node", search_path (self),
                                       mcp_server_config_get_cwd (self->expanded));

      version->then_node = FALSE;
      g_free (version->name);
      version->name = g_strdup ("node");
      if (node == NULL)
        {
          mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL,
                                g_strdup_printf (_("%s\nbut no “node” in PATH (%s)."),
                                                 version->seen->str, search_path (self)),
                                _("npx needs node: install Node.js, or add the folder that holds "
                                  "“node” to PATH in the server's “env”."));
          return;
        }
      ask_version (g_steal_pointer (&version), node);
      return;
    }

  mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_PASS,
                        g_string_free (g_steal_pointer (&version->seen), FALSE), NULL);
  version->seen = g_string_new (NULL);
}

static void
ask_version (Version    *version,
             const char *program)
{
  const char *argv[] = { program, "--version", NULL };

  mcp_doctor_run_command_async (version->self, argv, on_version_cb, version);
}

static void
check_interpreter (McpDoctor *self)
{
  g_autofree char *name = g_path_get_basename (self->program);
  g_autofree char *program = NULL;
  Version *version;

  if (g_strv_contains (interpreters, name))
    program = g_strdup (self->program);
  else if (self->interpreter != NULL && g_strv_contains (interpreters, self->interpreter))
    {
      g_free (name);
      name = g_strdup (self->interpreter);
      program = find_in (name, search_path (self), mcp_server_config_get_cwd (self->expanded));
    }

  if (program == NULL)
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_SKIPPED,
                            /* Translators: %s is a program's name */
                            g_strdup_printf (_("“%s” runs without an interpreter the doctor knows "
                                               "(node, npx, uvx, uv, python3, docker, bun, deno)."),
                                             name),
                            NULL);
      return;
    }

  version = g_new0 (Version, 1);
  version->self = g_object_ref (self);
  version->name = g_steal_pointer (&name);
  version->seen = g_string_new (NULL);
  version->then_node = g_strcmp0 (version->name, "npx") == 0;
  ask_version (version, program);
}

/* ------------------------------------------------------------------------ */
/* The server started                                                       */

static void
on_invalid_line_cb (McpTransport *transport,
                    const char   *line,
                    const GError *error,
                    McpDoctor    *self)
{
  if (self->invalid_line == NULL)
    self->invalid_line = mcp_doctor_quote (line);
}

static void
on_connected_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(McpDoctor) self = user_data;
  McpClient *client = MCP_CLIENT (object);
  McpStdioTransport *transport = MCP_STDIO_TRANSPORT (mcp_client_get_transport (client));
  g_autoptr(GError) error = NULL;
  g_autofree char *tail = NULL;

  mcp_client_connect_finish (client, result, &error);
  if (mcp_doctor_step_aborted (self) || client != self->client)
    return;

  self->connect_time = g_get_monotonic_time () - self->step_start;
  self->connect_error = g_steal_pointer (&error);
  self->stderr_lines = mcp_stdio_transport_dup_stderr_lines (transport);
  self->exited = mcp_stdio_transport_get_exit_status (transport, &self->wait_status);
  tail = mcp_doctor_format_lines ((const char * const *) self->stderr_lines);

  if (g_error_matches (self->connect_error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED))
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL, g_strdup (self->connect_error->message),
                            _("Check the command, its folder (“cwd”) and its environment."));
      return;
    }

  if (self->connect_error != NULL && self->exited)
    {
      g_autofree char *how = NULL;

      if (WIFEXITED (self->wait_status))
        /* Translators: %d is an exit status */
        how = g_strdup_printf (_("It exited at once with status %d."), WEXITSTATUS (self->wait_status));
      else if (WIFSIGNALED (self->wait_status))
        /* Translators: %d is a signal number */
        how = g_strdup_printf (_("It was killed at once by signal %d."), WTERMSIG (self->wait_status));
      else
        how = g_strdup (_("It exited at once."));

      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL,
                            tail != NULL
                            /* Translators: what a server did, then the last lines it wrote */
                            ? g_strdup_printf (_("%s It wrote to stderr:\n%s"), how, tail)
                            : g_strdup_printf (_("%s It wrote nothing to stderr."), how),
                            _("Run the same command in a terminal to see why it stops: a missing "
                              "argument, variable or package is the usual cause."));
      return;
    }

  mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_PASS,
                        /* Translators: %d is a process id */
                        g_strdup_printf (_("It started (process %d) and kept running."),
                                         (int) mcp_stdio_transport_get_pid (transport)),
                        NULL);
}

static void
check_starts (McpDoctor *self)
{
  g_autoptr(McpTransport) transport = NULL;
  g_autoptr(GError) error = NULL;

  transport = mcp_server_connection_new_transport (self->expanded, NULL, &error);
  if (transport == NULL)
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL, g_strdup (error->message), NULL);
      return;
    }

  self->client = mcp_client_new (transport);
  mcp_client_set_client_info (self->client, PACKAGE_NAME, PACKAGE_VERSION);
  mcp_client_set_connect_timeout (self->client, mcp_doctor_get_timeout (self));
  g_signal_connect (transport, "invalid-line", G_CALLBACK (on_invalid_line_cb), self);
  mcp_client_connect_async (self->client, mcp_doctor_step_get_cancellable (self),
                            on_connected_cb, g_object_ref (self));
}

static void
check_stdout (McpDoctor *self)
{
  if (self->invalid_line == NULL)
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_PASS,
                            g_strdup (_("Everything it wrote to stdout was JSON-RPC.")), NULL);
      return;
    }

  mcp_doctor_step_done (self,
                        self->connect_error != NULL ? MCP_DOCTOR_STATUS_FAIL : MCP_DOCTOR_STATUS_WARN,
                        /* Translators: %s is the start of what a server wrote */
                        g_strdup_printf (_("It wrote something that is not JSON-RPC to stdout: “%s”"),
                                         self->invalid_line),
                        _("A stdio server may write only JSON-RPC messages to stdout: its logs, "
                          "banners and warnings belong on stderr. Look for an option that turns "
                          "them off (e.g. “--quiet”, “-y” for npx), or tell its authors."));
}

static void
check_initialize (McpDoctor *self)
{
  g_autofree char *tail = mcp_doctor_format_lines ((const char * const *) self->stderr_lines);
  guint seconds = mcp_doctor_timeout_seconds (self);

  if (g_error_matches (self->connect_error, MCP_ERROR, MCP_ERROR_TIMEOUT) ||
      g_error_matches (self->connect_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autofree char *seen = NULL;

      /* Translators: %u is a number of seconds */
      seen = g_strdup_printf (_("It never answered initialize in %u s."), seconds);
      if (tail != NULL)
        {
          g_autofree char *with = g_strdup_printf (_("%s It wrote to stderr:\n%s"), seen, tail);

          g_free (seen);
          seen = g_steal_pointer (&with);
        }
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL, g_steal_pointer (&seen),
                            _("Check that this is an MCP server that speaks over stdio (some need "
                              "an argument such as “stdio” or “--stdio”), and that it does not wait "
                              "for something first (a sign-in, a prompt). A slow first start (npx "
                              "downloading) may need a longer timeout: MCP_TIMEOUT."));
      return;
    }

  if (self->connect_error != NULL &&
      !g_error_matches (self->connect_error, MCP_ERROR, MCP_ERROR_UNSUPPORTED_VERSION))
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL,
                            tail != NULL
                            ? g_strdup_printf (_("%s It wrote to stderr:\n%s"),
                                               self->connect_error->message, tail)
                            : g_strdup (self->connect_error->message),
                            _("Run the same command in a terminal to see what it says."));
      return;
    }

  if (self->connect_error == NULL && self->connect_time > (gint64) mcp_doctor_get_timeout (self) * 1000 / 2)
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_WARN,
                            /* Translators: %.1f is seconds taken, %u the seconds allowed */
                            g_strdup_printf (_("It answered, but slowly: in %.1f s of the %u s allowed."),
                                             self->connect_time / (double) G_USEC_PER_SEC, seconds),
                            _("A slow start can make it fail now and then: set a longer timeout "
                              "(MCP_TIMEOUT, or the server's “timeout”)."));
      return;
    }

  {
    McpServerInfo *info = self->client != NULL ? mcp_client_get_server_info (self->client) : NULL;
    g_autofree char *name = mcp_doctor_quote (info != NULL ? mcp_server_info_get_name (info) : NULL);

    mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_PASS,
                          /* Translators: %s is the server's name as it says it, %u milliseconds */
                          g_strdup_printf (_("“%s” answered in %u ms."), name,
                                           (guint) (self->connect_time / 1000)),
                          NULL);
  }
}

char *
mcp_doctor_describe_era (McpClient *client)
{
  const char *version = mcp_client_get_protocol_version (client);

  if (mcp_client_get_era (client) == MCP_PROTOCOL_ERA_MODERN)
    /* Translators: %s is a protocol version such as 2026-07-28 */
    return g_strdup_printf (_("Protocol version %s (the stateless era)."), version);
  /* Translators: %s is a protocol version such as 2025-06-18 */
  return g_strdup_printf (_("Protocol version %s (the handshake era: initialize, sessions)."), version);
}

static void
check_version (McpDoctor *self)
{
  if (self->connect_error != NULL)
    {
      mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_FAIL, g_strdup (self->connect_error->message),
                            _("Update the server (or Plugboard) to a version that speaks a protocol "
                              "version both support."));
      return;
    }

  mcp_doctor_step_done (self, MCP_DOCTOR_STATUS_PASS, mcp_doctor_describe_era (self->client), NULL);
}

const McpDoctorStep mcp_doctor_stdio_steps[] = {
  { "command", N_("Command found"), check_command, FALSE },
  { "executable", N_("Executable"), check_executable, FALSE },
  { "interpreter", N_("Interpreter"), check_interpreter, FALSE },
  { "starts", N_("Starts and keeps running"), check_starts, FALSE },
  { "stdout", N_("Writes only JSON-RPC to stdout"), check_stdout, FALSE },
  { "initialize", N_("Answers initialize"), check_initialize, FALSE },
  { "version", N_("Protocol version"), check_version, FALSE },
};

const guint mcp_doctor_n_stdio_steps = G_N_ELEMENTS (mcp_doctor_stdio_steps);
