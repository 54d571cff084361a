/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-traffic-view"

#include "config.h"

#include "plugboard-traffic-batch.h"

struct _PlugboardTrafficBatch
{
  GObject     parent_instance;

  GtkWidget  *widget;     /* weak: whose frame clock paces the news */
  GListModel *model;
  guint       n_items;    /* told of: the model's first n_items */
  guint       tick_id;
  /* Entries told of that changed since (a request got its response):
   * from first to last, told of at the next frame too. */
  gboolean    updated;
  guint       first_updated;
  guint       last_updated;
};

static GType
get_item_type (GListModel *list)
{
  return G_TYPE_OBJECT;
}

static guint
get_n_items (GListModel *list)
{
  return PLUGBOARD_TRAFFIC_BATCH (list)->n_items;
}

static gpointer
get_item (GListModel *list,
          guint       position)
{
  PlugboardTrafficBatch *self = PLUGBOARD_TRAFFIC_BATCH (list);

  if (position >= self->n_items || self->model == NULL)
    return NULL;
  return g_list_model_get_item (self->model, position);
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (PlugboardTrafficBatch, plugboard_traffic_batch, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static gboolean tick_cb (GtkWidget     *widget,
                         GdkFrameClock *clock,
                         gpointer       user_data);

void
plugboard_traffic_batch_flush (PlugboardTrafficBatch *self)
{
  guint n;
  guint added;

  g_return_if_fail (PLUGBOARD_IS_TRAFFIC_BATCH (self));

  if (self->tick_id != 0 && self->widget != NULL)
    gtk_widget_remove_tick_callback (self->widget, self->tick_id);
  self->tick_id = 0;

  if (self->updated)
    {
      guint count = self->last_updated - self->first_updated + 1;

      self->updated = FALSE;
      g_list_model_items_changed (G_LIST_MODEL (self), self->first_updated, count, count);
    }

  n = self->model != NULL ? g_list_model_get_n_items (self->model) : 0;
  if (n <= self->n_items)
    return;
  added = n - self->n_items;
  self->n_items = n;
  g_list_model_items_changed (G_LIST_MODEL (self), n - added, 0, added);
}

static void
schedule (PlugboardTrafficBatch *self)
{
  if (self->widget != NULL && gtk_widget_get_mapped (self->widget))
    {
      if (self->tick_id == 0)
        self->tick_id = gtk_widget_add_tick_callback (self->widget, tick_cb, self, NULL);
    }
  else
    plugboard_traffic_batch_flush (self);
}

static gboolean
tick_cb (GtkWidget     *widget,
         GdkFrameClock *clock,
         gpointer       user_data)
{
  PlugboardTrafficBatch *self = user_data;

  self->tick_id = 0;
  plugboard_traffic_batch_flush (self);
  return G_SOURCE_REMOVE;
}

static void
on_items_changed_cb (PlugboardTrafficBatch *self,
                     guint                  position,
                     guint                  removed,
                     guint                  added,
                     GListModel            *model)
{
  guint n = g_list_model_get_n_items (model);

  /* Within what is not told of yet: the next frame tells of it. */
  if (position >= self->n_items)
    {
      schedule (self);
      return;
    }

  /* An entry told of changed in place: at the next frame, with the others
   * that change meanwhile. */
  if (removed == added && position + removed <= self->n_items)
    {
      guint last = position + removed - 1;

      if (removed == 0)
        return;
      if (!self->updated)
        {
          self->updated = TRUE;
          self->first_updated = position;
          self->last_updated = last;
        }
      self->first_updated = MIN (self->first_updated, position);
      self->last_updated = MAX (self->last_updated, last);
      schedule (self);
      return;
    }

  /* Within what was told of (the oldest dropped): now, and what waits to
   * be told of as changed moved with it. */
  if (position + removed <= self->n_items)
    {
      if (self->updated)
        {
          if (position == 0 && added == 0 && self->last_updated >= removed)
            {
              self->first_updated = self->first_updated >= removed ? self->first_updated - removed : 0;
              self->last_updated -= removed;
            }
          else if (position == 0 && added == 0)
            self->updated = FALSE;
          else
            {
              /* Anywhere else: tell of the changes first, then this. */
              guint count = self->last_updated - self->first_updated + 1;

              self->updated = FALSE;
              g_list_model_items_changed (G_LIST_MODEL (self), self->first_updated, count, count);
            }
        }
      self->n_items = self->n_items - removed + added;
      g_list_model_items_changed (G_LIST_MODEL (self), position, removed, added);
      return;
    }

  /* Across both: everything from @position on, at once (with what
   * changed before it). */
  {
    guint old;

    if (self->updated && self->first_updated < position)
      {
        guint last = MIN (self->last_updated, position - 1);
        guint count = last - self->first_updated + 1;

        g_list_model_items_changed (G_LIST_MODEL (self), self->first_updated, count, count);
      }
    self->updated = FALSE;
    old = self->n_items;

    if (self->tick_id != 0 && self->widget != NULL)
      gtk_widget_remove_tick_callback (self->widget, self->tick_id);
    self->tick_id = 0;
    self->n_items = n;
    g_list_model_items_changed (G_LIST_MODEL (self), position, old - position, n - position);
  }
}

void
plugboard_traffic_batch_set_model (PlugboardTrafficBatch *self,
                                   GListModel            *model)
{
  guint old;

  g_return_if_fail (PLUGBOARD_IS_TRAFFIC_BATCH (self));
  g_return_if_fail (model == NULL || G_IS_LIST_MODEL (model));

  if (self->model == model)
    return;

  if (self->tick_id != 0 && self->widget != NULL)
    gtk_widget_remove_tick_callback (self->widget, self->tick_id);
  self->tick_id = 0;
  if (self->model != NULL)
    g_signal_handlers_disconnect_by_data (self->model, self);

  self->updated = FALSE;
  old = self->n_items;
  g_set_object (&self->model, model);
  self->n_items = model != NULL ? g_list_model_get_n_items (model) : 0;
  if (model != NULL)
    g_signal_connect_object (model, "items-changed", G_CALLBACK (on_items_changed_cb), self, G_CONNECT_SWAPPED);

  if (old > 0 || self->n_items > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, old, self->n_items);
}

static void
plugboard_traffic_batch_dispose (GObject *object)
{
  PlugboardTrafficBatch *self = PLUGBOARD_TRAFFIC_BATCH (object);

  if (self->tick_id != 0 && self->widget != NULL)
    gtk_widget_remove_tick_callback (self->widget, self->tick_id);
  self->tick_id = 0;
  if (self->model != NULL)
    g_signal_handlers_disconnect_by_data (self->model, self);
  g_clear_object (&self->model);
  g_clear_weak_pointer (&self->widget);

  G_OBJECT_CLASS (plugboard_traffic_batch_parent_class)->dispose (object);
}

static void
plugboard_traffic_batch_class_init (PlugboardTrafficBatchClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = plugboard_traffic_batch_dispose;
}

static void
plugboard_traffic_batch_init (PlugboardTrafficBatch *self)
{
}

PlugboardTrafficBatch *
plugboard_traffic_batch_new (GtkWidget *widget)
{
  PlugboardTrafficBatch *self;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);

  self = g_object_new (PLUGBOARD_TYPE_TRAFFIC_BATCH, NULL);
  g_set_weak_pointer (&self->widget, widget);
  return self;
}
