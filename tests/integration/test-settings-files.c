/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-settings-files"
#define _GNU_SOURCE /* unshare, CLONE_NEWNS */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <glib-unix.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "mcp-config-file.h"
#include "mcp-json-document.h"
#include "mcp-json-private.h"
#include "test-util.h"

/* plugboard-cli writing real settings files, as separate processes, in
 * temporary folders: many writers at once, a full disk and RLIMIT_FSIZE,
 * SIGKILL in the middle of a write, the modes and places of what is
 * written, and files that are not settings files at all. Every process is
 * waited for with wait4(), so its own peak memory is known. */

#define EXIT_SETTINGS 5
/* Only there to catch a hang; nothing here asserts a speed. */
#define WATCHDOG_S 60
#define SPECIAL_FILE_WATCHDOG_S 10
#define PEAK_MEMORY_LIMIT_KB (200 * 1024)
#define TEMPORARY_MARK ".plugboard-"

static const char *cli_path;

/* Temporary homes */

typedef struct
{
  char *root;
  char *mount_point;    /* a tmpfs mounted for the test, or NULL */
  char *config_dir;     /* --config-dir */
  char *project_dir;    /* --project, and the working directory */
  char *state_dir;      /* XDG_STATE_HOME */
  char *backup_dir;
  char *user_file;
  char *project_file;
} Home;

static void
home_set_data_root (Home       *home,
                    const char *data_root)
{
  g_free (home->config_dir);
  g_free (home->state_dir);
  g_free (home->backup_dir);
  g_free (home->user_file);

  home->config_dir = g_build_filename (data_root, "config", NULL);
  home->state_dir = g_build_filename (data_root, "state", NULL);
  home->backup_dir = g_build_filename (home->state_dir, "plugboard", "backups", NULL);
  home->user_file = g_build_filename (home->config_dir, "settings.json", NULL);
  g_assert_cmpint (g_mkdir_with_parents (home->config_dir, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (home->state_dir, 0700), ==, 0);
}

static void
home_init (Home *home)
{
  g_autoptr(GError) error = NULL;

  home->root = g_dir_make_tmp ("test-settings-files-XXXXXX", &error);
  g_assert_no_error (error);
  home->project_dir = g_build_filename (home->root, "project", NULL);
  home->project_file = g_build_filename (home->project_dir, ".mcp.json", NULL);
  g_assert_cmpint (g_mkdir_with_parents (home->project_dir, 0700), ==, 0);
  home_set_data_root (home, home->root);
}

static void
home_clear (Home *home)
{
  if (home->mount_point != NULL && umount (home->mount_point) != 0)
    umount2 (home->mount_point, MNT_DETACH);
  if (home->root != NULL)
    test_remove_tree (home->root);
  g_clear_pointer (&home->root, g_free);
  g_clear_pointer (&home->mount_point, g_free);
  g_clear_pointer (&home->config_dir, g_free);
  g_clear_pointer (&home->project_dir, g_free);
  g_clear_pointer (&home->state_dir, g_free);
  g_clear_pointer (&home->backup_dir, g_free);
  g_clear_pointer (&home->user_file, g_free);
  g_clear_pointer (&home->project_file, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Home, home_clear)

static char **
home_environ (Home *home)
{
  static const char * const unset[] = { "MCP_TIMEOUT", "MCP_TOOL_TIMEOUT",
                                        "MCP_SERVER_CONNECTION_BATCH_SIZE", NULL };
  char **env = g_get_environ ();
  g_autofree char *config = g_build_filename (home->root, "xdg-config", NULL);
  g_autofree char *cache = g_build_filename (home->root, "xdg-cache", NULL);
  g_autofree char *data = g_build_filename (home->root, "xdg-data", NULL);
  g_autofree char *home_dir = g_build_filename (home->root, "home", NULL);

  for (guint i = 0; unset[i] != NULL; i++)
    env = g_environ_unsetenv (env, unset[i]);
  env = g_environ_setenv (env, "LC_ALL", "C.UTF-8", TRUE);
  env = g_environ_setenv (env, "HOME", home_dir, TRUE);
  env = g_environ_setenv (env, "XDG_CONFIG_HOME", config, TRUE);
  env = g_environ_setenv (env, "XDG_CACHE_HOME", cache, TRUE);
  env = g_environ_setenv (env, "XDG_DATA_HOME", data, TRUE);
  env = g_environ_setenv (env, "XDG_STATE_HOME", home->state_dir, TRUE);

  return env;
}

/* Mounts in this test stay in a mount namespace of its own, so that a
 * tmpfs goes away with the process even when an assertion ends it. */
static void
enter_private_mount_namespace (void)
{
  static gboolean entered;

  if (entered)
    return;
  entered = TRUE;

  if (unshare (CLONE_NEWNS) != 0 ||
      mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
    g_test_message ("no private mount namespace (%s): the tmpfs is only unmounted at teardown",
                    g_strerror (errno));
}

/* Puts the config dir and XDG_STATE_HOME on a tmpfs of @size bytes; FALSE
 * (and the test skipped) when one cannot be mounted. */
static gboolean
home_mount_tmpfs (Home  *home,
                  gsize  size)
{
  g_autofree char *point = g_build_filename (home->root, "disk", NULL);
  g_autofree char *options = g_strdup_printf ("size=%" G_GSIZE_FORMAT ",mode=0700", size);

  if (geteuid () != 0)
    {
      g_test_skip ("not running as root, so no tmpfs can be mounted to fill up");
      return FALSE;
    }

  enter_private_mount_namespace ();
  g_assert_cmpint (g_mkdir_with_parents (point, 0700), ==, 0);
  if (mount ("tmpfs", point, "tmpfs", MS_NOSUID | MS_NODEV, options) != 0)
    {
      g_autofree char *why = g_strdup_printf ("mounting a tmpfs on %s failed: %s",
                                              point, g_strerror (errno));

      g_test_skip (why);
      return FALSE;
    }

  home->mount_point = g_steal_pointer (&point);
  home_set_data_root (home, home->mount_point);

  return TRUE;
}

/* Processes */

typedef struct
{
  GPid           pid;
  int            out_fd;
  int            err_fd;
  GString       *out;
  GString       *err;
  gboolean       reaped;
  int            status;
  struct rusage  usage;
  gint64         started;
  gint64         elapsed;    /* µs from the spawn to the exit */
} Proc;

static void
proc_clear (Proc *proc)
{
  if (proc->pid > 0 && !proc->reaped)
    {
      kill (proc->pid, SIGKILL);
      waitpid (proc->pid, NULL, 0);
    }
  if (proc->out_fd >= 0)
    close (proc->out_fd);
  if (proc->err_fd >= 0)
    close (proc->err_fd);
  if (proc->out != NULL)
    g_string_free (proc->out, TRUE);
  if (proc->err != NULL)
    g_string_free (proc->err, TRUE);
  memset (proc, 0, sizeof *proc);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Proc, proc_clear)

/* Starts @argv in the project folder with @home's environment; stdin is
 * @stdin_fd, or /dev/null when it is -1; @report_fd, unless -1, is its
 * fd 3. */
static void
proc_spawn (Proc                 *proc,
            Home                 *home,
            const char * const   *argv,
            int                   stdin_fd,
            int                   report_fd,
            GSpawnChildSetupFunc  setup,
            gpointer              setup_data)
{
  int target_fd = 3;
  g_auto(GStrv) env = home_environ (home);
  g_autoptr(GError) error = NULL;
  GSpawnFlags flags = G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_CLOEXEC_PIPES;

  if (stdin_fd < 0)
    flags |= G_SPAWN_STDIN_FROM_DEV_NULL;

  memset (proc, 0, sizeof *proc);
  proc->out = g_string_new (NULL);
  proc->err = g_string_new (NULL);
  proc->started = g_get_monotonic_time ();
  g_spawn_async_with_pipes_and_fds (home->project_dir, argv, (const char * const *) env, flags,
                                    setup, setup_data, stdin_fd, -1, -1,
                                    report_fd >= 0 ? &report_fd : NULL,
                                    report_fd >= 0 ? &target_fd : NULL,
                                    report_fd >= 0 ? 1 : 0,
                                    &proc->pid, NULL, &proc->out_fd, &proc->err_fd, &error);
  g_assert_no_error (error);
}

/* Reaps the process if it has exited; TRUE once it has. */
static gboolean
proc_poll_exit (Proc *proc)
{
  pid_t pid;

  if (proc->reaped)
    return TRUE;

  do
    pid = wait4 (proc->pid, &proc->status, WNOHANG, &proc->usage);
  while (pid < 0 && errno == EINTR);
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    return FALSE;

  proc->reaped = TRUE;
  proc->elapsed = g_get_monotonic_time () - proc->started;
  return TRUE;
}

static void
proc_read_pipes (Proc *proc,
                 int   timeout_ms)
{
  struct pollfd fds[2];
  int *slots[2];
  GString *strings[2];
  guint n = 0;

  if (proc->out_fd >= 0)
    {
      fds[n] = (struct pollfd) { .fd = proc->out_fd, .events = POLLIN };
      slots[n] = &proc->out_fd;
      strings[n++] = proc->out;
    }
  if (proc->err_fd >= 0)
    {
      fds[n] = (struct pollfd) { .fd = proc->err_fd, .events = POLLIN };
      slots[n] = &proc->err_fd;
      strings[n++] = proc->err;
    }
  if (n == 0)
    {
      g_usleep (timeout_ms * 1000);
      return;
    }

  if (poll (fds, n, timeout_ms) <= 0)
    return;

  for (guint i = 0; i < n; i++)
    {
      char buffer[4096];
      gssize got;

      if (fds[i].revents == 0)
        continue;
      got = read (fds[i].fd, buffer, sizeof buffer);
      if (got > 0)
        {
          g_string_append_len (strings[i], buffer, got);
        }
      else if (got == 0 || errno != EINTR)
        {
          close (*slots[i]);
          *slots[i] = -1;
        }
    }
}

/* Waits for the process and the end of its output; kills it and fails
 * the test after @timeout_s. */
static void
proc_wait (Proc  *proc,
           guint  timeout_s)
{
  gint64 deadline = g_get_monotonic_time () + timeout_s * G_USEC_PER_SEC;

  while (!proc_poll_exit (proc) || proc->out_fd >= 0 || proc->err_fd >= 0)
    {
      if (g_get_monotonic_time () > deadline)
        {
          g_test_message ("stdout so far:\n%s\nstderr so far:\n%s", proc->out->str, proc->err->str);
          kill (proc->pid, SIGKILL);
          g_test_message ("pid %d did not finish within %u s (the watchdog for a hang)",
                          (int) proc->pid, timeout_s);
          /* (proc_clear() reaps it) */
          g_assert_cmpint (g_get_monotonic_time () - proc->started, <=,
                           (gint64) timeout_s * G_USEC_PER_SEC);
        }
      proc_read_pipes (proc, 5);
    }
}

static int
proc_exit_status (Proc *proc)
{
  g_assert_true (proc->reaped);
  return WIFEXITED (proc->status) ? WEXITSTATUS (proc->status) : -1;
}

static void
proc_log (Proc       *proc,
          const char *what)
{
  if (WIFSIGNALED (proc->status))
    g_test_message ("%s: killed by signal %d after %.1f ms\nstdout:\n%s\nstderr:\n%s",
                    what, WTERMSIG (proc->status), proc->elapsed / 1000.0,
                    proc->out->str, proc->err->str);
  else
    g_test_message ("%s: exit %d after %.1f ms, peak memory %ld KiB\nstdout:\n%s\nstderr:\n%s",
                    what, WEXITSTATUS (proc->status), proc->elapsed / 1000.0,
                    proc->usage.ru_maxrss, proc->out->str, proc->err->str);
}

/* plugboard-cli VERB --config-dir C --project P ARGS… */
static GPtrArray *
cli_argv (Home               *home,
          const char * const *args)
{
  GPtrArray *argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (char *) cli_path);
  g_ptr_array_add (argv, (char *) args[0]);
  g_ptr_array_add (argv, (char *) "--config-dir");
  g_ptr_array_add (argv, home->config_dir);
  g_ptr_array_add (argv, (char *) "--project");
  g_ptr_array_add (argv, home->project_dir);
  for (guint i = 1; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);

  return argv;
}

static void
run_cli_full (Proc                 *proc,
              Home                 *home,
              guint                 timeout_s,
              GSpawnChildSetupFunc  setup,
              gpointer              setup_data,
              const char * const   *args)
{
  g_autoptr(GPtrArray) argv = cli_argv (home, args);
  g_autofree char *line = g_strjoinv (" ", (char **) argv->pdata);

  proc_spawn (proc, home, (const char * const *) argv->pdata, -1, -1, setup, setup_data);
  proc_wait (proc, timeout_s);
  proc_log (proc, line);
}

/* The ru_maxrss that wait4() gives for a child starts at the memory of
 * the process that forked it: the CLI is run by this program started
 * anew (--measure-child), which is small, and which says the CLI's own
 * peak on fd 3. */
static void
run_cli_measured (Proc               *proc,
                  Home               *home,
                  guint               timeout_s,
                  const char * const *args)
{
  g_autoptr(GPtrArray) cli = cli_argv (home, args);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *line = g_strjoinv (" ", (char **) cli->pdata);
  char report[64] = { 0 };
  int pipe_fds[2];
  gssize got;

  g_assert_nonnull (self);
  g_ptr_array_add (argv, self);
  g_ptr_array_add (argv, (char *) "--measure-child");
  for (guint i = 0; i < cli->len; i++)
    g_ptr_array_add (argv, cli->pdata[i]);
  g_assert_true (g_unix_open_pipe (pipe_fds, FD_CLOEXEC, NULL));

  proc_spawn (proc, home, (const char * const *) argv->pdata, -1, pipe_fds[1], NULL, NULL);
  close (pipe_fds[1]);
  proc_wait (proc, timeout_s);
  got = read (pipe_fds[0], report, sizeof report - 1);
  close (pipe_fds[0]);
  g_assert_cmpint (got, >, 0);
  proc->usage.ru_maxrss = g_ascii_strtoll (report, NULL, 10);
  g_assert_cmpint (proc->usage.ru_maxrss, >, 0);
  proc_log (proc, line);
}

static int
measure_child (char **argv)
{
  struct rusage usage;
  int status;
  pid_t pid = fork ();

  if (pid < 0)
    return 127;
  if (pid == 0)
    {
      close (3);
      /* the watchdog kills this process: the CLI goes with it */
      prctl (PR_SET_PDEATHSIG, SIGKILL);
      execv (argv[0], argv);
      _exit (127);
    }

  while (wait4 (pid, &status, 0, &usage) < 0)
    {
      if (errno != EINTR)
        return 127;
    }
  dprintf (3, "%ld\n", usage.ru_maxrss);
  close (3);
  if (WIFSIGNALED (status))
    {
      signal (WTERMSIG (status), SIG_DFL);
      raise (WTERMSIG (status));
    }

  return WIFEXITED (status) ? WEXITSTATUS (status) : 127;
}

#define run_cli(proc, home, ...) \
  run_cli_full ((proc), (home), WATCHDOG_S, NULL, NULL, (const char * const []) { __VA_ARGS__, NULL })

/* `add --scope SCOPE NAME -- /bin/true`, which must work */
static void
add_server (Home       *home,
            const char *scope,
            const char *name)
{
  g_auto(Proc) proc = { 0 };

  run_cli (&proc, home, "add", "--scope", scope, name, "--", "/bin/true");
  g_assert_false (WIFSIGNALED (proc.status));
  g_assert_cmpint (proc_exit_status (&proc), ==, 0);
}

/* A failure is one line on stderr, "plugboard-cli: …"; returns it. */
static char *
failure_line (Proc *proc)
{
  g_auto(GStrv) lines = g_strsplit (proc->err->str, "\n", -1);
  const char *line = NULL;
  guint n_lines = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (*g_strstrip (lines[i]) == '\0')
        continue;
      line = lines[i];
      n_lines++;
    }
  g_assert_cmpuint (n_lines, ==, 1);
  g_assert_true (g_str_has_prefix (line, "plugboard-cli: "));

  return g_strdup (line);
}

/* …with each of the NULL-terminated needles in it */
static void
assert_one_failure_line (Proc       *proc,
                         const char *needle,
                         ...)
{
  g_autofree char *line = failure_line (proc);
  va_list args;

  va_start (args, needle);
  for (const char *n = needle; n != NULL; n = va_arg (args, const char *))
    {
      if (strstr (line, n) == NULL)
        g_test_message ("“%s” is not in the line “%s”", n, line);
      g_assert_nonnull (strstr (line, n));
    }
  va_end (args);
}

/* Files */

static GBytes *
read_bytes (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize length = 0;

  g_file_get_contents (path, &contents, &length, &error);
  g_assert_no_error (error);

  return g_bytes_new_take (contents, length);
}

static void
write_bytes (const char *path,
             GBytes     *bytes)
{
  g_autoptr(GError) error = NULL;
  gsize length;
  const char *data = g_bytes_get_data (bytes, &length);

  g_file_set_contents (path, data, length, &error);
  g_assert_no_error (error);
}

static void
write_text (const char *path,
            const char *text)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (text, strlen (text));

  write_bytes (path, bytes);
}

static void
assert_file_bytes (const char *path,
                   GBytes     *expected)
{
  g_autoptr(GBytes) now = read_bytes (path);

  g_assert_cmpmem (g_bytes_get_data (now, NULL), g_bytes_get_size (now),
                   g_bytes_get_data (expected, NULL), g_bytes_get_size (expected));
}

static guint
file_mode (const char *path)
{
  struct stat st;

  g_assert_cmpint (stat (path, &st), ==, 0);
  return st.st_mode & 07777;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The names in @dir, sorted (none when it does not exist) */
static char *
list_dir (const char *dir)
{
  g_autoptr(GDir) stream = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (stream != NULL && (name = g_dir_read_name (stream)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);

  return g_strjoinv ("|", (char **) names->pdata);
}

/* What a writer leaves when it does not finish: .NAME.plugboard-XXXXXX */
static char *
find_temporaries (const char *dir)
{
  g_autoptr(GDir) stream = g_dir_open (dir, 0, NULL);
  g_autoptr(GString) found = g_string_new (NULL);
  const char *name;

  while (stream != NULL && (name = g_dir_read_name (stream)) != NULL)
    {
      if (strstr (name, TEMPORARY_MARK) != NULL)
        g_string_append_printf (found, "%s%s", found->len > 0 ? " " : "", name);
    }

  return g_string_free (g_steal_pointer (&found), FALSE);
}

static void
assert_no_temporaries (const char *dir)
{
  g_autofree char *left = find_temporaries (dir);

  g_assert_cmpstr (left, ==, "");
}

/* name → bytes of the regular files in @dir */
static GHashTable *
snapshot_dir (const char *dir)
{
  GHashTable *files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                             (GDestroyNotify) g_bytes_unref);
  g_autoptr(GDir) stream = g_dir_open (dir, 0, NULL);
  const char *name;

  while (stream != NULL && (name = g_dir_read_name (stream)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        g_hash_table_insert (files, g_strdup (name), read_bytes (path));
    }

  return files;
}

/* Every file of @before is still in @dir with the same bytes; a file that
 * is new there must be a copy of @current (a backup of what is still the
 * file). Returns how many of @before are gone. */
static guint
count_backups_lost (GHashTable *before,
                    const char *dir,
                    GBytes     *current,
                    guint      *n_new)
{
  g_autoptr(GHashTable) after = snapshot_dir (dir);
  GHashTableIter iter;
  gpointer name;
  gpointer bytes;
  guint lost = 0;

  *n_new = 0;
  g_hash_table_iter_init (&iter, before);
  while (g_hash_table_iter_next (&iter, &name, &bytes))
    {
      GBytes *now = g_hash_table_lookup (after, name);

      if (now == NULL)
        {
          g_test_message ("the backup %s is gone", (const char *) name);
          lost++;
          continue;
        }
      g_assert_true (g_bytes_equal (now, bytes));
    }

  g_hash_table_iter_init (&iter, after);
  while (g_hash_table_iter_next (&iter, &name, &bytes))
    {
      if (g_hash_table_contains (before, name))
        continue;
      g_test_message ("a new backup %s, a copy of the unchanged file", (const char *) name);
      g_assert_true (g_bytes_equal (bytes, current));
      (*n_new)++;
    }

  return lost;
}

static guint
count_backups (Home       *home,
               const char *path)
{
  g_autofree char *prefix = mcp_config_file_backup_prefix (path);
  g_autoptr(GDir) stream = g_dir_open (home->backup_dir, 0, NULL);
  const char *name;
  guint n = 0;

  while (stream != NULL && (name = g_dir_read_name (stream)) != NULL)
    {
      if (g_str_has_prefix (name, prefix))
        n++;
    }

  return n;
}

/* Settings texts */

static JsonObject *
parse_servers (GBytes  *bytes,
               JsonNode **root_out)
{
  g_autoptr(GError) error = NULL;
  JsonNode *root = mcp_json_parse (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error);

  g_assert_no_error (error);
  g_assert_nonnull (root);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
  *root_out = root;
  g_assert_true (json_object_has_member (json_node_get_object (root), "mcpServers"));

  return json_object_get_object_member (json_node_get_object (root), "mcpServers");
}

static void
assert_has_server (GBytes     *bytes,
                   const char *name)
{
  g_autoptr(JsonNode) root = NULL;
  JsonObject *servers = parse_servers (bytes, &root);
  JsonObject *entry;

  g_assert_true (json_object_has_member (servers, name));
  entry = json_object_get_object_member (servers, name);
  g_assert_cmpstr (json_object_get_string_member (entry, "command"), ==, "/bin/true");
}

/* Where the value at @path is in @text; FALSE (and @why) when the text
 * does not index or has no such value. */
static gboolean
range_of (const char          *text,
          gsize                length,
          const char * const  *path,
          gsize               *start,
          gsize               *end,
          char               **why)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpJsonDocument) document = mcp_json_document_new (text, length, MCP_JSON_DIALECT_JSON,
                                                               &error);

  if (document == NULL)
    {
      *why = g_strdup_printf ("not a JSON document: %s", error->message);
      return FALSE;
    }
  if (!mcp_json_document_get_range (document, path, start, end))
    {
      *why = g_strdup_printf ("no %s", path[g_strv_length ((char **) path) - 1]);
      return FALSE;
    }

  return TRUE;
}

/* Whether every byte of @before outside the value at @path is in @after,
 * as it was: the text before it and the text after it. */
static gboolean
same_outside (const char          *before,
              gsize                before_length,
              const char          *after,
              gsize                after_length,
              const char * const  *path,
              char               **why)
{
  gsize start_before, end_before, start_after, end_after;

  if (!range_of (before, before_length, path, &start_before, &end_before, why) ||
      !range_of (after, after_length, path, &start_after, &end_after, why))
    return FALSE;

  if (start_before != start_after || memcmp (before, after, start_before) != 0)
    {
      *why = g_strdup ("the text before the member changed");
      return FALSE;
    }
  if (before_length - end_before != after_length - end_after ||
      memcmp (before + end_before, after + end_after, before_length - end_before) != 0)
    {
      *why = g_strdup ("the text after the member changed");
      return FALSE;
    }

  return TRUE;
}

static void
assert_same_outside (GBytes             *before,
                     GBytes             *after,
                     const char * const *path)
{
  g_autofree char *why = NULL;
  gboolean same = same_outside (g_bytes_get_data (before, NULL), g_bytes_get_size (before),
                                g_bytes_get_data (after, NULL), g_bytes_get_size (after),
                                path, &why);

  if (!same)
    g_test_message ("outside %s: %s", path[0], why);
  g_assert_true (same);
}

/* A settings file of about @size bytes (at least the text around it):
 * unknown members of every kind, then mcpServers. */
static GBytes *
unknown_keys_settings (gsize size)
{
  g_autoptr(GString) text = g_string_new ("{\n  \"x-history\": {");

  for (guint i = 0; text->len < size; i++)
    g_string_append_printf (text,
                            "%s\n    \"entry-%06u\": {\"id\": 12345678901234567890, \"ratio\": 1.5e10, "
                            "\"who\": \"caf\\u00e9 %u\", \"tags\": [\"a\", {\"deep\": [%u, null, true]}]}",
                            i > 0 ? "," : "", i, i, i);
  g_string_append (text, "\n  },\n  \"mcpServers\": {\n    \"seed\": {\"command\": \"/bin/true\"}\n  }\n}\n");

  return g_string_free_to_bytes (g_steal_pointer (&text));
}

/* 1. Concurrent writers */

/* 100 writers at once, each waiting its turn for the lock (30 s at most).
 * Under AddressSanitizer each plugboard-cli is several times slower, and
 * the last of 100 in line waited more than 30 s on a loaded machine: a
 * test of the machine, not of the lock. Fewer there, the same contention. */
#ifdef __SANITIZE_ADDRESS__
#define N_PAIRS 15
#else
#define N_PAIRS 50
#endif

static const char seeded_settings[] =
  "{\n"
  "\t\"x-editor\":   {\"nested\": {\"deeper\": [1, {\"x\": null}, \"y\"], \"empty\": {}},\n"
  "      \"big\": 12345678901234567890, \"float\": 1.5e10, \"name\": \"caf\\u00e9\",\n"
  "      \"escapes\": \"tab\\tquote\\\"slash\\/ \\ud83d\\ude00\"},\n"
  "   \"mcpServers\" :  {\n"
  "        \"seed\": {\"command\": \"/bin/true\", \"x-note\": 1.50, \"args\": [ ]}\n"
  "   },\n"
  "  \"tail\": [1.0e-3,   -0, true, false, null],\n"
  "\t\t\"last\": \"caf\\u00e9\"\n"
  "}\n";

typedef struct
{
  const char *path;
  GBytes     *seed;
  int         stop;        /* atomic */
  guint       reads;
  guint       versions;    /* different texts seen */
  guint       most_servers;
  char       *failure;     /* the first thing wrong that was seen */
} Reader;

static gpointer
reader_thread (gpointer data)
{
  static const char * const servers_path[] = { "mcpServers", NULL };
  Reader *reader = data;
  g_autofree char *previous = NULL;

  while (!g_atomic_int_get (&reader->stop) && reader->failure == NULL)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) root = NULL;
      g_autofree char *text = NULL;
      g_autofree char *why = NULL;
      gsize length;
      guint n_servers;

      if (!g_file_get_contents (reader->path, &text, &length, &error))
        {
          /* the rename replaces it in one step: it is never missing */
          reader->failure = g_strdup_printf ("read %u: %s", reader->reads, error->message);
          break;
        }
      reader->reads++;
      if (g_strcmp0 (text, previous) == 0)
        continue;
      reader->versions++;

      root = mcp_json_parse (text, length, &error);
      if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
        {
          reader->failure = g_strdup_printf ("read %u does not parse as an object: %s\n%s",
                                             reader->reads, error ? error->message : "", text);
          break;
        }
      if (!same_outside (g_bytes_get_data (reader->seed, NULL), g_bytes_get_size (reader->seed),
                         text, length, servers_path, &why))
        {
          reader->failure = g_strdup_printf ("read %u: %s\n%s", reader->reads, why, text);
          break;
        }

      /* every write adds to what the last one wrote: none is lost */
      n_servers = json_object_get_size (json_object_get_object_member (json_node_get_object (root),
                                                                       "mcpServers"));
      if (n_servers < reader->most_servers)
        {
          reader->failure = g_strdup_printf ("read %u: %u servers after %u", reader->reads,
                                             n_servers, reader->most_servers);
          break;
        }
      reader->most_servers = n_servers;

      g_free (previous);
      previous = g_steal_pointer (&text);
    }

  return NULL;
}

static void
test_concurrent_writers (void)
{
  static const char * const servers_path[] = { "mcpServers", NULL };
  static const char * const seed_path[] = { "mcpServers", "seed", NULL };
  g_auto(Home) home = { 0 };
  g_autoptr(GBytes) seed = g_bytes_new_static (seeded_settings, strlen (seeded_settings));
  g_autoptr(GBytes) after = NULL;
  g_autoptr(JsonNode) root = NULL;
  const char *barrier_script = "read -r line; exec \"$0\" \"$@\"";
  g_autofree char *listing = NULL;
  Proc procs[2 * N_PAIRS] = { 0 };
  Reader reader = { 0 };
  GThread *thread;
  int barrier[2];
  char releases[2 * N_PAIRS];
  gint64 released;
  gint64 last_exit = 0;
  gsize start_seed, end_seed, start_after, end_after;
  g_autofree char *why = NULL;

  home_init (&home);
  write_bytes (home.user_file, seed);

  reader.path = home.user_file;
  reader.seed = seed;
  thread = g_thread_new ("reader", reader_thread, &reader);

  /* Each process waits in `read` for its line, so that all of them start
   * writing at once rather than in the order they were spawned. */
  g_assert_true (g_unix_open_pipe (barrier, FD_CLOEXEC, NULL));
  for (guint i = 0; i < 2 * N_PAIRS; i++)
    {
      g_autofree char *name = g_strdup_printf ("%c%u", i % 2 == 0 ? 'a' : 'b', i / 2);
      const char *args[] = { "add", "--scope", "user", name, "--", "/bin/true", NULL };
      g_autoptr(GPtrArray) cli = cli_argv (&home, args);
      g_autoptr(GPtrArray) argv = g_ptr_array_new ();

      g_ptr_array_add (argv, (char *) "/bin/sh");
      g_ptr_array_add (argv, (char *) "-c");
      g_ptr_array_add (argv, (char *) barrier_script);
      for (guint j = 0; j < cli->len; j++)
        g_ptr_array_add (argv, cli->pdata[j]);
      proc_spawn (&procs[i], &home, (const char * const *) argv->pdata, barrier[0], -1, NULL, NULL);
    }
  close (barrier[0]);
  memset (releases, '\n', sizeof releases);
  released = g_get_monotonic_time ();
  g_assert_cmpint (write (barrier[1], releases, sizeof releases), ==, sizeof releases);
  close (barrier[1]);

  for (guint i = 0; i < 2 * N_PAIRS; i++)
    {
      proc_wait (&procs[i], WATCHDOG_S);
      last_exit = MAX (last_exit, procs[i].started + procs[i].elapsed);
      if (proc_exit_status (&procs[i]) != 0)
        proc_log (&procs[i], "add");
      g_assert_false (WIFSIGNALED (procs[i].status));
      g_assert_cmpint (proc_exit_status (&procs[i]), ==, 0);
      g_assert_cmpstr (procs[i].err->str, ==, "");
    }
  g_atomic_int_set (&reader.stop, TRUE);
  g_thread_join (thread);
  for (guint i = 0; i < 2 * N_PAIRS; i++)
    proc_clear (&procs[i]);

  g_test_message ("%u writers done %.0f ms after they were let go; the reader read the file "
                  "%u times and saw %u versions of it",
                  2 * N_PAIRS, (last_exit - released) / 1000.0, reader.reads, reader.versions);
  if (reader.failure != NULL)
    g_test_message ("the reader saw: %s", reader.failure);
  g_assert_null (reader.failure);
  g_assert_cmpuint (reader.reads, >, 0);
  g_free (reader.failure);

  after = read_bytes (home.user_file);
  assert_same_outside (seed, after, servers_path);
  g_assert_true (range_of (g_bytes_get_data (seed, NULL), g_bytes_get_size (seed), seed_path,
                           &start_seed, &end_seed, &why));
  g_assert_true (range_of (g_bytes_get_data (after, NULL), g_bytes_get_size (after), seed_path,
                           &start_after, &end_after, &why));
  g_assert_cmpmem ((const char *) g_bytes_get_data (seed, NULL) + start_seed, end_seed - start_seed,
                   (const char *) g_bytes_get_data (after, NULL) + start_after, end_after - start_after);

  {
    JsonObject *servers = parse_servers (after, &root);

    g_assert_cmpuint (json_object_get_size (servers), ==, 2 * N_PAIRS + 1);
    for (guint i = 0; i < N_PAIRS; i++)
      {
        g_autofree char *a = g_strdup_printf ("a%u", i);
        g_autofree char *b = g_strdup_printf ("b%u", i);

        assert_has_server (after, a);
        assert_has_server (after, b);
      }
  }

  listing = list_dir (home.config_dir);
  g_assert_cmpstr (listing, ==, "settings.json");
  assert_no_temporaries (home.backup_dir);
  g_assert_cmpuint (count_backups (&home, home.user_file), ==, MCP_CONFIG_FILE_BACKUPS_KEPT);
}

/* 2. A full disk, and RLIMIT_FSIZE */

#define DISK_SIZE (512 * 1024)

/* Fills the file system of @dir; the filler's descriptor is returned. */
static int
fill_disk (const char *dir)
{
  g_autofree char *filler = g_build_filename (dir, "filler", NULL);
  char block[4096] = { 0 };
  int fd = g_open (filler, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

  g_assert_cmpint (fd, >=, 0);
  while (write (fd, block, sizeof block) > 0)
    ;
  g_assert_cmpint (errno, ==, ENOSPC);
  while (write (fd, block, 1) > 0)
    ;
  g_assert_cmpint (errno, ==, ENOSPC);

  return fd;
}

static gsize
pages (gsize size)
{
  gsize page = sysconf (_SC_PAGESIZE);

  return (size + page - 1) / page;
}

/* A settings file on a small tmpfs, with two backups; TRUE when the
 * tmpfs could be mounted. */
static gboolean
setup_full_disk (Home    *home,
                 GBytes **settings)
{
  static const char pad_member[] = "\n  \"x-pad\": \"\",";
  gsize page = sysconf (_SC_PAGESIZE);
  g_autoptr(GBytes) text = NULL;
  g_autoptr(GBytes) now = NULL;
  g_autoptr(GString) padded = NULL;
  g_autofree char *pad = NULL;

  home_init (home);
  if (!home_mount_tmpfs (home, DISK_SIZE))
    return FALSE;

  text = unknown_keys_settings (40 * 1024);
  write_bytes (home->user_file, text);
  add_server (home, "user", "before1");
  add_server (home, "user", "before2");
  g_assert_cmpuint (count_backups (home, home->user_file), ==, 2);

  /* Then edited by hand, so that the file takes whole pages, all but a
   * few bytes of the last: one more server needs one more page. */
  now = read_bytes (home->user_file);
  padded = g_string_new_len (g_bytes_get_data (now, NULL), g_bytes_get_size (now));
  g_assert_cmpint (padded->str[0], ==, '{');
  g_string_insert (padded, 1, pad_member);
  pad = g_strnfill ((2 * page - 8 - padded->len % page) % page, 'p');
  /* into the value: after the '{' and up to the closing quote */
  g_string_insert (padded, 1 + strlen (pad_member) - 2, pad);
  g_assert_cmpuint (padded->len % page, ==, page - 8);
  *settings = g_string_free_to_bytes (g_steal_pointer (&padded));
  write_bytes (home->user_file, *settings);

  return TRUE;
}

static void
assert_refused_and_kept (Proc       *proc,
                         Home       *home,
                         GBytes     *settings,
                         GHashTable *backups,
                         const char *cause)
{
  g_autofree char *listing = NULL;
  guint n_new = 0;

  g_assert_false (WIFSIGNALED (proc->status));
  g_assert_cmpint (proc_exit_status (proc), ==, EXIT_SETTINGS);
  assert_one_failure_line (proc, home->user_file, cause, "nothing was changed", NULL);

  assert_file_bytes (home->user_file, settings);
  listing = list_dir (home->config_dir);
  g_assert_cmpstr (listing, ==, "settings.json");
  assert_no_temporaries (home->backup_dir);
  g_assert_cmpuint (count_backups_lost (backups, home->backup_dir, settings, &n_new), ==, 0);
  g_assert_cmpuint (n_new, <=, 1);
}

static void
assert_next_add_works (Home       *home,
                       const char *name)
{
  g_autoptr(GBytes) now = NULL;
  g_autofree char *listing = NULL;

  add_server (home, "user", name);
  now = read_bytes (home->user_file);
  assert_has_server (now, name);
  listing = list_dir (home->config_dir);
  g_assert_cmpstr (listing, ==, "settings.json");
  assert_no_temporaries (home->backup_dir);
}

/* Nothing fits: the backup is the first write to fail. */
static void
test_disk_full_nothing_fits (void)
{
  g_auto(Home) home = { 0 };
  g_autoptr(GBytes) settings = NULL;
  g_autoptr(GHashTable) backups = NULL;
  g_autofree char *filler = NULL;
  int fd;

  if (!setup_full_disk (&home, &settings))
    return;
  backups = snapshot_dir (home.backup_dir);

  fd = fill_disk (home.mount_point);
  {
    g_auto(Proc) proc = { 0 };

    run_cli (&proc, &home, "add", "--scope", "user", "full", "--", "/bin/true");
    assert_refused_and_kept (&proc, &home, settings, backups, "No space left on device");
  }

  close (fd);
  filler = g_build_filename (home.mount_point, "filler", NULL);
  g_assert_cmpint (g_unlink (filler), ==, 0);
  assert_next_add_works (&home, "after");
}

/* Room for the backup (the file's own size) but not for the new file,
 * which needs one page more. */
static void
test_disk_full_only_backup_fits (void)
{
  g_auto(Home) home = { 0 };
  g_autoptr(GBytes) settings = NULL;
  g_autoptr(GHashTable) backups = NULL;
  g_autofree char *filler = NULL;
  struct stat st;
  gsize page = sysconf (_SC_PAGESIZE);
  int fd;

  if (!setup_full_disk (&home, &settings))
    return;
  backups = snapshot_dir (home.backup_dir);

  fd = fill_disk (home.mount_point);
  g_assert_cmpint (fstat (fd, &st), ==, 0);
  g_assert_cmpint (ftruncate (fd, st.st_size - pages (g_bytes_get_size (settings)) * page), ==, 0);
  {
    g_auto(Proc) proc = { 0 };

    g_autofree char *line = NULL;
    g_autofree char *replace_failed = NULL;

    run_cli (&proc, &home, "add", "--scope", "user", "full", "--", "/bin/true");
    assert_refused_and_kept (&proc, &home, settings, backups, "No space left on device");
    /* the backup was made: the new file is what did not fit */
    line = failure_line (&proc);
    replace_failed = g_strdup_printf ("plugboard-cli: Could not save %s: ", home.user_file);
    g_assert_true (g_str_has_prefix (line, replace_failed));
  }

  close (fd);
  filler = g_build_filename (home.mount_point, "filler", NULL);
  g_assert_cmpint (g_unlink (filler), ==, 0);
  assert_next_add_works (&home, "after");
}

static void
limit_file_size (gpointer data)
{
  rlim_t *size = data;
  struct rlimit limit = { .rlim_cur = *size, .rlim_max = *size };

  /* the CLI must ignore SIGXFSZ itself, not inherit it ignored */
  signal (SIGXFSZ, SIG_DFL);
  setrlimit (RLIMIT_FSIZE, &limit);
}

static void
setup_file_size (Home    *home,
                 guint    n_backups,
                 GBytes **settings)
{
  g_autoptr(GBytes) text = unknown_keys_settings (40 * 1024);

  home_init (home);
  write_bytes (home->user_file, text);
  for (guint i = 0; i < n_backups; i++)
    {
      g_autofree char *name = g_strdup_printf ("before%u", i);

      add_server (home, "user", name);
    }
  *settings = read_bytes (home->user_file);
  g_assert_cmpuint (count_backups (home, home->user_file), ==, n_backups);
}

/* Below the size of the file as it is: the backup cannot be written. */
static void
test_file_size_limit_backup (void)
{
  g_auto(Home) home = { 0 };
  g_auto(Proc) proc = { 0 };
  g_autoptr(GBytes) settings = NULL;
  g_autoptr(GHashTable) backups = NULL;
  rlim_t limit;

  setup_file_size (&home, 2, &settings);
  backups = snapshot_dir (home.backup_dir);

  limit = g_bytes_get_size (settings) / 2;
  run_cli_full (&proc, &home, WATCHDOG_S, limit_file_size, &limit,
                (const char * const []) { "add", "--scope", "user", "big", "--", "/bin/true", NULL });
  if (WIFSIGNALED (proc.status))
    g_test_message ("killed by signal %d (SIGXFSZ is %d)", WTERMSIG (proc.status), SIGXFSZ);
  assert_refused_and_kept (&proc, &home, settings, backups, "File too large");

  assert_next_add_works (&home, "after");
}

/* Between the sizes of the file as it is and as it would be: the backup
 * is written, the new file is not. With the ten backups that are kept
 * already there, a refused edit must not cost the oldest of them. */
static void
test_file_size_limit_file (void)
{
  g_auto(Home) home = { 0 };
  g_auto(Proc) proc = { 0 };
  g_autoptr(GBytes) settings = NULL;
  g_autoptr(GHashTable) backups = NULL;
  g_autofree char *listing = NULL;
  rlim_t limit;
  guint n_new = 0;
  guint lost;

  setup_file_size (&home, MCP_CONFIG_FILE_BACKUPS_KEPT, &settings);
  backups = snapshot_dir (home.backup_dir);

  limit = g_bytes_get_size (settings) + 1;
  run_cli_full (&proc, &home, WATCHDOG_S, limit_file_size, &limit,
                (const char * const []) { "add", "--scope", "user", "big", "--", "/bin/true", NULL });
  if (WIFSIGNALED (proc.status))
    g_test_message ("killed by signal %d (SIGXFSZ is %d)", WTERMSIG (proc.status), SIGXFSZ);
  g_assert_false (WIFSIGNALED (proc.status));
  g_assert_cmpint (proc_exit_status (&proc), ==, EXIT_SETTINGS);
  assert_one_failure_line (&proc, home.user_file, "File too large", "nothing was changed", NULL);
  assert_file_bytes (home.user_file, settings);
  listing = list_dir (home.config_dir);
  g_assert_cmpstr (listing, ==, "settings.json");
  assert_no_temporaries (home.backup_dir);

  /* a refused edit rotates no backup out */
  lost = count_backups_lost (backups, home.backup_dir, settings, &n_new);
  g_assert_cmpuint (lost, ==, 0);

  assert_next_add_works (&home, "after");
}

/* 3. SIGKILL in the middle of a write */

#define N_KILLS 30
#define BIG_SETTINGS_SIZE (512 * 1024)

typedef enum
{
  KILL_AFTER_DELAY,          /* 0 to 1.3 times what an add takes */
  KILL_AT_BACKUP,            /* when the backup's temporary file appears */
  KILL_AT_TEMPORARY,         /* when the settings' temporary file appears */
  N_KILL_MOMENTS,
} KillMoment;

static int
watch_creations (Home *home)
{
  int fd = inotify_init1 (IN_NONBLOCK | IN_CLOEXEC);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (inotify_add_watch (fd, home->config_dir, IN_CREATE), >=, 0);
  g_assert_cmpint (g_mkdir_with_parents (home->backup_dir, 0700), ==, 0);
  g_assert_cmpint (inotify_add_watch (fd, home->backup_dir, IN_CREATE), >=, 0);

  return fd;
}

static void
drain_events (int fd)
{
  char buffer[4096];

  while (read (fd, buffer, sizeof buffer) > 0)
    ;
}

/* Waits for a file named @prefix… to be created, or for @proc to end. */
static gboolean
wait_for_creation (int         fd,
                   const char *prefix,
                   Proc       *proc)
{
  gint64 deadline = g_get_monotonic_time () + WATCHDOG_S * G_USEC_PER_SEC;

  while (g_get_monotonic_time () < deadline)
    {
      char buffer[4096] __attribute__ ((aligned (__alignof__ (struct inotify_event))));
      struct pollfd pfd = { .fd = fd, .events = POLLIN };
      gssize got;

      if (poll (&pfd, 1, 2) <= 0)
        {
          if (proc_poll_exit (proc))
            return FALSE;
          continue;
        }
      got = read (fd, buffer, sizeof buffer);
      for (gssize at = 0; at < got; )
        {
          const struct inotify_event *event = (const struct inotify_event *) (buffer + at);

          if (event->len > 0 && g_str_has_prefix (event->name, prefix))
            return TRUE;
          at += sizeof *event + event->len;
        }
    }

  return FALSE;
}

static GPtrArray *
add_argv (Home       *home,
          const char *name)
{
  const char *args[] = { "add", "--scope", "user", name, "--", "/bin/true", NULL };

  return cli_argv (home, args);
}

typedef struct
{
  Home     home;
  GBytes  *old;
  GBytes  *new;
  gint64   add_usec;
  int      inotify;
  char    *temporary_prefix;   /* .settings.json.plugboard- */
  char    *backup_prefix;      /* .%…%settings.json~ */
} KillSetup;

static void
kill_setup_clear (KillSetup *setup)
{
  if (setup->inotify > 0)
    close (setup->inotify);
  g_clear_pointer (&setup->old, g_bytes_unref);
  g_clear_pointer (&setup->new, g_bytes_unref);
  g_clear_pointer (&setup->temporary_prefix, g_free);
  g_clear_pointer (&setup->backup_prefix, g_free);
  home_clear (&setup->home);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (KillSetup, kill_setup_clear)

/* A big settings file, and what `add … k` makes of it: the same add, once,
 * on a copy in a folder of its own. */
static void
kill_setup_init (KillSetup *setup)
{
  g_autofree char *copy_dir = NULL;
  g_autofree char *copy_project = NULL;
  g_autofree char *prefix = NULL;
  Home copy;

  home_init (&setup->home);
  setup->old = unknown_keys_settings (BIG_SETTINGS_SIZE);
  write_bytes (setup->home.user_file, setup->old);

  copy = setup->home;
  copy_dir = g_build_filename (setup->home.root, "reference", NULL);
  copy_project = g_build_filename (setup->home.root, "reference-project", NULL);
  g_assert_cmpint (g_mkdir_with_parents (copy_dir, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (copy_project, 0700), ==, 0);
  copy.config_dir = copy_dir;
  copy.project_dir = copy_project;
  copy.user_file = g_build_filename (copy_dir, "settings.json", NULL);
  write_bytes (copy.user_file, setup->old);
  {
    g_auto(Proc) proc = { 0 };

    run_cli (&proc, &copy, "add", "--scope", "user", "k", "--", "/bin/true");
    g_assert_cmpint (proc_exit_status (&proc), ==, 0);
    setup->add_usec = proc.elapsed;
  }
  setup->new = read_bytes (copy.user_file);
  g_free (copy.user_file);
  g_assert_false (g_bytes_equal (setup->old, setup->new));

  setup->inotify = watch_creations (&setup->home);
  setup->temporary_prefix = g_strdup (".settings.json" TEMPORARY_MARK);
  prefix = mcp_config_file_backup_prefix (setup->home.user_file);
  setup->backup_prefix = g_strconcat (".", prefix, NULL);
}

/* Starts `add k` and kills it at @moment; TRUE when it was killed (FALSE:
 * it had finished). */
static gboolean
add_and_kill (KillSetup  *setup,
              Proc       *proc,
              KillMoment  moment,
              gint64      delay_usec)
{
  g_autoptr(GPtrArray) argv = add_argv (&setup->home, "k");

  drain_events (setup->inotify);
  proc_spawn (proc, &setup->home, (const char * const *) argv->pdata, -1, -1, NULL, NULL);

  switch (moment)
    {
    case KILL_AT_BACKUP:
      wait_for_creation (setup->inotify, setup->backup_prefix, proc);
      break;
    case KILL_AT_TEMPORARY:
      wait_for_creation (setup->inotify, setup->temporary_prefix, proc);
      break;
    case KILL_AFTER_DELAY:
    case N_KILL_MOMENTS:
    default:
      break;
    }
  if (delay_usec > 0)
    g_usleep (delay_usec);

  if (!proc_poll_exit (proc))
    kill (proc->pid, SIGKILL);
  proc_wait (proc, WATCHDOG_S);

  return WIFSIGNALED (proc->status);
}

static void
test_sigkill_mid_write (void)
{
  static const char * const moment_names[] = { "after a delay", "at the backup", "at the temporary file" };
  g_auto(KillSetup) setup = { 0 };
  Home *home = &setup.home;
  guint n_old = 0;
  guint n_new = 0;
  guint n_finished = 0;
  guint n_temporaries = 0;
  guint n_backup_temporaries = 0;
  gint64 started = g_get_monotonic_time ();

  kill_setup_init (&setup);
  g_test_message ("the settings file is %" G_GSIZE_FORMAT " bytes; an add takes %.1f ms",
                  g_bytes_get_size (setup.old), setup.add_usec / 1000.0);

  for (guint i = 0; i < N_KILLS; i++)
    {
      g_auto(Proc) proc = { 0 };
      g_autoptr(GBytes) now = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(JsonNode) root = NULL;
      g_autofree char *left = NULL;
      g_autofree char *backup_left = NULL;
      KillMoment moment = i % N_KILL_MOMENTS;
      gint64 delay;
      gboolean killed;

      /* spread over the whole add, before, during and after its write */
      if (moment == KILL_AFTER_DELAY)
        delay = (i / N_KILL_MOMENTS + g_test_rand_double ()) * setup.add_usec * 1.3 /
                (N_KILLS / N_KILL_MOMENTS);
      else
        delay = g_test_rand_int_range (0, 1500);

      killed = add_and_kill (&setup, &proc, moment, delay);
      if (killed)
        g_assert_cmpint (WTERMSIG (proc.status), ==, SIGKILL);
      else
        {
          g_assert_cmpint (proc_exit_status (&proc), ==, 0);
          n_finished++;
        }

      now = read_bytes (home->user_file);
      root = mcp_json_parse (g_bytes_get_data (now, NULL), g_bytes_get_size (now), &error);
      g_assert_no_error (error);
      g_assert_nonnull (root);
      g_assert_true (g_bytes_equal (now, setup.old) || g_bytes_equal (now, setup.new));

      left = find_temporaries (home->config_dir);
      backup_left = find_temporaries (home->backup_dir);
      g_test_message ("kill %u %s + %.2f ms: %s, the file is %s%s%s%s%s", i, moment_names[moment],
                      delay / 1000.0, killed ? "killed" : "had finished",
                      g_bytes_equal (now, setup.old) ? "the old one" : "the new one",
                      *left != '\0' ? ", left " : "", left,
                      *backup_left != '\0' ? ", backups folder: " : "", backup_left);
      if (g_bytes_equal (now, setup.old))
        n_old++;
      else
        n_new++;
      if (*left != '\0')
        n_temporaries++;

      if (!g_bytes_equal (now, setup.old))
        {
          g_autofree char *listing = list_dir (home->config_dir);

          /* renamed into place: nothing is left beside it */
          g_assert_cmpstr (listing, ==, "settings.json");
        }

      /* The next write removes what the killed one left. */
      if (*left != '\0')
        {
          g_auto(Proc) next = { 0 };
          g_autoptr(GBytes) written = NULL;
          g_autofree char *listing = NULL;

          run_cli (&next, home, "add", "--scope", "user", "k", "--", "/bin/true");
          g_assert_cmpint (proc_exit_status (&next), ==, 0);
          written = read_bytes (home->user_file);
          g_assert_true (g_bytes_equal (written, setup.new));
          listing = list_dir (home->config_dir);
          g_assert_cmpstr (listing, ==, "settings.json");
        }
      /* (a backup's temporary file: /settings-files/sigkill/backup-temporary) */
      if (*backup_left != '\0')
        n_backup_temporaries++;

      write_bytes (home->user_file, setup.old);
    }

  g_test_message ("%u kills in %.1f s: the old file %u times, the new one %u times, %u adds had "
                  "finished, %u left a temporary settings file (removed by the next add); after "
                  "%u the backups folder held a temporary file of a backup",
                  N_KILLS, (g_get_monotonic_time () - started) / (double) G_USEC_PER_SEC,
                  n_old, n_new, n_finished, n_temporaries, n_backup_temporaries);
}

/* A backup's temporary file that a killed writer left is removed by the
 * next write, as the settings file's is. */
static void
test_sigkill_backup_temporary (void)
{
  g_auto(KillSetup) setup = { 0 };
  Home *home = &setup.home;
  g_autofree char *left = NULL;
  guint attempts = 0;

  kill_setup_init (&setup);

  while (attempts++ < 10)
    {
      g_auto(Proc) proc = { 0 };

      add_and_kill (&setup, &proc, KILL_AT_BACKUP, 0);
      g_clear_pointer (&left, g_free);
      left = find_temporaries (home->backup_dir);
      assert_file_bytes (home->user_file, setup.old);
      if (*left != '\0')
        break;
    }
  if (*left == '\0')
    {
      g_test_skip ("no kill landed while the backup was being written");
      return;
    }
  g_test_message ("after %u attempts the kill left %s", attempts, left);

  add_server (home, "user", "k");
  assert_file_bytes (home->user_file, setup.new);
  g_clear_pointer (&left, g_free);
  /* the next backup of the file takes away what the killed one left */
  left = find_temporaries (home->backup_dir);
  g_assert_cmpstr (left, ==, "");
}

/* 4. Modes and places */

static void
test_new_file_mode (void)
{
  g_auto(Home) home = { 0 };

  home_init (&home);
  umask (022);
  add_server (&home, "user", "one");
  g_assert_cmpuint (file_mode (home.user_file), ==, 0600);
  add_server (&home, "project", "shared");
  g_assert_cmpuint (file_mode (home.project_file), ==, 0600);
}

static void
test_existing_mode_kept (void)
{
  g_auto(Home) home = { 0 };
  g_autoptr(GBytes) old = g_bytes_new_static (seeded_settings, strlen (seeded_settings));
  g_autoptr(GBytes) backup = NULL;
  g_autofree char *prefix = NULL;
  g_autofree char *state_backups = NULL;
  g_autofree char *listing = NULL;
  g_autofree char *backup_path = NULL;
  g_autoptr(GDir) dir = NULL;
  const char *name;

  home_init (&home);
  write_bytes (home.user_file, old);
  g_assert_cmpint (g_chmod (home.user_file, 0640), ==, 0);

  add_server (&home, "user", "one");
  g_assert_cmpuint (file_mode (home.user_file), ==, 0640);

  /* the backup: $XDG_STATE_HOME/plugboard/backups/<prefix><time>, 0640,
   * the old bytes */
  state_backups = g_build_filename (home.state_dir, "plugboard", "backups", NULL);
  g_assert_cmpuint (file_mode (state_backups) & 077, ==, 0);
  prefix = mcp_config_file_backup_prefix (home.user_file);
  dir = g_dir_open (state_backups, 0, NULL);
  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_assert_null (backup_path);
      g_assert_true (g_str_has_prefix (name, prefix));
      backup_path = g_build_filename (state_backups, name, NULL);
    }
  g_assert_nonnull (backup_path);
  g_assert_cmpuint (file_mode (backup_path), ==, 0640);
  assert_file_bytes (backup_path, old);

  listing = list_dir (home.config_dir);
  g_assert_cmpstr (listing, ==, "settings.json");
}

static void
test_project_leaves_no_other_file (void)
{
  g_auto(Home) home = { 0 };
  g_autofree char *readme = NULL;
  g_autofree char *before = NULL;
  g_autofree char *user_before = NULL;
  g_autoptr(GBytes) now = NULL;

  home_init (&home);

  /* a new .mcp.json: the only new name in the project */
  user_before = list_dir (home.config_dir);
  readme = g_build_filename (home.project_dir, "README", NULL);
  write_text (readme, "a project\n");
  add_server (&home, "project", "first");
  {
    g_autofree char *after = list_dir (home.project_dir);

    g_assert_cmpstr (after, ==, ".mcp.json|README");
  }

  /* an existing one: no new name at all */
  before = list_dir (home.project_dir);
  add_server (&home, "project", "second");
  {
    g_autofree char *after = list_dir (home.project_dir);
    g_autofree char *user_after = list_dir (home.config_dir);
    g_autofree char *bak = g_strconcat (home.project_file, ".bak", NULL);

    g_assert_cmpstr (after, ==, before);
    g_assert_false (g_file_test (bak, G_FILE_TEST_EXISTS));
    g_assert_cmpstr (user_after, ==, user_before);
  }
  now = read_bytes (home.project_file);
  assert_has_server (now, "first");
  assert_has_server (now, "second");
  g_assert_cmpuint (count_backups (&home, home.project_file), ==, 1);
}

static void
assert_symlink_to (const char *link,
                   const char *target)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *points_to = NULL;
  struct stat st;

  g_assert_cmpint (lstat (link, &st), ==, 0);
  g_assert_true (S_ISLNK (st.st_mode));
  points_to = g_file_read_link (link, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (points_to, ==, target);
}

static void
test_symlinked_settings (void)
{
  g_auto(Home) home = { 0 };
  g_autoptr(GBytes) old = g_bytes_new_static (seeded_settings, strlen (seeded_settings));
  g_autoptr(GBytes) now = NULL;
  g_autofree char *real_dir = NULL;
  g_autofree char *real_file = NULL;
  g_autofree char *listing = NULL;

  home_init (&home);
  real_dir = g_build_filename (home.root, "dotfiles", NULL);
  real_file = g_build_filename (real_dir, "plugboard.json", NULL);
  g_assert_cmpint (g_mkdir_with_parents (real_dir, 0700), ==, 0);
  write_bytes (real_file, old);
  g_assert_cmpint (g_chmod (real_file, 0640), ==, 0);
  g_assert_cmpint (symlink ("../dotfiles/plugboard.json", home.user_file), ==, 0);

  add_server (&home, "user", "linked");
  assert_symlink_to (home.user_file, "../dotfiles/plugboard.json");
  now = read_bytes (real_file);
  assert_has_server (now, "linked");
  g_assert_cmpuint (file_mode (real_file), ==, 0640);
  listing = list_dir (real_dir);
  g_assert_cmpstr (listing, ==, "plugboard.json");
  g_clear_pointer (&listing, g_free);
  listing = list_dir (home.config_dir);
  g_assert_cmpstr (listing, ==, "settings.json");

  /* a link to a file that is not there yet: the file is made there */
  {
    g_autofree char *project_real = g_build_filename (real_dir, "project.json", NULL);
    g_autoptr(GBytes) made = NULL;

    g_assert_cmpint (symlink (project_real, home.project_file), ==, 0);
    add_server (&home, "project", "linked-project");
    assert_symlink_to (home.project_file, project_real);
    made = read_bytes (project_real);
    assert_has_server (made, "linked-project");
    g_assert_cmpuint (file_mode (project_real), ==, 0600);
    g_clear_pointer (&listing, g_free);
    listing = list_dir (real_dir);
    g_assert_cmpstr (listing, ==, "plugboard.json|project.json");
  }
}

/* 5. Files that are not settings files */

typedef enum
{
  SPECIAL_DEV_ZERO,
  SPECIAL_FIFO,
  SPECIAL_SPARSE,
} Special;

/* What the folder holds, down to each entry's inode and times */
static char *
describe_dir (const char *dir)
{
  g_autoptr(GDir) stream = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (stream != NULL && (name = g_dir_read_name (stream)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *link = g_file_read_link (path, NULL);
      struct stat st;

      g_assert_cmpint (lstat (path, &st), ==, 0);
      g_ptr_array_add (lines, g_strdup_printf ("%s ino %lu mode %o size %ld mtime %ld.%09ld -> %s",
                                               name, (gulong) st.st_ino, st.st_mode,
                                               (long) st.st_size, (long) st.st_mtim.tv_sec,
                                               st.st_mtim.tv_nsec, link ? link : "-"));
    }
  g_ptr_array_sort (lines, compare_names);
  g_ptr_array_add (lines, NULL);

  return g_strjoinv ("\n", (char **) lines->pdata);
}

static void
report_peak (Proc       *proc,
             const char *what)
{
  g_test_message ("%s: %.1f ms, peak memory %ld KiB",
                  what, proc->elapsed / 1000.0, proc->usage.ru_maxrss);
}

static void
test_not_a_settings_file (gconstpointer data)
{
  Special special = GPOINTER_TO_INT (data);
  g_auto(Home) home = { 0 };
  g_autofree char *project_before = NULL;
  g_autofree char *config_before = NULL;
  const char *what = NULL;

  home_init (&home);
  switch (special)
    {
    case SPECIAL_DEV_ZERO:
      g_assert_cmpint (symlink ("/dev/zero", home.project_file), ==, 0);
      what = "a character device";
      break;
    case SPECIAL_FIFO:
      g_assert_cmpint (mkfifo (home.project_file, 0600), ==, 0);
      what = "a named pipe (FIFO)";
      break;
    case SPECIAL_SPARSE:
    default:
      {
        int fd = g_open (home.project_file, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);

        g_assert_cmpint (fd, >=, 0);
        g_assert_cmpint (ftruncate (fd, 100 * 1024 * 1024), ==, 0);
        close (fd);
        /* g_format_size() puts a no-break space before the unit */
        what = "100.0\302\240MiB, more than";
      }
      break;
    }
  project_before = describe_dir (home.project_dir);
  config_before = describe_dir (home.config_dir);

  {
    g_auto(Proc) proc = { 0 };

    run_cli_measured (&proc, &home, SPECIAL_FILE_WATCHDOG_S, (const char * const []) { "list", NULL });
    report_peak (&proc, "list");
    g_assert_false (WIFSIGNALED (proc.status));
    g_assert_cmpint (proc_exit_status (&proc), ==, EXIT_SETTINGS);
    assert_one_failure_line (&proc, home.project_file, what, NULL);
    g_assert_cmpint (proc.usage.ru_maxrss, <, PEAK_MEMORY_LIMIT_KB);
  }

  {
    g_auto(Proc) proc = { 0 };
    g_autofree char *project_after = NULL;
    g_autofree char *config_after = NULL;
    g_autofree char *line = NULL;

    run_cli_measured (&proc, &home, SPECIAL_FILE_WATCHDOG_S,
                      (const char * const []) { "add", "--scope", "project", "x", "--", "/bin/true", NULL });
    report_peak (&proc, "add --scope project");
    g_assert_false (WIFSIGNALED (proc.status));
    g_assert_cmpint (proc_exit_status (&proc), ==, EXIT_SETTINGS);
    line = failure_line (&proc);
    g_assert_nonnull (strstr (line, what));
    g_assert_cmpint (proc.usage.ru_maxrss, <, PEAK_MEMORY_LIMIT_KB);

    project_after = describe_dir (home.project_dir);
    config_after = describe_dir (home.config_dir);
    g_assert_cmpstr (project_after, ==, project_before);
    g_assert_cmpstr (config_after, ==, config_before);
    g_assert_false (g_file_test (home.backup_dir, G_FILE_TEST_EXISTS));

    /* The person asked about the project's .mcp.json: the line says
     * that file, not only where its link leads. */
    g_assert_nonnull (strstr (line, home.project_file));
  }
}

int
main (int    argc,
      char **argv)
{
  if (argc > 2 && strcmp (argv[1], "--measure-child") == 0)
    return measure_child (argv + 2);

  g_test_init (&argc, &argv, NULL);

  cli_path = g_getenv ("MCP_TEST_PLUGBOARD_CLI");
  if (cli_path == NULL || !g_file_test (cli_path, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_printerr ("MCP_TEST_PLUGBOARD_CLI is not set or not built\n");
      return 77;
    }

  g_test_add_func ("/settings-files/concurrent-writers", test_concurrent_writers);
  g_test_add_func ("/settings-files/disk-full/nothing-fits", test_disk_full_nothing_fits);
  g_test_add_func ("/settings-files/disk-full/only-backup-fits", test_disk_full_only_backup_fits);
  g_test_add_func ("/settings-files/rlimit-fsize/backup-too-large", test_file_size_limit_backup);
  g_test_add_func ("/settings-files/rlimit-fsize/file-too-large", test_file_size_limit_file);
  g_test_add_func ("/settings-files/sigkill/mid-write", test_sigkill_mid_write);
  g_test_add_func ("/settings-files/sigkill/backup-temporary", test_sigkill_backup_temporary);
  g_test_add_func ("/settings-files/modes/new-file", test_new_file_mode);
  g_test_add_func ("/settings-files/modes/existing-file", test_existing_mode_kept);
  g_test_add_func ("/settings-files/places/project", test_project_leaves_no_other_file);
  g_test_add_func ("/settings-files/places/symlink", test_symlinked_settings);
  g_test_add_data_func ("/settings-files/not-settings/dev-zero",
                        GINT_TO_POINTER (SPECIAL_DEV_ZERO), test_not_a_settings_file);
  g_test_add_data_func ("/settings-files/not-settings/fifo",
                        GINT_TO_POINTER (SPECIAL_FIFO), test_not_a_settings_file);
  g_test_add_data_func ("/settings-files/not-settings/sparse-100mb",
                        GINT_TO_POINTER (SPECIAL_SPARSE), test_not_a_settings_file);

  return g_test_run ();
}
