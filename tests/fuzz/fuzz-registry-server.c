/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-registry-server"

#include "config.h"

#include "fuzz.h"

#include <string.h>

#include "mcp-json-private.h"
#include "mcp-registry.h"
#include "mcp-url-policy.h"

/* A server.json from a registry (mcp-registry-server.c) and the settings
 * entries it builds (mcp-registry-entry.c). Checks what the header
 * promises:
 * - a document is read or refused with MCP_ERROR_INVALID_MESSAGE and a
 *   message that is valid UTF-8;
 * - every choice has a label and its inputs a name;
 * - the entry name is [a-z0-9_-]+, never beginning with '-';
 * - an entry, given every input a value (its first choice, or "v"), is
 *   built or refused with MCP_ERROR_INVALID_CONFIG; one that is built runs
 *   a command or names a URL the URL policy accepts.
 * Warnings and criticals are fatal. */

static void
fail (const char *what)
{
  g_printerr ("fuzz-registry-server: %s\n", what);
  abort ();
}

static void
check_entry_name (McpRegistryServer *server)
{
  g_autofree char *name = mcp_registry_server_dup_entry_name (server);

  if (name[0] == '\0' || name[0] == '-')
    fail ("entry name empty or beginning with '-'");
  for (const char *p = name; *p != '\0'; p++)
    if (!g_ascii_islower (*p) && !g_ascii_isdigit (*p) && *p != '_' && *p != '-')
      fail ("entry name with a character a server name cannot hold");
}

static void
check_choice (McpRegistryServer *server,
              McpRegistryChoice *choice)
{
  g_autoptr(GHashTable) values = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) entry = NULL;

  if (choice->label == NULL || choice->identifier == NULL || choice->inputs == NULL)
    fail ("a choice without label, identifier or inputs");
  for (guint i = 0; i < choice->inputs->len; i++)
    {
      McpRegistryInput *input = g_ptr_array_index (choice->inputs, i);

      if (input->name == NULL)
        fail ("an input without a name");
      g_hash_table_insert (values, input->name,
                           input->choices != NULL && input->choices[0] != NULL ? input->choices[0] : "v");
    }

  entry = mcp_registry_server_build_entry (server, choice, values, NULL, &error);
  if (entry == NULL)
    {
      if (!g_error_matches (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG))
        fail ("an entry refused with an error of another kind");
      if (!g_utf8_validate (error->message, -1, NULL))
        fail ("an error that is not UTF-8");
      return;
    }
  if (json_object_has_member (entry, "command") == json_object_has_member (entry, "url"))
    fail ("an entry with both or neither of command and url");
  if (json_object_has_member (entry, "url"))
    {
      const char *url = json_object_get_string_member (entry, "url");

      if (!mcp_url_policy_check (url, MCP_URL_USE_FETCH, NULL, NULL))
        fail ("a URL the policy refuses");
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(McpRegistryServer) server = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *choices;

  fuzz_abort_on_warnings ();

  root = mcp_json_parse ((const char *) data, size, NULL);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return 0;

  server = mcp_registry_server_new_from_json (json_node_get_object (root), &error);
  if (server == NULL)
    {
      if (!g_error_matches (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE))
        fail ("a document refused with an error of another kind");
      if (!g_utf8_validate (error->message, -1, NULL))
        fail ("an error that is not UTF-8");
      return 0;
    }

  check_entry_name (server);
  choices = mcp_registry_server_get_choices (server);
  for (guint i = 0; i < choices->len; i++)
    check_choice (server, g_ptr_array_index (choices, i));
  return 0;
}
