/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-processed-result.h"
#include "mcp-tool-pool.h"

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_RESULT_VIEW (plugboard_result_view_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardResultView, plugboard_result_view, PLUGBOARD, RESULT_VIEW, AdwBin)

/**
 * PlugboardResultView:
 *
 * A tool's result (McpProcessedResult), one block per content item, in
 * a list that renders lazily (GtkListView: only visible blocks are built):
 * - text: rendered as Markdown (plugboard_markdown_to_pango) when it looks
 *   like it, with a toggle to plain monospace and a wrap toggle; JSON text
 *   (a text block that parses as an object or array) shown as a
 *   collapsible tree (GtkTreeListModel + GtkTreeExpander: objects and
 *   arrays expand, long strings wrap) with a raw toggle;
 * - image: the picture (the processed PNG or the original), scaled to fit,
 *   with Save As (GtkFileChooserNative) ;
 * - audio: its file (already saved by post-processing) with Play (the
 *   desktop's default player, g_app_info_launch_default_for_uri) and Save As;
 * - resource_link: name, URI, description, MIME type and Read (reads it
 *   with resources/read through the connection's McpClient and shows the
 *   contents below as another block);
 * - resource (embedded): by MIME type — text as text, JSON as JSON,
 *   images as images, other blobs as a file with Save As;
 * - structuredContent: as a JSON tree, validated against @output_schema
 *   (mcp_json_schema_check, in a thread): "Matches the output schema",
 *   each problem listed in an error style, or "Not validated" when the
 *   schema is too complex to check within the validator's budget —
 *   never hidden;
 * - isError: the whole view styled as an error ("The tool reported an
 *   error") above the blocks;
 * - the post-processing notes (cut text, scaled images, saved files) and,
 *   when text was cut at the output limit, "Save Full Result…" writing the
 *   original content to a file.
 * Header actions: Copy Result (all text, or the JSON), Copy as Command
 * (plugboard_result_view_dup_command_line: `plugboard-cli call SERVER TOOL
 * --args '<json>'`, shell-quoted).
 */
GtkWidget *plugboard_result_view_new        (void);
/* @tool (nullable) and @arguments (nullable) for the command line; the
 * output schema checked is @tool's (mcp_tool_get_output_schema; none when
 * NULL). Properties: plain-text and wrap (booleans, also the actions
 * result.plain-text and result.wrap). */
void       plugboard_result_view_set_result (PlugboardResultView *self,
                                             McpPoolTool         *tool,
                                             JsonObject          *arguments,
                                             McpProcessedResult  *result);
void       plugboard_result_view_clear      (PlugboardResultView *self);
char      *plugboard_result_view_dup_text   (PlugboardResultView *self);
char      *plugboard_result_view_dup_command_line (PlugboardResultView *self);
/* For tests: how many content blocks, and whether the schema check passed
 * (1), failed (0), could not tell because the schema is too complex (2), or
 * -1: no structured content or no schema, or the check still running. */
guint      plugboard_result_view_get_n_blocks  (PlugboardResultView *self);
int        plugboard_result_view_get_schema_ok (PlugboardResultView *self);

G_END_DECLS
