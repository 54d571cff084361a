/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mcp-tool-pool.h"

#include <string.h>

#include "test-fake-connection.h"

static void
add_tool (TestFakeConnection *connection,
          const char         *name)
{
  g_autofree char *json = g_strdup_printf ("{\"name\":\"%s\",\"inputSchema\":{\"type\":\"object\"}}", name);

  test_fake_connection_add_tool (connection, json);
}

static const char *
name_at (McpToolPool *pool,
         guint        position)
{
  g_autoptr(McpPoolTool) tool = g_list_model_get_item (G_LIST_MODEL (pool), position);

  g_assert_nonnull (tool);
  /* the pool keeps its own reference */
  return mcp_pool_tool_get_qualified_name (tool);
}

static void
test_naming (void)
{
  g_autoptr(GListStore) connections = g_list_store_new (TEST_TYPE_FAKE_CONNECTION);
  g_autoptr(TestFakeConnection) a = test_fake_connection_new ("my.server");
  g_autoptr(McpToolPool) pool = NULL;
  g_autofree char *made = NULL;
  McpPoolTool *found;

  add_tool (a, "get item/ä");
  add_tool (a, "plain_tool-1");
  g_list_store_append (connections, a);
  pool = mcp_tool_pool_new (G_LIST_MODEL (connections));

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (pool)), ==, 2);
  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (pool)) == MCP_TYPE_POOL_TOOL);
  g_assert_cmpstr (name_at (pool, 0), ==, "mcp__my_server__get_item__");
  g_assert_cmpstr (name_at (pool, 1), ==, "mcp__my_server__plain_tool-1");

  made = mcp_tool_pool_make_name ("a b", "c:d");
  g_assert_cmpstr (made, ==, "mcp__a_b__c_d");

  found = mcp_tool_pool_lookup (pool, "mcp__my_server__plain_tool-1");
  g_assert_nonnull (found);
  g_assert_cmpstr (mcp_tool_get_name (mcp_pool_tool_get_tool (found)), ==, "plain_tool-1");
  g_assert_cmpstr (mcp_pool_tool_get_server_name (found), ==, "my.server");
  g_assert_true ((gpointer) mcp_pool_tool_get_connection (found) == (gpointer) a);
  g_assert_null (mcp_tool_pool_lookup (pool, "mcp__my.server__plain_tool-1"));
  g_assert_cmpuint (g_strv_length ((GStrv) mcp_tool_pool_get_collisions (pool)), ==, 0);
}

static void
count_cb (GObject    *object,
          GParamSpec *pspec,
          gpointer    user_data)
{
  (*(guint *) user_data)++;
}

static void
test_collisions (void)
{
  g_autoptr(GListStore) connections = g_list_store_new (TEST_TYPE_FAKE_CONNECTION);
  g_autoptr(TestFakeConnection) a = test_fake_connection_new ("a.b");
  g_autoptr(TestFakeConnection) b = test_fake_connection_new ("a_b");
  g_autoptr(TestFakeConnection) c = test_fake_connection_new ("a b");
  g_autoptr(McpToolPool) pool = NULL;
  const char * const *collisions;
  guint notified = 0;
  McpPoolTool *found;

  g_list_store_append (connections, a);
  g_list_store_append (connections, b);
  g_list_store_append (connections, c);
  pool = mcp_tool_pool_new (G_LIST_MODEL (connections));
  g_signal_connect (pool, "notify::collisions", G_CALLBACK (count_cb), &notified);

  /* The tools arrive in the opposite order of the servers: names must
   * still follow server order, then tool order. */
  add_tool (c, "x");
  add_tool (b, "x");
  add_tool (b, "x_2");   /* a real tool that already has the first suffix */
  add_tool (a, "x");
  add_tool (a, "y");

  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (pool)), ==, 5);
  g_assert_cmpstr (name_at (pool, 0), ==, "mcp__a_b__x");      /* a.b x */
  g_assert_cmpstr (name_at (pool, 1), ==, "mcp__a_b__y");      /* a.b y */
  g_assert_cmpstr (name_at (pool, 2), ==, "mcp__a_b__x_3");    /* a_b x */
  g_assert_cmpstr (name_at (pool, 3), ==, "mcp__a_b__x_2");    /* a_b x_2 keeps its own name */
  g_assert_cmpstr (name_at (pool, 4), ==, "mcp__a_b__x_4");    /* a b x */

  collisions = mcp_tool_pool_get_collisions (pool);
  g_assert_cmpuint (g_strv_length ((GStrv) collisions), ==, 2);
  g_assert_nonnull (strstr (collisions[0], "server “a_b”"));
  g_assert_nonnull (strstr (collisions[0], "mcp__a_b__x_3"));
  g_assert_nonnull (strstr (collisions[1], "server “a b”"));
  g_assert_nonnull (strstr (collisions[1], "mcp__a_b__x_4"));
  g_assert_cmpuint (notified, >, 0);

  found = mcp_tool_pool_lookup (pool, "mcp__a_b__x_4");
  g_assert_nonnull (found);
  g_assert_cmpstr (mcp_pool_tool_get_server_name (found), ==, "a b");
  found = mcp_tool_pool_lookup (pool, "mcp__a_b__x");
  g_assert_cmpstr (mcp_pool_tool_get_server_name (found), ==, "a.b");

  /* The first server goes: the next one takes the plain name. */
  notified = 0;
  g_list_store_remove (connections, 0);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (pool)), ==, 3);
  g_assert_cmpstr (name_at (pool, 0), ==, "mcp__a_b__x");
  g_assert_cmpstr (name_at (pool, 1), ==, "mcp__a_b__x_2");
  g_assert_cmpstr (name_at (pool, 2), ==, "mcp__a_b__x_3");
  g_assert_cmpuint (g_strv_length ((GStrv) mcp_tool_pool_get_collisions (pool)), ==, 1);
  g_assert_cmpuint (notified, ==, 1);
  found = mcp_tool_pool_lookup (pool, "mcp__a_b__x");
  g_assert_cmpstr (mcp_pool_tool_get_server_name (found), ==, "a_b");
  g_assert_null (mcp_tool_pool_lookup (pool, "mcp__a_b__x_4"));
}

static void
test_same_names_same_result (void)
{
  /* Built in one go, the pool names as in test_collisions. */
  g_autoptr(GListStore) connections = g_list_store_new (TEST_TYPE_FAKE_CONNECTION);
  g_autoptr(TestFakeConnection) a = test_fake_connection_new ("a.b");
  g_autoptr(TestFakeConnection) b = test_fake_connection_new ("a_b");
  g_autoptr(McpToolPool) pool = NULL;

  add_tool (a, "x");
  add_tool (b, "x");
  g_list_store_append (connections, b);
  g_list_store_insert (connections, 0, a);
  pool = mcp_tool_pool_new (G_LIST_MODEL (connections));
  g_assert_cmpstr (name_at (pool, 0), ==, "mcp__a_b__x");
  g_assert_cmpstr (name_at (pool, 1), ==, "mcp__a_b__x_2");
}

static void
test_description_cut (void)
{
  g_autoptr(GListStore) connections = g_list_store_new (TEST_TYPE_FAKE_CONNECTION);
  g_autoptr(TestFakeConnection) a = test_fake_connection_new ("s");
  g_autoptr(McpToolPool) pool = NULL;
  g_autoptr(GString) long_text = g_string_new (NULL);
  g_autoptr(GString) json = g_string_new (NULL);
  g_autoptr(McpTool) tool = NULL;
  g_autoptr(McpTool) short_tool = NULL;
  McpPoolTool *entry;
  const char *cut;

  /* 3000 characters, some of them two bytes long */
  for (guint i = 0; i < 1000; i++)
    g_string_append (long_text, "aé ");
  g_string_printf (json, "{\"name\":\"long\",\"inputSchema\":{\"type\":\"object\"},\"description\":\"%s\"}",
                   long_text->str);
  tool = test_tool_from_json (json->str);
  short_tool = test_tool_from_json ("{\"name\":\"short\",\"inputSchema\":{\"type\":\"object\"},\"description\":\"Short.\"}");
  g_list_store_append (a->tools, tool);
  g_list_store_append (a->tools, short_tool);
  g_list_store_append (connections, a);
  pool = mcp_tool_pool_new (G_LIST_MODEL (connections));

  entry = mcp_tool_pool_lookup (pool, "mcp__s__long");
  cut = mcp_pool_tool_get_description (entry);
  g_assert_true (g_str_has_suffix (cut, "… [cut: 952 more characters]"));
  g_assert_cmpint (g_utf8_strlen (cut, -1), ==, 2048 + g_utf8_strlen ("… [cut: 952 more characters]", -1));
  g_assert_true (strncmp (cut, long_text->str, g_utf8_offset_to_pointer (long_text->str, 2048) - long_text->str) == 0);
  g_assert_true (mcp_pool_tool_get_description_cut (entry));
  g_assert_cmpstr (mcp_pool_tool_get_full_description (entry), ==, long_text->str);

  entry = mcp_tool_pool_lookup (pool, "mcp__s__short");
  g_assert_cmpstr (mcp_pool_tool_get_description (entry), ==, "Short.");
  g_assert_false (mcp_pool_tool_get_description_cut (entry));
}

static void
test_annotations (void)
{
  g_autoptr(GListStore) connections = g_list_store_new (TEST_TYPE_FAKE_CONNECTION);
  g_autoptr(TestFakeConnection) a = test_fake_connection_new ("s");
  g_autoptr(McpToolPool) pool = NULL;
  g_autoptr(McpTool) bare = test_tool_from_json ("{\"name\":\"bare\",\"inputSchema\":{\"type\":\"object\"}}");
  g_autoptr(McpTool) reader = test_tool_from_json ("{\"name\":\"reader\",\"inputSchema\":{\"type\":\"object\"},"
                                         "\"annotations\":{\"readOnlyHint\":true,\"title\":\"Reader\"}}");
  g_autoptr(McpTool) closed = test_tool_from_json ("{\"name\":\"closed\",\"title\":\"Closed one\",\"inputSchema\":{\"type\":\"object\"},"
                                         "\"annotations\":{\"destructiveHint\":false,\"openWorldHint\":false,"
                                         "\"idempotentHint\":true,\"title\":\"ignored\"}}");
  McpPoolTool *entry;
  gboolean destructive;

  g_list_store_append (a->tools, bare);
  g_list_store_append (a->tools, reader);
  g_list_store_append (a->tools, closed);
  g_list_store_append (connections, a);
  pool = mcp_tool_pool_new (G_LIST_MODEL (connections));

  entry = mcp_tool_pool_lookup (pool, "mcp__s__bare");
  g_assert_false (mcp_pool_tool_get_read_only (entry));
  g_assert_true (mcp_pool_tool_get_destructive (entry));
  g_assert_true (mcp_pool_tool_get_open_world (entry));
  g_assert_false (mcp_pool_tool_get_idempotent (entry));
  g_assert_cmpstr (mcp_pool_tool_get_display_name (entry), ==, "bare");
  g_assert_null (mcp_pool_tool_get_description (entry));

  entry = mcp_tool_pool_lookup (pool, "mcp__s__reader");
  g_assert_true (mcp_pool_tool_get_read_only (entry));
  g_assert_false (mcp_pool_tool_get_destructive (entry));
  g_assert_true (mcp_pool_tool_get_open_world (entry));
  g_assert_true (mcp_pool_tool_get_idempotent (entry));
  g_assert_cmpstr (mcp_pool_tool_get_display_name (entry), ==, "Reader");
  g_object_get (entry, "destructive", &destructive, NULL);
  g_assert_false (destructive);

  entry = mcp_tool_pool_lookup (pool, "mcp__s__closed");
  g_assert_false (mcp_pool_tool_get_read_only (entry));
  g_assert_false (mcp_pool_tool_get_destructive (entry));
  g_assert_false (mcp_pool_tool_get_open_world (entry));
  g_assert_true (mcp_pool_tool_get_idempotent (entry));
  g_assert_cmpstr (mcp_pool_tool_get_display_name (entry), ==, "Closed one");
}

typedef struct
{
  guint position;
  guint removed;
  guint added;
} Change;

static void
record_cb (GListModel *model,
           guint       position,
           guint       removed,
           guint       added,
           gpointer    user_data)
{
  GArray *changes = user_data;
  Change change = { position, removed, added };

  g_array_append_val (changes, change);
}

static void
assert_change (GArray *changes,
               guint   position,
               guint   removed,
               guint   added)
{
  Change *change;

  g_assert_cmpuint (changes->len, ==, 1);
  change = &g_array_index (changes, Change, 0);
  g_assert_cmpuint (change->position, ==, position);
  g_assert_cmpuint (change->removed, ==, removed);
  g_assert_cmpuint (change->added, ==, added);
  g_array_set_size (changes, 0);
}

static void
test_incremental (void)
{
  g_autoptr(GListStore) connections = g_list_store_new (TEST_TYPE_FAKE_CONNECTION);
  g_autoptr(TestFakeConnection) a = test_fake_connection_new ("a");
  g_autoptr(TestFakeConnection) b = test_fake_connection_new ("b");
  g_autoptr(TestFakeConnection) c = test_fake_connection_new ("c");
  g_autoptr(McpToolPool) pool = NULL;
  g_autoptr(GArray) changes = g_array_new (FALSE, FALSE, sizeof (Change));
  g_autoptr(GListStore) replacement = g_list_store_new (MCP_TYPE_TOOL);
  g_autoptr(McpTool) z = test_tool_from_json ("{\"name\":\"z\",\"inputSchema\":{\"type\":\"object\"}}");
  g_autoptr(McpPoolTool) kept = NULL;

  add_tool (a, "a1");
  add_tool (a, "a2");
  add_tool (b, "b1");
  add_tool (b, "b2");
  add_tool (b, "b3");
  g_list_store_append (connections, a);
  g_list_store_append (connections, b);
  pool = mcp_tool_pool_new (G_LIST_MODEL (connections));
  g_signal_connect (pool, "items-changed", G_CALLBACK (record_cb), changes);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (pool)), ==, 5);
  kept = g_list_model_get_item (G_LIST_MODEL (pool), 0);

  /* A tool added to the second server: one insertion at its place. */
  g_list_store_insert (b->tools, 1, z);
  assert_change (changes, 3, 0, 1);
  g_assert_cmpstr (name_at (pool, 3), ==, "mcp__b__z");
  g_assert_cmpstr (name_at (pool, 4), ==, "mcp__b__b2");

  /* A tool removed from the first server. */
  g_list_store_remove (a->tools, 1);
  assert_change (changes, 1, 1, 0);
  g_assert_cmpstr (name_at (pool, 1), ==, "mcp__b__b1");

  /* The first server's other entry is the same object as before. */
  {
    g_autoptr(McpPoolTool) again = g_list_model_get_item (G_LIST_MODEL (pool), 0);
    g_assert_true (again == kept);
  }

  /* The second server's listing replaced as a whole: only its range. */
  g_list_store_append (replacement, z);
  test_fake_connection_replace_tools (b, replacement);
  assert_change (changes, 1, 4, 1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (pool)), ==, 2);
  g_assert_cmpstr (name_at (pool, 1), ==, "mcp__b__z");

  /* The old model is no longer followed. */
  add_tool (b, "ignored");  /* goes to the new model */
  assert_change (changes, 2, 0, 1);

  /* A server added in the middle, then one removed. */
  add_tool (c, "c1");
  add_tool (c, "c2");
  g_list_store_insert (connections, 1, c);
  assert_change (changes, 1, 0, 2);
  g_assert_cmpstr (name_at (pool, 1), ==, "mcp__c__c1");
  g_assert_cmpstr (name_at (pool, 3), ==, "mcp__b__z");

  g_list_store_remove (connections, 0);
  assert_change (changes, 0, 1, 0);
  g_assert_cmpstr (name_at (pool, 0), ==, "mcp__c__c1");

  /* A server whose tools empty out (it disconnected). */
  g_list_store_remove_all (c->tools);
  assert_change (changes, 0, 2, 0);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (pool)), ==, 2);
  g_assert_null (mcp_tool_pool_lookup (pool, "mcp__c__c1"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/manager/tool-pool/naming", test_naming);
  g_test_add_func ("/manager/tool-pool/collisions", test_collisions);
  g_test_add_func ("/manager/tool-pool/collisions-order", test_same_names_same_result);
  g_test_add_func ("/manager/tool-pool/description-cut", test_description_cut);
  g_test_add_func ("/manager/tool-pool/annotations", test_annotations);
  g_test_add_func ("/manager/tool-pool/incremental", test_incremental);

  return g_test_run ();
}
