/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-prompt-browser"

#include "config.h"

#include "plugboard-prompt-browser.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-form-field.h"
#include "mcp-server-info.h"
#include "mcp-tool-call.h"
#include "plugboard-common.h"
#include "plugboard-markdown.h"
#include "plugboard-resource-browser.h"
#include "plugboard-result-view.h"
#include "plugboard-schema-form.h"

struct _PlugboardPromptBrowser
{
  AdwBin               parent_instance;

  /* Template widgets */
  AdwStatusPage       *status_page;
  GtkSearchEntry      *search_entry;
  AdwLeaflet          *leaflet;
  GtkStack            *list_stack;
  GtkListView         *list_view;
  GtkStack            *detail_stack;
  GtkLabel            *title_label;
  GtkLabel            *name_label;
  GtkLabel            *description_label;
  GtkWidget           *arguments_box;
  AdwBin              *arguments_bin;
  GtkWidget           *required_label;
  GtkButton           *get_button;
  GtkSpinner          *get_spinner;
  GtkLabel            *error_label;
  GtkWidget           *result_separator;
  GtkLabel            *result_description_label;
  GtkBox              *messages_box;

  /* Borrowed */
  GtkStack            *stack;
  /* The arguments' form: arguments_bin's child */
  PlugboardSchemaForm *form;

  /* Owned references */
  McpServerConnection *connection;
  GSignalGroup        *connection_signals;
  GtkCustomFilter     *filter;
  GtkSingleSelection  *selection;
  McpPrompt           *selected;
  /* The selected prompt's arguments, one string field each (the form's) */
  McpFormField        *arguments;
  GCancellable        *get_cancellable;
  /* Post-processing of the shown messages' content (saved blobs). */
  GCancellable        *render_cancellable;
  char                *search;
  /* Set while the leaflet folds (rather than the person going back). */
  gboolean             folding;
};

G_DEFINE_FINAL_TYPE (PlugboardPromptBrowser, plugboard_prompt_browser, ADW_TYPE_BIN)

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static McpServerInfo *
server_info (PlugboardPromptBrowser *self)
{
  McpClient *client;

  if (self->connection == NULL ||
      mcp_server_connection_get_state (self->connection) != MCP_SERVER_STATE_CONNECTED)
    return NULL;

  client = mcp_server_connection_get_client (self->connection);
  return client != NULL ? mcp_client_get_server_info (client) : NULL;
}

static void
show_error (PlugboardPromptBrowser *self,
            const char             *message)
{
  gtk_label_set_text (self->error_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}

/* ------------------------------------------------------------------------ */
/* The list                                                                 */

static gboolean
text_matches (const char *text,
              const char *folded_search)
{
  g_autofree char *folded = NULL;

  if (text == NULL)
    return FALSE;
  folded = g_utf8_casefold (text, -1);
  return strstr (folded, folded_search) != NULL;
}

static gboolean
filter_func (gpointer item,
             gpointer user_data)
{
  PlugboardPromptBrowser *self = user_data;
  McpPrompt *prompt = item;

  if (self->search == NULL || *self->search == '\0')
    return TRUE;

  return text_matches (mcp_prompt_get_name (prompt), self->search) ||
         text_matches (mcp_prompt_get_title (prompt), self->search) ||
         text_matches (mcp_prompt_get_description (prompt), self->search);
}

static void
on_search_changed_cb (PlugboardPromptBrowser *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));

  g_free (self->search);
  self->search = g_utf8_casefold (text, -1);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
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

/* When folded, the list and the detail are one page each. */
static void
on_back_clicked_cb (PlugboardPromptBrowser *self)
{
  adw_leaflet_navigate (self->leaflet, ADW_NAVIGATION_DIRECTION_BACK);
}

static void
on_leaflet_changed_cb (PlugboardPromptBrowser *self)
{
  plugboard_list_detail_sync (self->leaflet, self->selection, self->folding,
                              self->selected != NULL);
}

static void
on_leaflet_folded_cb (PlugboardPromptBrowser *self)
{
  self->folding = TRUE;
  on_leaflet_changed_cb (self);
  self->folding = FALSE;
}

static void
show_detail_page (PlugboardPromptBrowser *self)
{
  plugboard_list_detail_show_detail (self->leaflet);
}

/* ------------------------------------------------------------------------ */
/* The selected prompt                                                      */

/* The argument's text, "" when it is left out. */
static const char *
argument_text (McpFormField *field)
{
  const char *text = mcp_form_field_get_present (field) ? mcp_form_field_get_text (field) : NULL;

  return text != NULL ? text : "";
}

/* Every argument filled in but @except's (its row): an empty one is left
 * out rather than sent as "". */
static JsonObject *
dup_arguments (PlugboardPromptBrowser *self,
               GtkWidget              *except)
{
  JsonObject *arguments = json_object_new ();
  GListModel *fields = self->arguments != NULL ? mcp_form_field_get_children (self->arguments) : NULL;
  guint n = fields != NULL ? g_list_model_get_n_items (fields) : 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpFormField) field = g_list_model_get_item (fields, i);
      const char *name = mcp_form_field_get_name (field);
      const char *text = argument_text (field);

      if (*text != '\0' && (except == NULL || plugboard_schema_form_find_row (self->form, name) != except))
        json_object_set_string_member (arguments, name, text);
    }

  return arguments;
}

static JsonObject *
completion_context_cb (GtkWidget *editable,
                       gpointer   user_data)
{
  return dup_arguments (user_data, editable);
}

static void
update_get_button (PlugboardPromptBrowser *self)
{
  g_autoptr(GString) missing = g_string_new (NULL);
  g_autofree char *missing_tooltip = NULL;
  gboolean busy = self->get_cancellable != NULL;
  gboolean connected = server_info (self) != NULL;
  const char *tooltip = NULL;
  GListModel *fields = self->arguments != NULL ? mcp_form_field_get_children (self->arguments) : NULL;
  guint n = fields != NULL ? g_list_model_get_n_items (fields) : 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpFormField) field = g_list_model_get_item (fields, i);

      /* by the title the form shows it under */
      if (mcp_form_field_get_required (field) && *argument_text (field) == '\0')
        g_string_append_printf (missing, "%s%s", missing->len > 0 ? ", " : "",
                                mcp_form_field_get_title (field));
    }

  if (!connected)
    tooltip = _("The server is not connected");
  else if (missing->len > 0)
    /* Translators: the argument lists the required arguments left empty. */
    tooltip = missing_tooltip = g_strdup_printf (_("Fill in %s first: the prompt requires it"), missing->str);

  gtk_widget_set_sensitive (GTK_WIDGET (self->get_button), connected && !busy && missing->len == 0);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->get_button), tooltip);
  gtk_widget_set_visible (GTK_WIDGET (self->get_spinner), busy);
  gtk_spinner_set_spinning (self->get_spinner, busy);
}

static void
clear_result (PlugboardPromptBrowser *self)
{
  GtkWidget *child;

  g_cancellable_cancel (self->render_cancellable);
  g_clear_object (&self->render_cancellable);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->messages_box))) != NULL)
    gtk_box_remove (self->messages_box, child);
  gtk_widget_set_visible (self->result_separator, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->result_description_label), FALSE);
}

static void
on_argument_activate_cb (PlugboardPromptBrowser *self)
{
  if (gtk_widget_is_sensitive (GTK_WIDGET (self->get_button)))
    gtk_widget_activate (GTK_WIDGET (self->get_button));
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
build_arguments (PlugboardPromptBrowser *self)
{
  g_autoptr(JsonNode) schema = json_node_new (JSON_NODE_OBJECT);
  GListModel *fields;
  gboolean any_required = FALSE;
  guint n;

  clear_arguments (self);

  json_node_take_object (schema, mcp_prompt_dup_arguments_schema (self->selected));
  self->arguments = mcp_form_field_new_from_schema (schema);
  self->form = PLUGBOARD_SCHEMA_FORM (plugboard_schema_form_new (self->arguments));
  adw_bin_set_child (self->arguments_bin, GTK_WIDGET (self->form));
  g_signal_connect_object (self->arguments, "changed", G_CALLBACK (update_get_button), self, G_CONNECT_SWAPPED);

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

      g_signal_connect_object (row, "entry-activated", G_CALLBACK (on_argument_activate_cb),
                               self, G_CONNECT_SWAPPED);
      if (self->connection != NULL)
        plugboard_completion_attach (row, self->connection, MCP_COMPLETION_PROMPT,
                                     mcp_prompt_get_name (self->selected), name,
                                     completion_context_cb, self);
    }

  gtk_widget_set_visible (self->arguments_box, n > 0);
  gtk_widget_set_visible (self->required_label, any_required);
}

static void
show_selected (PlugboardPromptBrowser *self)
{
  McpPrompt *prompt = gtk_single_selection_get_selected_item (self->selection);
  const char *description;

  if (prompt == self->selected)
    return;

  g_cancellable_cancel (self->get_cancellable);
  g_clear_object (&self->get_cancellable);
  clear_result (self);
  show_error (self, NULL);
  g_set_object (&self->selected, prompt);

  if (prompt == NULL)
    {
      clear_arguments (self);
      gtk_stack_set_visible_child_name (self->detail_stack, "none");
      return;
    }

  gtk_label_set_text (self->title_label, mcp_prompt_get_display_name (prompt));
  gtk_label_set_text (self->name_label, mcp_prompt_get_name (prompt));
  description = mcp_prompt_get_description (prompt);
  gtk_label_set_text (self->description_label, description != NULL ? description : "");
  gtk_widget_set_visible (GTK_WIDGET (self->description_label), description != NULL && *description != '\0');
  build_arguments (self);
  update_get_button (self);
  gtk_stack_set_visible_child_name (self->detail_stack, "detail");
  show_detail_page (self);
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

      show_error (data->self, message);
    }

  render_data_free (data);
}

static const char *
role_label (const char *role)
{
  if (g_strcmp0 (role, "user") == 0)
    return _("User");
  if (g_strcmp0 (role, "assistant") == 0)
    return _("Assistant");
  return role != NULL ? role : _("Unknown role");
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
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *role_widget = gtk_label_new (role_label (role));

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
      g_autoptr(JsonObject) json = json_object_new ();
      JsonArray *array = json_array_new ();
      g_autoptr(McpToolResult) result = NULL;
      g_autoptr(GError) error = NULL;
      GtkWidget *view = plugboard_result_view_new ();
      g_autofree char *name = g_strdup_printf ("%s-prompt", mcp_server_connection_get_name (self->connection));
      RenderData *data;

      gtk_widget_set_size_request (view, -1, 280);
      gtk_box_append (GTK_BOX (box), view);

      json_array_add_object_element (array, json_object_ref (mcp_content_get_json (content)));
      json_object_set_array_member (json, "content", array);
      result = mcp_tool_result_new_from_json (json, &error);
      if (result == NULL)
        {
          show_error (self, error->message);
          return box;
        }

      data = g_new0 (RenderData, 1);
      data->self = g_object_ref (self);
      data->view = g_object_ref (PLUGBOARD_RESULT_VIEW (view));
      mcp_tool_result_process_async (result, name, NULL,
                                 self->connection != NULL ? mcp_server_connection_get_max_output_characters (self->connection) : 0,
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

  clear_result (self);
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
                                                  self->selected != NULL ? mcp_prompt_get_name (self->selected) : "",
                                                  error->message);

      show_error (self, message);
    }
  else
    show_result (self, prompt_result);

  update_get_button (self);
}

static void
on_get_clicked_cb (PlugboardPromptBrowser *self)
{
  McpClient *client = self->connection != NULL ? mcp_server_connection_get_client (self->connection) : NULL;
  GListModel *fields = self->arguments != NULL ? mcp_form_field_get_children (self->arguments) : NULL;
  g_autoptr(JsonObject) arguments = NULL;

  if (self->selected == NULL || self->get_cancellable != NULL)
    return;

  if (client == NULL)
    {
      show_error (self, _("The server is not connected: reconnect it and try again."));
      return;
    }

  show_error (self, NULL);
  clear_result (self);
  /* the suggestions stayed open over the result */
  for (guint i = 0; fields != NULL && i < g_list_model_get_n_items (fields); i++)
    {
      g_autoptr(McpFormField) field = g_list_model_get_item (fields, i);
      GtkWidget *row = plugboard_schema_form_find_row (self->form, mcp_form_field_get_name (field));

      if (GTK_IS_EDITABLE (row))
        plugboard_completion_dismiss (row);
    }
  arguments = dup_arguments (self, NULL);
  self->get_cancellable = g_cancellable_new ();
  update_get_button (self);
  mcp_client_get_prompt_async (client, mcp_prompt_get_name (self->selected), arguments,
                               self->get_cancellable, get_cb, g_object_ref (self));
}

/* ------------------------------------------------------------------------ */
/* The state                                                                */

static void
update_status (PlugboardPromptBrowser *self)
{
  McpServerInfo *info = server_info (self);
  guint n_items = g_list_model_get_n_items (G_LIST_MODEL (self->selection));
  guint n_all = self->connection != NULL
    ? g_list_model_get_n_items (mcp_server_connection_get_prompts (self->connection)) : 0;

  if (self->connection == NULL)
    {
      adw_status_page_set_title (self->status_page, _("No Server"));
      adw_status_page_set_description (self->status_page, NULL);
    }
  else if (info == NULL)
    {
      adw_status_page_set_title (self->status_page, _("Not Connected"));
      adw_status_page_set_description (self->status_page,
                                       _("The server’s prompts are listed once it is connected."));
    }
  else if (!mcp_server_info_has_prompts (info))
    {
      adw_status_page_set_title (self->status_page, _("No Prompts"));
      adw_status_page_set_description (self->status_page, _("This server offers no prompts."));
    }
  else if (n_all == 0)
    {
      adw_status_page_set_title (self->status_page, _("No Prompts"));
      adw_status_page_set_description (self->status_page,
                                       _("This server offers prompts but lists none at the moment."));
    }

  gtk_stack_set_visible_child_name (self->stack, info != NULL && n_all > 0 ? "browser" : "status");
  gtk_stack_set_visible_child_name (self->list_stack, n_items > 0 ? "list" : "no-match");
  update_get_button (self);
}

static void
set_model (PlugboardPromptBrowser *self)
{
  g_autoptr(GtkFilterListModel) filtered = NULL;

  if (self->connection != NULL)
    filtered = gtk_filter_list_model_new (g_object_ref (mcp_server_connection_get_prompts (self->connection)),
                                          g_object_ref (GTK_FILTER (self->filter)));

  gtk_single_selection_set_model (self->selection, filtered != NULL ? G_LIST_MODEL (filtered) : NULL);
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
  if (self->connection_signals != NULL)
    g_signal_group_set_target (self->connection_signals, NULL);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  if (self->list_view != NULL)
    gtk_list_view_set_model (self->list_view, NULL);
  self->form = NULL;

  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_PROMPT_BROWSER);
  self->stack = NULL;

  g_clear_object (&self->connection_signals);
  g_clear_object (&self->connection);
  g_clear_object (&self->selection);
  g_clear_object (&self->filter);
  g_clear_object (&self->selected);
  g_clear_object (&self->arguments);

  G_OBJECT_CLASS (plugboard_prompt_browser_parent_class)->dispose (object);
}

static void
plugboard_prompt_browser_finalize (GObject *object)
{
  PlugboardPromptBrowser *self = (PlugboardPromptBrowser *)object;

  g_free (self->search);

  G_OBJECT_CLASS (plugboard_prompt_browser_parent_class)->finalize (object);
}

static void
plugboard_prompt_browser_class_init (PlugboardPromptBrowserClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = plugboard_prompt_browser_dispose;
  object_class->finalize = plugboard_prompt_browser_finalize;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/plugboard/Plugboard/plugboard-prompt-browser.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardPromptBrowser, status_page);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPromptBrowser, search_entry);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPromptBrowser, leaflet);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPromptBrowser, list_stack);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPromptBrowser, list_view);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPromptBrowser, detail_stack);
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
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_back_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_get_clicked_cb);
}

static void
plugboard_prompt_browser_init (PlugboardPromptBrowser *self)
{
  g_autoptr(GtkListItemFactory) factory = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));
  plugboard_style_ensure (GTK_WIDGET (self));
  /* The bin's child, borrowed: a bound template child would be unparented
   * twice, by the template's disposal and by AdwBin's. */
  self->stack = GTK_STACK (adw_bin_get_child (ADW_BIN (self)));

  self->filter = gtk_custom_filter_new (filter_func, self, NULL);

  self->selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected-item", G_CALLBACK (show_selected), self);
  g_signal_connect_swapped (self->list_view, "activate", G_CALLBACK (show_detail_page), self);
  g_signal_connect_object (self->leaflet, "notify::visible-child",
                           G_CALLBACK (on_leaflet_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->leaflet, "notify::folded",
                           G_CALLBACK (on_leaflet_folded_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_swapped (self->selection, "items-changed", G_CALLBACK (update_status), self);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (on_row_setup_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (on_row_bind_cb), self);
  gtk_list_view_set_factory (self->list_view, factory);
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (self->selection));

  self->connection_signals = g_signal_group_new (MCP_TYPE_SERVER_CONNECTION);
  g_signal_group_connect_object (self->connection_signals, "notify::state",
                                 G_CALLBACK (update_status), self, G_CONNECT_SWAPPED);
  g_signal_group_connect_object (self->connection_signals, "notify::client",
                                 G_CALLBACK (update_status), self, G_CONNECT_SWAPPED);

  set_model (self);
  update_status (self);
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

  if (!g_set_object (&self->connection, connection))
    return;

  g_signal_group_set_target (self->connection_signals, connection);
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  set_model (self);
  show_selected (self);
  update_status (self);
}
