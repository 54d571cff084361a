/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-ui-resource"

#include "config.h"

#include <string.h>

#include "mcp-error.h"
#include "mcp-ui-resource.h"
#include "test-json.h"

#define URI "ui://demo/app.html"
#define HTML "<p>hi</p>"
#define HTML_DIGEST "0a4735281db700223af63abc387c351f64ea6961a1ef955631df08d96169e772"

/* The whole CSP when nothing (valid) is declared. */
#define DEFAULT_CSP \
  "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " \
  "img-src 'self' data:; font-src 'self'; media-src 'self' data:; connect-src 'none'; " \
  "frame-src 'none'; object-src 'none'; base-uri 'self'; form-action 'none'"

static McpUiResource *
parse (const char  *uri,
       const char  *result_text,
       const char  *listed_meta_text,
       GError     **error)
{
  g_autoptr(JsonNode) result = test_json_parse (result_text);
  g_autoptr(JsonNode) listed = listed_meta_text != NULL ? test_json_parse (listed_meta_text) : NULL;

  return mcp_ui_resource_new_from_read_result (uri, result,
                                               listed != NULL ? json_node_get_object (listed) : NULL,
                                               error);
}

/* A result with one content of the MCP Apps type, whose _meta.ui is @ui. */
static McpUiResource *
parse_ui (const char *ui)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = g_strdup_printf ("{\"contents\":[{\"uri\":\"" URI "\","
                                           "\"mimeType\":\"text/html;profile=mcp-app\","
                                           "\"text\":\"" HTML "\",\"_meta\":{\"ui\":%s}}]}", ui);
  McpUiResource *resource = parse (URI, text, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (resource);
  return resource;
}

static void
assert_fails (const char *result_text,
              int         code,
              const char *says,
              const char *says_too)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpUiResource) resource = parse (URI, result_text, NULL, &error);

  g_assert_null (resource);
  g_assert_error (error, MCP_ERROR, code);
  if (strstr (error->message, says) == NULL || (says_too != NULL && strstr (error->message, says_too) == NULL))
    g_error ("“%s” does not say “%s” and “%s”", error->message, says, says_too ? says_too : "");
}

static void
test_text (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpUiResource) resource = NULL;
  g_autofree char *csp = NULL;

  resource = parse (URI, "{\"contents\":[{\"uri\":\"" URI "\",\"mimeType\":\"text/html;profile=mcp-app\","
                    "\"text\":\"" HTML "\"}]}", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mcp_ui_resource_get_uri (resource), ==, URI);
  g_assert_cmpstr (mcp_ui_resource_get_mime_type (resource), ==, MCP_UI_MIME_TYPE);
  g_assert_cmpstr (mcp_ui_resource_get_html (resource), ==, HTML);
  g_assert_cmpuint (mcp_ui_resource_get_html_length (resource), ==, strlen (HTML));
  g_assert_cmpstr (mcp_ui_resource_get_digest (resource), ==, HTML_DIGEST);
  g_assert_cmpint (mcp_ui_resource_get_ttl_ms (resource), ==, -1);
  g_assert_cmpint (mcp_ui_resource_get_permissions (resource), ==, MCP_UI_PERMISSION_NONE);
  g_assert_cmpint (mcp_ui_resource_get_border (resource), ==, MCP_UI_BORDER_UNSET);
  g_assert_null (mcp_ui_resource_get_domain (resource));
  g_assert_cmpuint (g_strv_length ((GStrv) mcp_ui_resource_get_connect_domains (resource)), ==, 0);
  g_assert_cmpuint (g_strv_length ((GStrv) mcp_ui_resource_get_resource_domains (resource)), ==, 0);
  g_assert_cmpuint (g_strv_length ((GStrv) mcp_ui_resource_get_frame_domains (resource)), ==, 0);
  g_assert_cmpuint (g_strv_length ((GStrv) mcp_ui_resource_get_base_uri_domains (resource)), ==, 0);
  g_assert_cmpuint (g_strv_length ((GStrv) mcp_ui_resource_get_rejected_sources (resource)), ==, 0);

  /* Nothing declared: the specification's restrictive default. */
  csp = mcp_ui_resource_build_csp (resource);
  g_assert_cmpstr (csp, ==, DEFAULT_CSP);
}

static void
test_blob (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpUiResource) resource = NULL;

  resource = parse (URI, "{\"contents\":[{\"uri\":\"" URI "\",\"mimeType\":\"text/html;profile=mcp-app\","
                    "\"blob\":\"PHA+aGk8L3A+\"}]}", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mcp_ui_resource_get_html (resource), ==, HTML);
  g_assert_cmpstr (mcp_ui_resource_get_digest (resource), ==, HTML_DIGEST);
}

static void
test_mime_types (void)
{
  static const struct {
    const char *mime_type;
    gboolean    ok;
  } cases[] = {
    { "text/html;profile=mcp-app", TRUE },
    { "TEXT/HTML; Profile=MCP-APP", TRUE },
    { "text/html ; charset=utf-8 ;profile=\\\"mcp-app\\\"", TRUE },
    { "text/html;charset=utf-8;profile=mcp-app", TRUE },
    { "text/html", FALSE },
    { "text/html;profile=mcp-apps", FALSE },
    { "text/plain;profile=mcp-app", FALSE },
    { "text/html-sandboxed;profile=mcp-app", FALSE },
    { "application/json", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(McpUiResource) resource = NULL;
      g_autofree char *text = g_strdup_printf ("{\"contents\":[{\"uri\":\"" URI "\",\"mimeType\":\"%s\","
                                               "\"text\":\"" HTML "\"}]}", cases[i].mime_type);

      resource = parse (URI, text, NULL, &error);
      if (cases[i].ok)
        g_assert_no_error (error);
      else
        {
          g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
          g_assert_nonnull (strstr (error->message, URI));
          g_assert_nonnull (strstr (error->message, "not an MCP Apps interface"));
        }
    }
}

static void
test_pick_content (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpUiResource) by_uri = NULL;
  g_autoptr(McpUiResource) by_type = NULL;

  /* The content of the URI asked for, wherever it is. */
  by_uri = parse (URI, "{\"contents\":["
                  "{\"uri\":\"ui://demo/other.html\",\"mimeType\":\"text/html;profile=mcp-app\",\"text\":\"other\"},"
                  "{\"uri\":\"" URI "\",\"mimeType\":\"text/html;profile=mcp-app\",\"text\":\"" HTML "\"}]}",
                  NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mcp_ui_resource_get_html (by_uri), ==, HTML);

  /* None of it: the first of the MCP Apps type. */
  by_type = parse (URI, "{\"contents\":["
                   "{\"uri\":\"ui://demo/readme.txt\",\"mimeType\":\"text/plain\",\"text\":\"read me\"},"
                   "42,"
                   "{\"uri\":\"ui://demo/canonical.html\",\"mimeType\":\"text/html;profile=mcp-app\",\"text\":\"" HTML "\"}]}",
                   NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mcp_ui_resource_get_html (by_type), ==, HTML);
  g_assert_cmpstr (mcp_ui_resource_get_uri (by_type), ==, URI);
}

static void
test_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) array = test_json_parse ("[]");
  g_autoptr(McpUiResource) resource = NULL;

  resource = mcp_ui_resource_new_from_read_result (URI, array, NULL, &error);
  g_assert_null (resource);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE);
  g_assert_nonnull (strstr (error->message, "no contents list"));

  assert_fails ("{}", MCP_ERROR_INVALID_MESSAGE, URI, "no contents list");
  assert_fails ("{\"contents\":{}}", MCP_ERROR_INVALID_MESSAGE, URI, "no contents list");
  assert_fails ("{\"contents\":[]}", MCP_ERROR_INVALID_MESSAGE, URI, "returned no contents");
  assert_fails ("{\"contents\":[1,\"x\",null]}", MCP_ERROR_INVALID_MESSAGE, URI, "returned no contents");
  /* The URI asked for is there, of another type. */
  assert_fails ("{\"contents\":[{\"uri\":\"" URI "\",\"mimeType\":\"image/png\",\"blob\":\"AAAA\"}]}",
                MCP_ERROR_INVALID_MESSAGE, URI, "“image/png”");
  assert_fails ("{\"contents\":[{\"uri\":\"" URI "\",\"text\":\"" HTML "\"}]}",
                MCP_ERROR_INVALID_MESSAGE, URI, "has no MIME type");
  /* Only something else. */
  assert_fails ("{\"contents\":[{\"uri\":\"ui://x/y\",\"mimeType\":\"text/html\",\"text\":\"" HTML "\"}]}",
                MCP_ERROR_INVALID_MESSAGE, URI, "“text/html”");
  assert_fails ("{\"contents\":[{\"uri\":\"" URI "\",\"mimeType\":\"text/html;profile=mcp-app\"}]}",
                MCP_ERROR_INVALID_MESSAGE, URI, "neither text nor blob");
  assert_fails ("{\"contents\":[{\"uri\":\"" URI "\",\"mimeType\":\"text/html;profile=mcp-app\",\"text\":\"\"}]}",
                MCP_ERROR_INVALID_MESSAGE, URI, "is empty");
  assert_fails ("{\"contents\":[{\"uri\":\"" URI "\",\"mimeType\":\"text/html;profile=mcp-app\",\"blob\":\"\"}]}",
                MCP_ERROR_INVALID_MESSAGE, URI, "is empty");
  assert_fails ("{\"contents\":[{\"uri\":\"" URI "\",\"mimeType\":\"text/html;profile=mcp-app\",\"text\":7}]}",
                MCP_ERROR_INVALID_MESSAGE, URI, NULL);
  assert_fails ("{\"contents\":[{\"uri\":\"" URI "\",\"mimeType\":\"text/html;profile=mcp-app\",\"blob\":\"PHA+/zwvcD4=\"}]}",
                MCP_ERROR_INVALID_MESSAGE, URI, "not valid UTF-8 (at byte 3)");
  assert_fails ("{\"contents\":[{\"uri\":\"" URI "\",\"mimeType\":\"text/html;profile=mcp-app\",\"blob\":\"PHA+ADwvcD4=\"}]}",
                MCP_ERROR_INVALID_MESSAGE, URI, "NUL byte (at byte 3)");
  assert_fails ("{\"contents\":[{\"uri\":\"" URI "\",\"mimeType\":\"text/html;profile=mcp-app\",\"blob\":\"PH*+aGk8L3A+\"}]}",
                MCP_ERROR_INVALID_MESSAGE, URI, "not valid base64");
  /* A URI with a control character is quoted, not printed raw. */
  {
    g_autoptr(GError) quoted_error = NULL;
    g_autoptr(McpUiResource) none = parse ("ui://x/\033[31m", "{\"contents\":[]}", NULL, &quoted_error);

    g_assert_null (none);
    g_assert_nonnull (strstr (quoted_error->message, "ui://x/\\u001b[31m"));
  }
}

static void
test_too_large (void)
{
  gsize size = MCP_UI_MAX_HTML_BYTES + 1;
  g_autoptr(GString) text = g_string_sized_new (size + 200);
  g_autofree char *blob = NULL;
  g_autofree char *filler = g_malloc (size);

  g_string_append (text, "{\"contents\":[{\"uri\":\"" URI "\",\"mimeType\":\"text/html;profile=mcp-app\",\"text\":\"");
  for (gsize i = 0; i < size; i++)
    g_string_append_c (text, 'a');
  g_string_append (text, "\"}]}");
  assert_fails (text->str, MCP_ERROR_MESSAGE_TOO_LARGE, URI, "larger than 8 MiB");

  /* A blob is refused before it is decoded. */
  memset (filler, 'a', size);
  blob = g_base64_encode ((const guchar *) filler, size);
  g_string_truncate (text, 0);
  g_string_append_printf (text, "{\"contents\":[{\"uri\":\"" URI "\",\"mimeType\":\"text/html;profile=mcp-app\","
                          "\"blob\":\"%s\"}]}", blob);
  assert_fails (text->str, MCP_ERROR_MESSAGE_TOO_LARGE, URI, "larger than 8 MiB");

  /* Exactly the limit is allowed. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(McpUiResource) resource = NULL;

    g_free (blob);
    blob = g_base64_encode ((const guchar *) filler, MCP_UI_MAX_HTML_BYTES);
    g_string_truncate (text, 0);
    g_string_append_printf (text, "{\"contents\":[{\"uri\":\"" URI "\",\"mimeType\":\"text/html;profile=mcp-app\","
                            "\"blob\":\"%s\"}]}", blob);
    resource = parse (URI, text->str, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (mcp_ui_resource_get_html_length (resource), ==, MCP_UI_MAX_HTML_BYTES);
  }
}

typedef struct
{
  const char *source;
  const char *origin;  /* NULL: refused */
  const char *says;    /* the refusal says this */
} SourceCase;

static const SourceCase source_cases[] = {
  { "https://a.com", "https://a.com", NULL },
  { "https://a.com/", "https://a.com", NULL },
  { "HTTPS://API.Example.COM", "https://api.example.com", NULL },
  { "https://a.com:8443", "https://a.com:8443", NULL },
  { "https://a.com:08443/", "https://a.com:8443", NULL },
  { "wss://realtime.example.com", "wss://realtime.example.com", NULL },
  { "https://*.cloudflare.com", "https://*.cloudflare.com", NULL },
  { "https://xn--bcher-kva.de", "https://xn--bcher-kva.de", NULL },
  { "https://bücher.de", "https://xn--bcher-kva.de", NULL },
  { "http://localhost:3000", "http://localhost:3000", NULL },
  { "http://127.0.0.1:8080", "http://127.0.0.1:8080", NULL },
  { "ws://localhost", "ws://localhost", NULL },
  { "https://203.0.113.7", "https://203.0.113.7", NULL },
  /* Keywords, directives and scheme sources would widen the policy. */
  { "'unsafe-eval'", NULL, "not an origin" },
  { "'self'", NULL, "not an origin" },
  { "*", NULL, "not an origin" },
  { "https://*", NULL, "not a valid name" },
  { "https://*.com", NULL, "whole top-level domain" },
  { "https://a.*.com", NULL, "not a valid name" },
  { "https://a.com; script-src *", NULL, "space" },
  { "https://a.com;script-src", NULL, "not a valid name" },
  { "https://a.com 'unsafe-inline'", NULL, "space" },
  { "https://a.com,https://b.com", NULL, "has a path" },
  { "javascript:alert(1)", NULL, "not an origin" },
  { "data:", NULL, "not an origin" },
  { "blob:", NULL, "not an origin" },
  { "file:///etc/passwd", NULL, "only https and wss" },
  { "ftp://a.com", NULL, "only https and wss" },
  { "://a.com", NULL, "not an origin" },
  { "a.com", NULL, "not an origin" },
  { " https://a.com", NULL, "space" },
  { "https://a.com\n", NULL, "space" },
  { "https://a.com\t", NULL, "space" },
  { "https://a.com/path", NULL, "has a path" },
  { "https://a.com/?q=1", NULL, "has a path" },
  { "https://a.com#x", NULL, "has a path" },
  { "https://user:pw@a.com", NULL, "user information" },
  { "http://example.com", NULL, "only to this computer" },
  { "ws://example.com", NULL, "only to this computer" },
  { "http://*.localhost", NULL, "top-level" },
  { "http://*.local.host", NULL, "only to this computer" },
  { "http://[::1]:3000", NULL, "IPv6" },
  { "https://[2001:db8::1]", NULL, "IPv6" },
  { "https://a.com:0", NULL, "port" },
  { "https://a.com:65536", NULL, "port" },
  { "https://a.com:*", NULL, "port" },
  { "https://a.com:", NULL, "port" },
  { "https://a.com:+443", NULL, "port" },
  { "https://-a.com", NULL, "not a valid name" },
  { "https://a..com", NULL, "not a valid name" },
  { "https://", NULL, "not a valid name" },
  { "https://a_b.com", NULL, "not a valid name" },
  { "https://a.com\\@b.com", NULL, "user information" },
};

static void
test_sources (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (source_cases); i++)
    {
      const SourceCase *c = &source_cases[i];
      g_autoptr(JsonNode) string = json_node_new (JSON_NODE_VALUE);
      g_autoptr(JsonNode) ui = test_json_parse ("{\"csp\":{\"connectDomains\":[]}}");
      g_autoptr(McpUiResource) resource = NULL;
      g_autofree char *ui_text = NULL;
      JsonArray *list;
      const char * const *connect;
      const char * const *rejected;

      json_node_set_string (string, c->source);
      list = json_object_get_array_member (json_object_get_object_member (json_node_get_object (ui), "csp"),
                                           "connectDomains");
      json_array_add_element (list, json_node_copy (string));
      ui_text = test_json_text (ui);
      resource = parse_ui (ui_text);
      connect = mcp_ui_resource_get_connect_domains (resource);
      rejected = mcp_ui_resource_get_rejected_sources (resource);

      if (c->origin != NULL)
        {
          if (g_strv_length ((GStrv) connect) != 1 || g_strcmp0 (connect[0], c->origin) != 0)
            g_error ("“%s”: expected %s, rejected: %s", c->source, c->origin,
                     rejected[0] ? rejected[0] : "nothing");
          g_assert_cmpuint (g_strv_length ((GStrv) rejected), ==, 0);
        }
      else
        {
          g_assert_cmpuint (g_strv_length ((GStrv) connect), ==, 0);
          if (g_strv_length ((GStrv) rejected) != 1 || !g_str_has_prefix (rejected[0], "connectDomains: ") ||
              strstr (rejected[0], c->says) == NULL)
            g_error ("“%s”: expected a refusal saying “%s”, got %s", c->source, c->says,
                     rejected[0] ? rejected[0] : "an acceptance");
          /* Never a control character in what is shown. */
          for (const char *p = rejected[0]; *p != '\0'; p++)
            g_assert_cmpint ((guchar) *p, >=, 0x20);
        }
    }
}

static void
test_rejected_text (void)
{
  g_autoptr(McpUiResource) resource = parse_ui ("{\"csp\":{\"connectDomains\":[\"'unsafe-eval'\"]}}");
  g_autofree char *csp = mcp_ui_resource_build_csp (resource);

  g_assert_cmpstr (mcp_ui_resource_get_rejected_sources (resource)[0], ==,
                   "connectDomains: 'unsafe-eval' — not an origin (scheme://host[:port])");
  g_assert_cmpstr (csp, ==, DEFAULT_CSP);
}

static void
test_build_csp (void)
{
  g_autoptr(McpUiResource) resource = NULL;
  g_autoptr(JsonObject) csp_json = NULL;
  g_autoptr(JsonNode) csp_node = NULL;
  g_autofree char *csp = NULL;
  g_autofree char *csp_text = NULL;

  resource = parse_ui ("{\"csp\":{"
                       "\"connectDomains\":[\"https://api.example.com\",\"wss://rt.example.com\",\"https://API.example.com\"],"
                       "\"resourceDomains\":[\"https://cdn.jsdelivr.net\",\"https://*.cloudflare.com\"],"
                       "\"frameDomains\":[\"https://www.youtube.com\"],"
                       "\"baseUriDomains\":[\"https://cdn.example.com\"]}}");
  csp = mcp_ui_resource_build_csp (resource);
  g_assert_cmpstr (csp, ==,
                   "default-src 'none'; "
                   "script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://*.cloudflare.com; "
                   "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://*.cloudflare.com; "
                   "img-src 'self' data: https://cdn.jsdelivr.net https://*.cloudflare.com; "
                   "font-src 'self' https://cdn.jsdelivr.net https://*.cloudflare.com; "
                   "media-src 'self' data: https://cdn.jsdelivr.net https://*.cloudflare.com; "
                   "connect-src 'self' https://api.example.com wss://rt.example.com; "
                   "frame-src https://www.youtube.com; "
                   "object-src 'none'; "
                   "base-uri https://cdn.example.com; "
                   "form-action 'none'");

  /* A duplicate (after lower-casing) once. */
  g_assert_cmpuint (g_strv_length ((GStrv) mcp_ui_resource_get_connect_domains (resource)), ==, 2);
  g_assert_cmpuint (g_strv_length ((GStrv) mcp_ui_resource_get_rejected_sources (resource)), ==, 0);

  csp_json = mcp_ui_resource_dup_csp_json (resource);
  csp_node = json_node_init_object (json_node_alloc (), csp_json);
  csp_text = test_json_text (csp_node);
  g_assert_cmpstr (csp_text, ==,
                   "{\"connectDomains\":[\"https://api.example.com\",\"wss://rt.example.com\"],"
                   "\"resourceDomains\":[\"https://cdn.jsdelivr.net\",\"https://*.cloudflare.com\"],"
                   "\"frameDomains\":[\"https://www.youtube.com\"],"
                   "\"baseUriDomains\":[\"https://cdn.example.com\"]}");
}

static void
test_csp_only_resources (void)
{
  g_autoptr(McpUiResource) resource = parse_ui ("{\"csp\":{\"resourceDomains\":[\"https://unpkg.com\"]}}");
  g_autofree char *csp = mcp_ui_resource_build_csp (resource);
  g_autoptr(JsonObject) csp_json = mcp_ui_resource_dup_csp_json (resource);

  g_assert_cmpstr (csp, ==,
                   "default-src 'none'; "
                   "script-src 'self' 'unsafe-inline' https://unpkg.com; "
                   "style-src 'self' 'unsafe-inline' https://unpkg.com; "
                   "img-src 'self' data: https://unpkg.com; "
                   "font-src 'self' https://unpkg.com; "
                   "media-src 'self' data: https://unpkg.com; "
                   "connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'self'; form-action 'none'");
  g_assert_cmpuint (json_object_get_size (csp_json), ==, 1);
  g_assert_true (json_object_has_member (csp_json, "resourceDomains"));
}

static void
test_csp_bounds (void)
{
  g_autoptr(GString) ui = g_string_new ("{\"csp\":{\"connectDomains\":[");
  g_autoptr(McpUiResource) resource = NULL;
  g_autoptr(McpUiResource) odd = NULL;
  g_autofree char *long_source = NULL;
  g_autofree char *long_ui = NULL;
  g_autoptr(McpUiResource) long_resource = NULL;
  const char * const *rejected;

  for (guint i = 0; i < 1000; i++)
    g_string_append_printf (ui, "%s\"https://h%u.example.com\"", i ? "," : "", i);
  g_string_append (ui, "]}}");
  resource = parse_ui (ui->str);
  g_assert_cmpuint (g_strv_length ((GStrv) mcp_ui_resource_get_connect_domains (resource)), ==, 64);
  g_assert_cmpstr (mcp_ui_resource_get_connect_domains (resource)[63], ==, "https://h63.example.com");
  rejected = mcp_ui_resource_get_rejected_sources (resource);
  g_assert_cmpuint (g_strv_length ((GStrv) rejected), ==, 1);
  g_assert_cmpstr (rejected[0], ==, "connectDomains: 936 more left out — at most 64 origins a list");

  /* Not a list, not strings. */
  odd = parse_ui ("{\"csp\":{\"connectDomains\":\"https://a.com\","
                  "\"resourceDomains\":[42,null,{\"a\":1},[\"https://a.com\"],\"https://b.com\"],"
                  "\"frameDomains\":null}}");
  rejected = mcp_ui_resource_get_rejected_sources (odd);
  g_assert_cmpuint (g_strv_length ((GStrv) rejected), ==, 5);
  g_assert_cmpstr (rejected[0], ==, "connectDomains — not a list of origins");
  g_assert_cmpstr (rejected[1], ==, "resourceDomains[0] — not a string");
  g_assert_cmpstr (rejected[4], ==, "resourceDomains[3] — not a string");
  g_assert_cmpstr (mcp_ui_resource_get_resource_domains (odd)[0], ==, "https://b.com");

  /* Too long, and the value shown is cut short. */
  long_source = g_strnfill (600, 'a');
  long_ui = g_strdup_printf ("{\"csp\":{\"frameDomains\":[\"https://%s.com\"]}}", long_source);
  long_resource = parse_ui (long_ui);
  rejected = mcp_ui_resource_get_rejected_sources (long_resource);
  g_assert_cmpuint (g_strv_length ((GStrv) rejected), ==, 1);
  g_assert_true (g_str_has_prefix (rejected[0], "frameDomains: https://aaa"));
  g_assert_nonnull (strstr (rejected[0], "longer than 512 characters"));
  g_assert_cmpuint (strlen (rejected[0]), <, 400);
}

static void
test_meta (void)
{
  g_autoptr(McpUiResource) resource = NULL;
  g_autoptr(McpUiResource) none = NULL;
  g_autoptr(JsonObject) permissions = NULL;
  g_autoptr(JsonNode) permissions_node = NULL;
  g_autofree char *permissions_text = NULL;

  resource = parse_ui ("{\"permissions\":{\"camera\":{},\"clipboardWrite\":{},\"microphone\":false,"
                       "\"geolocation\":true,\"usb\":{}},"
                       "\"domain\":\"a904794854a047f6.claudemcpcontent.com\",\"prefersBorder\":false}");
  g_assert_cmpint (mcp_ui_resource_get_permissions (resource), ==,
                   MCP_UI_PERMISSION_CAMERA | MCP_UI_PERMISSION_GEOLOCATION | MCP_UI_PERMISSION_CLIPBOARD_WRITE);
  g_assert_cmpstr (mcp_ui_resource_get_domain (resource), ==, "a904794854a047f6.claudemcpcontent.com");
  g_assert_cmpint (mcp_ui_resource_get_border (resource), ==, MCP_UI_BORDER_NONE);

  permissions = mcp_ui_resource_dup_permissions_json (resource);
  permissions_node = json_node_init_object (json_node_alloc (), permissions);
  permissions_text = test_json_text (permissions_node);
  g_assert_cmpstr (permissions_text, ==, "{\"camera\":{},\"geolocation\":{},\"clipboardWrite\":{}}");

  /* Wrong types are no declaration; a domain with a control character is not kept. */
  none = parse_ui ("{\"permissions\":[\"camera\"],\"domain\":\"a\\u001b[2Jb\",\"prefersBorder\":\"yes\",\"csp\":[1]}");
  g_assert_cmpint (mcp_ui_resource_get_permissions (none), ==, MCP_UI_PERMISSION_NONE);
  g_assert_null (mcp_ui_resource_get_domain (none));
  g_assert_cmpint (mcp_ui_resource_get_border (none), ==, MCP_UI_BORDER_UNSET);

  {
    g_autoptr(McpUiResource) visible = parse_ui ("{\"prefersBorder\":true}");

    g_assert_cmpint (mcp_ui_resource_get_border (visible), ==, MCP_UI_BORDER_VISIBLE);
  }
}

static void
test_listed_meta (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(McpUiResource) listed = NULL;
  g_autoptr(McpUiResource) own = NULL;
  const char *listed_meta = "{\"ui\":{\"csp\":{\"connectDomains\":[\"https://listed.example.com\"]},"
                            "\"prefersBorder\":true}}";

  /* The content declares nothing: the listing's _meta.ui. */
  listed = parse (URI, "{\"contents\":[{\"uri\":\"" URI "\",\"mimeType\":\"text/html;profile=mcp-app\","
                  "\"text\":\"" HTML "\"}]}", listed_meta, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mcp_ui_resource_get_connect_domains (listed)[0], ==, "https://listed.example.com");
  g_assert_cmpint (mcp_ui_resource_get_border (listed), ==, MCP_UI_BORDER_VISIBLE);

  /* The content's own wins, whole. */
  own = parse (URI, "{\"contents\":[{\"uri\":\"" URI "\",\"mimeType\":\"text/html;profile=mcp-app\","
               "\"text\":\"" HTML "\",\"_meta\":{\"ui\":{\"csp\":{\"connectDomains\":[\"https://own.example.com\"]}}}}]}",
               listed_meta, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mcp_ui_resource_get_connect_domains (own)[0], ==, "https://own.example.com");
  g_assert_cmpint (mcp_ui_resource_get_border (own), ==, MCP_UI_BORDER_UNSET);
}

static void
test_ttl (void)
{
  static const struct {
    const char *ttl;
    gint64      expected;
  } cases[] = {
    { "0", 0 },
    { "60000", 60000 },
    { "9007199254740991", G_GINT64_CONSTANT (9007199254740991) },
    { "-1", -1 },
    { "-5000", -1 },
    { "1.5", -1 },
    { "\"60000\"", -1 },
    { "null", -1 },
    { "{}", -1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(McpUiResource) resource = NULL;
      g_autofree char *text = g_strdup_printf ("{\"ttlMs\":%s,\"contents\":[{\"uri\":\"" URI "\","
                                               "\"mimeType\":\"text/html;profile=mcp-app\",\"text\":\"x\"}]}",
                                               cases[i].ttl);

      resource = parse (URI, text, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpint (mcp_ui_resource_get_ttl_ms (resource), ==, cases[i].expected);
    }
}

/* The frame domains as navigations see them: CSP host-source matching
 * (scheme, host or "*." subdomain, port), nothing else. */
static void
test_allows_frame (void)
{
  g_autoptr(McpUiResource) none = parse_ui ("{}");
  g_autoptr(McpUiResource) resource =
    parse_ui ("{\"csp\": {\"frameDomains\": [\"https://www.youtube.com\", \"https://*.vimeo.com\","
              " \"http://127.0.0.1:8080\"]}}");

  g_assert_false (mcp_ui_resource_allows_frame (none, "https://www.youtube.com/embed/x"));

  g_assert_true (mcp_ui_resource_allows_frame (resource, "https://www.youtube.com/embed/x"));
  g_assert_true (mcp_ui_resource_allows_frame (resource, "https://WWW.YouTube.com:443/"));
  g_assert_true (mcp_ui_resource_allows_frame (resource, "https://player.vimeo.com/video/1"));
  g_assert_true (mcp_ui_resource_allows_frame (resource, "http://127.0.0.1:8080/x"));

  g_assert_false (mcp_ui_resource_allows_frame (resource, "http://www.youtube.com/"));
  g_assert_false (mcp_ui_resource_allows_frame (resource, "https://www.youtube.com:8443/"));
  g_assert_false (mcp_ui_resource_allows_frame (resource, "https://youtube.com/"));
  g_assert_false (mcp_ui_resource_allows_frame (resource, "https://evil.com/?www.youtube.com"));
  g_assert_false (mcp_ui_resource_allows_frame (resource, "https://www.youtube.com.evil.com/"));
  g_assert_false (mcp_ui_resource_allows_frame (resource, "https://vimeo.com/"));
  g_assert_false (mcp_ui_resource_allows_frame (resource, "https://evilvimeo.com/"));
  g_assert_false (mcp_ui_resource_allows_frame (resource, "http://127.0.0.1/"));
  g_assert_false (mcp_ui_resource_allows_frame (resource, "http://127.0.0.1:8081/"));
  g_assert_false (mcp_ui_resource_allows_frame (resource, "file:///etc/passwd"));
  g_assert_false (mcp_ui_resource_allows_frame (resource, "javascript:alert(1)"));
  g_assert_false (mcp_ui_resource_allows_frame (resource, "data:text/html,x"));
  g_assert_false (mcp_ui_resource_allows_frame (resource, "not a uri"));
  g_assert_false (mcp_ui_resource_allows_frame (resource, NULL));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ui-resource/text", test_text);
  g_test_add_func ("/ui-resource/allows-frame", test_allows_frame);
  g_test_add_func ("/ui-resource/blob", test_blob);
  g_test_add_func ("/ui-resource/mime-types", test_mime_types);
  g_test_add_func ("/ui-resource/pick-content", test_pick_content);
  g_test_add_func ("/ui-resource/errors", test_errors);
  g_test_add_func ("/ui-resource/too-large", test_too_large);
  g_test_add_func ("/ui-resource/csp/sources", test_sources);
  g_test_add_func ("/ui-resource/csp/rejected-text", test_rejected_text);
  g_test_add_func ("/ui-resource/csp/build", test_build_csp);
  g_test_add_func ("/ui-resource/csp/only-resources", test_csp_only_resources);
  g_test_add_func ("/ui-resource/csp/bounds", test_csp_bounds);
  g_test_add_func ("/ui-resource/meta", test_meta);
  g_test_add_func ("/ui-resource/listed-meta", test_listed_meta);
  g_test_add_func ("/ui-resource/ttl", test_ttl);

  return g_test_run ();
}
