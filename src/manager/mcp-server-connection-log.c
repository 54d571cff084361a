/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-server-connection"

#include "config.h"

#include "mcp-server-connection.h"
#include "mcp-server-connection-private.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-json-private.h"
#include "mcp-redact.h"
#include "mcp-stdio-transport.h"
#include "mcp-task.h"

/* What leaves the engine about a server, with its secrets masked: its
 * error, its log (stderr lines, notifications, log messages, state
 * changes), its stderr tail; and the notifications passed on as signals
 * (resource-updated, task-status). */

#define STDERR_TAIL_LINES    20
#define STDERR_MESSAGE_LINES 5
#define LOG_NOTIFICATION_MAX_CHARS 2000

/* ------------------------------------------------------------------------ */
/* Secrets                                                                  */

/* What the attempt under way (or the last one) runs with: every value its
 * ${VAR}s gave, env and header values, URL user info and query values. */
void
mcp_server_connection_set_secrets (McpServerConnection *self,
                                   McpServerConfig     *expanded)
{
  g_clear_pointer (&self->secrets, g_strfreev);
  self->secrets = mcp_server_config_dup_secrets (expanded);
  mcp_redact_register_secrets ((const char * const *) self->secrets);
  mcp_trace_set_secrets (self->trace, (const char * const *) self->secrets);
}

static const char * const *
get_secrets (McpServerConnection *self)
{
  if (self->secrets == NULL)
    {
      g_autoptr(McpServerConfig) expanded = NULL;

      expanded = mcp_server_config_expand (self->config,
                                           (const char * const *) self->environ, NULL);
      mcp_server_connection_set_secrets (self, expanded != NULL ? expanded : self->config);
    }

  return (const char * const *) self->secrets;
}

void
mcp_server_connection_ensure_secrets (McpServerConnection *self)
{
  get_secrets (self);
}

/* The one place where a message about this server leaves the engine: its
 * error, its log, its stderr tail. */
static char *
redact (McpServerConnection *self,
        const char          *text)
{
  return mcp_redact_text (text, get_secrets (self));
}

/* A copy, so that an extended error keeps its data. */
GError *
mcp_server_connection_redact_error (McpServerConnection *self,
                                    const GError        *error)
{
  GError *copy;

  if (error == NULL)
    return NULL;
  copy = g_error_copy (error);
  g_free (copy->message);
  copy->message = redact (self, error->message);
  return copy;
}

/* ------------------------------------------------------------------------ */
/* Log                                                                      */

static void
push_log_entry (McpServerConnection *self,
                McpLogEntry         *entry)
{
  if (g_list_model_get_n_items (G_LIST_MODEL (self->log)) >= MCP_SERVER_CONNECTION_LOG_MAX)
    g_list_store_remove (self->log, 0);
  g_list_store_append (self->log, entry);
}

void
mcp_server_connection_append_log (McpServerConnection *self,
                                  McpLogEntryKind      kind,
                                  const char          *text)
{
  g_autofree char *shown = redact (self, text);
  g_autoptr(McpLogEntry) entry = mcp_log_entry_new (kind, shown);

  push_log_entry (self, entry);
}

void
mcp_server_connection_log_state (McpServerConnection *self,
                                 McpServerState       state,
                                 const GError        *error)
{
  g_autofree char *text = NULL;

  switch (state)
    {
    case MCP_SERVER_STATE_PENDING:
      text = g_strdup (_("Connecting…"));
      break;
    case MCP_SERVER_STATE_CONNECTED:
      {
        guint n = g_list_model_get_n_items (G_LIST_MODEL (self->tools));

        text = g_strdup_printf (ngettext ("Connected (%u tool)", "Connected (%u tools)", n), n);
      }
      break;
    case MCP_SERVER_STATE_FAILED:
      text = g_strdup_printf (_("Failed: %s"), error != NULL ? error->message : _("unknown reason"));
      break;
    case MCP_SERVER_STATE_NEEDS_AUTH:
      text = g_strdup_printf (_("Needs sign-in: %s"), error != NULL ? error->message : _("sign in to use it"));
      break;
    case MCP_SERVER_STATE_DISABLED:
      if (self->config != NULL && mcp_server_config_get_disabled_reason (self->config) != NULL)
        /* Translators: %s says why, e.g. "awaiting approval" */
        text = g_strdup_printf (_("Disabled: %s"), mcp_server_config_get_disabled_reason (self->config));
      else
        text = g_strdup (_("Disabled"));
      break;
    default:
      g_assert_not_reached ();
    }

  mcp_server_connection_append_log (self, MCP_LOG_ENTRY_STATE, text);
  mcp_trace_record_event (self->trace, "state", text,
                          state == MCP_SERVER_STATE_FAILED || state == MCP_SERVER_STATE_NEEDS_AUTH
                          ? error : NULL, NULL);
}

McpTrace *
mcp_server_connection_get_trace (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  return self->trace;
}

static void
on_stderr_line_cb (McpStdioTransport   *transport,
                   const char          *line,
                   McpServerConnection *self)
{
  mcp_server_connection_append_log (self, MCP_LOG_ENTRY_STDERR, line);
}

/* At most @max characters, the last one an ellipsis when cut. */
static void
cut_text (GString *text,
          glong    max)
{
  if (g_utf8_strlen (text->str, -1) > max)
    {
      const char *end = g_utf8_offset_to_pointer (text->str, max - 1);

      g_string_truncate (text, end - text->str);
      g_string_append (text, "…");
    }
}

static void
on_server_notification_cb (McpClient           *client,
                           const char          *method,
                           JsonObject          *params,
                           McpServerConnection *self)
{
  g_autoptr(GString) text = NULL;

  /* A log message gets an entry of its own, with its level and logger
   * (on_log_message_cb). */
  if (params != NULL && g_strcmp0 (method, "notifications/message") == 0)
    return;

  text = g_string_new (method);
  if (params != NULL)
    {
      g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), params);

      g_string_append_c (text, ' ');
      mcp_json_append (text, node);
    }

  cut_text (text, LOG_NOTIFICATION_MAX_CHARS);
  mcp_server_connection_append_log (self, MCP_LOG_ENTRY_NOTIFICATION, text->str);
}

static void
on_log_message_cb (McpClient           *client,
                   const char          *level,
                   const char          *logger,
                   JsonNode            *data,
                   McpServerConnection *self)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(McpLogEntry) entry = NULL;
  g_autofree char *shown = NULL;

  if (data != NULL && JSON_NODE_HOLDS_VALUE (data) && json_node_get_value_type (data) == G_TYPE_STRING)
    g_string_append (text, json_node_get_string (data));
  else if (data != NULL)
    mcp_json_append (text, data);

  /* The level and logger in front, cut like the notifications. */
  cut_text (text, LOG_NOTIFICATION_MAX_CHARS - strlen (level) -
                  (logger != NULL ? g_utf8_strlen (logger, -1) + 1 : 0) - 2);
  shown = redact (self, text->str);
  entry = mcp_log_entry_new_message (level, logger, shown);
  push_log_entry (self, entry);
}

/* A tool left out of the listing, …: the person looks in the log for why. */
static void
on_client_warning_cb (McpClient           *client,
                      const char          *message,
                      McpServerConnection *self)
{
  if (client == self->client)
    mcp_server_connection_append_log (self, MCP_LOG_ENTRY_WARNING, message);
}

static void
on_notification_cb (McpClient           *client,
                    McpMessage          *message,
                    McpServerConnection *self)
{
  const char *method = mcp_message_get_method (message);
  JsonObject *params = mcp_message_get_params_object (message);

  if (client != self->client)
    return;

  if (g_strcmp0 (method, "notifications/resources/updated") == 0)
    {
      JsonNode *node = params != NULL ? json_object_get_member (params, "uri") : NULL;
      const char *uri = node != NULL && json_node_get_value_type (node) == G_TYPE_STRING
                        ? json_node_get_string (node) : NULL;

      if (uri == NULL)
        {
          g_debug ("“%s”: notifications/resources/updated without a uri",
                   mcp_server_config_get_name (self->config));
          return;
        }
      mcp_server_connection_emit (self, CONNECTION_RESOURCE_UPDATED, uri);
    }
  else if (g_strcmp0 (method, "notifications/tasks/status") == 0)
    {
      g_autoptr(McpTask) task = NULL;
      g_autoptr(GError) error = NULL;

      if (params != NULL)
        task = mcp_task_new_from_json (params, &error);
      if (task == NULL)
        {
          g_debug ("“%s”: notifications/tasks/status skipped: %s",
                   mcp_server_config_get_name (self->config),
                   error != NULL ? error->message : "no params");
          return;
        }
      mcp_server_connection_emit (self, CONNECTION_TASK_STATUS, task);
    }
}

void
mcp_server_connection_watch_log (McpServerConnection *self,
                                 McpClient           *client,
                                 McpTransport        *transport)
{
  g_signal_connect_object (client, "server-notification",
                           G_CALLBACK (on_server_notification_cb), self, 0);
  g_signal_connect_object (client, "log-message",
                           G_CALLBACK (on_log_message_cb), self, 0);
  g_signal_connect_object (client, "warning",
                           G_CALLBACK (on_client_warning_cb), self, 0);
  g_signal_connect_object (client, "notification",
                           G_CALLBACK (on_notification_cb), self, 0);
  /* Lines that come after the client is dropped are still the server's. */
  if (MCP_IS_STDIO_TRANSPORT (transport))
    g_signal_connect_object (transport, "stderr-line",
                             G_CALLBACK (on_stderr_line_cb), self, 0);
}

GListModel *
mcp_server_connection_get_log (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  return G_LIST_MODEL (self->log);
}

/* ------------------------------------------------------------------------ */
/* The stderr tail                                                          */

GStrv
mcp_server_connection_dup_stderr_tail (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  if (self->stderr_tail == NULL)
    return g_new0 (char *, 1);

  return g_strdupv (self->stderr_tail);
}

void
mcp_server_connection_set_stderr_tail (McpServerConnection *self,
                                       McpTransport        *transport)
{
  g_auto(GStrv) lines = NULL;
  guint n;

  if (!MCP_IS_STDIO_TRANSPORT (transport))
    return;

  lines = mcp_stdio_transport_dup_stderr_lines (MCP_STDIO_TRANSPORT (transport));
  n = g_strv_length (lines);
  g_clear_pointer (&self->stderr_tail, g_strfreev);
  self->stderr_tail = g_new0 (char *, MIN (n, STDERR_TAIL_LINES) + 1);
  for (guint i = n > STDERR_TAIL_LINES ? n - STDERR_TAIL_LINES : 0, j = 0; i < n; i++, j++)
    self->stderr_tail[j] = redact (self, lines[i]);
  mcp_server_connection_notify (self, CONNECTION_PROP_STDERR_TAIL);
}

/* The reason with the last lines the server wrote to stderr, which usually
 * say why it stopped. */
GError *
mcp_server_connection_describe_failure (McpServerConnection *self,
                                        const GError        *reason)
{
  g_autoptr(GString) message = g_string_new (reason->message);
  g_autofree char *shown = NULL;
  GError *copy;
  guint n = self->stderr_tail != NULL ? g_strv_length (self->stderr_tail) : 0;

  if (n > 0)
    {
      g_string_append (message, _("\nLast lines on stderr:"));
      for (guint i = n > STDERR_MESSAGE_LINES ? n - STDERR_MESSAGE_LINES : 0; i < n; i++)
        g_string_append_printf (message, "\n  %s", self->stderr_tail[i]);
    }
  shown = redact (self, message->str);
  copy = g_error_copy (reason);
  g_free (copy->message);
  copy->message = g_steal_pointer (&shown);

  return copy;
}
