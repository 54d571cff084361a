/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "mcp-content.h"

G_BEGIN_DECLS

#define MCP_TYPE_PROMPT_RESULT (mcp_prompt_result_get_type ())

G_DECLARE_FINAL_TYPE (McpPromptResult, mcp_prompt_result, MCP, PROMPT_RESULT, GObject)

/**
 * McpPromptResult:
 *
 * What prompts/get answers: an optional description and the messages, each
 * a role ("user" or "assistant") and one content block (text, image, audio,
 * resource link or embedded resource, as in tool results).
 */
/* Fails with MCP_ERROR_INVALID_MESSAGE saying which member is wrong. */
McpPromptResult *mcp_prompt_result_new_from_json    (JsonObject       *object,
                                                     GError          **error);
const char      *mcp_prompt_result_get_description  (McpPromptResult  *self);
guint            mcp_prompt_result_get_n_messages   (McpPromptResult  *self);
/* "user" or "assistant" (any other string the server sent, kept) */
const char      *mcp_prompt_result_get_role         (McpPromptResult  *self,
                                                     guint             index);
McpContent      *mcp_prompt_result_get_content      (McpPromptResult  *self,
                                                     guint             index);
JsonObject      *mcp_prompt_result_get_json         (McpPromptResult  *self);

G_END_DECLS
