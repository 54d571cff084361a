/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-server-config.h"

#include "mcp-json-private.h"
#include "mcp-server-config-private.h"

/* McpServerConfig: the object, its getters, its memo key and the copies
 * the settings make of it; JSON paths. Reading the JSON is in
 * mcp-server-config-parse.c, ${VAR} expansion and the secrets in
 * mcp-server-config-expand.c. */

G_DEFINE_FINAL_TYPE (McpServerConfig, mcp_server_config, G_TYPE_OBJECT)

const char * const mcp_server_config_transport_names[] = {
  [MCP_TRANSPORT_KIND_STDIO] = "stdio",
  [MCP_TRANSPORT_KIND_HTTP] = "http",
  [MCP_TRANSPORT_KIND_SSE] = "sse",
  [MCP_TRANSPORT_KIND_WS] = "ws",
  [MCP_TRANSPORT_KIND_SSE_IDE] = "sse-ide",
  [MCP_TRANSPORT_KIND_WS_IDE] = "ws-ide",
};

static void
mcp_server_config_finalize (GObject *object)
{
  McpServerConfig *self = (McpServerConfig *)object;

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->file, g_free);
  g_clear_pointer (&self->json_path, g_free);
  g_clear_pointer (&self->object, json_object_unref);
  g_clear_pointer (&self->command, g_free);
  g_clear_pointer (&self->args, g_strfreev);
  g_clear_pointer (&self->env, g_strfreev);
  g_clear_pointer (&self->cwd, g_free);
  g_clear_pointer (&self->url, g_free);
  g_clear_pointer (&self->headers, g_strfreev);
  g_clear_pointer (&self->oauth, json_object_unref);
  g_clear_pointer (&self->expanded_values, g_strfreev);
  g_clear_pointer (&self->approved_digest, g_free);
  g_clear_pointer (&self->disabled_reason, g_free);

  G_OBJECT_CLASS (mcp_server_config_parent_class)->finalize (object);
}

static void
mcp_server_config_class_init (McpServerConfigClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mcp_server_config_finalize;
}

static void
mcp_server_config_init (McpServerConfig *self)
{
  self->enabled = TRUE;
}

/* JSON paths */

static gboolean
is_identifier (const char *key)
{
  if (key[0] == '\0' || g_ascii_isdigit (key[0]))
    return FALSE;

  for (const char *p = key; *p != '\0'; p++)
    {
      if (!g_ascii_isalnum (*p) && *p != '_' && *p != '$')
        return FALSE;
    }

  return TRUE;
}

char *
mcp_json_path_append_member (const char *path,
                             const char *key)
{
  GString *out;

  if (is_identifier (key))
    return g_strconcat (path, ".", key, NULL);

  out = g_string_new (path);
  g_string_append_c (out, '[');
  mcp_json_append_string (out, key);
  g_string_append_c (out, ']');

  return g_string_free (out, FALSE);
}

char *
mcp_json_path_from_names (const char * const *names,
                          guint               length)
{
  g_autofree char *path = g_strdup ("$");

  for (guint i = 0; i < length && names[i] != NULL; i++)
    {
      char *next = mcp_json_path_append_member (path, names[i]);

      g_free (path);
      path = next;
    }

  return g_steal_pointer (&path);
}
const char *
mcp_server_config_get_name (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);
  return self->name;
}

McpConfigScope
mcp_server_config_get_scope (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), MCP_CONFIG_SCOPE_USER);
  return self->scope;
}

McpTransportKind
mcp_server_config_get_transport (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), MCP_TRANSPORT_KIND_STDIO);
  return self->transport;
}

const char *
mcp_server_config_get_transport_name (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);
  return mcp_server_config_transport_names[self->transport];
}

gboolean
mcp_server_config_is_remote (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), FALSE);
  return self->transport != MCP_TRANSPORT_KIND_STDIO;
}

const char *
mcp_server_config_get_command (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);
  return self->command;
}

const char * const *
mcp_server_config_get_args (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);
  return (const char * const *)self->args;
}

const char * const *
mcp_server_config_get_env (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);
  return (const char * const *)self->env;
}

const char *
mcp_server_config_get_cwd (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);
  return self->cwd;
}

const char *
mcp_server_config_get_url (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);
  return self->url;
}

const char * const *
mcp_server_config_get_headers (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);
  return (const char * const *)self->headers;
}

JsonObject *
mcp_server_config_get_oauth (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);
  return self->oauth;
}

gboolean
mcp_server_config_get_enabled (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), FALSE);
  return self->enabled;
}

guint
mcp_server_config_get_connect_timeout (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), 0);
  return self->connect_timeout;
}

guint
mcp_server_config_get_tool_timeout (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), 0);
  return self->tool_timeout;
}

const char *
mcp_server_config_get_file (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);
  return self->unsaved ? NULL : self->file;
}

gboolean
mcp_server_config_get_saved (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), FALSE);
  return !self->unsaved;
}

const char *
mcp_server_config_get_json_path (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);
  return self->json_path;
}

JsonObject *
mcp_server_config_get_json (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);
  return self->object;
}

char *
mcp_server_config_dup_memo_key (McpServerConfig *self)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonObject) object = NULL;
  GString *out;

  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);

  object = mcp_server_config_copy_object (self->object);
  if (self->enabled_overridden)
    json_object_set_boolean_member (object, "enabled", self->enabled);

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, object);

  out = g_string_new (NULL);
  mcp_json_append_string (out, self->name);
  g_string_append_c (out, ':');
  mcp_json_append_canonical (out, node);

  return g_string_free (out, FALSE);
}


McpServerConfig *
mcp_server_config_copy_disabled (McpServerConfig *self,
                                 const char      *reason)
{
  McpServerConfig *copy;

  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);

  copy = mcp_server_config_new_from_json (self->name, self->scope, self->object,
                                          self->file, self->json_path, NULL);
  g_assert (copy != NULL);
  copy->enabled = FALSE;
  copy->enabled_overridden = TRUE;
  copy->unsaved = self->unsaved;
  copy->disabled_reason = g_strdup (reason);

  return copy;
}

McpServerConfig *
mcp_server_config_copy_approved (McpServerConfig *self,
                                 const char      *digest)
{
  McpServerConfig *copy;

  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);
  g_return_val_if_fail (digest != NULL, NULL);

  copy = mcp_server_config_new_from_json (self->name, self->scope, self->object,
                                          self->file, self->json_path, NULL);
  g_assert (copy != NULL);
  copy->enabled = self->enabled;
  copy->enabled_overridden = self->enabled_overridden;
  copy->unsaved = self->unsaved;
  copy->approved_digest = g_strdup (digest);

  return copy;
}

const char *
mcp_server_config_get_disabled_reason (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);

  return self->disabled_reason;
}

const char *
mcp_server_config_get_approved_digest (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);
  return self->approved_digest;
}
