/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-auth-provider"

#include "config.h"

#include "test-auth-provider.h"

static void test_auth_provider_iface_init (McpAuthProviderInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestAuthProvider, test_auth_provider, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (MCP_TYPE_AUTH_PROVIDER,
                                                      test_auth_provider_iface_init))

static char *
test_auth_provider_get_authorization (McpAuthProvider *provider)
{
  return g_strdup (TEST_AUTH_PROVIDER (provider)->token);
}

static void
test_auth_provider_handle_challenge_async (McpAuthProvider     *provider,
                                           guint                status,
                                           const char          *www_authenticate,
                                           GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data)
{
  TestAuthProvider *self = TEST_AUTH_PROVIDER (provider);
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (task, test_auth_provider_handle_challenge_async);
  self->challenges++;
  if (self->answered_challenges < self->challenges)
    self->unnoted_challenges++;
  self->last_status = status;
  g_free (self->challenge);
  self->challenge = g_strdup (www_authenticate);
  if (self->answer)
    {
      g_free (self->token);
      self->token = g_strdup ("Bearer good");
    }
  g_task_return_boolean (task, self->answer);
}

static gboolean
test_auth_provider_handle_challenge_finish (McpAuthProvider  *provider,
                                            GAsyncResult     *result,
                                            GError          **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
test_auth_provider_message_answered (McpAuthProvider *provider,
                                     SoupMessage     *message)
{
  TestAuthProvider *self = TEST_AUTH_PROVIDER (provider);
  guint status = soup_message_get_status (message);

  self->answered++;
  if (status == SOUP_STATUS_UNAUTHORIZED || status == SOUP_STATUS_FORBIDDEN)
    self->answered_challenges++;
}

static void
test_auth_provider_iface_init (McpAuthProviderInterface *iface)
{
  iface->message_answered = test_auth_provider_message_answered;
  iface->get_authorization = test_auth_provider_get_authorization;
  iface->handle_challenge_async = test_auth_provider_handle_challenge_async;
  iface->handle_challenge_finish = test_auth_provider_handle_challenge_finish;
}

static void
test_auth_provider_finalize (GObject *object)
{
  TestAuthProvider *self = TEST_AUTH_PROVIDER (object);

  g_free (self->token);
  g_free (self->challenge);
  G_OBJECT_CLASS (test_auth_provider_parent_class)->finalize (object);
}

static void
test_auth_provider_class_init (TestAuthProviderClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_auth_provider_finalize;
}

static void
test_auth_provider_init (TestAuthProvider *self)
{
}

TestAuthProvider *
test_auth_provider_new (const char *token)
{
  TestAuthProvider *self = g_object_new (TEST_TYPE_AUTH_PROVIDER, NULL);

  self->token = g_strdup (token);
  return self;
}
