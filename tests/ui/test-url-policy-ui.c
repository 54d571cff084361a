/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-url-policy-ui"

#include "config.h"

#include <stdio.h>
#include <string.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "plugboard-common.h"
#include "plugboard-elicitation-dialog.h"
#include "plugboard-interaction.h"
#include "ui-test-common.h"

/* Issue 20, finding 1, in the app: a URL-mode elicitation whose address the
 * URL policy refuses says so and why, offers no way to open it, and
 * launches nothing; an accepted one names its host before it opens. */

/* A label below @root showing text that contains @text. */
static gboolean
is_mapped_label_with (GtkWidget     *widget,
                      gconstpointer  text)
{
  return GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget) &&
         strstr (gtk_label_get_text (GTK_LABEL (widget)), text) != NULL;
}

static gboolean
label_contains (GtkWidget  *root,
                const char *text)
{
  return find_widget_matching (root, UI_WALK_ALL, is_mapped_label_with, text) != NULL;
}

/* No mapped label below @root shows a raw control character. */
static void
assert_no_controls (GtkWidget *root)
{
  if (GTK_IS_LABEL (root) && gtk_widget_get_mapped (root))
    for (const char *p = gtk_label_get_text (GTK_LABEL (root)); *p != '\0'; p++)
      g_assert_false (((guchar) *p < 0x20 && *p != '\n') || *p == 0x7f);

  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    assert_no_controls (child);
}

static GtkWidget *
find_button (GtkWidget  *root,
             const char *target)
{
  return find_actionable (root, "elicitation.respond", target);
}

static void
answered_cb (PlugboardElicitationDialog *dialog,
             JsonNode                   *result,
             char                      **out)
{
  g_assert_null (*out);
  *out = json_to_string (result, FALSE);
}

static PlugboardElicitationDialog *
url_dialog_new (const char  *url,
                char       **answer)
{
  g_autoptr(JsonObject) params = json_object_new ();
  PlugboardElicitationDialog *dialog;

  json_object_set_string_member (params, "mode", "url");
  json_object_set_string_member (params, "elicitationId", "e-1");
  json_object_set_string_member (params, "url", url);
  json_object_set_string_member (params, "message", "Connect your account");
  dialog = plugboard_elicitation_dialog_new (NULL, "weather", params);
  g_signal_connect (dialog, "answered", G_CALLBACK (answered_cb), answer);
  gtk_window_present (GTK_WINDOW (dialog));
  test_iterate_pending ();
  return dialog;
}

static void
test_elicitation_refused (void)
{
  const struct {
    const char *url;
    const char *says;
  } cases[] = {
    { "javascript:alert(document.cookie)", "“javascript:” address" },
    { "file:///etc/passwd", "“file:” address" },
    { "smb://evil.example/share", "“smb:” address" },
    { "connect?state=abc", "not a complete address" },
    { "http://evil.example/connect", "unencrypted http to “evil.example”" },
    { "--renderer-cmd-prefix=touch", "begins with “-”" },
    { "https://evil.example/\x1b[2K\x1b]0;pwned\x07", "\\u001b" },
  };
  g_autofree char *dir = g_dir_make_tmp ("test-url-policy-ui-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "opened", NULL);
  g_autofree char *command = g_strdup_printf ("sh -c 'printf %%s \"$0\" > %s'", out);

  g_setenv ("PLUGBOARD_TEST_OPEN_URL_COMMAND", command, TRUE);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *answer = NULL;
      g_autoptr(GtkWidget) dialog = g_object_ref (GTK_WIDGET (url_dialog_new (cases[i].url, &answer)));
      GtkWidget *accept = find_button (dialog, "accept");

      g_test_message ("%s", cases[i].says);
      /* What and why, with no way to open it. */
      g_assert_true (label_contains (dialog, "“weather” asks you to open a web page that Plugboard refuses"));
      g_assert_true (label_contains (dialog, "Plugboard will not open"));
      g_assert_true (label_contains (dialog, cases[i].says));
      assert_no_controls (dialog);
      g_assert_nonnull (accept);
      g_assert_false (gtk_widget_get_sensitive (accept));

      /* Even asked directly, accept does nothing. */
      plugboard_elicitation_dialog_respond (PLUGBOARD_ELICITATION_DIALOG (dialog), "accept");
      test_iterate_pending ();
      g_assert_null (answer);

      plugboard_elicitation_dialog_respond (PLUGBOARD_ELICITATION_DIALOG (dialog), "decline");
      test_iterate_pending ();
      g_assert_cmpstr (answer, ==, "{\"action\":\"decline\"}");
    }

  /* Nothing was launched. */
  g_usleep (200000);
  test_iterate_pending ();
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  g_unsetenv ("PLUGBOARD_TEST_OPEN_URL_COMMAND");
  g_rmdir (dir);
}

/* An address the policy lets through names its host before it opens. */
static void
test_elicitation_shows_host (void)
{
  g_autofree char *answer = NULL;
  g_autoptr(GtkWidget) dialog =
    g_object_ref (GTK_WIDGET (url_dialog_new ("https://Accounts.Example.COM:8443/connect?state=abc", &answer)));
  g_autoptr(GtkWidget) loopback = NULL;
  g_autofree char *loopback_answer = NULL;

  g_assert_true (label_contains (dialog, "“weather” asks you to open a web page at accounts.example.com"));
  g_assert_true (gtk_widget_get_sensitive (find_button (dialog, "accept")));
  plugboard_elicitation_dialog_respond (PLUGBOARD_ELICITATION_DIALOG (dialog), "decline");

  loopback = g_object_ref (GTK_WIDGET (url_dialog_new ("http://127.0.0.1:8080/connect", &loopback_answer)));
  g_assert_true (label_contains (loopback, "asks you to open a web page at 127.0.0.1"));
  g_assert_true (gtk_widget_get_sensitive (find_button (loopback, "accept")));
  plugboard_elicitation_dialog_respond (PLUGBOARD_ELICITATION_DIALOG (loopback), "decline");
}

/* ------------------------------------------------------------------------ */
/* MCP Apps (issue 25): a link a page asks to open, a file it offers        */

/* ui/open-link: the dialog names the server, shows the host prominently and
 * the whole address (selectable); Open opens it, Cancel opens nothing, and
 * an address the URL policy refuses gets no dialog at all. */
static void
test_open_link (void)
{
  const char *url = "https://Docs.Example.COM/guide/a/very/long/path/to/a/page?topic=apps&lang=en";
  g_autofree char *dir = g_dir_make_tmp ("test-url-policy-ui-XXXXXX", NULL);
  g_autofree char *out = g_build_filename (dir, "opened", NULL);
  g_autofree char *command = g_strdup_printf ("sh -c 'printf %%s \"$0\" > %s'", out);
  GtkWidget *window = gtk_window_new ();
  g_autoptr(McpInteraction) interaction = plugboard_interaction_new (GTK_WINDOW (window));
  const char * const answers[] = { "cancel", "open" };

  g_setenv ("PLUGBOARD_TEST_OPEN_URL_COMMAND", command, TRUE);

  for (guint i = 0; i < G_N_ELEMENTS (answers); i++)
    {
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(GError) error = NULL;
      AdwMessageDialog *dialog;
      GtkWidget *address;

      mcp_interaction_open_link_async (interaction, "weather", url, "docs.example.com",
                                       NULL, test_result_cb, &result);
      test_iterate_pending ();
      dialog = find_toplevel (ADW_TYPE_MESSAGE_DIALOG);
      g_assert_nonnull (dialog);
      g_assert_cmpstr (adw_message_dialog_get_heading (dialog), ==, "Open Link?");
      g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "“weather”"));
      g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "<b>docs.example.com</b>"));
      g_assert_true (adw_message_dialog_has_response (dialog, "open"));
      g_assert_cmpstr (adw_message_dialog_get_default_response (dialog), ==, "cancel");
      address = adw_message_dialog_get_extra_child (dialog);
      g_assert_true (GTK_IS_LABEL (address));
      g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (address)), ==, url);
      g_assert_true (gtk_label_get_selectable (GTK_LABEL (address)));

      adw_message_dialog_response (dialog, answers[i]);
      test_wait_result (&result, "open_link");
      g_assert_cmpint (mcp_interaction_open_link_finish (interaction, result, &error), ==, i == 1);
      g_assert_no_error (error);
      test_iterate_pending ();
      g_assert_null (find_toplevel (ADW_TYPE_MESSAGE_DIALOG));
      if (i == 0)
        {
          g_usleep (200000);
          g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
        }
    }

  /* Open launched the browser with the whole address. */
  for (guint tries = 0; tries < 100 && !g_file_test (out, G_FILE_TEST_EXISTS); tries++)
    test_wait_ms (50);
  {
    g_autofree char *opened = test_read_file (out);

    g_assert_cmpstr (opened, ==, url);
  }
  g_unlink (out);

  /* A hostile address is refused with the reason, without a dialog. */
  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GError) error = NULL;

    mcp_interaction_open_link_async (interaction, "weather", "javascript:alert(1)", "x",
                                     NULL, test_result_cb, &result);
    test_wait_result (&result, "open_link refused");
    g_assert_null (find_toplevel (ADW_TYPE_MESSAGE_DIALOG));
    g_assert_false (mcp_interaction_open_link_finish (interaction, result, &error));
    g_assert_nonnull (error);
    g_assert_nonnull (strstr (error->message, "javascript"));
  }

  /* A call cancelled while the dialog is up closes it. */
  {
    g_autoptr(GAsyncResult) result = NULL;
    g_autoptr(GError) error = NULL;
    g_autoptr(GCancellable) cancellable = g_cancellable_new ();

    mcp_interaction_open_link_async (interaction, "weather", url, "docs.example.com",
                                     cancellable, test_result_cb, &result);
    test_iterate_pending ();
    g_assert_nonnull (find_toplevel (ADW_TYPE_MESSAGE_DIALOG));
    g_cancellable_cancel (cancellable);
    test_wait_result (&result, "open_link cancelled");
    g_assert_false (mcp_interaction_open_link_finish (interaction, result, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    test_iterate_pending ();
    g_assert_null (find_toplevel (ADW_TYPE_MESSAGE_DIALOG));
  }

  g_unsetenv ("PLUGBOARD_TEST_OPEN_URL_COMMAND");
  gtk_window_destroy (GTK_WINDOW (window));
  g_rmdir (dir);
}

static gboolean
write_file (GFile   *file,
            GBytes  *bytes,
            GError **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  plugboard_write_file_async (file, bytes, NULL, test_result_cb, &result);
  test_wait_result (&result, "write");
  return plugboard_write_file_finish (result, error);
}

/* ui/download-file: what the file chooser's answer is written with
 * replaces a file whole, leaves no temporary file, and says why it
 * failed; a save the caller cancels closes the chooser and writes
 * nothing. */
static void
test_save_file (void)
{
  g_autofree char *dir = g_dir_make_tmp ("test-url-policy-ui-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "report.csv", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) nowhere = g_file_new_build_filename (dir, "missing", "report.csv", NULL);
  g_autoptr(GBytes) first = g_bytes_new_static ("a,b\n1,2\n", 8);
  g_autoptr(GBytes) second = g_bytes_new_static ("x\n", 2);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GDir) listing = NULL;
  guint n_files = 0;

  g_assert_true (write_file (file, first, &error));
  g_assert_no_error (error);
  contents = test_read_file (path);
  g_assert_cmpstr (contents, ==, "a,b\n1,2\n");
  g_assert_true (write_file (file, second, &error));
  g_clear_pointer (&contents, g_free);
  contents = test_read_file (path);
  g_assert_cmpstr (contents, ==, "x\n");
  listing = g_dir_open (dir, 0, NULL);
  while (g_dir_read_name (listing) != NULL)
    n_files++;
  g_assert_cmpuint (n_files, ==, 1);

  g_assert_false (write_file (nowhere, first, &error));
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_clear_error (&error);

  /* The person's chooser, closed by the call's cancellation: nothing. */
  {
    GtkWidget *window = gtk_window_new ();
    g_autoptr(McpInteraction) interaction = plugboard_interaction_new (GTK_WINDOW (window));
    g_autoptr(GCancellable) cancellable = g_cancellable_new ();
    g_autoptr(GAsyncResult) result = NULL;

    mcp_interaction_save_file_async (interaction, "budget", "report.csv", "text/csv", first,
                                     cancellable, test_result_cb, &result);
    test_wait_ms (200);
    g_assert_null (result);
    g_cancellable_cancel (cancellable);
    test_wait_result (&result, "save_file cancelled");
    g_assert_false (mcp_interaction_save_file_finish (interaction, result, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
    gtk_window_destroy (GTK_WINDOW (window));
  }

  g_unlink (path);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  if (!ui_test_has_display ())
    return 0;

  ui_test_init (&argc, &argv);

  g_test_add_func ("/ui/url-policy/elicitation-refused", test_elicitation_refused);
  g_test_add_func ("/ui/url-policy/elicitation-shows-host", test_elicitation_shows_host);
  g_test_add_func ("/ui/url-policy/app-open-link", test_open_link);
  g_test_add_func ("/ui/url-policy/app-save-file", test_save_file);

  return g_test_run ();
}
