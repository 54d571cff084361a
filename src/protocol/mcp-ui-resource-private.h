/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-ui-resource.h"

G_BEGIN_DECLS

/* Shared by the parts of McpUiResource: mcp-ui-resource.c (the object,
 * reading a resources/read result, its getters) and mcp-ui-resource-csp.c
 * (the declared CSP sources and the policy built from them). */

/* Bounds on what a server may declare: more sources than this in a list
 * are left out (and said once), a longer source is refused. */
#define MCP_UI_MAX_SOURCES       64
#define MCP_UI_MAX_SOURCE_CHARS  512

typedef enum
{
  MCP_UI_CSP_CONNECT,
  MCP_UI_CSP_RESOURCE,
  MCP_UI_CSP_FRAME,
  MCP_UI_CSP_BASE_URI,
  MCP_UI_CSP_N_LISTS,
} McpUiCspList;

struct _McpUiResource
{
  GObject           parent_instance;

  McpUiPermissions  permissions;
  McpUiBorder       border;
  gint64            ttl_ms;
  gsize             html_length;

  /* owned */
  char             *uri;
  char             *mime_type;
  char             *html;
  char             *digest;
  char             *domain;
  GPtrArray        *sources[MCP_UI_CSP_N_LISTS]; /* char *, NULL-terminated */
  GPtrArray        *rejected;                    /* char *, NULL-terminated */
};

gboolean  mcp_ui_mime_type_matches  (const char    *mime_type);
/* Reads the lists of _meta.ui.csp (@csp may be NULL) into self->sources,
 * what it leaves out into self->rejected. */
void      mcp_ui_resource_read_csp  (McpUiResource *self,
                                     JsonObject    *csp);
/* The plain origin @source stands for (lower-case, without a trailing
 * "/"), else NULL with why in @reason (transfer full). */
char     *mcp_ui_csp_source_check   (const char    *source,
                                     char         **reason);

G_END_DECLS
