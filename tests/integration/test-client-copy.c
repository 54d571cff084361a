/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-client-copy"

#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

#include "mcp-client-copy.h"
#include "mcp-config-file.h"
#include "mcp-json-document.h"
#include "mcp-json-private.h"
#include "mcp-server-config.h"
#include "test-json.h"
#include "test-util.h"

/* Every client's servers across a person's files (issue 26, point 3): a
 * home folder and a project laid out from tests/data/clients/, scanned,
 * compared and copied from client to client; each file that changes stays
 * valid for its client and keeps every byte that is not the new entry. */

/* ------------------------------------------------------------------------ */
/* A person's home                                                          */

typedef struct
{
  char *root;
  char *home;      /* root/home: HOME */
  char *config;    /* home/.config: XDG_CONFIG_HOME */
  char *project;   /* home/src/shop */
} Home;

static const struct
{
  const char *fixture;
  const char *place;   /* "~/…" in home, "C/…" in config, "P/…" in the project */
} layout[] = {
  { "claude.json", "~/.claude.json" },
  { "mcp.json", "P/.mcp.json" },
  { "claude_desktop_config.json", "C/Claude/claude_desktop_config.json" },
  { "vscode-settings.json", "C/Code/User/settings.json" },
  { "vscode-mcp.json", "P/.vscode/mcp.json" },
  { "cursor-mcp.json", "~/.cursor/mcp.json" },
  { "windsurf-mcp_config.json", "~/.codeium/windsurf/mcp_config.json" },
  { "gemini-settings.json", "~/.gemini/settings.json" },
  { "zed-settings.json", "C/zed/settings.json" },
  { "codex-config.toml", "~/.codex/config.toml" },
  { "goose-config.yaml", "C/goose/config.yaml" },
};

static char *
place_path (Home       *h,
            const char *place)
{
  const char *dir = place[0] == '~' ? h->home : place[0] == 'C' ? h->config : h->project;

  return g_build_filename (dir, place + 2, NULL);
}

static void
home_init (Home *h)
{
  h->root = g_dir_make_tmp ("plugboard-client-copy-XXXXXX", NULL);
  g_assert_nonnull (h->root);
  h->home = g_build_filename (h->root, "home", NULL);
  h->config = g_build_filename (h->home, ".config", NULL);
  h->project = g_build_filename (h->home, "src", "shop", NULL);
  g_assert_cmpint (g_mkdir_with_parents (h->project, 0700), ==, 0);

  for (guint i = 0; i < G_N_ELEMENTS (layout); i++)
    {
      g_autofree char *source = g_test_build_filename (G_TEST_DIST, "data", "clients", layout[i].fixture, NULL);
      g_autofree char *text = test_read_file (source);
      g_autofree char *path = place_path (h, layout[i].place);
      GString *placed = g_string_new (text);

      /* the fixtures' person lives in /home/ada */
      g_string_replace (placed, "/home/ada", h->home, 0);
      test_write_file (path, placed->str);
      g_string_free (placed, TRUE);
    }
}

static void
home_clear (Home *h)
{
  test_remove_tree (h->root);
  g_free (h->root);
  g_free (h->home);
  g_free (h->config);
  g_free (h->project);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Home, home_clear)

static GPtrArray *
scan (Home *h)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *summaries;

  mcp_clients_scan_async (h->home, h->config, NULL, h->project, NULL, test_result_cb, &result);
  summaries = mcp_clients_scan_finish (test_wait_result (&result, "the scan"), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (summaries->len, ==, MCP_CLIENT_KIND_COUNT);
  return summaries;
}

static GPtrArray *
plan (Home                *h,
      McpClientKind        from,
      McpConfigScope       from_scope,
      const char          *name,
      const McpClientKind *targets,
      guint                n_targets,
      McpConfigScope       to_scope,
      McpCopyFlags         flags,
      GError             **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  const char *names[] = { name, NULL };

  mcp_client_copy_plan_async (from, from_scope, name != NULL ? names : NULL, targets, n_targets, to_scope, flags,
                              h->home, h->config, NULL, h->project, NULL, test_result_cb, &result);
  return mcp_client_copy_plan_finish (test_wait_result (&result, "the plan"), error);
}

static gboolean
apply (GPtrArray  *copy_plan,
       GError    **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  mcp_client_copy_apply_async (copy_plan, NULL, test_result_cb, &result);
  return mcp_client_copy_apply_finish (test_wait_result (&result, "the copy"), error);
}

static char *
read_or_null (const char *path)
{
  char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  return text;
}

static McpClientFile *
user_file (Home          *h,
           McpClientKind  kind,
           GPtrArray    **keep)
{
  *keep = mcp_client_kind_dup_files (kind, h->home, h->config, NULL, h->project);
  return g_ptr_array_index (*keep, 0);
}

static char *
notes_text (GPtrArray *notes)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; notes != NULL && i < notes->len; i++)
    g_string_append_printf (text, "%s\n", (const char *) notes->pdata[i]);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* ------------------------------------------------------------------------ */
/* What a changed file must be                                              */

/* Every line of @before is in @after, in order: the diff removes none
 * (but a line that only gained the comma before a new member) */
static void
assert_only_added (const char *before,
                   const char *after)
{
  g_autofree char *diff = mcp_text_diff ("f", before != NULL ? before : "", after);
  g_auto(GStrv) lines = g_strsplit (diff != NULL ? diff : "", "\n", -1);

  for (guint i = 2; lines[i] != NULL; i++)
    {
      g_autofree char *with_comma = NULL;
      gboolean found = FALSE;

      if (lines[i][0] != '-')
        continue;
      with_comma = g_strdup_printf ("+%s,", lines[i] + 1);
      for (guint j = 2; lines[j] != NULL && !found; j++)
        found = g_str_equal (lines[j], with_comma);
      if (!found)
        g_error ("a line of the file was changed:\n%s", diff);
    }
}

/* The value of @root without the member at @path (a copy) */
static JsonNode *
without (JsonNode            *root,
         const char * const  *path)
{
  JsonNode *copy = json_node_copy (root);
  JsonObject *object = json_node_get_object (copy);
  guint length = g_strv_length ((char **) path);

  for (guint i = 0; i + 1 < length; i++)
    {
      JsonNode *next = json_object_get_member (object, path[i]);

      if (next == NULL || !JSON_NODE_HOLDS_OBJECT (next))
        return copy;
      object = json_node_get_object (next);
    }
  json_object_remove_member (object, path[length - 1]);
  return copy;
}

/* The object at @names under @root, or NULL */
static JsonObject *
object_at (JsonNode            *root,
           const char * const  *names)
{
  JsonNode *node = root;

  for (guint i = 0; names[i] != NULL; i++)
    {
      if (!JSON_NODE_HOLDS_OBJECT (node))
        return NULL;
      node = json_object_get_member (json_node_get_object (node), names[i]);
      if (node == NULL)
        return NULL;
    }
  return JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

/* @file (of its client) after @name was added: it parses, the entry is a
 * server its client can read, nothing else changed */
static void
assert_added (McpClientFile *file,
              const char    *name,
              const char    *before,
              const char    *after)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonNode) old_root = NULL;
  g_autoptr(JsonObject) entry = NULL;
  g_autoptr(McpServerConfig) config = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) path = NULL;
  JsonObject *servers;

  root = mcp_json_document_parse (after, strlen (after), file->dialect, &error);
  g_assert_no_error (error);
  servers = object_at (root, (const char * const *) file->container);
  g_assert_nonnull (servers);
  g_assert_true (json_object_has_member (servers, name));

  entry = mcp_client_shape_to_plugboard (file->kind, name, json_object_get_object_member (servers, name),
                                         NULL, NULL, &error);
  g_assert_no_error (error);
  config = mcp_server_config_new_from_json (name, MCP_CONFIG_SCOPE_USER, entry, file->path, "$", &error);
  g_assert_no_error (error);

  /* every other value as it was */
  g_strv_builder_addv (builder, (const char **) file->container);
  g_strv_builder_add (builder, name);
  path = g_strv_builder_end (builder);
  old_root = mcp_json_document_parse (before, before != NULL ? strlen (before) : 0, file->dialect, &error);
  g_assert_no_error (error);
  {
    g_autoptr(JsonNode) stripped = without (root, (const char * const *) path);
    JsonObject *container = object_at (stripped, (const char * const *) file->container);
    JsonObject *parent = NULL;

    /* a new "mcpServers" (or inputs VS Code asks for) came with the entry */
    if (container != NULL && json_object_get_size (container) == 0 &&
        object_at (old_root, (const char * const *) file->container) == NULL)
      {
        g_autoptr(JsonNode) bare = without (stripped, (const char * const *) file->container);

        json_node_unref (stripped);
        stripped = g_steal_pointer (&bare);
      }
    if (file->kind == MCP_CLIENT_KIND_VSCODE)
      {
        guint depth = g_strv_length (file->container);
        g_autofree char **holder = g_new0 (char *, depth);
        JsonObject *old_holder;

        memcpy (holder, file->container, (depth - 1) * sizeof (char *));
        parent = depth > 1 ? object_at (stripped, (const char * const *) holder) : json_node_get_object (stripped);
        old_holder = depth > 1 ? object_at (old_root, (const char * const *) holder) : json_node_get_object (old_root);
        if (parent != NULL && json_object_has_member (parent, "inputs"))
          {
            JsonArray *inputs = json_object_get_array_member (parent, "inputs");
            guint keep = old_holder != NULL && json_object_has_member (old_holder, "inputs")
                         ? json_array_get_length (json_object_get_array_member (old_holder, "inputs")) : 0;

            while (json_array_get_length (inputs) > keep)
              json_array_remove_element (inputs, keep);
            if (keep == 0 && (old_holder == NULL || !json_object_has_member (old_holder, "inputs")))
              json_object_remove_member (parent, "inputs");
          }
      }
    if (!mcp_json_equal (stripped, old_root))
      {
        g_autofree char *a = test_json_text (stripped);
        g_autofree char *b = test_json_text (old_root);

        g_assert_cmpstr (a, ==, b);
      }
  }

  /* and every byte */
  assert_only_added (before, after);
}

/* ------------------------------------------------------------------------ */
/* The scan                                                                 */

static char *
server_names (McpClientSummary *summary)
{
  g_autoptr(GString) names = g_string_new (NULL);

  for (guint i = 0; i < summary->servers->len; i++)
    {
      McpClientServer *server = g_ptr_array_index (summary->servers, i);

      g_string_append_printf (names, "%s%s", i > 0 ? " " : "", server->name);
    }
  return g_string_free (g_steal_pointer (&names), FALSE);
}

static void
test_scan (void)
{
  g_auto(Home) h = { 0 };
  g_autoptr(GPtrArray) summaries = NULL;
  g_autofree char *broken = NULL;
  g_autofree char *fifo = NULL;
  static const struct
  {
    McpClientKind  kind;
    gboolean       present;
    const char    *servers;
    guint          errors;
  } want[] = {
    { MCP_CLIENT_KIND_PLUGBOARD, TRUE, "playwright docs", 0 },
    { MCP_CLIENT_KIND_CLAUDE_CODE, TRUE, "github linear sentry playwright docs postgres", 0 },
    { MCP_CLIENT_KIND_CLAUDE_DESKTOP, TRUE, "filesystem weather", 0 },
    { MCP_CLIENT_KIND_VSCODE, TRUE, "perplexity fetch github workspace-fs legacy-sse", 0 },
    { MCP_CLIENT_KIND_CURSOR, TRUE, "brave-search context7 notes acme.docs \"beta\" home-tool", 1 },
    { MCP_CLIENT_KIND_WINDSURF, TRUE, "figma git", 0 },
    { MCP_CLIENT_KIND_GEMINI, TRUE, "", 1 },
    { MCP_CLIENT_KIND_CODEX, TRUE, "context7 figma", 0 },
    { MCP_CLIENT_KIND_ZED, TRUE, "sqlite old-style remote", 1 },
    { MCP_CLIENT_KIND_GOOSE, TRUE, "github tavily", 1 },
  };

  home_init (&h);
  /* a project file cut short: its error, the user file still read */
  broken = g_build_filename (h.project, ".cursor", "mcp.json", NULL);
  test_write_file (broken, "{ \"mcpServers\": { \"half\": { \"command\": ");
  /* a named pipe where Gemini's settings are: never opened, never waited on */
  fifo = g_build_filename (h.home, ".gemini", "settings.json", NULL);
  g_assert_cmpint (g_unlink (fifo), ==, 0);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);

  summaries = scan (&h);
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      McpClientSummary *summary = g_ptr_array_index (summaries, i);
      g_autofree char *names = server_names (summary);

      g_test_message ("%s", mcp_client_kind_to_id (summary->kind));
      g_assert_cmpint (summary->kind, ==, want[i].kind);
      g_assert_cmpint (summary->present, ==, want[i].present);
      g_assert_cmpstr (names, ==, want[i].servers);
      g_assert_cmpuint (summary->file_errors->len, ==, want[i].errors);
    }

  /* the errors say the file and what is wrong */
  {
    McpClientSummary *cursor = g_ptr_array_index (summaries, MCP_CLIENT_KIND_CURSOR);
    McpClientSummary *zed = g_ptr_array_index (summaries, MCP_CLIENT_KIND_ZED);

    g_assert_true (g_str_has_prefix (cursor->file_errors->pdata[0], broken));
    g_assert_nonnull (strstr (zed->file_errors->pdata[0], "settings.json"));
    g_assert_nonnull (strstr (zed->file_errors->pdata[0], "mcp-server-github"));
    g_assert_nonnull (strstr (zed->file_errors->pdata[0], "Zed extension"));
    g_assert_true (g_str_has_prefix (((McpClientSummary *) summaries->pdata[MCP_CLIENT_KIND_GEMINI])->file_errors->pdata[0],
                                     fifo));
  }

  /* a server as read: native, in Plugboard's shape (the project folder for
   * ${workspaceFolder}), with its notes */
  {
    McpClientSummary *vscode = g_ptr_array_index (summaries, MCP_CLIENT_KIND_VSCODE);
    McpClientServer *server = g_ptr_array_index (vscode->servers, 3);
    g_autoptr(JsonNode) entry = json_node_init_object (json_node_alloc (), server->entry);
    g_autofree char *text = test_json_text (entry);
    g_autofree char *want_text = g_strdup_printf (
      "{\"type\":\"stdio\",\"command\":\"npx\",\"args\":[\"-y\",\"@modelcontextprotocol/server-filesystem\",\"%s\"],"
      "\"env\":{\"LOG_LEVEL\":\"${LOG_LEVEL}\"},\"envFile\":\"${workspaceFolder}/.env\"}", h.project);
    g_autofree char *mcp_json = g_build_filename (h.project, ".vscode", "mcp.json", NULL);

    g_assert_cmpstr (server->name, ==, "workspace-fs");
    g_assert_cmpint (server->scope, ==, MCP_CONFIG_SCOPE_PROJECT);
    g_assert_cmpstr (server->file, ==, mcp_json);
    g_assert_cmpstr (text, ==, want_text);
    g_assert_cmpstr (server->notes[0], ==, "envFile: kept, not used by Plugboard");
    g_assert_null (server->notes[1]);
    g_assert_true (json_object_has_member (server->native, "envFile"));
  }
}

/* "Which of my clients have this server, and do they differ?" */
static void
test_find_server (void)
{
  g_auto(Home) h = { 0 };
  g_autoptr(GPtrArray) summaries = NULL;
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(GPtrArray) copy_plan = NULL;
  g_autoptr(GError) error = NULL;
  McpClientKind targets[] = { MCP_CLIENT_KIND_WINDSURF, MCP_CLIENT_KIND_CLAUDE_CODE, MCP_CLIENT_KIND_GEMINI };
  gboolean differ = TRUE;

  home_init (&h);
  summaries = scan (&h);

  found = mcp_clients_find_server (summaries, "github", &differ);
  g_assert_cmpuint (found->len, ==, 3);
  g_assert_cmpint (((McpClientServer *) found->pdata[0])->kind, ==, MCP_CLIENT_KIND_CLAUDE_CODE);
  g_assert_cmpint (((McpClientServer *) found->pdata[1])->kind, ==, MCP_CLIENT_KIND_VSCODE);
  g_assert_cmpint (((McpClientServer *) found->pdata[2])->kind, ==, MCP_CLIENT_KIND_GOOSE);
  g_assert_true (differ);
  g_clear_pointer (&found, g_ptr_array_unref);

  found = mcp_clients_find_server (summaries, "nowhere", &differ);
  g_assert_cmpuint (found->len, ==, 0);
  g_assert_false (differ);
  g_clear_pointer (&found, g_ptr_array_unref);
  g_clear_pointer (&summaries, g_ptr_array_unref);

  /* copied to three more clients, written in their shapes: the same */
  copy_plan = plan (&h, MCP_CLIENT_KIND_CURSOR, MCP_CONFIG_SCOPE_USER, "brave-search", targets,
                    G_N_ELEMENTS (targets), MCP_CONFIG_SCOPE_USER, MCP_COPY_FLAGS_NONE, &error);
  g_assert_no_error (error);
  g_assert_true (apply (copy_plan, &error));
  g_assert_no_error (error);

  summaries = scan (&h);
  found = mcp_clients_find_server (summaries, "brave-search", &differ);
  g_assert_cmpuint (found->len, ==, 4);
  g_assert_false (differ);
  g_assert_cmpint (((McpClientServer *) found->pdata[3])->kind, ==, MCP_CLIENT_KIND_GEMINI);
  {
    /* Gemini writes the variable its way, the same in Plugboard's shape */
    McpClientServer *gemini = found->pdata[3];
    JsonObject *env = json_object_get_object_member (gemini->native, "env");

    g_assert_cmpstr (json_object_get_string_member (env, "BRAVE_API_KEY"), ==, "${BRAVE_API_KEY}");
  }
}

/* ------------------------------------------------------------------------ */
/* Copying every server of the four main clients to every other client      */

static const McpClientKind all_targets[] = {
  MCP_CLIENT_KIND_PLUGBOARD, MCP_CLIENT_KIND_CLAUDE_CODE, MCP_CLIENT_KIND_CLAUDE_DESKTOP,
  MCP_CLIENT_KIND_VSCODE, MCP_CLIENT_KIND_CURSOR, MCP_CLIENT_KIND_WINDSURF, MCP_CLIENT_KIND_GEMINI,
  MCP_CLIENT_KIND_ZED, MCP_CLIENT_KIND_CODEX, MCP_CLIENT_KIND_GOOSE,
};

static void
copy_everything_from (McpClientKind   from,
                      McpConfigScope  from_scope,
                      guint          *copied,
                      guint          *refused)
{
  g_auto(Home) h = { 0 };
  g_autoptr(GPtrArray) summaries = NULL;
  McpClientSummary *source;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  McpClientKind targets[G_N_ELEMENTS (all_targets)];
  guint n_targets = 0;

  home_init (&h);
  summaries = scan (&h);
  source = g_ptr_array_index (summaries, from);
  for (guint i = 0; i < source->servers->len; i++)
    {
      McpClientServer *server = g_ptr_array_index (source->servers, i);

      if (server->scope == from_scope)
        g_ptr_array_add (names, g_strdup (server->name));
    }
  g_assert_cmpuint (names->len, >, 0);
  for (guint i = 0; i < G_N_ELEMENTS (all_targets); i++)
    {
      if (all_targets[i] != from)
        targets[n_targets++] = all_targets[i];
    }

  for (guint n = 0; n < names->len; n++)
    {
      const char *name = g_ptr_array_index (names, n);
      g_autoptr(GPtrArray) befores = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
      g_autoptr(GPtrArray) copy_plan = NULL;
      g_autoptr(GError) error = NULL;

      g_test_message ("%s %s → all", mcp_client_kind_to_id (from), name);
      for (guint t = 0; t < n_targets; t++)
        {
          GPtrArray *keep = NULL;
          McpClientFile *file = user_file (&h, targets[t], &keep);

          g_ptr_array_add (befores, read_or_null (file->path));
          g_ptr_array_add (files, keep);
        }

      copy_plan = plan (&h, from, from_scope, name, targets, n_targets, MCP_CONFIG_SCOPE_USER,
                        MCP_COPY_FLAGS_NONE, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (copy_plan->len, ==, n_targets);
      apply (copy_plan, NULL);

      for (guint t = 0; t < n_targets; t++)
        {
          McpCopyTarget *target = g_ptr_array_index (copy_plan, t);
          McpClientFile *file = g_ptr_array_index ((GPtrArray *) files->pdata[t], 0);
          const char *before = befores->pdata[t];
          g_autofree char *after = read_or_null (file->path);
          g_autofree char *notes = notes_text (target->notes);

          g_test_message ("  → %s: %s", mcp_client_kind_to_id (target->kind),
                          target->error != NULL ? target->error->message : "written");
          g_assert_cmpint (target->kind, ==, targets[t]);
          g_assert_cmpstr (target->path, ==, file->path);
          if (target->error != NULL)
            {
              /* refused for a reason the message gives; the file as it was */
              g_assert_true (strstr (target->error->message, "cannot run") != NULL ||
                             strstr (target->error->message, "already") != NULL);
              g_assert_nonnull (strstr (target->error->message, name));
              g_assert_cmpstr (after, ==, before);
              (*refused)++;
              continue;
            }
          g_assert_nonnull (target->diff);
          /* the diff shows the new lines, not the whole file as new */
          if (before != NULL)
            g_assert_null (strstr (target->diff, "@@ -0,0 "));
          g_assert_true (g_str_has_prefix (notes, name));
          assert_added (file, name, before, after);
          (*copied)++;
        }
    }
}

static void
test_copy_every_pair (void)
{
  guint copied = 0;
  guint refused = 0;

  copy_everything_from (MCP_CLIENT_KIND_CLAUDE_CODE, MCP_CONFIG_SCOPE_USER, &copied, &refused);
  copy_everything_from (MCP_CLIENT_KIND_CLAUDE_CODE, MCP_CONFIG_SCOPE_PROJECT, &copied, &refused);
  copy_everything_from (MCP_CLIENT_KIND_CLAUDE_DESKTOP, MCP_CONFIG_SCOPE_USER, &copied, &refused);
  copy_everything_from (MCP_CLIENT_KIND_VSCODE, MCP_CONFIG_SCOPE_USER, &copied, &refused);
  copy_everything_from (MCP_CLIENT_KIND_VSCODE, MCP_CONFIG_SCOPE_PROJECT, &copied, &refused);
  copy_everything_from (MCP_CLIENT_KIND_CURSOR, MCP_CONFIG_SCOPE_USER, &copied, &refused);

  g_test_message ("%u copies written, %u refused", copied, refused);
  g_assert_cmpuint (copied, >, 100);
  g_assert_cmpuint (refused, >, 0);
}

/* What a target cannot express is named; what it cannot run refused */
static void
test_copy_notes (void)
{
  g_auto(Home) h = { 0 };
  g_autoptr(GPtrArray) copy_plan = NULL;
  g_autoptr(GError) error = NULL;
  McpClientKind targets[] = { MCP_CLIENT_KIND_CURSOR, MCP_CLIENT_KIND_CLAUDE_DESKTOP };
  g_autofree char *notes = NULL;

  home_init (&h);
  copy_plan = plan (&h, MCP_CLIENT_KIND_CLAUDE_CODE, MCP_CONFIG_SCOPE_USER, "sentry", targets,
                    G_N_ELEMENTS (targets), MCP_CONFIG_SCOPE_USER, MCP_COPY_FLAGS_NONE, &error);
  g_assert_no_error (error);
  notes = notes_text (((McpCopyTarget *) copy_plan->pdata[0])->notes);
  g_assert_cmpstr (notes, ==, "sentry: added\nsentry: headersHelper: Cursor has no such setting; left out\n");
  g_assert_nonnull (((McpCopyTarget *) copy_plan->pdata[0])->after);
  g_assert_error (((McpCopyTarget *) copy_plan->pdata[1])->error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_cmpstr (((McpCopyTarget *) copy_plan->pdata[1])->error->message, ==,
                   "Claude Desktop cannot run the server “sentry”: it starts only local (stdio) servers from "
                   "its settings file; add a remote server in its Settings, under Connectors");
  g_assert_null (((McpCopyTarget *) copy_plan->pdata[1])->after);

  /* applying writes Cursor's and says Claude Desktop's was not */
  g_assert_false (apply (copy_plan, &error));
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  {
    g_autofree char *path = g_build_filename (h.home, ".cursor", "mcp.json", NULL);
    g_autofree char *text = test_read_file (path);

    g_assert_nonnull (strstr (text, "\"sentry\""));
  }
}

/* ------------------------------------------------------------------------ */
/* Dry run, secrets, inputs                                                 */

static void
test_dry_run (void)
{
  g_auto(Home) h = { 0 };
  g_autoptr(GPtrArray) copy_plan = NULL;
  g_autoptr(GError) error = NULL;
  McpClientKind targets[] = { MCP_CLIENT_KIND_CURSOR, MCP_CLIENT_KIND_VSCODE };
  g_autofree char *cursor = NULL;
  g_autofree char *vscode = NULL;
  g_autofree char *cursor_before = NULL;
  g_autofree char *vscode_before = NULL;
  McpCopyTarget *to_cursor;
  McpCopyTarget *to_vscode;
  struct stat st_before, st_after;

  home_init (&h);
  cursor = g_build_filename (h.home, ".cursor", "mcp.json", NULL);
  vscode = g_build_filename (h.config, "Code", "User", "settings.json", NULL);
  cursor_before = test_read_file (cursor);
  vscode_before = test_read_file (vscode);
  g_assert_cmpint (g_stat (cursor, &st_before), ==, 0);

  copy_plan = plan (&h, MCP_CLIENT_KIND_CLAUDE_CODE, MCP_CONFIG_SCOPE_USER, "github", targets,
                    G_N_ELEMENTS (targets), MCP_CONFIG_SCOPE_USER, MCP_COPY_FLAGS_NONE, &error);
  g_assert_no_error (error);
  to_cursor = copy_plan->pdata[0];
  to_vscode = copy_plan->pdata[1];

  /* nothing written by the plan */
  {
    g_autofree char *now = test_read_file (cursor);
    g_autofree char *now_vscode = test_read_file (vscode);

    g_assert_cmpstr (now, ==, cursor_before);
    g_assert_cmpstr (now_vscode, ==, vscode_before);
    g_assert_cmpint (g_stat (cursor, &st_after), ==, 0);
    g_assert_cmpint (st_after.st_mtime, ==, st_before.st_mtime);
    g_assert_cmpint (st_after.st_ino, ==, st_before.st_ino);
  }

  /* the preview: a diff of the file that shows no secret */
  g_assert_nonnull (to_cursor->diff);
  g_assert_true (g_str_has_prefix (to_cursor->diff, "--- "));
  g_assert_nonnull (strstr (to_cursor->diff, "+    \"github\": {"));
  g_assert_null (strstr (to_cursor->diff, "ghp_16C7e42F292c6912E7710c838347Ae178B4a"));
  g_assert_nonnull (strstr (to_cursor->diff, "\"GITHUB_PERSONAL_ACCESS_TOKEN\": \"•••\""));
  /* a secret already in the file is not shown either */
  g_assert_null (strstr (to_cursor->diff, "ctx7sk-a1b2c3d4e5f6"));
  {
    g_autoptr(GBytes) bytes = g_bytes_new_static (cursor_before, strlen (cursor_before));

    g_assert_true (g_bytes_equal (to_cursor->before, bytes));
  }

  /* VS Code asks for the token: an input, added to the file's inputs */
  g_assert_nonnull (to_vscode->after);
  {
    g_autofree char *after = g_strndup (g_bytes_get_data (to_vscode->after, NULL),
                                        g_bytes_get_size (to_vscode->after));

    g_assert_null (strstr (after, "ghp_16C7e42F292c6912E7710c838347Ae178B4a"));
    g_assert_nonnull (strstr (after, "\"GITHUB_PERSONAL_ACCESS_TOKEN\": \"${input:github-github-personal-access-token}\""));
    g_assert_nonnull (strstr (after, "\"id\": \"github-github-personal-access-token\""));
    g_assert_nonnull (strstr (after, "\"password\": true"));
  }

  /* applied: the files are what the preview showed */
  g_assert_true (apply (copy_plan, &error));
  g_assert_no_error (error);
  {
    g_autofree char *now = test_read_file (cursor);
    g_autofree char *now_vscode = test_read_file (vscode);
    g_autoptr(GPtrArray) keep = NULL;
    McpClientFile *file = user_file (&h, MCP_CLIENT_KIND_VSCODE, &keep);
    g_autoptr(GPtrArray) summaries = NULL;

    g_autoptr(GBytes) bytes = g_bytes_new_static (now, strlen (now));

    g_assert_true (g_bytes_equal (to_cursor->after, bytes));
    g_assert_nonnull (strstr (now, "ghp_16C7e42F292c6912E7710c838347Ae178B4a"));
    assert_added (file, "github", vscode_before, now_vscode);

    /* and the scan reads the input back with its description */
    summaries = scan (&h);
    {
      McpClientSummary *summary = g_ptr_array_index (summaries, MCP_CLIENT_KIND_VSCODE);
      McpClientServer *server = g_ptr_array_index (summary->servers, 2);

      g_assert_cmpstr (server->name, ==, "github");
      g_assert_cmpstr (server->file, ==, vscode);
      g_assert_nonnull (strstr (server->notes[0], "(github: GITHUB_PERSONAL_ACCESS_TOKEN)"));
    }
  }

  /* a backup of each file written, with its bytes before */
  {
    g_autofree char *start = mcp_config_file_backup_prefix (cursor);
    g_autofree char *dir = mcp_config_file_get_backup_dir ();
    g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
    const char *entry;
    gboolean found = FALSE;

    g_assert_nonnull (listing);
    while ((entry = g_dir_read_name (listing)) != NULL)
      {
        if (g_str_has_prefix (entry, start))
          {
            g_autofree char *backup = g_build_filename (dir, entry, NULL);
            g_autofree char *saved = test_read_file (backup);

            found |= g_str_equal (saved, cursor_before);
          }
      }
    g_assert_true (found);
  }
}

/* The file changed between the preview and the copy: that one is not
 * written, the others are */
static void
test_changed_after_plan (void)
{
  g_auto(Home) h = { 0 };
  g_autoptr(GPtrArray) copy_plan = NULL;
  g_autoptr(GError) error = NULL;
  McpClientKind targets[] = { MCP_CLIENT_KIND_CURSOR, MCP_CLIENT_KIND_WINDSURF };
  g_autofree char *cursor = NULL;
  g_autofree char *windsurf = NULL;
  g_autofree char *edited = NULL;

  home_init (&h);
  cursor = g_build_filename (h.home, ".cursor", "mcp.json", NULL);
  windsurf = g_build_filename (h.home, ".codeium", "windsurf", "mcp_config.json", NULL);

  copy_plan = plan (&h, MCP_CLIENT_KIND_CLAUDE_DESKTOP, MCP_CONFIG_SCOPE_USER, "weather", targets,
                    G_N_ELEMENTS (targets), MCP_CONFIG_SCOPE_USER, MCP_COPY_FLAGS_NONE, &error);
  g_assert_no_error (error);

  /* Cursor itself saves the file meanwhile */
  {
    g_autofree char *text = test_read_file (cursor);

    edited = g_strconcat (text, "\n", NULL);
    test_write_file (cursor, edited);
  }

  g_assert_false (apply (copy_plan, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_WRONG_ETAG);
  g_assert_nonnull (strstr (error->message, cursor));
  g_assert_nonnull (strstr (error->message, "changed by another program"));
  g_assert_error (((McpCopyTarget *) copy_plan->pdata[0])->error, G_IO_ERROR, G_IO_ERROR_WRONG_ETAG);
  g_assert_null (((McpCopyTarget *) copy_plan->pdata[1])->error);
  {
    g_autofree char *now = test_read_file (cursor);
    g_autofree char *now_windsurf = test_read_file (windsurf);

    g_assert_cmpstr (now, ==, edited);
    g_assert_nonnull (strstr (now_windsurf, "\"weather\""));
  }
}

/* A target file that does not parse: its error, the others done */
static void
test_broken_target (void)
{
  g_auto(Home) h = { 0 };
  g_autoptr(GPtrArray) copy_plan = NULL;
  g_autoptr(GError) error = NULL;
  McpClientKind targets[] = { MCP_CLIENT_KIND_GEMINI, MCP_CLIENT_KIND_CURSOR };
  g_autofree char *gemini = NULL;
  const char *broken = "{ \"theme\": \"GitHub\", \"mcpServers\": { \"x\": [ }\n";

  home_init (&h);
  gemini = g_build_filename (h.home, ".gemini", "settings.json", NULL);
  test_write_file (gemini, broken);

  copy_plan = plan (&h, MCP_CLIENT_KIND_VSCODE, MCP_CONFIG_SCOPE_PROJECT, "legacy-sse", targets,
                    G_N_ELEMENTS (targets), MCP_CONFIG_SCOPE_USER, MCP_COPY_FLAGS_NONE, &error);
  g_assert_no_error (error);
  g_assert_nonnull (((McpCopyTarget *) copy_plan->pdata[0])->error);
  g_assert_nonnull (strstr (((McpCopyTarget *) copy_plan->pdata[0])->error->message, gemini));
  g_assert_nonnull (strstr (((McpCopyTarget *) copy_plan->pdata[0])->error->message, "does not parse"));
  g_assert_null (((McpCopyTarget *) copy_plan->pdata[0])->after);
  g_assert_null (((McpCopyTarget *) copy_plan->pdata[1])->error);

  g_assert_false (apply (copy_plan, &error));
  {
    g_autofree char *now = test_read_file (gemini);
    g_autofree char *cursor = g_build_filename (h.home, ".cursor", "mcp.json", NULL);
    g_autofree char *now_cursor = test_read_file (cursor);

    g_assert_cmpstr (now, ==, broken);
    g_assert_nonnull (strstr (now_cursor, "\"legacy-sse\""));
  }

  /* a source that does not exist, and a name it does not have */
  g_clear_error (&error);
  g_clear_pointer (&copy_plan, g_ptr_array_unref);
  copy_plan = plan (&h, MCP_CLIENT_KIND_CURSOR, MCP_CONFIG_SCOPE_USER, "nope", targets, 1,
                    MCP_CONFIG_SCOPE_USER, MCP_COPY_FLAGS_NONE, &error);
  g_assert_null (copy_plan);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, "“nope”"));
  g_clear_error (&error);
  copy_plan = plan (&h, MCP_CLIENT_KIND_CLAUDE_DESKTOP, MCP_CONFIG_SCOPE_PROJECT, NULL, targets, 1,
                    MCP_CONFIG_SCOPE_USER, MCP_COPY_FLAGS_NONE, &error);
  g_assert_null (copy_plan);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (error->message, "Claude Desktop"));
}

/* Replacing a server keeps what the target file has of its own */
static void
test_replace (void)
{
  g_auto(Home) h = { 0 };
  g_autoptr(GPtrArray) copy_plan = NULL;
  g_autoptr(GError) error = NULL;
  McpClientKind targets[] = { MCP_CLIENT_KIND_WINDSURF };
  g_autofree char *windsurf = NULL;
  g_autofree char *text = NULL;
  McpCopyTarget *target;

  home_init (&h);
  windsurf = g_build_filename (h.home, ".codeium", "windsurf", "mcp_config.json", NULL);
  test_write_file (windsurf,
                   "{\n"
                   "  \"mcpServers\": {\n"
                   "    \"brave-search\": {\n"
                   "      \"command\": \"npx\",\n"
                   "      \"args\": [\"-y\", \"@modelcontextprotocol/server-brave-search@0.1\"],\n"
                   "      \"env\": { \"BRAVE_API_KEY\": \"${env:BRAVE_API_KEY}\" },\n"
                   "      \"x-note\": \"keep me\",\n"
                   "      \"disabledTools\": [\"brave_local_search\"]\n"
                   "    }\n"
                   "  }\n"
                   "}\n");

  /* without replace: refused */
  copy_plan = plan (&h, MCP_CLIENT_KIND_CURSOR, MCP_CONFIG_SCOPE_USER, "brave-search", targets, 1,
                    MCP_CONFIG_SCOPE_USER, MCP_COPY_FLAGS_NONE, &error);
  g_assert_no_error (error);
  target = copy_plan->pdata[0];
  g_assert_error (target->error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG);
  g_assert_nonnull (strstr (target->error->message, "already"));
  g_clear_pointer (&copy_plan, g_ptr_array_unref);

  /* with it: only the member that differs changes */
  copy_plan = plan (&h, MCP_CLIENT_KIND_CURSOR, MCP_CONFIG_SCOPE_USER, "brave-search", targets, 1,
                    MCP_CONFIG_SCOPE_USER, MCP_COPY_FLAGS_REPLACE, &error);
  g_assert_no_error (error);
  target = copy_plan->pdata[0];
  g_assert_no_error (target->error);
  g_assert_cmpstr (target->notes->pdata[0], ==, "brave-search: replaced");
  g_assert_true (apply (copy_plan, &error));
  g_assert_no_error (error);
  text = test_read_file (windsurf);
  g_assert_cmpstr (text, ==,
                   "{\n"
                   "  \"mcpServers\": {\n"
                   "    \"brave-search\": {\n"
                   "      \"command\": \"npx\",\n"
                   "      \"args\": [\"-y\", \"@modelcontextprotocol/server-brave-search\"],\n"
                   "      \"env\": { \"BRAVE_API_KEY\": \"${env:BRAVE_API_KEY}\" },\n"
                   "      \"x-note\": \"keep me\",\n"
                   "      \"disabledTools\": [\"brave_local_search\"]\n"
                   "    }\n"
                   "  }\n"
                   "}\n");
  g_clear_pointer (&copy_plan, g_ptr_array_unref);

  /* again: the same already, nothing to write */
  copy_plan = plan (&h, MCP_CLIENT_KIND_CURSOR, MCP_CONFIG_SCOPE_USER, "brave-search", targets, 1,
                    MCP_CONFIG_SCOPE_USER, MCP_COPY_FLAGS_NONE, &error);
  g_assert_no_error (error);
  target = copy_plan->pdata[0];
  g_assert_no_error (target->error);
  g_assert_null (target->after);
  g_assert_null (target->diff);
  g_assert_cmpstr (target->notes->pdata[0], ==, "brave-search: the same already");
  g_assert_true (apply (copy_plan, &error));
}

/* Claude Code's local scope: the project's part of ~/.claude.json */
static void
test_local_scope (void)
{
  g_auto(Home) h = { 0 };
  g_autoptr(GPtrArray) copy_plan = NULL;
  g_autoptr(GError) error = NULL;
  McpClientKind targets[] = { MCP_CLIENT_KIND_CLAUDE_CODE, MCP_CLIENT_KIND_CLAUDE_DESKTOP };
  g_autofree char *claude = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autoptr(JsonNode) root = NULL;

  home_init (&h);
  claude = g_build_filename (h.home, ".claude.json", NULL);
  before = test_read_file (claude);

  copy_plan = plan (&h, MCP_CLIENT_KIND_VSCODE, MCP_CONFIG_SCOPE_USER, "fetch", targets,
                    G_N_ELEMENTS (targets), MCP_CONFIG_SCOPE_LOCAL, MCP_COPY_FLAGS_NONE, &error);
  g_assert_no_error (error);
  /* Claude Desktop has no local scope: its user file */
  g_assert_cmpint (((McpCopyTarget *) copy_plan->pdata[0])->scope, ==, MCP_CONFIG_SCOPE_LOCAL);
  g_assert_cmpint (((McpCopyTarget *) copy_plan->pdata[1])->scope, ==, MCP_CONFIG_SCOPE_USER);
  g_assert_true (apply (copy_plan, &error));
  g_assert_no_error (error);

  after = test_read_file (claude);
  assert_only_added (before, after);
  root = test_json_parse (after);
  {
    JsonObject *servers = object_at (root, (const char * const []) { "projects", h.project, "mcpServers", NULL });

    g_assert_nonnull (servers);
    g_assert_true (json_object_has_member (servers, "postgres"));
    g_assert_true (json_object_has_member (servers, "fetch"));
  }
}

/* ------------------------------------------------------------------------ */
/* The diff                                                                 */

static void
test_diff (void)
{
  g_autofree char *diff = NULL;
  g_autoptr(GString) big_a = g_string_new (NULL);
  g_autoptr(GString) big_b = g_string_new (NULL);
  gint64 start;

  g_assert_null (mcp_text_diff ("f", "same\n", "same\n"));
  g_assert_null (mcp_text_diff ("f", NULL, ""));

  diff = mcp_text_diff ("a.json", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n",
                        "1\n2\n3\n4\nfour and a half\n5\n6\n7\n8\n9\n10\n11\ntwelve\n");
  g_assert_cmpstr (diff, ==,
                   "--- a.json\n+++ a.json\n"
                   "@@ -2,6 +2,7 @@\n 2\n 3\n 4\n+four and a half\n 5\n 6\n 7\n"
                   "@@ -9,4 +10,4 @@\n 9\n 10\n 11\n-12\n+twelve\n");
  g_clear_pointer (&diff, g_free);

  /* a new file, and a last line without its newline */
  diff = mcp_text_diff ("n", NULL, "{\n}");
  g_assert_cmpstr (diff, ==, "--- n\n+++ n\n@@ -0,0 +1,2 @@\n+{\n+}\n\\ No newline at end of file\n");
  g_clear_pointer (&diff, g_free);

  /* close changes share a hunk */
  diff = mcp_text_diff ("c", "a\nb\nc\nd\ne\n", "A\nb\nc\nd\nE\n");
  g_assert_cmpstr (diff, ==, "--- c\n+++ c\n@@ -1,5 +1,5 @@\n-a\n+A\n b\n c\n d\n-e\n+E\n");
  g_clear_pointer (&diff, g_free);

  /* huge and all different: one hunk, quickly */
  for (guint i = 0; i < 20000; i++)
    {
      g_string_append_printf (big_a, "a%u\n", i);
      g_string_append_printf (big_b, "b%u\n", i);
    }
  start = g_get_monotonic_time ();
  diff = mcp_text_diff ("big", big_a->str, big_b->str);
  g_assert_true (g_str_has_prefix (diff, "--- big\n+++ big\n@@ -1,20000 +1,20000 @@\n-a0\n"));
  g_test_message ("20000 changed lines in %" G_GINT64_FORMAT " ms", (g_get_monotonic_time () - start) / 1000);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/client-copy/diff", test_diff);
  g_test_add_func ("/client-copy/scan", test_scan);
  g_test_add_func ("/client-copy/find-server", test_find_server);
  g_test_add_func ("/client-copy/every-pair", test_copy_every_pair);
  g_test_add_func ("/client-copy/notes", test_copy_notes);
  g_test_add_func ("/client-copy/dry-run", test_dry_run);
  g_test_add_func ("/client-copy/changed-after-plan", test_changed_after_plan);
  g_test_add_func ("/client-copy/broken-target", test_broken_target);
  g_test_add_func ("/client-copy/replace", test_replace);
  g_test_add_func ("/client-copy/local-scope", test_local_scope);

  return g_test_run ();
}
