/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "mcp-pool-tool.h"
#include "mcp-ui-resource.h"

G_BEGIN_DECLS

typedef struct _McpProject McpProject;

#define MCP_TYPE_APP_BRIDGE (mcp_app_bridge_get_type ())

G_DECLARE_FINAL_TYPE (McpAppBridge, mcp_app_bridge, MCP, APP_BRIDGE, GObject)

/**
 * McpAppBridge:
 *
 * The host side of one MCP Apps view (SEP-1865): the JSON-RPC the page
 * speaks over postMessage, answered by the engine. It knows no GTK and no
 * web engine: the front end hands it each string the page posts
 * (mcp_app_bridge_receive()) and delivers each string of the "post"
 * signal to the page. Everything either way is recorded in the server's
 * trace (kind MCP_TRACE_KIND_APP).
 *
 * - ui/initialize: answered with protocolVersion, hostInfo,
 *   hostCapabilities (openLinks, downloadFile, serverTools,
 *   serverResources, logging, message, updateModelContext, sandbox: the
 *   resource's validated CSP and permissions) and the host context the
 *   front end set; ui/notifications/initialized makes the bridge
 *   "initialized", and only then are tool input, result, cancellation and
 *   context changes sent (queued until then).
 * - tools/call: only a tool of the same server whose visibility has
 *   "app"; through mcp_project_new_call(), so the permission evaluator
 *   and the person decide as for any call. resources/read: the same
 *   server. ping.
 * - ui/open-link: the engine's URL policy, then the project's
 *   McpInteraction open_link (the person sees the host).
 *   ui/download-file: embedded resources, or resource links of the same
 *   server read with resources/read; saved through the interaction's
 *   save_file.
 * - ui/message, ui/update-model-context, notifications/message: there is
 *   no model: each becomes an McpAppNote in get_notes() (a context update
 *   replaces the previous one) and is answered {}.
 * - ui/request-display-mode: granted when both sides list the mode
 *   ("display-mode" changes); the answer is the mode in force.
 * - ui/notifications/size-changed: "content-width"/"content-height".
 * - ui/notifications/request-teardown: signal "teardown-requested".
 * - anything else: -32601; text that is not JSON-RPC: -32700; a message
 *   over 4 MiB or more than 16 requests in flight: refused and noted.
 *
 * Properties: tool, resource (construct-only), initialized, display-mode,
 * content-width, content-height (-1 until the page says), closed.
 * Signals: "post" (const char *text), "teardown-requested".
 */
McpAppBridge   *mcp_app_bridge_new                 (McpProject     *project,
                                                     McpPoolTool    *tool,
                                                     McpUiResource  *resource);

McpPoolTool    *mcp_app_bridge_get_tool            (McpAppBridge   *self);
McpUiResource  *mcp_app_bridge_get_resource        (McpAppBridge   *self);
gboolean        mcp_app_bridge_get_initialized     (McpAppBridge   *self);
gboolean        mcp_app_bridge_get_closed          (McpAppBridge   *self);
/* "inline" (the default), "fullscreen" or "pip" */
const char     *mcp_app_bridge_get_display_mode    (McpAppBridge   *self);
int             mcp_app_bridge_get_content_width   (McpAppBridge   *self);
int             mcp_app_bridge_get_content_height  (McpAppBridge   *self);

/* What the front end offers: the modes it can show ("inline",
 * "fullscreen"), and the mode it is in (the person left fullscreen): sent
 * as host-context-changed once initialized. */
void            mcp_app_bridge_set_available_display_modes (McpAppBridge       *self,
                                                             const char * const *modes);
void            mcp_app_bridge_set_display_mode    (McpAppBridge   *self,
                                                     const char     *mode);

/* Merges @context's members (theme, locale, timeZone, platform,
 * containerDimensions, styles, …) into the host context; once
 * initialized, the changed members go out as
 * ui/notifications/host-context-changed. */
void            mcp_app_bridge_update_host_context (McpAppBridge   *self,
                                                     JsonObject     *context);
JsonObject     *mcp_app_bridge_get_host_context    (McpAppBridge   *self);

/* The call the view shows: its arguments (ui/notifications/tool-input,
 * once), its result (tool-result, the CallToolResult object) or its
 * cancellation (tool-cancelled). @request_id: the tools/call id, for
 * hostContext.toolInfo (nullable). */
void            mcp_app_bridge_set_tool_input      (McpAppBridge   *self,
                                                     JsonObject     *arguments,
                                                     JsonNode       *request_id);
void            mcp_app_bridge_set_tool_result     (McpAppBridge   *self,
                                                     JsonObject     *result);
void            mcp_app_bridge_set_tool_cancelled  (McpAppBridge   *self,
                                                     const char     *reason);

/* A string the page posted (JSON text, @length bytes). */
void            mcp_app_bridge_receive             (McpAppBridge   *self,
                                                     const char     *text,
                                                     gsize           length);

/* The front end refused something the page tried (@what: "navigation",
 * "popup", "csp", "permission", "file"; @detail: the URL or directive):
 * recorded in the trace and as a note. */
void            mcp_app_bridge_note_blocked        (McpAppBridge   *self,
                                                     const char     *what,
                                                     const char     *detail);

/* Notes for the side panel: a GListModel of McpAppNote, oldest first. */
GListModel     *mcp_app_bridge_get_notes           (McpAppBridge   *self);

/* ui/resource-teardown, waiting at most 3 s for the page's answer (a page
 * that does not answer does not keep the view alive); then the bridge is
 * closed: pending page requests are cancelled, nothing more is posted. */
void            mcp_app_bridge_teardown_async      (McpAppBridge        *self,
                                                     const char          *reason,
                                                     GCancellable        *cancellable,
                                                     GAsyncReadyCallback  callback,
                                                     gpointer             user_data);
gboolean        mcp_app_bridge_teardown_finish     (McpAppBridge        *self,
                                                     GAsyncResult        *result,
                                                     GError             **error);
/* Closes at once (the view is gone). */
void            mcp_app_bridge_close               (McpAppBridge   *self);

G_END_DECLS
