/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-client.h"
#include "mcp-client-private.h"
#include "mcp-error.h"

/* resources/read, resources/subscribe, prompts/get and completion/complete:
 * each a request through mcp_client_request_for_task() and a check of the
 * answer's shape. */

#define MAX_COMPLETION_VALUES 100

/* ------------------------------------------------------------------------ */
/* resources/read                                                           */

static gpointer
read_answer (McpClient   *self,
             GTask       *task,
             JsonObject  *result,
             GError     **error)
{
  g_autoptr(GPtrArray) contents = g_ptr_array_new_with_free_func (g_object_unref);
  JsonNode *node = json_object_get_member (result, "contents");
  JsonArray *array;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("contents must be an array"));
      return NULL;
    }
  array = json_node_get_array (node);

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *item = json_array_get_element (array, i);
      g_autoptr(JsonObject) wrapper = NULL;
      g_autoptr(GError) local_error = NULL;
      McpContent *content;
      JsonObject *resource;

      if (!JSON_NODE_HOLDS_OBJECT (item))
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       _("contents[%u] must be an object"), i);
          return NULL;
        }
      resource = json_node_get_object (item);
      if (!json_object_has_member (resource, "text") && !json_object_has_member (resource, "blob"))
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       _("contents[%u] has neither text nor blob"), i);
          return NULL;
        }

      /* An embedded resource block, so that the front ends show it as they
       * show one in a tool result. */
      wrapper = json_object_new ();
      json_object_set_string_member (wrapper, "type", "resource");
      json_object_set_object_member (wrapper, "resource", json_object_ref (resource));
      content = mcp_content_new_from_json (wrapper, &local_error);
      if (content == NULL)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       _("contents[%u]: %s"), i, local_error->message);
          return NULL;
        }
      g_ptr_array_add (contents, content);
    }

  return g_steal_pointer (&contents);
}

void
mcp_client_read_resource_async (McpClient           *self,
                                const char          *uri,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  JsonObject *params;

  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (uri != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_client_read_resource_async);

  if (!mcp_client_check_offers (self, task, mcp_server_info_has_resources, _("resources"), "resources/read"))
    return;

  params = json_object_new ();
  json_object_set_string_member (params, "uri", uri);
  mcp_client_request_for_task (self, g_steal_pointer (&task), "resources/read", params, NULL,
                               read_answer, (GDestroyNotify) g_ptr_array_unref);
}

GPtrArray *
mcp_client_read_resource_finish (McpClient     *self,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ------------------------------------------------------------------------ */
/* resources/subscribe, resources/unsubscribe                               */

void
mcp_client_subscribe_resource_async (McpClient           *self,
                                     const char          *uri,
                                     gboolean             subscribe,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  const char *method = subscribe ? "resources/subscribe" : "resources/unsubscribe";
  JsonObject *params;

  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (uri != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_client_subscribe_resource_async);

  if (!mcp_client_check_offers (self, task, mcp_server_info_has_resources_subscribe,
                     _("subscriptions to resources"), method))
    return;

  if (mcp_client_get_era (self) == MCP_PROTOCOL_ERA_MODERN)
    {
      mcp_client_stateless_subscribe (self, uri, subscribe, g_steal_pointer (&task));
      return;
    }

  params = json_object_new ();
  json_object_set_string_member (params, "uri", uri);
  mcp_client_request_for_task (self, g_steal_pointer (&task), method, params, NULL,
                               NULL, NULL);
}

gboolean
mcp_client_subscribe_resource_finish (McpClient     *self,
                                      GAsyncResult  *result,
                                      GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ------------------------------------------------------------------------ */
/* prompts/get                                                              */

static gpointer
prompt_answer (McpClient   *self,
               GTask       *task,
               JsonObject  *result,
               GError     **error)
{
  return mcp_prompt_result_new_from_json (result, error);
}

/* The specification's prompt arguments are strings. */
static gboolean
check_string_members (JsonObject  *object,
                      const char  *what,
                      GError     **error)
{
  g_autoptr(GList) members = object != NULL ? json_object_get_members (object) : NULL;

  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *node = json_object_get_member (object, l->data);

      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_ARGUMENT,
                       _("%s “%s” must be a string"), what, (const char *) l->data);
          return FALSE;
        }
    }
  return TRUE;
}

void
mcp_client_get_prompt_async (McpClient           *self,
                             const char          *name,
                             JsonObject          *arguments,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  GError *error = NULL;
  JsonObject *params;

  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (name != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_client_get_prompt_async);

  if (!check_string_members (arguments, _("Prompt argument"), &error))
    {
      g_task_return_error (task, error);
      return;
    }
  if (!mcp_client_check_offers (self, task, mcp_server_info_has_prompts, _("prompts"), "prompts/get"))
    return;

  params = json_object_new ();
  json_object_set_string_member (params, "name", name);
  json_object_set_object_member (params, "arguments",
                                 arguments != NULL ? json_object_ref (arguments) : json_object_new ());
  mcp_client_request_for_task (self, g_steal_pointer (&task), "prompts/get", params, NULL,
                               prompt_answer, g_object_unref);
}

McpPromptResult *
mcp_client_get_prompt_finish (McpClient     *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ------------------------------------------------------------------------ */
/* completion/complete                                                      */

typedef struct
{
  GStrv    values;
  gboolean has_more;
} Completion;

static void
completion_free (Completion *completion)
{
  g_strfreev (completion->values);
  g_free (completion);
}

static gpointer
complete_answer (McpClient   *self,
                 GTask       *task,
                 JsonObject  *result,
                 GError     **error)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  JsonNode *node = json_object_get_member (result, "completion");
  JsonObject *completion;
  JsonArray *values;
  Completion *answer;
  guint n;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("completion must be an object"));
      return NULL;
    }
  completion = json_node_get_object (node);
  node = json_object_get_member (completion, "values");
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("completion.values must be an array"));
      return NULL;
    }
  values = json_node_get_array (node);
  n = json_array_get_length (values);

  for (guint i = 0; i < n && i < MAX_COMPLETION_VALUES; i++)
    {
      JsonNode *value = json_array_get_element (values, i);

      if (!JSON_NODE_HOLDS_VALUE (value) || json_node_get_value_type (value) != G_TYPE_STRING)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       _("completion.values[%u] must be a string"), i);
          return NULL;
        }
      g_strv_builder_add (builder, json_node_get_string (value));
    }

  answer = g_new0 (Completion, 1);
  answer->values = g_strv_builder_end (builder);
  node = json_object_get_member (completion, "hasMore");
  answer->has_more = n > MAX_COMPLETION_VALUES ||
                     (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
                      json_node_get_value_type (node) == G_TYPE_BOOLEAN &&
                      json_node_get_boolean (node));
  return answer;
}

void
mcp_client_complete_async (McpClient           *self,
                           McpCompletionRef     ref_kind,
                           const char          *ref,
                           const char          *argument,
                           const char          *value,
                           JsonObject          *context,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  McpServerInfo *info;
  GError *error = NULL;
  JsonObject *params, *ref_object, *argument_object;

  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (ref != NULL);
  g_return_if_fail (argument != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_client_complete_async);

  if (!check_string_members (context, _("Context argument"), &error))
    {
      g_task_return_error (task, error);
      return;
    }

  info = mcp_client_get_server_info (self);
  if (mcp_client_get_state (self) == MCP_CLIENT_STATE_READY && info != NULL &&
      !mcp_server_info_has_completions (info))
    {
      Completion *none = g_new0 (Completion, 1);

      none->values = g_new0 (char *, 1);
      g_task_return_pointer (task, none, (GDestroyNotify) completion_free);
      return;
    }
  if (!mcp_client_check_offers (self, task, mcp_server_info_has_completions, _("completions"),
                     "completion/complete"))
    return;

  ref_object = json_object_new ();
  if (ref_kind == MCP_COMPLETION_PROMPT)
    {
      json_object_set_string_member (ref_object, "type", "ref/prompt");
      json_object_set_string_member (ref_object, "name", ref);
    }
  else
    {
      json_object_set_string_member (ref_object, "type", "ref/resource");
      json_object_set_string_member (ref_object, "uri", ref);
    }
  argument_object = json_object_new ();
  json_object_set_string_member (argument_object, "name", argument);
  json_object_set_string_member (argument_object, "value", value != NULL ? value : "");

  params = json_object_new ();
  json_object_set_object_member (params, "ref", ref_object);
  json_object_set_object_member (params, "argument", argument_object);
  if (context != NULL && json_object_get_size (context) > 0)
    {
      JsonObject *context_object = json_object_new ();

      json_object_set_object_member (context_object, "arguments", json_object_ref (context));
      json_object_set_object_member (params, "context", context_object);
    }
  mcp_client_request_for_task (self, g_steal_pointer (&task), "completion/complete", params, NULL,
                               complete_answer, (GDestroyNotify) completion_free);
}

GStrv
mcp_client_complete_finish (McpClient     *self,
                            GAsyncResult  *result,
                            gboolean      *has_more,
                            GError       **error)
{
  Completion *completion;
  GStrv values;

  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  completion = g_task_propagate_pointer (G_TASK (result), error);
  if (completion == NULL)
    return NULL;
  if (has_more != NULL)
    *has_more = completion->has_more;
  values = g_steal_pointer (&completion->values);
  completion_free (completion);
  return values;
}
