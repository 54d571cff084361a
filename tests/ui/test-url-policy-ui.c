/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-url-policy-ui"

#include "config.h"

#include <stdio.h>
#include <string.h>

#include <adwaita.h>
#include <glib/gstdio.h>

#include "plugboard-elicitation-dialog.h"
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

int
main (int   argc,
      char *argv[])
{
  if (!ui_test_has_display ())
    return 0;

  ui_test_init (&argc, &argv);

  g_test_add_func ("/ui/url-policy/elicitation-refused", test_elicitation_refused);
  g_test_add_func ("/ui/url-policy/elicitation-shows-host", test_elicitation_shows_host);

  return g_test_run ();
}
