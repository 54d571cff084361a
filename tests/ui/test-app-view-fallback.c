/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-app-view-fallback"

#include "config.h"

#include <string.h>

#include <adwaita.h>

#include "plugboard-app-view.h"
#include "ui-test-common.h"
#include "ui-test-setup.h"

/* Issue 25, built without WebKit (-Dapps=disabled): the App view says why
 * there is no interface, and how to open it elsewhere. */

static gboolean
is_status_page (GtkWidget     *widget,
                gconstpointer  data)
{
  return ADW_IS_STATUS_PAGE (widget);
}

static void
test_app_view_fallback (void)
{
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());
  GtkWidget *view = plugboard_app_view_new ();
  GtkWidget *status;

  g_assert_false (plugboard_app_view_is_supported ());

  gtk_window_set_child (window, view);
  gtk_window_present (window);
  test_iterate_pending ();

  status = find_widget_matching (view, UI_WALK_SHOWN, is_status_page, NULL);
  g_assert_nonnull (status);
  g_assert_true (gtk_widget_get_mapped (status));
  g_assert_nonnull (strstr (adw_status_page_get_description (ADW_STATUS_PAGE (status)),
                            "plugboard-cli app NAME --save DIR"));
  g_assert_null (plugboard_app_view_get_web_view (PLUGBOARD_APP_VIEW (view)));
  g_assert_false (plugboard_app_view_get_loaded (PLUGBOARD_APP_VIEW (view)));

  gtk_window_destroy (window);
  test_iterate_pending ();
}

int
main (int   argc,
      char *argv[])
{
  if (!ui_test_init_widgets (&argc, &argv, UI_TEST_HANG_BOUND_S))
    return 0;

  g_test_add_func ("/ui/app-view/fallback", test_app_view_fallback);

  return g_test_run ();
}
