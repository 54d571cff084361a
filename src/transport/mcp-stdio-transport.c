/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-stdio-transport"

#include "config.h"

#include "mcp-stdio-transport.h"
#include "mcp-stdio-transport-private.h"

#include <signal.h>
#include <string.h>

#include <sys/wait.h>

#include <glib/gi18n.h>

#include "mcp-error.h"

/* McpStdioTransport: the object, connecting and closing. The parts are
 * named in mcp-stdio-transport-private.h. */

G_DEFINE_FINAL_TYPE (McpStdioTransport, mcp_stdio_transport, MCP_TYPE_TRANSPORT)

enum {
  PROP_0,
  PROP_ARGV,
  PROP_ENV,
  PROP_CWD,
  PROP_MAX_MESSAGE_SIZE,
  N_PROPS
};

enum {
  STDERR_LINE,
  EXITED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];


void
mcp_stdio_transport_emit_stderr_line (McpStdioTransport *self,
                                      const char        *line)
{
  McpTrace *trace = mcp_transport_get_trace (MCP_TRANSPORT (self));

  if (trace != NULL)
    mcp_trace_record_stderr (trace, line);
  g_signal_emit (self, signals[STDERR_LINE], 0, line);
}

void
mcp_stdio_transport_emit_exited (McpStdioTransport *self,
                                 int                wait_status)
{
  McpTrace *trace = mcp_transport_get_trace (MCP_TRANSPORT (self));

  if (trace != NULL)
    {
      g_autofree char *text = NULL;

      if (WIFEXITED (wait_status))
        /* Translators: %d is an exit status. */
        text = g_strdup_printf (_("The server exited with status %d"), WEXITSTATUS (wait_status));
      else if (WIFSIGNALED (wait_status))
        /* Translators: %s is a signal's name, such as SIGKILL. */
        text = g_strdup_printf (_("The server was killed by %s"), g_strsignal (WTERMSIG (wait_status)));
      else
        text = g_strdup (_("The server exited"));
      mcp_trace_record_event (trace, "exited", text, NULL, NULL);
    }
  g_signal_emit (self, signals[EXITED], 0, wait_status);
}

static void
mcp_stdio_transport_connect_async (McpTransport        *transport,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  McpStdioTransport *self = MCP_STDIO_TRANSPORT (transport);
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_stdio_transport_connect_async);

  if (self->started)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_FAILED,
                               _("The transport for “%s” was already started"),
                               command_name (self));
      return;
    }
  self->started = TRUE;

  if (g_task_return_error_if_cancelled (task))
    return;

  if (!mcp_stdio_transport_spawn (self, &error))
    {
      g_debug ("%s", error->message);
      mcp_transport_emit_closed (transport, error);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  mcp_transport_set_connected (transport);
  g_task_return_boolean (task, TRUE);
}

static gboolean
mcp_stdio_transport_connect_finish (McpTransport  *transport,
                                    GAsyncResult  *result,
                                    GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, transport), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
mcp_stdio_transport_close_async (McpTransport        *transport,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  McpStdioTransport *self = MCP_STDIO_TRANSPORT (transport);
  g_autoptr(GTask) task = NULL;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_stdio_transport_close_async);

  /* A second close (the owner's, after a failed connect closed us) waits
   * for the first one. */
  if (self->close_tasks != NULL)
    {
      g_ptr_array_add (self->close_tasks, g_steal_pointer (&task));
      return;
    }

  if (self->process == NULL || (self->exited && !mcp_stdio_transport_group_alive (self)))
    {
      if (!mcp_transport_is_closed (transport))
        {
          self->owner_closed = TRUE;
          mcp_transport_emit_closed (transport, NULL);
        }
      g_task_return_boolean (task, TRUE);
      return;
    }

  if (!mcp_transport_is_closed (transport))
    self->owner_closed = TRUE;
  self->close_tasks = g_ptr_array_new_with_free_func (g_object_unref);
  g_ptr_array_add (self->close_tasks, g_steal_pointer (&task));
  mcp_stdio_transport_begin_shutdown (self);
  mcp_stdio_transport_maybe_finish (self);
}

static gboolean
mcp_stdio_transport_close_finish (McpTransport  *transport,
                                  GAsyncResult  *result,
                                  GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, transport), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static char *
mcp_stdio_transport_describe (McpTransport *transport)
{
  McpStdioTransport *self = MCP_STDIO_TRANSPORT (transport);
  GString *str = g_string_new (NULL);

  for (guint i = 0; self->argv != NULL && self->argv[i] != NULL; i++)
    {
      const char *arg = self->argv[i];

      if (i > 0)
        g_string_append_c (str, ' ');
      if (arg[0] == '\0' || strpbrk (arg, " \t\n'\"\\") != NULL)
        {
          g_autofree char *quoted = g_shell_quote (arg);

          g_string_append (str, quoted);
        }
      else
        g_string_append (str, arg);
    }

  return g_string_free (str, FALSE);
}

static void
mcp_stdio_transport_dispose (GObject *object)
{
  McpStdioTransport *self = (McpStdioTransport *)object;

  /* Never leave a server running behind us. */
  if (self->pid > 0 && mcp_stdio_transport_group_alive (self))
    mcp_stdio_transport_signal_group (self, SIGKILL);

  g_cancellable_cancel (self->cancellable);
  g_clear_handle_id (&self->shutdown_source, g_source_remove);
  clear_source (&self->stdout_source);
  clear_source (&self->stderr_source);
  clear_source (&self->stdin_source);
  clear_source (&self->flush_source);
  g_clear_object (&self->stdin_stream);
  g_clear_object (&self->stdout_stream);
  g_clear_object (&self->stderr_stream);
  g_clear_object (&self->process);
  mcp_stdio_transport_complete_close_tasks (self);

  G_OBJECT_CLASS (mcp_stdio_transport_parent_class)->dispose (object);
}

static void
mcp_stdio_transport_finalize (GObject *object)
{
  McpStdioTransport *self = (McpStdioTransport *)object;

  g_clear_pointer (&self->argv, g_strfreev);
  g_clear_pointer (&self->env, g_strfreev);
  g_clear_pointer (&self->cwd, g_free);
  g_clear_pointer (&self->rbuf, g_free);
  g_clear_pointer (&self->wqueue, g_byte_array_unref);
  g_clear_error (&self->write_failure);
  g_clear_pointer (&self->ebuf, g_byte_array_unref);
  g_clear_error (&self->pending_reason);
  g_clear_object (&self->cancellable);
  for (guint i = 0; i < MCP_STDIO_TRANSPORT_STDERR_LINES; i++)
    g_free (self->stderr_ring[i]);

  G_OBJECT_CLASS (mcp_stdio_transport_parent_class)->finalize (object);
}

static void
mcp_stdio_transport_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  McpStdioTransport *self = MCP_STDIO_TRANSPORT (object);

  switch (prop_id)
    {
    case PROP_ARGV:
      g_value_set_boxed (value, self->argv);
      break;

    case PROP_ENV:
      g_value_set_boxed (value, self->env);
      break;

    case PROP_CWD:
      g_value_set_string (value, self->cwd);
      break;

    case PROP_MAX_MESSAGE_SIZE:
      g_value_set_uint64 (value, self->max_message_size);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_stdio_transport_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  McpStdioTransport *self = MCP_STDIO_TRANSPORT (object);

  switch (prop_id)
    {
    case PROP_ARGV:
      self->argv = g_value_dup_boxed (value);
      break;

    case PROP_ENV:
      self->env = g_value_dup_boxed (value);
      break;

    case PROP_CWD:
      self->cwd = g_value_dup_string (value);
      break;

    case PROP_MAX_MESSAGE_SIZE:
      mcp_stdio_transport_set_max_message_size (self, g_value_get_uint64 (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ignore_sigpipe (void)
{
  struct sigaction action;

  /* A server that dies must give EPIPE on write, not kill us. GSocket does
   * the same process-wide. */
  if (sigaction (SIGPIPE, NULL, &action) == 0 && action.sa_handler == SIG_DFL)
    signal (SIGPIPE, SIG_IGN);
}

static gboolean
mcp_stdio_transport_supports_stateless (McpTransport *transport)
{
  return TRUE;
}

static void
mcp_stdio_transport_class_init (McpStdioTransportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  McpTransportClass *transport_class = MCP_TRANSPORT_CLASS (klass);

  object_class->dispose = mcp_stdio_transport_dispose;
  object_class->finalize = mcp_stdio_transport_finalize;
  object_class->get_property = mcp_stdio_transport_get_property;
  object_class->set_property = mcp_stdio_transport_set_property;

  transport_class->connect_async = mcp_stdio_transport_connect_async;
  transport_class->connect_finish = mcp_stdio_transport_connect_finish;
  transport_class->send = mcp_stdio_transport_send;
  transport_class->close_async = mcp_stdio_transport_close_async;
  transport_class->close_finish = mcp_stdio_transport_close_finish;
  transport_class->describe = mcp_stdio_transport_describe;
  transport_class->supports_stateless = mcp_stdio_transport_supports_stateless;

  properties[PROP_ARGV] =
    g_param_spec_boxed ("argv", NULL, NULL,
                        G_TYPE_STRV,
                        (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties[PROP_ENV] =
    g_param_spec_boxed ("env", NULL, NULL,
                        G_TYPE_STRV,
                        (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties[PROP_CWD] =
    g_param_spec_string ("cwd", NULL, NULL,
                         NULL,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties[PROP_MAX_MESSAGE_SIZE] =
    g_param_spec_uint64 ("max-message-size", NULL, NULL,
                         1, G_MAXUINT64 / 2, MCP_STDIO_TRANSPORT_DEFAULT_MAX_MESSAGE_SIZE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * McpStdioTransport::stderr-line:
   * @line: one line the server wrote to stderr
   */
  signals[STDERR_LINE] =
    g_signal_new ("stderr-line",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);

  /**
   * McpStdioTransport::exited:
   * @wait_status: as waitpid() reports it
   */
  signals[EXITED] =
    g_signal_new ("exited",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0,
                  NULL, NULL,
                  NULL,
                  G_TYPE_NONE, 1, G_TYPE_INT);

  ignore_sigpipe ();
}

static void
mcp_stdio_transport_init (McpStdioTransport *self)
{
  self->max_message_size = MCP_STDIO_TRANSPORT_DEFAULT_MAX_MESSAGE_SIZE;
  self->cancellable = g_cancellable_new ();
  self->wqueue = g_byte_array_new ();
  self->ebuf = g_byte_array_new ();
  self->stdin_fd = -1;
  self->stdout_fd = -1;
}

McpTransport *
mcp_stdio_transport_new (const char * const *argv,
                         const char * const *env,
                         const char         *cwd)
{
  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);

  return g_object_new (MCP_TYPE_STDIO_TRANSPORT,
                       "argv", argv,
                       "env", env,
                       "cwd", cwd,
                       NULL);
}

void
mcp_stdio_transport_set_max_message_size (McpStdioTransport *self,
                                          guint64            max_size)
{
  g_return_if_fail (MCP_IS_STDIO_TRANSPORT (self));
  g_return_if_fail (max_size > 0);

  if (self->max_message_size == max_size)
    return;

  self->max_message_size = max_size;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_MESSAGE_SIZE]);
}

guint64
mcp_stdio_transport_get_max_message_size (McpStdioTransport *self)
{
  g_return_val_if_fail (MCP_IS_STDIO_TRANSPORT (self), 0);

  return self->max_message_size;
}

GStrv
mcp_stdio_transport_dup_stderr_lines (McpStdioTransport *self)
{
  GStrv lines;

  g_return_val_if_fail (MCP_IS_STDIO_TRANSPORT (self), NULL);

  lines = g_new0 (char *, self->stderr_ring_len + 1);
  for (guint i = 0; i < self->stderr_ring_len; i++)
    lines[i] = g_strdup (self->stderr_ring[(self->stderr_ring_start + i) % MCP_STDIO_TRANSPORT_STDERR_LINES]);

  return lines;
}

GPid
mcp_stdio_transport_get_pid (McpStdioTransport *self)
{
  g_return_val_if_fail (MCP_IS_STDIO_TRANSPORT (self), 0);

  return self->pid;
}

gboolean
mcp_stdio_transport_get_exit_status (McpStdioTransport *self,
                                     int               *wait_status)
{
  g_return_val_if_fail (MCP_IS_STDIO_TRANSPORT (self), FALSE);

  if (self->exited && wait_status != NULL)
    *wait_status = self->wait_status;

  return self->exited;
}
