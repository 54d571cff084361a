/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-sampling-dialog"

#include "config.h"

#include "plugboard-sampling-dialog.h"

#include <glib/gi18n.h>

#include "plugboard-common.h"

#include "plugboard-sampling-dialog-private.h"

/* PlugboardSamplingDialog: the dialog, the reply (its length beside what
 * the server allows, the suggestion) and the answer. The request is shown
 * by -messages.c and -params.c. */

#define DEFAULT_MODEL_NAME "human (Plugboard)"

G_DEFINE_FINAL_TYPE (PlugboardSamplingDialog, plugboard_sampling_dialog, ADW_TYPE_WINDOW)

enum {
  ANSWERED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ------------------------------------------------------------------------ */
/* The reply                                                                */

static char *
dup_reply (PlugboardSamplingDialog *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->reply_view);
  GtkTextIter start;
  GtkTextIter end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static gboolean
has_reply (PlugboardSamplingDialog *self)
{
  g_autofree char *text = dup_reply (self);

  return g_strstrip (text)[0] != '\0';
}

/* How long the reply is, beside what the server allows: tokens are the
 * model's own measure, so only a rough guide (about ¾ of a word each). */
static void
update_length (PlugboardSamplingDialog *self)
{
  g_autofree char *text = dup_reply (self);
  g_autofree char *words_text = NULL;
  g_autofree char *label = NULL;
  guint words = 0;
  gboolean in_word = FALSE;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gboolean space = g_unichar_isspace (g_utf8_get_char (p));

      if (!space && !in_word)
        words++;
      in_word = !space;
    }

  words_text = g_strdup_printf (ngettext ("%u word", "%u words", words), words);
  if (self->max_tokens > 0)
    /* Translators: "12 words · the server allows up to 100 tokens (about 75 words)" */
    label = g_strdup_printf (_("%s · the server allows up to %lld tokens (about %lld words)"),
                             words_text, (long long) self->max_tokens,
                             (long long) (self->max_tokens * 3 / 4));
  else
    label = g_steal_pointer (&words_text);

  gtk_label_set_text (self->length_label, label);
  if (self->max_tokens > 0 && words > self->max_tokens * 3 / 4)
    gtk_widget_add_css_class (GTK_WIDGET (self->length_label), "warning");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->length_label), "warning");
}

static void
update_approve (PlugboardSamplingDialog *self)
{
  gboolean ok = has_reply (self);

  /* The button follows the action. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "sampling.approve", ok);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->approve_button),
                               ok ? _("Send your reply to the server (Ctrl+Enter)")
                                  : _("Write a reply first"));
}

static void
on_reply_changed_cb (PlugboardSamplingDialog *self)
{
  update_approve (self);
  update_length (self);
}

static void
answer (PlugboardSamplingDialog *self,
        gboolean                 approve)
{
  g_autoptr(JsonNode) result = NULL;

  self->answered = TRUE;

  if (approve)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();
      g_autofree char *text = dup_reply (self);
      g_autofree char *model = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->model_row)));

      if (g_strstrip (model)[0] == '\0')
        {
          g_free (model);
          model = g_strdup (DEFAULT_MODEL_NAME);
        }

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "role");
      json_builder_add_string_value (builder, "assistant");
      json_builder_set_member_name (builder, "content");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "type");
      json_builder_add_string_value (builder, "text");
      json_builder_set_member_name (builder, "text");
      json_builder_add_string_value (builder, text);
      json_builder_end_object (builder);
      json_builder_set_member_name (builder, "model");
      json_builder_add_string_value (builder, model);
      json_builder_set_member_name (builder, "stopReason");
      json_builder_add_string_value (builder, "endTurn");
      json_builder_end_object (builder);
      result = json_builder_get_root (builder);
    }

  g_signal_emit (self, signals[ANSWERED], 0, result);
}

/* Closing the window in any way other than Approve declines. */
static gboolean
on_close_request_cb (PlugboardSamplingDialog *self)
{
  if (!self->answered)
    answer (self, FALSE);
  return FALSE;
}

static void
decline_action_cb (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  plugboard_sampling_dialog_respond (PLUGBOARD_SAMPLING_DIALOG (widget), FALSE);
}

static void
approve_action_cb (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  plugboard_sampling_dialog_respond (PLUGBOARD_SAMPLING_DIALOG (widget), TRUE);
}

static void
suggest_action_cb (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  PlugboardSamplingDialog *self = PLUGBOARD_SAMPLING_DIALOG (widget);
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->reply_view);
  GtkTextIter start;
  GtkTextIter end;

  /* One user action, rather than set_text(), so that Ctrl+Z brings back
   * what was typed. */
  gtk_text_buffer_begin_user_action (buffer);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_delete (buffer, &start, &end);
  gtk_text_buffer_insert (buffer, &start, self->suggestion, -1);
  gtk_text_buffer_end_user_action (buffer);
  gtk_widget_grab_focus (GTK_WIDGET (self->reply_view));
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static void
plugboard_sampling_dialog_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), PLUGBOARD_TYPE_SAMPLING_DIALOG);

  G_OBJECT_CLASS (plugboard_sampling_dialog_parent_class)->dispose (object);
}

static void
plugboard_sampling_dialog_finalize (GObject *object)
{
  PlugboardSamplingDialog *self = PLUGBOARD_SAMPLING_DIALOG (object);

  g_free (self->suggestion);

  G_OBJECT_CLASS (plugboard_sampling_dialog_parent_class)->finalize (object);
}

static void
plugboard_sampling_dialog_class_init (PlugboardSamplingDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = plugboard_sampling_dialog_dispose;
  object_class->finalize = plugboard_sampling_dialog_finalize;

  /**
   * PlugboardSamplingDialog::answered:
   * @result: (nullable): the CreateMessageResult, or NULL when declined
   */
  signals[ANSWERED] =
    g_signal_new ("answered", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                  JSON_TYPE_NODE | G_SIGNAL_TYPE_STATIC_SCOPE);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/plugboard/Plugboard/plugboard-sampling-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardSamplingDialog, window_title);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSamplingDialog, heading_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSamplingDialog, messages_box);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSamplingDialog, params_group);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSamplingDialog, params_list);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSamplingDialog, reply_view);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSamplingDialog, length_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSamplingDialog, model_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSamplingDialog, approve_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSamplingDialog, decline_button);

  gtk_widget_class_install_action (widget_class, "sampling.approve", NULL, approve_action_cb);
  gtk_widget_class_install_action (widget_class, "sampling.decline", NULL, decline_action_cb);
  gtk_widget_class_install_action (widget_class, "sampling.suggest", NULL, suggest_action_cb);
  /* Escape declines (through close-request). */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
plugboard_sampling_dialog_init (PlugboardSamplingDialog *self)
{
  GtkEventController *shortcuts;

  gtk_widget_init_template (GTK_WIDGET (self));
  plugboard_style_ensure (GTK_WIDGET (self));

  /* Ctrl+Enter approves, also from the reply editor, where Enter starts a
   * new line: caught before the editor sees it. */
  shortcuts = gtk_shortcut_controller_new ();
  gtk_event_controller_set_propagation_phase (shortcuts, GTK_PHASE_CAPTURE);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                        gtk_shortcut_new (gtk_shortcut_trigger_parse_string ("<Control>Return|<Control>KP_Enter"),
                                                          gtk_named_action_new ("sampling.approve")));
  gtk_widget_add_controller (GTK_WIDGET (self), shortcuts);

  g_signal_connect (self, "close-request", G_CALLBACK (on_close_request_cb), NULL);
  g_signal_connect_object (gtk_text_view_get_buffer (self->reply_view), "changed",
                           G_CALLBACK (on_reply_changed_cb), self, G_CONNECT_SWAPPED);
}

PlugboardSamplingDialog *
plugboard_sampling_dialog_new (GtkWindow  *parent,
                               const char *server_name,
                               JsonObject *params)
{
  PlugboardSamplingDialog *self;
  g_autofree char *heading = NULL;
  g_autofree char *last = NULL;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (server_name != NULL, NULL);
  g_return_val_if_fail (params != NULL, NULL);

  self = g_object_new (PLUGBOARD_TYPE_SAMPLING_DIALOG,
                       "transient-for", parent,
                       NULL);

  /* Translators: %s is an MCP server's name */
  heading = g_strdup_printf (_("“%s” asks for a model reply"), server_name);
  gtk_label_set_text (self->heading_label, heading);
  /* What a window list or a screen reader names it by. */
  gtk_window_set_title (GTK_WINDOW (self), heading);
  adw_window_title_set_subtitle (self->window_title, server_name);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, heading,
                                  -1);

  plugboard_sampling_dialog_show_params (self, params);
  {
    JsonNode *max_tokens = json_object_get_member (params, "maxTokens");

    if (max_tokens != NULL && JSON_NODE_HOLDS_VALUE (max_tokens) &&
        (json_node_get_value_type (max_tokens) == G_TYPE_INT64 ||
         json_node_get_value_type (max_tokens) == G_TYPE_DOUBLE))
      self->max_tokens = MAX (json_node_get_int (max_tokens), 0);
  }

  last = plugboard_sampling_dialog_dup_last_user_text (params);
  if (last != NULL)
    /* Translators: the suggested reply; %s is the last thing the server's user message said */
    self->suggestion = g_strdup_printf (_("You asked: “%s”. This reply was written by a person in Plugboard, not by a language model."),
                                        g_strstrip (last));
  else
    self->suggestion = g_strdup (_("This reply was written by a person in Plugboard, not by a language model."));

  gtk_window_set_default_widget (GTK_WINDOW (self), GTK_WIDGET (self->approve_button));
  gtk_window_set_focus (GTK_WINDOW (self), GTK_WIDGET (self->reply_view));
  update_approve (self);
  update_length (self);
  return self;
}

void
plugboard_sampling_dialog_set_reply (PlugboardSamplingDialog *self,
                                     const char              *text)
{
  g_return_if_fail (PLUGBOARD_IS_SAMPLING_DIALOG (self));

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->reply_view),
                            text != NULL ? text : "", -1);
}

/* Approve (only with a reply: else nothing happens) or Decline; answers
 * once, then closes. */
void
plugboard_sampling_dialog_respond (PlugboardSamplingDialog *self,
                                   gboolean                 approve)
{
  g_return_if_fail (PLUGBOARD_IS_SAMPLING_DIALOG (self));

  if (self->answered)
    return;
  if (approve && !has_reply (self))
    return;

  g_object_ref (self);
  answer (self, approve);
  gtk_window_destroy (GTK_WINDOW (self));
  g_object_unref (self);
}
