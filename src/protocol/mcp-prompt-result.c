/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-prompt-result.h"

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-json-private.h"

typedef struct
{
  const char *role;      /* borrowed from the message object */
  McpContent *content;
} Message;

struct _McpPromptResult
{
  GObject      parent_instance;

  JsonObject  *object;       /* owned */
  const char  *description;  /* borrowed */
  GArray      *messages;     /* Message */
};

G_DEFINE_FINAL_TYPE (McpPromptResult, mcp_prompt_result, G_TYPE_OBJECT)

static void
clear_message (gpointer data)
{
  Message *message = data;

  g_clear_object (&message->content);
}

static void
mcp_prompt_result_finalize (GObject *object)
{
  McpPromptResult *self = MCP_PROMPT_RESULT (object);

  g_clear_pointer (&self->messages, g_array_unref);
  g_clear_pointer (&self->object, json_object_unref);

  G_OBJECT_CLASS (mcp_prompt_result_parent_class)->finalize (object);
}

static void
mcp_prompt_result_class_init (McpPromptResultClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mcp_prompt_result_finalize;
}

static void
mcp_prompt_result_init (McpPromptResult *self)
{
  self->messages = g_array_new (FALSE, TRUE, sizeof (Message));
  g_array_set_clear_func (self->messages, clear_message);
}

McpPromptResult *
mcp_prompt_result_new_from_json (JsonObject  *object,
                                 GError     **error)
{
  g_autoptr(McpPromptResult) self = NULL;
  JsonNode *node;
  JsonArray *messages;

  g_return_val_if_fail (object != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_object_new (MCP_TYPE_PROMPT_RESULT, NULL);
  self->object = json_object_ref (object);
  self->description = mcp_json_optional_string (object, "description", "prompt result", NULL);

  node = json_object_get_member (object, "messages");
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("prompt result: messages must be an array"));
      return NULL;
    }
  messages = json_node_get_array (node);

  for (guint i = 0; i < json_array_get_length (messages); i++)
    {
      JsonNode *item = json_array_get_element (messages, i);
      JsonObject *message;
      JsonNode *role, *content;
      g_autoptr(GError) local_error = NULL;
      Message entry = { NULL, NULL };

      if (!JSON_NODE_HOLDS_OBJECT (item))
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       _("prompt result: messages[%u] must be an object"), i);
          return NULL;
        }
      message = json_node_get_object (item);

      role = json_object_get_member (message, "role");
      if (role == NULL || json_node_get_value_type (role) != G_TYPE_STRING)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       _("prompt result: messages[%u].role must be a string"), i);
          return NULL;
        }

      content = json_object_get_member (message, "content");
      if (content == NULL || !JSON_NODE_HOLDS_OBJECT (content))
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       _("prompt result: messages[%u].content must be an object"), i);
          return NULL;
        }

      entry.role = json_node_get_string (role);
      entry.content = mcp_content_new_from_json (json_node_get_object (content), &local_error);
      if (entry.content == NULL)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       _("prompt result: messages[%u]: %s"), i, local_error->message);
          return NULL;
        }
      g_array_append_val (self->messages, entry);
    }

  return g_steal_pointer (&self);
}

const char *
mcp_prompt_result_get_description (McpPromptResult *self)
{
  g_return_val_if_fail (MCP_IS_PROMPT_RESULT (self), NULL);
  return self->description;
}

guint
mcp_prompt_result_get_n_messages (McpPromptResult *self)
{
  g_return_val_if_fail (MCP_IS_PROMPT_RESULT (self), 0);
  return self->messages->len;
}

const char *
mcp_prompt_result_get_role (McpPromptResult *self,
                            guint            index)
{
  g_return_val_if_fail (MCP_IS_PROMPT_RESULT (self), NULL);
  g_return_val_if_fail (index < self->messages->len, NULL);
  return g_array_index (self->messages, Message, index).role;
}

McpContent *
mcp_prompt_result_get_content (McpPromptResult *self,
                               guint            index)
{
  g_return_val_if_fail (MCP_IS_PROMPT_RESULT (self), NULL);
  g_return_val_if_fail (index < self->messages->len, NULL);
  return g_array_index (self->messages, Message, index).content;
}

JsonObject *
mcp_prompt_result_get_json (McpPromptResult *self)
{
  g_return_val_if_fail (MCP_IS_PROMPT_RESULT (self), NULL);
  return self->object;
}
