/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define MCP_TYPE_PROMPT (mcp_prompt_get_type ())

G_DECLARE_FINAL_TYPE (McpPrompt, mcp_prompt, MCP, PROMPT, GObject)

/* A prompt as prompts/list describes it. name is required; each argument
 * must be an object with a non-empty string name (a prompt whose arguments
 * cannot be told apart cannot be filled in).
 *
 * Properties (read-only): name, title, description. */
McpPrompt      *mcp_prompt_new_from_json         (JsonObject  *object,
                                                  GError     **error);

const char     *mcp_prompt_get_name              (McpPrompt   *self);
/* NULL when absent */
const char     *mcp_prompt_get_title             (McpPrompt   *self);
/* title, else name */
const char     *mcp_prompt_get_display_name      (McpPrompt   *self);
const char     *mcp_prompt_get_description       (McpPrompt   *self);
/* The arguments, each {name, description?, required?}; an empty array when
 * the prompt takes none. */
JsonArray      *mcp_prompt_get_arguments         (McpPrompt   *self);
guint           mcp_prompt_get_n_arguments       (McpPrompt   *self);
const char     *mcp_prompt_get_argument_name     (McpPrompt   *self,
                                                  guint        index);
/* FALSE when the argument does not say (the specification's default). */
gboolean        mcp_prompt_get_argument_required (McpPrompt   *self,
                                                  guint        index);
/* The arguments as a JSON Schema, so a form fills them in as it does a
 * tool's: {"type": "object", "properties": {NAME: {"type": "string",
 * "title"?, "description"?}…}, "required": [NAME…]}, in the prompt's order
 * (prompt arguments are strings). Transfer full. */
JsonObject     *mcp_prompt_dup_arguments_schema  (McpPrompt   *self);
/* NULL when absent */
JsonArray      *mcp_prompt_get_icons             (McpPrompt   *self);
JsonObject     *mcp_prompt_get_meta              (McpPrompt   *self);
/* The object as the server sent it, unknown members included. */
JsonObject     *mcp_prompt_get_json              (McpPrompt   *self);

G_END_DECLS
