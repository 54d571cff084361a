/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-interaction"

#include "config.h"

#include "mcp-interaction.h"

#include <glib/gi18n.h>

G_DEFINE_TYPE (McpInteraction, mcp_interaction, G_TYPE_OBJECT)

/* What a class that does not handle a request answers. */
static void
return_not_supported (gpointer             source,
                      gpointer             tag,
                      const char          *message,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (source, NULL, callback, user_data);

  g_task_set_source_tag (task, tag);
  g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "%s", message);
}

typedef void     (*ServerRequestAsync)  (McpInteraction       *self,
                                         McpServerConnection  *connection,
                                         JsonObject           *params,
                                         GCancellable         *cancellable,
                                         GAsyncReadyCallback   callback,
                                         gpointer              user_data);
typedef JsonNode *(*ServerRequestFinish) (McpInteraction       *self,
                                         GAsyncResult         *result,
                                         GError              **error);
typedef gboolean (*BooleanFinish)       (McpInteraction       *self,
                                         GAsyncResult         *result,
                                         GError              **error);

/* A server's request (elicitation, sampling) to the class's @request, or
 * the default answer, @nobody, when it has none. */
static void
ask_server_request (McpInteraction      *self,
                    ServerRequestAsync   request,
                    gpointer             tag,
                    const char          *nobody,
                    McpServerConnection *connection,
                    JsonObject          *params,
                    GCancellable        *cancellable,
                    GAsyncReadyCallback  callback,
                    gpointer             user_data)
{
  if (request == NULL)
    return_not_supported (self, tag, nobody, callback, user_data);
  else
    request (self, connection, params, cancellable, callback, user_data);
}

/* The default answer (tagged @tag), or what the class's @finish says. */
static JsonNode *
finish_server_request (McpInteraction       *self,
                       GAsyncResult         *result,
                       gpointer              tag,
                       ServerRequestFinish   finish,
                       GError              **error)
{
  if (g_async_result_is_tagged (result, tag))
    return g_task_propagate_pointer (G_TASK (result), error);
  return finish (self, result, error);
}

static gboolean
finish_boolean (McpInteraction  *self,
                GAsyncResult    *result,
                gpointer         tag,
                BooleanFinish    finish,
                GError         **error)
{
  if (g_async_result_is_tagged (result, tag))
    return g_task_propagate_boolean (G_TASK (result), error);
  return finish (self, result, error);
}

static JsonObject *
mcp_interaction_real_dup_capabilities (McpInteraction *self)
{
  McpInteractionClass *klass = MCP_INTERACTION_GET_CLASS (self);
  JsonObject *capabilities = json_object_new ();

  if (klass->sample_async != NULL)
    json_object_set_object_member (capabilities, "sampling", json_object_new ());
  if (klass->elicit_async != NULL)
    {
      JsonObject *elicitation = json_object_new ();

      json_object_set_object_member (elicitation, "form", json_object_new ());
      json_object_set_object_member (elicitation, "url", json_object_new ());
      json_object_set_object_member (capabilities, "elicitation", elicitation);
    }

  return capabilities;
}

static void
mcp_interaction_class_init (McpInteractionClass *klass)
{
  klass->dup_capabilities = mcp_interaction_real_dup_capabilities;
}

static void
mcp_interaction_init (McpInteraction *self)
{
}

void
mcp_interaction_ask_tool_async (McpInteraction      *self,
                                McpPoolTool         *tool,
                                JsonObject          *arguments,
                                const char          *rule,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  McpInteractionClass *klass;

  g_return_if_fail (MCP_IS_INTERACTION (self));
  g_return_if_fail (MCP_IS_POOL_TOOL (tool));

  klass = MCP_INTERACTION_GET_CLASS (self);
  if (klass->ask_tool_async == NULL)
    return_not_supported (self, mcp_interaction_ask_tool_async,
                          _("There is no one here to confirm the call"), callback, user_data);
  else
    klass->ask_tool_async (self, tool, arguments, rule, cancellable, callback, user_data);
}

gboolean
mcp_interaction_ask_tool_finish (McpInteraction  *self,
                                 GAsyncResult    *result,
                                 GError         **error)
{
  g_return_val_if_fail (MCP_IS_INTERACTION (self), FALSE);

  return finish_boolean (self, result, mcp_interaction_ask_tool_async,
                         MCP_INTERACTION_GET_CLASS (self)->ask_tool_finish, error);
}

void
mcp_interaction_open_url_async (McpInteraction      *self,
                                const char          *server_name,
                                const char          *url,
                                const char          *host,
                                const char          *message,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  McpInteractionClass *klass;

  g_return_if_fail (MCP_IS_INTERACTION (self));
  g_return_if_fail (url != NULL);

  klass = MCP_INTERACTION_GET_CLASS (self);
  if (klass->open_url_async == NULL)
    return_not_supported (self, mcp_interaction_open_url_async,
                          _("There is no one here to open the web page the server asks for"), callback, user_data);
  else
    klass->open_url_async (self, server_name, url, host, message, cancellable, callback, user_data);
}

gboolean
mcp_interaction_open_url_finish (McpInteraction  *self,
                                 GAsyncResult    *result,
                                 GError         **error)
{
  g_return_val_if_fail (MCP_IS_INTERACTION (self), FALSE);

  return finish_boolean (self, result, mcp_interaction_open_url_async,
                         MCP_INTERACTION_GET_CLASS (self)->open_url_finish, error);
}

void
mcp_interaction_elicit_async (McpInteraction      *self,
                              McpServerConnection *connection,
                              JsonObject          *params,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_return_if_fail (MCP_IS_INTERACTION (self));

  ask_server_request (self, MCP_INTERACTION_GET_CLASS (self)->elicit_async,
                      mcp_interaction_elicit_async,
                      _("There is no one here to answer the server’s questions"),
                      connection, params, cancellable, callback, user_data);
}

JsonNode *
mcp_interaction_elicit_finish (McpInteraction  *self,
                               GAsyncResult    *result,
                               GError         **error)
{
  g_return_val_if_fail (MCP_IS_INTERACTION (self), NULL);

  return finish_server_request (self, result, mcp_interaction_elicit_async,
                                MCP_INTERACTION_GET_CLASS (self)->elicit_finish, error);
}

void
mcp_interaction_sample_async (McpInteraction      *self,
                              McpServerConnection *connection,
                              JsonObject          *params,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_return_if_fail (MCP_IS_INTERACTION (self));

  ask_server_request (self, MCP_INTERACTION_GET_CLASS (self)->sample_async,
                      mcp_interaction_sample_async,
                      _("There is no one here to approve the server’s request for a model reply"),
                      connection, params, cancellable, callback, user_data);
}

JsonNode *
mcp_interaction_sample_finish (McpInteraction  *self,
                               GAsyncResult    *result,
                               GError         **error)
{
  g_return_val_if_fail (MCP_IS_INTERACTION (self), NULL);

  return finish_server_request (self, result, mcp_interaction_sample_async,
                                MCP_INTERACTION_GET_CLASS (self)->sample_finish, error);
}

void
mcp_interaction_show_sign_in_url (McpInteraction *self,
                                  const char     *server_name,
                                  const char     *url,
                                  const char     *host)
{
  McpInteractionClass *klass;

  g_return_if_fail (MCP_IS_INTERACTION (self));
  g_return_if_fail (url != NULL);

  klass = MCP_INTERACTION_GET_CLASS (self);
  if (klass->show_sign_in_url != NULL)
    klass->show_sign_in_url (self, server_name, url, host);
  else
    g_message ("Sign in to %s at %s", server_name, host);
}

JsonObject *
mcp_interaction_dup_capabilities (McpInteraction *self)
{
  g_return_val_if_fail (MCP_IS_INTERACTION (self), NULL);

  return MCP_INTERACTION_GET_CLASS (self)->dup_capabilities (self);
}

void
mcp_interaction_open_link_async (McpInteraction      *self,
                                 const char          *server_name,
                                 const char          *url,
                                 const char          *host,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  McpInteractionClass *klass;

  g_return_if_fail (MCP_IS_INTERACTION (self));
  g_return_if_fail (url != NULL);

  klass = MCP_INTERACTION_GET_CLASS (self);
  if (klass->open_link_async == NULL)
    return_not_supported (self, mcp_interaction_open_link_async,
                          _("There is no one here to open the link the interface asks for"), callback, user_data);
  else
    klass->open_link_async (self, server_name, url, host, cancellable, callback, user_data);
}

gboolean
mcp_interaction_open_link_finish (McpInteraction  *self,
                                  GAsyncResult    *result,
                                  GError         **error)
{
  g_return_val_if_fail (MCP_IS_INTERACTION (self), FALSE);

  return finish_boolean (self, result, mcp_interaction_open_link_async,
                         MCP_INTERACTION_GET_CLASS (self)->open_link_finish, error);
}

void
mcp_interaction_save_file_async (McpInteraction      *self,
                                 const char          *server_name,
                                 const char          *name,
                                 const char          *content_type,
                                 GBytes              *contents,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  McpInteractionClass *klass;

  g_return_if_fail (MCP_IS_INTERACTION (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (contents != NULL);

  klass = MCP_INTERACTION_GET_CLASS (self);
  if (klass->save_file_async == NULL)
    return_not_supported (self, mcp_interaction_save_file_async,
                          _("There is no one here to save the file the interface offers"), callback, user_data);
  else
    klass->save_file_async (self, server_name, name, content_type, contents, cancellable, callback, user_data);
}

gboolean
mcp_interaction_save_file_finish (McpInteraction  *self,
                                  GAsyncResult    *result,
                                  GError         **error)
{
  g_return_val_if_fail (MCP_IS_INTERACTION (self), FALSE);

  return finish_boolean (self, result, mcp_interaction_save_file_async,
                         MCP_INTERACTION_GET_CLASS (self)->save_file_finish, error);
}
