/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "mcp-trace.h"

G_BEGIN_DECLS

/**
 * SECTION:mcp-sign-in-steps
 *
 * The steps of OAuth sign-ins, refreshes and step-ups, top to bottom: a
 * GListModel of the MCP_TRACE_KIND_AUTH entries of a trace, each with
 * the HTTP exchange that made it (mcp_sign_in_steps_get_exchange()).
 * Made from a live McpTrace, the model follows it as steps are recorded
 * (and keeps them when the ring drops them, up to a bound); made from
 * entries read back from a JSON Lines file (mcp_trace_read_jsonl()), it
 * replays them. Everything in it was masked when recorded.
 */

#define MCP_TYPE_SIGN_IN_STEPS (mcp_sign_in_steps_get_type ())
G_DECLARE_FINAL_TYPE (McpSignInSteps, mcp_sign_in_steps, MCP, SIGN_IN_STEPS, GObject)

/* At most this many steps are kept; the oldest go first. */
#define MCP_SIGN_IN_STEPS_MAX 1000

/* The steps of @trace recorded after @after_seq (0: all), and those to come. */
McpSignInSteps *mcp_sign_in_steps_new            (McpTrace           *trace,
                                                  guint64             after_seq);
/* The steps among @entries (McpTraceEntry, as mcp_trace_read_jsonl() gives). */
McpSignInSteps *mcp_sign_in_steps_new_replay     (GPtrArray          *entries);
/* The live trace, NULL for a replay. */
McpTrace       *mcp_sign_in_steps_get_trace      (McpSignInSteps     *self);
/* The HTTP exchange of @step, NULL when it has none or it is gone. */
McpTraceEntry  *mcp_sign_in_steps_get_exchange   (McpSignInSteps     *self,
                                                  McpTraceEntry      *step);

/* The title of a step name ("protected-resource-metadata" → "Protected
 * resource metadata"), translated; an unknown name is returned as it is. */
const char     *mcp_sign_in_step_get_title       (const char         *step);
/* A one-character marker of @status for text: ✓ ✗ – · */
const char     *mcp_sign_in_step_get_marker      (McpTraceStepStatus  status);
/* @step as text for people: "✓ Title: text", then its URL (the
 * authorization URL) when it has one, then when it has one the
 * exchange's summary ("    GET url → 404 …"), and with @details its
 * request and response (mcp_sign_in_exchange_format(), "    > …",
 * "    < …"). Lines
 * end with "\n". Control characters are not escaped: a terminal caller
 * does that. */
char           *mcp_sign_in_step_format          (McpTraceEntry      *step,
                                                  McpTraceEntry      *exchange,
                                                  gboolean            details);

/* The request (@response FALSE: "GET url", its headers, a blank line, its
 * body laid out when JSON) or the response ("HTTP 200", headers, body) of
 * an HTTP exchange, as text for people. Not escaped. */
char           *mcp_sign_in_exchange_format      (McpTraceEntry      *exchange,
                                                  gboolean            response);

G_END_DECLS
