/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-stdio-transport"

#include "config.h"

#include "mcp-stdio-transport.h"
#include "mcp-stdio-transport-private.h"

#include <errno.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <glib/gi18n.h>

#include "mcp-error.h"

/* McpStdioTransport: the server's process — signals to its group, the
 * reason it ended, and the shutdown in steps (stdin closed, SIGINT,
 * SIGTERM, SIGKILL). */

#define CLOSE_SIGINT_DELAY_MS 100
#define CLOSE_SIGTERM_DELAY_MS 100
#define CLOSE_SIGKILL_DELAY_MS 400

void
mcp_stdio_transport_signal_group (McpStdioTransport *self,
                                  int                sig)
{
  if (self->pid <= 0)
    return;

  g_debug ("Sending signal %d to “%s” (process group %d)",
           sig, command_name (self), (int) self->pid);

  if (kill (-self->pid, sig) != 0 && !self->exited)
    kill (self->pid, sig);
}

gboolean
mcp_stdio_transport_group_alive (McpStdioTransport *self)
{
  if (self->pid <= 0)
    return FALSE;
  if (!self->exited)
    return TRUE;
  return kill (-self->pid, 0) == 0;
}

void
mcp_stdio_transport_fail_connection (McpStdioTransport *self,
                                     const GError      *reason)
{
  g_object_ref (self);
  clear_source (&self->stdout_source);
  mcp_stdio_transport_close_stdin (self);
  if (!self->owner_closed)
    mcp_transport_emit_closed (MCP_TRANSPORT (self), reason);
  mcp_stdio_transport_begin_shutdown (self);
  mcp_stdio_transport_maybe_finish (self);
  g_object_unref (self);
}

static GError *
exit_reason (McpStdioTransport *self)
{
  int status = self->wait_status;

  /* When we had to signal it, the real reason is what made us do that. */
  if (self->signalled && self->pending_reason != NULL)
    return g_error_copy (self->pending_reason);

  if (WIFSIGNALED (status))
    return g_error_new (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                        /* Translators: %s is the server's command, %d a signal number, the
                         * last %s the signal's name from the system (e.g. “Killed”). */
                        _("Server “%s” was killed by signal %d (%s)"),
                        command_name (self), WTERMSIG (status),
                        g_strsignal (WTERMSIG (status)));

  /* The login shell on the host could not find or run the command. */
  if (self->on_host && WIFEXITED (status) &&
      (WEXITSTATUS (status) == 127 || WEXITSTATUS (status) == 126))
    return g_error_new (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                        /* Translators: %s is the server's command, %d an exit status (126
                         * or 127); “the host” is the computer outside the Flatpak sandbox. */
                        _("Server “%s” could not be started on the host (status %d): "
                          "it is not in the PATH of your login shell, or not executable"),
                        command_name (self), WEXITSTATUS (status));

  if (WIFEXITED (status) && WEXITSTATUS (status) != 0)
    return g_error_new (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                        /* Translators: %s is the server's command, %d its exit status. */
                        _("Server “%s” exited with status %d"),
                        command_name (self), WEXITSTATUS (status));

  return g_error_new (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                      /* Translators: %s is the server's command. */
                      _("Server “%s” exited"), command_name (self));
}

void
mcp_stdio_transport_complete_close_tasks (McpStdioTransport *self)
{
  g_autoptr(GPtrArray) tasks = g_steal_pointer (&self->close_tasks);

  for (guint i = 0; tasks != NULL && i < tasks->len; i++)
    g_task_return_boolean (g_ptr_array_index (tasks, i), TRUE);
}

void
mcp_stdio_transport_maybe_finish (McpStdioTransport *self)
{
  if (!self->exited)
    return;

  if (self->shutdown_stage != SHUTDOWN_NONE &&
      self->shutdown_stage != SHUTDOWN_SIGKILL_SENT &&
      mcp_stdio_transport_group_alive (self))
    return;

  g_clear_handle_id (&self->shutdown_source, g_source_remove);

  mcp_stdio_transport_complete_close_tasks (self);
}

static gboolean
shutdown_step_cb (gpointer user_data)
{
  McpStdioTransport *self = user_data;
  g_autoptr(McpStdioTransport) hold = g_object_ref (self);

  self->shutdown_source = 0;

  if (self->exited && !mcp_stdio_transport_group_alive (self))
    {
      mcp_stdio_transport_maybe_finish (self);
      return G_SOURCE_REMOVE;
    }

  self->signalled = TRUE;

  switch (self->shutdown_stage)
    {
    case SHUTDOWN_STDIN_CLOSED:
      mcp_stdio_transport_signal_group (self, SIGINT);
      self->shutdown_stage = SHUTDOWN_SIGINT_SENT;
      self->shutdown_source = g_timeout_add (CLOSE_SIGTERM_DELAY_MS, shutdown_step_cb, self);
      break;

    case SHUTDOWN_SIGINT_SENT:
      mcp_stdio_transport_signal_group (self, SIGTERM);
      self->shutdown_stage = SHUTDOWN_SIGTERM_SENT;
      self->shutdown_source = g_timeout_add (CLOSE_SIGKILL_DELAY_MS, shutdown_step_cb, self);
      break;

    case SHUTDOWN_SIGTERM_SENT:
      mcp_stdio_transport_signal_group (self, SIGKILL);
      self->shutdown_stage = SHUTDOWN_SIGKILL_SENT;
      mcp_stdio_transport_maybe_finish (self);
      break;

    case SHUTDOWN_NONE:
    case SHUTDOWN_SIGKILL_SENT:
    default:
      break;
    }

  return G_SOURCE_REMOVE;
}

void
mcp_stdio_transport_begin_shutdown (McpStdioTransport *self)
{
  mcp_stdio_transport_close_stdin (self);

  if (self->shutdown_stage != SHUTDOWN_NONE || self->pid <= 0)
    return;

  self->shutdown_stage = SHUTDOWN_STDIN_CLOSED;
  if (!mcp_stdio_transport_group_alive (self))
    return;

  self->shutdown_source = g_timeout_add (CLOSE_SIGINT_DELAY_MS, shutdown_step_cb, self);
}

void
mcp_stdio_transport_wait_cb (GObject      *object,
                             GAsyncResult *result,
                             gpointer      user_data)
{
  GSubprocess *process = G_SUBPROCESS (object);
  g_autoptr(GError) error = NULL;
  McpStdioTransport *self;

  if (!g_subprocess_wait_finish (process, result, &error) &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = MCP_STDIO_TRANSPORT (user_data);
  g_object_ref (self);

  self->exited = TRUE;
  self->wait_status = g_subprocess_get_status (process);
  g_debug ("“%s” ended, wait status %d", command_name (self), self->wait_status);

  /* What the server wrote before it died still counts. */
  mcp_stdio_transport_drain_stdout (self);
  if (self->stderr_source != NULL && !mcp_stdio_transport_read_stderr (self))
    clear_source (&self->stderr_source);

  clear_source (&self->stdout_source);
  mcp_stdio_transport_close_stdin (self);

  mcp_stdio_transport_emit_exited (self, self->wait_status);

  if (self->owner_closed)
    mcp_transport_emit_closed (MCP_TRANSPORT (self), NULL);
  else if (!mcp_transport_is_closed (MCP_TRANSPORT (self)))
    {
      g_autoptr(GError) reason = exit_reason (self);

      mcp_transport_emit_closed (MCP_TRANSPORT (self), reason);
    }

  /* A launcher's children may outlive it; they are shut down too. */
  if (mcp_stdio_transport_group_alive (self))
    {
      if (self->shutdown_stage == SHUTDOWN_NONE)
        mcp_stdio_transport_begin_shutdown (self);
    }

  mcp_stdio_transport_maybe_finish (self);
  g_object_unref (self);
}
