/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-skills-view"

#include "config.h"

#include <string.h>

#include "mcp-skills-fixture.h"
#include "plugboard-application.h"
#include "plugboard-server-page.h"
#include "plugboard-skills-view.h"
#include "plugboard-window.h"
#include "ui-test-common.h"
#include "ui-test-setup.h"

/* The server page's Skills tab (SEP-2640) in the window, against the
 * in-process skills fixture: shown only for a server that declares the
 * extension, the list read without fetching anything, Load shows the
 * verified SKILL.md, a mismatch an error state and nothing of the content,
 * a file fetched on demand. */

static PlugboardApplication *app;
static char *test_root;

typedef struct
{
  UiTestSetup          base;
  McpSkillsFixture    *fixture;
  PlugboardServerPage *page;
  McpServerConnection *connection;
  AdwViewStack        *stack;
} Setup;

static gboolean
settled_state (gpointer data)
{
  McpServerState state = mcp_server_connection_get_state (data);

  return state == MCP_SERVER_STATE_CONNECTED || state == MCP_SERVER_STATE_FAILED;
}

static void
setup_open (Setup                *setup,
            McpSkillsFixtureMode  mode)
{
  g_autofree char *json = NULL;

  setup->fixture = mcp_skills_fixture_new (mode);
  json = g_strdup_printf ("{\"mcpServers\": {\"docs\": {\"type\": \"http\", \"url\": \"%s\"}}}",
                          mcp_skills_fixture_get_url (setup->fixture));
  ui_test_setup_open (&setup->base, app, "test-skills-view", json, 1280, 800);

  setup->connection = g_object_ref (mcp_server_manager_lookup (mcp_project_get_manager (setup->base.project), "docs"));
  test_iterate_until (settled_state, setup->connection, "the server to connect or fail");
  g_assert_cmpint (mcp_server_connection_get_state (setup->connection), ==, MCP_SERVER_STATE_CONNECTED);

  g_assert_true (plugboard_window_show_server (setup->base.window, "docs"));
  setup->page = PLUGBOARD_SERVER_PAGE (template_child (setup->base.window, PLUGBOARD_TYPE_WINDOW, "server_page"));
  setup->stack = ADW_VIEW_STACK (template_child (setup->page, PLUGBOARD_TYPE_SERVER_PAGE, "view_stack"));
  test_iterate_pending ();
}

static void
setup_clear (Setup *setup)
{
  g_clear_object (&setup->connection);
  ui_test_setup_clear (&setup->base);
  g_clear_pointer (&setup->fixture, mcp_skills_fixture_free);
}

static gboolean
skills_tab_visible (Setup *setup)
{
  GtkWidget *view = adw_view_stack_get_child_by_name (setup->stack, "skills");

  return adw_view_stack_page_get_visible (adw_view_stack_get_page (setup->stack, view));
}

static GtkWidget *
show_skills (Setup *setup)
{
  adw_view_stack_set_visible_child_name (setup->stack, "skills");
  test_wait_ms (50);
  return adw_view_stack_get_child_by_name (setup->stack, "skills");
}

static GtkSingleSelection *
list_selection (GtkWidget *view)
{
  GtkListView *list = GTK_LIST_VIEW (find_widget (view, GTK_TYPE_LIST_VIEW));

  g_assert_nonnull (list);
  return GTK_SINGLE_SELECTION (gtk_list_view_get_model (list));
}

static gboolean
two_listed (gpointer data)
{
  return g_list_model_get_n_items (G_LIST_MODEL (list_selection (data))) == 2;
}

static void
select_skill (GtkWidget  *view,
              const char *uri)
{
  GtkSingleSelection *selection = list_selection (view);

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (selection)); i++)
    {
      g_autoptr(McpSkill) skill = g_list_model_get_item (G_LIST_MODEL (selection), i);

      if (g_str_equal (mcp_skill_get_uri (skill), uri))
        {
          gtk_single_selection_set_selected (selection, i);
          test_wait_ms (50);
          return;
        }
    }
  g_error ("no skill %s in the list", uri);
}

static GtkWidget *
find_button_with_label (GtkWidget  *widget,
                        const char *label)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0
      && gtk_widget_get_mapped (widget))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button_with_label (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static gboolean
content_is (gpointer data)
{
  GtkStack *stack = data;

  return g_strcmp0 (gtk_stack_get_visible_child_name (stack), "empty") != 0;
}

static const char *
load_and_wait (GtkWidget  *view,
               const char *button_label)
{
  GtkWidget *button = find_button_with_label (view, button_label);
  GtkStack *stack = GTK_STACK (template_child (view, PLUGBOARD_TYPE_SKILLS_VIEW, "content_stack"));

  g_assert_nonnull (button);
  g_assert_true (gtk_widget_is_sensitive (button));
  gtk_stack_set_visible_child_name (stack, "empty");
  click_sensitive (button);
  test_iterate_until (content_is, stack, "the skill's content or its failure");
  return gtk_stack_get_visible_child_name (stack);
}

static void
save_screenshot (GtkWidget  *widget,
                 const char *path)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);

  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  g_assert_true (gdk_texture_save_to_png (texture, path));
}

/* The tab, the list (nothing read), Load: the verified SKILL.md as
 * Markdown; a file on demand. */
static void
test_list_and_load (void)
{
  Setup setup = { 0 };
  GtkWidget *view;
  GtkLabel *content;
  const char *shot = g_getenv ("PLUGBOARD_TEST_SCREENSHOT_DIR");

  setup_open (&setup, MCP_SKILLS_FIXTURE_GOOD);
  g_assert_true (skills_tab_visible (&setup));
  view = show_skills (&setup);
  test_iterate_until (two_listed, view, "the skills to be listed");
  wait_frames (5);
  g_assert_true (has_shown_label_with (view, "pdf-processing"));
  g_assert_true (has_shown_label_with (view, "3 files"));
  g_assert_cmpuint (mcp_skills_fixture_count_reads (setup.fixture, NULL), ==, 0);

  select_skill (view, MCP_SKILLS_FIXTURE_PDF_URI);
  wait_frames (5);
  g_assert_true (has_shown_label_with (view, "references/FORMS.md"));
  g_assert_true (has_shown_label_with (view, "sha256:"));
  g_assert_cmpuint (mcp_skills_fixture_count_reads (setup.fixture, NULL), ==, 0);

  g_assert_cmpstr (load_and_wait (view, "_Load"), ==, "content");
  content = GTK_LABEL (template_child (view, PLUGBOARD_TYPE_SKILLS_VIEW, "content_label"));
  g_assert_nonnull (strstr (gtk_label_get_text (content), "PDF processing"));
  /* The body as Markdown, not the frontmatter's lines */
  g_assert_null (strstr (gtk_label_get_text (content), "license: Apache-2.0"));
  g_assert_cmpuint (mcp_skills_fixture_count_reads (setup.fixture, MCP_SKILLS_FIXTURE_PDF_URI), ==, 1);
  g_assert_cmpuint (mcp_skills_fixture_count_reads (setup.fixture, MCP_SKILLS_FIXTURE_FORMS_URI), ==, 0);
  wait_frames (10);
  if (shot != NULL)
    {
      g_autofree char *path = g_build_filename (shot, "skills-loaded.png", NULL);

      save_screenshot (GTK_WIDGET (setup.base.window), path);
    }

  /* A file, fetched when asked for */
  {
    GtkListBox *files = GTK_LIST_BOX (template_child (view, PLUGBOARD_TYPE_SKILLS_VIEW, "files_list"));
    GtkWidget *row = GTK_WIDGET (gtk_list_box_get_row_at_index (files, 1));
    GtkWidget *show = find_button_with_label (row, "_Show");
    GtkStack *stack = GTK_STACK (template_child (view, PLUGBOARD_TYPE_SKILLS_VIEW, "content_stack"));

    g_assert_nonnull (show);
    gtk_stack_set_visible_child_name (stack, "empty");
    click_sensitive (show);
    test_iterate_until (content_is, stack, "the file");
    g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "content");
    g_assert_nonnull (strstr (gtk_label_get_text (content), "Fill every field."));
    g_assert_cmpuint (mcp_skills_fixture_count_reads (setup.fixture, MCP_SKILLS_FIXTURE_FORMS_URI), ==, 1);
  }

  setup_clear (&setup);
}

/* A mismatch: the error state names the check; nothing of the content is
 * shown and nothing more is read. */
static void
test_mismatch (void)
{
  Setup setup = { 0 };
  GtkWidget *view;
  AdwStatusPage *failed;
  const char *shot = g_getenv ("PLUGBOARD_TEST_SCREENSHOT_DIR");

  setup_open (&setup, MCP_SKILLS_FIXTURE_FRONTMATTER_CHANGED);
  view = show_skills (&setup);
  test_iterate_until (two_listed, view, "the skills to be listed");
  select_skill (view, MCP_SKILLS_FIXTURE_PDF_URI);

  g_assert_cmpstr (load_and_wait (view, "_Load"), ==, "failed");
  failed = ADW_STATUS_PAGE (template_child (view, PLUGBOARD_TYPE_SKILLS_VIEW, "failed_page"));
  g_assert_nonnull (strstr (adw_status_page_get_description (failed), "Verification failed (frontmatter)"));
  g_assert_nonnull (strstr (adw_status_page_get_description (failed), "field “description” differs"));
  g_assert_nonnull (strstr (adw_status_page_get_description (failed), "the content was not used"));
  g_assert_false (has_shown_label_with (view, "PDF processing"));
  g_assert_cmpuint (mcp_skills_fixture_count_reads (setup.fixture, MCP_SKILLS_FIXTURE_FORMS_URI), ==, 0);
  wait_frames (10);
  if (shot != NULL)
    {
      g_autofree char *path = g_build_filename (shot, "skills-mismatch.png", NULL);

      save_screenshot (GTK_WIDGET (setup.base.window), path);
    }

  setup_clear (&setup);
}

/* No extension, no tab, nothing asked. */
static void
test_not_offered (void)
{
  Setup setup = { 0 };

  setup_open (&setup, MCP_SKILLS_FIXTURE_NO_EXTENSION);
  wait_frames (5);
  g_assert_false (skills_tab_visible (&setup));
  g_assert_cmpuint (mcp_skills_fixture_count (setup.fixture, "skills/list"), ==, 0);
  setup_clear (&setup);
}

int
main (int   argc,
      char *argv[])
{
  if (!ui_test_has_display ())
    return 0;

  test_root = ui_test_make_root ("test-skills-view", UI_TEST_XDG_CONFIG);
  app = ui_test_start (&argc, &argv);

  g_test_add_func ("/ui/skills-view/list-and-load", test_list_and_load);
  g_test_add_func ("/ui/skills-view/mismatch", test_mismatch);
  g_test_add_func ("/ui/skills-view/not-offered", test_not_offered);

  return ui_test_run_and_clean (&app, &test_root);
}
