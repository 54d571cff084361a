/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-ui-resource"

#include "config.h"

#include "mcp-ui-resource.h"

/* STUB: the contract; the parts are being written. */

struct _McpUiResource
{
  GObject parent_instance;
};

G_DEFINE_FINAL_TYPE (McpUiResource, mcp_ui_resource, G_TYPE_OBJECT)

static void
mcp_ui_resource_class_init (McpUiResourceClass *klass)
{
}

static void
mcp_ui_resource_init (McpUiResource *self)
{
}
