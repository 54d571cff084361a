/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef enum
{
  MCP_APP_NOTE_MESSAGE,        /* ui/message: what the page would tell a model */
  MCP_APP_NOTE_MODEL_CONTEXT,  /* ui/update-model-context (the latest replaces the previous) */
  MCP_APP_NOTE_LOG,            /* notifications/message */
  MCP_APP_NOTE_BLOCKED,        /* something the sandbox or the bridge refused */
} McpAppNoteKind;

#define MCP_TYPE_APP_NOTE (mcp_app_note_get_type ())

G_DECLARE_FINAL_TYPE (McpAppNote, mcp_app_note, MCP, APP_NOTE, GObject)

/* One line of an app view's side panel. Immutable.
 * Properties (read-only): kind, time (µs, wall clock), title (a short
 * summary for people: "Message", "Model context", "Log (info)",
 * "Blocked navigation"), text (the text content, or the detail). */
McpAppNoteKind  mcp_app_note_get_kind   (McpAppNote *self);
gint64          mcp_app_note_get_time   (McpAppNote *self);
const char     *mcp_app_note_get_title  (McpAppNote *self);
const char     *mcp_app_note_get_text   (McpAppNote *self);
/* The params as the page sent them (NULL for BLOCKED). */
JsonObject     *mcp_app_note_get_params (McpAppNote *self);

G_END_DECLS
