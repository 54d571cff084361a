/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "plugboard-resource-browser.h"
#include "plugboard-result-view.h"

G_BEGIN_DECLS

struct _PlugboardResourceBrowser
{
  PlugboardListDetail  parent_instance;

  /* Template widgets */
  GtkLabel            *title_label;
  GtkLabel            *uri_label;
  GtkLabel            *meta_label;
  GtkWidget           *detail_updated_box;
  GtkLabel            *detail_updated_label;
  GtkLabel            *description_label;
  GtkWidget           *variables_box;
  GtkGrid             *variables_grid;
  GtkLabel            *expanded_label;
  GtkButton           *read_button;
  GtkSpinner          *read_spinner;
  GtkWidget           *subscribe_box;
  GtkSpinner          *subscribe_spinner;
  GtkSwitch           *subscribe_switch;
  GtkLabel            *error_label;
  GtkStack            *result_stack;
  PlugboardResultView *result_view;

  /* Borrowed: the rows bound now (GtkListView recycles them). */
  GPtrArray           *bound_rows;
  /* Borrowed: the variables' entries, in the template's order. */
  GPtrArray           *variable_entries;

  /* Owned references */
  GStrv                variables;
  /* uri → the wall-clock time (µs, gint64 *) of its last update */
  GHashTable          *updated;
  GCancellable        *read_cancellable;
  GCancellable        *subscribe_cancellable;
  char                *read_uri;

  /* Set while the browser itself moves the subscribe switch. */
  gboolean             showing_subscription;
};

/* plugboard-resource-browser.c: the list */
McpServerConnection *plugboard_resource_browser_get_connection (PlugboardResourceBrowser *self);
/* A resource's URI or a template's URI template. */
const char          *plugboard_resource_browser_item_uri       (GObject                  *item);

/* plugboard-resource-browser-detail.c: the chosen item, its variables, Read */
void plugboard_resource_browser_show_item          (PlugboardListDetail      *list,
                                                    GObject                  *item);
void plugboard_resource_browser_update_read_button (PlugboardResourceBrowser *self);
void plugboard_resource_browser_read               (PlugboardResourceBrowser *self);

/* plugboard-resource-browser-updates.c: subscriptions and update marks */
/* "Updated 14:03:22" for @uri (nullable), or NULL. */
char *plugboard_resource_browser_dup_updated_text   (PlugboardResourceBrowser *self,
                                                     const char               *uri);
/* @row (the list's) shows its item's update and subscription anew. */
void  plugboard_resource_browser_refresh_row        (PlugboardResourceBrowser *self,
                                                     GtkWidget                *row);
/* So do the rows of @uri (NULL: every row). */
void  plugboard_resource_browser_refresh_rows       (PlugboardResourceBrowser *self,
                                                     const char               *uri);
void  plugboard_resource_browser_update_subscription (PlugboardResourceBrowser *self);
void  plugboard_resource_browser_toggle_subscription (PlugboardResourceBrowser *self);
void  plugboard_resource_browser_watch_updates       (PlugboardResourceBrowser *self);

G_END_DECLS
