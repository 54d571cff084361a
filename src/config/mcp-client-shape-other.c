/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client-shape"

#include "config.h"

#include "mcp-client-shape-private.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-server-config-private.h"

/* The clients whose shape is furthest from Plugboard's: Codex (TOML), Zed
 * (its "context_servers") and Goose (YAML "extensions"). None of them
 * expands variables in its values; each has its own way of taking a value
 * from the environment, which is what ${NAME} becomes. */

/* "${NAME}" (the whole of @text): NAME, else NULL */
static char *
whole_variable (const char *text)
{
  gsize length = text != NULL ? strlen (text) : 0;

  if (length < 4 || !g_str_has_prefix (text, "${") || text[length - 1] != '}')
    return NULL;
  for (gsize i = 2; i < length - 1; i++)
    {
      if (!(g_ascii_isalnum (text[i]) || text[i] == '_') || (i == 2 && g_ascii_isdigit (text[i])))
        return NULL;
    }
  return g_strndup (text + 2, length - 3);
}

/* A number of seconds (integer or not) as milliseconds, or -1 */
static gint64
get_seconds_as_ms (JsonObject *object,
                   const char *member)
{
  JsonNode *node = json_object_get_member (object, member);
  double seconds;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return -1;
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    seconds = json_node_get_int (node);
  else if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
    seconds = json_node_get_double (node);
  else
    return -1;
  if (!(seconds >= 0 && seconds < 1e12))
    return -1;
  return (gint64) (seconds * 1000 + 0.5);
}

/* @ms as seconds: an integer when it is whole */
static void
set_ms_as_seconds (JsonObject *object,
                   const char *member,
                   gint64      ms)
{
  if (ms % 1000 == 0)
    json_object_set_int_member (object, member, ms / 1000);
  else
    json_object_set_double_member (object, member, ms / 1000.0);
}

static JsonArray *
ensure_array (JsonObject *object,
              const char *member)
{
  if (!json_object_has_member (object, member))
    json_object_set_array_member (object, member, json_array_new ());
  return json_object_get_array_member (object, member);
}

static JsonObject *
ensure_object (JsonObject *object,
               const char *member)
{
  if (!json_object_has_member (object, member))
    json_object_set_object_member (object, member, json_object_new ());
  return json_object_get_object_member (object, member);
}

/* An array of names ("env_vars", "env_keys") into "env": NAME → ${NAME} */
static void
names_to_env (McpShapeRun *run,
              JsonObject  *native,
              const char  *member,
              JsonObject  *entry)
{
  JsonArray *names = mcp_json_optional_array (native, member, "server", run->name);

  for (guint i = 0; names != NULL && i < json_array_get_length (names); i++)
    {
      JsonNode *node = json_array_get_element (names, i);
      JsonObject *env;
      g_autofree char *value = NULL;

      if (!mcp_server_config_is_string (node))
        continue;
      env = ensure_object (entry, "env");
      if (json_object_has_member (env, json_node_get_string (node)))
        continue;
      value = g_strdup_printf ("${%s}", json_node_get_string (node));
      json_object_set_string_member (env, json_node_get_string (node), value);
    }
}

/* "env" back: NAME: "${NAME}" into @names_member (an array of names), the
 * rest into @env_member */
static void
env_to_names (McpShapeRun *run,
              JsonObject  *entry,
              JsonObject  *out,
              const char  *env_member,
              const char  *names_member)
{
  JsonObject *env = mcp_json_optional_object (entry, "env", "server", run->name);
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;

  if (env == NULL)
    return;

  json_object_iter_init_ordered (&iter, env);
  while (json_object_iter_next_ordered (&iter, &name, &value))
    {
      g_autofree char *variable = mcp_server_config_is_string (value)
                                  ? whole_variable (json_node_get_string (value)) : NULL;

      if (variable != NULL && g_str_equal (variable, name))
        json_array_add_string_element (ensure_array (out, names_member), name);
      else
        json_object_set_member (ensure_object (out, env_member), name, mcp_shape_vars_out_node (run, value));
    }
}

static void
drop_disabled (McpShapeRun *run,
               JsonObject  *entry)
{
  if (!mcp_shape_entry_enabled (entry))
    mcp_shape_drop (run, entry, json_object_has_member (entry, "enabled") ? "enabled" : "disabled");
}

static gboolean
check_runnable (McpShapeRun  *run,
                const char   *transport,
                gboolean      sse,
                GError      **error)
{
  if (transport == NULL)
    return FALSE;
  if (g_str_equal (transport, "ws"))
    {
      mcp_shape_set_cannot_run (run, error, _("it does not connect to servers by WebSocket"));
      return FALSE;
    }
  if (g_str_has_suffix (transport, "-ide"))
    {
      mcp_shape_set_cannot_run (run, error, _("it is a connection to an IDE, which only Claude Code makes"));
      return FALSE;
    }
  if (g_str_equal (transport, "sse") && !sse)
    {
      mcp_shape_set_cannot_run (run, error, _("it connects to remote servers by Streamable HTTP only, not SSE"));
      return FALSE;
    }
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Codex                                                                    */

/* https://github.com/openai/codex docs/config.md (and
 * developers.openai.com/codex/mcp): ~/.codex/config.toml
 * [mcp_servers.NAME]; stdio "command", "args", "env" (a table), "env_vars"
 * (names passed on from the environment), "cwd"; Streamable HTTP "url",
 * "bearer_token_env_var", "http_headers", "env_http_headers" (header →
 * variable); "startup_timeout_sec" (or "startup_timeout_ms"),
 * "tool_timeout_sec", "enabled", "enabled_tools", "disabled_tools". No SSE,
 * no variables in values. */
static const char * const codex_mapped[] = {
  "command", "args", "env", "env_vars", "cwd", "url", "bearer_token_env_var", "http_headers",
  "env_http_headers", "startup_timeout_sec", "startup_timeout_ms", "tool_timeout_sec", "enabled",
  NULL
};
static const char * const codex_known[] = { "enabled_tools", "disabled_tools", "required", NULL };

static JsonObject *
codex_to_plugboard (McpShapeRun  *run,
                    JsonObject   *native,
                    GError      **error)
{
  g_autoptr(JsonObject) entry = json_object_new ();
  const char *token = mcp_json_optional_string (native, "bearer_token_env_var", "server", run->name);
  JsonObject *env_headers = mcp_json_optional_object (native, "env_http_headers", "server", run->name);
  JsonNode *enabled = json_object_get_member (native, "enabled");
  gint64 ms;

  mcp_shape_copy_in (run, native, "command", entry, "command");
  mcp_shape_copy_in (run, native, "args", entry, "args");
  mcp_shape_copy_in (run, native, "env", entry, "env");
  names_to_env (run, native, "env_vars", entry);
  mcp_shape_copy_in (run, native, "cwd", entry, "cwd");
  if (mcp_shape_copy_in (run, native, "url", entry, "url"))
    json_object_set_string_member (entry, "type", "http");
  mcp_shape_copy_in (run, native, "http_headers", entry, "headers");
  if (env_headers != NULL)
    {
      JsonObjectIter iter;
      const char *header;
      JsonNode *value;

      json_object_iter_init_ordered (&iter, env_headers);
      while (json_object_iter_next_ordered (&iter, &header, &value))
        {
          g_autofree char *text = NULL;

          if (!mcp_server_config_is_string (value))
            continue;
          text = g_strdup_printf ("${%s}", json_node_get_string (value));
          json_object_set_string_member (ensure_object (entry, "headers"), header, text);
        }
    }
  if (token != NULL)
    {
      g_autofree char *text = g_strdup_printf ("Bearer ${%s}", token);

      json_object_set_string_member (ensure_object (entry, "headers"), "Authorization", text);
    }

  ms = get_seconds_as_ms (native, "startup_timeout_sec");
  if (ms < 0)
    ms = mcp_shape_get_count (native, "startup_timeout_ms");
  if (ms >= 0)
    json_object_set_int_member (entry, "timeout", ms);
  ms = get_seconds_as_ms (native, "tool_timeout_sec");
  if (ms >= 0)
    json_object_set_int_member (entry, "toolTimeout", ms);
  if (enabled != NULL && JSON_NODE_HOLDS_VALUE (enabled) && json_node_get_value_type (enabled) == G_TYPE_BOOLEAN)
    json_object_set_boolean_member (entry, "enabled", json_node_get_boolean (enabled));

  if (mcp_shape_entry_transport (run, entry, error) == NULL)
    return NULL;
  return g_steal_pointer (&entry);
}

static JsonObject *
codex_from_plugboard (McpShapeRun  *run,
                      JsonObject   *entry,
                      JsonObject   *base,
                      GError      **error)
{
  g_autoptr(JsonObject) out = json_object_new ();
  JsonObject *headers = mcp_json_optional_object (entry, "headers", "server", run->name);
  gint64 timeout = mcp_shape_get_count (entry, "timeout");
  gint64 tool_timeout = mcp_shape_get_count (entry, "toolTimeout");

  if (!check_runnable (run, mcp_shape_entry_transport (run, entry, error), FALSE, error))
    return NULL;

  mcp_shape_copy_out (run, entry, "command", out, "command");
  mcp_shape_copy_out (run, entry, "args", out, "args");
  env_to_names (run, entry, out, "env", "env_vars");
  mcp_shape_copy_out (run, entry, "cwd", out, "cwd");
  mcp_shape_copy_out (run, entry, "url", out, "url");
  if (headers != NULL)
    {
      JsonObjectIter iter;
      const char *header;
      JsonNode *value;

      json_object_iter_init_ordered (&iter, headers);
      while (json_object_iter_next_ordered (&iter, &header, &value))
        {
          const char *text = mcp_server_config_is_string (value) ? json_node_get_string (value) : NULL;
          g_autofree char *variable = whole_variable (text);
          g_autofree char *token = NULL;

          if (text != NULL && g_ascii_strcasecmp (header, "Authorization") == 0 &&
              g_str_has_prefix (text, "Bearer ") && (token = whole_variable (text + 7)) != NULL)
            json_object_set_string_member (out, "bearer_token_env_var", token);
          else if (variable != NULL)
            json_object_set_string_member (ensure_object (out, "env_http_headers"), header, variable);
          else
            json_object_set_member (ensure_object (out, "http_headers"), header,
                                    mcp_shape_vars_out_node (run, value));
        }
    }

  if (timeout >= 0 && base != NULL && json_object_has_member (base, "startup_timeout_ms"))
    json_object_set_int_member (out, "startup_timeout_ms", timeout);
  else if (timeout >= 0)
    set_ms_as_seconds (out, "startup_timeout_sec", timeout);
  if (tool_timeout >= 0)
    set_ms_as_seconds (out, "tool_timeout_sec", tool_timeout);
  if (!mcp_shape_entry_enabled (entry))
    json_object_set_boolean_member (out, "enabled", FALSE);
  else if (json_object_has_member (entry, "enabled"))
    json_object_set_boolean_member (out, "enabled", TRUE);
  mcp_shape_drop (run, entry, "oauth");

  return g_steal_pointer (&out);
}

const McpShapeClass mcp_shape_codex = {
  MCP_SHAPE_VARS_NONE, codex_mapped, codex_known,
  codex_to_plugboard, codex_from_plugboard,
};

/* ------------------------------------------------------------------------ */
/* Zed                                                                      */

/* https://zed.dev/docs/ai/mcp: settings.json (~/.config/zed, the
 * project's .zed) "context_servers" NAME → {"source": "custom", "command",
 * "args", "env"}, before {"command": {"path", "args", "env"}, "settings":
 * {}}; a remote one {"url", "headers"}; {"source": "extension"} is started
 * by a Zed extension. JSON with comments; no variables. */
static const char * const zed_mapped[] = {
  "source", "command", "args", "env", "url", "headers", NULL
};
static const char * const zed_known[] = { "settings", NULL };

static JsonObject *
zed_to_plugboard (McpShapeRun  *run,
                  JsonObject   *native,
                  GError      **error)
{
  g_autoptr(JsonObject) entry = json_object_new ();
  JsonObject *command = mcp_json_optional_object (native, "command", "server", run->name);
  const char *source = mcp_json_optional_string (native, "source", "server", run->name);
  const char *url;

  if (g_strcmp0 (source, "extension") == 0 ||
      (!json_object_has_member (native, "command") && !json_object_has_member (native, "url")))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   /* Translators: %s is a server's name */
                   _("The server “%s” comes from a Zed extension, which starts it: Plugboard cannot run it"),
                   run->name);
      return NULL;
    }

  if (command != NULL)
    {
      mcp_shape_copy_in (run, command, "path", entry, "command");
      mcp_shape_copy_in (run, command, "args", entry, "args");
      mcp_shape_copy_in (run, command, "env", entry, "env");
    }
  else
    {
      mcp_shape_copy_in (run, native, "command", entry, "command");
      mcp_shape_copy_in (run, native, "args", entry, "args");
      mcp_shape_copy_in (run, native, "env", entry, "env");
    }
  if (mcp_shape_copy_in (run, native, "url", entry, "url"))
    {
      url = json_object_get_string_member (entry, "url");
      json_object_set_string_member (entry, "type", url != NULL && g_str_has_suffix (url, "/sse") ? "sse" : "http");
    }
  mcp_shape_copy_in (run, native, "headers", entry, "headers");

  if (mcp_shape_entry_transport (run, entry, error) == NULL)
    return NULL;
  return g_steal_pointer (&entry);
}

static JsonObject *
zed_from_plugboard (McpShapeRun  *run,
                    JsonObject   *entry,
                    JsonObject   *base,
                    GError      **error)
{
  g_autoptr(JsonObject) out = json_object_new ();
  const char *transport = mcp_shape_entry_transport (run, entry, error);
  gboolean nested = base != NULL && mcp_json_optional_object (base, "command", "server", run->name) != NULL;

  if (!check_runnable (run, transport, TRUE, error))
    return NULL;

  if (base == NULL || json_object_has_member (base, "source"))
    json_object_set_string_member (out, "source", "custom");
  if (g_str_equal (transport, "stdio") && nested)
    {
      JsonObject *command = json_object_new ();

      mcp_shape_copy_out (run, entry, "command", command, "path");
      mcp_shape_copy_out (run, entry, "args", command, "args");
      mcp_shape_copy_out (run, entry, "env", command, "env");
      json_object_set_object_member (out, "command", command);
    }
  else
    {
      mcp_shape_copy_out (run, entry, "command", out, "command");
      mcp_shape_copy_out (run, entry, "args", out, "args");
      mcp_shape_copy_out (run, entry, "env", out, "env");
    }
  mcp_shape_copy_out (run, entry, "url", out, "url");
  mcp_shape_copy_out (run, entry, "headers", out, "headers");

  mcp_shape_drop (run, entry, "cwd");
  mcp_shape_drop (run, entry, "oauth");
  mcp_shape_drop (run, entry, "timeout");
  mcp_shape_drop (run, entry, "toolTimeout");
  drop_disabled (run, entry);

  return g_steal_pointer (&out);
}

const McpShapeClass mcp_shape_zed = {
  MCP_SHAPE_VARS_NONE, zed_mapped, zed_known,
  zed_to_plugboard, zed_from_plugboard,
};

/* ------------------------------------------------------------------------ */
/* Goose                                                                    */

/* https://block.github.io/goose/docs/guides/config-file: ~/.config/goose/
 * config.yaml "extensions" NAME → {"name", "type": "stdio" | "sse" |
 * "streamable_http" | "builtin" | …, "cmd", "args", "envs", "env_keys"
 * (taken from Goose's secret store or the environment), "uri", "headers",
 * "enabled", "timeout" (seconds), "description", "bundled",
 * "available_tools"}. */
static const char * const goose_mapped[] = {
  "name", "type", "cmd", "args", "envs", "env_keys", "uri", "headers", "enabled", "timeout", NULL
};
static const char * const goose_known[] = {
  "description", "bundled", "available_tools", "display_name", NULL
};

static JsonObject *
goose_to_plugboard (McpShapeRun  *run,
                    JsonObject   *native,
                    GError      **error)
{
  g_autoptr(JsonObject) entry = json_object_new ();
  const char *type = mcp_json_optional_string (native, "type", "server", run->name);
  JsonNode *enabled = json_object_get_member (native, "enabled");
  gint64 ms = get_seconds_as_ms (native, "timeout");

  if (type == NULL && json_object_has_member (native, "cmd"))
    type = "stdio";
  if (type == NULL || (!g_str_equal (type, "stdio") && !g_str_equal (type, "sse") &&
                       !g_str_equal (type, "streamable_http")))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   /* Translators: the first %s is an extension's name, the second its type ("builtin") */
                   _("The Goose extension “%s” (of the type “%s”) is not a server Plugboard can run"),
                   run->name, type != NULL ? type : "");
      return NULL;
    }

  if (g_str_equal (type, "stdio"))
    {
      mcp_shape_copy_in (run, native, "cmd", entry, "command");
      mcp_shape_copy_in (run, native, "args", entry, "args");
      mcp_shape_copy_in (run, native, "envs", entry, "env");
      names_to_env (run, native, "env_keys", entry);
    }
  else
    {
      json_object_set_string_member (entry, "type", g_str_equal (type, "sse") ? "sse" : "http");
      mcp_shape_copy_in (run, native, "uri", entry, "url");
      mcp_shape_copy_in (run, native, "headers", entry, "headers");
    }
  if (enabled != NULL && JSON_NODE_HOLDS_VALUE (enabled) && json_node_get_value_type (enabled) == G_TYPE_BOOLEAN)
    json_object_set_boolean_member (entry, "enabled", json_node_get_boolean (enabled));
  if (ms >= 0)
    json_object_set_int_member (entry, "toolTimeout", ms);

  if (mcp_shape_entry_transport (run, entry, error) == NULL)
    return NULL;
  return g_steal_pointer (&entry);
}

static JsonObject *
goose_from_plugboard (McpShapeRun  *run,
                      JsonObject   *entry,
                      JsonObject   *base,
                      GError      **error)
{
  g_autoptr(JsonObject) out = json_object_new ();
  const char *transport = mcp_shape_entry_transport (run, entry, error);
  gint64 tool_timeout = mcp_shape_get_count (entry, "toolTimeout");

  if (!check_runnable (run, transport, TRUE, error))
    return NULL;

  json_object_set_string_member (out, "name", run->name);
  if (g_str_equal (transport, "stdio"))
    {
      json_object_set_string_member (out, "type", "stdio");
      mcp_shape_copy_out (run, entry, "command", out, "cmd");
      if (!mcp_shape_copy_out (run, entry, "args", out, "args"))
        json_object_set_array_member (out, "args", json_array_new ());
      /* Goose writes "envs" even when it is empty */
      ensure_object (out, "envs");
      env_to_names (run, entry, out, "envs", "env_keys");
    }
  else
    {
      json_object_set_string_member (out, "type", g_str_equal (transport, "sse") ? "sse" : "streamable_http");
      mcp_shape_copy_out (run, entry, "url", out, "uri");
      mcp_shape_copy_out (run, entry, "headers", out, "headers");
    }
  /* Goose wants "enabled" in every extension */
  json_object_set_boolean_member (out, "enabled", mcp_shape_entry_enabled (entry));
  if (tool_timeout >= 0)
    json_object_set_int_member (out, "timeout", (tool_timeout + 999) / 1000);

  mcp_shape_drop (run, entry, "cwd");
  mcp_shape_drop (run, entry, "oauth");
  mcp_shape_drop (run, entry, "timeout");

  return g_steal_pointer (&out);
}

const McpShapeClass mcp_shape_goose = {
  MCP_SHAPE_VARS_NONE, goose_mapped, goose_known,
  goose_to_plugboard, goose_from_plugboard,
};
