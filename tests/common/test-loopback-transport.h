/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-transport.h"

G_BEGIN_DECLS

/* A loopback McpTransport for the tests whose "server" is the test itself:
 * every message the client sends is kept in @sent (McpMessage, in order),
 * and the test makes the server speak with mcp_transport_emit_message().
 * Connecting always succeeds; closing records @closed_by_owner and emits
 * closed. @stateless: whether it carries the stateless revision, so that a
 * client sends server/discover first (FALSE: initialize at once). */

#define TEST_TYPE_LOOPBACK_TRANSPORT (test_loopback_transport_get_type ())
G_DECLARE_FINAL_TYPE (TestLoopbackTransport, test_loopback_transport, TEST, LOOPBACK_TRANSPORT,
                      McpTransport)

struct _TestLoopbackTransport
{
  McpTransport  parent_instance;
  GPtrArray    *sent;
  gboolean      stateless;
  gboolean      closed_by_owner;
};

TestLoopbackTransport *test_loopback_transport_new (gboolean stateless);

/* Whether the client sent a request from @sent[@from] on. */
gboolean test_loopback_transport_request_sent (TestLoopbackTransport *self,
                                              guint                  from);

G_END_DECLS
