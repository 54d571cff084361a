/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* MCP Apps (SEP-1865, extension io.modelcontextprotocol/ui, 2026-01-26). */
#define MCP_UI_EXTENSION        "io.modelcontextprotocol/ui"
#define MCP_UI_MIME_TYPE        "text/html;profile=mcp-app"
#define MCP_UI_PROTOCOL_VERSION "2026-01-26"
/* An interface bigger than this is refused (the npm examples are < 1 MiB). */
#define MCP_UI_MAX_HTML_BYTES   (8 * 1024 * 1024)
/* A ui:// URI longer than this is not one a tool may name. */
#define MCP_UI_MAX_URI_BYTES    2048

typedef enum
{
  MCP_UI_PERMISSION_NONE            = 0,
  MCP_UI_PERMISSION_CAMERA          = 1 << 0,
  MCP_UI_PERMISSION_MICROPHONE      = 1 << 1,
  MCP_UI_PERMISSION_GEOLOCATION     = 1 << 2,
  MCP_UI_PERMISSION_CLIPBOARD_WRITE = 1 << 3,
} McpUiPermissions;

typedef enum
{
  MCP_UI_BORDER_UNSET,   /* the host decides */
  MCP_UI_BORDER_NONE,
  MCP_UI_BORDER_VISIBLE,
} McpUiBorder;

#define MCP_TYPE_UI_RESOURCE (mcp_ui_resource_get_type ())

G_DECLARE_FINAL_TYPE (McpUiResource, mcp_ui_resource, MCP, UI_RESOURCE, GObject)

/* TRUE when @uri is one an interface may have: "ui://" (in any case) and
 * more, at most MCP_UI_MAX_URI_BYTES, without spaces or control
 * characters. */
gboolean            mcp_ui_uri_is_valid                  (const char  *uri);

/**
 * McpUiResource:
 *
 * A tool's interface as resources/read gave it: the HTML (from "text", or
 * "blob" decoded; valid UTF-8, at most MCP_UI_MAX_HTML_BYTES), its MIME
 * type (MCP_UI_MIME_TYPE), and what `_meta.ui` of the content (else of
 * @listed_meta, the resources/list entry's `_meta`) declares: the CSP
 * domains, permissions, domain and border. Immutable.
 *
 * A declared CSP source that is not a plain origin (scheme https/wss, or
 * http/ws to loopback; a host, "*." wildcard subdomains allowed; an
 * optional port; no path, quotes, semicolons, whitespace, keywords or a
 * bare "*") is left out, and said in get_rejected_sources() ("connectDomains:
 * 'unsafe-eval' — not an origin"): the CSP never grows beyond what was
 * declared and valid.
 */
McpUiResource      *mcp_ui_resource_new_from_read_result (const char  *uri,
                                                          JsonNode    *result,
                                                          JsonObject  *listed_meta,
                                                          GError     **error);

const char         *mcp_ui_resource_get_uri              (McpUiResource *self);
const char         *mcp_ui_resource_get_mime_type        (McpUiResource *self);
const char         *mcp_ui_resource_get_html             (McpUiResource *self);
gsize               mcp_ui_resource_get_html_length      (McpUiResource *self);
/* Lower-case hex SHA-256 of the HTML, for the details view. */
const char         *mcp_ui_resource_get_digest           (McpUiResource *self);
/* Validated sources, NULL-terminated, never NULL (empty when none). */
const char * const *mcp_ui_resource_get_connect_domains  (McpUiResource *self);
const char * const *mcp_ui_resource_get_resource_domains (McpUiResource *self);
const char * const *mcp_ui_resource_get_frame_domains    (McpUiResource *self);
const char * const *mcp_ui_resource_get_base_uri_domains (McpUiResource *self);
/* What was declared and left out, each "field: value — why". */
const char * const *mcp_ui_resource_get_rejected_sources (McpUiResource *self);
McpUiPermissions    mcp_ui_resource_get_permissions      (McpUiResource *self);
/* _meta.ui.domain as declared (nullable); Plugboard shows it, never uses it. */
const char         *mcp_ui_resource_get_domain           (McpUiResource *self);
McpUiBorder         mcp_ui_resource_get_border           (McpUiResource *self);
/* The result's ttlMs (2026-07-28 cache hint), or -1 when absent. */
gint64              mcp_ui_resource_get_ttl_ms           (McpUiResource *self);

/* The Content-Security-Policy the host enforces, per the specification:
 * default-src 'none'; script-src 'self' 'unsafe-inline' <resource>; …;
 * connect-src 'self' <connect> (or 'none' when none declared);
 * frame-src <frame> or 'none'; object-src 'none'; base-uri <base> or
 * 'self'; form-action 'none'. */
char               *mcp_ui_resource_build_csp            (McpUiResource *self);
/* {"connectDomains": […], …} of the validated sources (members only when
 * not empty), for hostCapabilities.sandbox.csp. */
JsonObject         *mcp_ui_resource_dup_csp_json         (McpUiResource *self);
/* Whether @uri (http or https) is of an origin the validated frame
 * domains allow, matched as CSP host-sources are (scheme, host or "*."
 * subdomain, port): a front end lets only such navigations through, so
 * that a page's top frame cannot reach anywhere else even for the moment
 * before it is stopped. */
gboolean            mcp_ui_resource_allows_frame         (McpUiResource *self,
                                                          const char    *uri);
/* {"camera": {}, …} of the declared permissions. */
JsonObject         *mcp_ui_resource_dup_permissions_json (McpUiResource *self);

G_END_DECLS
