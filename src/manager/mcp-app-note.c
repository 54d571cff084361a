/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-app-note"

#include "config.h"

#include "mcp-app-note.h"

/* STUB: the contract; the parts are being written. */

struct _McpAppNote
{
  GObject parent_instance;
};

G_DEFINE_FINAL_TYPE (McpAppNote, mcp_app_note, G_TYPE_OBJECT)

static void
mcp_app_note_class_init (McpAppNoteClass *klass)
{
}

static void
mcp_app_note_init (McpAppNote *self)
{
}
