/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-window"

/* PlugboardWindow: whose settings it shows — the client selector
 * (Plugboard's own, then each MCP client found on this computer; GSettings
 * "client"), the scan of every client's files behind "In Other Clients",
 * copying servers to other clients, and the registry. */

#include "config.h"

#include "plugboard-window-private.h"

#include <glib/gi18n.h>

#include "mcp-client-copy.h"
#include "mcp-registry.h"
#include "plugboard-copy-dialog.h"
#include "plugboard-registry-dialog.h"

static GtkLabel *
find_label (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget))
    return GTK_LABEL (widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkLabel *label = find_label (child);

      if (label != NULL)
        return label;
    }

  return NULL;
}

/* The two selectors share the sidebar's header bar, which must still fit
 * in 360 px: a long client or folder name is ellipsized (the tooltip or
 * the popover has it whole). GtkMenuButton makes its label anew on each
 * set_label(). */
void
plugboard_window_set_button_label (GtkMenuButton *button,
                                   const char    *text)
{
  GtkLabel *label;

  gtk_menu_button_set_label (button, text);
  label = find_label (GTK_WIDGET (button));
  if (label != NULL)
    {
      gtk_label_set_ellipsize (label, PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (label, 14);
    }
}

McpClientKind
plugboard_window_get_client (PlugboardWindow *self)
{
  return self->project != NULL ? mcp_project_get_client (self->project)
                               : MCP_CLIENT_KIND_PLUGBOARD;
}

static const char *
plugboard_dir (PlugboardWindow *self)
{
  McpSettings *settings = plugboard_window_current_settings (self);

  return settings != NULL ? mcp_settings_get_user_config_dir (settings) : NULL;
}

McpProject *
plugboard_window_new_project (PlugboardWindow *self,
                              McpClientKind    kind,
                              const char      *dir)
{
  return mcp_project_new_for_client (kind, dir, plugboard_dir (self));
}

/* ------------------------------------------------------------------------ */
/* Which clients are here                                                   */

/* A few stats each: in a thread all the same, for a home on a slow disk. */
static void
find_present_thread (GTask        *task,
                     gpointer      source_object,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  guint present = 1u << MCP_CLIENT_KIND_PLUGBOARD;

  for (guint kind = 0; kind < MCP_CLIENT_KIND_COUNT; kind++)
    if (mcp_client_kind_is_present (kind, NULL, NULL))
      present |= 1u << kind;

  g_task_return_int (task, present);
}

static void
fill_client_list (PlugboardWindow *self)
{
  McpClientKind current = plugboard_window_get_client (self);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->client_list))) != NULL)
    gtk_list_box_remove (self->client_list, child);

  for (guint kind = 0; kind < MCP_CLIENT_KIND_COUNT; kind++)
    {
      GtkWidget *row;

      if (kind != current && (self->present_clients & (1u << kind)) == 0)
        continue;

      row = adw_action_row_new ();
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row),
                                     mcp_client_kind_get_display_name (kind));
      if (kind == MCP_CLIENT_KIND_PLUGBOARD)
        adw_action_row_set_subtitle (ADW_ACTION_ROW (row), _("Plugboard’s own settings"));
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      g_object_set_data (G_OBJECT (row), "client", GUINT_TO_POINTER (kind));
      gtk_widget_set_name (row, mcp_client_kind_to_id (kind));
      if (kind == current)
        adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                                   gtk_image_new_from_icon_name ("object-select-symbolic"));
      gtk_list_box_append (self->client_list, row);
    }
}

static void
on_present_found_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(PlugboardWindow) self = user_data;
  gssize present = g_task_propagate_int (G_TASK (result), NULL);

  /* the window is gone */
  if (self->scan_cancellable == NULL)
    return;

  self->present_clients = (guint) present;
  fill_client_list (self);
}

static void
find_present_clients (PlugboardWindow *self)
{
  g_autoptr(GTask) task = g_task_new (NULL, NULL, on_present_found_cb,
                                      g_object_ref (self));

  g_task_set_source_tag (task, find_present_clients);
  g_task_run_in_thread (task, find_present_thread);
}

static void
on_client_popover_show_cb (PlugboardWindow *self)
{
  fill_client_list (self);
  find_present_clients (self);
}

static void
open_client (PlugboardWindow *self,
             McpClientKind    kind,
             const char      *server)
{
  g_autoptr(McpProject) project = NULL;
  const char *dir = self->project != NULL ? mcp_project_get_project_dir (self->project) : NULL;

  if (kind != plugboard_window_get_client (self) || self->project == NULL)
    {
      project = plugboard_window_new_project (self, kind, dir);
      plugboard_window_set_project (self, project);
    }

  if (server != NULL && !plugboard_window_show_server (self, server))
    {
      /* Not loaded yet: the list selects it as it appears. */
      g_free (self->selected_name);
      self->selected_name = g_strdup (server);
    }
}

static void
on_client_row_activated_cb (PlugboardWindow *self,
                            GtkListBoxRow   *row)
{
  gtk_popover_popdown (self->client_popover);
  open_client (self, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "client")), NULL);
}

static void
open_client_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  McpClientKind kind;

  if (!mcp_client_kind_from_id (g_variant_get_string (parameter, NULL), &kind))
    return;

  open_client (self, kind, NULL);
}

static void
open_client_server_action (GSimpleAction *action,
                           GVariant      *parameter,
                           gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  const char *id;
  const char *name;
  McpClientKind kind;

  g_variant_get (parameter, "(&s&s)", &id, &name);
  if (!mcp_client_kind_from_id (id, &kind))
    return;

  open_client (self, kind, name);
}

/* ------------------------------------------------------------------------ */
/* Every client's servers                                                   */

static void
give_page_clients (PlugboardWindow *self)
{
  plugboard_server_page_set_clients (self->server_page, self->client_summaries,
                                     plugboard_window_get_client (self));
}

static void
on_clients_scanned_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(PlugboardWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) summaries = mcp_clients_scan_finish (result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (summaries == NULL)
    {
      g_debug ("Cannot look through the other clients’ settings: %s", error->message);
      summaries = g_ptr_array_new ();
    }

  g_clear_pointer (&self->client_summaries, g_ptr_array_unref);
  self->client_summaries = g_steal_pointer (&summaries);
  for (guint i = 0; i < self->client_summaries->len; i++)
    {
      McpClientSummary *summary = g_ptr_array_index (self->client_summaries, i);

      if (summary->present)
        self->present_clients |= 1u << summary->kind;
    }
  give_page_clients (self);
}

void
plugboard_window_rescan_clients (PlugboardWindow *self)
{
  g_cancellable_cancel (self->scan_cancellable);
  g_clear_object (&self->scan_cancellable);
  self->scan_cancellable = g_cancellable_new ();

  mcp_clients_scan_async (NULL, NULL, plugboard_dir (self),
                          self->project != NULL ? mcp_project_get_project_dir (self->project) : NULL,
                          self->scan_cancellable, on_clients_scanned_cb, g_object_ref (self));
}

void
plugboard_window_update_client (PlugboardWindow *self)
{
  McpClientKind kind = plugboard_window_get_client (self);

  plugboard_window_set_button_label (self->client_button, mcp_client_kind_get_display_name (kind));
  if (self->settings != NULL && self->project != NULL)
    g_settings_set_string (self->settings, "client", mcp_client_kind_to_id (kind));

  g_clear_pointer (&self->client_summaries, g_ptr_array_unref);
  give_page_clients (self);
  plugboard_window_rescan_clients (self);
}

/* ------------------------------------------------------------------------ */
/* Copying and the registry                                                 */

static void
on_copied_cb (PlugboardWindow *self)
{
  plugboard_window_rescan_clients (self);
}

static void
show_copy_dialog (PlugboardWindow    *self,
                  McpConfigScope      scope,
                  const char * const *names)
{
  PlugboardCopyDialog *dialog;

  if (self->project == NULL)
    return;

  dialog = plugboard_copy_dialog_new (GTK_WINDOW (self),
                                      plugboard_window_get_client (self), scope, names,
                                      plugboard_dir (self),
                                      mcp_project_get_project_dir (self->project),
                                      self->present_clients);
  g_signal_connect_object (dialog, "copied", G_CALLBACK (on_copied_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
copy_server_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  const char *name = g_variant_get_string (parameter, NULL);
  const char *names[] = { name, NULL };
  McpServerConfig *config;

  if (self->project == NULL || name[0] == '\0')
    return;

  config = mcp_settings_lookup (plugboard_window_current_settings (self), name);
  show_copy_dialog (self,
                    config != NULL ? mcp_server_config_get_scope (config) : MCP_CONFIG_SCOPE_USER,
                    names);
}

static void
copy_all_servers_action (GSimpleAction *action,
                         GVariant      *parameter,
                         gpointer       user_data)
{
  PlugboardWindow *self = user_data;

  gtk_popover_popdown (self->client_popover);
  show_copy_dialog (self, MCP_CONFIG_SCOPE_USER, NULL);
}

static void
on_installed_cb (PlugboardWindow *self,
                 const char      *name,
                 const char      *client_id)
{
  if (g_strcmp0 (client_id, mcp_client_kind_to_id (plugboard_window_get_client (self))) == 0 &&
      !plugboard_window_show_server (self, name))
    {
      g_free (self->selected_name);
      self->selected_name = g_strdup (name);
    }
  plugboard_window_rescan_clients (self);
}

static void
browse_registry_action (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  g_autofree char *url = NULL;
  g_autofree char *cache_dir = NULL;
  PlugboardRegistryDialog *dialog;

  if (self->project == NULL)
    return;

  if (self->settings != NULL)
    url = g_settings_get_string (self->settings, "registry-url");
  if (url == NULL || url[0] == '\0')
    {
      g_free (url);
      url = g_strdup (MCP_REGISTRY_DEFAULT_URL);
    }
  cache_dir = g_build_filename (g_get_user_cache_dir (), "plugboard", "registry", NULL);

  dialog = plugboard_registry_dialog_new (GTK_WINDOW (self), self->project, url, cache_dir,
                                          self->present_clients);
  g_signal_connect_object (dialog, "installed", G_CALLBACK (on_installed_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

static const GActionEntry client_actions[] = {
  { "open-client", open_client_action, "s" },
  { "open-client-server", open_client_server_action, "(ss)" },
  { "copy-server", copy_server_action, "s" },
  { "copy-all-servers", copy_all_servers_action },
  { "browse-registry", browse_registry_action },
};

void
plugboard_window_class_clients_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, on_client_popover_show_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_client_row_activated_cb);
}

void
plugboard_window_clients_init (PlugboardWindow *self)
{
  self->present_clients = 1u << MCP_CLIENT_KIND_PLUGBOARD;
  self->scan_cancellable = g_cancellable_new ();
  plugboard_window_add_actions (self, client_actions, G_N_ELEMENTS (client_actions));
  find_present_clients (self);
}

void
plugboard_window_clients_dispose (PlugboardWindow *self)
{
  if (self->scan_cancellable != NULL)
    g_cancellable_cancel (self->scan_cancellable);
  g_clear_object (&self->scan_cancellable);
  g_clear_pointer (&self->client_summaries, g_ptr_array_unref);
}
