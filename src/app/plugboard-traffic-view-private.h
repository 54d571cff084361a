/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "plugboard-traffic-view.h"

#include "plugboard-json-editor.h"
#include "plugboard-traffic-batch.h"

G_BEGIN_DECLS

/* Between the parts of PlugboardTrafficView: plugboard-traffic-view.c (the
 * object, the modes, the filter and search, following the tail),
 * -rows.c (the list's rows), -detail.c (the selected entry's pane, the
 * copies) and -export.c (Clear, Export and the file chooser). */

struct _PlugboardTrafficView
{
  AdwBin               parent_instance;

  /* Template widgets */
  GtkToggleButton     *protocol_toggle;
  GtkToggleButton     *network_toggle;
  GtkToggleButton     *console_toggle;
  GtkSearchEntry      *search_entry;
  GtkToggleButton     *errors_toggle;
  GtkDropDown         *direction_dropdown;
  AdwLeaflet          *leaflet;
  GtkStack            *list_stack;
  GtkLabel            *empty_label;
  GtkScrolledWindow   *list_scroller;
  GtkListView         *list_view;
  GtkWidget           *jump_button;
  GtkWidget           *back_button;
  GtkStack            *detail_stack;
  GtkLabel            *detail_title_label;
  GtkLabel            *detail_info_label;
  GtkWidget           *error_box;
  GtkLabel            *detail_error_label;
  GtkWidget           *request_headers_box;
  GtkLabel            *request_headers_label;
  GtkWidget           *response_headers_box;
  GtkLabel            *response_headers_label;
  GtkWidget           *request_box;
  GtkLabel            *request_title_label;
  PlugboardJsonEditor *request_editor;
  GtkLabel            *request_text_label;
  GtkWidget           *response_box;
  GtkLabel            *response_title_label;
  PlugboardJsonEditor *response_editor;
  GtkLabel            *response_text_label;
  GtkWidget           *copy_curl_button;

  /* Owned references */
  McpTrace            *trace;
  PlugboardTrafficBatch *batch;       /* the trace, its additions once a frame */
  GtkCustomFilter     *filter;
  GtkFilterListModel  *rows;
  GtkSingleSelection  *selection;
  McpTraceEntry       *shown;          /* the entry in the detail */
  char                *server_name;
  char                *server_url;
  char                *search;          /* casefolded; NULL: none */
  GtkFileChooserNative *chooser;

  McpTransportKind     transport;
  PlugboardTrafficMode mode;
  gboolean             errors_only;
  guint                direction;       /* 0 both, 1 sent, 2 received */
  /* Follow the newest entry until the person scrolls away from the bottom. */
  gboolean             following;
  gboolean             scrolling;
};

/* plugboard-traffic-view.c */
/* TRUE for a request's response that the Protocol rows fold into it. */
gboolean    plugboard_traffic_view_is_folded_response (PlugboardTrafficView *self,
                                                       McpTraceEntry        *entry);
/* The entry's response (a paired request's), or NULL: a new reference. */
McpTraceEntry *plugboard_traffic_view_dup_response    (PlugboardTrafficView *self,
                                                       McpTraceEntry        *entry);

/* plugboard-traffic-view-rows.c */
GtkListItemFactory *plugboard_traffic_view_new_row_factory (PlugboardTrafficView *self);

/* plugboard-traffic-view-detail.c */
void        plugboard_traffic_view_class_init_detail  (GtkWidgetClass       *widget_class);
/* Shows @entry (nullable: nothing selected) in the detail pane. */
void        plugboard_traffic_view_show_detail        (PlugboardTrafficView *self,
                                                       McpTraceEntry        *entry);

/* plugboard-traffic-view-export.c */
void        plugboard_traffic_view_class_init_export  (GtkWidgetClass       *widget_class);
void        plugboard_traffic_view_toast              (PlugboardTrafficView *self,
                                                       const char           *title);

G_END_DECLS
