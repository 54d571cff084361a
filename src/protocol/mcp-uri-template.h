/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * SECTION:mcp-uri-template
 *
 * RFC 6570 URI templates, as a server's resource templates give them
 * (`resources/templates/list`): levels 1 to 3 and the level 4 prefix
 * modifier (`{var:3}`); the explode modifier is read and, the values being
 * strings, changes nothing.
 *
 * The template comes from a server: it is bounded work whatever it holds.
 * An unterminated `{` is literal text, at most
 * #MCP_URI_TEMPLATE_MAX_VARIABLES names are read, and a value is always
 * percent-encoded by its operator's rules, so a value never adds an
 * expression, a `{` or (outside `{+…}` and `{#…}`) a reserved character.
 */

/* At most this many distinct variables are read from one template. */
#define MCP_URI_TEMPLATE_MAX_VARIABLES 256

/* The names of @uri_template's variables, in order, each once, none
 * empty; at most #MCP_URI_TEMPLATE_MAX_VARIABLES. */
GStrv  mcp_uri_template_dup_variables (const char *uri_template);

/* @uri_template expanded with @values (name to UTF-8 string; a missing or
 * empty value is left out, as an undefined one is in RFC 6570). Literal
 * text is copied as it is. */
char  *mcp_uri_template_expand        (const char *uri_template,
                                       GHashTable *values);

G_END_DECLS
