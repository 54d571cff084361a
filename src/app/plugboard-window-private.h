/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "plugboard-window.h"
#include "plugboard-server-page.h"
#include "plugboard-tool-list.h"
#include "plugboard-tool-page.h"

G_BEGIN_DECLS

/* Shared by the parts of PlugboardWindow: plugboard-window.c (the type,
 * its state in GSettings, toasts, the actions' installation),
 * plugboard-window-list.c (the server list and its selection),
 * plugboard-window-content.c (what the content pane shows),
 * plugboard-window-project.c (the project shown, the project selector),
 * plugboard-window-approvals.c (pending approvals, unusable settings
 * files), plugboard-window-actions.c (the operations on a server),
 * plugboard-window-editor.c (adding and editing servers),
 * plugboard-window-sign-in.c (OAuth sign-in) and
 * plugboard-window-permissions.c (permission rules, roots). Each part
 * adds its own win.* actions from its _init function. */

struct _PlugboardWindow
{
  AdwApplicationWindow  parent_instance;

  /* Template widgets */
  AdwToastOverlay      *toast_overlay;
  AdwLeaflet           *leaflet;
  GtkWidget            *sidebar;
  AdwHeaderBar         *header_bar;
  GtkMenuButton        *project_button;
  GtkMenuButton        *client_button;
  GtkPopover           *client_popover;
  GtkListBox           *client_list;
  GtkMenuButton        *primary_menu_button;
  GtkSearchEntry       *search_entry;
  AdwViewStack         *sidebar_view_stack;
  PlugboardToolList    *all_tool_list;
  PlugboardToolPage    *tool_page;
  GtkRevealer          *approval_revealer;
  GtkLabel             *approval_label;
  GtkRevealer          *problem_revealer;
  GtkLabel             *problem_label;
  GtkStack             *sidebar_stack;
  GtkListView          *server_list;
  GtkWidget            *content_box;
  AdwWindowTitle       *content_title;
  GtkWidget            *back_button;
  GtkStack             *content_stack;
  AdwStatusPage        *empty_page;
  GtkWidget            *example_button;
  PlugboardServerPage  *server_page;
  AdwStatusPage        *shadowed_page;
  GtkWidget            *shadowed_button;
  GtkPopover           *project_popover;
  GtkListBox           *recent_list;
  GtkWidget            *recent_title;

  /* Owned references */
  GSettings            *settings;
  McpProject     *project;
  GtkFilterListModel   *filter_model;
  GtkCustomFilter      *filter;
  GtkSingleSelection   *selection;
  GCancellable         *cancellable;
  GtkFileChooserNative *chooser;
  /* name → GCancellable of a sign-in under way */
  McpInteraction       *interaction;
  GHashTable           *sign_ins;
  /* name → message of the last failed sign-in */
  GHashTable           *sign_in_errors;
  /* name → the sign-in page's address, while that sign-in goes on */
  GHashTable           *sign_in_urls;
  /* name → Removed, while "Undo" is offered */
  GHashTable           *removed;
  char                 *selected_name;
  /* The clients found on this machine (one bit per McpClientKind), and
   * what the last scan of every client's files found (McpClientSummary),
   * for "In Other Clients" on the server page. */
  guint                 present_clients;
  GPtrArray            *client_summaries;
  GCancellable         *scan_cancellable;
  char                 *search_text;
  /* Selects selected_name again once the list has changed (not inside
   * its items-changed emission, where GtkListView is mid-update). */
  guint                 reselect_id;

  /* The id of the last desktop notification sent (tests look). */
  char                 *last_notification;

  guint                 approval_asked : 1;
  /* The content shows the tool page (opened from the server page, or
   * from "All Tools"). */
  guint                 showing_tool : 1;
  guint                 tool_from_server : 1;
};

/* plugboard-window.c */
McpSettings    *plugboard_window_current_settings     (PlugboardWindow    *self);
void            plugboard_window_show_toast           (PlugboardWindow    *self,
                                                       const char         *title);
/* A toast of the engine's message, markup-escaped. */
void            plugboard_window_show_error_toast     (PlugboardWindow    *self,
                                                       const GError       *error);
/* Adds @entries to the window, after giving the server and tool pages'
 * buttons for those of them that take a string an empty target. */
void            plugboard_window_add_actions          (PlugboardWindow    *self,
                                                       const GActionEntry *entries,
                                                       guint               n_entries);

/* plugboard-window-list.c */
void            plugboard_window_class_list_init      (GtkWidgetClass     *widget_class);
void            plugboard_window_list_init            (PlugboardWindow    *self);

/* plugboard-window-content.c */
void            plugboard_window_class_content_init   (GtkWidgetClass     *widget_class);
/* Its actions, and what the content shows at first. */
void            plugboard_window_content_init         (PlugboardWindow    *self);
void            plugboard_window_update_content       (PlugboardWindow    *self);
/* Back from a tool to what the selection shows (the caller updates the
 * content). */
void            plugboard_window_hide_tool            (PlugboardWindow    *self);

/* plugboard-window-project.c */
void            plugboard_window_class_project_init   (GtkWidgetClass     *widget_class);
void            plugboard_window_project_init         (PlugboardWindow    *self);
/* Lets go of the project's signals and interaction (not of the project). */
void            plugboard_window_disconnect_project   (PlugboardWindow    *self);

/* plugboard-window-clients.c */
void            plugboard_window_class_clients_init   (GtkWidgetClass     *widget_class);
void            plugboard_window_clients_init         (PlugboardWindow    *self);
/* Sets a header-bar selector's label, ellipsized past 14 characters. */
void            plugboard_window_set_button_label     (GtkMenuButton      *button,
                                                       const char         *text);
/* The client of the project shown (Plugboard's own without a project). */
McpClientKind   plugboard_window_get_client           (PlugboardWindow    *self);
/* A new project of the client shown on @dir (NULL: the home folder). */
McpProject     *plugboard_window_new_project          (PlugboardWindow    *self,
                                                       McpClientKind       kind,
                                                       const char         *dir);
/* The project changed (another client or folder): the selector's label,
 * the "client" setting, and a new scan of every client's files. */
void            plugboard_window_update_client        (PlugboardWindow    *self);
/* Scans every client's files again (after an edit), then gives the
 * server page what it found. */
void            plugboard_window_rescan_clients       (PlugboardWindow    *self);
/* Stops the scans under way. */
void            plugboard_window_clients_dispose      (PlugboardWindow    *self);

/* plugboard-window-approvals.c */
void            plugboard_window_approvals_init       (PlugboardWindow    *self);
void            plugboard_window_update_approvals     (PlugboardWindow    *self);

/* plugboard-window-actions.c */
void            plugboard_window_actions_init         (PlugboardWindow    *self);
/* Where a new server goes: the "default-scope" setting, the user scope
 * without a project folder. */
McpConfigScope  plugboard_window_default_scope        (PlugboardWindow    *self);

/* plugboard-window-editor.c */
void            plugboard_window_editor_init          (PlugboardWindow    *self);

/* plugboard-window-sign-in.c */
void            plugboard_window_sign_in_init         (PlugboardWindow    *self);
/* Cancels every sign-in under way and forgets their errors and addresses. */
void            plugboard_window_cancel_sign_ins      (PlugboardWindow    *self);

/* plugboard-window-permissions.c */
void            plugboard_window_permissions_init     (PlugboardWindow    *self);
/* The project's permissions and tools, to the pages and the tool list. */
void            plugboard_window_update_permissions   (PlugboardWindow    *self);
/* The project's "tool-changed-since-allowed": a desktop notification
 * when the window is not the active one. */
void            plugboard_window_tool_changed_cb      (PlugboardWindow    *self,
                                                       const char         *server,
                                                       const char         *tool);
const char     *plugboard_window_get_last_notification (PlugboardWindow   *self);

G_END_DECLS
