/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "mcp-client-shape.h"

G_BEGIN_DECLS

/* The official MCP Registry */
#define MCP_REGISTRY_DEFAULT_URL "https://registry.modelcontextprotocol.io"

/**
 * McpRegistryInput:
 *
 * One value a person gives when installing: an environment variable, a
 * header, a named or positional argument, or a variable of a remote's URL
 * (server.json "environmentVariables", "headers", "packageArguments",
 * "runtimeArguments", "variables").
 */
typedef enum
{
  MCP_REGISTRY_INPUT_ENV,
  MCP_REGISTRY_INPUT_HEADER,
  MCP_REGISTRY_INPUT_ARGUMENT,       /* packageArguments */
  MCP_REGISTRY_INPUT_RUNTIME_ARGUMENT,
  MCP_REGISTRY_INPUT_URL_VARIABLE,
} McpRegistryInputKind;

typedef struct
{
  McpRegistryInputKind  kind;
  char                 *name;         /* env/header name, "--flag" of a named
                                       * argument, valueHint of a positional */
  char                 *description;
  char                 *default_value;
  char                 *format;       /* "string", "number", "boolean", "filepath" */
  char                **choices;      /* NULL: free */
  gboolean              is_required;
  gboolean              is_secret;
  gboolean              fixed;        /* has a "value" the person does not give */
} McpRegistryInput;

/**
 * McpRegistryRunner:
 *
 * How an installed server runs.
 */
typedef enum
{
  MCP_REGISTRY_RUNNER_NPX,        /* npm: "npx -y ID@VERSION" */
  MCP_REGISTRY_RUNNER_UVX,        /* pypi: "uvx ID==VERSION" */
  MCP_REGISTRY_RUNNER_DOCKER,     /* oci: "docker run -i --rm [-e NAME]… IMAGE" */
  MCP_REGISTRY_RUNNER_DNX,        /* nuget: "dnx ID@VERSION --yes" */
  MCP_REGISTRY_RUNNER_MCPB,       /* an MCP bundle: not installable here (an
                                   * error says so, naming its URL) */
  MCP_REGISTRY_RUNNER_REMOTE,     /* a "remotes" entry: its URL */
} McpRegistryRunner;

/* One way to install a server: a package or a remote. */
typedef struct
{
  McpRegistryRunner  runner;
  guint              index;        /* in "packages" or "remotes" */
  char              *identifier;   /* package name/image, or the URL */
  char              *version;
  char              *transport;    /* "stdio", "streamable-http", "sse" */
  char              *label;        /* "npm: @scope/pkg 1.2.0 (npx)",
                                    * "Remote: https://… (Streamable HTTP)" */
  GPtrArray         *inputs;       /* McpRegistryInput, every one, in
                                    * server.json order */
} McpRegistryChoice;

void mcp_registry_input_free  (McpRegistryInput  *self);
void mcp_registry_choice_free (McpRegistryChoice *self);

#define MCP_TYPE_REGISTRY_SERVER (mcp_registry_server_get_type ())
G_DECLARE_FINAL_TYPE (McpRegistryServer, mcp_registry_server, MCP, REGISTRY_SERVER, GObject)

/* Reads one server.json (the registry's "server" member, with its
 * "_meta" from the response); errors (MCP_ERROR_INVALID_MESSAGE) name the
 * JSON path ("servers[3].server.packages[0].registryType: expected a
 * string"). Bounded: 1 MiB a document, 64 packages and remotes, 256
 * inputs. */
McpRegistryServer *mcp_registry_server_new_from_json (JsonObject         *object,
                                                      GError            **error);
const char        *mcp_registry_server_get_name        (McpRegistryServer *self);  /* "io.github.owner/name" */
const char        *mcp_registry_server_get_title       (McpRegistryServer *self);  /* or NULL */
const char        *mcp_registry_server_get_description (McpRegistryServer *self);
const char        *mcp_registry_server_get_version     (McpRegistryServer *self);
const char        *mcp_registry_server_get_website_url (McpRegistryServer *self);  /* or NULL */
const char        *mcp_registry_server_get_repository_url (McpRegistryServer *self); /* or NULL */
/* "active", "deprecated", "deleted" (from _meta), or NULL */
const char        *mcp_registry_server_get_status      (McpRegistryServer *self);
/* the server.json as read */
JsonObject        *mcp_registry_server_get_json        (McpRegistryServer *self);
/* McpRegistryChoice, packages first then remotes (owned by the server) */
GPtrArray         *mcp_registry_server_get_choices     (McpRegistryServer *self);
/* The short name a settings entry gets: the part after the last '/' of
 * the name, lower case, with what a server name cannot hold replaced by
 * '-' ("io.github.acme/Weather MCP" → "weather-mcp"). */
char              *mcp_registry_server_dup_entry_name  (McpRegistryServer *self);

/* The settings entry (Plugboard's shape, mcp-server-config.h) that runs
 * @choice with @values (input name → value; a required input without a
 * value and without a default is an error naming it; a value not among
 * its choices too). A secret's value is not written: its entry value is
 * @secret_refs[name] when given (Plugboard's own settings:
 * "${secret:ID}", see mcp-secret-store.h), else the value itself (a
 * client that keeps secrets in its file; the installer says so).
 * Positional and named arguments in server.json order; "{var}" in a URL
 * filled in. */
JsonObject        *mcp_registry_server_build_entry     (McpRegistryServer       *self,
                                                        const McpRegistryChoice *choice,
                                                        GHashTable              *values,
                                                        GHashTable              *secret_refs,
                                                        GError                 **error);

/**
 * McpRegistryPage:
 *
 * One page of a search.
 */
typedef struct
{
  GPtrArray *servers;        /* McpRegistryServer */
  char      *next_cursor;    /* NULL: the last page */
  gboolean   from_cache;     /* the network failed: this is the cached copy */
  gint64     fetched;        /* when it was fetched (unix seconds) */
} McpRegistryPage;

void mcp_registry_page_free (McpRegistryPage *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (McpRegistryPage, mcp_registry_page_free)

#define MCP_TYPE_REGISTRY (mcp_registry_get_type ())
G_DECLARE_FINAL_TYPE (McpRegistry, mcp_registry, MCP, REGISTRY, GObject)

/**
 * McpRegistry:
 *
 * A client of an MCP Registry's API v0.1 (the official one, or a private
 * one at another URL): GET {base}/v0.1/servers?search=TERM&cursor=C&limit=N
 * ({"servers": [{"server": {…server.json…}, "_meta": {…}}],
 * "metadata": {"nextCursor": "…", "count": N}}) and GET
 * {base}/v0.1/servers/{url-encoded name}/versions/latest. Only https, or
 * http to loopback (mcp-url-policy.h). Responses are bounded (8 MiB) and
 * each page and server is cached under @cache_dir (one file per request,
 * written atomically); when the network fails, the cache answers
 * (from_cache TRUE), and with nothing cached the error says the registry
 * cannot be reached, naming its URL and the reason. 30 s timeout.
 */
McpRegistry       *mcp_registry_new          (const char           *base_url,
                                              const char           *cache_dir);
const char        *mcp_registry_get_base_url (McpRegistry          *self);
void               mcp_registry_search_async (McpRegistry          *self,
                                              const char           *term,
                                              const char           *cursor,
                                              guint                 limit,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
McpRegistryPage   *mcp_registry_search_finish (McpRegistry         *self,
                                               GAsyncResult        *result,
                                               GError             **error);
/* the latest version of @name */
void               mcp_registry_get_async    (McpRegistry          *self,
                                              const char           *name,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
McpRegistryServer *mcp_registry_get_finish   (McpRegistry          *self,
                                              GAsyncResult         *result,
                                              GError              **error);

G_END_DECLS
