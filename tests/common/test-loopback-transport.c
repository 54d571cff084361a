/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include "test-loopback-transport.h"

G_DEFINE_FINAL_TYPE (TestLoopbackTransport, test_loopback_transport, MCP_TYPE_TRANSPORT)

static void
test_loopback_transport_connect_async (McpTransport        *transport,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (transport, cancellable, callback, user_data);

  mcp_transport_set_connected (transport);
  g_task_return_boolean (task, TRUE);
}

static gboolean
test_loopback_transport_connect_finish (McpTransport  *transport,
                                        GAsyncResult  *result,
                                        GError       **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

static gboolean
test_loopback_transport_send (McpTransport  *transport,
                              McpMessage    *message,
                              GError       **error)
{
  g_ptr_array_add (TEST_LOOPBACK_TRANSPORT (transport)->sent, g_object_ref (message));
  return TRUE;
}

static void
test_loopback_transport_close_async (McpTransport        *transport,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (transport, cancellable, callback, user_data);

  TEST_LOOPBACK_TRANSPORT (transport)->closed_by_owner = TRUE;
  mcp_transport_emit_closed (transport, NULL);
  g_task_return_boolean (task, TRUE);
}

static gboolean
test_loopback_transport_close_finish (McpTransport  *transport,
                                      GAsyncResult  *result,
                                      GError       **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

static char *
test_loopback_transport_describe (McpTransport *transport)
{
  return g_strdup ("test://loopback");
}

static gboolean
test_loopback_transport_supports_stateless (McpTransport *transport)
{
  return TEST_LOOPBACK_TRANSPORT (transport)->stateless;
}

static void
test_loopback_transport_finalize (GObject *object)
{
  g_ptr_array_unref (TEST_LOOPBACK_TRANSPORT (object)->sent);
  G_OBJECT_CLASS (test_loopback_transport_parent_class)->finalize (object);
}

static void
test_loopback_transport_class_init (TestLoopbackTransportClass *klass)
{
  McpTransportClass *transport_class = MCP_TRANSPORT_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = test_loopback_transport_finalize;
  transport_class->connect_async = test_loopback_transport_connect_async;
  transport_class->connect_finish = test_loopback_transport_connect_finish;
  transport_class->send = test_loopback_transport_send;
  transport_class->close_async = test_loopback_transport_close_async;
  transport_class->close_finish = test_loopback_transport_close_finish;
  transport_class->describe = test_loopback_transport_describe;
  transport_class->supports_stateless = test_loopback_transport_supports_stateless;
}

static void
test_loopback_transport_init (TestLoopbackTransport *self)
{
  self->sent = g_ptr_array_new_with_free_func (g_object_unref);
}

TestLoopbackTransport *
test_loopback_transport_new (gboolean stateless)
{
  TestLoopbackTransport *self = g_object_new (TEST_TYPE_LOOPBACK_TRANSPORT, NULL);

  self->stateless = stateless;
  return self;
}

gboolean
test_loopback_transport_request_sent (TestLoopbackTransport *self,
                                      guint                  from)
{
  for (guint i = from; i < self->sent->len; i++)
    if (mcp_message_get_kind (g_ptr_array_index (self->sent, i)) == MCP_MESSAGE_REQUEST)
      return TRUE;
  return FALSE;
}
