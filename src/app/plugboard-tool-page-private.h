/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "plugboard-tool-page.h"

#include "mcp-form-field.h"
#include "plugboard-json-editor.h"
#include "plugboard-result-view.h"
#include "plugboard-traffic-view.h"

G_BEGIN_DECLS

/* Shared by the parts of PlugboardToolPage: plugboard-tool-page.c (the
 * type, its properties, the tool shown, permissions),
 * plugboard-tool-page-description.c (the description, annotations and
 * schema lists), plugboard-tool-page-arguments.c (the form and JSON of
 * the arguments, drafts), plugboard-tool-page-run.c (a run: progress, the
 * result or error), plugboard-tool-page-task.c (a run as a task, and
 * following a task's end) and plugboard-tool-page-history.c (the calls
 * made and the saved arguments) and plugboard-tool-page-traffic.c (the
 * traffic pane beside the tool) and plugboard-tool-page-app.c (the App
 * view of a tool with an interface). */

/* One run of the tool; outlives the page when the page goes first. */
/* plugboard-tool-page-app.c's part of the page */
typedef struct _PlugboardToolPageApp PlugboardToolPageApp;

typedef struct
{
  PlugboardToolPage *self;         /* NULL once the page moved on */
  PlugboardToolPage *owner;        /* weak: the page it started on, to tell it the end */
  McpCall           *call;
  GCancellable      *cancellable;
  gboolean           has_total;      /* progress with a total came */
  gboolean           has_message;    /* progress with a message came */
} Run;

struct _PlugboardToolPage
{
  AdwBin               parent_instance;

  /* Template widgets */
  GtkScrolledWindow   *scroller;
  GtkLabel            *title_label;
  GtkLabel            *name_label;
  GtkLabel            *server_label;
  GtkLabel            *description_label;
  GtkToggleButton     *form_toggle;
  GtkToggleButton     *json_toggle;
  GtkStack            *arguments_stack;
  AdwBin              *form_bin;
  PlugboardJsonEditor *json_editor;
  GtkLabel            *arguments_error_label;
  GtkWidget           *run_button;
  AdwButtonContent    *run_button_content;
  GtkCheckButton      *task_check;
  GtkLabel            *task_note_label;
  GtkWidget           *cancel_button;
  GtkLabel            *permission_label;
  GtkDropDown         *rule_dropdown;
  GtkWidget           *rule_box;
  GtkWidget           *saved_button;
  GtkWidget           *save_button;
  GtkRevealer         *progress_revealer;
  GtkProgressBar      *progress_bar;
  GtkLabel            *progress_label;
  GtkLabel            *elapsed_label;
  GtkWidget           *task_box;
  GtkImage            *task_status_icon;
  GtkLabel            *task_status_label;
  GtkLabel            *task_id_label;
  GtkLabel            *task_message_label;
  GtkWidget           *result_group;
  GtkStack            *result_stack;
  PlugboardResultView *result_view;
  GtkImage            *error_icon;
  GtkLabel            *error_label;
  GtkWidget           *history_group;
  GtkListBox          *history_list;
  GtkListBox          *annotations_list;
  GtkWidget           *input_schema_group;
  GtkListBox          *input_schema_list;
  GtkWidget           *output_schema_group;
  GtkListBox          *output_schema_list;
  GtkPopover          *saved_popover;
  GtkLabel            *saved_empty_label;
  GtkListBox          *saved_list;
  AdwFlap             *traffic_flap;
  GtkWidget           *traffic_pane;
  GtkToggleButton     *traffic_toggle;
  GtkToggleButton     *traffic_pin_toggle;
  GtkLabel            *traffic_title_label;
  PlugboardTrafficView *traffic_view;
  PlugboardToolPageApp *app;

  /* Owned references */
  GSettings           *traffic_settings;  /* nullable: no schema installed */
  McpPoolTool         *tool;
  McpProject          *project;
  McpPermissions      *permissions;
  McpToolHistory      *history;
  McpFormField        *field;
  GListModel          *calls;
  Run                 *run;
  GCancellable        *final_status_cancellable;
  /* qualified name → Draft: what was typed for a tool the page left */
  GHashTable          *drafts;

  gint64               run_started;
  guint                elapsed_source;
  guint                in_mode_switch : 1;
  guint                setting_rule : 1;
  guint                pulsing : 1;
  guint                denied : 1;
};

/* plugboard-tool-page.c */
void         plugboard_tool_page_update_actions        (PlugboardToolPage *self);
void         plugboard_tool_page_update_permission     (PlugboardToolPage *self);
/* Notifies "running" (once self->run has changed). */
void         plugboard_tool_page_notify_running        (PlugboardToolPage *self);
void         plugboard_tool_page_emit_run_finished     (PlugboardToolPage *self,
                                                        McpPoolTool       *tool,
                                                        gboolean           succeeded,
                                                        const char        *message);
void         plugboard_tool_page_clear_list            (GtkListBox        *list);
/* "1.4 s", "2 min 05 s" */
char        *plugboard_tool_page_format_duration       (gint64             usec);

/* plugboard-tool-page-description.c */
/* The tool's description, annotations and schemas (self->tool may be NULL). */
void         plugboard_tool_page_update_description    (PlugboardToolPage *self);

/* plugboard-tool-page-arguments.c */
void         plugboard_tool_page_class_arguments_init  (GtkWidgetClass    *widget_class);
/* @message NULL hides it. */
void         plugboard_tool_page_show_arguments_error  (PlugboardToolPage *self,
                                                        const char        *message);
/* Keeps what was typed for the tool shown, for when it shows again. */
void         plugboard_tool_page_save_draft            (PlugboardToolPage *self);
/* The form of the tool's inputSchema, with its draft if it has one. */
void         plugboard_tool_page_rebuild_form          (PlugboardToolPage *self);

/* plugboard-tool-page-run.c */
/* The page lets go of its run: a plain call is cancelled with @cancel,
 * otherwise it goes on and its end is told by "run-finished". */
void         plugboard_tool_page_detach_run            (PlugboardToolPage *self,
                                                        gboolean           cancel);

/* plugboard-tool-page-task.c */
void         plugboard_tool_page_update_task_support   (PlugboardToolPage *self);
/* Whether Run makes a task: the tool requires it, or allows it and it is
 * checked. */
gboolean     plugboard_tool_page_get_as_task           (PlugboardToolPage *self);
/* @task NULL: the task is being started. */
void         plugboard_tool_page_show_task_state       (PlugboardToolPage *self,
                                                        McpTask           *task);
void         plugboard_tool_page_follow_task_end       (PlugboardToolPage *self,
                                                        Run               *run,
                                                        const char        *error_message);

/* plugboard-tool-page-history.c */
void         plugboard_tool_page_update_history        (PlugboardToolPage *self);
void         plugboard_tool_page_update_saved          (PlugboardToolPage *self);
void         plugboard_tool_page_save_arguments_action (GtkWidget         *widget,
                                                        const char        *action_name,
                                                        GVariant          *parameter);

/* plugboard-tool-page-traffic.c */
void         plugboard_tool_page_class_init_traffic    (GtkWidgetClass    *widget_class);
void         plugboard_tool_page_init_traffic          (PlugboardToolPage *self);
/* The pane follows the tool's server; unpinned, it closes for another tool. */
void         plugboard_tool_page_update_traffic        (PlugboardToolPage *self,
                                                        gboolean           other_tool);

/* plugboard-tool-page-app.c */
void         plugboard_tool_page_init_app              (PlugboardToolPage *self);
void         plugboard_tool_page_dispose_app           (PlugboardToolPage *self);
/* Another tool: the App view shows for a tool with an interface only. */
void         plugboard_tool_page_app_update            (PlugboardToolPage *self);
gboolean     plugboard_tool_page_app_has_interface     (PlugboardToolPage *self);
/* A run feeds a new view of the interface: its arguments, then its result
 * (@result) or why it did not give one (@error_message, NULL: cancelled). */
void         plugboard_tool_page_app_call_started      (PlugboardToolPage *self,
                                                        JsonObject        *arguments);
void         plugboard_tool_page_app_call_ended        (PlugboardToolPage *self,
                                                        McpHistoryEntry   *entry,
                                                        McpToolResult     *result,
                                                        const char        *error_message);
/* The CallToolResult of a call of this session, for its Show Interface. */
/* "camera, microphone" of what @resource declares, or "None". */
char        *plugboard_tool_page_app_dup_permissions_text (McpUiResource *resource);

G_END_DECLS
