/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-elicitation-dialog"

#include "config.h"

#include "plugboard-elicitation-dialog.h"

#include <glib/gi18n.h>

#include "mcp-form-field.h"
#include "mcp-json-private.h"
#include "mcp-url-policy.h"
#include "plugboard-common.h"
#include "plugboard-schema-form.h"

struct _PlugboardElicitationDialog
{
  AdwWindow        parent_instance;

  /* Template widgets */
  AdwWindowTitle  *window_title;
  GtkLabel        *heading_label;
  GtkLabel        *message_label;
  GtkStack        *stack;
  GtkBox          *form_box;
  GtkLabel        *url_label;
  GtkButton       *accept_button;
  GtkButton       *decline_button;
  GtkButton       *cancel_button;

  /* Owned references */
  McpFormField    *field;
  char            *url;
  gboolean         answered;
};

G_DEFINE_FINAL_TYPE (PlugboardElicitationDialog, plugboard_elicitation_dialog, ADW_TYPE_WINDOW)

enum {
  ANSWERED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* The browser: gtk_show_uri(), or for tests the command in
 * PLUGBOARD_TEST_OPEN_URL_COMMAND with the URL appended. */
static void
open_url (PlugboardElicitationDialog *self)
{
  GtkWindow *parent = gtk_window_get_transient_for (GTK_WINDOW (self));

  /* Only an address the URL policy let through is ever kept in self->url. */
  if (!mcp_url_policy_check (self->url, MCP_URL_USE_BROWSER, NULL, NULL))
    return;

  plugboard_show_url (parent != NULL ? parent : GTK_WINDOW (self), self->url);
}

/* Submit only with a value that converts and passes the schema; its
 * tooltip says what is still wrong. */
static gboolean
update_accept (PlugboardElicitationDialog *self)
{
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(JsonNode) content = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *tooltip = NULL;

  if (self->field == NULL)
    {
      gtk_widget_set_sensitive (GTK_WIDGET (self->accept_button), self->url != NULL);
      return self->url != NULL;
    }

  problems = mcp_form_field_check (self->field);
  content = mcp_form_field_to_json (self->field, &error);
  if (content == NULL)
    g_ptr_array_add (problems, g_strdup (error->message));

  if (problems->len > 0)
    {
      g_ptr_array_add (problems, NULL);
      tooltip = g_strjoinv ("\n", (char **) problems->pdata);
    }
  gtk_widget_set_sensitive (GTK_WIDGET (self->accept_button), tooltip == NULL);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->accept_button), tooltip);
  return tooltip == NULL;
}

static void
on_field_changed_cb (PlugboardElicitationDialog *self)
{
  update_accept (self);
}

static void
answer (PlugboardElicitationDialog *self,
        const char                 *action,
        JsonNode                   *content)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) result = NULL;

  self->answered = TRUE;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "action");
  json_builder_add_string_value (builder, action);
  if (content != NULL)
    {
      json_builder_set_member_name (builder, "content");
      json_builder_add_value (builder, json_node_copy (content));
    }
  json_builder_end_object (builder);
  result = json_builder_get_root (builder);

  g_signal_emit (self, signals[ANSWERED], 0, result);
}

static gboolean
on_close_request_cb (PlugboardElicitationDialog *self)
{
  if (!self->answered)
    answer (self, "cancel", NULL);
  return FALSE;
}

static void
respond_action_cb (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  plugboard_elicitation_dialog_respond (PLUGBOARD_ELICITATION_DIALOG (widget),
                                        g_variant_get_string (parameter, NULL));
}

static void
plugboard_elicitation_dialog_dispose (GObject *object)
{
  PlugboardElicitationDialog *self = PLUGBOARD_ELICITATION_DIALOG (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_ELICITATION_DIALOG);
  g_clear_object (&self->field);

  G_OBJECT_CLASS (plugboard_elicitation_dialog_parent_class)->dispose (object);
}

static void
plugboard_elicitation_dialog_finalize (GObject *object)
{
  PlugboardElicitationDialog *self = PLUGBOARD_ELICITATION_DIALOG (object);

  g_free (self->url);

  G_OBJECT_CLASS (plugboard_elicitation_dialog_parent_class)->finalize (object);
}

static void
plugboard_elicitation_dialog_class_init (PlugboardElicitationDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = plugboard_elicitation_dialog_dispose;
  object_class->finalize = plugboard_elicitation_dialog_finalize;

  /**
   * PlugboardElicitationDialog::answered:
   * @result: the elicitation/create result ({"action": …, "content": …})
   */
  signals[ANSWERED] =
    g_signal_new ("answered", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  JSON_TYPE_NODE | G_SIGNAL_TYPE_STATIC_SCOPE);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/plugboard/Plugboard/plugboard-elicitation-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardElicitationDialog, window_title);
  gtk_widget_class_bind_template_child (widget_class, PlugboardElicitationDialog, heading_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardElicitationDialog, message_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardElicitationDialog, stack);
  gtk_widget_class_bind_template_child (widget_class, PlugboardElicitationDialog, form_box);
  gtk_widget_class_bind_template_child (widget_class, PlugboardElicitationDialog, url_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardElicitationDialog, accept_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardElicitationDialog, decline_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardElicitationDialog, cancel_button);

  gtk_widget_class_install_action (widget_class, "elicitation.respond", "s", respond_action_cb);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
plugboard_elicitation_dialog_init (PlugboardElicitationDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  g_signal_connect (self, "close-request", G_CALLBACK (on_close_request_cb), NULL);
}

PlugboardElicitationDialog *
plugboard_elicitation_dialog_new (GtkWindow  *parent,
                                  const char *server_name,
                                  JsonObject *params)
{
  PlugboardElicitationDialog *self;
  const char *mode;
  const char *message;
  g_autofree char *heading = NULL;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (server_name != NULL, NULL);
  g_return_val_if_fail (params != NULL, NULL);

  self = g_object_new (PLUGBOARD_TYPE_ELICITATION_DIALOG,
                       "transient-for", parent,
                       NULL);

  mode = mcp_json_optional_string (params, "mode", "elicitation", server_name);
  message = mcp_json_optional_string (params, "message", "elicitation", server_name);
  gtk_label_set_text (self->message_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->message_label), message != NULL && message[0] != '\0');
  adw_window_title_set_subtitle (self->window_title, server_name);

  if (g_strcmp0 (mode, "url") == 0)
    {
      const char *url = mcp_json_optional_string (params, "url", "elicitation", server_name);
      g_autoptr(GError) refused = NULL;
      g_autofree char *host = NULL;

      /* The URL policy decides before the person sees an Open button: a
       * refused address is shown with the reason and cannot be opened. */
      if (url != NULL && mcp_url_policy_check (url, MCP_URL_USE_BROWSER, &host, &refused))
        {
          self->url = g_strdup (url);
          /* Translators: the first %s is an MCP server's name, the second the host of the page */
          heading = g_strdup_printf (_("“%s” asks you to open a web page at %s"), server_name, host);
          gtk_label_set_text (self->url_label, self->url);
        }
      else if (url != NULL)
        {
          /* Translators: %s is an MCP server's name */
          heading = g_strdup_printf (_("“%s” asks you to open a web page that Plugboard refuses"),
                                     server_name);
          gtk_label_set_text (self->url_label, refused->message);
        }
      else
        {
          /* Translators: %s is an MCP server's name */
          heading = g_strdup_printf (_("“%s” asks you to open a web page"), server_name);
          gtk_label_set_text (self->url_label, _("The server gave no address"));
        }
      gtk_window_set_title (GTK_WINDOW (self), _("Open Web Page"));
      adw_window_title_set_title (self->window_title, _("Open Web Page"));
      gtk_button_set_label (self->accept_button, _("_Open"));
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->accept_button), _("Open this address in your browser"));
      gtk_stack_set_visible_child_name (self->stack, "url");
    }
  else
    {
      JsonObject *schema = mcp_json_optional_object (params, "requestedSchema", "elicitation", server_name);
      g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
      GtkWidget *form;

      if (schema != NULL)
        json_node_set_object (node, schema);
      else
        json_node_take_object (node, json_object_new ());
      self->field = mcp_form_field_new_from_schema (node);
      /* The server's defaults are sent unless the person changes or
       * unticks them (SEP-1034). */
      mcp_form_field_include_defaults (self->field);

      /* Translators: %s is an MCP server's name */
      heading = g_strdup_printf (_("“%s” asks for information"), server_name);
      form = plugboard_schema_form_new (self->field);
      gtk_box_prepend (self->form_box, form);
      gtk_stack_set_visible_child_name (self->stack, "form");
      g_signal_connect_object (self->field, "changed", G_CALLBACK (on_field_changed_cb),
                               self, G_CONNECT_SWAPPED);
    }

  gtk_label_set_text (self->heading_label, heading);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, heading,
                                  -1);
  gtk_window_set_default_widget (GTK_WINDOW (self), GTK_WIDGET (self->accept_button));
  update_accept (self);
  return self;
}

gpointer
plugboard_elicitation_dialog_get_field (PlugboardElicitationDialog *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_ELICITATION_DIALOG (self), NULL);

  return self->field;
}

/* "accept", "decline" or "cancel": answers once, then closes. */
void
plugboard_elicitation_dialog_respond (PlugboardElicitationDialog *self,
                                      const char                 *action)
{
  g_autoptr(JsonNode) content = NULL;

  g_return_if_fail (PLUGBOARD_IS_ELICITATION_DIALOG (self));
  g_return_if_fail (action != NULL);

  if (self->answered)
    return;

  if (g_str_equal (action, "accept"))
    {
      if (!update_accept (self))
        return;
      if (self->field != NULL)
        content = mcp_form_field_to_json (self->field, NULL);
      else
        open_url (self);
    }
  else if (!g_str_equal (action, "decline"))
    {
      action = "cancel";
    }

  g_object_ref (self);
  answer (self, action, content);
  gtk_window_destroy (GTK_WINDOW (self));
  g_object_unref (self);
}
