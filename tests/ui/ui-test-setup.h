/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-project.h"
#include "mcp-token-store.h"
#include "mcp-tool-history.h"
#include "plugboard-application.h"
#include "plugboard-tool-page.h"
#include "plugboard-window.h"

G_BEGIN_DECLS

/* A window on a project in the test's own folders: what most of the app's
 * tests start from (on top of ui-test-common.h). */

/* main() of a test of widgets alone: g_test_init() and the hang bound
 * @hang_bound_s, then GTK (gtk_init_check(), not gtk_test_init()) and
 * Adwaita; FALSE, after the TAP line that skips the whole test, when there
 * is no display (main() returns 0 then). */
gboolean         ui_test_init_widgets (int                    *argc,
                                       char                 ***argv,
                                       guint                   hang_bound_s);

/* main() of a test whose windows need the application: ui_test_init(),
 * the hang bound UI_TEST_HANG_BOUND_S, and the application. */
PlugboardApplication *ui_test_start (int                    *argc,
                                     char                 ***argv);
/* g_test_run(), then *@app freed and *@root (ui_test_make_root()) removed
 * and freed; what g_test_run() returned. */
int              ui_test_run_and_clean (PlugboardApplication **app,
                                        char                 **root);

/* Shows a new window of @app on @project, @width × @height, and returns
 * once the project has loaded and its servers have settled. */
PlugboardWindow *ui_test_window_open  (PlugboardApplication *app,
                                       McpProject           *project,
                                       int                   width,
                                       int                   height);
/* Destroys the dialogs left over, then *@window (if not NULL), and sets it
 * to NULL; what the destruction queues is dispatched. */
void             ui_test_window_close (PlugboardWindow     **window);

/* Shows the tool @qualified_name on @window's tool page (win.show-tool)
 * and returns the page, which must show it. */
PlugboardToolPage *ui_test_open_tool (PlugboardWindow *window,
                                      const char      *qualified_name);

/* A manager whose servers connect within @connect_timeout_ms, signing in
 * with @store and keeping its needs-auth cache in @dir. */
McpServerManager *ui_test_manager_new (McpTokenStore        *store,
                                       const char           *dir,
                                       guint                 connect_timeout_ms);

typedef struct
{
  char            *dir;          /* the test's folder, removed at the end */
  char            *user_dir;     /* dir/config: the user scope's folder */
  char            *project_dir;  /* dir/project */
  McpProject      *project;
  PlugboardWindow *window;
  McpToolHistory  *history;      /* dir/data/saved-arguments.json */
} UiTestSetup;

/* Makes a new folder ("plugboard-@name-XXXXXX" in the temporary folder)
 * with a project folder in it, writes @settings (JSON text) as the user
 * scope's settings.json, and opens a window of @app, @width × @height, on
 * a new project there (its servers connect within 20 s; its saved
 * arguments in the folder), loaded and settled. */
void ui_test_setup_open  (UiTestSetup          *setup,
                          PlugboardApplication *app,
                          const char           *name,
                          const char           *settings,
                          int                   width,
                          int                   height);
/* Closes the window and the dialogs left, drops the project and removes
 * the folder. */
void ui_test_setup_clear (UiTestSetup          *setup);

/* A project in folders below a run's root, opened and closed as a person
 * starts and quits the app (the files stay between), signing in with a
 * token store in a file there. */
typedef struct
{
  char            *dir;           /* root/setup-N */
  char            *user_dir;      /* dir/config (made) */
  char            *project_dir;   /* dir/@project_name (made) */
  char            *user_file;     /* user_dir/settings.json */
  char            *project_file;  /* project_dir/.mcp.json */
  McpTokenStore   *store;         /* dir/credentials.json */
  McpProject      *project;
  PlugboardWindow *window;
} UiTestProject;

void ui_test_project_init  (UiTestProject        *setup,
                            const char           *root,
                            const char           *project_name);
/* A new project and window of @app on the files, @width × @height, loaded
 * and settled; its servers connect within 10 s. */
void ui_test_project_open  (UiTestProject        *setup,
                            PlugboardApplication *app,
                            int                   width,
                            int                   height);
/* Closes the window and drops the project (its manager stops the
 * servers); the files stay. */
void ui_test_project_close (UiTestProject        *setup);
/* Closes, and frees the paths; the files stay for the root's removal. */
void ui_test_project_clear (UiTestProject        *setup);

G_END_DECLS
