/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "plugboard-result-block.h"
#include "plugboard-result-view.h"

G_BEGIN_DECLS

/* Shared by the parts of PlugboardResultView:
 * - plugboard-result-view.c: the widget, building the list of a result,
 *   letting go of it, the notes;
 * - -actions.c: Copy Result, Copy as Command, Save Full Result, and the
 *   text they copy;
 * - -rows.c: the list's rows (the factory), images, files, links;
 * - -text.c: the rows of text and JSON blocks;
 * - -save.c: Save As;
 * - -read.c: reading a resource link;
 * - -schema.c: checking the structured content against the output schema. */

struct _PlugboardResultView
{
  AdwBin               parent_instance;

  /* Template widgets */
  AdwToastOverlay     *toast_overlay;
  GtkLabel            *summary_label;
  GtkWidget           *error_box;
  GtkWidget           *schema_box;
  GtkImage            *schema_icon;
  GtkLabel            *schema_label;
  GtkLabel            *schema_problems_label;
  GtkWidget           *notes_box;
  GtkLabel            *notes_label;
  GtkWidget           *save_full_button;
  GtkStack            *content_stack;
  GtkGridView         *list_view;
  GtkSignalListItemFactory *factory;

  /* Owned */
  McpPoolTool         *tool;
  JsonObject          *arguments;
  McpProcessedResult  *result;
  GListStore          *sections;
  GtkSelectionModel   *selection;
  GtkFileChooserNative *chooser;
  GCancellable        *cancellable;

  guint                n_blocks;
  int                  schema_ok;
  gboolean             plain_text;
  gboolean             wrap;
  guint                build_source;  /* building the blocks in slices */
  guint                next_block;
};

void                 plugboard_result_view_toast                (PlugboardResultView  *self,
                                                                 const char           *title);

/* plugboard-result-view-actions.c */
void                 plugboard_result_view_class_init_actions   (GtkWidgetClass       *widget_class);

/* plugboard-result-view-rows.c */
void                 plugboard_result_view_init_rows            (PlugboardResultView  *self);
/* A label in the caption style, after a dimmed icon. */
GtkWidget           *plugboard_result_view_caption_new          (const char           *icon_name,
                                                                 const char           *text);
/* A button with a mnemonic, centred in its row. */
GtkWidget           *plugboard_result_view_button_new           (const char           *label,
                                                                 const char           *tooltip);
/* Lets @label wrap anywhere, when @wrap, at a cost that does not grow
 * with its text. */
void                 plugboard_result_view_label_set_wrapping   (GtkWidget            *label,
                                                                 gboolean              wrap);

/* plugboard-result-view-text.c */
GtkWidget           *plugboard_result_view_text_label_new       (PlugboardResultView  *self,
                                                                 PlugboardResultBlock *block,
                                                                 const char           *text);
GtkWidget           *plugboard_result_view_text_widget_new      (PlugboardResultView  *self,
                                                                 PlugboardResultBlock *block,
                                                                 const char           *text);
GtkWidget           *plugboard_result_view_json_widget_new      (PlugboardResultView  *self,
                                                                 PlugboardResultBlock *block);
GtkWidget           *plugboard_result_view_json_row_new         (PlugboardResultView  *self,
                                                                 GtkTreeListRow       *row);

/* plugboard-result-view-save.c */
/* Offers Save As for @bytes, or a copy of the file @source. */
void                 plugboard_result_view_save_as              (PlugboardResultView  *self,
                                                                 const char           *suggested_name,
                                                                 GBytes               *bytes,
                                                                 const char           *source);
/* "TOOL-result.@extension" */
char                *plugboard_result_view_dup_suggested_name   (PlugboardResultView  *self,
                                                                 const char           *extension);
/* A button that offers Save As for @block (plugboard_result_view_button_new()). */
GtkWidget           *plugboard_result_view_save_button_new      (PlugboardResultBlock *block,
                                                                 const char           *label,
                                                                 const char           *tooltip);

/* plugboard-result-view-read.c */
/* The tool's connection, when it is a real one (tests use stand-ins). */
McpServerConnection *plugboard_result_view_get_connection       (PlugboardResultView  *self);
/* Reads @block's resource link and puts what it holds below it. */
void                 plugboard_result_view_read_link            (PlugboardResultView  *self,
                                                                 PlugboardResultBlock *block);

/* plugboard-result-view-schema.c */
void                 plugboard_result_view_show_schema_check    (PlugboardResultView  *self,
                                                                 McpToolResult        *result);

G_END_DECLS
