/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "plugboard-server-page.h"
#include "plugboard-server-clients.h"

#include "plugboard-changes-view.h"
#include "plugboard-prompt-browser.h"
#include "plugboard-resource-browser.h"
#include "plugboard-task-list.h"
#include "plugboard-tool-list.h"
#include "plugboard-traffic-view.h"

G_BEGIN_DECLS

/* Between the parts of PlugboardServerPage: plugboard-server-page.c (the
 * object, its properties and public setters, the whole page's update),
 * -state.c (the state card), -info.c (what the server says of itself, its
 * settings, rule, roots and latency), -menu.c (the actions menu and the
 * buttons' targets), -tools.c (the Tools section), -log.c (the log and
 * its level) and -traffic.c (the Traffic page). */

struct _PlugboardServerPage
{
  AdwBin               parent_instance;

  /* Template widgets */
  GtkLabel            *name_label;
  GtkLabel            *subtitle_label;
  GtkButton           *edit_button;
  PlugboardServerClients *server_clients;
  GtkButton           *roots_button;
  GtkMenuButton       *menu_button;
  GtkStack            *state_icon_stack;
  GtkImage            *state_image;
  GtkSpinner          *state_spinner;
  GtkLabel            *state_title_label;
  GtkLabel            *state_detail_label;
  GtkLabel            *stderr_label;
  GtkLabel            *command_label;
  GtkLabel            *sign_in_error_label;
  GtkButton           *sign_in_button;
  GtkButton           *cancel_sign_in_button;
  GtkButton           *sign_in_steps_button;
  GtkButton           *approve_button;
  GtkButton           *reject_button;
  GtkButton           *enable_button;
  GtkButton           *reconnect_button;
  GtkButton           *diagnose_button;
  GtkWidget           *info_group;
  GtkLabel            *server_name_label;
  GtkLabel            *server_version_label;
  GtkWidget           *server_version_row;
  GtkLabel            *protocol_version_label;
  GtkWidget           *roots_row;
  GtkDropDown         *server_rule_dropdown;
  GtkLabel            *latency_label;
  GtkWidget           *ping_button;
  GtkLabel            *roots_label;
  GtkWidget           *copy_sign_in_url_button;
  GtkFlowBox          *capabilities_box;
  GtkWidget           *instructions_row;
  GtkLabel            *instructions_label;
  GtkLabel            *transport_label;
  GtkLabel            *command_title_label;
  GtkLabel            *command_setting_label;
  GtkWidget           *cwd_row;
  GtkLabel            *cwd_label;
  GtkLabel            *scope_label;
  GtkWidget           *tried_list;
  GtkWidget           *save_tried_button;
  GtkWidget           *discard_tried_button;
  GtkLabel            *file_label;
  GtkButton           *copy_button;
  GtkStack            *log_stack;
  GtkScrolledWindow   *log_scroller;
  GtkScrolledWindow   *overview_scroller;
  GtkListView         *log_view;
  GtkWidget           *tools_group;
  PlugboardToolList   *tool_list;
  AdwViewStack        *view_stack;
  GtkSpinner          *log_level_spinner;
  GtkDropDown         *log_level_dropdown;
  GtkLabel            *log_level_error_label;
  PlugboardTrafficView *traffic_view;
  GtkWidget           *show_traffic_button;
  PlugboardChangesView *changes_view;
  AdwViewStackPage    *changes_page;

  /* Borrowed: the view stack's pages, found by name. */
  PlugboardResourceBrowser *resource_browser;
  PlugboardPromptBrowser   *prompt_browser;
  PlugboardTaskList        *task_list;

  /* Owned references */
  McpToolPool         *tool_pool;
  GtkFilterListModel  *server_tools;
  McpServerConnection *connection;
  McpSettings         *settings;
  McpRoots            *roots;
  McpProject          *project;
  GCancellable        *ping_cancellable;
  char                *latency;        /* the last ping's outcome, for this connection */
  GSignalGroup        *connection_signals;
  GSignalGroup        *settings_signals;
  GSignalGroup        *log_signals;
  GtkNoSelection      *log_selection;
  GCancellable        *log_level_cancellable;
  char                *sign_in_error;
  char                *state_detail;
  char                *menu_key;

  gboolean             signing_in;
  gboolean             setting_rule;
  char                *sign_in_url;   /* the page the browser was sent to */
  /* Follow the log's tail until the person scrolls away from the bottom. */
  gboolean             follow_tail;
  gboolean             scrolling;
  /* Set while the page itself moves the level drop-down. */
  gboolean             showing_level;
};

/* plugboard-server-page.c */
McpApproval plugboard_server_page_get_approval         (PlugboardServerPage *self);

/* plugboard-server-page-state.c */
void        plugboard_server_page_class_init_state     (GtkWidgetClass      *widget_class);
void        plugboard_server_page_update_state         (PlugboardServerPage *self);

/* plugboard-server-page-info.c */
void        plugboard_server_page_class_init_info      (GtkWidgetClass      *widget_class);
void        plugboard_server_page_update_settings      (PlugboardServerPage *self);
/* The server's own rule ("mcp__NAME") as the settings hold it. */
void        plugboard_server_page_update_server_rule   (PlugboardServerPage *self);
void        plugboard_server_page_update_info          (PlugboardServerPage *self);
/* The folders the server is offered when it asks (roots/list). */
void        plugboard_server_page_update_roots         (PlugboardServerPage *self);
void        plugboard_server_page_update_latency       (PlugboardServerPage *self);

/* plugboard-server-page-menu.c */
void        plugboard_server_page_update_menu          (PlugboardServerPage *self);
/* Gives every button whose window action takes the server's name that
 * name ("" without a server). */
void        plugboard_server_page_update_targets       (PlugboardServerPage *self);

/* plugboard-server-page-tools.c */
void        plugboard_server_page_class_init_tools     (GtkWidgetClass      *widget_class);
/* Filters the pool again for the page's connection. */
void        plugboard_server_page_update_tools         (PlugboardServerPage *self);

/* The Changes view of the page's server, read again. */
void        plugboard_server_page_update_changes       (PlugboardServerPage *self);

/* plugboard-server-page-log.c */
void        plugboard_server_page_class_init_log       (GtkWidgetClass      *widget_class);
/* The level drop-down and the log view, once the template is built. */
void        plugboard_server_page_init_log             (PlugboardServerPage *self);
void        plugboard_server_page_update_log_level     (PlugboardServerPage *self);
/* @message under the log's title, or none (NULL). */
void        plugboard_server_page_show_log_level_error (PlugboardServerPage *self,
                                                        const char          *message);
/* Shows the connection's log (an empty one without a connection). */
void        plugboard_server_page_set_log_model        (PlugboardServerPage *self);

/* plugboard-server-page-traffic.c */
void        plugboard_server_page_class_init_traffic   (GtkWidgetClass      *widget_class);
/* Shows the connection's trace, and its transport and URL. */
void        plugboard_server_page_update_traffic       (PlugboardServerPage *self);

G_END_DECLS
