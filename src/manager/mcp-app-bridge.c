/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-app-bridge"

#include "config.h"

#include "mcp-app-bridge.h"

/* STUB: the contract; the parts are being written. */

struct _McpAppBridge
{
  GObject parent_instance;
};

G_DEFINE_FINAL_TYPE (McpAppBridge, mcp_app_bridge, G_TYPE_OBJECT)

static void
mcp_app_bridge_class_init (McpAppBridgeClass *klass)
{
}

static void
mcp_app_bridge_init (McpAppBridge *self)
{
}
