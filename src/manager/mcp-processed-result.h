/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "mcp-tool-result.h"

G_BEGIN_DECLS

#define MCP_DEFAULT_MAX_OUTPUT_TOKENS 25000
/* The estimate the limit uses: characters a token. */
#define MCP_CHARACTERS_PER_TOKEN      4
/* Images are scaled down to at most this many pixels on the longer side. */
#define MCP_MAX_IMAGE_SIDE            2000

/* What a result's structuredContent is, against the tool's outputSchema. */
typedef enum
{
  MCP_STRUCTURED_CHECK_NOT_CHECKED,  /* processed without the tool's schema */
  MCP_STRUCTURED_CHECK_NO_SCHEMA,    /* the tool declares none */
  MCP_STRUCTURED_CHECK_VALID,
  MCP_STRUCTURED_CHECK_INVALID,      /* a problem: it does not match */
  MCP_STRUCTURED_CHECK_MISSING,      /* a problem: a schema, no structured content */
  MCP_STRUCTURED_CHECK_ERROR_RESULT, /* isError and none: as the spec allows */
  MCP_STRUCTURED_CHECK_TOO_COMPLEX,  /* not validated: the schema is too complex */
} McpStructuredCheck;

#define MCP_TYPE_PROCESSED_RESULT (mcp_processed_result_get_type ())

G_DECLARE_FINAL_TYPE (McpProcessedResult, mcp_processed_result, MCP, PROCESSED_RESULT, GObject)

/**
 * McpProcessedResult:
 *
 * A tool's result made fit to show or to hand on: text past the output
 * limit cut (with a note at the cut saying how much), images scaled down
 * and saved as PNG, binary content (audio, blobs, images that did not
 * decode) saved to files; structured content past the output limit
 * left out and saved to a file; the structured content checked against
 * the tool's output schema.
 */
/* The result with cut text and scaled images in place. */
McpToolResult      *mcp_processed_result_get_result           (McpProcessedResult *self);
/* The result as the server sent it. */
McpToolResult      *mcp_processed_result_get_original         (McpProcessedResult *self);
/* Every saved file's path, in content order. */
const char * const *mcp_processed_result_get_files            (McpProcessedResult *self);
/* The file saved for content block @index, or NULL. */
const char         *mcp_processed_result_get_file_for_content (McpProcessedResult *self,
                                                               guint               index);
/* Content block @index's text parsed, when it is a JSON object or array
 * of at most MCP_TOOL_CALL_MAX_JSON_BYTES; else NULL. Parsed off the main
 * thread. */
JsonNode           *mcp_processed_result_get_json_for_content (McpProcessedResult *self,
                                                               guint               index);
/* What post-processing did, one sentence each, for the person. */
const char * const *mcp_processed_result_get_notes            (McpProcessedResult *self);
/* How many characters of text were cut (0: none). */
gsize               mcp_processed_result_get_cut_characters   (McpProcessedResult *self);
/* The structured content against the tool's output schema (the
 * original's, before any cut). */
McpStructuredCheck  mcp_processed_result_get_structured_check (McpProcessedResult *self);
/* The one sentence every front end shows about it (with the first
 * problem's path, "structuredContent.count: …"), or NULL when there is
 * nothing to say: valid, no schema, an error result. */
const char         *mcp_processed_result_get_structured_message (McpProcessedResult *self);
/* Every problem found when INVALID ("structuredContent.count: …"), or
 * why not when TOO_COMPLEX. */
const char * const *mcp_processed_result_get_structured_problems (McpProcessedResult *self);

/* The check itself, for a front end that checks a result it already has:
 * @output_schema (nullable) against @structured (nullable) of a result
 * that is an error or not; @problems (out, nullable): every problem when
 * INVALID, why not when TOO_COMPLEX, else empty; @message (out, nullable): as
 * mcp_processed_result_get_structured_message(). Bounded (the schema's
 * validation budget), but call it off the main thread. */
McpStructuredCheck  mcp_structured_content_check              (JsonNode           *output_schema,
                                                               JsonNode           *structured,
                                                               gboolean            is_error,
                                                               GPtrArray         **problems,
                                                               char              **message);

/* Text that is a JSON document is parsed up to this size. */
#define MCP_TOOL_CALL_MAX_JSON_BYTES (16 * 1024 * 1024)

/* @text parsed, when it is a JSON object or array (leading white space
 * allowed) of at most @max_bytes; else NULL. */
JsonNode           *mcp_tool_call_parse_json_text             (const char         *text,
                                                               gsize               max_bytes);

/* $XDG_CACHE_HOME/plugboard/results */
char               *mcp_tool_call_dup_results_dir             (void);

/* Post-processes @result off the main thread. @name names the saved files
 * (e.g. the qualified tool name); @directory is where they go (NULL:
 * mcp_tool_call_dup_results_dir(), created when needed); @max_characters
 * is the connection's limit (McpLimits' max-output-tokens through the
 * manager); 0 means MCP_DEFAULT_MAX_OUTPUT_TOKENS tokens. */
void                mcp_tool_result_process_async             (McpToolResult       *result,
                                                               const char          *name,
                                                               const char          *directory,
                                                               gsize                max_characters,
                                                               GCancellable        *cancellable,
                                                               GAsyncReadyCallback  callback,
                                                               gpointer             user_data);
/* As mcp_tool_result_process_async(), and @result's structured content
 * checked against @output_schema (nullable: the tool declares none), the
 * tool's, as mcp_structured_content_check() does. */
void                mcp_tool_result_process_for_tool_async    (McpToolResult       *result,
                                                               JsonObject          *output_schema,
                                                               const char          *name,
                                                               const char          *directory,
                                                               gsize                max_characters,
                                                               GCancellable        *cancellable,
                                                               GAsyncReadyCallback  callback,
                                                               gpointer             user_data);
McpProcessedResult *mcp_tool_result_process_finish            (GAsyncResult        *result,
                                                               GError             **error);

/* @contents (McpContent: a resource's contents, a prompt message's
 * content) post-processed as a tool result's content is: the same cut,
 * scaling and saved files. Finish with mcp_tool_result_process_finish(). */
void                mcp_contents_process_async                (GPtrArray           *contents,
                                                               const char          *name,
                                                               gsize                max_characters,
                                                               GCancellable        *cancellable,
                                                               GAsyncReadyCallback  callback,
                                                               gpointer             user_data);

G_END_DECLS
