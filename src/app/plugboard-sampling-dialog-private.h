/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "plugboard-sampling-dialog.h"

G_BEGIN_DECLS

/* Shared by the parts of PlugboardSamplingDialog: plugboard-sampling-dialog.c
 * (the dialog, the reply, the answer), -messages.c (the messages) and
 * -params.c (the other parameters). */

struct _PlugboardSamplingDialog
{
  AdwWindow        parent_instance;

  /* Template widgets */
  AdwWindowTitle  *window_title;
  GtkLabel        *heading_label;
  GtkBox          *messages_box;
  GtkWidget       *params_group;
  GtkListBox      *params_list;
  GtkTextView     *reply_view;
  GtkLabel        *length_label;
  AdwEntryRow     *model_row;
  GtkButton       *approve_button;
  GtkButton       *decline_button;

  /* Owned references */
  char            *suggestion;
  gint64           max_tokens;  /* 0: not given */
  gboolean         answered;
};

/* plugboard-sampling-dialog-messages.c */
/* A selectable label that wraps anywhere. */
GtkWidget  *plugboard_sampling_dialog_value_label_new    (const char              *text,
                                                          gboolean                 monospace);
/* A dimmed heading above a value. */
GtkWidget  *plugboard_sampling_dialog_caption_label_new  (const char              *text);
/* @object's string member @member, or NULL when absent or not a string. */
const char *plugboard_sampling_dialog_member_string      (JsonObject              *object,
                                                          const char              *member);
/* A card for the message @node in the messages box. */
void        plugboard_sampling_dialog_add_message        (PlugboardSamplingDialog *self,
                                                          JsonNode                *node);
/* The text of the last user message's text content, or NULL. */
char       *plugboard_sampling_dialog_dup_last_user_text (JsonObject              *params);

/* plugboard-sampling-dialog-params.c */
/* The messages and the other parameters of @params, each in its place. */
void        plugboard_sampling_dialog_show_params        (PlugboardSamplingDialog *self,
                                                          JsonObject              *params);

G_END_DECLS
