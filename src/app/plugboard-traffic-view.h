/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-server-config.h"
#include "mcp-trace.h"

G_BEGIN_DECLS

/* Which part of a trace the view shows. */
typedef enum
{
  PLUGBOARD_TRAFFIC_MODE_PROTOCOL,  /* messages (a request with its response), events, sign-in steps */
  PLUGBOARD_TRAFFIC_MODE_NETWORK,   /* HTTP exchanges and SSE events (remote servers) */
  PLUGBOARD_TRAFFIC_MODE_CONSOLE,   /* stderr lines and events (stdio servers) */
} PlugboardTrafficMode;

/* What PlugboardTrafficView:export writes. */
typedef enum
{
  PLUGBOARD_TRAFFIC_EXPORT_JSONL,   /* one mcp_trace_entry_append_json() record a line */
  PLUGBOARD_TRAFFIC_EXPORT_HAR,     /* the HTTP exchanges as HAR 1.2 */
} PlugboardTrafficExport;

#define PLUGBOARD_TYPE_TRAFFIC_VIEW (plugboard_traffic_view_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardTrafficView, plugboard_traffic_view, PLUGBOARD, TRAFFIC_VIEW, AdwBin)

/**
 * PlugboardTrafficView:
 *
 * What went over the wire with one server (its McpTrace), live: Protocol
 * (one row per request with its response folded in), Network (HTTP and
 * SSE, remote servers) and Console (stderr, stdio servers); filters,
 * search, a detail pane for the selected entry with its pretty JSON,
 * headers and timing; Copy as JSON or curl, Clear and Export. The list
 * follows the newest entry while the person is at the bottom.
 *
 * Actions (group "traffic"): copy-json, copy-curl, clear, export,
 * jump-to-latest.
 */
GtkWidget            *plugboard_traffic_view_new            (void);
void                  plugboard_traffic_view_set_trace      (PlugboardTrafficView *self,
                                                             McpTrace             *trace);
McpTrace             *plugboard_traffic_view_get_trace      (PlugboardTrafficView *self);
/* The server's transport (which modes apply) and URL (for curl; nullable),
 * its name for exports (nullable). */
void                  plugboard_traffic_view_set_server     (PlugboardTrafficView *self,
                                                             const char           *name,
                                                             McpTransportKind      transport,
                                                             const char           *url);
void                  plugboard_traffic_view_set_mode       (PlugboardTrafficView *self,
                                                             PlugboardTrafficMode  mode);
PlugboardTrafficMode  plugboard_traffic_view_get_mode       (PlugboardTrafficView *self);
void                  plugboard_traffic_view_set_search     (PlugboardTrafficView *self,
                                                             const char           *text);
void                  plugboard_traffic_view_set_errors_only (PlugboardTrafficView *self,
                                                              gboolean              errors_only);
/* The rows shown (McpTraceEntry), after mode, filters and search. */
GListModel           *plugboard_traffic_view_get_rows       (PlugboardTrafficView *self);
/* Selects @entry (shown in the detail) and scrolls to it; FALSE when it is
 * not among the rows. */
gboolean              plugboard_traffic_view_select         (PlugboardTrafficView *self,
                                                             McpTraceEntry        *entry);
McpTraceEntry        *plugboard_traffic_view_get_selected   (PlugboardTrafficView *self);
/* Shows the newest failure (any mode that holds it) in the detail; FALSE
 * when the trace holds none. */
gboolean              plugboard_traffic_view_show_last_error (PlugboardTrafficView *self);
gboolean              plugboard_traffic_view_get_following  (PlugboardTrafficView *self);
/* Writes the rows shown to @file (replaced) as @format. */
gboolean              plugboard_traffic_view_export         (PlugboardTrafficView  *self,
                                                             GFile                 *file,
                                                             PlugboardTrafficExport format,
                                                             GError               **error);

G_END_DECLS
