/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-doctor"

#include "config.h"

#include "mcp-doctor-private.h"

#include "mcp-dpop.h"

/* The doctor's requests carry the stored sign-in as a connection's would
 * (a DPoP-bound token as "DPoP" with a fresh proof, RFC 9449), through the
 * server's own McpOAuthProvider; but a challenge is only reported, never
 * answered: the doctor looks, it does not sign in. The one exception is a
 * resource server's use_dpop_nonce (RFC 9449 §9): the request is retried
 * with the nonce it gave, as a connection would (MCP_AUTH_MAX_ROUNDS
 * bounds it). */

struct _McpDoctorAuth
{
  GObject          parent_instance;
  McpAuthProvider *inner;
};

static void mcp_doctor_auth_iface_init (McpAuthProviderInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (McpDoctorAuth, mcp_doctor_auth, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (MCP_TYPE_AUTH_PROVIDER,
                                                      mcp_doctor_auth_iface_init))

static void
mcp_doctor_auth_dispose (GObject *object)
{
  McpDoctorAuth *self = MCP_DOCTOR_AUTH (object);

  g_clear_object (&self->inner);
  G_OBJECT_CLASS (mcp_doctor_auth_parent_class)->dispose (object);
}

static void
mcp_doctor_auth_class_init (McpDoctorAuthClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = mcp_doctor_auth_dispose;
}

static void
mcp_doctor_auth_init (McpDoctorAuth *self)
{
}

static char *
get_authorization (McpAuthProvider *provider)
{
  return mcp_auth_provider_get_authorization (MCP_DOCTOR_AUTH (provider)->inner);
}

static void
authorize_message (McpAuthProvider *provider,
                   SoupMessage     *message)
{
  mcp_auth_provider_authorize_message (MCP_DOCTOR_AUTH (provider)->inner, message);
}

static void
message_answered (McpAuthProvider *provider,
                  SoupMessage     *message)
{
  mcp_auth_provider_message_answered (MCP_DOCTOR_AUTH (provider)->inner, message);
}

static void
handle_challenge_async (McpAuthProvider     *provider,
                        guint                status,
                        const char          *www_authenticate,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (provider, cancellable, callback, user_data);
  g_autofree char *error = mcp_dpop_challenge_error (www_authenticate, NULL);

  g_task_set_source_tag (task, handle_challenge_async);
  g_task_return_boolean (task, status == SOUP_STATUS_UNAUTHORIZED &&
                               g_strcmp0 (error, "use_dpop_nonce") == 0);
}

static gboolean
handle_challenge_finish (McpAuthProvider  *provider,
                         GAsyncResult     *result,
                         GError          **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
mcp_doctor_auth_iface_init (McpAuthProviderInterface *iface)
{
  iface->handle_challenge_async = handle_challenge_async;
  iface->handle_challenge_finish = handle_challenge_finish;
  iface->get_authorization = get_authorization;
  iface->authorize_message = authorize_message;
  iface->message_answered = message_answered;
}

McpAuthProvider *
mcp_doctor_auth_new (McpAuthProvider *inner)
{
  McpDoctorAuth *self = g_object_new (MCP_TYPE_DOCTOR_AUTH, NULL);

  self->inner = g_object_ref (inner);
  return MCP_AUTH_PROVIDER (self);
}
