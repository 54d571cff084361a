/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-server-list"

#include "config.h"

#include "mcp-server-list.h"

/* The "servers" model: the manager's connections, then the shadowed
 * configs, read through from both models (no copy). Each part's
 * items-changed is passed on at that part's offset; the manager announces
 * only the range that really differs, so rows (and the selection) of
 * unchanged servers stay. */
struct _McpServerList
{
  GObject     parent_instance;
  GListModel *first;
  GListModel *second;
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
  McpServerList *self = (McpServerList *) model;

  return g_list_model_get_n_items (self->first) + g_list_model_get_n_items (self->second);
}

static gpointer
mcp_server_list_get_item (GListModel *model,
                          guint       position)
{
  McpServerList *self = (McpServerList *) model;
  guint n_first = g_list_model_get_n_items (self->first);

  if (position < n_first)
    return g_list_model_get_item (self->first, position);

  return g_list_model_get_item (self->second, position - n_first);
}

static void
mcp_server_list_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = mcp_server_list_get_item_type;
  iface->get_n_items = mcp_server_list_get_n_items;
  iface->get_item = mcp_server_list_get_item;
}

static void
on_first_items_changed_cb (McpServerList *self,
                           guint          position,
                           guint          removed,
                           guint          added)
{
  g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
}

static void
on_second_items_changed_cb (McpServerList *self,
                            guint          position,
                            guint          removed,
                            guint          added)
{
  g_list_model_items_changed (G_LIST_MODEL (self),
                              g_list_model_get_n_items (self->first) + position,
                              removed, added);
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
mcp_server_list_class_init (McpServerListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = mcp_server_list_dispose;
}

static void
mcp_server_list_init (McpServerList *self)
{
}

McpServerList *
mcp_server_list_new (GListModel *first,
                     GListModel *second)
{
  McpServerList *self = g_object_new (MCP_TYPE_SERVER_LIST, NULL);

  self->first = g_object_ref (first);
  self->second = g_object_ref (second);
  g_signal_connect_swapped (first, "items-changed", G_CALLBACK (on_first_items_changed_cb), self);
  g_signal_connect_swapped (second, "items-changed", G_CALLBACK (on_second_items_changed_cb), self);

  return self;
}
