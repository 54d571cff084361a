/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>
#include <json-glib/json-glib.h>

#include "mcp-server-manager.h"

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_TASK_LIST (plugboard_task_list_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardTaskList, plugboard_task_list, PLUGBOARD, TASK_LIST, AdwBin)

/**
 * PlugboardTaskList:
 *
 * The server page's Tasks tab for one connection: tasks/list (refreshed
 * when shown, with a Refresh button, and on notifications/tasks/status):
 * each task's id, status, status message and last update; Cancel for one
 * that is working or waiting for input; Get Result for a completed one,
 * shown in a PlugboardResultView. Says plainly when the server has no
 * tasks or does not list them.
 *
 * Actions: tasks.refresh, tasks.cancel (s: the task id), tasks.get-result
 * (s: the task id).
 */
GtkWidget *plugboard_task_list_new            (void);
/* nullable */
void       plugboard_task_list_set_connection (PlugboardTaskList   *self,
                                               McpServerConnection *connection);

/* For tests: asks tasks/list again now (as the Refresh button does). */
void       plugboard_task_list_refresh        (PlugboardTaskList   *self);
/* For tests: TRUE while tasks/list, tasks/cancel or tasks/result is under
 * way; "loading", "disconnected", "unsupported", "empty", "error" or
 * "list"; the tasks shown (a GListModel of McpTask); the result view of
 * Get Result. */
gboolean    plugboard_task_list_get_busy       (PlugboardTaskList   *self);
const char *plugboard_task_list_get_page_name  (PlugboardTaskList   *self);
GListModel *plugboard_task_list_get_tasks      (PlugboardTaskList   *self);
GtkWidget  *plugboard_task_list_get_result_view (PlugboardTaskList  *self);

/* A task status in words ("Working", "Input required", …; the server's own
 * word for a status this client does not know) and its symbolic icon;
 * shared with the tool page. */
char       *plugboard_task_status_dup_label    (McpTask             *task);
const char *plugboard_task_status_icon_name    (McpTaskStatus        status);

G_END_DECLS
