/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "echo-scan.h"

#include <string.h>

static const char *
skip_ws (const char *p,
         const char *end)
{
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
    p++;
  return p;
}

/* @p is at the opening quote; returns just past the closing one. */
static const char *
skip_string (const char *p,
             const char *end)
{
  for (p++; p < end; p++)
    {
      if (*p == '\\')
        p++;
      else if (*p == '"')
        return p + 1;
    }

  return NULL;
}

static const char *
skip_value (const char *p,
            const char *end)
{
  int depth = 0;

  if (p >= end)
    return NULL;

  if (*p == '"')
    return skip_string (p, end);

  if (*p != '{' && *p != '[')
    {
      while (p < end && *p != ',' && *p != '}' && *p != ']' &&
             *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n')
        p++;
      return p;
    }

  while (p < end)
    {
      if (*p == '"')
        {
          p = skip_string (p, end);
          if (p == NULL)
            return NULL;
          continue;
        }
      if (*p == '{' || *p == '[')
        depth++;
      else if (*p == '}' || *p == ']')
        {
          if (--depth == 0)
            return p + 1;
        }
      p++;
    }

  return NULL;
}


/* Scans the top-level keys of one JSON object; nested values are skipped,
 * so an "id" inside params is never taken for the request's. */
int
echo_scan_request (const char *line,
                   size_t      len,
                   EchoRequest *request)
{
  const char *end = line + len;
  const char *p = skip_ws (line, end);

  memset (request, 0, sizeof *request);

  if (p >= end || *p != '{')
    return -1;
  p++;

  for (;;)
    {
      const char *key;
      size_t key_len;
      const char *value;

      p = skip_ws (p, end);
      if (p < end && *p == '}')
        return 0;
      if (p >= end || *p != '"')
        return -1;

      key = p + 1;
      p = skip_string (p, end);
      if (p == NULL)
        return -1;
      key_len = (size_t) (p - key - 1);

      p = skip_ws (p, end);
      if (p >= end || *p != ':')
        return -1;
      p = skip_ws (p + 1, end);

      value = p;
      p = skip_value (p, end);
      if (p == NULL || p == value)
        return -1;

      if (key_len == 2 && memcmp (key, "id", 2) == 0)
        {
          request->id = value;
          request->id_len = (size_t) (p - value);
        }
      else if (key_len == 6 && memcmp (key, "method", 6) == 0 && *value == '"')
        {
          request->method = value + 1;
          request->method_len = (size_t) (p - value - 2);
        }

      p = skip_ws (p, end);
      if (p < end && *p == ',')
        {
          p++;
          continue;
        }
      if (p < end && *p == '}')
        return 0;
      return -1;
    }
}

int
echo_method_is (const EchoRequest *request,
                const char        *name)
{
  size_t len = strlen (name);

  return request->method_len == len && memcmp (request->method, name, len) == 0;
}
