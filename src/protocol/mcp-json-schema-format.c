/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-json-schema.h"
#include "mcp-json-schema-private.h"

#include <string.h>

/* The "format" keyword: date, date-time, time, email, uri, uuid, ipv4;
 * other formats are not checked. */

static gboolean
digits (const char *s,
        guint       n)
{
  for (guint i = 0; i < n; i++)
    if (!g_ascii_isdigit (s[i]))
      return FALSE;
  return TRUE;
}

static gboolean
valid_full_date (const char *s)
{
  guint year, month, day;

  if (strlen (s) < 10 || !digits (s, 4) || s[4] != '-' || !digits (s + 5, 2) || s[7] != '-' || !digits (s + 8, 2))
    return FALSE;
  year = g_ascii_strtoull (s, NULL, 10);
  month = (s[5] - '0') * 10 + (s[6] - '0');
  day = (s[8] - '0') * 10 + (s[9] - '0');
  if (year < 1 || month < 1 || month > 12 || day < 1)
    return FALSE;
  return day <= g_date_get_days_in_month (month, year);
}

/* "hh:mm:ss[.frac]" then, when @offset, a required "Z" or "±hh:mm". */
static gboolean
valid_time (const char *s,
            gboolean    need_offset)
{
  guint hour, minute, second;
  const char *p;

  if (strlen (s) < 8 || !digits (s, 2) || s[2] != ':' || !digits (s + 3, 2) || s[5] != ':' || !digits (s + 6, 2))
    return FALSE;
  hour = (s[0] - '0') * 10 + (s[1] - '0');
  minute = (s[3] - '0') * 10 + (s[4] - '0');
  second = (s[6] - '0') * 10 + (s[7] - '0');
  if (hour > 23 || minute > 59 || second > 60)
    return FALSE;
  p = s + 8;
  if (*p == '.')
    {
      p++;
      if (!g_ascii_isdigit (*p))
        return FALSE;
      while (g_ascii_isdigit (*p))
        p++;
    }
  if (*p == '\0')
    return !need_offset;
  if ((*p == 'Z' || *p == 'z') && p[1] == '\0')
    return TRUE;
  if ((*p == '+' || *p == '-') && strlen (p) == 6 && digits (p + 1, 2) && p[3] == ':' && digits (p + 4, 2))
    return (p[1] - '0') * 10 + (p[2] - '0') <= 23 && (p[4] - '0') * 10 + (p[5] - '0') <= 59;
  return FALSE;
}

gboolean
mcp_json_schema_valid_format (const char *format,
                              const char *s)
{
  if (g_str_equal (format, "date"))
    return strlen (s) == 10 && valid_full_date (s);
  if (g_str_equal (format, "date-time"))
    return strlen (s) > 11 && valid_full_date (s) && (s[10] == 'T' || s[10] == 't' || s[10] == ' ') &&
           valid_time (s + 11, TRUE);
  if (g_str_equal (format, "time"))
    return valid_time (s, TRUE);
  if (g_str_equal (format, "email"))
    return g_regex_match_simple ("^[^@\\s]+@[^@\\s.][^@\\s]*$", s, 0, 0);
  if (g_str_equal (format, "uri"))
    return g_uri_is_valid (s, G_URI_FLAGS_NONE, NULL) && strchr (s, ' ') == NULL;
  if (g_str_equal (format, "uuid"))
    return g_uuid_string_is_valid (s);
  if (g_str_equal (format, "ipv4"))
    return g_regex_match_simple ("^(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
                                 "(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}$", s, 0, 0);
  return TRUE;
}
