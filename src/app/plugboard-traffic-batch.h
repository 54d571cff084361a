/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_TRAFFIC_BATCH (plugboard_traffic_batch_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardTrafficBatch, plugboard_traffic_batch, PLUGBOARD, TRAFFIC_BATCH, GObject)

/**
 * PlugboardTrafficBatch:
 *
 * A GListModel that shows the items of another (a trace) as they are, but
 * tells of items appended at its end once a frame of @widget rather than
 * once each: a server sending a thousand messages a second costs the list
 * above it one change a frame, not seventeen. Other changes (the oldest
 * dropped, an entry updated) pass through at once. No item is copied.
 */
PlugboardTrafficBatch *plugboard_traffic_batch_new       (GtkWidget             *widget);
void                   plugboard_traffic_batch_set_model (PlugboardTrafficBatch *self,
                                                          GListModel            *model);
/* Tells of what is waiting for the next frame now. */
void                   plugboard_traffic_batch_flush     (PlugboardTrafficBatch *self);

G_END_DECLS
