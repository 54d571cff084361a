/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "mcp-oauth-metadata.h"
#include "mcp-url-policy.h"

G_BEGIN_DECLS

/* Discovery, as its parts share it (mcp-oauth-metadata-discovery.c and
 * mcp-oauth-metadata-documents.c). */

typedef enum
{
  PHASE_PRM,
  PHASE_AS,
} Phase;

typedef struct
{
  SoupSession      *session;
  McpOAuthMetadata *result;
  char             *origin;            /* of the server URL */
  char             *configured_as_url; /* authServerMetadataUrl */
  Phase             phase;
  GPtrArray        *candidates;        /* URLs for this phase */
  guint             next;
  GString          *tried;             /* "“url” (HTTP 404), …" over both phases */
  gboolean          prm_found;         /* with authorization servers */
  gboolean          prm_only;          /* mcp_oauth_discover_resource_async */
  gboolean          from_challenge;    /* the PRM URL came from WWW-Authenticate */
  SoupMessage      *message;           /* the one under way */
} Discover;

/* mcp-oauth-metadata-documents.c */
/* scheme://host[:port] of @url, or NULL when it is not an absolute
 * http(s) URL; *@path (optional) gets its path without a final "/". */
char     *mcp_oauth_origin_of                       (const char        *url,
                                                     char             **path);
/* The URL policy for a URL a metadata document at @where (NULL: the
 * default endpoints) named as its @member. */
gboolean  mcp_oauth_metadata_check_url              (const char        *where,
                                                     const char        *member,
                                                     const char        *value,
                                                     McpUrlUse          use,
                                                     GError           **error);
/* Every endpoint Plugboard will open or post to passes the URL policy. */
gboolean  mcp_oauth_metadata_check_endpoints        (McpOAuthMetadata  *m,
                                                     const char        *where,
                                                     GError           **error);
/* Fill @d->result from a protected resource metadata document, or from an
 * authorization server's; FALSE with @error when it is malformed or names
 * another resource or issuer. */
gboolean  mcp_oauth_discover_take_prm               (Discover          *d,
                                                     const char        *url,
                                                     JsonObject        *object,
                                                     GError           **error);
gboolean  mcp_oauth_discover_take_as_metadata       (Discover          *d,
                                                     const char        *url,
                                                     JsonObject        *object,
                                                     GError           **error);
/* 2025-03-26: the endpoints at fixed paths of the server's origin */
void      mcp_oauth_discover_use_default_endpoints  (Discover          *d);

G_END_DECLS
