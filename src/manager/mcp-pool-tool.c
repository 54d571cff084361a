/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-pool-tool"

#include "config.h"

#include "mcp-pool-tool.h"
#include "mcp-pool-tool-private.h"

#include <glib/gi18n.h>

#include "mcp-tool-pool.h"

/* One entry of McpToolPool: a tool with its server, its name in the pool
 * (which the pool sets) and its description cut to
 * MCP_TOOL_POOL_MAX_DESCRIPTION characters. */

struct _McpPoolTool
{
  GObject   parent_instance;

  GObject  *connection;
  McpTool  *tool;
  char     *server_name;
  char     *base_name;
  char     *qualified_name;
  char     *description;
};

G_DEFINE_FINAL_TYPE (McpPoolTool, mcp_pool_tool, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_CONNECTION,
  PROP_SERVER_NAME,
  PROP_TOOL,
  PROP_QUALIFIED_NAME,
  PROP_DISPLAY_NAME,
  PROP_DESCRIPTION,
  PROP_READ_ONLY,
  PROP_DESTRUCTIVE,
  PROP_OPEN_WORLD,
  PROP_IDEMPOTENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static char *
cut_description (const char *text)
{
  glong length;
  glong cut;
  const char *end;
  g_autofree char *note = NULL;

  if (text == NULL)
    return NULL;

  length = g_utf8_strlen (text, -1);
  if (length <= MCP_TOOL_POOL_MAX_DESCRIPTION)
    return g_strdup (text);

  end = g_utf8_offset_to_pointer (text, MCP_TOOL_POOL_MAX_DESCRIPTION);
  cut = length - MCP_TOOL_POOL_MAX_DESCRIPTION;
  /* Translators: ends a tool description that was too long; %ld is how many characters were cut */
  note = g_strdup_printf (g_dngettext (NULL, "… [cut: %ld more character]", "… [cut: %ld more characters]",
                                       (gulong) cut),
                          cut);
  return g_strdup_printf ("%.*s%s", (int) (end - text), text, note);
}

McpPoolTool *
mcp_pool_tool_new (GObject    *connection,
                   const char *server_name,
                   McpTool    *tool)
{
  McpPoolTool *self = g_object_new (MCP_TYPE_POOL_TOOL, NULL);

  self->connection = g_object_ref (connection);
  self->server_name = g_strdup (server_name);
  self->tool = g_object_ref (tool);
  self->base_name = mcp_tool_pool_make_name (server_name, mcp_tool_get_name (tool));
  self->qualified_name = g_strdup (self->base_name);
  self->description = cut_description (mcp_tool_get_description (tool));

  return self;
}

void
mcp_pool_tool_set_qualified_name (McpPoolTool *self,
                                  const char  *name)
{
  if (g_strcmp0 (self->qualified_name, name) == 0)
    return;

  g_free (self->qualified_name);
  self->qualified_name = g_strdup (name);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_QUALIFIED_NAME]);
}

static void
mcp_pool_tool_finalize (GObject *object)
{
  McpPoolTool *self = (McpPoolTool *) object;

  g_clear_object (&self->connection);
  g_clear_object (&self->tool);
  g_clear_pointer (&self->server_name, g_free);
  g_clear_pointer (&self->base_name, g_free);
  g_clear_pointer (&self->qualified_name, g_free);
  g_clear_pointer (&self->description, g_free);

  G_OBJECT_CLASS (mcp_pool_tool_parent_class)->finalize (object);
}

static void
mcp_pool_tool_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  McpPoolTool *self = MCP_POOL_TOOL (object);

  switch (prop_id)
    {
    case PROP_CONNECTION:
      g_value_set_object (value, self->connection);
      break;
    case PROP_SERVER_NAME:
      g_value_set_string (value, self->server_name);
      break;
    case PROP_TOOL:
      g_value_set_object (value, self->tool);
      break;
    case PROP_QUALIFIED_NAME:
      g_value_set_string (value, self->qualified_name);
      break;
    case PROP_DISPLAY_NAME:
      g_value_set_string (value, mcp_pool_tool_get_display_name (self));
      break;
    case PROP_DESCRIPTION:
      g_value_set_string (value, self->description);
      break;
    case PROP_READ_ONLY:
      g_value_set_boolean (value, mcp_pool_tool_get_read_only (self));
      break;
    case PROP_DESTRUCTIVE:
      g_value_set_boolean (value, mcp_pool_tool_get_destructive (self));
      break;
    case PROP_OPEN_WORLD:
      g_value_set_boolean (value, mcp_pool_tool_get_open_world (self));
      break;
    case PROP_IDEMPOTENT:
      g_value_set_boolean (value, mcp_pool_tool_get_idempotent (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_pool_tool_class_init (McpPoolToolClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = mcp_pool_tool_finalize;
  object_class->get_property = mcp_pool_tool_get_property;

  properties[PROP_CONNECTION] =
    g_param_spec_object ("connection", NULL, NULL, G_TYPE_OBJECT, flags);
  properties[PROP_SERVER_NAME] =
    g_param_spec_string ("server-name", NULL, NULL, NULL, flags);
  properties[PROP_TOOL] =
    g_param_spec_object ("tool", NULL, NULL, MCP_TYPE_TOOL, flags);
  properties[PROP_QUALIFIED_NAME] =
    g_param_spec_string ("qualified-name", NULL, NULL, NULL, flags);
  properties[PROP_DISPLAY_NAME] =
    g_param_spec_string ("display-name", NULL, NULL, NULL, flags);
  properties[PROP_DESCRIPTION] =
    g_param_spec_string ("description", NULL, NULL, NULL, flags);
  properties[PROP_READ_ONLY] =
    g_param_spec_boolean ("read-only", NULL, NULL, FALSE, flags);
  properties[PROP_DESTRUCTIVE] =
    g_param_spec_boolean ("destructive", NULL, NULL, TRUE, flags);
  properties[PROP_OPEN_WORLD] =
    g_param_spec_boolean ("open-world", NULL, NULL, TRUE, flags);
  properties[PROP_IDEMPOTENT] =
    g_param_spec_boolean ("idempotent", NULL, NULL, FALSE, flags);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mcp_pool_tool_init (McpPoolTool *self)
{
}

McpServerConnection *
mcp_pool_tool_get_connection (McpPoolTool *self)
{
  g_return_val_if_fail (MCP_IS_POOL_TOOL (self), NULL);

  /* Not checked with MCP_SERVER_CONNECTION(): the pool accepts any object
   * with the same "name" and "tools" properties. */
  return (McpServerConnection *) self->connection;
}

const char *
mcp_pool_tool_get_server_name (McpPoolTool *self)
{
  g_return_val_if_fail (MCP_IS_POOL_TOOL (self), NULL);
  return self->server_name;
}

McpTool *
mcp_pool_tool_get_tool (McpPoolTool *self)
{
  g_return_val_if_fail (MCP_IS_POOL_TOOL (self), NULL);
  return self->tool;
}

const char *
mcp_pool_tool_get_qualified_name (McpPoolTool *self)
{
  g_return_val_if_fail (MCP_IS_POOL_TOOL (self), NULL);
  return self->qualified_name;
}

const char *
mcp_pool_tool_get_display_name (McpPoolTool *self)
{
  g_return_val_if_fail (MCP_IS_POOL_TOOL (self), NULL);
  return mcp_tool_get_display_name (self->tool);
}

const char *
mcp_pool_tool_get_description (McpPoolTool *self)
{
  g_return_val_if_fail (MCP_IS_POOL_TOOL (self), NULL);
  return self->description;
}

const char *
mcp_pool_tool_get_full_description (McpPoolTool *self)
{
  g_return_val_if_fail (MCP_IS_POOL_TOOL (self), NULL);
  return mcp_tool_get_description (self->tool);
}

gboolean
mcp_pool_tool_get_description_cut (McpPoolTool *self)
{
  g_return_val_if_fail (MCP_IS_POOL_TOOL (self), FALSE);
  return g_strcmp0 (self->description, mcp_tool_get_description (self->tool)) != 0;
}

gboolean
mcp_pool_tool_get_read_only (McpPoolTool *self)
{
  g_return_val_if_fail (MCP_IS_POOL_TOOL (self), FALSE);
  return mcp_tool_get_read_only_hint (self->tool);
}

gboolean
mcp_pool_tool_get_destructive (McpPoolTool *self)
{
  g_return_val_if_fail (MCP_IS_POOL_TOOL (self), TRUE);
  /* destructiveHint is meaningful only when readOnlyHint is false. */
  return !mcp_tool_get_read_only_hint (self->tool) && mcp_tool_get_destructive_hint (self->tool);
}

gboolean
mcp_pool_tool_get_open_world (McpPoolTool *self)
{
  g_return_val_if_fail (MCP_IS_POOL_TOOL (self), TRUE);
  return mcp_tool_get_open_world_hint (self->tool);
}

gboolean
mcp_pool_tool_get_idempotent (McpPoolTool *self)
{
  g_return_val_if_fail (MCP_IS_POOL_TOOL (self), FALSE);
  return mcp_tool_get_read_only_hint (self->tool) || mcp_tool_get_idempotent_hint (self->tool);
}

const char *
mcp_pool_tool_get_base_name (McpPoolTool *self)
{
  return self->base_name;
}
