/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-traffic-view"

/* PlugboardTrafficView's detail pane: the selected entry (a request with
 * its response, an HTTP exchange with its headers and bodies, a line of
 * stderr), its timing and error, and Copy as JSON or curl. Only this entry
 * is ever pretty-printed. */

#include "config.h"

#include "plugboard-traffic-view-private.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-json-private.h"

static const char *
error_class_label (McpTraceErrorClass error_class)
{
  switch (error_class)
    {
    case MCP_TRACE_ERROR_JSONRPC:
      return _("JSON-RPC error");
    case MCP_TRACE_ERROR_HTTP:
      return _("HTTP error");
    case MCP_TRACE_ERROR_TRANSPORT:
      return _("Connection error");
    case MCP_TRACE_ERROR_PROTOCOL:
      return _("Protocol error");
    case MCP_TRACE_ERROR_NONE:
    default:
      return NULL;
    }
}

/* The headers MCP defines (Mcp-Session-Id, MCP-Protocol-Version …) stand
 * out: they are what a session's trouble is usually about. */
static gboolean
show_headers (GtkWidget          *box,
              GtkLabel           *label,
              const char * const *headers)
{
  g_autoptr(GString) markup = g_string_new (NULL);

  for (guint i = 0; headers != NULL && headers[i] != NULL && headers[i + 1] != NULL; i += 2)
    {
      g_autofree char *name = g_markup_escape_text (headers[i], -1);
      g_autofree char *value = g_markup_escape_text (headers[i + 1], -1);

      if (markup->len > 0)
        g_string_append_c (markup, '\n');
      if (g_ascii_strncasecmp (headers[i], "mcp-", 4) == 0)
        g_string_append_printf (markup, "<span weight=\"bold\" foreground=\"#3584e4\">%s: %s</span>", name, value);
      else
        g_string_append_printf (markup, "<b>%s</b>: %s", name, value);
    }

  gtk_label_set_markup (label, markup->str);
  gtk_widget_set_visible (box, markup->len > 0);
  return markup->len > 0;
}

/* Pretty JSON when @text is JSON, else the text as it came (a line of
 * stderr is no JSON with errors to point at). */
static void
show_text (GtkWidget           *box,
           GtkLabel            *title_label,
           PlugboardJsonEditor *editor,
           GtkLabel            *text_label,
           const char          *title,
           const char          *text)
{
  g_autoptr(JsonNode) node = NULL;

  gtk_widget_set_visible (box, text != NULL);
  if (text != NULL)
    node = mcp_json_parse (text, strlen (text), NULL);
  gtk_widget_set_visible (GTK_WIDGET (editor), node != NULL);
  gtk_widget_set_visible (GTK_WIDGET (text_label), node == NULL);
  plugboard_json_editor_set_text (editor, "");
  gtk_label_set_text (text_label, "");
  if (text == NULL)
    return;

  gtk_label_set_text (title_label, title);
  if (node != NULL)
    plugboard_json_editor_set_json (editor, node);
  else
    gtk_label_set_text (text_label, text);
}

static char *
format_time (gint64 time)
{
  g_autoptr(GDateTime) seconds = g_date_time_new_from_unix_local (time / G_USEC_PER_SEC);
  g_autoptr(GDateTime) date_time = seconds != NULL ? g_date_time_add (seconds, time % G_USEC_PER_SEC) : NULL;

  return date_time != NULL ? g_date_time_format (date_time, "%H:%M:%S.%f") : g_strdup ("");
}

static void
append_info (GString    *info,
             const char *text)
{
  if (info->len > 0)
    g_string_append (info, " · ");
  g_string_append (info, text);
}

static void
show_error (PlugboardTrafficView *self,
            McpTraceEntry        *entry)
{
  McpTraceErrorClass error_class = entry != NULL ? mcp_trace_entry_get_error_class (entry) : MCP_TRACE_ERROR_NONE;
  g_autoptr(GString) text = g_string_new (NULL);

  if (error_class == MCP_TRACE_ERROR_NONE && entry != NULL &&
      mcp_trace_entry_get_kind (entry) == MCP_TRACE_KIND_AUTH &&
      mcp_trace_entry_get_step_status (entry) == MCP_TRACE_STEP_FAILED)
    g_string_append (text, _("This sign-in step failed"));

  if (error_class != MCP_TRACE_ERROR_NONE)
    {
      g_string_append (text, error_class_label (error_class));
      if (mcp_trace_entry_get_error_code (entry) != 0)
        g_string_append_printf (text, " %d", mcp_trace_entry_get_error_code (entry));
      if (mcp_trace_entry_get_error_text (entry) != NULL)
        g_string_append_printf (text, ": %s", mcp_trace_entry_get_error_text (entry));
    }

  gtk_label_set_text (self->detail_error_label, text->str);
  gtk_widget_set_visible (self->error_box, text->len > 0);
}

void
plugboard_traffic_view_show_detail (PlugboardTrafficView *self,
                                    McpTraceEntry        *entry)
{
  g_autoptr(McpTraceEntry) response = NULL;
  g_autoptr(GString) info = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *time = NULL;
  g_autofree char *size = NULL;
  g_autofree char *curl = NULL;
  McpTraceEntry *http = NULL;
  McpTraceKind kind;

  g_assert (PLUGBOARD_IS_TRAFFIC_VIEW (self));

  if (entry != self->shown)
    g_set_object (&self->shown, entry);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "traffic.copy-json", entry != NULL);
  if (entry == NULL)
    {
      gtk_stack_set_visible_child_name (self->detail_stack, "none");
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "traffic.copy-curl", FALSE);
      plugboard_json_editor_set_text (self->request_editor, "");
      plugboard_json_editor_set_text (self->response_editor, "");
      return;
    }
  gtk_stack_set_visible_child_name (self->detail_stack, "entry");

  kind = mcp_trace_entry_get_kind (entry);
  response = plugboard_traffic_view_dup_response (self, entry);
  summary = mcp_trace_entry_dup_summary (entry);
  gtk_label_set_text (self->detail_title_label, summary);

  info = g_string_new (NULL);
  time = format_time (mcp_trace_entry_get_time (entry));
  append_info (info, time);
  if (mcp_trace_entry_get_duration (entry) >= 0)
    {
      /* Translators: how long a request took; %.1f is milliseconds */
      g_autofree char *took = g_strdup_printf (_("took %.1f ms"), mcp_trace_entry_get_duration (entry) / 1000.0);

      append_info (info, took);
    }
  size = g_format_size (mcp_trace_entry_get_size (entry));
  append_info (info, size);
  if (mcp_trace_entry_get_truncated (entry))
    append_info (info, _("cut to fit the record"));
  if (mcp_trace_entry_get_session_id (entry) != NULL)
    {
      /* Translators: %s is an MCP session id */
      g_autofree char *session = g_strdup_printf (_("session %s"), mcp_trace_entry_get_session_id (entry));

      append_info (info, session);
    }
  if (kind == MCP_TRACE_KIND_SSE && mcp_trace_entry_get_retry (entry) >= 0)
    {
      /* Translators: the reconnection delay a server-sent event asked for */
      g_autofree char *retry = g_strdup_printf (_("retry %d ms"), (int) MIN (mcp_trace_entry_get_retry (entry), G_MAXINT));

      append_info (info, retry);
    }
  if (kind == MCP_TRACE_KIND_MESSAGE && mcp_trace_entry_get_message_kind (entry) == MCP_MESSAGE_REQUEST &&
      response == NULL)
    append_info (info, _("waiting for the response"));
  gtk_label_set_text (self->detail_info_label, info->str);

  show_error (self, response != NULL && mcp_trace_entry_get_error_class (response) != MCP_TRACE_ERROR_NONE
                    ? response : entry);

  /* A message over HTTP: the headers of the exchange that carried it. */
  if (kind == MCP_TRACE_KIND_HTTP)
    http = entry;
  else if (mcp_trace_entry_get_http_seq (entry) != 0 && self->trace != NULL)
    http = mcp_trace_lookup (self->trace, mcp_trace_entry_get_http_seq (entry));
  show_headers (self->request_headers_box, self->request_headers_label,
                http != NULL ? mcp_trace_entry_get_request_headers (http) : NULL);
  show_headers (self->response_headers_box, self->response_headers_label,
                http != NULL ? mcp_trace_entry_get_response_headers (http) : NULL);

  if (kind == MCP_TRACE_KIND_HTTP)
    {
      show_text (self->request_box, self->request_title_label, self->request_editor, self->request_text_label,
                 _("Request Body"), mcp_trace_entry_get_request_body (entry));
      show_text (self->response_box, self->response_title_label, self->response_editor, self->response_text_label,
                 _("Response Body"), mcp_trace_entry_get_response_body (entry));
    }
  else if (kind == MCP_TRACE_KIND_MESSAGE &&
           mcp_trace_entry_get_message_kind (entry) == MCP_MESSAGE_REQUEST)
    {
      show_text (self->request_box, self->request_title_label, self->request_editor, self->request_text_label,
                 _("Request"), mcp_trace_entry_get_text (entry));
      show_text (self->response_box, self->response_title_label, self->response_editor, self->response_text_label,
                 _("Response"), response != NULL ? mcp_trace_entry_get_text (response) : NULL);
    }
  else
    {
      show_text (self->request_box, self->request_title_label, self->request_editor, self->request_text_label,
                 kind == MCP_TRACE_KIND_MESSAGE || kind == MCP_TRACE_KIND_INVALID || kind == MCP_TRACE_KIND_APP
                 ? _("Message") : _("Text"),
                 mcp_trace_entry_get_text (entry));
      show_text (self->response_box, self->response_title_label, self->response_editor, self->response_text_label, NULL, NULL);
    }

  curl = mcp_trace_entry_dup_curl (entry, self->server_url);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "traffic.copy-curl", curl != NULL);
}

/* ------------------------------------------------------------------------ */
/* Copying                                                                  */

static void
copy_json (GtkWidget  *widget,
           const char *action_name,
           GVariant   *parameter)
{
  PlugboardTrafficView *self = PLUGBOARD_TRAFFIC_VIEW (widget);
  g_autoptr(McpTraceEntry) response = NULL;
  g_autoptr(GString) text = g_string_new (NULL);

  if (self->shown == NULL)
    return;

  /* The records, as an export writes them: a request with its response. */
  mcp_trace_entry_append_json (self->shown, self->server_name, text);
  g_string_append_c (text, '\n');
  response = plugboard_traffic_view_dup_response (self, self->shown);
  if (response != NULL)
    {
      mcp_trace_entry_append_json (response, self->server_name, text);
      g_string_append_c (text, '\n');
    }
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text->str);
}

static void
copy_curl (GtkWidget  *widget,
           const char *action_name,
           GVariant   *parameter)
{
  PlugboardTrafficView *self = PLUGBOARD_TRAFFIC_VIEW (widget);
  g_autofree char *curl = NULL;

  if (self->shown == NULL)
    return;

  curl = mcp_trace_entry_dup_curl (self->shown, self->server_url);
  if (curl != NULL)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), curl);
}

void
plugboard_traffic_view_class_init_detail (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "traffic.copy-json", NULL, copy_json);
  gtk_widget_class_install_action (widget_class, "traffic.copy-curl", NULL, copy_curl);
}
