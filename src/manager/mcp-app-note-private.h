/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-app-note.h"

G_BEGIN_DECLS

/* @params is referenced (nullable). */
McpAppNote *mcp_app_note_new (McpAppNoteKind  kind,
                              const char     *title,
                              const char     *text,
                              JsonObject     *params);

G_END_DECLS
