/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-resource-browser"

#include "config.h"

#include "plugboard-resource-browser-private.h"

#include <glib/gi18n.h>

#include "mcp-processed-result.h"
#include "mcp-uri-template.h"
#include "plugboard-completion.h"

/* The chosen resource or template: its detail, its variables and Read. */

static GHashTable *
variable_values (PlugboardResourceBrowser *self,
                 GtkWidget                *except)
{
  GHashTable *values = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);

  for (guint i = 0; i < self->variable_entries->len; i++)
    {
      GtkWidget *entry = g_ptr_array_index (self->variable_entries, i);

      if (entry != except)
        g_hash_table_insert (values, self->variables[i],
                             g_strdup (gtk_editable_get_text (GTK_EDITABLE (entry))));
    }

  return values;
}

static JsonObject *
completion_context_cb (GtkWidget *editable,
                       gpointer   user_data)
{
  PlugboardResourceBrowser *self = user_data;
  g_autoptr(GHashTable) values = variable_values (self, editable);
  JsonObject *context = json_object_new ();
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, values);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (*(const char *) value != '\0')
      json_object_set_string_member (context, key, value);

  return context;
}

/* The URI Read reads: the resource's, or the template expanded. */
static char *
dup_read_uri (PlugboardResourceBrowser *self)
{
  GObject *selected = plugboard_list_detail_get_selected (PLUGBOARD_LIST_DETAIL (self));
  g_autoptr(GHashTable) values = NULL;

  if (selected == NULL)
    return NULL;
  if (MCP_IS_RESOURCE (selected))
    return g_strdup (plugboard_resource_browser_item_uri (selected));

  values = variable_values (self, NULL);
  return mcp_uri_template_expand (plugboard_resource_browser_item_uri (selected), values);
}

void
plugboard_resource_browser_update_read_button (PlugboardResourceBrowser *self)
{
  g_autoptr(GString) missing = g_string_new (NULL);
  g_autofree char *missing_tooltip = NULL;

  for (guint i = 0; i < self->variable_entries->len; i++)
    {
      GtkEntry *entry = g_ptr_array_index (self->variable_entries, i);

      if (*gtk_editable_get_text (GTK_EDITABLE (entry)) == '\0')
        g_string_append_printf (missing, "%s%s", missing->len > 0 ? ", " : "", self->variables[i]);
    }

  if (MCP_IS_RESOURCE_TEMPLATE (plugboard_list_detail_get_selected (PLUGBOARD_LIST_DETAIL (self))))
    {
      g_autofree char *uri = dup_read_uri (self);

      gtk_label_set_text (self->expanded_label, uri);
    }

  if (missing->len > 0)
    /* Translators: the argument lists the template's empty variables. */
    missing_tooltip = g_strdup_printf (_("Fill in %s first"), missing->str);
  plugboard_list_detail_update_action (PLUGBOARD_LIST_DETAIL (self), self->read_cancellable != NULL,
                                       missing_tooltip);
}

static void
on_variable_changed_cb (PlugboardResourceBrowser *self)
{
  plugboard_resource_browser_update_read_button (self);
}

static void
clear_variables (PlugboardResourceBrowser *self)
{
  GtkWidget *child;

  g_ptr_array_set_size (self->variable_entries, 0);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->variables_grid))) != NULL)
    gtk_grid_remove (self->variables_grid, child);
  g_clear_pointer (&self->variables, g_strfreev);
}

static void
build_variables (PlugboardResourceBrowser *self,
                 McpResourceTemplate      *template)
{
  McpServerConnection *connection = plugboard_resource_browser_get_connection (self);

  self->variables = mcp_uri_template_dup_variables (mcp_resource_template_get_uri_template (template));

  for (guint i = 0; self->variables[i] != NULL; i++)
    {
      g_autofree char *mnemonic = g_strdup_printf ("_%s", self->variables[i]);
      GtkWidget *label = gtk_label_new_with_mnemonic (mnemonic);
      GtkWidget *entry = gtk_entry_new ();

      gtk_label_set_xalign (GTK_LABEL (label), 1.0);
      gtk_label_set_mnemonic_widget (GTK_LABEL (label), entry);
      gtk_widget_set_hexpand (entry, TRUE);
      gtk_grid_attach (self->variables_grid, label, 0, i, 1, 1);
      gtk_grid_attach (self->variables_grid, entry, 1, i, 1, 1);
      g_ptr_array_add (self->variable_entries, entry);

      g_signal_connect_object (entry, "changed", G_CALLBACK (on_variable_changed_cb), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (entry, "activate", G_CALLBACK (plugboard_list_detail_activate_action),
                               self, G_CONNECT_SWAPPED);
      if (connection != NULL)
        plugboard_completion_attach (entry, connection, MCP_COMPLETION_RESOURCE,
                                     mcp_resource_template_get_uri_template (template),
                                     self->variables[i], completion_context_cb, self);
    }
}

void
plugboard_resource_browser_show_item (PlugboardListDetail *list,
                                      GObject             *item)
{
  PlugboardResourceBrowser *self = PLUGBOARD_RESOURCE_BROWSER (list);
  const char *description;
  const char *mime_type;
  g_autoptr(GString) meta = g_string_new (NULL);

  g_cancellable_cancel (self->read_cancellable);
  g_clear_object (&self->read_cancellable);
  g_cancellable_cancel (self->subscribe_cancellable);
  g_clear_object (&self->subscribe_cancellable);
  clear_variables (self);
  plugboard_list_detail_show_error (PLUGBOARD_LIST_DETAIL (self), NULL);
  plugboard_result_view_clear (self->result_view);
  gtk_stack_set_visible_child_name (self->result_stack, "empty");

  if (item == NULL)
    return;

  if (MCP_IS_RESOURCE (item))
    {
      McpResource *resource = MCP_RESOURCE (item);
      gint64 size = mcp_resource_get_size (resource);

      gtk_label_set_text (self->title_label, mcp_resource_get_display_name (resource));
      description = mcp_resource_get_description (resource);
      mime_type = mcp_resource_get_mime_type (resource);
      if (mime_type != NULL)
        g_string_append (meta, mime_type);
      if (size >= 0)
        {
          g_autofree char *formatted = g_format_size (size);

          g_string_append_printf (meta, "%s%s", meta->len > 0 ? " · " : "", formatted);
        }
    }
  else
    {
      McpResourceTemplate *template = MCP_RESOURCE_TEMPLATE (item);

      gtk_label_set_text (self->title_label, mcp_resource_template_get_display_name (template));
      description = mcp_resource_template_get_description (template);
      mime_type = mcp_resource_template_get_mime_type (template);
      g_string_append (meta, _("Template"));
      if (mime_type != NULL)
        g_string_append_printf (meta, " · %s", mime_type);
      build_variables (self, template);
    }

  gtk_label_set_text (self->uri_label, plugboard_resource_browser_item_uri (item));
  gtk_label_set_text (self->meta_label, meta->str);
  gtk_widget_set_visible (GTK_WIDGET (self->meta_label), meta->len > 0);
  gtk_label_set_text (self->description_label, description != NULL ? description : "");
  gtk_widget_set_visible (GTK_WIDGET (self->description_label), description != NULL && *description != '\0');
  gtk_widget_set_visible (self->variables_box, MCP_IS_RESOURCE_TEMPLATE (item));

  plugboard_resource_browser_update_read_button (self);
  plugboard_resource_browser_update_subscription (self);
}

/* ------------------------------------------------------------------------ */
/* Reading                                                                  */

static void
processed_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(PlugboardResourceBrowser) self = user_data;
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;

  processed = mcp_tool_result_process_finish (result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  g_clear_object (&self->read_cancellable);
  if (processed == NULL)
    {
      /* Translators: the argument is an error message. */
      g_autofree char *message = g_strdup_printf (_("Could not show the contents: %s"), error->message);

      plugboard_list_detail_show_error (PLUGBOARD_LIST_DETAIL (self), message);
    }
  else
    {
      plugboard_result_view_set_result (self->result_view, NULL, NULL, processed);
      gtk_stack_set_visible_child_name (self->result_stack, "result");
    }
  plugboard_resource_browser_update_read_button (self);
}

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(PlugboardResourceBrowser) self = user_data;
  McpServerConnection *connection = plugboard_resource_browser_get_connection (self);
  g_autoptr(GPtrArray) contents = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  const char *uri = self->read_uri;

  contents = mcp_client_read_resource_finish (MCP_CLIENT (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (contents == NULL)
    {
      g_autofree char *message = NULL;

      g_clear_object (&self->read_cancellable);
      /* Translators: the first argument is a URI, the second an error message. */
      message = g_strdup_printf (_("Could not read %s: %s"), uri != NULL ? uri : "", error->message);
      plugboard_list_detail_show_error (PLUGBOARD_LIST_DETAIL (self), message);
      plugboard_resource_browser_update_read_button (self);
      return;
    }

  /* Shown like a tool's result, so that blobs are saved to files and
   * images scaled the same way. */
  name = g_strdup_printf ("%s-resource", mcp_server_connection_get_name (connection));
  mcp_contents_process_async (contents, name,
                              connection != NULL ? mcp_server_connection_get_max_output_characters (connection) : 0,
                              self->read_cancellable,
                              processed_cb, g_object_ref (self));
}

void
plugboard_resource_browser_read (PlugboardResourceBrowser *self)
{
  g_autofree char *uri = dup_read_uri (self);
  McpClient *client;

  if (uri == NULL || self->read_cancellable != NULL)
    return;

  client = plugboard_list_detail_begin_action (PLUGBOARD_LIST_DETAIL (self),
                                               _("The server is not connected: reconnect it and read again."));
  if (client == NULL)
    return;
  self->read_cancellable = g_cancellable_new ();
  g_free (self->read_uri);
  self->read_uri = g_steal_pointer (&uri);
  plugboard_resource_browser_update_read_button (self);
  mcp_client_read_resource_async (client, self->read_uri, self->read_cancellable,
                                  read_cb, g_object_ref (self));
}

