/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-form-field.h"
#include "plugboard-prompt-browser.h"
#include "plugboard-schema-form.h"

G_BEGIN_DECLS

struct _PlugboardPromptBrowser
{
  PlugboardListDetail  parent_instance;

  /* Template widgets */
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

  /* Borrowed: the arguments' form, arguments_bin's child */
  PlugboardSchemaForm *form;

  /* Owned references */
  /* The selected prompt's arguments, one string field each (the form's) */
  McpFormField        *arguments;
  GCancellable        *get_cancellable;
  /* Post-processing of the shown messages' content (saved blobs). */
  GCancellable        *render_cancellable;
};

/* plugboard-prompt-browser.c: the list and the chosen prompt's arguments */
McpPrompt  *plugboard_prompt_browser_get_selected   (PlugboardPromptBrowser *self);
/* The argument's text, "" when it is left out. */
const char *plugboard_prompt_browser_argument_text  (McpFormField           *field);
/* Every argument filled in but @except's (its row, nullable): an empty
 * one is left out rather than sent as "". */
JsonObject *plugboard_prompt_browser_dup_arguments  (PlugboardPromptBrowser *self,
                                                     GtkWidget              *except);

/* plugboard-prompt-browser-messages.c: Get and the messages it shows */
void        plugboard_prompt_browser_update_get_button (PlugboardPromptBrowser *self);
void        plugboard_prompt_browser_clear_result      (PlugboardPromptBrowser *self);
void        plugboard_prompt_browser_get               (PlugboardPromptBrowser *self);

G_END_DECLS
