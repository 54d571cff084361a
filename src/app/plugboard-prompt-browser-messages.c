/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-prompt-browser"

#include "config.h"

#include "plugboard-prompt-browser-private.h"

#include <glib/gi18n.h>

#include "mcp-processed-result.h"
#include "plugboard-common.h"
#include "plugboard-markdown.h"
#include "plugboard-result-view.h"

/* Get (prompts/get) and the messages it answers, by role and content. */

void
plugboard_prompt_browser_update_get_button (PlugboardPromptBrowser *self)
{
  g_autoptr(GString) missing = g_string_new (NULL);
  g_autofree char *missing_tooltip = NULL;
  GListModel *fields = self->arguments != NULL ? mcp_form_field_get_children (self->arguments) : NULL;
  guint n = fields != NULL ? g_list_model_get_n_items (fields) : 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpFormField) field = g_list_model_get_item (fields, i);

      /* by the title the form shows it under */
      if (mcp_form_field_get_required (field) && *plugboard_prompt_browser_argument_text (field) == '\0')
        g_string_append_printf (missing, "%s%s", missing->len > 0 ? ", " : "",
                                mcp_form_field_get_title (field));
    }

  if (missing->len > 0)
    /* Translators: the argument lists the required arguments left empty. */
    missing_tooltip = g_strdup_printf (_("Fill in %s first: the prompt requires it"), missing->str);
  plugboard_list_detail_update_action (PLUGBOARD_LIST_DETAIL (self), self->get_cancellable != NULL,
                                       missing_tooltip);
}

void
plugboard_prompt_browser_clear_result (PlugboardPromptBrowser *self)
{
  GtkWidget *child;

  g_cancellable_cancel (self->render_cancellable);
  g_clear_object (&self->render_cancellable);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->messages_box))) != NULL)
    gtk_box_remove (self->messages_box, child);
  gtk_widget_set_visible (self->result_separator, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->result_description_label), FALSE);
}

/* ------------------------------------------------------------------------ */
/* The messages                                                             */
typedef struct
{
  PlugboardPromptBrowser *self;
  PlugboardResultView    *view;
} RenderData;

static void
render_data_free (RenderData *data)
{
  g_clear_object (&data->self);
  g_clear_object (&data->view);
  g_free (data);
}

static void
content_processed_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  RenderData *data = user_data;
  g_autoptr(McpProcessedResult) processed = NULL;
  g_autoptr(GError) error = NULL;

  processed = mcp_tool_result_process_finish (result, &error);
  if (processed != NULL)
    plugboard_result_view_set_result (data->view, NULL, NULL, processed);
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      /* Translators: the argument is an error message. */
      g_autofree char *message = g_strdup_printf (_("Could not show a message’s content: %s"), error->message);

      plugboard_list_detail_show_error (PLUGBOARD_LIST_DETAIL (data->self), message);
    }

  render_data_free (data);
}

static GtkWidget *
text_content_new (const char *text)
{
  GtkWidget *label = gtk_label_new (NULL);

  if (plugboard_markdown_detect (text))
    {
      g_autofree char *markup = plugboard_markdown_to_pango (text);

      gtk_label_set_markup (GTK_LABEL (label), markup);
      plugboard_label_guard_links (GTK_LABEL (label));
    }
  else
    gtk_label_set_text (GTK_LABEL (label), text);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  return label;
}

static GtkWidget *
message_new (PlugboardPromptBrowser *self,
             const char             *role,
             McpContent             *content)
{
  McpServerConnection *connection = plugboard_list_detail_get_connection (PLUGBOARD_LIST_DETAIL (self));
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *role_widget = gtk_label_new (plugboard_role_label (role, _("Unknown role")));

  gtk_widget_add_css_class (box, "plugboard-message");
  if (g_strcmp0 (role, "assistant") == 0)
    gtk_widget_add_css_class (box, "assistant");
  gtk_label_set_xalign (GTK_LABEL (role_widget), 0.0);
  gtk_widget_add_css_class (role_widget, "plugboard-role");
  gtk_widget_add_css_class (role_widget, "dim-label");
  gtk_box_append (GTK_BOX (box), role_widget);

  if (mcp_content_get_kind (content) == MCP_CONTENT_TEXT)
    {
      const char *text = mcp_content_get_text (content);

      gtk_box_append (GTK_BOX (box), text_content_new (text != NULL ? text : ""));
    }
  else
    {
      /* Images, audio, resources: shown as a tool result's blocks are,
       * after the same post-processing (blobs saved, images scaled). */
      g_autoptr(GPtrArray) contents = g_ptr_array_new ();
      GtkWidget *view = plugboard_result_view_new ();
      g_autofree char *name = g_strdup_printf ("%s-prompt", mcp_server_connection_get_name (connection));
      RenderData *data;

      gtk_widget_set_size_request (view, -1, 280);
      gtk_box_append (GTK_BOX (box), view);

      data = g_new0 (RenderData, 1);
      data->self = g_object_ref (self);
      data->view = g_object_ref (PLUGBOARD_RESULT_VIEW (view));
      g_ptr_array_add (contents, content);
      mcp_contents_process_async (contents, name,
                                  connection != NULL ? mcp_server_connection_get_max_output_characters (connection) : 0,
                                  self->render_cancellable,
                                  content_processed_cb, data);
    }

  return box;
}

static void
show_result (PlugboardPromptBrowser *self,
             McpPromptResult        *result)
{
  const char *description = mcp_prompt_result_get_description (result);
  guint n = mcp_prompt_result_get_n_messages (result);

  plugboard_prompt_browser_clear_result (self);
  self->render_cancellable = g_cancellable_new ();

  gtk_label_set_text (self->result_description_label, description != NULL ? description : "");
  gtk_widget_set_visible (GTK_WIDGET (self->result_description_label), description != NULL && *description != '\0');
  gtk_widget_set_visible (self->result_separator, TRUE);

  if (n == 0)
    {
      GtkWidget *label = gtk_label_new (_("The server returned no messages."));

      gtk_widget_add_css_class (label, "dim-label");
      gtk_box_append (self->messages_box, label);
    }

  for (guint i = 0; i < n; i++)
    gtk_box_append (self->messages_box,
                    message_new (self, mcp_prompt_result_get_role (result, i),
                                 mcp_prompt_result_get_content (result, i)));
}

static void
get_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(PlugboardPromptBrowser) self = user_data;
  McpPrompt *prompt = plugboard_prompt_browser_get_selected (self);
  g_autoptr(McpPromptResult) prompt_result = NULL;
  g_autoptr(GError) error = NULL;

  prompt_result = mcp_client_get_prompt_finish (MCP_CLIENT (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  g_clear_object (&self->get_cancellable);
  if (prompt_result == NULL)
    {
      /* Translators: the first argument is a prompt's name, the second an error message. */
      g_autofree char *message = g_strdup_printf (_("Could not get the prompt “%s”: %s"),
                                                  prompt != NULL ? mcp_prompt_get_name (prompt) : "",
                                                  error->message);

      plugboard_list_detail_show_error (PLUGBOARD_LIST_DETAIL (self), message);
    }
  else
    show_result (self, prompt_result);

  plugboard_prompt_browser_update_get_button (self);
}

void
plugboard_prompt_browser_get (PlugboardPromptBrowser *self)
{
  McpPrompt *prompt = plugboard_prompt_browser_get_selected (self);
  g_autoptr(JsonObject) arguments = NULL;
  McpClient *client;

  if (prompt == NULL || self->get_cancellable != NULL)
    return;

  client = plugboard_list_detail_begin_action (PLUGBOARD_LIST_DETAIL (self),
                                               _("The server is not connected: reconnect it and try again."));
  if (client == NULL)
    return;

  plugboard_prompt_browser_clear_result (self);
  arguments = plugboard_prompt_browser_dup_arguments (self, NULL);
  self->get_cancellable = g_cancellable_new ();
  plugboard_prompt_browser_update_get_button (self);
  mcp_client_get_prompt_async (client, mcp_prompt_get_name (prompt), arguments,
                               self->get_cancellable, get_cb, g_object_ref (self));
}
