/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-oauth"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-oauth-grant-private.h"
#include "mcp-oauth-private.h"

/* Assertions and ID tokens read when a grant needs them (so that a
 * workload token rotated on disk is the one used): from a file, the
 * environment, or a command's standard output. */

#define STDERR_TAIL 2048

typedef struct
{
  char         *what;
  char         *name;          /* the file, variable or program, for messages */
  GSubprocess  *process;
  guint8       *out;           /* secret */
  gsize         out_len;
  GString      *err;           /* the tail of stderr */
  guint         pending;       /* stdout, stderr, exit */
  gboolean      too_long;
  gboolean      timed_out;
  GError       *error;         /* the first read error */
  guint         timeout_id;
  GCancellable *cancellable;   /* the reads' own */
  GCancellable *caller_cancellable;
  gulong        cancelled_id;
} SourceRead;

static void
source_read_free (SourceRead *r)
{
  g_clear_handle_id (&r->timeout_id, g_source_remove);
  if (r->caller_cancellable != NULL)
    g_cancellable_disconnect (r->caller_cancellable, r->cancelled_id);
  g_clear_object (&r->caller_cancellable);
  if (r->out != NULL)
    explicit_bzero (r->out, MCP_OAUTH_SOURCE_MAX_BYTES + 1);
  g_free (r->out);
  if (r->err != NULL)
    g_string_free (r->err, TRUE);
  g_clear_object (&r->process);
  g_clear_error (&r->error);
  g_clear_object (&r->cancellable);
  g_free (r->what);
  g_free (r->name);
  g_free (r);
}

/* The value: valid UTF-8, white space at the end cut, not empty. */
static char *
take_value (const guint8  *data,
            gsize          length,
            const char    *what,
            const char    *name,
            GError       **error)
{
  char *text;

  if (memchr (data, '\0', length) != NULL || !g_utf8_validate ((const char *) data, length, NULL))
    {
      /* Translators: the first %s is a setting (“oauth.assertion”), the second a file, variable or program */
      g_set_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                   _("%s: what “%s” gave is not text"), what, name);
      return NULL;
    }
  text = g_strndup ((const char *) data, length);
  g_strchomp (text);
  g_strchug (text);
  if (text[0] == '\0')
    {
      mcp_oauth_free_secret (text);
      /* Translators: the first %s is a setting (“oauth.assertion”), the second a file, variable or program */
      g_set_error (error, MCP_ERROR, MCP_ERROR_NEEDS_AUTH, _("%s: “%s” gave nothing"), what, name);
      return NULL;
    }
  return text;
}

/* A file */

static void
file_read_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SourceRead *r = g_task_get_task_data (task);
  GError *error = NULL;
  char *value;

  if (!g_input_stream_read_all_finish (G_INPUT_STREAM (object), result, &r->out_len, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          /* Translators: the first %s is a setting, the second a file, the last why */
          g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NEEDS_AUTH, _("%s: reading “%s” failed: %s"),
                                   r->what, r->name, error->message);
          g_error_free (error);
        }
      else
        g_task_return_error (task, error);
      return;
    }
  g_input_stream_close (G_INPUT_STREAM (object), NULL, NULL);

  if (r->out_len > MCP_OAUTH_SOURCE_MAX_BYTES)
    {
      /* Translators: the first %s is a setting, the second a file, %d a number of KiB */
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NEEDS_AUTH, _("%s: “%s” is larger than %d KiB"),
                               r->what, r->name, MCP_OAUTH_SOURCE_MAX_BYTES / 1024);
      return;
    }

  value = take_value (r->out, r->out_len, r->what, r->name, &error);
  if (value == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, value, (GDestroyNotify) mcp_oauth_free_secret);
}

static void
file_opened_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SourceRead *r = g_task_get_task_data (task);
  g_autoptr(GFileInputStream) stream = NULL;
  GError *error = NULL;

  stream = g_file_read_finish (G_FILE (object), result, &error);
  if (stream == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NEEDS_AUTH, _("%s: reading “%s” failed: %s"),
                                   r->what, r->name, error->message);
          g_error_free (error);
        }
      else
        g_task_return_error (task, error);
      return;
    }

  r->out = g_malloc0 (MCP_OAUTH_SOURCE_MAX_BYTES + 1);
  g_input_stream_read_all_async (G_INPUT_STREAM (stream), r->out, MCP_OAUTH_SOURCE_MAX_BYTES + 1,
                                 G_PRIORITY_DEFAULT, g_task_get_cancellable (task), file_read_cb,
                                 g_object_ref (task));
}

/* A command */

static void command_done (GTask *task);

static void
command_part_done (GTask *task)
{
  SourceRead *r = g_task_get_task_data (task);

  if (--r->pending == 0)
    command_done (task);
  g_object_unref (task);
}

static void
command_stdout_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  GTask *task = user_data;
  SourceRead *r = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!g_input_stream_read_all_finish (G_INPUT_STREAM (object), result, &r->out_len, &error))
    {
      if (r->error == NULL)
        r->error = g_steal_pointer (&error);
      g_subprocess_force_exit (r->process);
    }
  else if (r->out_len > MCP_OAUTH_SOURCE_MAX_BYTES)
    {
      /* More than allowed: stop it rather than read on. */
      r->too_long = TRUE;
      g_subprocess_force_exit (r->process);
    }
  command_part_done (task);
}

static void read_stderr (GTask *task);

static void
command_stderr_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  GTask *task = user_data;
  SourceRead *r = g_task_get_task_data (task);
  g_autoptr(GBytes) bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result, NULL);

  if (bytes == NULL || g_bytes_get_size (bytes) == 0)
    {
      command_part_done (task);
      return;
    }

  g_string_append_len (r->err, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  if (r->err->len > STDERR_TAIL)
    g_string_erase (r->err, 0, r->err->len - STDERR_TAIL);
  read_stderr (task);
  g_object_unref (task);
}

static void
read_stderr (GTask *task)
{
  SourceRead *r = g_task_get_task_data (task);

  g_input_stream_read_bytes_async (g_subprocess_get_stderr_pipe (r->process), 4096, G_PRIORITY_DEFAULT,
                                   r->cancellable, command_stderr_cb, g_object_ref (task));
}

static void
command_waited_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  GTask *task = user_data;

  g_subprocess_wait_finish (G_SUBPROCESS (object), result, NULL);
  command_part_done (task);
}

static gboolean
command_timeout_cb (gpointer user_data)
{
  SourceRead *r = user_data;

  r->timeout_id = 0;
  r->timed_out = TRUE;
  g_subprocess_force_exit (r->process);
  /* A child it left behind may hold the pipes open. */
  g_cancellable_cancel (r->cancellable);
  return G_SOURCE_REMOVE;
}

/* The last line of what the command wrote to stderr, fit for a message. */
static char *
stderr_tail (SourceRead *r)
{
  char *end;
  char *start;

  if (r->err->len == 0)
    return NULL;
  end = r->err->str + r->err->len;
  while (end > r->err->str && g_ascii_isspace (end[-1]))
    end--;
  *end = '\0';
  start = strrchr (r->err->str, '\n');
  start = start != NULL ? start + 1 : r->err->str;
  if (*start == '\0')
    return NULL;
  return mcp_oauth_sanitize (start);
}

static void
command_done (GTask *task)
{
  SourceRead *r = g_task_get_task_data (task);
  g_autofree char *tail = stderr_tail (r);
  GError *error = NULL;
  char *value;

  g_clear_handle_id (&r->timeout_id, g_source_remove);

  if (g_task_return_error_if_cancelled (task))
    return;

  if (r->timed_out)
    /* Translators: the first %s is a setting, the second a program, %d a number of seconds */
    error = g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH, _("%s: “%s” did not finish within %d s"),
                         r->what, r->name, MCP_OAUTH_SOURCE_COMMAND_TIMEOUT_S);
  else if (r->too_long)
    error = g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH, _("%s: “%s” printed more than %d KiB"),
                         r->what, r->name, MCP_OAUTH_SOURCE_MAX_BYTES / 1024);
  else if (r->error != NULL)
    error = g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH, _("%s: reading what “%s” printed failed: %s"),
                         r->what, r->name, r->error->message);
  else if (!g_subprocess_get_if_exited (r->process) || g_subprocess_get_exit_status (r->process) != 0)
    {
      g_autofree char *how = NULL;

      if (g_subprocess_get_if_exited (r->process))
        /* Translators: %d is an exit status */
        how = g_strdup_printf (_("exited with status %d"), g_subprocess_get_exit_status (r->process));
      else
        how = g_strdup (_("was killed"));
      if (tail != NULL)
        /* Translators: the first %s is a setting, the second a program, the third “exited with
         * status 1”, the last the last line it wrote to its standard error */
        error = g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH, _("%s: “%s” %s: %s"), r->what, r->name, how, tail);
      else
        error = g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH, _("%s: “%s” %s"), r->what, r->name, how);
    }

  if (error != NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  value = take_value (r->out, r->out_len, r->what, r->name, &error);
  if (value == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, value, (GDestroyNotify) mcp_oauth_free_secret);
}

static void
command_start (GTask                *task,
               const McpOAuthSource *source)
{
  SourceRead *r = g_task_get_task_data (task);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  GError *error = NULL;

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE |
                                        G_SUBPROCESS_FLAGS_STDIN_INHERIT);
  r->process = g_subprocess_launcher_spawnv (launcher, (const char * const *) source->argv, &error);
  if (r->process == NULL)
    {
      /* Translators: the first %s is a setting, the second a program, the last why */
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NEEDS_AUTH, _("%s: “%s” could not be started: %s"),
                               r->what, r->name, error->message);
      g_error_free (error);
      return;
    }

  /* The reads stop when the process is killed (its pipes close); the
   * caller's cancellation kills it. */
  r->cancellable = g_cancellable_new ();
  r->err = g_string_new (NULL);
  r->out = g_malloc0 (MCP_OAUTH_SOURCE_MAX_BYTES + 1);
  r->pending = 3;
  r->timeout_id = g_timeout_add_seconds (MCP_OAUTH_SOURCE_COMMAND_TIMEOUT_S, command_timeout_cb, r);

  g_input_stream_read_all_async (g_subprocess_get_stdout_pipe (r->process), r->out,
                                 MCP_OAUTH_SOURCE_MAX_BYTES + 1, G_PRIORITY_DEFAULT, r->cancellable,
                                 command_stdout_cb, g_object_ref (task));
  read_stderr (task);
  g_subprocess_wait_async (r->process, NULL, command_waited_cb, g_object_ref (task));
}

static void
task_cancelled_cb (GCancellable *cancellable,
                   gpointer      user_data)
{
  GSubprocess *process = user_data;

  g_subprocess_force_exit (process);
}

void
mcp_oauth_source_read_async (const McpOAuthSource *source,
                             const char           *what,
                             GCancellable         *cancellable,
                             GAsyncReadyCallback   callback,
                             gpointer              user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  SourceRead *r = g_new0 (SourceRead, 1);

  g_return_if_fail (source != NULL);

  g_task_set_source_tag (task, mcp_oauth_source_read_async);
  g_task_set_task_data (task, r, (GDestroyNotify) source_read_free);
  r->what = g_strdup (what);

  switch (source->kind)
    {
    case MCP_OAUTH_SOURCE_FILE:
      {
        g_autoptr(GFile) file = g_file_new_for_path (source->path);

        r->name = g_strdup (source->path);
        g_file_read_async (file, G_PRIORITY_DEFAULT, cancellable, file_opened_cb, g_steal_pointer (&task));
      }
      return;

    case MCP_OAUTH_SOURCE_ENV:
      {
        const char *value = g_getenv (source->variable);
        GError *error = NULL;
        char *text;

        r->name = g_strdup (source->variable);
        if (value == NULL)
          {
            /* Translators: the first %s is a setting, the second an environment variable */
            g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                     _("%s: the environment variable %s is not set"), what, source->variable);
            return;
          }
        if (strlen (value) > MCP_OAUTH_SOURCE_MAX_BYTES)
          {
            g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NEEDS_AUTH, _("%s: %s is larger than %d KiB"),
                                     what, source->variable, MCP_OAUTH_SOURCE_MAX_BYTES / 1024);
            return;
          }
        text = take_value ((const guint8 *) value, strlen (value), what, source->variable, &error);
        if (text == NULL)
          g_task_return_error (task, error);
        else
          g_task_return_pointer (task, text, (GDestroyNotify) mcp_oauth_free_secret);
      }
      return;

    case MCP_OAUTH_SOURCE_COMMAND:
      r->name = g_strdup (source->argv[0]);
      command_start (task, source);
      if (r->process != NULL && cancellable != NULL)
        {
          /* Killing the process ends the reads and the wait; the task
           * then returns cancelled. */
          r->caller_cancellable = g_object_ref (cancellable);
          r->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (task_cancelled_cb),
                                                   g_object_ref (r->process), g_object_unref);
        }
      return;

    case MCP_OAUTH_SOURCE_SIGN_IN:
    case MCP_OAUTH_SOURCE_NONE:
    default:
      /* Translators: %s is a setting (“oauth.idp.idToken”) */
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NEEDS_AUTH, _("%s: nothing to read it from"), what);
      return;
    }
}

char *
mcp_oauth_source_read_finish (GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
