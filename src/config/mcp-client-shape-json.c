/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client-shape"

#include "config.h"

#include "mcp-client-shape-private.h"

#include <glib/gi18n.h>

#include "mcp-server-config-private.h"

/* The shapes of the clients whose settings are JSON: Plugboard's own,
 * Claude Code, Claude Desktop, VS Code, Cursor, Windsurf and Gemini CLI.
 * Each converter says where its client documents the shape. */

static gboolean
is_remote (const char *transport)
{
  return g_str_equal (transport, "http") || g_str_equal (transport, "sse");
}

/* The type a "url" without "type" is taken as (as
 * mcp_server_config_normalize_remote() does) */
static const char *
url_transport (const char *url)
{
  g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);

  return g_str_has_suffix (uri != NULL ? g_uri_get_path (uri) : url, "/sse") ? "sse" : "http";
}

/* Plugboard's "type" for a native entry that may leave it out */
static void
set_type_in (McpShapeRun *run,
             JsonObject  *native,
             JsonObject  *entry)
{
  const char *type = mcp_json_optional_string (native, "type", "server", run->name);
  const char *url = mcp_json_optional_string (entry, "url", "server", run->name);

  if (type != NULL && (g_str_equal (type, "streamable-http") || g_str_equal (type, "streamableHttp")))
    type = "http";
  if (type != NULL)
    json_object_set_string_member (entry, "type", type);
  else if (url != NULL && !json_object_has_member (entry, "command"))
    json_object_set_string_member (entry, "type", url_transport (url));
}

static gboolean
check_is_server (McpShapeRun  *run,
                 JsonObject   *entry,
                 GError      **error)
{
  return mcp_shape_entry_transport (run, entry, error) != NULL;
}

/* "env" or "headers" of @entry into @out's @out_member, a secret of VS
 * Code's turned into an input (mcp_shape_secret_to_input()) */
static void
copy_values_out (McpShapeRun *run,
                 JsonObject  *entry,
                 const char  *member,
                 JsonObject  *out,
                 const char  *out_member)
{
  JsonObject *values = mcp_json_optional_object (entry, member, "server", run->name);
  JsonObject *copy;
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;

  if (values == NULL)
    {
      mcp_shape_copy_out (run, entry, member, out, out_member);
      return;
    }

  copy = json_object_new ();
  json_object_iter_init_ordered (&iter, values);
  while (json_object_iter_next_ordered (&iter, &name, &value))
    {
      g_autofree char *input = NULL;

      if (run->kind == MCP_CLIENT_KIND_VSCODE && mcp_server_config_is_string (value))
        input = mcp_shape_secret_to_input (run, name, json_node_get_string (value));
      if (input != NULL)
        json_object_set_string_member (copy, name, input);
      else
        json_object_set_member (copy, name, mcp_shape_vars_out_node (run, value));
    }
  json_object_set_object_member (out, out_member, copy);
}

/* The Plugboard members a target has no place for, named when set */
static void
drop_unsupported (McpShapeRun        *run,
                  JsonObject         *entry,
                  const char * const *members)
{
  for (guint i = 0; members[i] != NULL; i++)
    {
      if (g_str_equal (members[i], "enabled") || g_str_equal (members[i], "disabled"))
        {
          if (!mcp_shape_entry_enabled (entry))
            mcp_shape_drop (run, entry, json_object_has_member (entry, "enabled") ? "enabled" : "disabled");
          continue;
        }
      mcp_shape_drop (run, entry, members[i]);
    }
}

static const char *
transport_out (McpShapeRun  *run,
               JsonObject   *entry,
               gboolean      websocket,
               GError      **error)
{
  const char *transport = mcp_shape_entry_transport (run, entry, error);

  if (transport == NULL)
    return NULL;

  if (g_str_equal (transport, "ws") && !websocket)
    {
      mcp_shape_set_cannot_run (run, error, _("it does not connect to servers by WebSocket"));
      return NULL;
    }
  if (g_str_has_suffix (transport, "-ide") && run->kind != MCP_CLIENT_KIND_CLAUDE_CODE &&
      run->kind != MCP_CLIENT_KIND_PLUGBOARD)
    {
      mcp_shape_set_cannot_run (run, error, _("it is a connection to an IDE, which only Claude Code makes"));
      return NULL;
    }

  return transport;
}

/* ------------------------------------------------------------------------ */
/* Plugboard: its own shape (mcp-server-config.h)                           */

static const char * const plugboard_mapped[] = {
  "type", "command", "args", "env", "cwd", "url", "headers", "oauth",
  "ideLockDir", "ideName", "enabled", "disabled", "timeout", "toolTimeout",
  NULL
};

static JsonObject *
plugboard_to_plugboard (McpShapeRun  *run,
                        JsonObject   *native,
                        GError      **error)
{
  g_autoptr(JsonObject) entry = json_object_new ();

  for (guint i = 0; plugboard_mapped[i] != NULL; i++)
    mcp_shape_copy_in (run, native, plugboard_mapped[i], entry, plugboard_mapped[i]);

  if (!check_is_server (run, entry, error))
    return NULL;
  return g_steal_pointer (&entry);
}

static JsonObject *
plugboard_from_plugboard (McpShapeRun  *run,
                          JsonObject   *entry,
                          JsonObject   *base,
                          GError      **error)
{
  g_autoptr(JsonObject) out = json_object_new ();

  if (mcp_shape_entry_transport (run, entry, error) == NULL)
    return NULL;

  for (guint i = 0; plugboard_mapped[i] != NULL; i++)
    mcp_shape_copy_out (run, entry, plugboard_mapped[i], out, plugboard_mapped[i]);

  return g_steal_pointer (&out);
}

const McpShapeClass mcp_shape_plugboard = {
  MCP_SHAPE_VARS_PLUGBOARD, plugboard_mapped, NULL,
  plugboard_to_plugboard, plugboard_from_plugboard,
};

/* ------------------------------------------------------------------------ */
/* Claude Code                                                              */

/* https://docs.anthropic.com/en/docs/claude-code/mcp: ~/.claude.json
 * "mcpServers" (user), "projects"[DIR]."mcpServers" (local) and the
 * project's .mcp.json; an entry is {"type": "stdio", "command", "args",
 * "env"} or {"type": "http" | "sse", "url", "headers"} ("headersHelper":
 * a command printing headers; "oauth": {"clientId", "callbackPort"});
 * ${VAR} and ${VAR:-default} are expanded in command, args, env, url and
 * headers. Plugboard's shape is this one; what Claude Code lacks is a
 * working folder, per-server timeouts and an "enabled" in the entry (it
 * turns servers off per project). */
static const char * const claude_code_mapped[] = {
  "type", "command", "args", "env", "url", "headers", "oauth", "ideName", "ideLockDir", NULL
};
static const char * const claude_code_known[] = { "headersHelper", NULL };
static const char * const claude_code_unsupported[] = {
  "cwd", "timeout", "toolTimeout", "enabled", NULL
};

static JsonObject *
claude_code_to_plugboard (McpShapeRun  *run,
                          JsonObject   *native,
                          GError      **error)
{
  g_autoptr(JsonObject) entry = json_object_new ();

  for (guint i = 0; claude_code_mapped[i] != NULL; i++)
    mcp_shape_copy_in (run, native, claude_code_mapped[i], entry, claude_code_mapped[i]);
  set_type_in (run, native, entry);

  if (!check_is_server (run, entry, error))
    return NULL;
  return g_steal_pointer (&entry);
}

static JsonObject *
claude_code_from_plugboard (McpShapeRun  *run,
                            JsonObject   *entry,
                            JsonObject   *base,
                            GError      **error)
{
  g_autoptr(JsonObject) out = json_object_new ();
  const char *transport = transport_out (run, entry, TRUE, error);

  if (transport == NULL)
    return NULL;

  /* Claude Code wants the "type" of a remote server */
  if (json_object_has_member (entry, "type") || is_remote (transport))
    json_object_set_string_member (out, "type", transport);
  for (guint i = 1; claude_code_mapped[i] != NULL; i++)
    mcp_shape_copy_out (run, entry, claude_code_mapped[i], out, claude_code_mapped[i]);
  drop_unsupported (run, entry, claude_code_unsupported);

  return g_steal_pointer (&out);
}

const McpShapeClass mcp_shape_claude_code = {
  MCP_SHAPE_VARS_PLUGBOARD, claude_code_mapped, claude_code_known,
  claude_code_to_plugboard, claude_code_from_plugboard,
};

/* ------------------------------------------------------------------------ */
/* Claude Desktop                                                           */

/* https://modelcontextprotocol.io/quickstart/user: claude_desktop_config.json
 * "mcpServers" NAME → {"command", "args", "env"}: local servers only (a
 * remote one is added in Claude Desktop's Settings → Connectors, not in
 * the file), values taken as written (no variables). */
static const char * const claude_desktop_mapped[] = {
  "command", "args", "env", "type", "url", "headers", NULL
};
static const char * const claude_desktop_unsupported[] = {
  "cwd", "timeout", "toolTimeout", "enabled", "oauth", NULL
};

static JsonObject *
claude_desktop_to_plugboard (McpShapeRun  *run,
                             JsonObject   *native,
                             GError      **error)
{
  g_autoptr(JsonObject) entry = json_object_new ();

  for (guint i = 0; claude_desktop_mapped[i] != NULL; i++)
    mcp_shape_copy_in (run, native, claude_desktop_mapped[i], entry, claude_desktop_mapped[i]);
  set_type_in (run, native, entry);

  if (!check_is_server (run, entry, error))
    return NULL;
  return g_steal_pointer (&entry);
}

static JsonObject *
claude_desktop_from_plugboard (McpShapeRun  *run,
                               JsonObject   *entry,
                               JsonObject   *base,
                               GError      **error)
{
  g_autoptr(JsonObject) out = json_object_new ();
  const char *transport = transport_out (run, entry, FALSE, error);

  if (transport == NULL)
    return NULL;
  if (!g_str_equal (transport, "stdio"))
    {
      mcp_shape_set_cannot_run (run, error,
                                _("it starts only local (stdio) servers from its settings file; add a "
                                  "remote server in its Settings, under Connectors"));
      return NULL;
    }

  mcp_shape_copy_out (run, entry, "command", out, "command");
  mcp_shape_copy_out (run, entry, "args", out, "args");
  mcp_shape_copy_out (run, entry, "env", out, "env");
  drop_unsupported (run, entry, claude_desktop_unsupported);

  return g_steal_pointer (&out);
}

const McpShapeClass mcp_shape_claude_desktop = {
  MCP_SHAPE_VARS_NONE, claude_desktop_mapped, NULL,
  claude_desktop_to_plugboard, claude_desktop_from_plugboard,
};

/* ------------------------------------------------------------------------ */
/* VS Code                                                                  */

/* https://code.visualstudio.com/docs/copilot/customization/mcp-servers and
 * its reference (docs/copilot/reference/mcp-configuration): mcp.json
 * "servers" (user profile, .vscode/mcp.json; before, settings.json "mcp"
 * "servers"), JSON with comments; stdio {"type": "stdio", "command",
 * "args", "env", "envFile", "cwd"}, remote {"type": "http" | "sse", "url",
 * "headers"}; "inputs": [{"type": "promptString", "id", "description",
 * "password"}] asked for as ${input:ID}; ${env:NAME}, ${userHome} and
 * ${workspaceFolder} in the values. */
static const char * const vscode_mapped[] = {
  "type", "command", "args", "env", "cwd", "url", "headers", NULL
};
static const char * const vscode_known[] = {
  "envFile", "dev", "sandbox", "sandboxEnabled", "gallery", "version", NULL
};
static const char * const vscode_unsupported[] = {
  "oauth", "timeout", "toolTimeout", "enabled", NULL
};

static JsonObject *
editor_to_plugboard (McpShapeRun         *run,
                     JsonObject          *native,
                     const char * const  *mapped,
                     GError             **error)
{
  g_autoptr(JsonObject) entry = json_object_new ();

  for (guint i = 0; mapped[i] != NULL; i++)
    mcp_shape_copy_in (run, native, mapped[i], entry, mapped[i]);
  set_type_in (run, native, entry);

  if (!check_is_server (run, entry, error))
    return NULL;
  return g_steal_pointer (&entry);
}

static void
ensure_inputs_node (McpShapeRun *run,
                    JsonNode    *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObjectIter iter;
      const char *member;
      JsonNode *value;

      json_object_iter_init_ordered (&iter, json_node_get_object (node));
      while (json_object_iter_next_ordered (&iter, &member, &value))
        ensure_inputs_node (run, value);
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        ensure_inputs_node (run, json_array_get_element (array, i));
    }
  else if (mcp_server_config_is_string (node))
    mcp_shape_ensure_inputs (run, json_node_get_string (node));
}

static JsonObject *
vscode_to_plugboard (McpShapeRun  *run,
                     JsonObject   *native,
                     GError      **error)
{
  return editor_to_plugboard (run, native, vscode_mapped, error);
}

static JsonObject *
vscode_from_plugboard (McpShapeRun  *run,
                       JsonObject   *entry,
                       JsonObject   *base,
                       GError      **error)
{
  g_autoptr(JsonObject) out = json_object_new ();
  g_autoptr(JsonNode) node = NULL;
  const char *transport = transport_out (run, entry, FALSE, error);

  if (transport == NULL)
    return NULL;

  /* VS Code takes an entry with a "command" as stdio */
  if (json_object_has_member (entry, "type") || is_remote (transport))
    json_object_set_string_member (out, "type", transport);
  mcp_shape_copy_out (run, entry, "command", out, "command");
  mcp_shape_copy_out (run, entry, "args", out, "args");
  copy_values_out (run, entry, "env", out, "env");
  mcp_shape_copy_out (run, entry, "cwd", out, "cwd");
  mcp_shape_copy_out (run, entry, "url", out, "url");
  copy_values_out (run, entry, "headers", out, "headers");
  drop_unsupported (run, entry, vscode_unsupported);

  /* an ${input:ID} from another VS Code file needs its input here */
  node = json_node_init_object (json_node_alloc (), out);
  ensure_inputs_node (run, node);

  return g_steal_pointer (&out);
}

const McpShapeClass mcp_shape_vscode = {
  MCP_SHAPE_VARS_EDITOR, vscode_mapped, vscode_known,
  vscode_to_plugboard, vscode_from_plugboard,
};

/* ------------------------------------------------------------------------ */
/* Cursor                                                                   */

/* https://docs.cursor.com/context/model-context-protocol: ~/.cursor/mcp.json
 * and .cursor/mcp.json "mcpServers"; stdio {"type": "stdio" (may be left
 * out), "command", "args", "env", "envFile"}, remote {"url", "headers"}
 * (Cursor finds the transport; "auth" for a static OAuth client);
 * ${env:NAME}, ${userHome}, ${workspaceFolder} in command, args, env, url
 * and headers. */
static const char * const cursor_mapped[] = {
  "type", "command", "args", "env", "url", "headers", NULL
};
static const char * const cursor_known[] = { "envFile", "auth", NULL };
static const char * const cursor_unsupported[] = {
  "cwd", "oauth", "timeout", "toolTimeout", "enabled", NULL
};

static JsonObject *
cursor_to_plugboard (McpShapeRun  *run,
                     JsonObject   *native,
                     GError      **error)
{
  return editor_to_plugboard (run, native, cursor_mapped, error);
}

static JsonObject *
cursor_from_plugboard (McpShapeRun  *run,
                       JsonObject   *entry,
                       JsonObject   *base,
                       GError      **error)
{
  g_autoptr(JsonObject) out = json_object_new ();
  const char *transport = transport_out (run, entry, FALSE, error);
  const char *url;

  if (transport == NULL)
    return NULL;

  /* a remote server's "type" only where the URL does not say it */
  url = mcp_json_optional_string (entry, "url", "server", run->name);
  if (g_str_equal (transport, "stdio") ? json_object_has_member (entry, "type")
      : (url == NULL || !g_str_equal (url_transport (url), transport) ||
         (base != NULL && json_object_has_member (base, "type"))))
    json_object_set_string_member (out, "type", transport);
  mcp_shape_copy_out (run, entry, "command", out, "command");
  mcp_shape_copy_out (run, entry, "args", out, "args");
  mcp_shape_copy_out (run, entry, "env", out, "env");
  mcp_shape_copy_out (run, entry, "url", out, "url");
  mcp_shape_copy_out (run, entry, "headers", out, "headers");
  drop_unsupported (run, entry, cursor_unsupported);

  return g_steal_pointer (&out);
}

const McpShapeClass mcp_shape_cursor = {
  MCP_SHAPE_VARS_EDITOR, cursor_mapped, cursor_known,
  cursor_to_plugboard, cursor_from_plugboard,
};

/* ------------------------------------------------------------------------ */
/* Windsurf                                                                 */

/* https://docs.windsurf.com/windsurf/cascade/mcp: ~/.codeium/windsurf/
 * mcp_config.json "mcpServers"; stdio {"command", "args", "env"}, remote
 * {"serverUrl" (or "url"), "headers"} (Streamable HTTP or SSE, found by
 * Windsurf); "disabled", "disabledTools"; ${env:VAR} in command, args,
 * env, serverUrl and headers. */
static const char * const windsurf_mapped[] = {
  "type", "command", "args", "env", "serverUrl", "url", "headers", "disabled", NULL
};
static const char * const windsurf_known[] = { "disabledTools", NULL };
static const char * const windsurf_unsupported[] = {
  "cwd", "oauth", "timeout", "toolTimeout", NULL
};

static JsonObject *
windsurf_to_plugboard (McpShapeRun  *run,
                       JsonObject   *native,
                       GError      **error)
{
  g_autoptr(JsonObject) entry = json_object_new ();

  mcp_shape_copy_in (run, native, "command", entry, "command");
  mcp_shape_copy_in (run, native, "args", entry, "args");
  mcp_shape_copy_in (run, native, "env", entry, "env");
  if (!mcp_shape_copy_in (run, native, "serverUrl", entry, "url"))
    mcp_shape_copy_in (run, native, "url", entry, "url");
  mcp_shape_copy_in (run, native, "headers", entry, "headers");
  mcp_shape_copy_in (run, native, "disabled", entry, "disabled");
  set_type_in (run, native, entry);

  if (!check_is_server (run, entry, error))
    return NULL;
  return g_steal_pointer (&entry);
}

static JsonObject *
windsurf_from_plugboard (McpShapeRun  *run,
                         JsonObject   *entry,
                         JsonObject   *base,
                         GError      **error)
{
  g_autoptr(JsonObject) out = json_object_new ();
  const char *transport = transport_out (run, entry, FALSE, error);
  gboolean url_member = base != NULL && json_object_has_member (base, "url") &&
                        !json_object_has_member (base, "serverUrl");

  if (transport == NULL)
    return NULL;

  if (json_object_has_member (entry, "type") && base != NULL && json_object_has_member (base, "type"))
    json_object_set_string_member (out, "type", transport);
  mcp_shape_copy_out (run, entry, "command", out, "command");
  mcp_shape_copy_out (run, entry, "args", out, "args");
  mcp_shape_copy_out (run, entry, "env", out, "env");
  mcp_shape_copy_out (run, entry, "url", out, url_member ? "url" : "serverUrl");
  mcp_shape_copy_out (run, entry, "headers", out, "headers");
  if (!mcp_shape_entry_enabled (entry))
    json_object_set_boolean_member (out, "disabled", TRUE);
  else if (json_object_has_member (entry, "disabled"))
    json_object_set_boolean_member (out, "disabled", FALSE);
  drop_unsupported (run, entry, windsurf_unsupported);

  return g_steal_pointer (&out);
}

const McpShapeClass mcp_shape_windsurf = {
  MCP_SHAPE_VARS_EDITOR, windsurf_mapped, windsurf_known,
  windsurf_to_plugboard, windsurf_from_plugboard,
};

/* ------------------------------------------------------------------------ */
/* Gemini CLI                                                               */

/* https://github.com/google-gemini/gemini-cli docs/tools/mcp-server.md:
 * ~/.gemini/settings.json and .gemini/settings.json "mcpServers"; one of
 * "command" (stdio, with "args", "env", "cwd"), "url" (SSE) or "httpUrl"
 * (Streamable HTTP); "headers"; "timeout" (ms, for requests); "trust",
 * "includeTools", "excludeTools", "description"; "oauth" {"enabled",
 * "clientId", "clientSecret", "authorizationUrl", "tokenUrl", "scopes"…};
 * $VAR and ${VAR} in the values. */
static const char * const gemini_mapped[] = {
  "type", "command", "args", "env", "cwd", "url", "httpUrl", "headers", "timeout", "oauth", NULL
};
static const char * const gemini_known[] = {
  "trust", "includeTools", "excludeTools", "description", "authProviderType",
  "targetAudience", "targetServiceAccount", NULL
};
static const char * const gemini_unsupported[] = { "enabled", NULL };
/* the members of "oauth" both have */
static const char * const gemini_oauth_shared[] = { "clientId", "scopes", NULL };

static JsonObject *
gemini_to_plugboard (McpShapeRun  *run,
                     JsonObject   *native,
                     GError      **error)
{
  g_autoptr(JsonObject) entry = json_object_new ();
  const char *type = mcp_json_optional_string (native, "type", "server", run->name);
  JsonObject *oauth = mcp_json_optional_object (native, "oauth", "server", run->name);
  gint64 timeout = mcp_shape_get_count (native, "timeout");

  mcp_shape_copy_in (run, native, "command", entry, "command");
  mcp_shape_copy_in (run, native, "args", entry, "args");
  mcp_shape_copy_in (run, native, "env", entry, "env");
  mcp_shape_copy_in (run, native, "cwd", entry, "cwd");
  if (mcp_shape_copy_in (run, native, "httpUrl", entry, "url"))
    json_object_set_string_member (entry, "type", "http");
  else if (mcp_shape_copy_in (run, native, "url", entry, "url"))
    /* newer versions say "type"; without it "url" is SSE */
    json_object_set_string_member (entry, "type", type != NULL && g_str_equal (type, "http") ? "http" : "sse");
  mcp_shape_copy_in (run, native, "headers", entry, "headers");
  if (timeout >= 0)
    json_object_set_int_member (entry, "toolTimeout", timeout);

  if (oauth != NULL)
    {
      JsonObjectIter iter;
      const char *member;
      JsonNode *value;

      json_object_set_member (entry, "oauth", mcp_shape_vars_in_node (run, json_object_get_member (native, "oauth")));
      json_object_iter_init_ordered (&iter, oauth);
      while (json_object_iter_next_ordered (&iter, &member, &value))
        {
          if (!g_strv_contains (gemini_oauth_shared, member))
            {
              g_autofree char *what = g_strdup_printf ("oauth.%s", member);

              mcp_shape_note (run, _("%s: kept, not used by Plugboard"), what);
            }
        }
    }

  if (!check_is_server (run, entry, error))
    return NULL;
  return g_steal_pointer (&entry);
}

static JsonObject *
gemini_from_plugboard (McpShapeRun  *run,
                       JsonObject   *entry,
                       JsonObject   *base,
                       GError      **error)
{
  g_autoptr(JsonObject) out = json_object_new ();
  const char *transport = transport_out (run, entry, FALSE, error);
  JsonObject *oauth = mcp_json_optional_object (entry, "oauth", "server", run->name);
  gint64 tool_timeout = mcp_shape_get_count (entry, "toolTimeout");

  if (transport == NULL)
    return NULL;

  mcp_shape_copy_out (run, entry, "command", out, "command");
  mcp_shape_copy_out (run, entry, "args", out, "args");
  mcp_shape_copy_out (run, entry, "env", out, "env");
  mcp_shape_copy_out (run, entry, "cwd", out, "cwd");
  if (g_str_equal (transport, "http"))
    mcp_shape_copy_out (run, entry, "url", out, "httpUrl");
  else
    mcp_shape_copy_out (run, entry, "url", out, "url");
  mcp_shape_copy_out (run, entry, "headers", out, "headers");
  if (tool_timeout >= 0)
    json_object_set_int_member (out, "timeout", tool_timeout);
  mcp_shape_drop (run, entry, "timeout");

  if (oauth != NULL)
    {
      g_autoptr(JsonNode) copy = mcp_shape_vars_out_node (run, json_object_get_member (entry, "oauth"));
      JsonObject *object = json_node_get_object (copy);
      g_autoptr(GList) members = json_object_get_members (object);

      for (GList *l = members; l != NULL; l = l->next)
        {
          /* Plugboard's own members of "oauth"; others came from Gemini */
          if (g_strv_contains (gemini_oauth_shared, l->data) ||
              (!g_str_equal (l->data, "callbackPort") && !g_str_equal (l->data, "authServerMetadataUrl") &&
               !g_str_equal (l->data, "clientMetadataUrl")))
            continue;
          {
            g_autofree char *what = g_strdup_printf ("oauth.%s", (const char *) l->data);

            mcp_shape_note (run, _("%s: %s has no such setting; left out"), what,
                            mcp_client_kind_get_display_name (run->kind));
            json_object_remove_member (object, l->data);
          }
        }
      json_object_set_member (out, "oauth", g_steal_pointer (&copy));
    }
  drop_unsupported (run, entry, gemini_unsupported);

  return g_steal_pointer (&out);
}

const McpShapeClass mcp_shape_gemini = {
  MCP_SHAPE_VARS_SHELL, gemini_mapped, gemini_known,
  gemini_to_plugboard, gemini_from_plugboard,
};
