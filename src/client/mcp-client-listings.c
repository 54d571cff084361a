/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client"

#include "config.h"

#include "mcp-client.h"
#include "mcp-client-private.h"

/* tools/list, resources/list, resources/templates/list and prompts/list:
 * what each lists and how its items are made, through the paging of
 * mcp-client-paging.c. */

static gboolean
server_declares (McpClient *self,
                 gboolean (*has) (McpServerInfo *))
{
  McpServerInfo *info = mcp_client_get_server_info (self);

  return info != NULL && has (info);
}

/* Through GObject, not casts of the typed functions: calling a function
 * through a pointer of another type is undefined. */
static GObject *
tool_new (JsonObject  *object,
          GError     **error)
{
  return G_OBJECT (mcp_tool_new_from_json (object, error));
}

static const char *
tool_key (gpointer item)
{
  return mcp_tool_get_name (item);
}

static const McpClientListKind list_tools_kind = {
  "tools/list", "tools", "tools", tool_new, tool_key,
};

void
mcp_client_list_tools_async (McpClient           *self,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_return_if_fail (MCP_IS_CLIENT (self));

  mcp_client_list_paged_async (self, &list_tools_kind, TRUE, mcp_client_list_tools_async,
                               cancellable, callback, user_data);
}

GPtrArray *
mcp_client_list_tools_finish (McpClient     *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  GPtrArray *tools = mcp_client_list_paged_finish (self, result, mcp_client_list_tools_async, error);

  if (tools != NULL)
    mcp_client_remember_listed_tools (self, tools);
  return tools;
}

static GObject *
resource_new (JsonObject  *object,
              GError     **error)
{
  return G_OBJECT (mcp_resource_new_from_json (object, error));
}

static const char *
resource_key (gpointer item)
{
  return mcp_resource_get_uri (item);
}

static const McpClientListKind list_resources_kind = {
  "resources/list", "resources", "resources", resource_new, resource_key,
};

void
mcp_client_list_resources_async (McpClient           *self,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_return_if_fail (MCP_IS_CLIENT (self));

  mcp_client_list_paged_async (self, &list_resources_kind,
                               server_declares (self, mcp_server_info_has_resources),
                               mcp_client_list_resources_async,
                               cancellable, callback, user_data);
}

GPtrArray *
mcp_client_list_resources_finish (McpClient     *self,
                                  GAsyncResult  *result,
                                  GError       **error)
{
  return mcp_client_list_paged_finish (self, result, mcp_client_list_resources_async, error);
}

static GObject *
resource_template_new (JsonObject  *object,
                       GError     **error)
{
  return G_OBJECT (mcp_resource_template_new_from_json (object, error));
}

static const char *
resource_template_key (gpointer item)
{
  return mcp_resource_template_get_uri_template (item);
}

static const McpClientListKind list_resource_templates_kind = {
  "resources/templates/list", "resourceTemplates", "resource templates",
  resource_template_new, resource_template_key,
};

void
mcp_client_list_resource_templates_async (McpClient           *self,
                                          GCancellable        *cancellable,
                                          GAsyncReadyCallback  callback,
                                          gpointer             user_data)
{
  g_return_if_fail (MCP_IS_CLIENT (self));

  mcp_client_list_paged_async (self, &list_resource_templates_kind,
                               server_declares (self, mcp_server_info_has_resources),
                               mcp_client_list_resource_templates_async,
                               cancellable, callback, user_data);
}

GPtrArray *
mcp_client_list_resource_templates_finish (McpClient     *self,
                                           GAsyncResult  *result,
                                           GError       **error)
{
  return mcp_client_list_paged_finish (self, result, mcp_client_list_resource_templates_async, error);
}

static GObject *
prompt_new (JsonObject  *object,
            GError     **error)
{
  return G_OBJECT (mcp_prompt_new_from_json (object, error));
}

static const char *
prompt_key (gpointer item)
{
  return mcp_prompt_get_name (item);
}

static const McpClientListKind list_prompts_kind = {
  "prompts/list", "prompts", "prompts", prompt_new, prompt_key,
};

void
mcp_client_list_prompts_async (McpClient           *self,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_return_if_fail (MCP_IS_CLIENT (self));

  mcp_client_list_paged_async (self, &list_prompts_kind,
                               server_declares (self, mcp_server_info_has_prompts),
                               mcp_client_list_prompts_async,
                               cancellable, callback, user_data);
}

GPtrArray *
mcp_client_list_prompts_finish (McpClient     *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  return mcp_client_list_paged_finish (self, result, mcp_client_list_prompts_async, error);
}
