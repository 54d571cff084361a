/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-tool-pool"

#include "config.h"

#include "mcp-tool-pool.h"
#include "mcp-tool-pool-private.h"

#include "mcp-pool-tool-private.h"

#include <string.h>

#include <glib/gi18n.h>

/* The pool: the object, one GListModel of McpPoolTool over the servers
 * (followed in mcp-tool-pool-servers.c), the qualified names and their
 * collisions, and the names themselves (mcp__server__tool). */

static char *
sanitize (const char *text)
{
  GString *out = g_string_sized_new (strlen (text));

  for (const char *p = text; *p != '\0'; p++)
    {
      if (g_ascii_isalnum (*p) || *p == '_' || *p == '-')
        g_string_append_c (out, *p);
      else if ((guchar) *p < 0x80 || ((guchar) *p & 0xC0) == 0xC0)
        g_string_append_c (out, '_');  /* one `_` per character, not per byte */
    }

  return g_string_free (out, FALSE);
}

char *
mcp_tool_pool_make_server_rule (const char *server)
{
  g_autofree char *joined = NULL;

  g_return_val_if_fail (server != NULL, NULL);

  joined = g_strconcat ("mcp__", server, NULL);
  return sanitize (joined);
}

char *
mcp_tool_pool_make_name (const char *server,
                         const char *tool)
{
  g_autofree char *joined = NULL;

  g_return_val_if_fail (server != NULL, NULL);
  g_return_val_if_fail (tool != NULL, NULL);

  joined = g_strconcat ("mcp__", server, "__", tool, NULL);
  return sanitize (joined);
}

static void mcp_tool_pool_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (McpToolPool, mcp_tool_pool, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      mcp_tool_pool_list_model_init))

enum {
  PROP_0,
  PROP_CONNECTIONS,
  PROP_COLLISIONS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Gives every entry its name again, in pool order, so collisions are
 * resolved the same way whatever order the changes came in. */
void
mcp_tool_pool_rename (McpToolPool *self)
{
  g_autoptr(GHashTable) owners = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) messages = g_ptr_array_new_with_free_func (g_free);
  gboolean same;

  g_hash_table_remove_all (self->by_name);

  /* Two passes: entries whose own name is free keep it, even when an
   * earlier entry's suffix would have taken it. */
  for (guint i = 0; i < self->servers->len; i++)
    {
      Server *server = g_ptr_array_index (self->servers, i);

      for (guint j = 0; j < server->items->len; j++)
        {
          McpPoolTool *tool = g_ptr_array_index (server->items, j);
          const char *base_name = mcp_pool_tool_get_base_name (tool);

          if (!g_hash_table_contains (owners, base_name))
            g_hash_table_insert (owners, (gpointer) base_name, tool);
        }
    }

  for (guint i = 0; i < self->servers->len; i++)
    {
      Server *server = g_ptr_array_index (self->servers, i);

      for (guint j = 0; j < server->items->len; j++)
        {
          McpPoolTool *tool = g_ptr_array_index (server->items, j);
          const char *base_name = mcp_pool_tool_get_base_name (tool);
          McpPoolTool *owner;
          g_autofree char *name = NULL;

          if (g_hash_table_lookup (owners, base_name) == tool)
            {
              mcp_pool_tool_set_qualified_name (tool, base_name);
              g_hash_table_insert (self->by_name,
                                   (gpointer) mcp_pool_tool_get_qualified_name (tool), tool);
              continue;
            }

          owner = g_hash_table_lookup (owners, base_name);
          for (guint n = 2; name == NULL || g_hash_table_contains (self->by_name, name)
                            || (g_hash_table_contains (owners, name)); n++)
            {
              g_free (name);
              name = g_strdup_printf ("%s_%u", base_name, n);
            }

          mcp_pool_tool_set_qualified_name (tool, name);
          g_hash_table_insert (self->by_name,
                               (gpointer) mcp_pool_tool_get_qualified_name (tool), tool);
          g_ptr_array_add (messages,
                           /* Translators: tool, server, tool, server, then twice a tool's name in the pool (mcp__server__tool) */
                           g_strdup_printf (_("Tool “%s” of server “%s” and tool “%s” of server “%s” "
                                              "both make the name %s; the second is named %s"),
                                            mcp_tool_get_name (mcp_pool_tool_get_tool (owner)),
                                            mcp_pool_tool_get_server_name (owner),
                                            mcp_tool_get_name (mcp_pool_tool_get_tool (tool)),
                                            mcp_pool_tool_get_server_name (tool),
                                            base_name, mcp_pool_tool_get_qualified_name (tool)));
        }
    }

  g_ptr_array_add (messages, NULL);

  same = g_strv_length (self->collisions) == messages->len - 1;
  for (guint i = 0; same && i + 1 < messages->len; i++)
    same = g_str_equal (self->collisions[i], g_ptr_array_index (messages, i));

  if (!same)
    {
      g_strfreev (self->collisions);
      self->collisions = (GStrv) g_ptr_array_steal (messages, NULL);
      for (guint i = 0; self->collisions[i] != NULL; i++)
        g_debug ("%s", self->collisions[i]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLLISIONS]);
    }
}

static GType
mcp_tool_pool_get_item_type (GListModel *model)
{
  return MCP_TYPE_POOL_TOOL;
}

static guint
mcp_tool_pool_get_n_items (GListModel *model)
{
  McpToolPool *self = MCP_TOOL_POOL (model);
  guint n = 0;

  for (guint i = 0; i < self->servers->len; i++)
    n += ((Server *) g_ptr_array_index (self->servers, i))->items->len;

  return n;
}

static gpointer
mcp_tool_pool_get_item (GListModel *model,
                        guint       position)
{
  McpToolPool *self = MCP_TOOL_POOL (model);

  for (guint i = 0; i < self->servers->len; i++)
    {
      Server *server = g_ptr_array_index (self->servers, i);

      if (position < server->items->len)
        return g_object_ref (g_ptr_array_index (server->items, position));
      position -= server->items->len;
    }

  return NULL;
}

static void
mcp_tool_pool_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = mcp_tool_pool_get_item_type;
  iface->get_n_items = mcp_tool_pool_get_n_items;
  iface->get_item = mcp_tool_pool_get_item;
}

static void
mcp_tool_pool_dispose (GObject *object)
{
  McpToolPool *self = (McpToolPool *) object;

  if (self->connections != NULL)
    g_clear_signal_handler (&self->connections_changed_id, self->connections);
  if (self->servers != NULL)
    g_ptr_array_set_size (self->servers, 0);
  if (self->by_name != NULL)
    g_hash_table_remove_all (self->by_name);
  g_clear_object (&self->connections);

  G_OBJECT_CLASS (mcp_tool_pool_parent_class)->dispose (object);
}

static void
mcp_tool_pool_finalize (GObject *object)
{
  McpToolPool *self = (McpToolPool *) object;

  g_clear_pointer (&self->servers, g_ptr_array_unref);
  g_clear_pointer (&self->by_name, g_hash_table_unref);
  g_clear_pointer (&self->collisions, g_strfreev);

  G_OBJECT_CLASS (mcp_tool_pool_parent_class)->finalize (object);
}

static void
mcp_tool_pool_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  McpToolPool *self = MCP_TOOL_POOL (object);

  switch (prop_id)
    {
    case PROP_CONNECTIONS:
      g_value_set_object (value, self->connections);
      break;
    case PROP_COLLISIONS:
      g_value_set_boxed (value, self->collisions);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_tool_pool_class_init (McpToolPoolClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = mcp_tool_pool_dispose;
  object_class->finalize = mcp_tool_pool_finalize;
  object_class->get_property = mcp_tool_pool_get_property;

  properties[PROP_CONNECTIONS] =
    g_param_spec_object ("connections", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_COLLISIONS] =
    g_param_spec_boxed ("collisions", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mcp_tool_pool_init (McpToolPool *self)
{
  self->servers = g_ptr_array_new_with_free_func (mcp_tool_pool_server_free);
  self->by_name = g_hash_table_new (g_str_hash, g_str_equal);
  self->collisions = g_new0 (char *, 1);
}

McpToolPool *
mcp_tool_pool_new (GListModel *connections)
{
  McpToolPool *self;

  g_return_val_if_fail (G_IS_LIST_MODEL (connections), NULL);

  self = g_object_new (MCP_TYPE_TOOL_POOL, NULL);
  mcp_tool_pool_follow (self, connections);

  return self;
}

McpPoolTool *
mcp_tool_pool_lookup (McpToolPool *self,
                      const char  *qualified_name)
{
  g_return_val_if_fail (MCP_IS_TOOL_POOL (self), NULL);
  g_return_val_if_fail (qualified_name != NULL, NULL);

  return g_hash_table_lookup (self->by_name, qualified_name);
}

const char * const *
mcp_tool_pool_get_collisions (McpToolPool *self)
{
  g_return_val_if_fail (MCP_IS_TOOL_POOL (self), NULL);
  return (const char * const *) self->collisions;
}
