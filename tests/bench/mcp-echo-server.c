/* SPDX-License-Identifier: GPL-3.0-or-later */

/* A minimal, fast MCP server over stdio for the benchmarks: plain C, no
 * GLib, blocking reads into one buffer, a hand-written scan of each line's
 * top-level "id" and "method", and every response written with one write().
 *
 *   mcp-echo-server          JSON mode: initialize, ping, tools/list (one
 *                            "echo" tool), tools/call (always "hello").
 *   mcp-echo-server --raw    for each line read, write back the fixed
 *                            tools/call response line for id 1, unparsed.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "echo-scan.h"

#define INITIAL_BUFFER_SIZE (64 * 1024)
#define MAX_LINE_SIZE       (4 * 1024 * 1024)
#define MAX_ID_SIZE         256

/* Must stay byte for byte what JSON mode answers to a tools/call with id 1;
 * bench-stdio.c writes the matching request line. */
#define CALL_RESULT "{\"content\":[{\"type\":\"text\",\"text\":\"hello\"}]}"
#define RAW_RESPONSE "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":" CALL_RESULT "}\n"

#define INITIALIZE_RESULT \
  "{\"protocolVersion\":\"2025-11-25\"," \
  "\"capabilities\":{\"tools\":{}}," \
  "\"serverInfo\":{\"name\":\"mcp-echo-server\",\"version\":\"1.0.0\"}}"

#define TOOLS_LIST_RESULT \
  "{\"tools\":[{\"name\":\"echo\"," \
  "\"description\":\"Answers every call with the text hello\"," \
  "\"inputSchema\":{\"type\":\"object\"," \
  "\"properties\":{\"message\":{\"type\":\"string\"}}," \
  "\"required\":[\"message\"]}}]}"

static int
write_all (const char *data,
           size_t      len)
{
  while (len > 0)
    {
      ssize_t n = write (STDOUT_FILENO, data, len);

      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          return -1;
        }
      data += n;
      len -= (size_t) n;
    }

  return 0;
}

static int
respond (const char *id,
         size_t      id_len,
         const char *body)
{
  char out[4096];
  int n;

  n = snprintf (out, sizeof out, "{\"jsonrpc\":\"2.0\",\"id\":%.*s,%s}\n",
                (int) id_len, id, body);
  if (n < 0 || (size_t) n >= sizeof out)
    return -1;

  return write_all (out, (size_t) n);
}

static int
handle_line (const char *line,
             size_t      len)
{
  EchoRequest request;

  if (echo_scan_request (line, len, &request) < 0)
    {
      fprintf (stderr, "mcp-echo-server: skipping a line that is not a JSON object (%zu bytes)\n", len);
      return respond ("null", 4,
                      "\"error\":{\"code\":-32700,\"message\":\"Parse error\"}");
    }

  /* A notification, or a response to a request we never send. */
  if (request.id == NULL || request.method == NULL)
    return 0;

  if (request.id_len > MAX_ID_SIZE)
    return respond ("null", 4,
                    "\"error\":{\"code\":-32600,\"message\":\"Request id too long\"}");

  if (echo_method_is (&request, "tools/call"))
    return respond (request.id, request.id_len, "\"result\":" CALL_RESULT);
  if (echo_method_is (&request, "initialize"))
    return respond (request.id, request.id_len, "\"result\":" INITIALIZE_RESULT);
  if (echo_method_is (&request, "tools/list"))
    return respond (request.id, request.id_len, "\"result\":" TOOLS_LIST_RESULT);
  if (echo_method_is (&request, "ping"))
    return respond (request.id, request.id_len, "\"result\":{}");

  return respond (request.id, request.id_len,
                  "\"error\":{\"code\":-32601,\"message\":\"Method not found\"}");
}

int
main (int   argc,
      char *argv[])
{
  size_t size = INITIAL_BUFFER_SIZE;
  size_t filled = 0;
  int raw = 0;
  int discarding = 0;
  char *buffer;

  if (argc == 2 && strcmp (argv[1], "--raw") == 0)
    raw = 1;
  else if (argc != 1)
    {
      fprintf (stderr, "usage: %s [--raw]\n", argv[0]);
      return 2;
    }

  buffer = malloc (size);
  if (buffer == NULL)
    return 1;

  for (;;)
    {
      ssize_t n;
      char *start;
      char *newline;

      if (filled == size)
        {
          if (size >= MAX_LINE_SIZE)
            {
              fprintf (stderr, "mcp-echo-server: skipping a line longer than %d bytes\n",
                       MAX_LINE_SIZE);
              discarding = 1;
              filled = 0;
            }
          else
            {
              char *bigger = realloc (buffer, size * 2);

              if (bigger == NULL)
                return 1;
              buffer = bigger;
              size *= 2;
            }
        }

      n = read (STDIN_FILENO, buffer + filled, size - filled);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      filled += (size_t) n;

      start = buffer;
      while ((newline = memchr (start, '\n', filled - (size_t) (start - buffer))) != NULL)
        {
          size_t len = (size_t) (newline - start);

          if (discarding)
            discarding = 0;
          else if (raw)
            {
              if (write_all (RAW_RESPONSE, sizeof RAW_RESPONSE - 1) < 0)
                return 1;
            }
          else if (len > 0 && handle_line (start, len) < 0)
            return 1;

          start = newline + 1;
        }

      filled -= (size_t) (start - buffer);
      if (filled > 0 && start != buffer)
        memmove (buffer, start, filled);
    }

  free (buffer);
  return 0;
}
