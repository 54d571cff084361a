/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-server-connection"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-server-connection.h"
#include "mcp-server-connection-private.h"

#include "mcp-error.h"

/* Skills over MCP for the front ends: each operation connects first when
 * needed, then runs on the connection's client. */

typedef enum
{
  SKILLS_LIST,
  SKILLS_GET,
  SKILLS_READ,
} SkillsOp;

typedef struct
{
  SkillsOp  op;
  McpSkill *skill;
  char     *uri;
} SkillsCall;

static void
skills_call_free (SkillsCall *call)
{
  g_clear_object (&call->skill);
  g_free (call->uri);
  g_free (call);
}

gboolean
mcp_server_connection_offers_skills (McpServerConnection *self)
{
  McpClient *client;

  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), FALSE);

  client = mcp_server_connection_get_client (self);
  return client != NULL && mcp_skills_server_supports (client);
}

static void
return_error (GTask               *task,
              McpServerConnection *self,
              GError              *error)
{
  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_prefix_error (&error, _("“%s”: "), mcp_server_connection_get_name (self));
  g_task_return_error (task, error);
}

static void
on_listed_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  GPtrArray *skills = mcp_skills_list_finish (MCP_CLIENT (object), result, &error);

  if (skills == NULL)
    return_error (task, g_task_get_source_object (task), error);
  else
    g_task_return_pointer (task, skills, (GDestroyNotify) g_ptr_array_unref);
}

static void
on_got_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  McpSkill *skill = mcp_skill_get_finish (MCP_CLIENT (object), result, &error);

  if (skill == NULL)
    return_error (task, g_task_get_source_object (task), error);
  else
    g_task_return_pointer (task, skill, g_object_unref);
}

static void
on_read_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SkillsCall *call = g_task_get_task_data (task);
  GError *error = NULL;
  GBytes *bytes;

  if (call->uri == NULL)
    bytes = mcp_skill_load_finish (MCP_SKILL (object), result, &error);
  else
    bytes = mcp_skill_fetch_file_finish (MCP_SKILL (object), result, &error);
  if (bytes == NULL)
    return_error (task, g_task_get_source_object (task), error);
  else
    g_task_return_pointer (task, bytes, (GDestroyNotify) g_bytes_unref);
}

static void
on_connected_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  McpServerConnection *self = MCP_SERVER_CONNECTION (object);
  g_autoptr(GTask) task = user_data;
  SkillsCall *call = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);
  GError *error = NULL;
  McpClient *client;

  if (!mcp_server_connection_ensure_connected_finish (self, result, &error))
    {
      return_error (task, self, error);
      return;
    }
  client = mcp_server_connection_get_client (self);
  if (client == NULL)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NOT_CONNECTED, _("“%s” is not connected"),
                               mcp_server_connection_get_name (self));
      return;
    }

  switch (call->op)
    {
    case SKILLS_LIST:
      mcp_skills_list_async (client, cancellable, on_listed_cb, g_steal_pointer (&task));
      break;
    case SKILLS_GET:
      mcp_skill_get_async (client, call->uri, cancellable, on_got_cb, g_steal_pointer (&task));
      break;
    case SKILLS_READ:
      if (call->uri == NULL)
        mcp_skill_load_async (call->skill, client, cancellable, on_read_cb, g_steal_pointer (&task));
      else
        mcp_skill_fetch_file_async (call->skill, client, call->uri, cancellable, on_read_cb,
                                    g_steal_pointer (&task));
      break;
    default:
      g_assert_not_reached ();
    }
}

static void
start (McpServerConnection *self,
       SkillsCall          *call,
       gpointer             source_tag,
       GCancellable        *cancellable,
       GAsyncReadyCallback  callback,
       gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, call, (GDestroyNotify) skills_call_free);
  mcp_server_connection_ensure_connected_async (self, cancellable, on_connected_cb, task);
}

void
mcp_server_connection_list_skills_async (McpServerConnection *self,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data)
{
  SkillsCall *call;

  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));

  call = g_new0 (SkillsCall, 1);
  call->op = SKILLS_LIST;
  start (self, call, mcp_server_connection_list_skills_async, cancellable, callback, user_data);
}

GPtrArray *
mcp_server_connection_list_skills_finish (McpServerConnection  *self,
                                          GAsyncResult         *result,
                                          GError              **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

void
mcp_server_connection_get_skill_async (McpServerConnection *self,
                                       const char          *uri,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  SkillsCall *call;

  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));
  g_return_if_fail (uri != NULL);

  call = g_new0 (SkillsCall, 1);
  call->op = SKILLS_GET;
  call->uri = g_strdup (uri);
  start (self, call, mcp_server_connection_get_skill_async, cancellable, callback, user_data);
}

McpSkill *
mcp_server_connection_get_skill_finish (McpServerConnection  *self,
                                        GAsyncResult         *result,
                                        GError              **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

void
mcp_server_connection_read_skill_async (McpServerConnection *self,
                                        McpSkill            *skill,
                                        const char          *uri,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  SkillsCall *call;

  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));
  g_return_if_fail (MCP_IS_SKILL (skill));

  call = g_new0 (SkillsCall, 1);
  call->op = SKILLS_READ;
  call->skill = g_object_ref (skill);
  call->uri = g_strdup (uri);
  start (self, call, mcp_server_connection_read_skill_async, cancellable, callback, user_data);
}

GBytes *
mcp_server_connection_read_skill_finish (McpServerConnection  *self,
                                         GAsyncResult         *result,
                                         GError              **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
