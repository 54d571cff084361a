/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include "mcp-protocol-enums.h"

G_BEGIN_DECLS

/**
 * MCP_URL_POLICY_ERROR:
 *
 * Why a URL a server named was refused. The message says why in words a
 * person can act on, and quotes the URL with its control characters
 * replaced; the caller adds which server named it.
 */
#define MCP_URL_POLICY_ERROR (mcp_url_policy_error_quark ())

typedef enum
{
  MCP_URL_POLICY_ERROR_INVALID,            /* empty, not UTF-8, or does not parse */
  MCP_URL_POLICY_ERROR_NOT_ABSOLUTE,       /* relative, or no host */
  MCP_URL_POLICY_ERROR_SCHEME,             /* neither https nor http */
  MCP_URL_POLICY_ERROR_INSECURE,           /* http to a host that is not loopback */
  MCP_URL_POLICY_ERROR_USER_INFO,          /* user:password@ in the authority */
  MCP_URL_POLICY_ERROR_CONTROL_CHARACTER,  /* C0, DEL or C1 anywhere */
  MCP_URL_POLICY_ERROR_SPACE,              /* a space anywhere */
  MCP_URL_POLICY_ERROR_OPTION,             /* begins with "-": could be read as an option */
} McpUrlPolicyError;

/**
 * McpUrlUse:
 * @MCP_URL_USE_BROWSER: opened for a person: an authorization URL, a
 *   URL-mode elicitation, a link in a result or a resource
 * @MCP_URL_USE_FETCH: fetched by Plugboard itself: metadata, client
 *   registration, token endpoints
 *
 * Both uses follow the same rules today; the use names the URL in messages.
 */
typedef enum
{
  MCP_URL_USE_BROWSER,
  MCP_URL_USE_FETCH,
} McpUrlUse;

GQuark    mcp_url_policy_error_quark (void);

/**
 * mcp_url_policy_check:
 * @url: a URL a server named
 * @use: what it is for
 * @host_out: (out) (optional) (transfer full): the host, lower-case, for
 *   showing the person before a browser opens ("[::1]" for IPv6)
 * @error: MCP_URL_POLICY_ERROR naming the reason
 *
 * The one URL policy of Plugboard, for everything it opens or fetches on a
 * server's say-so: an absolute URL whose scheme is "https", or "http" only
 * to a loopback host (127.0.0.0/8, ::1, "localhost"); without user info;
 * without control characters (C0, DEL, C1) or spaces anywhere; not
 * beginning with "-". Hand an accepted URL to a command only after "--" or
 * in an argument vector, never through a shell.
 */
gboolean  mcp_url_policy_check       (const char  *url,
                                      McpUrlUse    use,
                                      char       **host_out,
                                      GError     **error);

/* TRUE when @host (as in a URL: "[::1]" or "::1" alike) is a loopback
 * host: 127.0.0.0/8 written as four decimal numbers, ::1, or "localhost". */
gboolean  mcp_url_policy_is_loopback_host (const char *host);

/* @url made fit to quote in a message or on a terminal: valid UTF-8,
 * control characters shown as \u001b, at most 200 characters. */
char     *mcp_url_policy_quote       (const char  *url);

G_END_DECLS
