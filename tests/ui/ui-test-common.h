/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "mcp-form-field.h"
#include "mcp-project.h"
#include "plugboard-application.h"
#include "plugboard-elicitation-dialog.h"
#include "plugboard-server-editor.h"
#include "plugboard-server-row.h"
#include "plugboard-tool-page.h"
#include "plugboard-window.h"
#include "test-util.h"

G_BEGIN_DECLS

/* What the app's tests share, on top of tests/common/test-util.h (waiting,
 * async results, files): finding widgets in a window's tree, clicking, and
 * the window's project and pages. */

/* The ui tests wait longer than the engine's (a window draws and a real
 * server starts); main() sets it with test_set_hang_bound(). */
#define UI_TEST_HANG_BOUND_S 90

/* ------------------------------------------------------------------------ */
/* main()                                                                   */

/* FALSE, after the TAP line that skips the whole test, when there is no
 * display (gtk_test_init() would abort): main() returns 0 then. */
gboolean   ui_test_has_display   (void);

/* The XDG folders ui_test_make_root() points below the run's own folder. */
typedef enum
{
  UI_TEST_XDG_CONFIG = 1 << 0,
  UI_TEST_XDG_DATA   = 1 << 1,
  UI_TEST_XDG_CACHE  = 1 << 2,
} UiTestXdg;

/* A new temporary folder for the run ("plugboard-@name-XXXXXX") with the
 * @xdg folders below it (xdg-config, xdg-data, xdg-cache) in the
 * environment, so that nothing of the person's settings is read or
 * written. Before ui_test_init(): GLib reads them once. */
char      *ui_test_make_root     (const char *name,
                                  UiTestXdg   xdg);

/* Makes the app's "open this URL" write the URL to a file instead
 * (PLUGBOARD_TEST_OPEN_URL_COMMAND): returns the file, @dir/opened-url,
 * which appears whole (written aside, then renamed) once a URL is opened. */
char      *ui_test_record_opened_urls (const char *dir);

/* gtk_test_init() and adw_init(). */
void       ui_test_init          (int        *argc,
                                  char     ***argv);

/* The application of the test's windows: non-unique (the test's
 * activations and actions never go to a running Plugboard), registered and
 * held (alive between windows, as g_application_run() would keep it). */
PlugboardApplication *ui_test_application_new (void);
/* Releases and unrefs it. */
void       ui_test_application_free (PlugboardApplication *app);

/* ------------------------------------------------------------------------ */
/* Finding widgets                                                          */

/* Whether a widget matches what a search looks for. */
typedef gboolean (*UiWidgetMatch) (GtkWidget     *widget,
                                   gconstpointer  data);

/* Which widgets a search walks into: every one, or only those shown
 * (gtk_widget_get_visible()), or only those shown and not hidden by their
 * parent either (gtk_widget_get_child_visible(): a stack's other pages). */
typedef enum
{
  UI_WALK_ALL,
  UI_WALK_VISIBLE,
  UI_WALK_SHOWN,
} UiWalk;

/* The first widget at or below @root, depth first, that @match accepts;
 * what @walk leaves out is not looked at, nor anything below it. */
GtkWidget *find_widget_matching  (GtkWidget     *root,
                                  UiWalk         walk,
                                  UiWidgetMatch  match,
                                  gconstpointer  data);
/* The template child @name of @widget (an instance of @type, the class
 * whose template has it); the test fails when there is none. */
GtkWidget *template_child        (gpointer       widget,
                                  GType          type,
                                  const char    *name);
/* The first widget of @type at or below @root, depth first. */
GtkWidget *find_widget           (GtkWidget     *root,
                                  GType          type);
/* The first button with the action @action (and, unless @target is NULL,
 * the string target @target). */
GtkWidget *find_button_with_action (GtkWidget  *root,
                                    const char *action);
GtkWidget *find_button_with_target (GtkWidget  *root,
                                    const char *action,
                                    const char *target);
/* The same for any actionable widget (a switch, a row…), not only a
 * button. */
GtkWidget *find_actionable       (GtkWidget     *root,
                                  const char    *action,
                                  const char    *target);
/* Appends to @out every widget of @type at or below @root, depth first. */
void       collect_widgets       (GtkWidget     *root,
                                  GType          type,
                                  GPtrArray     *out);
/* The first toplevel window of @type, or NULL. */
gpointer   find_toplevel         (GType          type);
/* Whether a label whose text contains @text is visible (its widget and
 * every one above it shown), or shown (not on a stack's hidden page
 * either). */
gboolean   has_visible_label_with (GtkWidget  *root,
                                   const char *text);
gboolean   has_shown_label_with  (GtkWidget  *root,
                                  const char *text);
/* Whether a visible widget has the style class @css_class. */
gboolean   has_visible_class     (GtkWidget  *root,
                                  const char *css_class);
/* Whether a picture with a paintable is there (@visible: and is itself
 * visible). */
gboolean   has_picture           (GtkWidget  *root,
                                  gboolean    visible);

/* ------------------------------------------------------------------------ */
/* Acting                                                                   */

/* What a click does, at once (gtk_widget_activate() on a button clicks
 * only after a short pressed look), without dispatching anything. */
void       click                 (GtkWidget  *button);
/* The same on a button that must be sensitive. */
void       click_sensitive       (GtkWidget  *button);

/* Lets a window lay out and draw: @n pauses of 20 ms, then what is ready
 * is dispatched. */
void       wait_frames           (guint       n);

/* Destroys every toplevel but the PlugboardWindows (dialogs left over). */
void       close_other_toplevels (void);

/* ------------------------------------------------------------------------ */
/* The window's project and pages                                           */

/* A TestCondition: the McpProject @data has loaded. */
gboolean   project_loaded        (gpointer    data);
/* Waits until @project's servers have settled (connected or failed). */
void       settle_project        (McpProject *project);

/* server-everything's entry of an "mcpServers" object ("everything": {…}),
 * or NULL when node or the script is missing. */
char      *everything_servers    (void);

/* A tool page: its "running" (TestConditions), and its form's field. */
gboolean   page_running          (gpointer    data);
gboolean   page_idle             (gpointer    data);
McpFormField *page_form_field    (PlugboardToolPage *page);

/* The elicitation dialog shown, if any; TestConditions on it. */
PlugboardElicitationDialog *find_elicitation_dialog (void);
gboolean   elicitation_shown     (gpointer    data);
gboolean   no_elicitation_dialog (gpointer    data);

/* ------------------------------------------------------------------------ */
/* The window's server list                                                 */

/* A template child of the window. */
GtkWidget *window_child          (PlugboardWindow    *window,
                                  const char         *name);
/* The rows the server list shows (of the visible section), in order. */
GPtrArray *window_rows           (PlugboardWindow    *window);
/* The name of the server a row shows (its connection's or config's). */
const char *server_row_name      (PlugboardServerRow *row);
/* The row of the server @name, or NULL. */
PlugboardServerRow *window_find_row (PlugboardWindow *window,
                                     const char      *name);
/* Waits until the row of @name says @text as its state (the row is looked
 * up again each time: the list may make its rows anew). */
void       window_wait_row_text  (PlugboardWindow    *window,
                                  const char         *name,
                                  const char         *text);

/* ------------------------------------------------------------------------ */
/* The window's actions and the server editor                              */

/* Activates the window action @action (which must be there and enabled). */
void       window_activate       (PlugboardWindow    *window,
                                  const char         *action,
                                  GVariant           *parameter);
/* The server editor shown, if any; a TestCondition that it is gone. */
PlugboardServerEditor *find_server_editor (void);
gboolean   server_editor_gone    (gpointer            data);
/* A plugboard_server_editor_save_async() callback that must succeed; sets
 * the gboolean @user_data. */
void       server_editor_saved_cb (GObject           *object,
                                   GAsyncResult      *result,
                                   gpointer           user_data);
/* Opens the editor with @action (and @parameter), fills it with @json and
 * saves, as a person pasting JSON and pressing Save does; returns once it
 * has closed. */
void       window_edit_in_editor (PlugboardWindow    *window,
                                  const char         *action,
                                  GVariant           *parameter,
                                  const char         *json);

G_END_DECLS
