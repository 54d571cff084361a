/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "mcp-error.h"
#include "mcp-config-enums.h"

G_BEGIN_DECLS

typedef enum
{
  MCP_CONFIG_SCOPE_USER,      /* $XDG_CONFIG_HOME/plugboard/settings.json, "mcpServers" */
  MCP_CONFIG_SCOPE_PROJECT,   /* <project>/.mcp.json, "mcpServers" */
  MCP_CONFIG_SCOPE_LOCAL,     /* the user file's projects["<project>"].mcpServers */
} McpConfigScope;

typedef enum
{
  MCP_TRANSPORT_KIND_STDIO,
  MCP_TRANSPORT_KIND_HTTP,
  MCP_TRANSPORT_KIND_SSE,
  MCP_TRANSPORT_KIND_WS,
  MCP_TRANSPORT_KIND_SSE_IDE,
  MCP_TRANSPORT_KIND_WS_IDE,
} McpTransportKind;

#define MCP_TYPE_SERVER_CONFIG (mcp_server_config_get_type ())

G_DECLARE_FINAL_TYPE (McpServerConfig, mcp_server_config, MCP, SERVER_CONFIG, GObject)

/**
 * McpServerConfig:
 *
 * One server's settings as one scope's file has them: immutable. Variables
 * (${VAR}, ${VAR:-default}) are kept as written; mcp_server_config_expand()
 * makes the copy a connection uses.
 *
 * The JSON is the entry of "mcpServers" in the form other MCP clients use:
 *   stdio:  { "type": "stdio" (may be left out), "command": "npx",
 *             "args": [...], "env": { "K": "V" }, "cwd": "/dir" }
 *   remote: { "type": "http" | "sse" | "ws", "url": "...",
 *             "headers": { "Name": "value" },
 *             "oauth": { "clientId": "...", "callbackPort": 8976,
 *                        "scopes": ["..."], "authServerMetadataUrl": "...",
 *                        "clientMetadataUrl": "https://…/client.json",
 *                        … and for signing in without a browser
 *                        (mcp-oauth-grant.h, issue 27):
 *                        "grant": "authorization_code" (the default) |
 *                                 "client_credentials" | "jwt_bearer" | "enterprise",
 *                        "clientSecret": "${secret:ID}",
 *                        "tokenEndpointAuthMethod": "client_secret_basic" |
 *                          "client_secret_post" | "private_key_jwt" | "none",
 *                        "privateKey": "${secret:ID}" (PEM, private_key_jwt),
 *                        "signingAlgorithm": "ES256" | "RS256",
 *                        "assertion": { "file": PATH } | { "env": VAR } (jwt_bearer),
 *                        "idp": { "issuer": URL, "tokenEndpoint": URL,
 *                                 "clientId": "...", "clientSecret": "${secret:ID}",
 *                                 "idToken": { "command": [ARGV…] } | { "file": PATH } |
 *                                            { "env": VAR } | { "signIn": true } } (enterprise),
 *                        "dpop": true | false } }
 *           Every string of "oauth", nested ones too, is expanded; a
 *           secret written out rather than as ${secret:ID} is accepted
 *           and masked like the others (mcp_server_config_dup_secrets()),
 *           but belongs in the keyring. Enum values are checked here
 *           unless they are left to ${VAR}; what each grant needs is
 *           checked when the provider is made.
 *   IDE:    { "type": "sse-ide" | "ws-ide", "ideLockDir": "...", "ideName": "..." }
 *   any:    "enabled": false (or "disabled": true, as Claude Desktop has it),
 *           "timeout": ms (connect), "toolTimeout": ms
 * Unknown members are kept (mcp_server_config_get_json) and never dropped.
 */

/* Reads @object (the value of mcpServers[@name]). @file and @json_path
 * (e.g. "$.mcpServers.github") say where it came from, for messages.
 * Errors (MCP_ERROR_INVALID_CONFIG) name the file, the JSON path and what
 * was expected:
 * "~/.config/plugboard/settings.json: $.mcpServers.github.args[2]: expected a string". */
McpServerConfig  *mcp_server_config_new_from_json     (const char       *name,
                                                       McpConfigScope    scope,
                                                       JsonObject       *object,
                                                       const char       *file,
                                                       const char       *json_path,
                                                       GError          **error);

/* Brings the remote entry shapes other MCP clients write to ours, in
 * place: Windsurf's "serverUrl" becomes "url"; "type" "streamable-http"
 * (or "streamableHttp") becomes "http"; a "url" without "type" (Cursor,
 * Claude Desktop) is taken as "sse" when its path ends in /sse, else
 * "http". Returns what was changed, for the person, or NULL. */
char             *mcp_server_config_normalize_remote  (JsonObject       *object);

/* A server the person tries without saving it (an address or a command
 * typed in the app): in no file (get_file() is NULL, get_saved() FALSE),
 * user scope for roots and sign-in, and messages name it "the server being
 * tried" where they name a file. Copies (expand, approvals) stay unsaved.
 * Its memo key is that of the same entry saved, so saving it under the same
 * name keeps the connection. */
McpServerConfig  *mcp_server_config_new_unsaved       (const char       *name,
                                                       JsonObject       *object,
                                                       GError          **error);

const char       *mcp_server_config_get_name          (McpServerConfig  *self);
McpConfigScope    mcp_server_config_get_scope         (McpServerConfig  *self);
McpTransportKind  mcp_server_config_get_transport     (McpServerConfig  *self);
/* "stdio", "http", "sse", "ws", "sse-ide", "ws-ide" */
const char       *mcp_server_config_get_transport_name (McpServerConfig *self);
gboolean          mcp_server_config_is_remote         (McpServerConfig  *self);
const char       *mcp_server_config_get_command       (McpServerConfig  *self);
const char * const *mcp_server_config_get_args        (McpServerConfig  *self);
/* NAME=VALUE pairs */
const char * const *mcp_server_config_get_env         (McpServerConfig  *self);
const char       *mcp_server_config_get_cwd           (McpServerConfig  *self);
const char       *mcp_server_config_get_url           (McpServerConfig  *self);
/* "Name: value" strings */
const char * const *mcp_server_config_get_headers     (McpServerConfig  *self);
/* The "oauth" object, or NULL. */
JsonObject       *mcp_server_config_get_oauth         (McpServerConfig  *self);
gboolean          mcp_server_config_get_enabled       (McpServerConfig  *self);
/* 0 when not set (use MCP_TIMEOUT / MCP_TOOL_TIMEOUT) */
guint             mcp_server_config_get_connect_timeout (McpServerConfig *self);
guint             mcp_server_config_get_tool_timeout  (McpServerConfig  *self);
/* The settings file, or NULL for a server being tried (get_saved()). */
const char       *mcp_server_config_get_file          (McpServerConfig  *self);
gboolean          mcp_server_config_get_saved         (McpServerConfig  *self);
const char       *mcp_server_config_get_json_path     (McpServerConfig  *self);
JsonObject       *mcp_server_config_get_json          (McpServerConfig  *self);

/* A project server (.mcp.json) approved with a bound digest: the launch
 * digest approved ("sha256:…", mcp-launch.h), which the connection checks
 * against what it is about to start; NULL otherwise. */
const char       *mcp_server_config_get_approved_digest (McpServerConfig *self);

/* Why the settings turned a server off ("awaiting approval", "changed
 * since approval", "rejected", "switched off in this project"), or NULL:
 * its own "enabled": false, or not turned off. */
const char       *mcp_server_config_get_disabled_reason (McpServerConfig *self);

/* The identity of a connection: name plus the JSON with object members in
 * sorted order and no whitespace, so equal settings give equal keys. */
char             *mcp_server_config_dup_memo_key      (McpServerConfig  *self);

/* A copy with ${VAR} and ${VAR:-default} replaced in command, args, env
 * values, url and header values, from @environ (NULL: the process's
 * environment). An unset variable without a default fails with a message
 * naming the variable, the server and where it is used. */
McpServerConfig  *mcp_server_config_expand            (McpServerConfig  *self,
                                                       const char * const *environ,
                                                       GError          **error);

/* One "${NAME}" or "${NAME:-default}" in a settings string: @fallback is
 * what follows ":-" (NULL: none), @value the variable's value in the
 * environment the string was scanned with (NULL: not set). */
typedef struct
{
  char *name;
  char *fallback;
  char *value;
} McpVariableUse;

void              mcp_variable_use_free               (McpVariableUse   *use);

/* Every ${VAR} reference of @text, as mcp_server_config_expand() reads
 * them, looked up in @environ (NULL: the process's environment): a
 * GPtrArray of McpVariableUse (never NULL). A "${" without its "}" ends
 * the scan and "${}" is passed over (expansion refuses both). */
GPtrArray        *mcp_server_config_scan_variables    (const char       *text,
                                                       const char * const *environ);

/* What must never be shown of this server (NULL-terminated, never NULL):
 * every value a ${VAR} produced (on a config made by
 * mcp_server_config_expand()), every env value and header value, and the
 * user info and query values of its URL. For mcp_redact_text(). */
char            **mcp_server_config_dup_secrets       (McpServerConfig  *self);

G_END_DECLS
