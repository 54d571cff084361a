/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <stddef.h>

/* The benchmarks' echo servers' hand-written scan of a JSON-RPC request:
 * plain C, no GLib (the servers must cost next to nothing). */

/* Where a request's top-level "id" (its JSON text, as sent) and "method"
 * (the string's contents) stand in the text scanned. */
typedef struct
{
  const char *id;
  size_t      id_len;
  const char *method;
  size_t      method_len;
} EchoRequest;

/* Scans the top-level keys of the JSON object in @line (@len bytes);
 * nested values are skipped, so an "id" inside params is never taken for
 * the request's. 0 when it is one object, -1 when not. */
int echo_scan_request (const char  *line,
                       size_t       len,
                       EchoRequest *request);

/* Whether @request's method is @name. */
int echo_method_is    (const EchoRequest *request,
                       const char        *name);
