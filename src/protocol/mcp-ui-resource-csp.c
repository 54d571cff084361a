/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-ui-resource"

#include "config.h"

#include "mcp-ui-resource-private.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-url-policy.h"

/* The Content-Security-Policy of an interface: the sources `_meta.ui.csp`
 * declares, each checked to be a plain origin, and the policy built from
 * them. The policy is the one the HTML runs under, so whatever a server
 * wrote that is not simply "this origin" is left out: a keyword, a second
 * directive after a semicolon or a scheme source would widen it. Paths
 * are refused rather than cut off, since cutting "https://a.com/x" to
 * "https://a.com" would allow more than was declared. */

static const char * const list_members[MCP_UI_CSP_N_LISTS] = {
  [MCP_UI_CSP_CONNECT] = "connectDomains",
  [MCP_UI_CSP_RESOURCE] = "resourceDomains",
  [MCP_UI_CSP_FRAME] = "frameDomains",
  [MCP_UI_CSP_BASE_URI] = "baseUriDomains",
};

/* A host as a CSP host-source writes it: "*." then labels of letters,
 * digits and "-" (not at either end), each at most 63 long. */
static gboolean
is_host_name (const char *host,
              guint      *n_labels)
{
  g_auto(GStrv) labels = NULL;

  if (host[0] == '\0' || strlen (host) > 253)
    return FALSE;

  labels = g_strsplit (host, ".", -1);
  *n_labels = g_strv_length (labels);
  for (guint i = 0; labels[i] != NULL; i++)
    {
      gsize length = strlen (labels[i]);

      if (length == 0 || length > 63 || labels[i][0] == '-' || labels[i][length - 1] == '-')
        return FALSE;
      for (const char *p = labels[i]; *p != '\0'; p++)
        if (!g_ascii_isalnum (*p) && *p != '-')
          return FALSE;
    }

  return TRUE;
}

char *
mcp_ui_csp_source_check (const char  *source,
                         char       **reason)
{
  g_autofree char *scheme = NULL;
  g_autofree char *authority = NULL;
  g_autofree char *ascii = NULL;
  g_autofree char *host = NULL;
  const char *separator;
  const char *rest;
  const char *colon;
  const char *bare;
  guint64 port = 0;
  gboolean wildcard;
  gboolean secure;
  guint n_labels = 0;
  gsize length;

  g_return_val_if_fail (source != NULL, NULL);
  g_return_val_if_fail (reason != NULL && *reason == NULL, NULL);

  if (strlen (source) > MCP_UI_MAX_SOURCE_CHARS)
    {
      *reason = g_strdup_printf (_("longer than %u characters"), MCP_UI_MAX_SOURCE_CHARS);
      return NULL;
    }
  for (const guchar *p = (const guchar *) source; *p != '\0'; p++)
    if (g_ascii_isspace (*p) || *p < 0x20 || *p == 0x7f)
      {
        *reason = g_strdup (_("has a space or a control character"));
        return NULL;
      }

  separator = strstr (source, "://");
  if (separator == NULL || separator == source)
    {
      *reason = g_strdup (_("not an origin (scheme://host[:port])"));
      return NULL;
    }

  scheme = g_ascii_strdown (source, separator - source);
  if (g_str_equal (scheme, "https") || g_str_equal (scheme, "wss"))
    secure = TRUE;
  else if (g_str_equal (scheme, "http") || g_str_equal (scheme, "ws"))
    secure = FALSE;
  else
    {
      *reason = g_strdup (_("not an origin: only https and wss (http and ws to this computer)"));
      return NULL;
    }

  rest = separator + 3;
  length = strcspn (rest, "/?#");
  if (rest[length] != '\0' && !(rest[length] == '/' && rest[length + 1] == '\0'))
    {
      *reason = g_strdup (_("has a path: only origins are allowed"));
      return NULL;
    }
  authority = g_strndup (rest, length);

  if (strchr (authority, '@') != NULL)
    {
      *reason = g_strdup (_("has user information: only origins are allowed"));
      return NULL;
    }
  /* A CSP host-source has no way to write an IPv6 address. */
  if (authority[0] == '[')
    {
      *reason = g_strdup (_("an IPv6 address cannot be named in a Content-Security-Policy"));
      return NULL;
    }

  colon = strrchr (authority, ':');
  if (colon != NULL)
    {
      if (colon[1] == '\0' || strlen (colon + 1) > 5 ||
          !g_ascii_string_to_unsigned (colon + 1, 10, 1, 65535, &port, NULL))
        {
          *reason = g_strdup (_("the port is not a number from 1 to 65535"));
          return NULL;
        }
      authority[colon - authority] = '\0';
    }

  wildcard = g_str_has_prefix (authority, "*.");
  bare = wildcard ? authority + 2 : authority;
  if (!g_str_is_ascii (bare))
    {
      /* An international name in the punycode the policy needs. */
      ascii = g_hostname_to_ascii (bare);
      bare = ascii;
    }
  host = bare != NULL ? g_ascii_strdown (bare, -1) : NULL;
  if (host == NULL || !is_host_name (host, &n_labels))
    {
      *reason = g_strdup (_("not an origin: the host is not a valid name"));
      return NULL;
    }
  if (wildcard && n_labels < 2)
    {
      *reason = g_strdup (_("a wildcard over a whole top-level domain"));
      return NULL;
    }
  if (!secure && (wildcard || !mcp_url_policy_is_loopback_host (host)))
    {
      *reason = g_strdup (_("unencrypted (http, ws) only to this computer: use https or wss"));
      return NULL;
    }

  if (port != 0)
    return g_strdup_printf ("%s://%s%s:%u", scheme, wildcard ? "*." : "", host, (guint) port);
  return g_strdup_printf ("%s://%s%s", scheme, wildcard ? "*." : "", host);
}

static void
reject (McpUiResource *self,
        char          *what)
{
  g_ptr_array_insert (self->rejected, self->rejected->len - 1, what);
}

static void
read_list (McpUiResource *self,
           JsonObject    *csp,
           McpUiCspList   list)
{
  const char *member = list_members[list];
  GPtrArray *sources = self->sources[list];
  JsonNode *node = json_object_get_member (csp, member);
  JsonArray *array;
  guint length;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      /* Translators: %s is a member of _meta.ui.csp, such as connectDomains */
      reject (self, g_strdup_printf (_("%s — not a list of origins"), member));
      return;
    }

  array = json_node_get_array (node);
  length = json_array_get_length (array);
  for (guint i = 0; i < length && i < MCP_UI_MAX_SOURCES; i++)
    {
      JsonNode *item = json_array_get_element (array, i);
      g_autofree char *reason = NULL;
      g_autofree char *quoted = NULL;
      char *origin;
      gboolean seen = FALSE;

      if (!JSON_NODE_HOLDS_VALUE (item) || json_node_get_value_type (item) != G_TYPE_STRING)
        {
          /* Translators: %s is a member of _meta.ui.csp, %u an index in it */
          reject (self, g_strdup_printf (_("%s[%u] — not a string"), member, i));
          continue;
        }

      origin = mcp_ui_csp_source_check (json_node_get_string (item), &reason);
      if (origin == NULL)
        {
          quoted = mcp_url_policy_quote (json_node_get_string (item));
          reject (self, g_strdup_printf ("%s: %s — %s", member, quoted, reason));
          continue;
        }

      for (guint j = 0; j + 1 < sources->len && !seen; j++)
        seen = g_str_equal (g_ptr_array_index (sources, j), origin);
      if (seen)
        g_free (origin);
      else
        g_ptr_array_insert (sources, sources->len - 1, origin);
    }

  if (length > MCP_UI_MAX_SOURCES)
    /* Translators: %s is a member of _meta.ui.csp; the numbers count origins */
    reject (self, g_strdup_printf (_("%s: %u more left out — at most %u origins a list"),
                                   member, length - MCP_UI_MAX_SOURCES, MCP_UI_MAX_SOURCES));
}

void
mcp_ui_resource_read_csp (McpUiResource *self,
                          JsonObject    *csp)
{
  g_assert (MCP_IS_UI_RESOURCE (self));

  if (csp == NULL)
    return;

  for (guint i = 0; i < MCP_UI_CSP_N_LISTS; i++)
    read_list (self, csp, i);
}

static void
append_directive (GString    *csp,
                  const char *name,
                  const char *fixed,
                  GPtrArray  *sources,
                  const char *when_none)
{
  if (csp->len > 0)
    g_string_append (csp, "; ");
  g_string_append (csp, name);
  if (fixed != NULL && (when_none == NULL || sources == NULL || sources->len > 1))
    {
      g_string_append_c (csp, ' ');
      g_string_append (csp, fixed);
    }
  if (sources != NULL)
    for (guint i = 0; i + 1 < sources->len; i++)
      {
        g_string_append_c (csp, ' ');
        g_string_append (csp, g_ptr_array_index (sources, i));
      }
  if (when_none != NULL && sources != NULL && sources->len == 1)
    {
      g_string_append_c (csp, ' ');
      g_string_append (csp, when_none);
    }
}

/* The directives always in the same order, the sources in the order they
 * were declared (duplicates once): the same declaration gives the same
 * text, and an empty one the specification's restrictive default plus
 * what only tightens it (frame-src, object-src, base-uri, form-action). */
char *
mcp_ui_resource_build_csp (McpUiResource *self)
{
  GString *csp;
  GPtrArray *resource;

  g_return_val_if_fail (MCP_IS_UI_RESOURCE (self), NULL);

  resource = self->sources[MCP_UI_CSP_RESOURCE];
  csp = g_string_new (NULL);
  append_directive (csp, "default-src", "'none'", NULL, NULL);
  append_directive (csp, "script-src", "'self' 'unsafe-inline'", resource, NULL);
  append_directive (csp, "style-src", "'self' 'unsafe-inline'", resource, NULL);
  append_directive (csp, "img-src", "'self' data:", resource, NULL);
  append_directive (csp, "font-src", "'self'", resource, NULL);
  append_directive (csp, "media-src", "'self' data:", resource, NULL);
  append_directive (csp, "connect-src", "'self'", self->sources[MCP_UI_CSP_CONNECT], "'none'");
  append_directive (csp, "frame-src", NULL, self->sources[MCP_UI_CSP_FRAME], "'none'");
  append_directive (csp, "object-src", "'none'", NULL, NULL);
  append_directive (csp, "base-uri", NULL, self->sources[MCP_UI_CSP_BASE_URI], "'self'");
  append_directive (csp, "form-action", "'none'", NULL, NULL);

  return g_string_free (csp, FALSE);
}

JsonObject *
mcp_ui_resource_dup_csp_json (McpUiResource *self)
{
  JsonObject *object;

  g_return_val_if_fail (MCP_IS_UI_RESOURCE (self), NULL);

  object = json_object_new ();
  for (guint i = 0; i < MCP_UI_CSP_N_LISTS; i++)
    {
      GPtrArray *sources = self->sources[i];
      JsonArray *array;

      if (sources->len <= 1)
        continue;
      array = json_array_sized_new (sources->len - 1);
      for (guint j = 0; j + 1 < sources->len; j++)
        json_array_add_string_element (array, g_ptr_array_index (sources, j));
      json_object_set_array_member (object, list_members[i], array);
    }

  return object;
}

/* Whether @source ("https://host[:port]", or "https://" "*." "suffix") covers
 * @uri's origin as CSP host-source matching does: the same scheme, the
 * host itself or one under the wildcard's suffix, the same port (the
 * scheme's default when none is written). */
static gboolean
source_matches (const char *source,
                GUri       *uri)
{
  g_autoptr(GUri) parsed = NULL;
  const char *host;
  const char *pattern;
  int port;
  int source_port;

  /* "*." is not a valid URI host: parse the source without it. */
  if (strstr (source, "://*.") != NULL)
    {
      g_autofree char *plain = NULL;
      const char *after = strstr (source, "://*.") + 5;

      plain = g_strdup_printf ("%.*s://%s", (int) (strstr (source, "://") - source), source, after);
      parsed = g_uri_parse (plain, G_URI_FLAGS_NONE, NULL);
      if (parsed == NULL)
        return FALSE;
      pattern = g_uri_get_host (parsed);
      host = g_uri_get_host (uri);
      if (host == NULL || !g_str_has_suffix (host, pattern) ||
          strlen (host) <= strlen (pattern) + 1 ||
          host[strlen (host) - strlen (pattern) - 1] != '.')
        return FALSE;
    }
  else
    {
      parsed = g_uri_parse (source, G_URI_FLAGS_NONE, NULL);
      if (parsed == NULL || g_ascii_strcasecmp (g_uri_get_host (parsed), g_uri_get_host (uri) ?: "") != 0)
        return FALSE;
    }

  if (g_ascii_strcasecmp (g_uri_get_scheme (parsed), g_uri_get_scheme (uri)) != 0)
    return FALSE;
  port = g_uri_get_port (uri);
  source_port = g_uri_get_port (parsed);
  if (port == -1)
    port = g_str_equal (g_uri_get_scheme (uri), "https") ? 443 : 80;
  if (source_port == -1)
    source_port = g_str_equal (g_uri_get_scheme (parsed), "https") ? 443 : 80;
  return port == source_port;
}

gboolean
mcp_ui_resource_allows_frame (McpUiResource *self,
                              const char    *uri)
{
  const char * const *frames;
  g_autoptr(GUri) parsed = NULL;

  g_return_val_if_fail (MCP_IS_UI_RESOURCE (self), FALSE);

  if (uri == NULL)
    return FALSE;
  parsed = g_uri_parse (uri, G_URI_FLAGS_NONE, NULL);
  if (parsed == NULL || g_uri_get_host (parsed) == NULL ||
      (g_strcmp0 (g_uri_get_scheme (parsed), "https") != 0 &&
       g_strcmp0 (g_uri_get_scheme (parsed), "http") != 0))
    return FALSE;

  frames = mcp_ui_resource_get_frame_domains (self);
  for (gsize i = 0; frames[i] != NULL; i++)
    if (source_matches (frames[i], parsed))
      return TRUE;
  return FALSE;
}
