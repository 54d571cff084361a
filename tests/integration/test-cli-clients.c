/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-cli-clients"

#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "test-cli-run.h"
#include "test-dirs.h"
#include "test-run.h"
#include "test-util.h"

/* Issue 26 from the command line: plugboard-cli clients, --client on the
 * settings verbs, copy between clients, and registry search, show and
 * install against a registry on 127.0.0.1 — the built plugboard-cli in a
 * fake home with the clients' files as people have them. */

#define HANG_BOUND_S 90

static const char *cli_path;
static const char *fixture_path;

typedef struct
{
  TestDirs  dirs;
  char     *home;
  char     *xdg_config;
  char     *claude_code;     /* ~/.claude.json */
  char     *claude_desktop;  /* XDG_CONFIG_HOME/Claude/claude_desktop_config.json */
  char     *vscode;          /* XDG_CONFIG_HOME/Code/User/settings.json */
  char     *cursor;          /* ~/.cursor/mcp.json */
} Home;

static const char claude_code_text[] =
  "{\n"
  "  \"numStartups\": 42,\n"
  "  \"theme\": \"dark\",\n"
  "  \"mcpServers\": {\n"
  "    \"everything\": {\n"
  "      \"type\": \"stdio\",\n"
  "      \"command\": \"npx\",\n"
  "      \"args\": [\"-y\", \"@modelcontextprotocol/server-everything\"],\n"
  "      \"env\": {}\n"
  "    }\n"
  "  },\n"
  "  \"projects\": {}\n"
  "}\n";

static const char claude_desktop_text[] =
  "{\n"
  "    \"mcpServers\": {\n"
  "        \"weather\": {\n"
  "            \"command\": \"uvx\",\n"
  "            \"args\": [\"weather-mcp==1.2.0\"],\n"
  "            \"env\": {\"WEATHER_API_KEY\": \"sk-weather-0123456789\"}\n"
  "        }\n"
  "    },\n"
  "    \"globalShortcut\": \"Ctrl+Space\"\n"
  "}\n";

static const char vscode_text[] =
  "// VS Code's user settings\n"
  "{\n"
  "\t\"editor.fontSize\": 13,\n"
  "\t\"mcp\": {\n"
  "\t\t\"servers\": {\n"
  "\t\t\t// a remote one\n"
  "\t\t\t\"docs\": {\"type\": \"http\", \"url\": \"https://docs.example.com/mcp\"},\n"
  "\t\t},\n"
  "\t},\n"
  "\t\"files.autoSave\": \"afterDelay\",\n"
  "}\n";

static const char cursor_text[] =
  "{\n"
  "  \"mcpServers\": {\n"
  "    \"git\": {\"command\": \"uvx\", \"args\": [\"mcp-server-git\"]}\n"
  "  }\n"
  "}\n";

static void
home_init (Home *home)
{
  test_dirs_init_cli (&home->dirs, "cli-clients");
  home->home = g_build_filename (home->dirs.root, "home", NULL);
  home->xdg_config = g_build_filename (home->dirs.root, "xdg-config", NULL);
  home->claude_code = g_build_filename (home->home, ".claude.json", NULL);
  home->claude_desktop = g_build_filename (home->xdg_config, "Claude", "claude_desktop_config.json", NULL);
  home->vscode = g_build_filename (home->xdg_config, "Code", "User", "settings.json", NULL);
  home->cursor = g_build_filename (home->home, ".cursor", "mcp.json", NULL);
  test_write_file (home->claude_code, claude_code_text);
  test_write_file (home->claude_desktop, claude_desktop_text);
  test_write_file (home->vscode, vscode_text);
  test_write_file (home->cursor, cursor_text);
}

static void
home_clear (Home *home)
{
  test_dirs_clear (&home->dirs);
  g_free (home->home);
  g_free (home->xdg_config);
  g_free (home->claude_code);
  g_free (home->claude_desktop);
  g_free (home->vscode);
  g_free (home->cursor);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Home, home_clear)

static void
run_cli_env (TestRun            *run,
             Home               *home,
             const char * const *env,
             const char * const *args)
{
  g_autoptr(GPtrArray) all_env = g_ptr_array_new ();
  TestCli cli;

  test_cli_init (&cli, cli_path, &home->dirs);
  cli.bound_s = HANG_BOUND_S;
  g_ptr_array_add (all_env, (gpointer) "HOME");
  g_ptr_array_add (all_env, home->home);
  for (guint i = 0; env != NULL && env[i] != NULL; i++)
    g_ptr_array_add (all_env, (gpointer) env[i]);
  g_ptr_array_add (all_env, NULL);
  cli.env = (const char * const *) all_env->pdata;
  test_cli_run (run, &cli, args);
}

#define run_cli(run, home, ...) run_cli_env ((run), (home), NULL, TEST_CLI_ARGS (__VA_ARGS__))

/* The same with the home folder as the project */
static void
run_cli_in_home (TestRun            *run,
                 Home               *home,
                 const char * const *args)
{
  const char *env[] = { "HOME", home->home, NULL };
  TestCli cli;

  test_cli_init (&cli, cli_path, &home->dirs);
  cli.bound_s = HANG_BOUND_S;
  cli.project_dir = home->home;
  cli.env = env;
  test_cli_run (run, &cli, args);
}

static gboolean
have_tools (void)
{
  return test_cli_have_tools (cli_path, fixture_path);
}

static JsonObject *
find_client (JsonArray  *clients,
             const char *id)
{
  for (guint i = 0; i < json_array_get_length (clients); i++)
    {
      JsonObject *client = json_array_get_object_element (clients, i);

      if (g_strcmp0 (json_object_get_string_member (client, "client"), id) == 0)
        return client;
    }
  return NULL;
}

/* clients: the ones whose files are there, each with its files and count */
static void
test_clients_list (void)
{
  g_auto(Home) home = { 0 };
  g_auto(TestRun) run = { 0 };
  g_auto(TestRun) all = { 0 };
  g_auto(TestRun) text = { 0 };
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonNode) all_root = NULL;
  JsonArray *clients;
  JsonObject *client;

  if (!have_tools ())
    return;
  home_init (&home);

  run_cli (&run, &home, "clients", "--json");
  g_assert_cmpint (run.exit_status, ==, 0);
  root = test_cli_parse_json (run.out);
  clients = json_node_get_array (root);

  /* Plugboard always, then the four whose files are here, nothing else */
  g_assert_cmpuint (json_array_get_length (clients), ==, 5);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (clients, 0), "client"), ==,
                   "plugboard");
  client = find_client (clients, "claude-code");
  g_assert_nonnull (client);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (client, "servers")), ==, 1);
  client = find_client (clients, "claude-desktop");
  g_assert_nonnull (client);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (
                     json_object_get_array_member (client, "servers"), 0), "name"), ==, "weather");
  client = find_client (clients, "vscode");
  g_assert_nonnull (client);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (
                     json_object_get_array_member (client, "servers"), 0), "name"), ==, "docs");
  g_assert_nonnull (find_client (clients, "cursor"));
  g_assert_null (find_client (clients, "windsurf"));
  g_assert_null (find_client (clients, "goose"));

  /* --all: every client, the absent ones said so */
  run_cli (&all, &home, "clients", "--all", "--json");
  g_assert_cmpint (all.exit_status, ==, 0);
  all_root = test_cli_parse_json (all.out);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (all_root)), ==, 10);
  client = find_client (json_node_get_array (all_root), "goose");
  g_assert_false (json_object_get_boolean_member (client, "present"));

  run_cli (&text, &home, "clients");
  g_assert_cmpint (text.exit_status, ==, 0);
  g_assert_nonnull (strstr (text.out, "Claude Desktop (claude-desktop): 1 server\n"));
  g_assert_nonnull (strstr (text.out, home.claude_desktop));
  g_assert_null (strstr (text.out, "Windsurf"));
}

/* A file that does not parse is named with its line, and the rest listed */
static void
test_clients_broken_file (void)
{
  g_auto(Home) home = { 0 };
  g_auto(TestRun) run = { 0 };

  if (!have_tools ())
    return;
  home_init (&home);
  test_write_file (home.cursor, "{\n  \"mcpServers\": {\n    \"git\": \n");

  run_cli (&run, &home, "clients");
  g_assert_cmpint (run.exit_status, ==, 5);
  g_assert_nonnull (strstr (run.out, "cannot be read"));
  g_assert_nonnull (strstr (run.out, home.cursor));
  g_assert_nonnull (strstr (run.out, "Claude Desktop (claude-desktop): 1 server\n"));
}

/* --client on the settings verbs: list, add and remove in that client's
 * file and shape, nothing else in the file changed */
static void
test_client_option (void)
{
  g_auto(Home) home = { 0 };
  g_auto(TestRun) list = { 0 };
  g_auto(TestRun) add = { 0 };
  g_auto(TestRun) bad_scope = { 0 };
  g_auto(TestRun) bad_client = { 0 };
  g_auto(TestRun) remove = { 0 };
  g_autofree char *after_add = NULL;
  g_autofree char *after_remove = NULL;
  g_autoptr(JsonNode) parsed = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *servers;

  if (!have_tools ())
    return;
  home_init (&home);

  run_cli (&list, &home, "list", "--client", "cursor");
  g_assert_cmpint (list.exit_status, ==, 0);
  g_assert_nonnull (strstr (list.out, "git"));
  g_assert_null (strstr (list.out, "weather"));

  run_cli (&add, &home, "add", "--client", "claude-desktop", "fetch", "--", "uvx", "mcp-server-fetch");
  g_assert_cmpint (add.exit_status, ==, 0);
  after_add = test_read_file (home.claude_desktop);
  parsed = json_from_string (after_add, &error);
  g_assert_no_error (error);
  servers = json_object_get_object_member (json_node_get_object (parsed), "mcpServers");
  g_assert_true (json_object_has_member (servers, "fetch"));
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (servers, "fetch"), "command"),
                   ==, "uvx");
  /* what was there keeps its bytes */
  g_assert_true (g_str_has_prefix (after_add,
                                   "{\n    \"mcpServers\": {\n        \"weather\": {\n"
                                   "            \"command\": \"uvx\",\n"
                                   "            \"args\": [\"weather-mcp==1.2.0\"],\n"
                                   "            \"env\": {\"WEATHER_API_KEY\": \"sk-weather-0123456789\"}\n"
                                   "        },"));
  g_assert_nonnull (strstr (after_add, "\"globalShortcut\": \"Ctrl+Space\"\n}\n"));

  /* Claude Desktop has one file */
  run_cli (&bad_scope, &home, "add", "--client", "claude-desktop", "--scope", "project", "x", "--", "true");
  g_assert_cmpint (bad_scope.exit_status, ==, 2);
  g_assert_nonnull (strstr (bad_scope.err, "Claude Desktop has no project settings"));

  /* The home folder as the project: Cursor's project file is its user
   * file there, read once, as the user's (no approval asked) */
  {
    g_auto(TestRun) in_home = { 0 };

    run_cli_in_home (&in_home, &home, TEST_CLI_ARGS ("list", "--client", "cursor"));
    g_assert_cmpint (in_home.exit_status, ==, 0);
    g_assert_null (strstr (in_home.out, "project"));
    g_assert_null (strstr (in_home.out, "approv"));
    g_assert_nonnull (strstr (in_home.out, "git"));
  }

  run_cli (&bad_client, &home, "list", "--client", "notepad");
  g_assert_cmpint (bad_client.exit_status, ==, 2);
  g_assert_nonnull (strstr (bad_client.err, "no client “notepad”"));
  g_assert_nonnull (strstr (bad_client.err, "claude-desktop"));

  run_cli (&remove, &home, "remove", "--client", "claude-desktop", "fetch");
  g_assert_cmpint (remove.exit_status, ==, 0);
  after_remove = test_read_file (home.claude_desktop);
  g_assert_cmpstr (after_remove, ==, claude_desktop_text);
}

/* copy: the preview first (secrets masked), --dry-run writes nothing, then
 * each target in its own shape with nothing else changed */
static void
test_copy (void)
{
  g_auto(Home) home = { 0 };
  g_auto(TestRun) dry = { 0 };
  g_auto(TestRun) copy = { 0 };
  g_auto(TestRun) again = { 0 };
  g_auto(TestRun) missing = { 0 };
  g_autofree char *cursor_after = NULL;
  g_autofree char *vscode_after = NULL;
  g_autoptr(JsonNode) parsed = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *weather;

  if (!have_tools ())
    return;
  home_init (&home);

  run_cli (&dry, &home, "copy", "weather", "--from", "claude-desktop", "--to", "cursor,vscode", "--dry-run");
  g_assert_cmpint (dry.exit_status, ==, 0);
  g_assert_nonnull (strstr (dry.out, "+++ "));
  g_assert_nonnull (strstr (dry.out, home.cursor));
  g_assert_nonnull (strstr (dry.out, home.vscode));
  g_assert_nonnull (strstr (dry.out, "Nothing written"));
  /* the secret is not printed */
  g_assert_null (strstr (dry.out, "sk-weather-0123456789"));
  g_assert_null (strstr (dry.err, "sk-weather-0123456789"));
  cursor_after = test_read_file (home.cursor);
  g_assert_cmpstr (cursor_after, ==, cursor_text);
  g_clear_pointer (&cursor_after, g_free);

  run_cli (&copy, &home, "copy", "weather", "--from", "claude-desktop", "--to", "cursor", "--to", "vscode");
  g_assert_cmpint (copy.exit_status, ==, 0);

  cursor_after = test_read_file (home.cursor);
  parsed = json_from_string (cursor_after, &error);
  g_assert_no_error (error);
  weather = json_object_get_object_member (json_object_get_object_member (json_node_get_object (parsed),
                                                                          "mcpServers"), "weather");
  g_assert_nonnull (weather);
  g_assert_cmpstr (json_object_get_string_member (weather, "command"), ==, "uvx");
  /* Cursor's own server kept its bytes */
  g_assert_nonnull (strstr (cursor_after, "\"git\": {\"command\": \"uvx\", \"args\": [\"mcp-server-git\"]}"));

  /* VS Code: JSONC kept, the server under mcp.servers */
  vscode_after = test_read_file (home.vscode);
  g_assert_true (g_str_has_prefix (vscode_after, "// VS Code's user settings\n{\n\t\"editor.fontSize\": 13,\n"));
  g_assert_nonnull (strstr (vscode_after, "\t\t\t// a remote one\n"));
  g_assert_nonnull (strstr (vscode_after, "\"weather\""));
  g_assert_nonnull (strstr (vscode_after, "\t\"files.autoSave\": \"afterDelay\",\n}\n"));

  /* a second copy: there already */
  run_cli (&again, &home, "copy", "weather", "--from", "claude-desktop", "--to", "cursor");
  g_assert_cmpint (again.exit_status, ==, 5);

  run_cli (&missing, &home, "copy", "nothing-here", "--from", "cursor", "--to", "vscode");
  g_assert_cmpint (missing.exit_status, ==, 5);
  test_cli_assert_failure_line (missing.err, "No server “nothing-here” in Cursor's settings");
}

/* The registry: a SoupServer on 127.0.0.1 in the registry's API v0.1 shape */

typedef struct
{
  SoupServer *server;
  char       *base;
  guint16     mcp_port;   /* the Streamable HTTP fixture the remote entry names */
  guint       requests;
} Registry;

static JsonObject *
registry_document (Registry   *registry,
                   guint       index)
{
  g_autofree char *text = NULL;
  g_autoptr(JsonNode) node = NULL;

  switch (index)
    {
    case 0:
      text = g_strdup_printf (
        "{\"name\": \"io.github.example/echo-remote\", \"title\": \"Echo (remote)\","
        " \"description\": \"Echoes what it is sent\", \"version\": \"1.0.0\","
        " \"remotes\": [{\"type\": \"streamable-http\", \"url\": \"http://127.0.0.1:%u/mcp\","
        "   \"headers\": [{\"name\": \"Authorization\", \"description\": \"Bearer token\","
        "                 \"isRequired\": true, \"isSecret\": true}]}]}", registry->mcp_port);
      break;
    case 1:
      text = g_strdup (
        "{\"name\": \"io.github.modelcontextprotocol/everything\", \"description\": \"Every feature of MCP\","
        " \"version\": \"2026.8.31\", \"repository\": {\"url\": \"https://github.com/modelcontextprotocol/servers\","
        " \"source\": \"github\"},"
        " \"packages\": [{\"registryType\": \"npm\", \"identifier\": \"@modelcontextprotocol/server-everything\","
        "   \"version\": \"2026.8.31\", \"transport\": {\"type\": \"stdio\"},"
        "   \"environmentVariables\": [{\"name\": \"EVERYTHING_KEY\", \"description\": \"A key\","
        "                               \"isSecret\": true}]}]}");
      break;
    default:
      text = g_strdup_printf (
        "{\"name\": \"io.github.example/weather-%u\", \"description\": \"Weather number %u\","
        " \"version\": \"0.%u.0\", \"packages\": [{\"registryType\": \"pypi\","
        " \"identifier\": \"weather-mcp\", \"version\": \"0.%u.0\", \"transport\": {\"type\": \"stdio\"}}]}",
        index, index, index, index);
      break;
    }
  node = json_from_string (text, NULL);
  return json_object_ref (json_node_get_object (node));
}

#define N_DOCUMENTS 6

static JsonObject *
registry_entry (Registry *registry,
                guint     index)
{
  JsonObject *entry = json_object_new ();
  JsonObject *meta = json_object_new ();
  JsonObject *official = json_object_new ();

  json_object_set_object_member (entry, "server", registry_document (registry, index));
  json_object_set_string_member (official, "status", "active");
  json_object_set_boolean_member (official, "isLatest", TRUE);
  json_object_set_object_member (meta, "io.modelcontextprotocol.registry/official", official);
  json_object_set_object_member (entry, "_meta", meta);
  return entry;
}

static void
reply_json (SoupServerMessage *message,
            guint              status,
            JsonObject        *object)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *text = NULL;

  json_node_set_object (node, object);
  text = json_to_string (node, FALSE);
  soup_server_message_set_status (message, status, NULL);
  soup_server_message_set_response (message, "application/json", SOUP_MEMORY_COPY, text, strlen (text));
}

static void
registry_cb (SoupServer        *server,
             SoupServerMessage *message,
             const char        *path,
             GHashTable        *query,
             gpointer           user_data)
{
  Registry *registry = user_data;

  registry->requests++;
  if (g_str_equal (path, "/v0.1/servers"))
    {
      const char *search = query ? g_hash_table_lookup (query, "search") : NULL;
      const char *cursor = query ? g_hash_table_lookup (query, "cursor") : NULL;
      const char *limit_text = query ? g_hash_table_lookup (query, "limit") : NULL;
      guint limit = limit_text ? (guint) g_ascii_strtoull (limit_text, NULL, 10) : 30;
      guint start = cursor ? (guint) g_ascii_strtoull (cursor, NULL, 10) : 0;
      g_autoptr(JsonObject) reply = json_object_new ();
      JsonArray *servers = json_array_new ();
      JsonObject *metadata = json_object_new ();
      guint i, n = 0;

      for (i = start; i < N_DOCUMENTS && n < MAX (limit, 1); i++)
        {
          g_autoptr(JsonObject) document = registry_document (registry, i);
          g_autofree char *name = g_ascii_strdown (json_object_get_string_member (document, "name"), -1);

          if (search != NULL && strstr (name, search) == NULL)
            continue;
          json_array_add_object_element (servers, registry_entry (registry, i));
          n++;
        }
      json_object_set_array_member (reply, "servers", servers);
      json_object_set_int_member (metadata, "count", n);
      if (i < N_DOCUMENTS)
        {
          g_autofree char *next = g_strdup_printf ("%u", i);

          json_object_set_string_member (metadata, "nextCursor", next);
        }
      json_object_set_object_member (reply, "metadata", metadata);
      reply_json (message, 200, reply);
      return;
    }

  if (g_str_has_prefix (path, "/v0.1/servers/") && g_str_has_suffix (path, "/versions/latest"))
    {
      g_autofree char *encoded = g_strndup (path + strlen ("/v0.1/servers/"),
                                            strlen (path) - strlen ("/v0.1/servers/") - strlen ("/versions/latest"));
      g_autofree char *name = g_uri_unescape_string (encoded, NULL);

      for (guint i = 0; name != NULL && i < N_DOCUMENTS; i++)
        {
          g_autoptr(JsonObject) document = registry_document (registry, i);

          if (g_str_equal (json_object_get_string_member (document, "name"), name))
            {
              g_autoptr(JsonObject) entry = registry_entry (registry, i);

              reply_json (message, 200, entry);
              return;
            }
        }
    }

  {
    g_autoptr(JsonObject) problem = json_object_new ();

    json_object_set_string_member (problem, "title", "Not Found");
    json_object_set_int_member (problem, "status", 404);
    reply_json (message, 404, problem);
  }
}

static void
registry_start (Registry *registry,
                guint16   mcp_port)
{
  g_autoptr(GError) error = NULL;
  GSList *uris;

  registry->mcp_port = mcp_port;
  registry->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (registry->server, NULL, registry_cb, registry, NULL);
  g_assert_true (soup_server_listen_local (registry->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error));
  g_assert_no_error (error);
  uris = soup_server_get_uris (registry->server);
  registry->base = g_strdup_printf ("http://127.0.0.1:%d", g_uri_get_port (uris->data));
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
}

static void
registry_stop (Registry *registry)
{
  if (registry->server != NULL)
    soup_server_disconnect (registry->server);
  g_clear_object (&registry->server);
  g_clear_pointer (&registry->base, g_free);
}

static void
test_registry_search_show (void)
{
  g_auto(Home) home = { 0 };
  g_auto(TestRun) search = { 0 };
  g_auto(TestRun) page = { 0 };
  g_auto(TestRun) show = { 0 };
  g_auto(TestRun) cached = { 0 };
  g_auto(TestRun) unknown = { 0 };
  g_auto(TestRun) refused = { 0 };
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *base = NULL;
  Registry registry = { 0 };
  JsonArray *servers;

  if (!have_tools ())
    return;
  home_init (&home);
  registry_start (&registry, 9);
  base = g_strdup (registry.base);

  run_cli (&search, &home, "registry", "search", "echo", "--registry", base, "--json");
  g_assert_cmpint (search.exit_status, ==, 0);
  root = test_cli_parse_json (search.out);
  servers = json_object_get_array_member (json_node_get_object (root), "servers");
  g_assert_cmpuint (json_array_get_length (servers), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (servers, 0), "name"), ==,
                   "io.github.example/echo-remote");

  /* paging: the next page's cursor is offered */
  run_cli (&page, &home, "registry", "search", "--limit", "2", "--registry", base);
  g_assert_cmpint (page.exit_status, ==, 0);
  g_assert_nonnull (strstr (page.out, "io.github.modelcontextprotocol/everything"));
  g_assert_null (strstr (page.out, "weather-2"));
  g_assert_nonnull (strstr (page.out, "--cursor '2'"));

  run_cli (&show, &home, "registry", "show", "io.github.modelcontextprotocol/everything", "--registry", base);
  g_assert_cmpint (show.exit_status, ==, 0);
  g_assert_nonnull (strstr (show.out, "@modelcontextprotocol/server-everything"));
  g_assert_nonnull (strstr (show.out, "[npx]"));
  g_assert_nonnull (strstr (show.out, "--set EVERYTHING_KEY=…"));

  run_cli (&unknown, &home, "registry", "show", "io.github.example/none", "--registry", base);
  g_assert_cmpint (unknown.exit_status, ==, 3);
  test_cli_assert_failure_line (unknown.err, NULL);

  /* the registry gone: the cache answers, and says so */
  registry_stop (&registry);
  run_cli (&cached, &home, "registry", "search", "echo", "--registry", base);
  g_assert_cmpint (cached.exit_status, ==, 0);
  g_assert_nonnull (strstr (cached.out, "io.github.example/echo-remote"));
  g_assert_nonnull (strstr (cached.err, "cannot be reached"));

  /* plain http to elsewhere than this machine is refused */
  run_cli (&refused, &home, "registry", "search", "x", "--registry", "http://registry.example.com");
  g_assert_cmpint (refused.exit_status, ==, 3);
  test_cli_assert_failure_line (refused.err, NULL);
}

/* install: the secret header goes to the secret store, the settings refer
 * to it, and the server connects at once */
static void
test_registry_install (void)
{
  static const char *env[] = { "PB_TEST_TOKEN", "Bearer sekrit-token-42", NULL };
  g_auto(Home) home = { 0 };
  g_auto(TestRun) missing = { 0 };
  g_auto(TestRun) install = { 0 };
  g_auto(TestRun) twice = { 0 };
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) server = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *http_fixture = NULL;
  g_autofree char *settings = NULL;
  const char *builddir = g_getenv ("G_TEST_BUILDDIR");
  Registry registry = { 0 };
  guint16 port;

  if (!have_tools ())
    return;
  http_fixture = g_build_filename (builddir ? builddir : ".", "fixtures", "mcp-http-fixture-server", NULL);
  if (!g_file_test (http_fixture, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("mcp-http-fixture-server is not built");
      return;
    }
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  g_subprocess_launcher_set_child_setup (launcher, test_die_with_parent, NULL, NULL);
  server = g_subprocess_launcher_spawn (launcher, &error, http_fixture, "--port", "0",
                                        "--require-token", "sekrit-token-42", NULL);
  g_assert_no_error (error);
  port = test_read_listening_port (server);

  home_init (&home);
  registry_start (&registry, port);

  /* the required header not given, and no terminal to ask on */
  run_cli (&missing, &home, "registry", "install", "io.github.example/echo-remote", "--registry", registry.base,
           "--scope", "user");
  g_assert_cmpint (missing.exit_status, ==, 5);
  test_cli_assert_failure_line (missing.err, "Authorization");
  if (g_file_test (home.dirs.user_file, G_FILE_TEST_EXISTS))
    {
      g_autofree char *untouched = test_read_file (home.dirs.user_file);

      g_assert_null (strstr (untouched, "echo-remote"));
    }

  run_cli_env (&install, &home, env,
               TEST_CLI_ARGS ("registry", "install", "io.github.example/echo-remote", "--registry", registry.base,
                              "--scope", "user", "--set-from-env", "Authorization=PB_TEST_TOKEN"));
  g_assert_cmpint (install.exit_status, ==, 0);
  g_assert_nonnull (strstr (install.out, "Installed “echo-remote”"));
  g_assert_nonnull (strstr (install.out, "echo-remote: connected"));
  g_assert_null (strstr (install.out, "sekrit"));
  g_assert_null (strstr (install.err, "sekrit"));
  settings = test_read_file (home.dirs.user_file);
  g_assert_null (strstr (settings, "sekrit"));
  g_assert_nonnull (strstr (settings, "${secret:"));
  g_assert_nonnull (strstr (settings, "\"echo-remote\""));

  run_cli_env (&twice, &home, env,
               TEST_CLI_ARGS ("registry", "install", "io.github.example/echo-remote", "--registry", registry.base,
                              "--scope", "user", "--set-from-env", "Authorization=PB_TEST_TOKEN"));
  g_assert_cmpint (twice.exit_status, ==, 5);
  test_cli_assert_failure_line (twice.err, "echo-remote");

  registry_stop (&registry);
  g_subprocess_force_exit (server);
  g_subprocess_wait (server, NULL, NULL);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  cli_path = g_getenv ("MCP_TEST_PLUGBOARD_CLI");
  fixture_path = g_getenv ("MCP_TEST_FIXTURE_SERVER");

  g_test_add_func ("/cli-clients/clients/list", test_clients_list);
  g_test_add_func ("/cli-clients/clients/broken-file", test_clients_broken_file);
  g_test_add_func ("/cli-clients/client-option", test_client_option);
  g_test_add_func ("/cli-clients/copy", test_copy);
  g_test_add_func ("/cli-clients/registry/search-show", test_registry_search_show);
  g_test_add_func ("/cli-clients/registry/install", test_registry_install);

  return g_test_run ();
}
