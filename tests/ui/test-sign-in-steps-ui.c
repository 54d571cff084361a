/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-sign-in-steps-ui"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "mcp-sign-in-steps.h"
#include "mcp-trace.h"
#include "plugboard-sign-in-steps.h"
#include "test-util.h"
#include "ui-test-common.h"

/* PlugboardSignInSteps (issue 24) fed with a recorded trace: one row a
 * step with its status, what it says, the exchange to expand, the
 * authorization URL to copy; new steps as they are recorded; a JSON
 * Lines file replayed, a broken one refused naming its line; no secret in
 * any label. */

#define AUTHORIZATION_URL "http://127.0.0.1:1/as/authorize?client_id=client-1&state=st4te&code_challenge=ch4llenge&code_challenge_method=S256"

/* A sign-in as the auth code records it: a 404, the authorization URL,
 * a token exchange whose request and answer hold secrets, a failure. */
static McpTrace *
recorded_trace (void)
{
  McpTrace *trace = mcp_trace_new (MCP_TRACE_DEFAULT_MAX_BYTES);
  g_autoptr(SoupMessage) prm = soup_message_new ("GET", "http://127.0.0.1:1/.well-known/oauth-protected-resource");
  g_autoptr(SoupMessage) token = soup_message_new ("POST", "http://127.0.0.1:1/as/token");
  static const char form[] = "grant_type=authorization_code&code=SECRETCODE&code_verifier=SECRETVERIFIER";
  static const char answer[] = "{\"access_token\":\"SECRETTOKEN\",\"refresh_token\":\"SECRETREFRESH\","
                               "\"token_type\":\"Bearer\",\"expires_in\":3600}";
  McpTraceEntry *exchange;

  soup_message_headers_replace (soup_message_get_request_headers (token), "Authorization",
                                "Basic U0VDUkVUQkFTSUM=");
  exchange = mcp_trace_record_http (trace, prm, NULL, 0, NULL);
  mcp_trace_http_got_body (trace, exchange, "Not found", 9);
  mcp_trace_record_auth_step (trace, "protected-resource-metadata", MCP_TRACE_STEP_SKIPPED,
                              "Not at “http://127.0.0.1:1/.well-known/oauth-protected-resource” (HTTP 404)",
                              mcp_trace_entry_get_seq (exchange));
  mcp_trace_record_auth_step_url (trace, "authorization-url", MCP_TRACE_STEP_INFO,
                                  "Opening the authorization URL in the browser", AUTHORIZATION_URL);
  exchange = mcp_trace_record_http (trace, token, form, sizeof form - 1, "application/x-www-form-urlencoded");
  mcp_trace_http_got_body (trace, exchange, answer, sizeof answer - 1);
  mcp_trace_record_auth_step (trace, "token-exchange", MCP_TRACE_STEP_OK,
                              "“http://127.0.0.1:1/as/token” answered HTTP 200",
                              mcp_trace_entry_get_seq (exchange));
  mcp_trace_record_auth_step (trace, "sign-in", MCP_TRACE_STEP_FAILED,
                              "Signed in, but the tokens could not be stored", 0);
  return trace;
}

static guint
count_rows (PlugboardSignInSteps *window)
{
  GtkWidget *list = template_child (window, PLUGBOARD_TYPE_SIGN_IN_STEPS, "list");
  guint n = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (list); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n++;
  return n;
}

/* No label of @window holds a secret of recorded_trace(). */
static void
assert_no_secret (PlugboardSignInSteps *window)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  static const char *secrets[] = { "SECRETCODE", "SECRETVERIFIER", "SECRETTOKEN", "SECRETREFRESH",
                                   "U0VDUkVUQkFTSUM" };

  collect_widgets (GTK_WIDGET (window), GTK_TYPE_LABEL, labels);
  g_assert_cmpuint (labels->len, >, 0);
  for (guint i = 0; i < labels->len; i++)
    {
      const char *text = gtk_label_get_label (g_ptr_array_index (labels, i));

      for (guint j = 0; j < G_N_ELEMENTS (secrets); j++)
        if (strstr (text, secrets[j]) != NULL)
          g_error ("a label shows %s: %s", secrets[j], text);
    }
}

static void
clipboard_read_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  char **text = user_data;

  *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (object), result, NULL);
  if (*text == NULL)
    *text = g_strdup ("");
}

static void
test_live (void)
{
  g_autoptr(McpTrace) trace = recorded_trace ();
  PlugboardSignInSteps *window = plugboard_sign_in_steps_new (NULL, "fixture", trace);
  g_autoptr(GPtrArray) expanders = g_ptr_array_new ();
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();
  GtkWidget *stack = template_child (window, PLUGBOARD_TYPE_SIGN_IN_STEPS, "stack");
  GtkWidget *copy = NULL;
  g_autofree char *copied = NULL;

  gtk_window_present (GTK_WINDOW (window));
  wait_frames (3);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "steps");
  g_assert_cmpuint (count_rows (window), ==, 4);

  /* Titles in plain words, what each says, and its status. */
  g_assert_true (has_visible_label_with (GTK_WIDGET (window), "Protected resource metadata"));
  g_assert_true (has_visible_label_with (GTK_WIDGET (window), "(HTTP 404)"));
  g_assert_true (has_visible_label_with (GTK_WIDGET (window), "Authorization URL"));
  g_assert_true (has_visible_label_with (GTK_WIDGET (window), "Token exchange"));
  g_assert_true (has_visible_label_with (GTK_WIDGET (window), "Result"));
  g_assert_true (has_visible_class (GTK_WIDGET (window), "error"));
  g_assert_true (has_visible_class (GTK_WIDGET (window), "success"));

  /* Every step with an exchange or a URL expands to show it. */
  collect_widgets (GTK_WIDGET (window), ADW_TYPE_EXPANDER_ROW, expanders);
  g_assert_cmpuint (expanders->len, ==, 3);
  for (guint i = 0; i < expanders->len; i++)
    adw_expander_row_set_expanded (g_ptr_array_index (expanders, i), TRUE);
  wait_frames (3);
  g_assert_true (has_visible_label_with (GTK_WIDGET (window), "POST http://127.0.0.1:1/as/token"));
  g_assert_true (has_visible_label_with (GTK_WIDGET (window), "grant_type=authorization_code&code=***"));
  g_assert_true (has_visible_label_with (GTK_WIDGET (window), "\"token_type\" : \"Bearer\""));
  g_assert_true (has_visible_label_with (GTK_WIDGET (window), "HTTP 0") == FALSE);
  g_assert_true (has_visible_label_with (GTK_WIDGET (window), AUTHORIZATION_URL));
  assert_no_secret (window);

  /* The URL copied whole. */
  collect_widgets (GTK_WIDGET (window), GTK_TYPE_BUTTON, buttons);
  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_widget_get_tooltip_text (g_ptr_array_index (buttons, i)),
                   "Copy the authorization URL") == 0)
      copy = g_ptr_array_index (buttons, i);
  g_assert_nonnull (copy);
  click (copy);
  gdk_clipboard_read_text_async (gtk_widget_get_clipboard (copy), NULL, clipboard_read_cb, &copied);
  while (copied == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpstr (copied, ==, AUTHORIZATION_URL);

  /* Live: a step recorded now appears. */
  mcp_trace_record_auth_step (trace, "refresh", MCP_TRACE_STEP_OK, "Renewed", 0);
  wait_frames (2);
  g_assert_cmpuint (count_rows (window), ==, 5);
  g_assert_true (has_visible_label_with (GTK_WIDGET (window), "Renewed"));

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_replay (void)
{
  g_autoptr(McpTrace) trace = recorded_trace ();
  g_autoptr(GString) jsonl = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("plugboard-sign-in-steps-ui-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "trace.jsonl", NULL);
  g_autofree char *broken = g_build_filename (dir, "broken.jsonl", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFile) broken_file = g_file_new_for_path (broken);
  PlugboardSignInSteps *window = plugboard_sign_in_steps_new (NULL, NULL, NULL);
  GtkWidget *stack = template_child (window, PLUGBOARD_TYPE_SIGN_IN_STEPS, "stack");
  g_autoptr(GPtrArray) expanders = g_ptr_array_new ();

  gtk_window_present (GTK_WINDOW (window));
  wait_frames (2);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "empty");

  mcp_trace_append_jsonl (trace, "fixture", jsonl);
  g_assert_true (g_file_set_contents (path, jsonl->str, jsonl->len, NULL));
  g_assert_true (plugboard_sign_in_steps_load_file (window, file, &error));
  g_assert_no_error (error);
  wait_frames (2);
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (stack)), ==, "steps");
  g_assert_cmpuint (count_rows (window), ==, 4);
  collect_widgets (GTK_WIDGET (window), ADW_TYPE_EXPANDER_ROW, expanders);
  for (guint i = 0; i < expanders->len; i++)
    adw_expander_row_set_expanded (g_ptr_array_index (expanders, i), TRUE);
  wait_frames (2);
  g_assert_true (has_visible_label_with (GTK_WIDGET (window), "grant_type=authorization_code&code=***"));
  assert_no_secret (window);

  /* A line that is not a record: refused, naming the file and the line;
   * what was shown stays. */
  g_assert_true (g_file_set_contents (broken, "{\"seq\":1,\"kind\":\"auth\"}\nnot json\n", -1, NULL));
  g_assert_false (plugboard_sign_in_steps_load_file (window, broken_file, &error));
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "broken.jsonl"));
  g_assert_cmpuint (count_rows (window), ==, 4);

  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
  g_unlink (broken);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  if (!ui_test_has_display ())
    return 0;

  ui_test_init (&argc, &argv);
  test_set_hang_bound (20);

  g_test_add_func ("/ui/sign-in-steps/live", test_live);
  g_test_add_func ("/ui/sign-in-steps/replay", test_replay);

  return g_test_run ();
}
