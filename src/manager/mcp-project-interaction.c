/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-project"

/* McpProject: what goes through its McpInteraction — the tool calls it
 * makes (mcp_project_new_call()), the servers' elicitation/create and
 * sampling/createMessage (declared only as far as the interaction answers
 * them), and the sign-in address (checked by the URL policy first). */

#include "config.h"

#include "mcp-project-private.h"

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-url-policy.h"

McpInteraction *
mcp_project_get_interaction (McpProject *self)
{
  g_return_val_if_fail (MCP_IS_PROJECT (self), NULL);

  return self->interaction;
}

/* A server's request, answered by the interaction. */

static void
on_answered_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) reply = user_data;
  McpInteraction *interaction = MCP_INTERACTION (object);
  const char *method = g_task_get_task_data (reply);
  GError *error = NULL;
  JsonNode *answer;

  if (g_strcmp0 (method, "sampling/createMessage") == 0)
    answer = mcp_interaction_sample_finish (interaction, result, &error);
  else
    answer = mcp_interaction_elicit_finish (interaction, result, &error);

  if (answer == NULL)
    g_task_return_error (reply, error);
  else
    g_task_return_pointer (reply, answer, (GDestroyNotify) json_node_unref);
}

static void
on_server_request_cb (McpServerConnection *connection,
                      const char          *method,
                      JsonObject          *params,
                      GTask               *reply,
                      gpointer             user_data)
{
  McpProject *self = user_data;
  GCancellable *cancellable = g_task_get_cancellable (reply);

  if (self->interaction == NULL)
    {
      g_task_return_new_error (reply, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                               _("There is no one here to answer %s"), method);
      g_object_unref (reply);
      return;
    }

  g_task_set_task_data (reply, g_strdup (method), g_free);
  if (g_strcmp0 (method, "sampling/createMessage") == 0)
    mcp_interaction_sample_async (self->interaction, connection, params, cancellable,
                                  on_answered_cb, reply);
  else
    mcp_interaction_elicit_async (self->interaction, connection, params, cancellable,
                                  on_answered_cb, reply);
}

/* Declares (or withdraws) @method with the part @key of the interaction's
 * capabilities. */
static void
set_handler (McpProject *self,
             JsonObject *capabilities,
             const char *key,
             const char *method)
{
  g_autoptr(JsonObject) declared = NULL;

  if (capabilities == NULL || !json_object_has_member (capabilities, key))
    {
      mcp_server_manager_set_request_handler (self->manager, method, NULL, NULL, NULL, NULL);
      return;
    }

  declared = json_object_new ();
  json_object_set_member (declared, key, json_node_copy (json_object_get_member (capabilities, key)));
  mcp_server_manager_set_request_handler (self->manager, method, declared,
                                          on_server_request_cb, self, NULL);
}

void
mcp_project_set_interaction (McpProject     *self,
                             McpInteraction *interaction)
{
  g_autoptr(JsonObject) capabilities = NULL;

  g_return_if_fail (MCP_IS_PROJECT (self));
  g_return_if_fail (!interaction || MCP_IS_INTERACTION (interaction));

  if (!g_set_object (&self->interaction, interaction))
    return;

  if (interaction != NULL)
    capabilities = mcp_interaction_dup_capabilities (interaction);
  if (self->manager != NULL)
    {
      set_handler (self, capabilities, "elicitation", "elicitation/create");
      set_handler (self, capabilities, "sampling", "sampling/createMessage");
    }

  g_object_notify (G_OBJECT (self), "interaction");
}

McpCall *
mcp_project_new_call (McpProject   *self,
                      McpPoolTool  *tool,
                      JsonObject   *arguments,
                      McpCallFlags  flags)
{
  g_return_val_if_fail (MCP_IS_PROJECT (self), NULL);
  g_return_val_if_fail (MCP_IS_POOL_TOOL (tool), NULL);

  return mcp_call_new (tool, arguments, flags, self->permissions, self->interaction,
                       mcp_project_get_history (self));
}

/* ------------------------------------------------------------------------ */
/* Sign-in                                                                  */

typedef struct
{
  McpProject   *self;
  char         *name;
  GCancellable *cancellable;   /* the sign-in's own: cancelled on a refusal */
  gulong        cancelled_id;  /* on the caller's cancellable */
  GCancellable *outer;
  GError       *refused;
} SignIn;

static void
sign_in_free (gpointer data)
{
  SignIn *sign_in = data;

  /* Not g_cancellable_disconnect(), which waits for a "cancelled" under
   * way: this may run within it. 0: it was cancelled already. */
  if (sign_in->outer != NULL && sign_in->cancelled_id != 0)
    g_signal_handler_disconnect (sign_in->outer, sign_in->cancelled_id);
  g_clear_object (&sign_in->outer);
  g_clear_object (&sign_in->cancellable);
  g_clear_object (&sign_in->self);
  g_clear_error (&sign_in->refused);
  g_free (sign_in->name);
  g_free (sign_in);
}

static void
on_outer_cancelled_cb (GCancellable *outer,
                       GCancellable *inner)
{
  g_cancellable_cancel (inner);
}

/* The provider's open-URL function: the URL policy, then the person. A
 * refusal ends the sign-in with the reason. */
static void
open_url_cb (McpOAuthProvider *provider,
             const char       *url,
             gpointer          user_data)
{
  GTask *task = user_data;
  SignIn *sign_in = g_task_get_task_data (task);
  g_autofree char *host = NULL;
  GError *refused = NULL;

  if (!mcp_url_policy_check (url, MCP_URL_USE_BROWSER, &host, &refused))
    {
      /* Translators: the first %s is a server's name, the second why its sign-in address is refused */
      sign_in->refused = g_error_new (MCP_ERROR, MCP_ERROR_NEEDS_AUTH,
                                      _("The sign-in address of “%s” was refused: %s"),
                                      sign_in->name, refused->message);
      g_error_free (refused);
      g_cancellable_cancel (sign_in->cancellable);
      return;
    }

  if (sign_in->self->interaction != NULL)
    mcp_interaction_show_sign_in_url (sign_in->self->interaction, sign_in->name, url, host);
  else
    g_message ("Sign in to %s at %s", sign_in->name, host);
}

static void
on_sign_in_done_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  SignIn *sign_in = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (mcp_server_manager_sign_in_finish (MCP_SERVER_MANAGER (object), result, &error))
    g_task_return_boolean (task, TRUE);
  else if (sign_in->refused != NULL)
    g_task_return_error (task, g_steal_pointer (&sign_in->refused));
  else
    g_task_return_error (task, g_steal_pointer (&error));
}

void
mcp_project_sign_in_async (McpProject          *self,
                           const char          *name,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  GTask *task;
  SignIn *sign_in;

  g_return_if_fail (MCP_IS_PROJECT (self));
  g_return_if_fail (name != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_project_sign_in_async);

  sign_in = g_new0 (SignIn, 1);
  sign_in->self = g_object_ref (self);
  sign_in->name = g_strdup (name);
  sign_in->cancellable = g_cancellable_new ();
  if (cancellable != NULL)
    {
      sign_in->outer = g_object_ref (cancellable);
      sign_in->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (on_outer_cancelled_cb),
                                                     sign_in->cancellable, NULL);
    }
  g_task_set_task_data (task, sign_in, sign_in_free);

  /* The task outlives the provider's use of its open-URL data: the
   * sign-in ends (and the provider forgets the function) before the task
   * returns. */
  mcp_server_manager_sign_in_async (self->manager, name, open_url_cb, task,
                                    sign_in->cancellable, on_sign_in_done_cb, task);
}

gboolean
mcp_project_sign_in_finish (McpProject    *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (MCP_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
