/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-registry-dialog"

/* PlugboardRegistryDialog: the search, a page at a time. The details and
 * the install form are in plugboard-registry-dialog-install.c. */

#include "config.h"

#include "plugboard-registry-dialog-private.h"

#include <glib/gi18n.h>

#define PAGE_SIZE 30

G_DEFINE_FINAL_TYPE (PlugboardRegistryDialog, plugboard_registry_dialog, ADW_TYPE_WINDOW)

enum {
  SIGNAL_INSTALLED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

void
plugboard_registry_dialog_emit_installed (PlugboardRegistryDialog *self,
                                          const char              *name,
                                          McpClientKind            client)
{
  g_signal_emit (self, signals[SIGNAL_INSTALLED], 0, name, mcp_client_kind_to_id (client));
}

void
plugboard_registry_dialog_show_page (PlugboardRegistryDialog *self,
                                     const char              *page)
{
  gboolean details = g_str_equal (page, "details");

  gtk_stack_set_visible_child_name (self->stack, page);
  gtk_widget_set_visible (self->back_button, !g_str_equal (page, "search"));
  gtk_widget_set_visible (self->install_button, details);
}

static void
show_message (PlugboardRegistryDialog *self,
              const char              *icon,
              const char              *title,
              const char              *description)
{
  adw_status_page_set_icon_name (self->message_page, icon);
  adw_status_page_set_title (self->message_page, title);
  adw_status_page_set_description (self->message_page, description);
  gtk_stack_set_visible_child_name (self->results_stack, "message");
}

static GtkWidget *
result_row (McpRegistryServer *server)
{
  const char *title = mcp_registry_server_get_title (server);
  const char *description = mcp_registry_server_get_description (server);
  const char *status = mcp_registry_server_get_status (server);
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row),
                                 title != NULL && title[0] != '\0' ? title : mcp_registry_server_get_name (server));
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), description != NULL ? description : "");
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 2);
  if (g_strcmp0 (status, "deprecated") == 0)
    {
      GtkWidget *badge = gtk_label_new (_("Deprecated"));

      gtk_widget_add_css_class (badge, "caption");
      gtk_widget_add_css_class (badge, "warning");
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), badge);
    }
  adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                             gtk_image_new_from_icon_name ("go-next-symbolic"));
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  g_object_set_data_full (G_OBJECT (row), "server", g_object_ref (server), g_object_unref);

  return row;
}

static void
clear_results (PlugboardRegistryDialog *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->result_list))) != NULL)
    gtk_list_box_remove (self->result_list, child);
  self->n_results = 0;
}

static void
show_banner (PlugboardRegistryDialog *self,
             const McpRegistryPage   *page)
{
  g_autofree char *text = NULL;

  if (page->from_cache)
    {
      g_autoptr(GDateTime) when = g_date_time_new_from_unix_local (page->fetched);
      g_autofree char *date = when != NULL ? g_date_time_format (when, "%x %X") : g_strdup ("?");

      /* Translators: %s is a date and time */
      text = g_strdup_printf (_("The registry cannot be reached: this is the list saved on %s."), date);
    }

  gtk_label_set_text (self->banner_label, text != NULL ? text : "");
  gtk_revealer_set_reveal_child (self->banner_revealer, text != NULL);
}

static void
on_searched_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(PlugboardRegistryDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(McpRegistryPage) page = mcp_registry_search_finish (MCP_REGISTRY (object), result, &error);
  gboolean more = self->cursor != NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  gtk_spinner_set_spinning (self->search_spinner, FALSE);
  gtk_widget_set_sensitive (self->more_button, TRUE);

  if (page == NULL)
    {
      if (more)
        {
          gtk_label_set_text (GTK_LABEL (self->more_error_label), error->message);
          gtk_widget_set_visible (self->more_error_label, TRUE);
        }
      else
        show_message (self, "dialog-error-symbolic", _("The Registry Cannot Be Searched"), error->message);
      return;
    }

  if (!more)
    clear_results (self);
  show_banner (self, page);

  for (guint i = 0; i < page->servers->len; i++)
    {
      gtk_list_box_append (self->result_list, result_row (g_ptr_array_index (page->servers, i)));
      self->n_results++;
    }

  g_free (self->cursor);
  self->cursor = g_strdup (page->next_cursor);
  gtk_widget_set_visible (self->more_button, self->cursor != NULL);

  if (self->n_results == 0)
    show_message (self, "edit-find-symbolic", _("No Servers Found"),
                  _("No server in the registry matches the search."));
  else
    gtk_stack_set_visible_child_name (self->results_stack, "results");
}

static void
search (PlugboardRegistryDialog *self,
        gboolean                 more)
{
  const char *term = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  g_autofree char *stripped = g_strstrip (g_strdup (term));

  g_cancellable_cancel (self->search_cancellable);
  g_clear_object (&self->search_cancellable);
  self->search_cancellable = g_cancellable_new ();

  gtk_widget_set_visible (self->more_error_label, FALSE);
  if (!more)
    {
      g_clear_pointer (&self->cursor, g_free);
      gtk_spinner_set_spinning (self->search_spinner, TRUE);
      gtk_stack_set_visible_child_name (self->results_stack, "loading");
    }
  else
    gtk_widget_set_sensitive (self->more_button, FALSE);

  mcp_registry_search_async (self->registry, stripped[0] != '\0' ? stripped : NULL,
                             more ? self->cursor : NULL, PAGE_SIZE,
                             self->search_cancellable, on_searched_cb, g_object_ref (self));
}

static void
on_search_changed_cb (PlugboardRegistryDialog *self)
{
  search (self, FALSE);
}

static void
on_more_clicked_cb (PlugboardRegistryDialog *self)
{
  if (self->cursor != NULL)
    search (self, TRUE);
}

static void
on_result_activated_cb (PlugboardRegistryDialog *self,
                        GtkListBoxRow           *row)
{
  McpRegistryServer *server = g_object_get_data (G_OBJECT (row), "server");

  if (server != NULL)
    plugboard_registry_dialog_show_server (self, server);
}

static void
on_back_clicked_cb (PlugboardRegistryDialog *self)
{
  g_cancellable_cancel (self->install_cancellable);
  plugboard_registry_dialog_show_server (self, NULL);
  plugboard_registry_dialog_show_page (self, "search");
}

McpRegistryServer *
plugboard_registry_dialog_get_server (PlugboardRegistryDialog *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_REGISTRY_DIALOG (self), NULL);

  return self->server;
}

guint
plugboard_registry_dialog_get_n_results (PlugboardRegistryDialog *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_REGISTRY_DIALOG (self), 0);

  return self->n_results;
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static void
plugboard_registry_dialog_dispose (GObject *object)
{
  PlugboardRegistryDialog *self = PLUGBOARD_REGISTRY_DIALOG (object);

  if (self->search_cancellable != NULL)
    g_cancellable_cancel (self->search_cancellable);
  if (self->install_cancellable != NULL)
    g_cancellable_cancel (self->install_cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_REGISTRY_DIALOG);
  g_clear_object (&self->search_cancellable);
  g_clear_object (&self->install_cancellable);
  g_clear_object (&self->registry);
  g_clear_object (&self->project);
  g_clear_object (&self->server);
  g_clear_pointer (&self->input_widgets, g_ptr_array_unref);
  g_clear_pointer (&self->input_rows, g_ptr_array_unref);

  G_OBJECT_CLASS (plugboard_registry_dialog_parent_class)->dispose (object);
}

static void
plugboard_registry_dialog_finalize (GObject *object)
{
  PlugboardRegistryDialog *self = PLUGBOARD_REGISTRY_DIALOG (object);

  g_free (self->cursor);

  G_OBJECT_CLASS (plugboard_registry_dialog_parent_class)->finalize (object);
}

static void
plugboard_registry_dialog_class_init (PlugboardRegistryDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = plugboard_registry_dialog_dispose;
  object_class->finalize = plugboard_registry_dialog_finalize;

  signals[SIGNAL_INSTALLED] =
    g_signal_new ("installed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/plugboard/Plugboard/plugboard-registry-dialog.ui");
#define BIND(name) gtk_widget_class_bind_template_child (widget_class, PlugboardRegistryDialog, name)
  BIND (window_title);
  BIND (back_button);
  BIND (install_button);
  BIND (install_spinner);
  BIND (stack);
  BIND (search_entry);
  BIND (banner_revealer);
  BIND (banner_label);
  BIND (results_stack);
  BIND (result_list);
  BIND (more_error_label);
  BIND (more_button);
  BIND (search_spinner);
  BIND (message_page);
  BIND (details_page);
  BIND (title_label);
  BIND (name_label);
  BIND (description_label);
  BIND (status_label);
  BIND (repository_button);
  BIND (website_button);
  BIND (choice_row);
  BIND (entry_name_row);
  BIND (client_row);
  BIND (scope_row);
  BIND (inputs_group);
  BIND (install_message_label);
  BIND (installed_page);
#undef BIND
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_more_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_result_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_back_clicked_cb);
  plugboard_registry_dialog_class_install_init (widget_class);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
plugboard_registry_dialog_init (PlugboardRegistryDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

PlugboardRegistryDialog *
plugboard_registry_dialog_new (GtkWindow  *parent,
                               McpProject *project,
                               const char *registry_url,
                               const char *cache_dir,
                               guint       present_clients)
{
  PlugboardRegistryDialog *self;

  g_return_val_if_fail (MCP_IS_PROJECT (project), NULL);
  g_return_val_if_fail (registry_url != NULL, NULL);

  self = g_object_new (PLUGBOARD_TYPE_REGISTRY_DIALOG,
                       "transient-for", parent,
                       NULL);
  self->project = g_object_ref (project);
  self->registry = mcp_registry_new (registry_url, cache_dir);
  self->present_clients = present_clients | (1u << mcp_project_get_client (project));
  adw_window_title_set_subtitle (self->window_title, registry_url);
  plugboard_registry_dialog_fill_clients (self);

  plugboard_registry_dialog_show_page (self, "search");
  search (self, FALSE);

  return self;
}
