/* SPDX-License-Identifier: GPL-3.0-or-later */
#define _GNU_SOURCE /* posix_openpt, grantpt, unlockpt, ptsname */

#include "config.h"

#include "test-run.h"
#include "test-util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <glib-unix.h>

void
test_run_clear (TestRun *run)
{
  g_clear_pointer (&run->out, g_free);
  g_clear_pointer (&run->err, g_free);
}

static char *
dup_bytes (GBytes *bytes)
{
  /* (an empty GBytes has NULL data) */
  if (bytes == NULL || g_bytes_get_size (bytes) == 0)
    return g_strdup ("");
  return g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
}

static int
exit_status_of (GSubprocess *process)
{
  return g_subprocess_get_if_exited (process) ? g_subprocess_get_exit_status (process) : -1;
}

void
test_run_wait (TestRun     *run,
               GSubprocess *process,
               const char  *input,
               const char  *what,
               guint        bound_s)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GBytes) stdin_bytes = NULL;
  g_autoptr(GError) error = NULL;
  GBytes *out = NULL;
  GBytes *err = NULL;
  gboolean hung;
  guint deadline;

  /* A stdin pipe is closed after @input (nothing when NULL). */
  if (input != NULL || g_subprocess_get_stdin_pipe (process) != NULL)
    stdin_bytes = g_bytes_new (input, input != NULL ? strlen (input) : 0);

  deadline = test_deadline (bound_s, &hung);
  g_subprocess_communicate_async (process, stdin_bytes, NULL, test_result_cb, &result);
  while (result == NULL && !hung)
    g_main_context_iteration (NULL, TRUE);
  if (hung)
    {
      g_subprocess_force_exit (process);
      g_error ("%s did not finish within %u s", what, bound_s);
    }
  g_source_remove (deadline);

  g_subprocess_communicate_finish (process, result, &out, &err, &error);
  g_assert_no_error (error);
  run->out = dup_bytes (out);
  run->err = dup_bytes (err);
  g_clear_pointer (&out, g_bytes_unref);
  g_clear_pointer (&err, g_bytes_unref);
  run->exit_status = exit_status_of (process);
  run->prompted = FALSE;
}

void
test_run_piped (TestRun             *run,
                GSubprocessLauncher *launcher,
                const char * const  *argv,
                const char          *input,
                guint                bound_s)
{
  g_autoptr(GSubprocessLauncher) owned = launcher;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;

  process = g_subprocess_launcher_spawnv (owned, argv, &error);
  g_assert_no_error (error);

  test_run_wait (run, process, input, argv[0], bound_s);

  g_test_message ("%s: exit %d\nstdout:\n%s\nstderr:\n%s",
                  argv[1] != NULL ? argv[1] : argv[0], run->exit_status, run->out, run->err);
}

typedef struct
{
  GString           *seen;
  const TestRunStep *steps;
  guint              next;
  gsize              from;      /* where the next prompt is looked for */
  gboolean           eof;       /* no slave end is open any more */
  gboolean           exited;
} Pty;

static void
pty_child_setup (gpointer user_data)
{
  /* Between fork and exec: async-signal-safe calls only. */
  setsid ();
  ioctl (STDIN_FILENO, TIOCSCTTY, 0);
}

static void
write_all (int         fd,
           const char *text)
{
  gsize len = strlen (text);
  gsize done = 0;

  while (done < len)
    {
      ssize_t n = write (fd, text + done, len - done);

      if (n < 0 && (errno == EINTR || errno == EAGAIN))
        continue;
      if (n < 0)
        g_error ("writing the answer to the terminal: %s", g_strerror (errno));
      done += (gsize) n;
    }
}

static gboolean
pty_readable_cb (int          fd,
                 GIOCondition condition,
                 gpointer     user_data)
{
  Pty *pty = user_data;
  char buf[4096];

  for (;;)
    {
      ssize_t n = read (fd, buf, sizeof buf);

      if (n > 0)
        {
          g_string_append_len (pty->seen, buf, n);
          continue;
        }
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0 && errno == EAGAIN)
        break;
      /* 0 or EIO: every slave end is closed and all was read */
      pty->eof = TRUE;
      break;
    }

  /* each answer once its prompt shows, in order */
  while (pty->steps[pty->next].prompt != NULL)
    {
      const char *found = strstr (pty->seen->str + pty->from, pty->steps[pty->next].prompt);

      if (found == NULL)
        break;
      pty->from = (gsize) (found - pty->seen->str) + strlen (pty->steps[pty->next].prompt);
      if (pty->steps[pty->next].answer != NULL)
        write_all (fd, pty->steps[pty->next].answer);
      pty->next++;
    }

  return pty->eof ? G_SOURCE_REMOVE : G_SOURCE_CONTINUE;
}

static void
pty_wait_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Pty *pty = user_data;

  g_subprocess_wait_finish (G_SUBPROCESS (object), result, NULL);
  pty->exited = TRUE;
}

void
test_run_pty (TestRun             *run,
              GSubprocessLauncher *launcher,
              const char * const  *argv,
              const char          *prompt,
              const char          *answer,
              guint                bound_s)
{
  const TestRunStep steps[] = { { prompt, answer }, { NULL, NULL } };

  test_run_pty_steps (run, launcher, argv, prompt != NULL ? steps : steps + 1, bound_s);
}

void
test_run_pty_steps (TestRun             *run,
                    GSubprocessLauncher *launcher,
                    const char * const  *argv,
                    const TestRunStep   *steps,
                    guint                bound_s)
{
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  Pty pty = { 0 };
  gboolean hung;
  guint deadline;
  guint watch_id;
  int master;
  int slave;

  master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);
  g_assert_cmpint (master, >=, 0);
  g_assert_cmpint (grantpt (master), ==, 0);
  g_assert_cmpint (unlockpt (master), ==, 0);
  slave = open (ptsname (master), O_RDWR | O_NOCTTY | O_CLOEXEC);
  g_assert_cmpint (slave, >=, 0);
  g_assert_true (g_unix_set_fd_nonblocking (master, TRUE, NULL));
  pty.seen = g_string_new (NULL);
  pty.steps = steps;

  g_subprocess_launcher_take_stdin_fd (launcher, dup (slave));
  g_subprocess_launcher_take_stdout_fd (launcher, dup (slave));
  g_subprocess_launcher_take_stderr_fd (launcher, dup (slave));
  g_subprocess_launcher_set_child_setup (launcher, pty_child_setup, NULL, NULL);
  process = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  /* Only the child holds the slave now, so that its end shows as EOF. */
  g_object_unref (launcher);
  close (slave);

  watch_id = g_unix_fd_add (master, G_IO_IN | G_IO_HUP | G_IO_ERR, pty_readable_cb, &pty);
  g_subprocess_wait_async (process, NULL, pty_wait_cb, &pty);
  deadline = test_deadline (bound_s, &hung);
  while (!(pty.exited && pty.eof) && !hung)
    g_main_context_iteration (NULL, TRUE);
  if (hung)
    {
      g_subprocess_force_exit (process);
      g_error ("%s on a terminal did not finish within %u s (waiting for “%s”); it showed:\n%s",
               argv[0], bound_s, steps[pty.next].prompt != NULL ? steps[pty.next].prompt : "the end",
               pty.seen->str);
    }
  g_source_remove (deadline);
  if (!pty.eof)
    g_source_remove (watch_id);
  close (master);

  run->exit_status = exit_status_of (process);
  run->prompted = steps[pty.next].prompt == NULL;
  run->out = g_string_free (pty.seen, FALSE);
  run->err = g_strdup ("");

  g_test_message ("%s: exit %d\nterminal:\n%s",
                  argv[1] != NULL ? argv[1] : argv[0], run->exit_status, run->out);
}

struct _TestLineReader
{
  GDataInputStream *stream;
  GCancellable     *cancellable;
  GPtrArray        *lines;
  char             *name;
};

static void read_next_line (TestLineReader *reader);

static void
line_read_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  TestLineReader *reader = user_data;
  g_autoptr(GError) error = NULL;
  char *line;

  line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object), result,
                                                    NULL, &error);
  /* (freed meanwhile: not to be touched) */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (line == NULL)
    return;

  g_debug ("%s: %s", reader->name, line);
  g_ptr_array_add (reader->lines, line);
  read_next_line (reader);
}

static void
read_next_line (TestLineReader *reader)
{
  g_data_input_stream_read_line_async (reader->stream, G_PRIORITY_DEFAULT, reader->cancellable,
                                       line_read_cb, reader);
}

TestLineReader *
test_line_reader_new (GInputStream *stream,
                      GPtrArray    *lines,
                      const char   *name)
{
  TestLineReader *reader = g_new0 (TestLineReader, 1);

  reader->stream = g_data_input_stream_new (stream);
  reader->cancellable = g_cancellable_new ();
  reader->lines = g_ptr_array_ref (lines);
  reader->name = g_strdup (name);
  read_next_line (reader);
  return reader;
}

void
test_line_reader_free (TestLineReader *reader)
{
  g_cancellable_cancel (reader->cancellable);
  g_clear_object (&reader->cancellable);
  g_clear_object (&reader->stream);
  g_clear_pointer (&reader->lines, g_ptr_array_unref);
  g_free (reader->name);
  g_free (reader);
}
