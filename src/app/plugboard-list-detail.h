/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "mcp-server-manager.h"

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_LIST_DETAIL (plugboard_list_detail_get_type ())

G_DECLARE_DERIVABLE_TYPE (PlugboardListDetail, plugboard_list_detail, PLUGBOARD, LIST_DETAIL, AdwBin)

/**
 * PlugboardListDetail:
 *
 * What the server page's Resources and Prompts tabs share: one
 * connection's items as a searchable list beside the chosen item's detail,
 * in an AdwLeaflet ("list" and "detail") that folds to one page each; a
 * status page instead while the server has none to show (no server, not
 * connected, none offered, none listed); "no match" for a search that
 * finds nothing; a status page in the detail while nothing is chosen.
 *
 * A subclass gives, in its template, the "detail" widget and the texts
 * (properties), and implements the class's functions; its detail's Back
 * button activates "list-detail.back" and shows while :folded.
 */
struct _PlugboardListDetailClass
{
  AdwBinClass parent_class;

  /* The connection's items, unfiltered (transfer full). */
  GListModel *(*dup_items)     (PlugboardListDetail *self,
                                McpServerConnection *connection);
  /* Whether the server's capabilities offer the items at all
   * (mcp_server_info_has_resources, …). */
  gboolean    (*server_offers) (McpServerInfo       *info);
  /* Whether @item matches @folded_search (casefolded, not empty). */
  gboolean    (*item_matches)  (PlugboardListDetail *self,
                                gpointer             item,
                                const char          *folded_search);
  /* The chosen item changed to @item (NULL: none): fill in the detail. */
  void        (*show_item)     (PlugboardListDetail *self,
                                GObject             *item);
  /* The connection's state or the list changed: update what depends on
   * them (a button's sensitivity). */
  void        (*update)        (PlugboardListDetail *self);
};

/* nullable */
McpServerConnection *plugboard_list_detail_get_connection         (PlugboardListDetail *self);
void                 plugboard_list_detail_set_connection         (PlugboardListDetail *self,
                                                                   McpServerConnection *connection);
/* The connection's signals, for a subclass's own handlers; "unbind" says
 * the connection is being replaced. */
GSignalGroup        *plugboard_list_detail_get_connection_signals (PlugboardListDetail *self);
/* The connection's client, NULL without one. */
McpClient           *plugboard_list_detail_get_client             (PlugboardListDetail *self);
/* The server's info while it is connected, else NULL. */
McpServerInfo       *plugboard_list_detail_get_server_info        (PlugboardListDetail *self);
/* The chosen item (nullable). */
GObject             *plugboard_list_detail_get_selected           (PlugboardListDetail *self);
gboolean             plugboard_list_detail_get_folded             (PlugboardListDetail *self);
/* How the list shows an item. */
void                 plugboard_list_detail_set_factory            (PlugboardListDetail *self,
                                                                   GtkListItemFactory  *factory);

/* The detail's action (Read, Get): its button, the spinner that shows
 * while it runs, and the label that says what went wrong; borrowed, from
 * the subclass's detail. */
void                 plugboard_list_detail_set_action             (PlugboardListDetail *self,
                                                                   GtkWidget           *button,
                                                                   GtkSpinner          *spinner,
                                                                   GtkLabel            *error_label);
/* The action can run when the server is connected, it is not @busy and
 * nothing is @missing (what to do first, for the tooltip; NULL: nothing). */
void                 plugboard_list_detail_update_action          (PlugboardListDetail *self,
                                                                   gboolean             busy,
                                                                   const char          *missing);
/* Enter in one of the action's fields: runs it when it can run. */
void                 plugboard_list_detail_activate_action        (PlugboardListDetail *self);
/* The action starts: the client to ask, or NULL having said
 * @not_connected; hides the last error and closes the detail's
 * suggestions (what they were for is done). */
McpClient           *plugboard_list_detail_begin_action           (PlugboardListDetail *self,
                                                                   const char          *not_connected);
/* Says @message (NULL: nothing) under the action. */
void                 plugboard_list_detail_show_error             (PlugboardListDetail *self,
                                                                   const char          *message);

/* For item_matches: @text (nullable) contains @folded_search, casefolded. */
gboolean             plugboard_list_detail_text_matches           (const char          *text,
                                                                   const char          *folded_search);

G_END_DECLS
