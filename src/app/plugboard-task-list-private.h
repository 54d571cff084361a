/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-task.h"
#include "plugboard-result-view.h"
#include "plugboard-task-list.h"

G_BEGIN_DECLS

/* Shared by the parts of PlugboardTaskList: plugboard-task-list.c (the
 * widget, its connection, busy and errors), -rows.c (the rows), -refresh.c
 * (asking for the list) and -actions.c (Cancel, Get Result, Refresh). */

struct _PlugboardTaskList
{
  AdwBin               parent_instance;

  /* Template widgets */
  GtkLabel            *summary_label;
  GtkSpinner          *spinner;
  GtkRevealer         *error_revealer;
  GtkLabel            *error_label;
  GtkStack            *stack;
  AdwStatusPage       *list_error_page;
  GtkListView         *list_view;
  GtkWidget           *result_box;
  GtkLabel            *result_title;
  PlugboardResultView *result_view;

  /* Owned references */
  McpServerConnection *connection;
  GListStore          *tasks;
  GPtrArray           *rows;            /* the row widgets made, for the time tick */
  GCancellable        *list_cancellable;
  GCancellable        *result_cancellable;
  GCancellable        *cancellable;     /* everything else; cancelled in dispose */
  char                *result_task_id;

  guint                busy;
  guint                relative_source;
  guint                poll_source;
  guint                refresh_again : 1;
};

/* One request under way. Its answer counts only while its cancellable is
 * not cancelled: a newer request (another Refresh, another Get Result, or
 * another connection) cancels the older one, whose answer is then dropped
 * even when it comes anyway. */
typedef struct
{
  PlugboardTaskList *self;
  GCancellable      *cancellable;
} PlugboardTaskListOp;

PlugboardTaskListOp *plugboard_task_list_op_new     (PlugboardTaskList   *self,
                                                     GCancellable        *cancellable);
void                 plugboard_task_list_op_free    (PlugboardTaskListOp *op);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (PlugboardTaskListOp, plugboard_task_list_op_free)

/* The spinner shows while one or more requests are under way. */
void                 plugboard_task_list_busy_inc   (PlugboardTaskList   *self);
void                 plugboard_task_list_busy_dec   (PlugboardTaskList   *self);
/* @message in the error bar; NULL hides it. */
void                 plugboard_task_list_show_error (PlugboardTaskList   *self,
                                                     const char          *message);
/* The connection's client while it is connected, else NULL. */
McpClient           *plugboard_task_list_get_client (PlugboardTaskList   *self);

/* plugboard-task-list-rows.c */
/* Working or waiting for input. */
gboolean             plugboard_task_is_live                (McpTask             *task);
void                 plugboard_task_list_class_init_rows   (GtkWidgetClass      *widget_class);
/* "updated 2 minutes ago" on every row, brought up to date. */
void                 plugboard_task_list_update_row_times  (PlugboardTaskList   *self);

/* plugboard-task-list-refresh.c */
/* "N tasks, M under way" */
void                 plugboard_task_list_update_summary    (PlugboardTaskList   *self);
/* @task's new state, from a notification or an answer: its row is made
 * again; a task not listed yet asks for the whole list. */
void                 plugboard_task_list_show_task         (PlugboardTaskList   *self,
                                                            McpTask             *task);

/* plugboard-task-list-actions.c */
void                 plugboard_task_list_class_init_actions (GtkWidgetClass     *widget_class);
/* Hides the result view, cancelling a Get Result under way. */
void                 plugboard_task_list_close_result       (PlugboardTaskList  *self);

G_END_DECLS
