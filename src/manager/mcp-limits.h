/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include "mcp-manager-enums.h"

G_BEGIN_DECLS

/* The limits, each with the environment variable MCP users know. */
typedef enum
{
  MCP_LIMIT_CONNECT_TIMEOUT,     /* MCP_TIMEOUT, ms (0: none) */
  MCP_LIMIT_TOOL_TIMEOUT,        /* MCP_TOOL_TIMEOUT, ms (0: none) */
  MCP_LIMIT_REQUEST_TIMEOUT,     /* MCP_REQUEST_TIMEOUT_MS, ms (0: none) */
  MCP_LIMIT_LOCAL_BATCH_SIZE,    /* MCP_SERVER_CONNECTION_BATCH_SIZE */
  MCP_LIMIT_REMOTE_BATCH_SIZE,   /* MCP_REMOTE_SERVER_CONNECTION_BATCH_SIZE */
  MCP_LIMIT_MAX_OUTPUT_TOKENS,   /* MAX_MCP_OUTPUT_TOKENS */
  MCP_LIMIT_TRACE_KIB,           /* PLUGBOARD_TRACE_KIB: each server's trace, KiB */
  MCP_N_LIMITS /*< skip >*/
} McpLimit;

#define MCP_TYPE_LIMITS (mcp_limits_get_type ())

G_DECLARE_FINAL_TYPE (McpLimits, mcp_limits, MCP, LIMITS, GObject)

/**
 * McpLimits:
 *
 * The one reader of the limits. The environment variables are read once,
 * when the object is made: a variable set to a whole number (0 to
 * G_MAXUINT) sets its limit; one set to anything else is ignored, and the
 * limit keeps its default (as the engine always did). The limits no
 * variable sets follow @settings (the preferences: GSettings keys named as
 * the properties), when given.
 *
 * Properties (guint): connect-timeout, tool-timeout, request-timeout,
 * local-batch-size (at least 1), remote-batch-size (at least 1),
 * max-output-tokens (1 to G_MAXUINT / MCP_CHARACTERS_PER_TOKEN),
 * trace-kib (64 to 1 GiB; what each server's trace keeps), and the
 * read-only oauth-request-timeout: MCP_REQUEST_TIMEOUT_MS when it sets a
 * positive value, else 30 s (the preference does not apply to OAuth).
 * settings (GSettings, construct-only, nullable).
 */
McpLimits  *mcp_limits_new                        (GSettings  *settings);

guint       mcp_limits_get                        (McpLimits  *self,
                                                   McpLimit    limit);
/* The variable that sets @limit, or NULL when none does (unset, empty or
 * ignored). */
const char *mcp_limits_get_override               (McpLimits  *self,
                                                   McpLimit    limit);
/* What @limit's variable held when @self was made (NULL: unset or empty),
 * whether it was used or ignored. */
const char *mcp_limits_get_environment_value      (McpLimits  *self,
                                                   McpLimit    limit);
guint       mcp_limits_get_oauth_request_timeout  (McpLimits  *self);
/* max-output-tokens times MCP_CHARACTERS_PER_TOKEN. */
gsize       mcp_limits_get_max_output_characters  (McpLimits  *self);

/* @limit's environment variable, e.g. "MCP_TIMEOUT". */
const char *mcp_limit_get_variable                (McpLimit    limit);
/* @limit's property (and GSettings key), e.g. "connect-timeout". */
const char *mcp_limit_get_property_name           (McpLimit    limit);

G_END_DECLS
