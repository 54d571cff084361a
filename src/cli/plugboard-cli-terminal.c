/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib-unix.h>

#include "plugboard-cli-private.h"

/* plugboard-cli: the terminal. Whether there is a person to ask, and the
 * lines they type, read on the main loop so that the servers' requests and
 * Ctrl-C go on being handled while they think. */

/* The terminal */

/* Decides --interactive once: it holds only with a person at a terminal
 * (stdin to type on, stdout to read on). Without one, say so and stay
 * non-interactive: sampling and elicitation are then not declared at all. */
gboolean
plugboard_cli_is_interactive (PlugboardCli *cli)
{
  if (cli->interactive_decided)
    return cli->interactive;

  cli->interactive_decided = TRUE;
  cli->interactive = FALSE;
  if (!cli->interactive_requested)
    return FALSE;

  if (isatty (STDIN_FILENO) && isatty (STDOUT_FILENO))
    cli->interactive = TRUE;
  else
    {
      fflush (stdout);
      plugboard_cli_end_progress_line (cli);
      fprintf (stderr, _("%s: note: --interactive needs a terminal on stdin and stdout; "
                         "going on without it (sampling and elicitation are not offered to the servers)\n"),
               PROGRAM_NAME);
      fflush (stderr);
    }

  return cli->interactive;
}

/* Lines typed on the terminal, handed out in order to the reads waiting.
 *
 * Not a GUnixInputStream on stdin: once poll() has seen the terminal
 * readable, it read()s without O_NONBLOCK, and a Ctrl-C typed in between
 * makes the terminal discard the unread line (ISIG without NOFLSH). That
 * read() then waits for a line nobody types: the SIGINT handler only wakes
 * the main loop, GLib installs it with SA_RESTART, and so the Ctrl-C is
 * never handled. We read our own open file description of the terminal,
 * non-blocking (stdin's is shared with the shell, whose flags we leave
 * alone): a line discarded that way is an EAGAIN, and back to the main
 * loop, where the Ctrl-C is handled. */
static void
open_terminal (PlugboardCli *cli)
{
  g_autofree char *own_name = g_strdup_printf ("/proc/self/fd/%d", STDIN_FILENO);
  const char *name;
  int fd;

  cli->typed = g_string_new (NULL);
  cli->reads = g_queue_new ();

  fd = open (own_name, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd == -1 && (name = ttyname (STDIN_FILENO)) != NULL)
    fd = open (name, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd != -1)
    {
      cli->terminal_fd = fd;
      cli->terminal_fd_owned = TRUE;
      return;
    }

  /* Without /proc or a name for the terminal: stdin itself, read once
   * each time poll() finds it readable, which leaves only the narrow window
   * between the two for a Ctrl-C to be missed in. */
  g_debug ("No descriptor of our own for the terminal (%s); reading stdin", g_strerror (errno));
  cli->terminal_fd = STDIN_FILENO;
  cli->terminal_fd_owned = FALSE;
}

void
plugboard_cli_close_terminal (PlugboardCli *cli)
{
  if (cli->terminal_source != NULL)
    g_source_destroy (cli->terminal_source);
  g_clear_pointer (&cli->terminal_source, g_source_unref);
  if (cli->terminal_fd_owned)
    close (cli->terminal_fd);
  cli->terminal_fd_owned = FALSE;
  if (cli->typed != NULL)
    g_string_free (cli->typed, TRUE);
  cli->typed = NULL;
  g_clear_pointer (&cli->reads, g_queue_free);
}

/* One read(), never waiting: a line (the terminal gives no more than one
 * at a time), part of one, nothing, or the end of input. */
static gboolean
read_terminal (PlugboardCli *cli,
               GError      **error)
{
  char buf[4096];
  ssize_t n;

  do
    n = read (cli->terminal_fd, buf, sizeof buf);
  while (n == -1 && errno == EINTR);

  if (n > 0)
    g_string_append_len (cli->typed, buf, n);
  else if (n == 0)
    cli->typed_end = TRUE;
  else if (errno != EAGAIN && errno != EWOULDBLOCK)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   /* Translators: %s is the system's reason, such as "Input/output error". */
                   _("Could not read from the terminal: %s"), g_strerror (saved_errno));
      return FALSE;
    }

  return TRUE;
}

/* The next whole line typed, without its end; at the end of input what was
 * typed before it, or NULL. FALSE: no line yet. */
static gboolean
take_typed_line (PlugboardCli *cli,
                 char        **out_line)
{
  const char *newline = memchr (cli->typed->str, '\n', cli->typed->len);

  if (newline != NULL)
    {
      gsize len = newline - cli->typed->str;

      *out_line = g_strndup (cli->typed->str, len);
      g_string_erase (cli->typed, 0, len + 1);
      return TRUE;
    }

  if (cli->typed_end)
    {
      /* A terminal's end of input is for one read: the person may go on
       * typing after Ctrl-D. */
      cli->typed_end = FALSE;
      *out_line = cli->typed->len > 0 ? g_strndup (cli->typed->str, cli->typed->len) : NULL;
      g_string_truncate (cli->typed, 0);
      return TRUE;
    }

  return FALSE;
}

static void
return_line (GTask *task,
             char  *line)
{
  if (line != NULL && !g_utf8_validate (line, -1, NULL))
    {
      g_free (line);
      g_task_return_new_error (task, G_CONVERT_ERROR, G_CONVERT_ERROR_ILLEGAL_SEQUENCE,
                               _("What was typed is not valid UTF-8"));
      return;
    }

  g_task_return_pointer (task, line, g_free);
}

static void watch_terminal (PlugboardCli *cli);

/* Hands the lines read so far to the reads waiting, in order; a read whose
 * cancellable is cancelled ends when its turn comes, as before it. */
static void
serve_reads (PlugboardCli *cli)
{
  GTask *task;

  while ((task = g_queue_peek_head (cli->reads)) != NULL)
    {
      char *line;

      /* Off the queue before it returns: its callback may ask again. */
      if (g_cancellable_is_cancelled (g_task_get_cancellable (task)))
        {
          task = g_queue_pop_head (cli->reads);
          g_task_return_error_if_cancelled (task);
          g_object_unref (task);
          continue;
        }
      if (!take_typed_line (cli, &line))
        break;

      task = g_queue_pop_head (cli->reads);
      return_line (task, line);
      g_object_unref (task);
    }

  watch_terminal (cli);
}

static gboolean
on_terminal_cb (int          fd,
                GIOCondition condition,
                gpointer     user_data)
{
  PlugboardCli *cli = user_data;
  g_autoptr(GError) error = NULL;

  /* Returning G_SOURCE_REMOVE; serve_reads() watches again if need be. */
  g_clear_pointer (&cli->terminal_source, g_source_unref);

  /* No condition: the first read's cancellable woke us. */
  if (condition != 0 && !read_terminal (cli, &error))
    {
      g_autoptr(GTask) task = g_queue_pop_head (cli->reads);

      if (task != NULL)
        g_task_return_error (task, g_steal_pointer (&error));
    }

  serve_reads (cli);

  return G_SOURCE_REMOVE;
}

/* The terminal is watched only while a read waits, and read only when
 * poll() finds it readable: nothing is read ahead of a question. The first
 * read's cancellable wakes the watch too. */
static void
watch_terminal (PlugboardCli *cli)
{
  GTask *task = g_queue_peek_head (cli->reads);
  GCancellable *cancellable;

  if (cli->terminal_source != NULL)
    g_source_destroy (cli->terminal_source);
  g_clear_pointer (&cli->terminal_source, g_source_unref);
  if (task == NULL)
    return;

  cli->terminal_source = g_unix_fd_source_new (cli->terminal_fd, G_IO_IN | G_IO_HUP | G_IO_ERR);
  cancellable = g_task_get_cancellable (task);
  if (cancellable != NULL)
    {
      g_autoptr(GSource) cancelled_source = g_cancellable_source_new (cancellable);

      g_source_set_dummy_callback (cancelled_source);
      g_source_add_child_source (cli->terminal_source, cancelled_source);
    }
  g_source_set_callback (cli->terminal_source, G_SOURCE_FUNC (on_terminal_cb), cli, NULL);
  g_source_set_static_name (cli->terminal_source, "[plugboard-cli] terminal");
  g_source_attach (cli->terminal_source, NULL);
}

/* One read at a time, in the order asked: a second question (the
 * permission to call, a server's request) waits for the first. */
void
plugboard_cli_read_line_async (PlugboardCli       *cli,
                               GCancellable       *cancellable,
                               GAsyncReadyCallback callback,
                               gpointer            user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, plugboard_cli_read_line_async);
  if (cli->typed == NULL)
    open_terminal (cli);

  g_queue_push_tail (cli->reads, task);
  serve_reads (cli);
}

char *
plugboard_cli_read_line_finish (PlugboardCli *cli,
                                GAsyncResult *result,
                                GError      **error)
{
  char *line = g_task_propagate_pointer (G_TASK (result), error);
  gsize len;

  if (line == NULL)
    return NULL;
  len = strlen (line);
  if (len > 0 && line[len - 1] == '\r')
    line[len - 1] = '\0';
  return line;
}

/* "y" or "yes", in any case: what says yes to a [y/N] question. */
gboolean
plugboard_cli_is_yes (const char *line)
{
  return line != NULL && (g_ascii_strcasecmp (line, "y") == 0 || g_ascii_strcasecmp (line, "yes") == 0);
}

/* Whether a person can be asked: a terminal to type on and to read the
 * question on (stderr, where the questions go). */
gboolean
plugboard_cli_have_terminal (void)
{
  return isatty (STDIN_FILENO) && isatty (STDERR_FILENO);
}

typedef struct
{
  GTask        *answer;
  PlugboardCli *cli;
} PendingAnswer;

static void
on_answer_line_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  PendingAnswer *pending = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;

  line = plugboard_cli_read_line_finish (pending->cli, result, &error);
  if (error != NULL)
    g_task_return_error (pending->answer, g_steal_pointer (&error));
  else
    {
      if (line != NULL)
        g_strstrip (line);
      g_task_return_boolean (pending->answer, plugboard_cli_is_yes (line));
    }

  g_object_unref (pending->answer);
  g_free (pending);
}

/* One line from the terminal, on the main loop, with @answer's
 * cancellable: the servers' requests go on being answered while the person
 * thinks. Takes @answer. */
void
plugboard_cli_read_yes_no (PlugboardCli *cli,
                           GTask        *answer)
{
  PendingAnswer *pending = g_new0 (PendingAnswer, 1);

  pending->answer = answer;
  pending->cli = cli;
  plugboard_cli_read_line_async (cli, g_task_get_cancellable (answer), on_answer_line_cb, pending);
}
