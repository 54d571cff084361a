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
 */
GtkWidget *plugboard_task_list_new            (void);
/* nullable */
void       plugboard_task_list_set_connection (PlugboardTaskList   *self,
                                               McpServerConnection *connection);

G_END_DECLS
