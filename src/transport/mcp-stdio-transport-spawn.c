/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-stdio-transport"

#include "config.h"

#include "mcp-stdio-transport.h"
#include "mcp-stdio-transport-private.h"

#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>
#include <glib-unix.h>

#include "mcp-error.h"

/* McpStdioTransport: starting the server — its program found in PATH,
 * its environment and folder, or on the host through flatpak-spawn from
 * inside Flatpak — and the sources that watch its pipes. */

static char *
find_in_path (const char *program,
              const char *path,
              const char *cwd)
{
  g_auto(GStrv) dirs = g_strsplit (path, ":", -1);

  for (guint i = 0; dirs[i] != NULL; i++)
    {
      const char *dir = dirs[i][0] != '\0' ? dirs[i] : ".";
      g_autofree char *candidate = NULL;

      if (!g_path_is_absolute (dir) && cwd != NULL)
        candidate = g_build_filename (cwd, dir, program, NULL);
      else
        candidate = g_build_filename (dir, program, NULL);

      if (g_file_test (candidate, G_FILE_TEST_IS_EXECUTABLE) &&
          !g_file_test (candidate, G_FILE_TEST_IS_DIR))
        return g_steal_pointer (&candidate);
    }

  return NULL;
}

static char *
resolve_program (McpStdioTransport  *self,
                 GError            **error)
{
  const char *program = command_name (self);

  if (program[0] == '\0')
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED,
                   _("Could not start the server: the command is empty"));
      return NULL;
    }

  if (strchr (program, '/') != NULL)
    {
      g_autofree char *full = NULL;

      if (!g_path_is_absolute (program) && self->cwd != NULL)
        full = g_build_filename (self->cwd, program, NULL);
      else
        full = g_strdup (program);

      if (!g_file_test (full, G_FILE_TEST_EXISTS))
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED,
                       /* Translators: %s is the server's command, then its full path. */
                       _("Could not start “%s”: %s does not exist"), program, full);
          return NULL;
        }
      if (!g_file_test (full, G_FILE_TEST_IS_EXECUTABLE) ||
          g_file_test (full, G_FILE_TEST_IS_DIR))
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED,
                       /* Translators: %s is the server's command, then its full path. */
                       _("Could not start “%s”: %s is not an executable file"), program, full);
          return NULL;
        }
      return g_strdup (program);
    }
  else
    {
      const char *path = g_getenv ("PATH");
      char *found;

      for (guint i = 0; self->env != NULL && self->env[i] != NULL; i++)
        if (g_str_has_prefix (self->env[i], "PATH="))
          path = self->env[i] + strlen ("PATH=");
      if (path == NULL)
        path = "/usr/bin:/bin";

      found = find_in_path (program, path, self->cwd);
      if (found == NULL)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED,
                       /* Translators: %s is the server's command, then the list of
                        * folders searched (the PATH variable). */
                       _("Could not start “%s”: no such command in PATH (%s)"), program, path);
        }
      return found;
    }
}

static void
child_setup (gpointer user_data)
{
  /* A group of its own, so that signals reach what a launcher starts. */
  setpgid (0, 0);
}

static GSource *
watch_input (GInputStream *stream,
             GSourceFunc   func,
             gpointer      data)
{
  GSource *source = g_pollable_input_stream_create_source (G_POLLABLE_INPUT_STREAM (stream), NULL);

  g_source_set_callback (source, func, data, NULL);
  g_source_attach (source, NULL);
  return source;
}

static void
set_nonblocking (int fd)
{
  g_autoptr(GError) error = NULL;

  if (!g_unix_set_fd_nonblocking (fd, TRUE, &error))
    g_debug ("Could not make fd %d non-blocking: %s", fd, error->message);
}

char *
mcp_stdio_transport_get_host_spawner (void)
{
  const char *spawner = g_getenv ("PLUGBOARD_FLATPAK_SPAWN");

  if (spawner != NULL && spawner[0] != '\0')
    return g_strdup (spawner);

  if (g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS) ||
      g_getenv ("FLATPAK_ID") != NULL)
    return g_strdup ("flatpak-spawn");

  return NULL;
}

/* Shells that take `-l -c SCRIPT NAME ARGS…` with NAME as $0 and ARGS as
 * "$@"; fish, nushell and the like do not. */
static gboolean
is_posix_shell (const char *shell)
{
  static const char * const known[] = {
    "sh", "bash", "zsh", "dash", "ksh", "mksh", "oksh", "pdksh", "yash", "ash", NULL
  };
  g_autofree char *base = NULL;

  if (shell == NULL || !g_path_is_absolute (shell))
    return FALSE;

  base = g_path_get_basename (shell);
  return g_strv_contains (known, base);
}

/* Run by /bin/sh on the host, with the login shell as $0 and the server's
 * argv as "$@": the profile's output goes to stderr (a line printed by nvm
 * or a greeting must not reach the MCP stream), then the server gets the
 * real stdout back and replaces the shell, so that signals reach it. */
#define HOST_OUTER_SCRIPT "exec 3>&1 1>&2; exec \"$0\" -l -c 'exec \"$0\" \"$@\" 1>&3 3>&-' \"$@\""

GStrv
mcp_stdio_transport_build_host_argv (const char         *flatpak_spawn,
                                     const char * const *argv,
                                     const char * const *env,
                                     const char         *cwd,
                                     const char         *login_shell)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (flatpak_spawn != NULL, NULL);
  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);

  g_strv_builder_add (builder, flatpak_spawn);
  g_strv_builder_add (builder, "--host");
  /* The host command ends when flatpak-spawn does, even by SIGKILL. */
  g_strv_builder_add (builder, "--watch-bus");
  /* flatpak-spawn takes options only as --name=value, up to the first
   * argument that does not start with '-'. */
  if (cwd != NULL)
    {
      g_autofree char *option = g_strconcat ("--directory=", cwd, NULL);

      g_strv_builder_add (builder, option);
    }
  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    {
      g_autofree char *option = g_strconcat ("--env=", env[i], NULL);

      g_strv_builder_add (builder, option);
    }

  g_strv_builder_add (builder, "/bin/sh");
  g_strv_builder_add (builder, "-c");
  g_strv_builder_add (builder, HOST_OUTER_SCRIPT);
  g_strv_builder_add (builder, is_posix_shell (login_shell) ? login_shell : "/bin/sh");
  g_strv_builder_addv (builder, (const char **) argv);

  return g_strv_builder_end (builder);
}

static gboolean
check_env (McpStdioTransport  *self,
           GError            **error)
{
  for (guint i = 0; self->env != NULL && self->env[i] != NULL; i++)
    {
      const char *eq = strchr (self->env[i], '=');

      if (eq == NULL || eq == self->env[i])
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED,
                       /* Translators: %s is the server's command, then an entry of its
                        * environment; keep NAME=VALUE as it is. */
                       _("Could not start “%s”: environment entry “%s” is not NAME=VALUE"),
                       command_name (self), self->env[i]);
          return FALSE;
        }
    }

  return TRUE;
}

/* The argv that starts the server on the host from inside Flatpak; NULL
 * when not in Flatpak (and no error) or on error. */
static GStrv
host_argv (McpStdioTransport  *self,
           GError            **error)
{
  g_autofree char *spawner = mcp_stdio_transport_get_host_spawner ();
  g_autofree char *program = NULL;

  if (spawner == NULL)
    return NULL;

  if (strchr (spawner, '/') != NULL)
    program = g_strdup (spawner);
  else
    program = g_find_program_in_path (spawner);
  if (program == NULL || !g_file_test (program, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED,
                   /* Translators: %s is the server's command, then a program
                    * (flatpak-spawn); “the host” is the computer outside the sandbox. */
                   _("Could not start “%s” on the host: %s is not available in the sandbox"),
                   command_name (self), spawner);
      return NULL;
    }

  /* Never logged: the --env= arguments hold the server's secrets. */
  return mcp_stdio_transport_build_host_argv (program,
                                              (const char * const *) self->argv,
                                              (const char * const *) self->env,
                                              self->cwd,
                                              g_getenv ("SHELL"));
}

gboolean
mcp_stdio_transport_spawn (McpStdioTransport  *self,
                           GError            **error)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *program = NULL;
  g_autofree const char **argv = NULL;
  g_auto(GStrv) on_host = NULL;
  guint argc;
  const char *identifier;

  if (command_name (self)[0] == '\0')
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED,
                   _("Could not start the server: the command is empty"));
      return FALSE;
    }
  if (!check_env (self, error))
    return FALSE;

  on_host = host_argv (self, &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                        G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_set_child_setup (launcher, child_setup, NULL, NULL);

  if (on_host != NULL)
    {
      /* The command, its environment and its folder are the host's; the
       * project folder may not even exist in the sandbox. */
      self->on_host = TRUE;
      self->process = g_subprocess_launcher_spawnv (launcher, (const char * const *) on_host,
                                                    &local_error);
    }
  else
    {
      program = resolve_program (self, error);
      if (program == NULL)
        return FALSE;

      for (guint i = 0; self->env != NULL && self->env[i] != NULL; i++)
        {
          const char *eq = strchr (self->env[i], '=');
          g_autofree char *name = g_strndup (self->env[i], (gsize) (eq - self->env[i]));

          g_subprocess_launcher_setenv (launcher, name, eq + 1, TRUE);
        }
      if (self->cwd != NULL)
        g_subprocess_launcher_set_cwd (launcher, self->cwd);

      argc = g_strv_length (self->argv);
      argv = g_new0 (const char *, argc + 1);
      argv[0] = program;
      for (guint i = 1; i < argc; i++)
        argv[i] = self->argv[i];

      self->process = g_subprocess_launcher_spawnv (launcher, argv, &local_error);
    }
  if (self->process == NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_SPAWN_FAILED,
                   /* Translators: %s is the server's command, then the system's error. */
                   _("Could not start “%s”: %s"), command_name (self), local_error->message);
      return FALSE;
    }

  identifier = g_subprocess_get_identifier (self->process);
  self->pid = identifier != NULL ? (GPid) g_ascii_strtoll (identifier, NULL, 10) : 0;

  self->stdin_stream = g_object_ref (g_subprocess_get_stdin_pipe (self->process));
  self->stdout_stream = g_object_ref (g_subprocess_get_stdout_pipe (self->process));
  self->stderr_stream = g_object_ref (g_subprocess_get_stderr_pipe (self->process));

  /* Writes must never block, whatever their size. */
  self->stdin_fd = g_unix_output_stream_get_fd (G_UNIX_OUTPUT_STREAM (self->stdin_stream));
  self->stdout_fd = g_unix_input_stream_get_fd (G_UNIX_INPUT_STREAM (self->stdout_stream));
  set_nonblocking (self->stdin_fd);
  set_nonblocking (self->stdout_fd);
  set_nonblocking (g_unix_input_stream_get_fd (G_UNIX_INPUT_STREAM (self->stderr_stream)));

  self->stdout_source = g_unix_fd_source_new (self->stdout_fd, G_IO_IN);
  g_source_set_static_name (self->stdout_source, "[mcp-stdio-transport] stdout readable");
  g_source_set_callback (self->stdout_source, G_SOURCE_FUNC (mcp_stdio_transport_stdout_readable_cb), self, NULL);
  /* Without this GLib blocks the source around each dispatch, removing and
   * re-adding its fd, which wakes the loop twice per message. */
  g_source_set_can_recurse (self->stdout_source, TRUE);
  g_source_attach (self->stdout_source, g_main_context_get_thread_default ());

  self->flush_source = mcp_stdio_transport_flush_source_new (self);
  /* Prepared before any source that could be ready, so it is never skipped. */
  g_source_set_priority (self->flush_source, G_PRIORITY_HIGH);
  g_source_set_static_name (self->flush_source, "[mcp-stdio-transport] flush");
  g_source_attach (self->flush_source, g_main_context_get_thread_default ());

  self->stderr_source = watch_input (self->stderr_stream,
                                     (GSourceFunc) G_CALLBACK (mcp_stdio_transport_stderr_readable_cb), self);

  g_subprocess_wait_async (self->process, self->cancellable, mcp_stdio_transport_wait_cb, self);

  return TRUE;
}
