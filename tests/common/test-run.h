/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Running a program under test (plugboard-cli, mostly) as a person or a
 * script does: with pipes, or on a pseudo-terminal that answers a prompt.
 * Both stop the test with what was seen when the program does not finish
 * within a bound, so that a hang is a failure, not a stuck suite. */

typedef struct
{
  int       exit_status;  /* -1 when killed by a signal */
  char     *out;          /* stdout; on a terminal, all it showed (\r\n) */
  char     *err;          /* stderr; "" on a terminal */
  gboolean  prompted;     /* on a terminal: the prompt showed */
} TestRun;

void test_run_clear (TestRun *run);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TestRun, test_run_clear)

/* Waits for @process, which was spawned with stdout and stderr pipes, to
 * finish (a stdin pipe, when it has one, gets @input, if not NULL, and is
 * closed), and keeps what it wrote byte for byte (NUL-terminated, not
 * checked as UTF-8). When it does not finish within @bound_s it is killed
 * and the test fails naming @what. */
void test_run_wait  (TestRun             *run,
                     GSubprocess         *process,
                     const char          *input,
                     const char          *what,
                     guint                bound_s);

/* Runs @argv from @launcher (transfer full; made with stdin, stdout and
 * stderr pipes), writes @input (NULL: nothing) to its stdin and closes it.
 * The output is kept byte for byte (NUL-terminated, not checked as
 * UTF-8). */
void test_run_piped (TestRun             *run,
                     GSubprocessLauncher *launcher,
                     const char * const  *argv,
                     const char          *input,
                     guint                bound_s);

/* One exchange on a terminal: @answer written once @prompt shows (after
 * the previous step's prompt). */
typedef struct
{
  const char *prompt;
  const char *answer;
} TestRunStep;

/* Runs @argv from @launcher (transfer full; made with no flags) on a new
 * pseudo-terminal as its controlling terminal (stdin, stdout and stderr),
 * and answers @steps (ended by a NULL prompt) in order; run->prompted
 * says whether every prompt showed. */
void test_run_pty_steps (TestRun             *run,
                         GSubprocessLauncher *launcher,
                         const char * const  *argv,
                         const TestRunStep   *steps,
                         guint                bound_s);

/* The same with one step: @answer (NULL: none) once @prompt has shown. */
void test_run_pty   (TestRun             *run,
                     GSubprocessLauncher *launcher,
                     const char * const  *argv,
                     const char          *prompt,
                     const char          *answer,
                     guint                bound_s);

/* Reads the lines a process writes (its stderr, say) as they come, into
 * @lines (char *, owned by the array), until the stream ends or the reader
 * is freed; each is logged with g_debug() after "@name: ". */
typedef struct _TestLineReader TestLineReader;

TestLineReader *test_line_reader_new  (GInputStream   *stream,
                                       GPtrArray      *lines,
                                       const char     *name);
void            test_line_reader_free (TestLineReader *reader);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TestLineReader, test_line_reader_free)

G_END_DECLS
