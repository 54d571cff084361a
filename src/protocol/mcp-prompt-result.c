/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mcp-prompt-result.h"

#include "mcp-error.h"

/* STUB: the contract only; the implementation is being written. */

struct _McpPromptResult
{
  GObject parent_instance;
};

G_DEFINE_FINAL_TYPE (McpPromptResult, mcp_prompt_result, G_TYPE_OBJECT)

static void mcp_prompt_result_class_init (McpPromptResultClass *klass) { }
static void mcp_prompt_result_init (McpPromptResult *self) { }

McpPromptResult *
mcp_prompt_result_new_from_json (JsonObject *object, GError **error)
{
  g_set_error (error, MCP_ERROR, MCP_ERROR_UNSUPPORTED, "Not implemented yet");
  return NULL;
}

const char *mcp_prompt_result_get_description (McpPromptResult *self) { return NULL; }
guint mcp_prompt_result_get_n_messages (McpPromptResult *self) { return 0; }
const char *mcp_prompt_result_get_role (McpPromptResult *self, guint index) { return NULL; }
McpContent *mcp_prompt_result_get_content (McpPromptResult *self, guint index) { return NULL; }
JsonObject *mcp_prompt_result_get_json (McpPromptResult *self) { return NULL; }
