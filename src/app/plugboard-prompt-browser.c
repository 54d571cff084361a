/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-prompt-browser"

#include "config.h"

#include "plugboard-prompt-browser.h"
#include "plugboard-prompt-browser-private.h"

#include <glib/gi18n.h>

#include "mcp-server-info.h"
#include "plugboard-completion.h"

G_DEFINE_FINAL_TYPE (PlugboardPromptBrowser, plugboard_prompt_browser, PLUGBOARD_TYPE_LIST_DETAIL)

McpPrompt *
plugboard_prompt_browser_get_selected (PlugboardPromptBrowser *self)
{
  return MCP_PROMPT (plugboard_list_detail_get_selected (PLUGBOARD_LIST_DETAIL (self)));
}

/* ------------------------------------------------------------------------ */
/* The list                                                                 */

static GListModel *
plugboard_prompt_browser_dup_items (PlugboardListDetail *list,
                                    McpServerConnection *connection)
{
  return g_object_ref (mcp_server_connection_get_prompts (connection));
}

static gboolean
plugboard_prompt_browser_item_matches (PlugboardListDetail *list,
                                       gpointer             item,
                                       const char          *search)
{
  McpPrompt *prompt = item;

  return plugboard_list_detail_text_matches (mcp_prompt_get_name (prompt), search) ||
         plugboard_list_detail_text_matches (mcp_prompt_get_title (prompt), search) ||
         plugboard_list_detail_text_matches (mcp_prompt_get_description (prompt), search);
}

static void
plugboard_prompt_browser_update (PlugboardListDetail *list)
{
  plugboard_prompt_browser_update_get_button (PLUGBOARD_PROMPT_BROWSER (list));
}

static void
on_row_setup_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 gpointer                  user_data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *title = gtk_label_new (NULL);
  GtkWidget *detail = gtk_label_new (NULL);

  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_label_set_xalign (GTK_LABEL (title), 0.0);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (GTK_LABEL (title), 24);
  gtk_label_set_xalign (GTK_LABEL (detail), 0.0);
  gtk_label_set_ellipsize (GTK_LABEL (detail), PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (GTK_LABEL (detail), 24);
  gtk_widget_add_css_class (detail, "caption");
  gtk_widget_add_css_class (detail, "dim-label");
  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), detail);
  gtk_list_item_set_child (item, box);
}

static void
on_row_bind_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *item,
                gpointer                  user_data)
{
  McpPrompt *prompt = gtk_list_item_get_item (item);
  GtkWidget *box = gtk_list_item_get_child (item);
  GtkWidget *title = gtk_widget_get_first_child (box);
  GtkWidget *detail = gtk_widget_get_last_child (box);
  guint n = mcp_prompt_get_n_arguments (prompt);
  g_autofree char *text = NULL;

  gtk_label_set_text (GTK_LABEL (title), mcp_prompt_get_display_name (prompt));
  if (n == 0)
    text = g_strdup_printf ("%s · %s", mcp_prompt_get_name (prompt), _("no arguments"));
  else
    {
      /* Translators: how many arguments a prompt takes. */
      g_autofree char *count = g_strdup_printf (ngettext ("%u argument", "%u arguments", n), n);

      text = g_strdup_printf ("%s · %s", mcp_prompt_get_name (prompt), count);
    }
  gtk_label_set_text (GTK_LABEL (detail), text);
}

/* ------------------------------------------------------------------------ */
/* The chosen prompt                                                        */

const char *
plugboard_prompt_browser_argument_text (McpFormField *field)
{
  const char *text = mcp_form_field_get_present (field) ? mcp_form_field_get_text (field) : NULL;

  return text != NULL ? text : "";
}

JsonObject *
plugboard_prompt_browser_dup_arguments (PlugboardPromptBrowser *self,
                                        GtkWidget              *except)
{
  JsonObject *arguments = json_object_new ();
  GListModel *fields = self->arguments != NULL ? mcp_form_field_get_children (self->arguments) : NULL;
  guint n = fields != NULL ? g_list_model_get_n_items (fields) : 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpFormField) field = g_list_model_get_item (fields, i);
      const char *name = mcp_form_field_get_name (field);
      const char *text = plugboard_prompt_browser_argument_text (field);

      if (*text != '\0' && (except == NULL || plugboard_schema_form_find_row (self->form, name) != except))
        json_object_set_string_member (arguments, name, text);
    }

  return arguments;
}

static JsonObject *
completion_context_cb (GtkWidget *editable,
                       gpointer   user_data)
{
  return plugboard_prompt_browser_dup_arguments (user_data, editable);
}

static void
clear_arguments (PlugboardPromptBrowser *self)
{
  g_clear_object (&self->arguments);
  self->form = NULL;
  adw_bin_set_child (self->arguments_bin, NULL);
}

/* The arguments as the schema form a tool's are in: the same titles,
 * descriptions, required marks and checks; each row completes its
 * argument (completion/complete) and Enter in it gets the prompt. */
static void
build_arguments (PlugboardPromptBrowser *self,
                 McpPrompt              *prompt)
{
  McpServerConnection *connection = plugboard_list_detail_get_connection (PLUGBOARD_LIST_DETAIL (self));
  g_autoptr(JsonNode) schema = json_node_new (JSON_NODE_OBJECT);
  GListModel *fields;
  gboolean any_required = FALSE;
  guint n;

  clear_arguments (self);

  json_node_take_object (schema, mcp_prompt_dup_arguments_schema (prompt));
  self->arguments = mcp_form_field_new_from_schema (schema);
  self->form = PLUGBOARD_SCHEMA_FORM (plugboard_schema_form_new (self->arguments));
  adw_bin_set_child (self->arguments_bin, GTK_WIDGET (self->form));
  g_signal_connect_object (self->arguments, "changed", G_CALLBACK (plugboard_prompt_browser_update_get_button), self, G_CONNECT_SWAPPED);

  fields = mcp_form_field_get_children (self->arguments);
  n = g_list_model_get_n_items (fields);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpFormField) field = g_list_model_get_item (fields, i);
      const char *name = mcp_form_field_get_name (field);
      GtkWidget *row = plugboard_schema_form_find_row (self->form, name);

      any_required |= mcp_form_field_get_required (field);
      if (!ADW_IS_ENTRY_ROW (row))
        continue;

      g_signal_connect_object (row, "entry-activated", G_CALLBACK (plugboard_list_detail_activate_action),
                               self, G_CONNECT_SWAPPED);
      if (connection != NULL)
        plugboard_completion_attach (row, connection, MCP_COMPLETION_PROMPT,
                                     mcp_prompt_get_name (prompt), name,
                                     completion_context_cb, self);
    }

  gtk_widget_set_visible (self->arguments_box, n > 0);
  gtk_widget_set_visible (self->required_label, any_required);
}

static void
plugboard_prompt_browser_show_item (PlugboardListDetail *list,
                                    GObject             *item)
{
  PlugboardPromptBrowser *self = PLUGBOARD_PROMPT_BROWSER (list);
  McpPrompt *prompt = MCP_PROMPT (item);
  const char *description;

  g_cancellable_cancel (self->get_cancellable);
  g_clear_object (&self->get_cancellable);
  plugboard_prompt_browser_clear_result (self);
  plugboard_list_detail_show_error (PLUGBOARD_LIST_DETAIL (self), NULL);

  if (prompt == NULL)
    {
      clear_arguments (self);
      return;
    }

  gtk_label_set_text (self->title_label, mcp_prompt_get_display_name (prompt));
  gtk_label_set_text (self->name_label, mcp_prompt_get_name (prompt));
  description = mcp_prompt_get_description (prompt);
  gtk_label_set_text (self->description_label, description != NULL ? description : "");
  gtk_widget_set_visible (GTK_WIDGET (self->description_label), description != NULL && *description != '\0');
  build_arguments (self, prompt);
  plugboard_prompt_browser_update_get_button (self);
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static void
plugboard_prompt_browser_dispose (GObject *object)
{
  PlugboardPromptBrowser *self = (PlugboardPromptBrowser *)object;

  g_cancellable_cancel (self->get_cancellable);
  g_clear_object (&self->get_cancellable);
  g_cancellable_cancel (self->render_cancellable);
  g_clear_object (&self->render_cancellable);
  self->form = NULL;

  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_PROMPT_BROWSER);

  g_clear_object (&self->arguments);

  G_OBJECT_CLASS (plugboard_prompt_browser_parent_class)->dispose (object);
}

static void
plugboard_prompt_browser_class_init (PlugboardPromptBrowserClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  PlugboardListDetailClass *list_class = PLUGBOARD_LIST_DETAIL_CLASS (klass);

  object_class->dispose = plugboard_prompt_browser_dispose;

  list_class->dup_items = plugboard_prompt_browser_dup_items;
  list_class->server_offers = mcp_server_info_has_prompts;
  list_class->item_matches = plugboard_prompt_browser_item_matches;
  list_class->show_item = plugboard_prompt_browser_show_item;
  list_class->update = plugboard_prompt_browser_update;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/plugboard/Plugboard/plugboard-prompt-browser.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardPromptBrowser, title_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPromptBrowser, name_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPromptBrowser, description_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPromptBrowser, arguments_box);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPromptBrowser, arguments_bin);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPromptBrowser, required_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPromptBrowser, get_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPromptBrowser, get_spinner);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPromptBrowser, error_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPromptBrowser, result_separator);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPromptBrowser, result_description_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPromptBrowser, messages_box);
  gtk_widget_class_bind_template_callback_full (widget_class, "on_get_clicked_cb",
                                                G_CALLBACK (plugboard_prompt_browser_get));
}

static void
plugboard_prompt_browser_init (PlugboardPromptBrowser *self)
{
  g_autoptr(GtkListItemFactory) factory = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));
  plugboard_list_detail_set_action (PLUGBOARD_LIST_DETAIL (self), GTK_WIDGET (self->get_button),
                                    self->get_spinner, self->error_label);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (on_row_setup_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (on_row_bind_cb), self);
  plugboard_list_detail_set_factory (PLUGBOARD_LIST_DETAIL (self), factory);
}

GtkWidget *
plugboard_prompt_browser_new (void)
{
  return g_object_new (PLUGBOARD_TYPE_PROMPT_BROWSER, NULL);
}

void
plugboard_prompt_browser_set_connection (PlugboardPromptBrowser *self,
                                         McpServerConnection    *connection)
{
  g_return_if_fail (PLUGBOARD_IS_PROMPT_BROWSER (self));
  g_return_if_fail (connection == NULL || MCP_IS_SERVER_CONNECTION (connection));

  plugboard_list_detail_set_connection (PLUGBOARD_LIST_DETAIL (self), connection);
}
