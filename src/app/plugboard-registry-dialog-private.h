/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "plugboard-registry-dialog.h"

G_BEGIN_DECLS

/* Shared by plugboard-registry-dialog.c (the type, the search) and
 * plugboard-registry-dialog-install.c (a server's details, the form of
 * its inputs, Install). */

struct _PlugboardRegistryDialog
{
  AdwWindow          parent_instance;

  /* Template widgets */
  AdwWindowTitle    *window_title;
  GtkWidget         *back_button;
  GtkWidget         *install_button;
  GtkSpinner        *install_spinner;
  GtkStack          *stack;
  GtkSearchEntry    *search_entry;
  GtkRevealer       *banner_revealer;
  GtkLabel          *banner_label;
  GtkStack          *results_stack;
  GtkListBox        *result_list;
  GtkWidget         *more_error_label;
  GtkWidget         *more_button;
  GtkSpinner        *search_spinner;
  AdwStatusPage     *message_page;
  GtkWidget         *details_page;
  GtkLabel          *title_label;
  GtkLabel          *name_label;
  GtkLabel          *description_label;
  GtkLabel          *status_label;
  GtkWidget         *repository_button;
  GtkWidget         *website_button;
  AdwComboRow       *choice_row;
  AdwEntryRow       *entry_name_row;
  AdwComboRow       *client_row;
  AdwComboRow       *scope_row;
  AdwPreferencesGroup *inputs_group;
  GtkLabel          *install_message_label;
  AdwStatusPage     *installed_page;

  /* Owned references */
  McpProject        *project;
  McpRegistry       *registry;
  McpRegistryServer *server;
  GCancellable      *search_cancellable;
  GCancellable      *install_cancellable;
  char              *cursor;
  guint              n_results;
  guint              present_clients;
  /* the client of each of client_row's items */
  McpClientKind      clients[MCP_CLIENT_KIND_COUNT];
  /* the form: for each input of the choice shown, its widget (an entry,
   * a password entry, a drop-down, a switch; NULL for a fixed one) and
   * its row */
  GPtrArray         *input_widgets;
  GPtrArray         *input_rows;
};

/* plugboard-registry-dialog.c */
void plugboard_registry_dialog_show_page          (PlugboardRegistryDialog *self,
                                                   const char              *page);
void plugboard_registry_dialog_emit_installed     (PlugboardRegistryDialog *self,
                                                   const char              *name,
                                                   McpClientKind            client);

/* plugboard-registry-dialog-install.c */
void plugboard_registry_dialog_class_install_init (GtkWidgetClass          *widget_class);
/* The client drop-down: the project's client first, then the others
 * found. */
void plugboard_registry_dialog_fill_clients       (PlugboardRegistryDialog *self);
/* Shows @server's details and form (NULL: forgets it). */
void plugboard_registry_dialog_show_server        (PlugboardRegistryDialog *self,
                                                   McpRegistryServer       *server);

G_END_DECLS
