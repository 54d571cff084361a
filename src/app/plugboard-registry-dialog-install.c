/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-registry-dialog"

/* PlugboardRegistryDialog: a server's details, the form of its inputs
 * (made from McpRegistryInput), the target, and Install. */

#include "config.h"

#include "plugboard-registry-dialog-private.h"

#include <glib/gi18n.h>

#include "mcp-registry-install.h"
#include "mcp-url-policy.h"
#include "plugboard-common.h"

void
plugboard_registry_dialog_fill_clients (PlugboardRegistryDialog *self)
{
  g_autoptr(GtkStringList) model = gtk_string_list_new (NULL);
  McpClientKind own = mcp_project_get_client (self->project);
  guint n = 0;

  self->clients[n++] = own;
  gtk_string_list_append (model, mcp_client_kind_get_display_name (own));
  for (guint kind = 0; kind < MCP_CLIENT_KIND_COUNT; kind++)
    if (kind != own && (self->present_clients & (1u << kind)) != 0)
      {
        self->clients[n++] = kind;
        gtk_string_list_append (model, mcp_client_kind_get_display_name (kind));
      }

  adw_combo_row_set_model (self->client_row, G_LIST_MODEL (model));
  adw_combo_row_set_selected (self->client_row, 0);
}

static McpClientKind
selected_client (PlugboardRegistryDialog *self)
{
  guint selected = adw_combo_row_get_selected (self->client_row);
  GListModel *model = adw_combo_row_get_model (self->client_row);

  if (model == NULL || selected >= g_list_model_get_n_items (model))
    return mcp_project_get_client (self->project);
  return self->clients[selected];
}

static const McpRegistryChoice *
selected_choice (PlugboardRegistryDialog *self)
{
  GPtrArray *choices;
  guint selected;

  if (self->server == NULL)
    return NULL;

  choices = mcp_registry_server_get_choices (self->server);
  selected = adw_combo_row_get_selected (self->choice_row);
  if (choices == NULL || selected >= choices->len)
    return NULL;
  return g_ptr_array_index (choices, selected);
}

/* ------------------------------------------------------------------------ */
/* The form                                                                 */

/* What the person gave for the input at @index, or NULL (nothing, or a
 * fixed input). */
static char *
dup_input_value (PlugboardRegistryDialog *self,
                 const McpRegistryInput  *input,
                 guint                    index)
{
  GtkWidget *widget;
  g_autofree char *value = NULL;

  /* the form of another choice, or none yet */
  if (self->input_widgets == NULL || index >= self->input_widgets->len)
    return NULL;
  widget = g_ptr_array_index (self->input_widgets, index);
  if (widget == NULL)
    return NULL;

  if (GTK_IS_DROP_DOWN (widget))
    {
      GObject *item = gtk_drop_down_get_selected_item (GTK_DROP_DOWN (widget));
      guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (widget));

      /* the first item of an optional choice is "none" */
      if (item == NULL || (!input->is_required && selected == 0))
        return NULL;
      value = g_strdup (gtk_string_object_get_string (GTK_STRING_OBJECT (item)));
    }
  else if (GTK_IS_SWITCH (widget))
    value = g_strdup (gtk_switch_get_active (GTK_SWITCH (widget)) ? "true" : "false");
  else
    value = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (widget))));

  if (value[0] == '\0')
    return NULL;
  return g_steal_pointer (&value);
}

static GHashTable *
dup_values (PlugboardRegistryDialog  *self,
            const McpRegistryChoice  *choice,
            GString                 **missing)
{
  GHashTable *values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (guint i = 0; choice->inputs != NULL && i < choice->inputs->len; i++)
    {
      const McpRegistryInput *input = g_ptr_array_index (choice->inputs, i);
      g_autofree char *value = dup_input_value (self, input, i);

      if (value != NULL)
        g_hash_table_replace (values, g_strdup (input->name), g_steal_pointer (&value));
      else if (input->is_required && !input->fixed &&
               (input->default_value == NULL || input->default_value[0] == '\0') &&
               missing != NULL)
        {
          if (*missing == NULL)
            *missing = g_string_new (input->name);
          else
            g_string_append_printf (*missing, ", %s", input->name);
        }
    }

  return values;
}

static void
validate (PlugboardRegistryDialog *self)
{
  const McpRegistryChoice *choice = selected_choice (self);
  const char *name = gtk_editable_get_text (GTK_EDITABLE (self->entry_name_row));
  g_autoptr(GString) missing = NULL;
  g_autoptr(GHashTable) values = NULL;
  g_autofree char *problem = NULL;

  if (self->server == NULL)
    return;

  if (choice == NULL)
    problem = g_strdup (_("This server has no package or remote address to install."));
  else if (name[0] == '\0')
    problem = g_strdup (_("Give the server a name."));
  else
    {
      values = dup_values (self, choice, &missing);
      if (missing != NULL)
        /* Translators: %s is a list of settings' names ("API_KEY, REGION") */
        problem = g_strdup_printf (_("Fill in what is required: %s."), missing->str);
    }

  gtk_widget_set_sensitive (self->install_button, problem == NULL);
  gtk_widget_set_tooltip_text (self->install_button, problem);
  gtk_widget_remove_css_class (GTK_WIDGET (self->install_message_label), "error");
  gtk_label_set_text (self->install_message_label, problem != NULL ? problem : "");
  gtk_widget_set_visible (GTK_WIDGET (self->install_message_label), problem != NULL);
}

static void
clear_form (PlugboardRegistryDialog *self)
{
  for (guint i = 0; self->input_rows != NULL && i < self->input_rows->len; i++)
    adw_preferences_group_remove (self->inputs_group, g_ptr_array_index (self->input_rows, i));
  g_clear_pointer (&self->input_rows, g_ptr_array_unref);
  g_clear_pointer (&self->input_widgets, g_ptr_array_unref);
}

static GtkWidget *
input_widget (PlugboardRegistryDialog *self,
              const McpRegistryInput  *input)
{
  GtkWidget *widget;

  if (input->choices != NULL && input->choices[0] != NULL)
    {
      g_autoptr(GtkStringList) model = gtk_string_list_new (NULL);
      guint selected = 0;
      guint n = 0;

      if (!input->is_required)
        {
          gtk_string_list_append (model, _("(None)"));
          n++;
        }
      for (guint i = 0; input->choices[i] != NULL; i++, n++)
        {
          gtk_string_list_append (model, input->choices[i]);
          if (g_strcmp0 (input->choices[i], input->default_value) == 0)
            selected = n;
        }
      widget = gtk_drop_down_new (G_LIST_MODEL (g_steal_pointer (&model)), NULL);
      gtk_drop_down_set_selected (GTK_DROP_DOWN (widget), selected);
      g_signal_connect_object (widget, "notify::selected", G_CALLBACK (validate), self,
                               G_CONNECT_SWAPPED);
    }
  else if (g_strcmp0 (input->format, "boolean") == 0)
    {
      widget = gtk_switch_new ();
      gtk_switch_set_active (GTK_SWITCH (widget), g_strcmp0 (input->default_value, "true") == 0);
      g_signal_connect_object (widget, "notify::active", G_CALLBACK (validate), self,
                               G_CONNECT_SWAPPED);
    }
  else
    {
      widget = input->is_secret ? gtk_password_entry_new () : gtk_entry_new ();
      if (input->is_secret)
        gtk_password_entry_set_show_peek_icon (GTK_PASSWORD_ENTRY (widget), TRUE);
      else if (input->default_value != NULL)
        gtk_editable_set_text (GTK_EDITABLE (widget), input->default_value);
      gtk_editable_set_width_chars (GTK_EDITABLE (widget), 18);
      gtk_widget_set_hexpand (widget, TRUE);
      g_signal_connect_object (widget, "changed", G_CALLBACK (validate), self,
                               G_CONNECT_SWAPPED);
    }

  gtk_widget_set_valign (widget, GTK_ALIGN_CENTER);
  gtk_widget_set_name (widget, input->name);
  gtk_accessible_update_property (GTK_ACCESSIBLE (widget),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, input->name,
                                  GTK_ACCESSIBLE_PROPERTY_REQUIRED, input->is_required,
                                  -1);
  return widget;
}

static void
build_form (PlugboardRegistryDialog *self)
{
  const McpRegistryChoice *choice = selected_choice (self);
  gboolean any_secret = FALSE;

  clear_form (self);
  self->input_widgets = g_ptr_array_new ();
  self->input_rows = g_ptr_array_new ();

  for (guint i = 0; choice != NULL && choice->inputs != NULL && i < choice->inputs->len; i++)
    {
      const McpRegistryInput *input = g_ptr_array_index (choice->inputs, i);
      g_autofree char *subtitle = NULL;
      GtkWidget *row;
      GtkWidget *widget;

      if (input->fixed)
        {
          g_ptr_array_add (self->input_widgets, NULL);
          continue;
        }

      widget = input_widget (self, input);
      any_secret |= input->is_secret;
      row = adw_action_row_new ();
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), input->name);
      if (input->is_required)
        subtitle = g_strdup_printf (_("Required. %s"), input->description != NULL ? input->description : "");
      else
        subtitle = g_strdup (input->description != NULL ? input->description : "");
      g_strstrip (subtitle);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 3);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row), widget);
      if (input->is_required)
        gtk_widget_add_css_class (row, "required");
      adw_preferences_group_add (self->inputs_group, row);

      g_ptr_array_add (self->input_widgets, widget);
      g_ptr_array_add (self->input_rows, row);
    }

  gtk_widget_set_visible (GTK_WIDGET (self->inputs_group), self->input_rows->len > 0);
  adw_preferences_group_set_description (self->inputs_group,
                                         any_secret ? _("Secrets given to Plugboard’s own settings are kept in the keyring; another client keeps them in its file.")
                                                    : NULL);
  validate (self);
}

static void
on_choice_changed_cb (PlugboardRegistryDialog *self)
{
  if (self->server != NULL)
    build_form (self);
}

/* ------------------------------------------------------------------------ */
/* Details                                                                  */

static void
open_link (PlugboardRegistryDialog *self,
           const char              *url)
{
  g_autoptr(GError) refused = NULL;

  if (url == NULL)
    return;

  if (!mcp_url_policy_check (url, MCP_URL_USE_BROWSER, NULL, &refused))
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->install_message_label), "error");
      gtk_label_set_text (self->install_message_label, refused->message);
      gtk_widget_set_visible (GTK_WIDGET (self->install_message_label), TRUE);
      return;
    }

  plugboard_show_url (GTK_WINDOW (self), url);
}

static void
on_repository_clicked_cb (PlugboardRegistryDialog *self)
{
  if (self->server != NULL)
    open_link (self, mcp_registry_server_get_repository_url (self->server));
}

static void
on_website_clicked_cb (PlugboardRegistryDialog *self)
{
  if (self->server != NULL)
    open_link (self, mcp_registry_server_get_website_url (self->server));
}

void
plugboard_registry_dialog_show_server (PlugboardRegistryDialog *self,
                                       McpRegistryServer       *server)
{
  g_autoptr(GtkStringList) choices = gtk_string_list_new (NULL);
  g_autofree char *entry_name = NULL;
  g_autofree char *name_line = NULL;
  const char *title;
  const char *status;
  GPtrArray *list;

  g_set_object (&self->server, server);
  if (server == NULL)
    {
      clear_form (self);
      return;
    }

  title = mcp_registry_server_get_title (server);
  status = mcp_registry_server_get_status (server);
  gtk_label_set_text (self->title_label,
                      title != NULL && title[0] != '\0' ? title : mcp_registry_server_get_name (server));
  /* Translators: a server's name in the registry and its version */
  name_line = g_strdup_printf (_("%s · version %s"), mcp_registry_server_get_name (server),
                               mcp_registry_server_get_version (server));
  gtk_label_set_text (self->name_label, name_line);
  gtk_label_set_text (self->description_label, mcp_registry_server_get_description (server));
  if (g_strcmp0 (status, "deprecated") == 0)
    gtk_label_set_text (self->status_label, _("Deprecated: its authors advise against installing it."));
  else if (g_strcmp0 (status, "deleted") == 0)
    gtk_label_set_text (self->status_label, _("Deleted from the registry."));
  gtk_widget_set_visible (GTK_WIDGET (self->status_label),
                          status != NULL && g_strcmp0 (status, "active") != 0);
  gtk_widget_set_visible (self->repository_button,
                          mcp_registry_server_get_repository_url (server) != NULL);
  gtk_widget_set_visible (self->website_button,
                          mcp_registry_server_get_website_url (server) != NULL);

  list = mcp_registry_server_get_choices (server);
  for (guint i = 0; list != NULL && i < list->len; i++)
    gtk_string_list_append (choices, ((McpRegistryChoice *) g_ptr_array_index (list, i))->label);

  /* Setting the model would rebuild the form for the old server. */
  g_signal_handlers_block_by_func (self->choice_row, on_choice_changed_cb, self);
  adw_combo_row_set_model (self->choice_row, G_LIST_MODEL (choices));
  adw_combo_row_set_selected (self->choice_row, 0);
  g_signal_handlers_unblock_by_func (self->choice_row, on_choice_changed_cb, self);

  clear_form (self);
  entry_name = mcp_registry_server_dup_entry_name (server);
  gtk_editable_set_text (GTK_EDITABLE (self->entry_name_row), entry_name != NULL ? entry_name : "");

  build_form (self);
  plugboard_registry_dialog_show_page (self, "details");

  /* the first thing to fill in, rather than a selectable label selecting
   * itself */
  for (guint i = 0; i < self->input_widgets->len; i++)
    if (g_ptr_array_index (self->input_widgets, i) != NULL)
      {
        gtk_widget_grab_focus (g_ptr_array_index (self->input_widgets, i));
        return;
      }
  gtk_widget_grab_focus (GTK_WIDGET (self->choice_row));
}

/* ------------------------------------------------------------------------ */
/* Install                                                                  */

static void
on_installed_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(PlugboardRegistryDialog) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) notes = NULL;
  g_autofree char *name = mcp_registry_install_finish (result, &notes, &error);
  g_autoptr(GString) description = NULL;
  McpClientKind client;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  gtk_spinner_set_spinning (self->install_spinner, FALSE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->details_page), TRUE);
  if (name == NULL)
    {
      gtk_widget_set_sensitive (self->install_button, TRUE);
      gtk_widget_add_css_class (GTK_WIDGET (self->install_message_label), "error");
      gtk_label_set_text (self->install_message_label, error->message);
      gtk_widget_set_visible (GTK_WIDGET (self->install_message_label), TRUE);
      return;
    }

  client = selected_client (self);
  description = g_string_new (NULL);
  /* Translators: a server's name and an MCP client's name */
  g_string_append_printf (description, _("“%s” is in %s’s settings."), name,
                          mcp_client_kind_get_display_name (client));
  for (guint i = 0; notes != NULL && i < notes->len; i++)
    g_string_append_printf (description, "\n• %s", (const char *) g_ptr_array_index (notes, i));
  adw_status_page_set_description (self->installed_page, description->str);
  plugboard_registry_dialog_show_page (self, "installed");
  plugboard_registry_dialog_emit_installed (self, name, client);
}

static void
on_install_clicked_cb (PlugboardRegistryDialog *self)
{
  const McpRegistryChoice *choice = selected_choice (self);
  g_autoptr(GHashTable) values = NULL;
  g_autoptr(GString) missing = NULL;
  g_autofree char *name = NULL;

  if (choice == NULL)
    return;

  values = dup_values (self, choice, &missing);
  if (missing != NULL)
    {
      validate (self);
      return;
    }

  name = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->entry_name_row))));
  g_cancellable_cancel (self->install_cancellable);
  g_clear_object (&self->install_cancellable);
  self->install_cancellable = g_cancellable_new ();

  gtk_widget_set_sensitive (self->install_button, FALSE);
  /* an entry made insensitive while focused never gets its focus-out */
  gtk_window_set_focus (GTK_WINDOW (self), NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->details_page), FALSE);
  gtk_spinner_set_spinning (self->install_spinner, TRUE);
  gtk_widget_remove_css_class (GTK_WIDGET (self->install_message_label), "error");
  gtk_label_set_text (self->install_message_label, _("Installing…"));
  gtk_widget_set_visible (GTK_WIDGET (self->install_message_label), TRUE);

  mcp_registry_install_async (self->project, self->server, choice, values,
                              name[0] != '\0' ? name : NULL,
                              selected_client (self),
                              (McpConfigScope) adw_combo_row_get_selected (self->scope_row),
                              self->install_cancellable, on_installed_cb, g_object_ref (self));
}

void
plugboard_registry_dialog_class_install_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_callback (widget_class, validate);
  gtk_widget_class_bind_template_callback (widget_class, on_choice_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_repository_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_website_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_install_clicked_cb);
}
