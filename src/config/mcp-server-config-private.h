/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-server-config.h"

G_BEGIN_DECLS

struct _McpServerConfig
{
  GObject           parent_instance;

  McpConfigScope    scope;
  McpTransportKind  transport;
  guint             enabled : 1;
  guint             enabled_overridden : 1;
  guint             unsaved : 1;        /* being tried, in no file */
  guint             connect_timeout;
  guint             tool_timeout;

  /* owned */
  char             *name;
  char             *file;
  char             *json_path;
  JsonObject       *object;
  char             *command;
  char            **args;
  char            **env;
  char             *cwd;
  char             *url;
  char            **headers;
  JsonObject       *oauth;
  char            **expanded_values;  /* what ${VAR}s gave; NULL: not expanded */
  char             *approved_digest;  /* a project server's bound approval, or NULL */
  char             *disabled_reason;  /* why the settings turned it off, or NULL */
};

/* mcp-server-config.c */
/* "stdio", "http", …, by McpTransportKind */
extern const char * const mcp_server_config_transport_names[MCP_TRANSPORT_KIND_WS_IDE + 1];


/* "$.a" + "b" → "$.a.b"; keys that are not identifiers are bracketed:
 * "$.a[\"my server\"]". */
char            *mcp_json_path_append_member     (const char      *path,
                                                  const char      *key);
/* The JSON path of the first @length of @names (all of them up to a
 * NULL when @length is G_MAXUINT): {"a", "my server"} → "$.a[\"my server\"]" */
char            *mcp_json_path_from_names        (const char * const *names,
                                                  guint               length);

/* A copy whose get_enabled() is FALSE whatever the JSON says (a project
 * server waiting for approval); its memo key says so too, so approving it
 * changes the key. The JSON is unchanged. */
McpServerConfig *mcp_server_config_copy_disabled (McpServerConfig *self,
                                                  const char      *reason);

/* A copy that carries @digest, the launch digest (mcp-launch.h) the person
 * approved, for the connection to check again as it starts the server.
 * The memo key is that of @self: binding an approval made by name does not
 * restart a server that runs. */
McpServerConfig *mcp_server_config_copy_approved (McpServerConfig *self,
                                                  const char      *digest);

/* mcp-server-config-parse.c */
gboolean         mcp_server_config_is_string     (JsonNode        *node);
/* A deep copy that keeps member order. */
JsonObject      *mcp_server_config_copy_object   (JsonObject      *object);

G_END_DECLS
