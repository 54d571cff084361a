/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-server-list"

#include "config.h"

#include "mcp-server-list.h"

/* The "servers" model: the manager's connections, then the shadowed
 * configs. The manager replaces its whole list on every set_configs(), so
 * the model keeps the items it last showed and announces only the range
 * that really differs: rows (and the selection) of unchanged servers stay. */
struct _McpServerList
{
  GObject     parent_instance;
  GListModel *first;
  GListModel *second;
  GPtrArray  *items;
};

static void mcp_server_list_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (McpServerList, mcp_server_list, G_TYPE_OBJECT,
                         G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, mcp_server_list_iface_init))

static GType
mcp_server_list_get_item_type (GListModel *model)
{
  return G_TYPE_OBJECT;
}

static guint
mcp_server_list_get_n_items (GListModel *model)
{
  return ((McpServerList *) model)->items->len;
}

static gpointer
mcp_server_list_get_item (GListModel *model,
                          guint       position)
{
  McpServerList *self = (McpServerList *) model;

  if (position >= self->items->len)
    return NULL;

  return g_object_ref (g_ptr_array_index (self->items, position));
}

static void
mcp_server_list_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = mcp_server_list_get_item_type;
  iface->get_n_items = mcp_server_list_get_n_items;
  iface->get_item = mcp_server_list_get_item;
}

static void
append_items (GPtrArray  *items,
              GListModel *model)
{
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (items, g_list_model_get_item (model, i));
}

static void
mcp_server_list_sync (McpServerList *self)
{
  g_autoptr(GPtrArray) fresh = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) old = NULL;
  guint prefix = 0;
  guint suffix = 0;

  append_items (fresh, self->first);
  append_items (fresh, self->second);

  while (prefix < fresh->len && prefix < self->items->len &&
         g_ptr_array_index (fresh, prefix) == g_ptr_array_index (self->items, prefix))
    prefix++;

  while (suffix < fresh->len - prefix && suffix < self->items->len - prefix &&
         g_ptr_array_index (fresh, fresh->len - 1 - suffix) ==
         g_ptr_array_index (self->items, self->items->len - 1 - suffix))
    suffix++;

  old = g_steal_pointer (&self->items);
  self->items = g_steal_pointer (&fresh);

  if (prefix == old->len && prefix == self->items->len)
    return;

  g_list_model_items_changed (G_LIST_MODEL (self), prefix,
                              old->len - prefix - suffix,
                              self->items->len - prefix - suffix);
}

static void
on_part_items_changed_cb (McpServerList *self)
{
  mcp_server_list_sync (self);
}

static void
mcp_server_list_dispose (GObject *object)
{
  McpServerList *self = (McpServerList *) object;

  if (self->first != NULL)
    g_signal_handlers_disconnect_by_data (self->first, self);
  if (self->second != NULL)
    g_signal_handlers_disconnect_by_data (self->second, self);
  g_clear_object (&self->first);
  g_clear_object (&self->second);

  G_OBJECT_CLASS (mcp_server_list_parent_class)->dispose (object);
}

static void
mcp_server_list_finalize (GObject *object)
{
  McpServerList *self = (McpServerList *) object;

  g_clear_pointer (&self->items, g_ptr_array_unref);

  G_OBJECT_CLASS (mcp_server_list_parent_class)->finalize (object);
}

static void
mcp_server_list_class_init (McpServerListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = mcp_server_list_dispose;
  object_class->finalize = mcp_server_list_finalize;
}

static void
mcp_server_list_init (McpServerList *self)
{
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
}

McpServerList *
mcp_server_list_new (GListModel *first,
                     GListModel *second)
{
  McpServerList *self = g_object_new (MCP_TYPE_SERVER_LIST, NULL);

  self->first = g_object_ref (first);
  self->second = g_object_ref (second);
  g_signal_connect_swapped (first, "items-changed", G_CALLBACK (on_part_items_changed_cb), self);
  g_signal_connect_swapped (second, "items-changed", G_CALLBACK (on_part_items_changed_cb), self);
  mcp_server_list_sync (self);

  return self;
}
