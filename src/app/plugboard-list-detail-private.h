/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "plugboard-list-detail.h"

G_BEGIN_DECLS

typedef struct
{
  /* Template widgets */
  AdwStatusPage       *status_page;
  AdwLeaflet          *leaflet;
  GtkSearchEntry      *search_entry;
  GtkStack            *list_stack;
  GtkListView         *list_view;
  GtkStack            *detail_stack;

  /* Borrowed */
  GtkStack            *stack;   /* the bin's child */
  GtkWidget           *detail;  /* detail_stack's "detail" page */
  /* the detail's action */
  GtkWidget           *action_button;
  GtkSpinner          *action_spinner;
  GtkLabel            *error_label;

  /* Owned references */
  McpServerConnection *connection;
  GSignalGroup        *connection_signals;
  GListModel          *items;
  GtkCustomFilter     *filter;
  GtkSingleSelection  *selection;
  GObject             *selected;
  char                *search;
  char               **texts;   /* by property, from PROP_ICON_NAME */
  int                  list_width;
  /* Set while the leaflet folds (rather than the person going back). */
  gboolean             folding;
} PlugboardListDetailPrivate;

PlugboardListDetailPrivate *plugboard_list_detail_get_private (PlugboardListDetail *self);

#define PRIV(self) (plugboard_list_detail_get_private (self))

/* plugboard-list-detail-list.c: the list and the pages */
void plugboard_list_detail_class_init_list (GtkWidgetClass      *widget_class);
void plugboard_list_detail_init_list       (PlugboardListDetail *self);
/* The chosen item's detail, when the chosen item changed. */
void plugboard_list_detail_show_selected   (PlugboardListDetail *self);

G_END_DECLS
