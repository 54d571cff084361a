/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-traffic-view"

/* PlugboardTrafficView's rows: a status, what the entry is, its id, its
 * duration and size. Binding a row reads a few fields of the entry (and of
 * its response) and formats nothing bigger than a line: rows are bound
 * many times a second while the view follows a busy server. */

#include "config.h"

#include "plugboard-traffic-view-private.h"

#include <glib/gi18n.h>
#include <string.h>

#define MAX_TITLE_BYTES 400

typedef struct
{
  GtkWidget *box;
  GtkStack  *status_stack;
  GtkImage  *status_image;
  GtkSpinner *spinner;
  GtkLabel  *title_label;
  GtkLabel  *code_label;
  GtkLabel  *duration_label;
  GtkLabel  *size_label;
  /* What set_status() last set, so a rebind changes no style for nothing
   * (a style change costs a restyle of the row). */
  const char *icon;
  const char *css_class;
  int         pending;
} Row;

static void
row_free (gpointer data)
{
  g_free (data);
}

static GtkLabel *
new_label (GtkBox     *box,
           const char *css_class)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  gtk_box_append (box, label);
  return GTK_LABEL (label);
}

static void
on_setup_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             PlugboardTrafficView     *self)
{
  Row *row = g_new0 (Row, 1);
  GtkBox *box = GTK_BOX (gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8));

  row->box = GTK_WIDGET (box);
  gtk_widget_add_css_class (row->box, "plugboard-traffic-row");
  gtk_widget_set_margin_top (row->box, 3);
  gtk_widget_set_margin_bottom (row->box, 3);
  gtk_widget_set_margin_end (row->box, 6);
  row->status_stack = GTK_STACK (gtk_stack_new ());
  row->status_image = GTK_IMAGE (gtk_image_new ());
  row->spinner = GTK_SPINNER (gtk_spinner_new ());
  row->pending = -1;
  gtk_stack_add_named (row->status_stack, GTK_WIDGET (row->status_image), "image");
  gtk_stack_add_named (row->status_stack, GTK_WIDGET (row->spinner), "spinner");
  gtk_box_append (box, GTK_WIDGET (row->status_stack));

  row->title_label = new_label (box, "monospace");
  gtk_label_set_ellipsize (row->title_label, PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (GTK_WIDGET (row->title_label), TRUE);
  row->code_label = new_label (box, "caption");
  row->duration_label = new_label (box, "numeric");
  gtk_widget_add_css_class (GTK_WIDGET (row->duration_label), "dim-label");
  row->size_label = new_label (box, "numeric");
  gtk_widget_add_css_class (GTK_WIDGET (row->size_label), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (row->size_label), "caption");

  gtk_list_item_set_child (item, row->box);
  g_object_set_data_full (G_OBJECT (item), "plugboard-traffic-row", row, row_free);
}

/* @icon and @css_class are static strings. */
static void
set_status (Row        *row,
            const char *icon,
            const char *css_class,
            gboolean    pending)
{
  if (row->pending != pending)
    {
      row->pending = pending;
      gtk_spinner_set_spinning (row->spinner, pending);
      gtk_stack_set_visible_child (row->status_stack, pending ? GTK_WIDGET (row->spinner)
                                                              : GTK_WIDGET (row->status_image));
    }
  if (row->icon != icon)
    {
      row->icon = icon;
      gtk_image_set_from_icon_name (row->status_image, icon);
    }
  if (row->css_class != css_class)
    {
      if (row->css_class != NULL)
        gtk_widget_remove_css_class (GTK_WIDGET (row->status_image), row->css_class);
      row->css_class = css_class;
      if (css_class != NULL)
        gtk_widget_add_css_class (GTK_WIDGET (row->status_image), css_class);
    }
}

static char *
format_duration (gint64 duration)
{
  if (duration < 0)
    return g_strdup ("");
  if (duration < 10 * 1000)
    /* Translators: a duration in milliseconds, with one decimal */
    return g_strdup_printf (_("%.1f ms"), duration / 1000.0);
  if (duration < 10 * G_USEC_PER_SEC)
    /* Translators: a duration in milliseconds */
    return g_strdup_printf (_("%d ms"), (int) (duration / 1000));
  /* Translators: a duration in seconds, with one decimal */
  return g_strdup_printf (_("%.1f s"), duration / (double) G_USEC_PER_SEC);
}

/* The path of @url, for a row: the host is the server's, the same on each. */
static const char *
url_path (const char *url)
{
  const char *scheme_end;
  const char *path;

  if (url == NULL)
    return "";
  scheme_end = strstr (url, "://");
  if (scheme_end == NULL)
    return url;
  path = strchr (scheme_end + 3, '/');
  return path != NULL ? path : "/";
}

static const char *
direction_arrow (McpTraceEntry *entry)
{
  switch (mcp_trace_entry_get_direction (entry))
    {
    case MCP_TRACE_DIRECTION_OUT:
      return "→ ";
    case MCP_TRACE_DIRECTION_IN:
      return "← ";
    case MCP_TRACE_DIRECTION_NONE:
    default:
      return "";
    }
}

static void
bind_message (PlugboardTrafficView *self,
              Row                  *row,
              McpTraceEntry        *entry,
              GString              *title,
              GString              *code)
{
  McpMessageKind kind = mcp_trace_entry_get_message_kind (entry);
  g_autoptr(McpTraceEntry) response = plugboard_traffic_view_dup_response (self, entry);
  const char *method = mcp_trace_entry_get_method (entry);
  g_autofree char *duration = NULL;

  /* A later round of an exchange that asked for input sits under its first. */
  if (mcp_trace_entry_get_group_seq (entry) != 0 &&
      mcp_trace_entry_get_group_seq (entry) != mcp_trace_entry_get_seq (entry))
    {
      gtk_widget_set_margin_start (row->box, 30);
      /* Translators: an indented row: the second, third … request of one exchange */
      g_string_append_printf (title, _("↳ round %u: "), mcp_trace_entry_get_round (entry));
    }

  g_string_append (title, direction_arrow (entry));
  switch (kind)
    {
    case MCP_MESSAGE_REQUEST:
      g_string_append (title, method != NULL ? method : "?");
      if (response == NULL)
        set_status (row, NULL, NULL, TRUE);
      else if (mcp_trace_entry_get_error_class (response) != MCP_TRACE_ERROR_NONE)
        {
          set_status (row, "dialog-error-symbolic", "error", FALSE);
          g_string_append_printf (code, "%d", mcp_trace_entry_get_error_code (response));
        }
      else
        set_status (row, "emblem-ok-symbolic", "success", FALSE);
      break;
    case MCP_MESSAGE_NOTIFICATION:
      g_string_append (title, method != NULL ? method : "?");
      set_status (row, "mail-unread-symbolic", "dim-label", FALSE);
      break;
    case MCP_MESSAGE_RESULT:
    case MCP_MESSAGE_ERROR:
    default:
      /* Its request is gone from the ring (or never seen). */
      g_string_append (title, kind == MCP_MESSAGE_ERROR ? "error" : "result");
      if (method != NULL)
        g_string_append_printf (title, " (%s)", method);
      if (kind == MCP_MESSAGE_ERROR)
        {
          set_status (row, "dialog-error-symbolic", "error", FALSE);
          g_string_append_printf (code, "%d", mcp_trace_entry_get_error_code (entry));
        }
      else
        set_status (row, "emblem-ok-symbolic", "success", FALSE);
      break;
    }

  if (mcp_trace_entry_get_id (entry) != NULL)
    g_string_append_printf (title, " #%s", mcp_trace_entry_get_id (entry));

  duration = format_duration (mcp_trace_entry_get_duration (entry));
  gtk_label_set_text (row->duration_label, duration);
}

static void
on_bind_cb (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            PlugboardTrafficView     *self)
{
  Row *row = g_object_get_data (G_OBJECT (item), "plugboard-traffic-row");
  McpTraceEntry *entry = gtk_list_item_get_item (item);
  g_autoptr(GString) title = g_string_new (NULL);
  g_autoptr(GString) code = g_string_new (NULL);
  g_autofree char *size = NULL;
  g_autofree char *duration = NULL;
  const char *text;

  gtk_widget_set_margin_start (row->box, 6);
  gtk_label_set_text (row->duration_label, "");

  switch (mcp_trace_entry_get_kind (entry))
    {
    case MCP_TRACE_KIND_MESSAGE:
      bind_message (self, row, entry, title, code);
      break;
    case MCP_TRACE_KIND_INVALID:
      set_status (row, "dialog-warning-symbolic", "warning", FALSE);
      g_string_append (title, direction_arrow (entry));
      g_string_append (title, _("not JSON-RPC: "));
      g_string_append (title, mcp_trace_entry_get_text (entry));
      break;
    case MCP_TRACE_KIND_HTTP:
      g_string_append_printf (title, "%s %s", mcp_trace_entry_get_method (entry), url_path (mcp_trace_entry_get_url (entry)));
      if (mcp_trace_entry_get_error_class (entry) != MCP_TRACE_ERROR_NONE)
        set_status (row, "dialog-error-symbolic", "error", FALSE);
      else if (mcp_trace_entry_get_status (entry) == 0)
        set_status (row, NULL, NULL, TRUE);
      else
        set_status (row, "emblem-ok-symbolic", "success", FALSE);
      if (mcp_trace_entry_get_status (entry) != 0)
        g_string_append_printf (code, "%u", mcp_trace_entry_get_status (entry));
      if (mcp_trace_entry_get_content_type (entry) != NULL)
        g_string_append_printf (code, code->len > 0 ? " %s" : "%s", mcp_trace_entry_get_content_type (entry));
      duration = format_duration (mcp_trace_entry_get_duration (entry));
      gtk_label_set_text (row->duration_label, duration);
      break;
    case MCP_TRACE_KIND_SSE:
      set_status (row, "go-previous-symbolic", "dim-label", FALSE);
      /* Translators: a server-sent event; %s is its type ("message") */
      g_string_append_printf (title, _("SSE %s"), mcp_trace_entry_get_method (entry) != NULL ? mcp_trace_entry_get_method (entry) : "message");
      if (mcp_trace_entry_get_id (entry) != NULL)
        g_string_append_printf (title, " #%s", mcp_trace_entry_get_id (entry));
      break;
    case MCP_TRACE_KIND_STDERR:
      set_status (row, "utilities-terminal-symbolic", "dim-label", FALSE);
      g_string_append (title, mcp_trace_entry_get_text (entry));
      break;
    case MCP_TRACE_KIND_AUTH:
      switch (mcp_trace_entry_get_step_status (entry))
        {
        case MCP_TRACE_STEP_FAILED:
          set_status (row, "dialog-error-symbolic", "error", FALSE);
          break;
        case MCP_TRACE_STEP_OK:
          set_status (row, "emblem-ok-symbolic", "success", FALSE);
          break;
        case MCP_TRACE_STEP_SKIPPED:
        case MCP_TRACE_STEP_INFO:
        default:
          set_status (row, "dialog-information-symbolic", "dim-label", FALSE);
          break;
        }
      /* Translators: a step of a sign-in; %s is its name ("token-exchange") */
      g_string_append_printf (title, _("sign-in: %s"), mcp_trace_entry_get_method (entry));
      break;
    case MCP_TRACE_KIND_APP:
      /* Not paired with responses: the page and Plugboard number apart. */
      if (mcp_trace_entry_get_error_class (entry) != MCP_TRACE_ERROR_NONE)
        set_status (row, "dialog-error-symbolic", "error", FALSE);
      else
        set_status (row, "mail-unread-symbolic", "dim-label", FALSE);
      if (mcp_trace_entry_get_error_class (entry) == MCP_TRACE_ERROR_JSONRPC)
        g_string_append_printf (code, "%d", mcp_trace_entry_get_error_code (entry));
      /* Translators: the two ends of an MCP Apps message: a tool's interface (the page) and Plugboard */
      g_string_append (title, mcp_trace_entry_get_direction (entry) == MCP_TRACE_DIRECTION_IN ? _("page → Plugboard: ") :
                              mcp_trace_entry_get_direction (entry) == MCP_TRACE_DIRECTION_OUT ? _("Plugboard → page: ") :
                              _("page: "));
      if (mcp_trace_entry_get_method (entry) != NULL)
        g_string_append (title, mcp_trace_entry_get_method (entry));
      else if (mcp_trace_entry_get_error_class (entry) != MCP_TRACE_ERROR_PROTOCOL)
        g_string_append (title, mcp_trace_entry_get_message_kind (entry) == MCP_MESSAGE_ERROR ? "error" : "result");
      if (mcp_trace_entry_get_id (entry) != NULL)
        g_string_append_printf (title, " #%s", mcp_trace_entry_get_id (entry));
      if (mcp_trace_entry_get_error_class (entry) == MCP_TRACE_ERROR_PROTOCOL && mcp_trace_entry_get_text (entry) != NULL)
        g_string_append_printf (title, mcp_trace_entry_get_method (entry) != NULL ? " %s" : "%s",
                                mcp_trace_entry_get_text (entry));
      break;
    case MCP_TRACE_KIND_EVENT:
    default:
      if (mcp_trace_entry_get_error_class (entry) != MCP_TRACE_ERROR_NONE)
        set_status (row, "dialog-error-symbolic", "error", FALSE);
      else
        set_status (row, "dialog-information-symbolic", "dim-label", FALSE);
      text = mcp_trace_entry_get_text (entry);
      g_string_append (title, mcp_trace_entry_get_method (entry) != NULL ? mcp_trace_entry_get_method (entry) : "");
      if (text != NULL)
        g_string_append_printf (title, ": %s", text);
      break;
    }

  /* A line of stderr can hold anything: one line in the row, and no more
   * of it than a row shows (laying out 256 KiB to ellipsize it would cost
   * each bind). */
  if (title->len > MAX_TITLE_BYTES)
    {
      const char *end = g_utf8_find_prev_char (title->str, title->str + MAX_TITLE_BYTES);

      g_string_truncate (title, end != NULL ? (gsize) (end - title->str) : 0);
      g_string_append (title, "…");
    }
  g_strdelimit (title->str, "\r\n\t", ' ');
  gtk_label_set_text (row->title_label, title->str);
  gtk_label_set_text (row->code_label, code->str);
  gtk_widget_set_visible (GTK_WIDGET (row->code_label), code->len > 0);
  size = g_format_size (mcp_trace_entry_get_size (entry));
  gtk_label_set_text (row->size_label, mcp_trace_entry_get_size (entry) > 0 ? size : "");
}

static void
on_unbind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              PlugboardTrafficView     *self)
{
  Row *row = g_object_get_data (G_OBJECT (item), "plugboard-traffic-row");

  gtk_spinner_set_spinning (row->spinner, FALSE);
  row->pending = -1;
}

GtkListItemFactory *
plugboard_traffic_view_new_row_factory (PlugboardTrafficView *self)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (on_setup_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (on_bind_cb), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (on_unbind_cb), self);
  return factory;
}
