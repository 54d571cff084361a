/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "fuzz-ui-resource"

#include "config.h"

#include "fuzz.h"

#include <string.h>

#include "mcp-json-private.h"
#include "mcp-ui-resource.h"
#include "mcp-ui-resource-private.h"

/* An MCP Apps interface as a server's resources/read result gives it
 * (mcp_ui_resource_new_from_read_result), the input read as JSON; its
 * member "listed", when an object, stands for the resources/list _meta.
 * Checks what the type promises: the HTML is non-empty UTF-8 without a
 * nul, within the limit, with a 64-digit hex digest; each list holds at
 * most MCP_UI_MAX_SOURCES plain origins; the policy is the eleven
 * directives and no source in it has a space, quote, semicolon or comma.
 * The input is also checked as one CSP source: an accepted one is checked
 * again to itself. Warnings and criticals are fatal. */

static void
fail (const char *what,
      const char *detail)
{
  g_autofree char *escaped = g_strescape (detail != NULL ? detail : "", NULL);

  g_printerr ("fuzz-ui-resource: %s: “%s”\n", what, escaped);
  abort ();
}

static void
check_origin (const char *origin)
{
  g_autofree char *again = NULL;
  g_autofree char *reason = NULL;

  if (!g_str_has_prefix (origin, "https://") && !g_str_has_prefix (origin, "wss://") &&
      !g_str_has_prefix (origin, "http://") && !g_str_has_prefix (origin, "ws://"))
    fail ("an origin of another scheme", origin);
  if (strlen (origin) > MCP_UI_MAX_SOURCE_CHARS * 2)
    fail ("an origin too long", origin);
  for (const guchar *p = (const guchar *) origin; *p != '\0'; p++)
    if (*p <= 0x20 || *p >= 0x7f || strchr ("'\";,@\\?#", *p) != NULL)
      fail ("an origin with a character a policy must not have", origin);

  again = mcp_ui_csp_source_check (origin, &reason);
  if (g_strcmp0 (again, origin) != 0)
    fail ("an origin not accepted as itself", origin);
}

static void
check_list (const char * const *list)
{
  guint n = 0;

  if (list == NULL)
    fail ("a list that is NULL", NULL);
  for (; list[n] != NULL; n++)
    check_origin (list[n]);
  if (n > MCP_UI_MAX_SOURCES)
    fail ("a list past the bound", list[0]);
}

static void
check_resource (McpUiResource *resource)
{
  g_autofree char *csp = NULL;
  g_autoptr(JsonObject) csp_json = NULL;
  g_autoptr(JsonObject) permissions = NULL;
  const char *html = mcp_ui_resource_get_html (resource);
  gsize length = mcp_ui_resource_get_html_length (resource);
  const char *digest = mcp_ui_resource_get_digest (resource);
  guint directives = 1;

  if (html == NULL || length == 0 || length > MCP_UI_MAX_HTML_BYTES || strlen (html) != length ||
      !g_utf8_validate_len (html, length, NULL))
    fail ("HTML that breaks the rules", html);
  if (digest == NULL || strlen (digest) != 64 || strspn (digest, "0123456789abcdef") != 64)
    fail ("a digest that is not SHA-256 hex", digest);

  check_list (mcp_ui_resource_get_connect_domains (resource));
  check_list (mcp_ui_resource_get_resource_domains (resource));
  check_list (mcp_ui_resource_get_frame_domains (resource));
  check_list (mcp_ui_resource_get_base_uri_domains (resource));
  for (const char * const *r = mcp_ui_resource_get_rejected_sources (resource); *r != NULL; r++)
    if (!g_utf8_validate (*r, -1, NULL))
      fail ("a rejection that is not UTF-8", *r);

  /* Navigations: a frame domain written as an origin allows itself; any
   * other text (rejections, the other lists) is matched without harm. */
  for (const char * const *f = mcp_ui_resource_get_frame_domains (resource); *f != NULL; f++)
    if (strstr (*f, "://*.") == NULL && !mcp_ui_resource_allows_frame (resource, *f))
      fail ("a frame domain that does not allow itself", *f);
  for (const char * const *r = mcp_ui_resource_get_rejected_sources (resource); *r != NULL; r++)
    mcp_ui_resource_allows_frame (resource, *r);
  for (const char * const *c = mcp_ui_resource_get_connect_domains (resource); *c != NULL; c++)
    mcp_ui_resource_allows_frame (resource, *c);

  csp = mcp_ui_resource_build_csp (resource);
  for (const char *p = csp; (p = strstr (p, "; ")) != NULL; p += 2)
    directives++;
  if (directives != 11 || strchr (csp, ',') != NULL || strchr (csp, '"') != NULL)
    fail ("a policy that is not the eleven directives", csp);

  csp_json = mcp_ui_resource_dup_csp_json (resource);
  permissions = mcp_ui_resource_dup_permissions_json (resource);
  if (json_object_get_size (permissions) > 4)
    fail ("more permissions than there are", NULL);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *source = NULL;
  g_autofree char *origin = NULL;
  g_autofree char *reason = NULL;

  fuzz_abort_on_warnings ();

  node = mcp_json_parse ((const char *) data, size, NULL);
  if (node != NULL)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(McpUiResource) resource = NULL;
      JsonObject *listed = NULL;

      if (JSON_NODE_HOLDS_OBJECT (node))
        listed = mcp_json_optional_object (json_node_get_object (node), "listed", "fuzz", NULL);
      resource = mcp_ui_resource_new_from_read_result ("ui://fuzz/app.html", node, listed, &error);
      if (resource != NULL)
        check_resource (resource);
      else if (error == NULL || error->message == NULL || !g_utf8_validate (error->message, -1, NULL))
        fail ("a refusal without a UTF-8 message", NULL);
    }

  source = g_strndup ((const char *) data, size);
  origin = mcp_ui_csp_source_check (source, &reason);
  if (origin != NULL)
    check_origin (origin);
  else if (reason == NULL)
    fail ("a refusal without a reason", source);

  return 0;
}
