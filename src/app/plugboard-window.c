/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-window"

#include "config.h"

#include "plugboard-window.h"
#include "plugboard-common.h"

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-url-policy.h"
#include "plugboard-approval-dialog.h"
#include "plugboard-import-dialog.h"
#include "plugboard-interaction.h"
#include "plugboard-permissions-window.h"
#include "plugboard-roots-dialog.h"
#include "plugboard-server-editor.h"
#include "plugboard-server-page.h"
#include "plugboard-server-row.h"
#include "plugboard-tool-list.h"
#include "plugboard-tool-page.h"

#define MAX_RECENT_PROJECTS 10

/* A removed entry kept while its "Undo" toast shows. */
typedef struct
{
  McpConfigScope  scope;
  JsonObject     *entry;
  gboolean        tried;    /* a server being tried, discarded: Undo tries it again */
} Removed;

static void
removed_free (gpointer data)
{
  Removed *removed = data;

  g_clear_pointer (&removed->entry, json_object_unref);
  g_free (removed);
}

struct _PlugboardWindow
{
  AdwApplicationWindow  parent_instance;

  /* Template widgets */
  AdwToastOverlay      *toast_overlay;
  AdwLeaflet           *leaflet;
  GtkWidget            *sidebar;
  AdwHeaderBar         *header_bar;
  GtkMenuButton        *project_button;
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
  char                 *search_text;
  /* Selects selected_name again once the list has changed (not inside
   * its items-changed emission, where GtkListView is mid-update). */
  guint                 reselect_id;

  guint                 approval_asked : 1;
  /* The content shows the tool page (opened from the server page, or
   * from "All Tools"). */
  guint                 showing_tool : 1;
  guint                 tool_from_server : 1;
};

G_DEFINE_FINAL_TYPE (PlugboardWindow, plugboard_window, ADW_TYPE_APPLICATION_WINDOW)

static void plugboard_window_update_content   (PlugboardWindow *self);
static void plugboard_window_update_approvals (PlugboardWindow *self);
static void register_request_handlers         (PlugboardWindow *self,
                                               McpProject      *project,
                                               gboolean         on);
static void on_permissions_changed_cb         (PlugboardWindow *self);

/* The schema is missing when the program runs from the build tree without
 * GSETTINGS_SCHEMA_DIR; the window then keeps its size for this run only
 * instead of aborting in g_settings_new(). */
static GSettings *
plugboard_window_create_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APPLICATION_ID, TRUE);

  if (schema == NULL)
    {
      g_debug ("GSettings schema %s is not installed; the window size will not be saved",
               APPLICATION_ID);
      return NULL;
    }

  return g_settings_new_full (schema, NULL, NULL);
}

static void
plugboard_window_restore_state (PlugboardWindow *self)
{
  int width;
  int height;

  g_assert (PLUGBOARD_IS_WINDOW (self));

  if (self->settings == NULL)
    return;

  width = g_settings_get_int (self->settings, "window-width");
  height = g_settings_get_int (self->settings, "window-height");
  gtk_window_set_default_size (GTK_WINDOW (self), width, height);

  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
}

static void
plugboard_window_save_state (PlugboardWindow *self)
{
  gboolean maximized;
  int width;
  int height;

  g_assert (PLUGBOARD_IS_WINDOW (self));

  if (self->settings == NULL)
    return;

  maximized = gtk_window_is_maximized (GTK_WINDOW (self));

  g_settings_delay (self->settings);
  g_settings_set_boolean (self->settings, "window-maximized", maximized);

  /* The default size follows the window while it is not maximized, so a
   * maximized window keeps the size it will return to. */
  if (!maximized)
    {
      gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
      if (width > 0 && height > 0)
        {
          g_settings_set_int (self->settings, "window-width", width);
          g_settings_set_int (self->settings, "window-height", height);
        }
    }

  g_settings_apply (self->settings);
}

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static void
show_toast (PlugboardWindow *self,
            const char      *title)
{
  AdwToast *toast = adw_toast_new (title);

  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/* The engine's messages may hold markup-like characters; a toast title is
 * markup. */
static void
show_error_toast (PlugboardWindow *self,
                  const GError    *error)
{
  g_autofree char *escaped = g_markup_escape_text (error->message, -1);
  AdwToast *toast = adw_toast_new (escaped);

  adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
  adw_toast_set_timeout (toast, 10);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/* A run the person left for another tool has ended: say so, with a way
 * back to it. */
static void
on_run_finished_cb (PlugboardWindow *self,
                    McpPoolTool     *tool,
                    gboolean         succeeded,
                    const char      *message)
{
  g_autofree char *name = g_markup_escape_text (mcp_pool_tool_get_display_name (tool), -1);
  g_autofree char *title = NULL;
  AdwToast *toast;

  if (succeeded)
    /* Translators: %s is a tool's name */
    title = g_strdup_printf (_("“%s” finished"), name);
  else if (message != NULL)
    {
      g_autofree char *reason = g_markup_escape_text (message, -1);

      /* Translators: the first %s is a tool's name, the second why it failed */
      title = g_strdup_printf (_("“%s” failed: %s"), name, reason);
    }
  else
    /* Translators: %s is a tool's name */
    title = g_strdup_printf (_("“%s” returned an error"), name);

  toast = adw_toast_new (title);
  adw_toast_set_button_label (toast, _("_Show"));
  adw_toast_set_action_name (toast, "win.show-tool");
  adw_toast_set_action_target_value (toast, g_variant_new_string (mcp_pool_tool_get_qualified_name (tool)));
  if (!succeeded)
    adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static const char *
item_name (GObject *item)
{
  if (MCP_IS_SERVER_CONNECTION (item))
    return mcp_server_connection_get_name (MCP_SERVER_CONNECTION (item));
  if (MCP_IS_SERVER_CONFIG (item))
    return mcp_server_config_get_name (MCP_SERVER_CONFIG (item));
  return NULL;
}


static gboolean
scope_from_string (const char     *text,
                   McpConfigScope *scope)
{
  if (g_strcmp0 (text, "user") == 0)
    *scope = MCP_CONFIG_SCOPE_USER;
  else if (g_strcmp0 (text, "project") == 0)
    *scope = MCP_CONFIG_SCOPE_PROJECT;
  else if (g_strcmp0 (text, "local") == 0)
    *scope = MCP_CONFIG_SCOPE_LOCAL;
  else
    return FALSE;

  return TRUE;
}

static char *
project_display_name (McpProject *project)
{
  const char *dir = project != NULL ? mcp_project_get_project_dir (project) : NULL;

  if (dir == NULL)
    return g_strdup (_("Home Folder"));

  return g_path_get_basename (dir);
}

static McpSettings *
current_settings (PlugboardWindow *self)
{
  return self->project != NULL ? mcp_project_get_settings (self->project) : NULL;
}

/* ------------------------------------------------------------------------ */
/* The list                                                                 */

static gboolean
filter_func (gpointer item,
             gpointer user_data)
{
  PlugboardWindow *self = user_data;
  g_autofree char *folded = NULL;
  const char *name;

  if (self->search_text == NULL || self->search_text[0] == '\0')
    return TRUE;

  name = item_name (item);
  if (name == NULL)
    return FALSE;

  folded = g_utf8_casefold (name, -1);
  return strstr (folded, self->search_text) != NULL;
}

static void
on_search_changed_cb (PlugboardWindow *self,
                      GtkSearchEntry  *entry)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  g_clear_pointer (&self->search_text, g_free);
  if (text != NULL && text[0] != '\0')
    self->search_text = g_utf8_casefold (text, -1);

  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

static void
setup_row_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              gpointer                  user_data)
{
  gtk_list_item_set_child (list_item, plugboard_server_row_new ());
}

static void
bind_row_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             gpointer                  user_data)
{
  PlugboardWindow *self = user_data;
  PlugboardServerRow *row = PLUGBOARD_SERVER_ROW (gtk_list_item_get_child (list_item));

  plugboard_server_row_set_settings (row, current_settings (self));
  plugboard_server_row_set_item (row, gtk_list_item_get_item (list_item));
}

static void
unbind_row_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               gpointer                  user_data)
{
  PlugboardServerRow *row = PLUGBOARD_SERVER_ROW (gtk_list_item_get_child (list_item));

  plugboard_server_row_set_item (row, NULL);
}

static guint
find_position (PlugboardWindow *self,
               const char      *name)
{
  GListModel *model = G_LIST_MODEL (self->selection);
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      /* The effective server, not a shadowed entry of the same name. */
      if (MCP_IS_SERVER_CONNECTION (item) && g_strcmp0 (item_name (item), name) == 0)
        return i;
    }

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (model, i);

      if (g_strcmp0 (item_name (item), name) == 0)
        return i;
    }

  return GTK_INVALID_LIST_POSITION;
}

static void
on_selected_item_cb (PlugboardWindow *self)
{
  GObject *item = gtk_single_selection_get_selected_item (self->selection);

  /* What autoselection picks while the list changes is not the person's
   * choice: the reselection coming up restores theirs. */
  if (item != NULL && self->reselect_id == 0)
    {
      g_free (self->selected_name);
      self->selected_name = g_strdup (item_name (item));
    }

  plugboard_window_update_content (self);
}

/* The manager replaces a connection when its settings change (an edit,
 * enable): keep the same server selected. */
static gboolean
reselect_cb (gpointer user_data)
{
  PlugboardWindow *self = user_data;
  GObject *item = gtk_single_selection_get_selected_item (self->selection);
  guint position;

  self->reselect_id = 0;
  if (self->selected_name != NULL &&
      (item == NULL || g_strcmp0 (item_name (item), self->selected_name) != 0))
    {
      position = find_position (self, self->selected_name);
      if (position != GTK_INVALID_LIST_POSITION)
        gtk_single_selection_set_selected (self->selection, position);
      else if (item != NULL)
        {
          /* the server is gone or hidden: what is selected now stands */
          g_free (self->selected_name);
          self->selected_name = g_strdup (item_name (item));
        }
    }

  plugboard_window_update_content (self);
  return G_SOURCE_REMOVE;
}

static void
on_selection_items_changed_cb (PlugboardWindow *self)
{
  GObject *item = gtk_single_selection_get_selected_item (self->selection);

  if (self->selected_name != NULL &&
      (item == NULL || g_strcmp0 (item_name (item), self->selected_name) != 0))
    {
      if (self->reselect_id == 0)
        self->reselect_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, reselect_cb, self, NULL);
      return;
    }

  plugboard_window_update_content (self);
}

static void
update_back_button (PlugboardWindow *self)
{
  gtk_widget_set_visible (self->back_button,
                          adw_leaflet_get_folded (self->leaflet) ||
                          (self->showing_tool && self->tool_from_server));
}

static void
hide_tool (PlugboardWindow *self)
{
  if (!self->showing_tool)
    return;

  self->showing_tool = FALSE;
  self->tool_from_server = FALSE;
  update_back_button (self);
}

static void
on_server_list_activate_cb (PlugboardWindow *self,
                            guint            position)
{
  hide_tool (self);
  gtk_single_selection_set_selected (self->selection, position);
  plugboard_window_update_content (self);
  adw_leaflet_set_visible_child (self->leaflet, self->content_box);
}

static void
on_back_clicked_cb (PlugboardWindow *self)
{
  /* From a tool opened on a server's page, back to that page. */
  if (self->showing_tool && self->tool_from_server)
    {
      hide_tool (self);
      plugboard_window_update_content (self);
      return;
    }

  adw_leaflet_set_visible_child (self->leaflet, self->sidebar);
}

static gboolean
show_tool (PlugboardWindow *self,
           const char      *qualified_name,
           gboolean         from_server)
{
  McpPoolTool *tool;

  if (self->project == NULL)
    return FALSE;

  tool = mcp_tool_pool_lookup (mcp_project_get_tool_pool (self->project), qualified_name);
  if (tool == NULL)
    return FALSE;

  plugboard_tool_page_set_project (self->tool_page, self->project);
  plugboard_tool_page_set_permissions (self->tool_page, mcp_project_get_permissions (self->project));
  plugboard_tool_page_set_history (self->tool_page, mcp_project_get_history (self->project));
  plugboard_tool_page_set_tool (self->tool_page, tool);
  self->showing_tool = TRUE;
  self->tool_from_server = from_server;
  update_back_button (self);
  plugboard_window_update_content (self);
  adw_leaflet_set_visible_child (self->leaflet, self->content_box);

  return TRUE;
}

static void
on_all_tools_activated_cb (PlugboardWindow *self,
                           McpPoolTool     *tool)
{
  show_tool (self, mcp_pool_tool_get_qualified_name (tool), FALSE);
}

static void
on_sidebar_view_changed_cb (PlugboardWindow *self)
{
  /* Back to the servers: the content follows the selected server again. */
  if (g_strcmp0 (adw_view_stack_get_visible_child_name (self->sidebar_view_stack), "servers") == 0 &&
      self->showing_tool && !self->tool_from_server)
    {
      hide_tool (self);
      plugboard_window_update_content (self);
    }
}

static void
on_leaflet_folded_cb (PlugboardWindow *self)
{
  /* Side by side, the page shows the server's name itself. */
  gtk_widget_set_visible (GTK_WIDGET (self->content_title), adw_leaflet_get_folded (self->leaflet));
  update_back_button (self);

  /* Unfolded, both panes show; folded, start with the list. */
  if (adw_leaflet_get_folded (self->leaflet) &&
      gtk_single_selection_get_selected_item (self->selection) == NULL)
    plugboard_window_update_content (self);
}

static void
plugboard_window_update_content (PlugboardWindow *self)
{
  GListModel *servers = self->project ? mcp_project_get_servers (self->project) : NULL;
  GObject *item = gtk_single_selection_get_selected_item (self->selection);
  gboolean empty = servers == NULL || g_list_model_get_n_items (servers) == 0;
  gboolean filtered_empty = g_list_model_get_n_items (G_LIST_MODEL (self->selection)) == 0;

  gtk_stack_set_visible_child_name (self->sidebar_stack,
                                    !empty && filtered_empty ? "no-results" : "list");

  if (self->showing_tool && plugboard_tool_page_get_tool (self->tool_page) != NULL)
    {
      McpPoolTool *tool = plugboard_tool_page_get_tool (self->tool_page);

      gtk_stack_set_visible_child_name (self->content_stack, "tool");
      adw_window_title_set_title (self->content_title, mcp_pool_tool_get_display_name (tool));
      adw_window_title_set_subtitle (self->content_title, mcp_pool_tool_get_server_name (tool));
      return;
    }

  if (self->project != NULL && !mcp_project_get_loaded (self->project))
    {
      gtk_stack_set_visible_child_name (self->content_stack, "loading");
      adw_window_title_set_title (self->content_title, "");
      adw_window_title_set_subtitle (self->content_title, "");
      return;
    }

  if (empty)
    {
      /* Folded, a newcomer sees the offers, not an empty list. */
      if (adw_leaflet_get_folded (self->leaflet))
        adw_leaflet_set_visible_child (self->leaflet, self->content_box);
      plugboard_server_page_set_connection (self->server_page, NULL);
      gtk_stack_set_visible_child_name (self->content_stack, "empty");
      adw_window_title_set_title (self->content_title, "");
      adw_window_title_set_subtitle (self->content_title, "");
      return;
    }

  if (MCP_IS_SERVER_CONNECTION (item))
    {
      McpServerConnection *connection = MCP_SERVER_CONNECTION (item);
      const char *name = mcp_server_connection_get_name (connection);
      McpServerConfig *config = mcp_server_connection_get_config (connection);

      if (plugboard_server_page_get_connection (self->server_page) != connection)
        {
          plugboard_server_page_set_settings (self->server_page, current_settings (self));
          plugboard_server_page_set_roots (self->server_page,
                                           self->project != NULL ? mcp_project_get_roots (self->project) : NULL);
          plugboard_server_page_set_connection (self->server_page, connection);
        }
      plugboard_server_page_set_signing_in (self->server_page,
                                            g_hash_table_contains (self->sign_ins, name));
      plugboard_server_page_set_sign_in_error (self->server_page,
                                               g_hash_table_lookup (self->sign_in_errors, name));
      plugboard_server_page_set_sign_in_url (self->server_page,
                                             g_hash_table_contains (self->sign_ins, name)
                                               ? g_hash_table_lookup (self->sign_in_urls, name)
                                               : NULL);
      gtk_stack_set_visible_child_name (self->content_stack, "server");
      adw_window_title_set_title (self->content_title, name);
      adw_window_title_set_subtitle (self->content_title,
                                     config ? plugboard_config_place_label (config) : "");
      return;
    }

  plugboard_server_page_set_connection (self->server_page, NULL);

  if (MCP_IS_SERVER_CONFIG (item))
    {
      McpServerConfig *config = MCP_SERVER_CONFIG (item);
      const char *name = mcp_server_config_get_name (config);
      McpServerConfig *effective = mcp_settings_lookup (current_settings (self), name);
      g_autofree char *description = NULL;

      /* Translators: the first %s is a server name, the others are scopes
       * ("User", "Project", "Local"). */
      description = g_strdup_printf (_("The “%s” entry of the %s settings is not used: "
                                       "the %s settings have a server with the same name, "
                                       "which wins."),
                                     name,
                                     plugboard_scope_label (mcp_server_config_get_scope (config)),
                                     effective ? plugboard_scope_label (mcp_server_config_get_scope (effective)) : "");
      adw_status_page_set_description (self->shadowed_page, description);
      gtk_actionable_set_action_target (GTK_ACTIONABLE (self->shadowed_button), "s", name);
      gtk_actionable_set_action_name (GTK_ACTIONABLE (self->shadowed_button), "win.show-server");
      gtk_stack_set_visible_child_name (self->content_stack, "shadowed");
      adw_window_title_set_title (self->content_title, name);
      adw_window_title_set_subtitle (self->content_title,
                                     plugboard_scope_label (mcp_server_config_get_scope (config)));
      return;
    }

  if (adw_leaflet_get_folded (self->leaflet) &&
      adw_leaflet_get_visible_child (self->leaflet) == self->content_box &&
      g_strcmp0 (gtk_stack_get_visible_child_name (self->content_stack), "empty") == 0)
    adw_leaflet_set_visible_child (self->leaflet, self->sidebar);
  gtk_stack_set_visible_child_name (self->content_stack, "none");
  adw_window_title_set_title (self->content_title, "");
  adw_window_title_set_subtitle (self->content_title, "");
}

/* ------------------------------------------------------------------------ */
/* Approvals                                                                */

static void
present_approval_dialog (PlugboardWindow *self)
{
  PlugboardApprovalDialog *dialog;

  if (self->project == NULL)
    return;

  dialog = plugboard_approval_dialog_new (GTK_WINDOW (self), current_settings (self));
  gtk_window_present (GTK_WINDOW (dialog));
}

/* A settings file that cannot be used at all (it does not parse, or is
 * not a regular file) is said in the sidebar: its servers are missing. */
static void
update_problems (PlugboardWindow *self)
{
  g_autoptr(GString) text = g_string_new (NULL);
  GPtrArray *problems = NULL;

  if (self->project != NULL && mcp_project_get_loaded (self->project))
    problems = mcp_settings_get_problems (current_settings (self));

  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      const McpSettingsProblem *problem = g_ptr_array_index (problems, i);

      if (g_strcmp0 (problem->json_path, "$") != 0)
        continue;
      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, problem->message);
    }

  gtk_label_set_label (self->problem_label, text->str);
  gtk_revealer_set_reveal_child (self->problem_revealer, text->len > 0);
}

static void
plugboard_window_update_approvals (PlugboardWindow *self)
{
  g_auto(GStrv) pending = NULL;
  guint n = 0;

  update_problems (self);

  if (self->project != NULL && mcp_project_get_loaded (self->project))
    {
      pending = mcp_settings_dup_pending_approvals (current_settings (self));
      n = pending ? g_strv_length (pending) : 0;
    }

  if (n > 0)
    {
      g_autofree char *text = NULL;

      text = g_strdup_printf (ngettext ("%u project server awaits your approval",
                                        "%u project servers await your approval", n),
                              n);
      gtk_label_set_label (self->approval_label, text);
    }

  gtk_revealer_set_reveal_child (self->approval_revealer, n > 0);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self),
                                                                          "review-approvals")),
                               n > 0);

  if (n > 0 && !self->approval_asked)
    {
      self->approval_asked = TRUE;
      present_approval_dialog (self);
    }
}

static void
on_settings_changed_cb (PlugboardWindow *self)
{
  plugboard_window_update_approvals (self);
  plugboard_window_update_content (self);
}

/* ------------------------------------------------------------------------ */
/* The project                                                              */

static void
remember_project (PlugboardWindow *self,
                  const char      *dir)
{
  g_auto(GStrv) recent = NULL;
  g_autoptr(GStrvBuilder) builder = NULL;
  g_auto(GStrv) updated = NULL;
  guint n = 1;

  if (self->settings == NULL)
    return;

  g_settings_set_string (self->settings, "last-project", dir ? dir : "");
  if (dir == NULL)
    return;

  recent = g_settings_get_strv (self->settings, "recent-projects");
  builder = g_strv_builder_new ();
  g_strv_builder_add (builder, dir);
  for (guint i = 0; recent[i] != NULL && n < MAX_RECENT_PROJECTS; i++)
    {
      if (g_strcmp0 (recent[i], dir) == 0)
        continue;
      g_strv_builder_add (builder, recent[i]);
      n++;
    }
  updated = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "recent-projects", (const char * const *) updated);
}

static void
on_project_loaded_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(PlugboardWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_project_load_finish (MCP_PROJECT (object), result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      show_error_toast (self, error);
    }

  if (MCP_PROJECT (object) != self->project)
    return;

  plugboard_window_update_approvals (self);
  plugboard_window_update_content (self);
}

static void
update_project_actions (PlugboardWindow *self)
{
  static const char * const actions[] = {
    "add-server", "import-servers", "add-example-server", "reconnect-server",
    "enable-server", "disable-server", "edit-server", "duplicate-server",
    "move-server", "remove-server", "sign-in", "cancel-sign-in", "sign-out",
    "approve-server", "reject-server", "show-server", "reconnect-all",
    "reconnect-selected", "undo-remove",
  };
  gboolean has_project = self->project != NULL;

  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    {
      GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), actions[i]);

      if (action != NULL)
        g_simple_action_set_enabled (G_SIMPLE_ACTION (action), has_project);
    }
}

static void
cancel_all_sign_ins (PlugboardWindow *self)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->sign_ins);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_cancellable_cancel (value);
  g_hash_table_remove_all (self->sign_ins);
  g_hash_table_remove_all (self->sign_in_errors);
  g_hash_table_remove_all (self->sign_in_urls);
  g_hash_table_remove_all (self->removed);
}

void
plugboard_window_set_project (PlugboardWindow *self,
                              McpProject      *project)
{
  g_autofree char *label = NULL;

  g_return_if_fail (PLUGBOARD_IS_WINDOW (self));
  g_return_if_fail (!project || MCP_IS_PROJECT (project));

  if (self->project == project)
    return;

  if (self->project != NULL)
    {
      g_signal_handlers_disconnect_by_data (mcp_project_get_settings (self->project), self);
      g_signal_handlers_disconnect_by_data (self->project, self);
      register_request_handlers (self, self->project, FALSE);
    }

  /* The tool shown belongs to the old project. */
  hide_tool (self);
  plugboard_tool_page_set_tool (self->tool_page, NULL);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  cancel_all_sign_ins (self);
  g_clear_pointer (&self->selected_name, g_free);
  self->approval_asked = FALSE;

  plugboard_server_page_set_connection (self->server_page, NULL);
  g_set_object (&self->project, project);
  gtk_filter_list_model_set_model (self->filter_model,
                                   project ? mcp_project_get_servers (project) : NULL);
  plugboard_tool_list_set_tools (self->all_tool_list,
                                 project ? G_LIST_MODEL (mcp_project_get_tool_pool (project)) : NULL);
  if (project != NULL)
    on_permissions_changed_cb (self);
  else
    plugboard_server_page_set_tool_pool (self->server_page, NULL, NULL);

  label = project_display_name (project);
  gtk_menu_button_set_label (self->project_button, label);
  if (project != NULL && mcp_project_get_project_dir (project) != NULL)
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->project_button),
                                 mcp_project_get_project_dir (project));
  else
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->project_button), _("Switch Project"));
  gtk_window_set_title (GTK_WINDOW (self), _("Plugboard"));

  update_project_actions (self);

  if (project != NULL)
    {
      g_signal_connect_object (mcp_project_get_settings (project), "changed",
                               G_CALLBACK (on_settings_changed_cb), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (project, "notify::permissions",
                               G_CALLBACK (on_permissions_changed_cb), self,
                               G_CONNECT_SWAPPED);
      /* Before the project connects its servers: capabilities are declared
       * when a connection starts. */
      register_request_handlers (self, project, TRUE);
      remember_project (self, mcp_project_get_project_dir (project));

      if (!mcp_project_get_loaded (project))
        mcp_project_load_async (project, self->cancellable, on_project_loaded_cb,
                                g_object_ref (self));
    }

  plugboard_window_update_approvals (self);
  plugboard_window_update_content (self);
}

McpProject *
plugboard_window_get_project (PlugboardWindow *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_WINDOW (self), NULL);

  return self->project;
}

gboolean
plugboard_window_show_server (PlugboardWindow *self,
                              const char      *name)
{
  guint position;

  g_return_val_if_fail (PLUGBOARD_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  position = find_position (self, name);
  if (position == GTK_INVALID_LIST_POSITION && self->search_text != NULL)
    {
      /* Hidden by the search: clear it. */
      gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
      on_search_changed_cb (self, self->search_entry);
      position = find_position (self, name);
    }

  if (position == GTK_INVALID_LIST_POSITION)
    return FALSE;

  /* The server's page, even when a tool of that server was showing. */
  hide_tool (self);
  g_free (self->selected_name);
  self->selected_name = g_strdup (name);
  gtk_single_selection_set_selected (self->selection, position);
  adw_leaflet_set_visible_child (self->leaflet, self->content_box);
  plugboard_window_update_content (self);

  return TRUE;
}

static void
open_folder (PlugboardWindow *self,
             const char      *dir)
{
  g_autoptr(McpProject) project = NULL;
  const char *user_config_dir = NULL;

  if (self->project != NULL)
    {
      const char *current = mcp_project_get_project_dir (self->project);

      if (g_strcmp0 (current, dir) == 0)
        return;
      user_config_dir = mcp_settings_get_user_config_dir (current_settings (self));
    }

  project = mcp_project_new (dir, user_config_dir);
  plugboard_window_set_project (self, project);
}

/* ------------------------------------------------------------------------ */
/* Project selector                                                         */

static void
on_project_popover_show_cb (PlugboardWindow *self)
{
  g_auto(GStrv) recent = NULL;
  GtkWidget *child;
  guint shown = 0;
  const char *current = self->project ? mcp_project_get_project_dir (self->project) : NULL;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->recent_list))) != NULL)
    gtk_list_box_remove (self->recent_list, child);

  if (self->settings != NULL)
    recent = g_settings_get_strv (self->settings, "recent-projects");

  for (guint i = 0; recent != NULL && recent[i] != NULL; i++)
    {
      g_autofree char *basename = NULL;
      g_autofree char *escaped_path = NULL;
      GtkWidget *row;

      if (!g_file_test (recent[i], G_FILE_TEST_IS_DIR))
        continue;

      basename = g_path_get_basename (recent[i]);
      escaped_path = g_markup_escape_text (recent[i], -1);
      row = adw_action_row_new ();
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), basename);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), escaped_path);
      adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 1);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      g_object_set_data_full (G_OBJECT (row), "folder", g_strdup (recent[i]), g_free);
      if (g_strcmp0 (current, recent[i]) == 0)
        adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                                   gtk_image_new_from_icon_name ("object-select-symbolic"));
      gtk_list_box_append (self->recent_list, row);
      shown++;
    }

  gtk_widget_set_visible (GTK_WIDGET (self->recent_list), shown > 0);
  gtk_widget_set_visible (self->recent_title, shown > 0);
}

static void
on_recent_row_activated_cb (PlugboardWindow *self,
                            GtkListBoxRow   *row)
{
  const char *folder = g_object_get_data (G_OBJECT (row), "folder");

  gtk_popover_popdown (self->project_popover);
  if (folder != NULL)
    open_folder (self, folder);
}

static void
on_chooser_response_cb (PlugboardWindow      *self,
                        int                   response,
                        GtkFileChooserNative *chooser)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      if (file != NULL && g_file_peek_path (file) != NULL)
        open_folder (self, g_file_peek_path (file));
    }

  g_clear_object (&self->chooser);
}

/* ------------------------------------------------------------------------ */
/* Actions                                                                  */

typedef struct
{
  PlugboardWindow *self;
  McpProjectOp      op;
  char            *name;
} OpData;

static void
op_data_free (OpData *data)
{
  g_clear_object (&data->self);
  g_free (data->name);
  g_free (data);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (OpData, op_data_free)

static void
on_op_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(OpData) data = user_data;
  PlugboardWindow *self = data->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *new_name = NULL;
  g_autofree char *title = NULL;

  if (!mcp_project_run_finish (MCP_PROJECT (object), result, &new_name, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      if (data->op == MCP_PROJECT_OP_REMOVE)
        g_hash_table_remove (self->removed, data->name);
      show_error_toast (self, error);
      return;
    }

  switch (data->op)
    {
    case MCP_PROJECT_OP_DUPLICATE:
      title = g_strdup_printf (_("Duplicated as “%s”"), new_name);
      show_toast (self, title);
      plugboard_window_show_server (self, new_name);
      break;

    case MCP_PROJECT_OP_REMOVE:
      {
        Removed *removed = g_hash_table_lookup (self->removed, data->name);
        AdwToast *toast;

        if (removed != NULL && removed->tried)
          title = g_strdup_printf (_("Discarded “%s”"), data->name);
        else
          title = g_strdup_printf (_("Removed “%s”"), data->name);
        toast = adw_toast_new (title);
        adw_toast_set_button_label (toast, _("_Undo"));
        adw_toast_set_action_name (toast, "win.undo-remove");
        adw_toast_set_action_target (toast, "s", data->name);
        adw_toast_overlay_add_toast (self->toast_overlay, toast);
        break;
      }

    case MCP_PROJECT_OP_SIGN_OUT:
      title = g_strdup_printf (_("Signed out of “%s”"), data->name);
      show_toast (self, title);
      break;

    case MCP_PROJECT_OP_RECONNECT:
    case MCP_PROJECT_OP_ENABLE:
    case MCP_PROJECT_OP_DISABLE:
    case MCP_PROJECT_OP_APPROVE:
    case MCP_PROJECT_OP_REJECT:
    default:
      break;
    }

  plugboard_window_update_approvals (self);
  plugboard_window_update_content (self);
}

static void
run_op (PlugboardWindow *self,
        McpProjectOp     op,
        const char      *name)
{
  OpData *data;

  if (self->project == NULL)
    return;

  data = g_new0 (OpData, 1);
  data->self = g_object_ref (self);
  data->op = op;
  data->name = g_strdup (name);
  mcp_project_run_async (self->project, op, name, self->cancellable, on_op_done_cb, data);
}

#define OP_ACTION(func, op)                                        \
  static void                                                      \
  func (GSimpleAction *action,                                     \
        GVariant      *parameter,                                  \
        gpointer       user_data)                                  \
  {                                                                \
    run_op (user_data, op, g_variant_get_string (parameter, NULL)); \
  }

OP_ACTION (reconnect_server_action, MCP_PROJECT_OP_RECONNECT)
OP_ACTION (enable_server_action, MCP_PROJECT_OP_ENABLE)
OP_ACTION (disable_server_action, MCP_PROJECT_OP_DISABLE)
OP_ACTION (duplicate_server_action, MCP_PROJECT_OP_DUPLICATE)
OP_ACTION (approve_server_action, MCP_PROJECT_OP_APPROVE)
OP_ACTION (reject_server_action, MCP_PROJECT_OP_REJECT)
OP_ACTION (sign_out_action, MCP_PROJECT_OP_SIGN_OUT)

#undef OP_ACTION

static void
remove_server_action (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  const char *name = g_variant_get_string (parameter, NULL);
  McpServerConfig *config;
  Removed *removed;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonNode) copy = NULL;

  if (self->project == NULL)
    return;

  config = mcp_settings_lookup (current_settings (self), name);
  if (config == NULL)
    config = mcp_project_lookup_unsaved (self->project, name);
  if (config != NULL)
    {
      /* What Undo puts back: the entry as the file has it now (or as it
       * was tried). */
      node = json_node_init_object (json_node_alloc (), mcp_server_config_get_json (config));
      copy = json_node_copy (node);
      removed = g_new0 (Removed, 1);
      removed->scope = mcp_server_config_get_scope (config);
      removed->entry = json_object_ref (json_node_get_object (copy));
      removed->tried = !mcp_server_config_get_saved (config);
      g_hash_table_replace (self->removed, g_strdup (name), removed);
    }

  run_op (self, MCP_PROJECT_OP_REMOVE, name);
}

static void
on_restored_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(OpData) data = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_project_restore_finish (MCP_PROJECT (object), result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_error_toast (data->self, error);
      return;
    }

  plugboard_window_show_server (data->self, data->name);
}

static void
undo_remove_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  const char *name = g_variant_get_string (parameter, NULL);
  g_autofree char *key = NULL;
  Removed *removed = NULL;
  OpData *data;

  if (self->project == NULL ||
      !g_hash_table_steal_extended (self->removed, name, (gpointer *) &key, (gpointer *) &removed))
    return;

  if (removed->tried)
    {
      g_autoptr(GError) error = NULL;

      if (mcp_project_try_server (self->project, name, removed->entry, &error))
        plugboard_window_show_server (self, name);
      else
        show_error_toast (self, error);
      removed_free (removed);
      return;
    }

  data = g_new0 (OpData, 1);
  data->self = g_object_ref (self);
  data->name = g_strdup (name);
  mcp_project_restore_async (self->project, name, removed->scope, removed->entry,
                             self->cancellable, on_restored_cb, data);
  removed_free (removed);
}

static void
on_moved_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(OpData) data = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_project_move_finish (MCP_PROJECT (object), result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_error_toast (data->self, error);
      return;
    }

  plugboard_window_show_server (data->self, data->name);
}

static void
move_server_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  const char *name = NULL;
  const char *to = NULL;
  McpConfigScope scope;
  OpData *data;

  g_variant_get (parameter, "(&s&s)", &name, &to);
  if (self->project == NULL || !scope_from_string (to, &scope))
    return;

  data = g_new0 (OpData, 1);
  data->self = g_object_ref (self);
  data->name = g_strdup (name);
  mcp_project_move_async (self->project, name, scope, self->cancellable, on_moved_cb, data);
}

static McpConfigScope
default_scope (PlugboardWindow *self)
{
  g_autofree char *text = NULL;
  McpConfigScope scope = MCP_CONFIG_SCOPE_USER;

  if (self->settings != NULL)
    text = g_settings_get_string (self->settings, "default-scope");
  if (text == NULL || !scope_from_string (text, &scope))
    scope = MCP_CONFIG_SCOPE_USER;

  /* No project folder: only the user scope applies. */
  if (self->project != NULL && mcp_project_get_project_dir (self->project) == NULL)
    scope = MCP_CONFIG_SCOPE_USER;

  return scope;
}

/* A try that ended: saved under another name, or tried again so. */
static void
discard_try (PlugboardWindow *self,
             const char      *tried,
             const char      *name)
{
  if (tried == NULL || g_strcmp0 (tried, name) == 0 || self->project == NULL ||
      mcp_project_lookup_unsaved (self->project, tried) == NULL)
    return;

  mcp_project_run_async (self->project, MCP_PROJECT_OP_REMOVE, tried, NULL, NULL, NULL);
}

static void
on_editor_saved_cb (PlugboardServerEditor *editor,
                    const char            *name,
                    int                    scope,
                    PlugboardWindow       *self)
{
  /* saved under its own name, the saved entry takes the try's place by
   * itself (and keeps its connection) */
  discard_try (self, plugboard_server_editor_get_tried_name (editor), name);
  plugboard_window_show_server (self, name);
}

static gboolean
on_editor_try_cb (PlugboardServerEditor  *editor,
                  const char             *name,
                  JsonObject             *entry,
                  GError                **error,
                  PlugboardWindow        *self)
{
  if (self->project == NULL)
    return FALSE;

  if (!mcp_project_try_server (self->project, name, entry, error))
    return FALSE;

  discard_try (self, plugboard_server_editor_get_tried_name (editor), name);
  plugboard_window_show_server (self, name);
  return TRUE;
}

static void
open_editor (PlugboardWindow *self,
             McpServerConfig *config)
{
  PlugboardServerEditor *editor;

  if (self->project == NULL)
    return;

  editor = plugboard_server_editor_new (GTK_WINDOW (self), current_settings (self), config,
                                        default_scope (self));
  g_signal_connect_object (editor, "saved", G_CALLBACK (on_editor_saved_cb), self, 0);
  g_signal_connect_object (editor, "try", G_CALLBACK (on_editor_try_cb), self, 0);
  gtk_window_present (GTK_WINDOW (editor));
}

static void
add_server_action (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  open_editor (user_data, NULL);
}

static void
edit_server_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  McpServerConfig *config;

  if (self->project == NULL)
    return;

  config = mcp_settings_lookup (current_settings (self), g_variant_get_string (parameter, NULL));
  /* a server being tried: the editor saves it */
  if (config == NULL)
    config = mcp_project_lookup_unsaved (self->project, g_variant_get_string (parameter, NULL));
  if (config != NULL)
    open_editor (self, config);
}

static void
on_imported_cb (PlugboardWindow *self,
                guint            count)
{
  g_autofree char *title = NULL;

  if (count == 0)
    return;

  title = g_strdup_printf (ngettext ("Imported %u server", "Imported %u servers", count), count);
  show_toast (self, title);
}

static void
import_servers_action (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  PlugboardImportDialog *dialog;

  if (self->project == NULL)
    return;

  dialog = plugboard_import_dialog_new (GTK_WINDOW (self), current_settings (self), NULL);
  g_signal_connect_object (dialog, "imported", G_CALLBACK (on_imported_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_example_added_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(PlugboardWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;

  if (!mcp_project_add_example_finish (MCP_PROJECT (object), result, &name, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_error_toast (self, error);
      return;
    }

  plugboard_window_show_server (self, name);
}

static void
add_example_server_action (GSimpleAction *action,
                           GVariant      *parameter,
                           gpointer       user_data)
{
  PlugboardWindow *self = user_data;

  if (self->project == NULL)
    return;

  mcp_project_add_example_async (self->project, self->cancellable,
                                 on_example_added_cb, g_object_ref (self));
}

static void
open_project_action (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  PlugboardWindow *self = user_data;

  if (self->chooser != NULL)
    {
      gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
      return;
    }

  gtk_popover_popdown (self->project_popover);
  self->chooser = gtk_file_chooser_native_new (_("Open Project Folder"),
                                               GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                               _("_Open"),
                                               _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (on_chooser_response_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
open_recent_project_action (GSimpleAction *action,
                            GVariant      *parameter,
                            gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  const char *folder = g_variant_get_string (parameter, NULL);

  if (!g_file_test (folder, G_FILE_TEST_IS_DIR))
    {
      g_autofree char *title = g_strdup_printf (_("The folder “%s” does not exist any more"), folder);

      show_toast (self, title);
      return;
    }

  open_folder (self, folder);
}

static void
open_home_action (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  PlugboardWindow *self = user_data;

  gtk_popover_popdown (self->project_popover);
  if (self->project != NULL && mcp_project_get_project_dir (self->project) == NULL)
    return;

  open_folder (self, NULL);
}

static void
review_approvals_action (GSimpleAction *action,
                         GVariant      *parameter,
                         gpointer       user_data)
{
  present_approval_dialog (user_data);
}

static void
show_server_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  plugboard_window_show_server (user_data, g_variant_get_string (parameter, NULL));
}

static void
reconnect_all_action (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  GListModel *manager;
  guint n;

  if (self->project == NULL)
    return;

  manager = G_LIST_MODEL (mcp_project_get_manager (self->project));
  n = g_list_model_get_n_items (manager);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpServerConnection) connection = g_list_model_get_item (manager, i);

      if (mcp_server_connection_get_state (connection) != MCP_SERVER_STATE_DISABLED)
        run_op (self, MCP_PROJECT_OP_RECONNECT, mcp_server_connection_get_name (connection));
    }
}

static void
reconnect_selected_action (GSimpleAction *action,
                           GVariant      *parameter,
                           gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  GObject *item = gtk_single_selection_get_selected_item (self->selection);

  if (MCP_IS_SERVER_CONNECTION (item))
    run_op (self, MCP_PROJECT_OP_RECONNECT, item_name (item));
}

static void
search_action (GSimpleAction *action,
               GVariant      *parameter,
               gpointer       user_data)
{
  PlugboardWindow *self = user_data;

  adw_leaflet_set_visible_child (self->leaflet, self->sidebar);
  /* the search of the list that shows: All Tools has its own */
  if (g_strcmp0 (adw_view_stack_get_visible_child_name (self->sidebar_view_stack), "tools") == 0)
    {
      plugboard_tool_list_focus_search (self->all_tool_list);
      return;
    }
  adw_view_stack_set_visible_child_name (self->sidebar_view_stack, "servers");
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

/* Sign-in -------------------------------------------------------------- */

typedef struct
{
  PlugboardWindow *self;
  char            *name;
  GCancellable    *cancellable;
} SignIn;

static void
sign_in_free (SignIn *sign_in)
{
  g_clear_object (&sign_in->self);
  g_clear_object (&sign_in->cancellable);
  g_free (sign_in->name);
  g_free (sign_in);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SignIn, sign_in_free)

static void
on_open_url_command_done_cb (GObject      *object,
                             GAsyncResult *result,
                             gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  if (!g_subprocess_wait_check_finish (G_SUBPROCESS (object), result, &error))
    g_debug ("PLUGBOARD_TEST_OPEN_URL_COMMAND: %s", error->message);
}

static void
on_show_uri_done_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(PlugboardWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!gtk_show_uri_full_finish (GTK_WINDOW (object), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autoptr(GError) said = g_error_new (MCP_ERROR, MCP_ERROR_FAILED,
                                            _("No browser could be opened (%s): copy the sign-in address "
                                              "from the server’s page into one"),
                                            error->message);

      show_error_toast (self, said);
    }
}

/* A sign-in's address, checked by the engine's URL policy (@host is the
 * host it saw), shown on the server's page and opened in the browser:
 * $BROWSER as the CLI reads it (a command line; the URL goes last, as its
 * own argument, no shell), or the desktop's (gtk_show_uri_full(): a
 * failure is said here, where the page also shows the address to copy;
 * GTK's own "Could not show link" is not). For tests,
 * PLUGBOARD_TEST_OPEN_URL_COMMAND comes first. */
void
plugboard_window_show_sign_in_url (PlugboardWindow *self,
                                   const char      *name,
                                   const char      *url,
                                   const char      *host)
{
  const char *command = g_getenv ("PLUGBOARD_TEST_OPEN_URL_COMMAND");
  g_autofree char *title = NULL;

  g_return_if_fail (PLUGBOARD_IS_WINDOW (self));
  g_return_if_fail (name != NULL && url != NULL);

  /* Translators: the first %s is a server's name, the second the host its sign-in page is at */
  title = g_strdup_printf (_("Opening the sign-in page of “%s” at %s"), name, host);
  show_toast (self, title);
  if (g_hash_table_contains (self->sign_ins, name))
    {
      g_hash_table_replace (self->sign_in_urls, g_strdup (name), g_strdup (url));
      plugboard_window_update_content (self);
    }

  if (command == NULL || command[0] == '\0')
    command = g_getenv ("BROWSER");
  if (command != NULL && command[0] != '\0')
    {
      g_auto(GStrv) argv = NULL;
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
      g_auto(GStrv) full = NULL;
      g_autoptr(GSubprocess) process = NULL;
      g_autoptr(GError) error = NULL;

      if (!g_shell_parse_argv (command, NULL, &argv, &error))
        {
          g_autoptr(GError) said = g_error_new (MCP_ERROR, MCP_ERROR_FAILED,
                                                _("$BROWSER cannot be read as a command line (%s): copy the "
                                                  "sign-in address from the server’s page into a browser"),
                                                error->message);

          show_error_toast (self, said);
          return;
        }
      g_strv_builder_addv (builder, (const char **) argv);
      g_strv_builder_add (builder, url);
      full = g_strv_builder_end (builder);
      process = g_subprocess_newv ((const char * const *) full, G_SUBPROCESS_FLAGS_NONE, &error);
      if (process == NULL)
        {
          g_autoptr(GError) said = g_error_new (MCP_ERROR, MCP_ERROR_FAILED,
                                                _("The browser “%s” could not be started (%s): copy the "
                                                  "sign-in address from the server’s page into one"),
                                                full[0], error->message);

          show_error_toast (self, said);
          return;
        }
      g_subprocess_wait_check_async (process, NULL, on_open_url_command_done_cb, NULL);
      return;
    }

  gtk_show_uri_full (GTK_WINDOW (self), url, GDK_CURRENT_TIME, NULL,
                     on_show_uri_done_cb, g_object_ref (self));
}

static void
on_signed_in_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(SignIn) sign_in = user_data;
  PlugboardWindow *self = sign_in->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *title = NULL;
  gboolean ok;

  ok = mcp_project_sign_in_finish (MCP_PROJECT (object), result, &error);

  /* Only the attempt this window still follows may change what it shows. */
  if (g_hash_table_lookup (self->sign_ins, sign_in->name) == sign_in->cancellable)
    {
      g_hash_table_remove (self->sign_ins, sign_in->name);
      g_hash_table_remove (self->sign_in_urls, sign_in->name);
    }

  if (ok)
    {
      g_hash_table_remove (self->sign_in_errors, sign_in->name);
      title = g_strdup_printf (_("Signed in to “%s”"), sign_in->name);
      show_toast (self, title);
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      if (MCP_PROJECT (object) == self->project)
        {
          title = g_strdup_printf (_("Sign-in to “%s” cancelled"), sign_in->name);
          show_toast (self, title);
        }
    }
  else if (MCP_PROJECT (object) == self->project)
    {
      g_hash_table_replace (self->sign_in_errors, g_strdup (sign_in->name),
                            g_strdup (error->message));
      show_error_toast (self, error);
    }

  plugboard_window_update_content (self);
}

static void
sign_in_action (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  const char *name = g_variant_get_string (parameter, NULL);
  SignIn *sign_in;

  if (self->project == NULL || g_hash_table_contains (self->sign_ins, name))
    return;

  sign_in = g_new0 (SignIn, 1);
  sign_in->self = g_object_ref (self);
  sign_in->name = g_strdup (name);
  sign_in->cancellable = g_cancellable_new ();
  g_hash_table_insert (self->sign_ins, g_strdup (name), g_object_ref (sign_in->cancellable));
  g_hash_table_remove (self->sign_in_errors, name);
  plugboard_window_update_content (self);

  mcp_project_sign_in_async (self->project, name, sign_in->cancellable, on_signed_in_cb, sign_in);
}

static void
cancel_sign_in_action (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  GCancellable *cancellable = g_hash_table_lookup (self->sign_ins, g_variant_get_string (parameter, NULL));

  if (cancellable != NULL)
    g_cancellable_cancel (cancellable);
}

/* Tools ---------------------------------------------------------------- */

static void
show_tool_action (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  const char *visible = gtk_stack_get_visible_child_name (self->content_stack);

  gboolean tools_view = g_strcmp0 (adw_view_stack_get_visible_child_name (self->sidebar_view_stack),
                                   "tools") == 0;

  /* Opened from the server's page (not from All Tools): back returns there. */
  show_tool (self, g_variant_get_string (parameter, NULL),
             !tools_view &&
             (g_strcmp0 (visible, "server") == 0 ||
              (self->showing_tool && self->tool_from_server)));
}

static void
run_tool_action (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  PlugboardWindow *self = user_data;

  if (self->showing_tool)
    plugboard_tool_page_run (self->tool_page);
}


/* The project asks the person through this window's dialogs. */
static void
register_request_handlers (PlugboardWindow *self,
                           McpProject      *project,
                           gboolean         on)
{
  if (!on)
    {
      if (mcp_project_get_interaction (project) == self->interaction)
        mcp_project_set_interaction (project, NULL);
      return;
    }

  if (self->interaction == NULL)
    self->interaction = plugboard_interaction_new (GTK_WINDOW (self));
  mcp_project_set_interaction (project, self->interaction);
}

/* Roots ---------------------------------------------------------------- */

static void
permissions_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  PlugboardWindow *self = user_data;

  if (self->project == NULL)
    return;

  gtk_window_present (GTK_WINDOW (plugboard_permissions_window_new (GTK_WINDOW (self), self->project)));
}

static void
edit_roots_action (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  const char *name = g_variant_get_string (parameter, NULL);
  PlugboardRootsDialog *dialog;

  /* A button of a page showing no server yet has the empty name. */
  if (self->project == NULL || name[0] == '\0')
    return;

  {
    McpServerConnection *connection = mcp_server_manager_lookup (mcp_project_get_manager (self->project), name);
    McpServerConfig *config = connection != NULL ? mcp_server_connection_get_config (connection) : NULL;

    dialog = plugboard_roots_dialog_new (GTK_WINDOW (self),
                                         mcp_project_get_roots (self->project),
                                         name,
                                         config != NULL ? mcp_server_config_get_scope (config)
                                                        : MCP_CONFIG_SCOPE_USER);
  }
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_permissions_changed_cb (PlugboardWindow *self)
{
  McpPermissions *permissions = mcp_project_get_permissions (self->project);

  plugboard_tool_page_set_permissions (self->tool_page, permissions);
  plugboard_tool_list_set_permissions (self->all_tool_list, permissions);
  plugboard_server_page_set_tool_pool (self->server_page,
                                       mcp_project_get_tool_pool (self->project),
                                       permissions);
}

/* "allow", "ask", "deny"; anything else (as "none") is no rule */
static McpRuleList
rule_list_from_name (const char *list)
{
  if (g_str_equal (list, "allow"))
    return MCP_RULE_ALLOW;
  if (g_str_equal (list, "ask"))
    return MCP_RULE_ASK;
  if (g_str_equal (list, "deny"))
    return MCP_RULE_DENY;
  return MCP_RULE_NONE;
}

static void
on_tool_rule_set_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(PlugboardWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_project_set_tool_rule_finish (MCP_PROJECT (object), result, &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    show_error_toast (self, error);
}

/* (qualified name, "none" | "allow" | "ask" | "deny"): the permissions
 * editor of a tool page */
static void
set_tool_rule_action (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  const char *name = NULL;
  const char *list = NULL;
  McpPoolTool *tool;

  g_variant_get (parameter, "(&s&s)", &name, &list);
  if (self->project == NULL)
    return;
  tool = mcp_tool_pool_lookup (mcp_project_get_tool_pool (self->project), name);
  if (tool == NULL)
    return;
  mcp_project_set_tool_rule_async (self->project, tool, rule_list_from_name (list), self->cancellable,
                                   on_tool_rule_set_cb, g_object_ref (self));
}

/* (server name, "none" | "allow" | "ask" | "deny"): the server page's
 * rule for all its tools */
static void
set_server_rule_action (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  PlugboardWindow *self = user_data;
  const char *name = NULL;
  const char *list = NULL;

  g_variant_get (parameter, "(&s&s)", &name, &list);
  if (self->project == NULL || name[0] == '\0')
    return;
  mcp_project_set_server_rule_async (self->project, name, rule_list_from_name (list), self->cancellable,
                                     on_tool_rule_set_cb, g_object_ref (self));
}

/* A message for the person, from a widget that has no place to say it
 * (a refused link). */
static void
toast_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  g_autoptr(GError) said = g_error_new_literal (MCP_ERROR, MCP_ERROR_FAILED,
                                                g_variant_get_string (parameter, NULL));

  show_error_toast (user_data, said);
}

static const GActionEntry win_actions[] = {
  { "toast", toast_action, "s" },
  { "set-tool-rule", set_tool_rule_action, "(ss)" },
  { "set-server-rule", set_server_rule_action, "(ss)" },
  { "add-server", add_server_action },
  { "import-servers", import_servers_action },
  { "add-example-server", add_example_server_action },
  { "open-project", open_project_action },
  { "open-recent-project", open_recent_project_action, "s" },
  { "open-home", open_home_action },
  { "reconnect-server", reconnect_server_action, "s" },
  { "enable-server", enable_server_action, "s" },
  { "disable-server", disable_server_action, "s" },
  { "edit-server", edit_server_action, "s" },
  { "duplicate-server", duplicate_server_action, "s" },
  { "move-server", move_server_action, "(ss)" },
  { "remove-server", remove_server_action, "s" },
  { "undo-remove", undo_remove_action, "s" },
  { "sign-in", sign_in_action, "s" },
  { "cancel-sign-in", cancel_sign_in_action, "s" },
  { "sign-out", sign_out_action, "s" },
  { "approve-server", approve_server_action, "s" },
  { "reject-server", reject_server_action, "s" },
  { "review-approvals", review_approvals_action },
  { "show-server", show_server_action, "s" },
  { "reconnect-all", reconnect_all_action },
  { "reconnect-selected", reconnect_selected_action },
  { "search", search_action },
  { "show-tool", show_tool_action, "s" },
  { "run-tool", run_tool_action },
  { "edit-roots", edit_roots_action, "s" },
  { "permissions", permissions_action },
};

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static gboolean
plugboard_window_close_request (GtkWindow *window)
{
  PlugboardWindow *self = PLUGBOARD_WINDOW (window);

  plugboard_window_save_state (self);

  return GTK_WINDOW_CLASS (plugboard_window_parent_class)->close_request (window);
}

static void
plugboard_window_dispose (GObject *object)
{
  PlugboardWindow *self = PLUGBOARD_WINDOW (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->sign_ins != NULL)
    cancel_all_sign_ins (self);
  if (self->project != NULL)
    {
      g_signal_handlers_disconnect_by_data (mcp_project_get_settings (self->project), self);
      g_signal_handlers_disconnect_by_data (self->project, self);
      register_request_handlers (self, self->project, FALSE);
    }
  g_clear_object (&self->interaction);
  if (self->tool_page != NULL)
    plugboard_tool_page_set_tool (self->tool_page, NULL);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);

  g_clear_handle_id (&self->reselect_id, g_source_remove);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  if (self->server_list != NULL)
    gtk_list_view_set_model (self->server_list, NULL);

  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_WINDOW);

  g_clear_object (&self->selection);
  g_clear_object (&self->filter_model);
  g_clear_object (&self->filter);
  g_clear_object (&self->project);
  g_clear_object (&self->settings);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (plugboard_window_parent_class)->dispose (object);
}

static void
plugboard_window_finalize (GObject *object)
{
  PlugboardWindow *self = PLUGBOARD_WINDOW (object);

  g_clear_pointer (&self->sign_ins, g_hash_table_unref);
  g_clear_pointer (&self->sign_in_errors, g_hash_table_unref);
  g_clear_pointer (&self->sign_in_urls, g_hash_table_unref);
  g_clear_pointer (&self->removed, g_hash_table_unref);
  g_clear_pointer (&self->selected_name, g_free);
  g_clear_pointer (&self->search_text, g_free);

  G_OBJECT_CLASS (plugboard_window_parent_class)->finalize (object);
}

static void
plugboard_window_class_init (PlugboardWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = plugboard_window_dispose;
  object_class->finalize = plugboard_window_finalize;

  window_class->close_request = plugboard_window_close_request;

  g_type_ensure (PLUGBOARD_TYPE_SERVER_PAGE);
  g_type_ensure (PLUGBOARD_TYPE_SERVER_ROW);
  g_type_ensure (PLUGBOARD_TYPE_TOOL_LIST);
  g_type_ensure (PLUGBOARD_TYPE_TOOL_PAGE);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/plugboard/Plugboard/plugboard-window.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, leaflet);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, sidebar);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, header_bar);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, project_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, primary_menu_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, search_entry);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, sidebar_view_stack);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, all_tool_list);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, tool_page);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, approval_revealer);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, approval_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, problem_revealer);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, problem_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, sidebar_stack);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, server_list);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, content_box);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, content_title);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, back_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, content_stack);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, empty_page);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, example_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, server_page);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, shadowed_page);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, shadowed_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, project_popover);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, recent_list);
  gtk_widget_class_bind_template_child (widget_class, PlugboardWindow, recent_title);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_server_list_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_back_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_leaflet_folded_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_project_popover_show_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_recent_row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_all_tools_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_sidebar_view_changed_cb);
}

/* A button of the server page that names a "win." action with a string
 * parameter but has no target yet (no server shown) would make GTK warn
 * about the parameter type as the actions are added; give those an empty
 * name until a server shows. */
static void
give_empty_targets (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      const char *action = GTK_IS_ACTIONABLE (child) ?
        gtk_actionable_get_action_name (GTK_ACTIONABLE (child)) : NULL;

      if (action != NULL && g_str_has_prefix (action, "win.") &&
          gtk_actionable_get_action_target_value (GTK_ACTIONABLE (child)) == NULL)
        {
          for (guint i = 0; i < G_N_ELEMENTS (win_actions); i++)
            if (g_strcmp0 (win_actions[i].name, action + 4) == 0 &&
                g_strcmp0 (win_actions[i].parameter_type, "s") == 0)
              gtk_actionable_set_action_target_value (GTK_ACTIONABLE (child),
                                                      g_variant_new_string (""));
        }

      give_empty_targets (child);
    }
}

static void
plugboard_window_init (PlugboardWindow *self)
{
  g_autoptr(GtkListItemFactory) factory = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->cancellable = g_cancellable_new ();
  self->sign_ins = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->sign_in_errors = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->sign_in_urls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->removed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, removed_free);

  give_empty_targets (GTK_WIDGET (self->server_page));
  give_empty_targets (GTK_WIDGET (self->tool_page));
  g_signal_connect_object (self->tool_page, "run-finished",
                           G_CALLBACK (on_run_finished_cb), self, G_CONNECT_SWAPPED);
  g_action_map_add_action_entries (G_ACTION_MAP (self), win_actions,
                                   G_N_ELEMENTS (win_actions), self);

  self->filter = gtk_custom_filter_new (filter_func, self, NULL);
  self->filter_model = gtk_filter_list_model_new (NULL, g_object_ref (GTK_FILTER (self->filter)));
  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->filter_model)));
  gtk_single_selection_set_autoselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected-item",
                            G_CALLBACK (on_selected_item_cb), self);
  g_signal_connect_swapped (self->selection, "items-changed",
                            G_CALLBACK (on_selection_items_changed_cb), self);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_row_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row_cb), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_row_cb), self);
  gtk_list_view_set_factory (self->server_list, factory);
  gtk_list_view_set_model (self->server_list, GTK_SELECTION_MODEL (self->selection));

  {
    GtkEventController *shortcuts = gtk_shortcut_controller_new ();

    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                          gtk_shortcut_new (gtk_shortcut_trigger_parse_string ("<Control>Return|<Control>KP_Enter"),
                                                            gtk_named_action_new ("win.run-tool")));
    gtk_widget_add_controller (GTK_WIDGET (self), shortcuts);
  }

  gtk_menu_button_set_label (self->project_button, _("Home Folder"));
  update_project_actions (self);

  self->settings = plugboard_window_create_settings ();
  plugboard_window_restore_state (self);

  plugboard_window_update_content (self);
  on_leaflet_folded_cb (self);
}

PlugboardWindow *
plugboard_window_new (GtkApplication *application,
                      McpProject     *project)
{
  PlugboardWindow *self;

  g_return_val_if_fail (GTK_IS_APPLICATION (application), NULL);
  g_return_val_if_fail (!project || MCP_IS_PROJECT (project), NULL);

  self = g_object_new (PLUGBOARD_TYPE_WINDOW,
                       "application", application,
                       NULL);
  plugboard_window_set_project (self, project);

  return self;
}
