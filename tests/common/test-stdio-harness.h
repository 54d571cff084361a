/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-message.h"
#include "mcp-transport.h"

G_BEGIN_DECLS

/* An McpStdioTransport under test with what it emitted: its messages
 * (McpMessage), invalid lines and stderr lines (char *), whether it closed
 * (and why) and whether its process exited (and how). */
typedef struct
{
  McpTransport *transport;
  GPtrArray    *messages;
  GPtrArray    *invalid_lines;
  GPtrArray    *stderr_lines;
  gboolean      closed;
  GError       *reason;
  gboolean      exited;
  int           wait_status;
} TestStdioHarness;

TestStdioHarness *test_stdio_harness_new     (const char * const *argv,
                                              const char * const *env,
                                              const char         *cwd);
void              test_stdio_harness_free    (TestStdioHarness   *h);

/* Connects and waits; what mcp_transport_connect_finish() returned. */
gboolean          test_stdio_harness_connect (TestStdioHarness   *h,
                                              GError            **error);
/* Closes and waits; it must succeed, and the transport be closed. */
void              test_stdio_harness_close   (TestStdioHarness   *h);

/* Sends the request @method with the id @id and the params @params_json
 * (the text of a JSON object, or NULL); sending must succeed. */
void              test_stdio_harness_send_request (TestStdioHarness *h,
                                                   gint64            id,
                                                   const char       *method,
                                                   const char       *params_json);

/* The text of the first content block of a tools/call result. */
const char       *test_message_result_text   (McpMessage         *message);

/* Whether the process @pid is gone (a zombie counts as gone). */
gboolean          test_pid_is_gone           (GPid                pid);

/* Whether one of @lines (char *) contains @needle. */
gboolean          test_lines_contain         (GPtrArray          *lines,
                                              const char         *needle);

G_END_DECLS
