/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include "mcp-protocol-enums.h"

G_BEGIN_DECLS

/**
 * SECTION:mcp-redact
 *
 * What Plugboard shows of secrets and of strings it did not write.
 *
 * Secrets (tokens, `Authorization`, header and env values, a URL's user
 * info and query values, the values `${VAR}` expands to) never reach an
 * error, a log, a trace, the terminal or the UI unmasked: whoever prints one
 * of them passes it through these functions first. A masked value is
 * #MCP_REDACTED, whatever its length, so nothing about it leaks.
 *
 * Strings from servers and files reach a terminal only through
 * mcp_escape_controls(), which writes control characters visibly
 * (`\u001b`), so that a name cannot move the cursor, clear a line or hide
 * what follows it.
 */

/* What a masked value is shown as. ASCII, so that it survives every
 * terminal, log and locale. */
#define MCP_REDACTED "***"

/* @url with its user info (`user:pass@` → `***@`), every query value
 * (`?api_key=abc&x` → `?api_key=***&x`) and every fragment value masked;
 * scheme, host, port and path are kept. A string that does not parse as an
 * absolute URL is masked the same way by its punctuation: after the first
 * `?` or `#` values are masked, and anything before an `@` that follows
 * `://` is masked. NULL gives NULL. */
char     *mcp_redact_url          (const char          *url);

/* @value masked: #MCP_REDACTED, or "" when @value is empty; NULL gives
 * NULL. For header and env values. */
char     *mcp_redact_value        (const char          *value);

/* @text with every occurrence of each of @secrets replaced by
 * #MCP_REDACTED, longest first (so that a secret inside another is not
 * half shown). Secrets shorter than 3 bytes are left alone: masking every
 * "1" in a message would make it unreadable and protect nothing. @secrets
 * may be NULL. Also masks every URL in @text as mcp_redact_url() does, and
 * the value of `Authorization:` / `Bearer ` it finds. */
char     *mcp_redact_text         (const char          *text,
                                   const char * const  *secrets);

typedef enum
{
  MCP_ESCAPE_DEFAULT       = 0,
  /* keep "\n" (and "\t") as they are: for multi-line text such as a
   * description, printed on lines of its own */
  MCP_ESCAPE_KEEP_NEWLINES = 1 << 0,
} McpEscapeFlags;

/* @text with every control character written visibly: C0 controls, DEL
 * and C1 controls as `\u001b`, bidirectional overrides and isolates
 * (U+202A–U+202E, U+2066–U+2069) and the line and paragraph separators
 * (U+2028, U+2029) as `\u202e`, and each byte that is not
 * valid UTF-8 as `\xff`. Everything else is kept, so the escaped string's
 * width on a terminal is its width in characters. NULL gives NULL. */
char     *mcp_escape_controls     (const char          *text,
                                   McpEscapeFlags       flags);

/* Whether mcp_escape_controls() would change @text. */
gboolean  mcp_needs_escape        (const char          *text,
                                   McpEscapeFlags       flags);

/* Process-wide: every value in @secrets (see mcp_redact_text()) is masked
 * from now on in what mcp_redact_log_writer() writes, so that a g_debug()
 * deep in a transport cannot print what a ${VAR} expanded to. The engine
 * registers the secrets of each server it starts; thread-safe. */
void      mcp_redact_register_secrets (const char * const *secrets);
/* What was registered (NULL-terminated, never NULL). */
char    **mcp_redact_dup_secrets      (void);

/* A GLogWriterFunc for the programs' main(): the message through
 * mcp_redact_text() with the registered secrets and through
 * mcp_escape_controls() (newlines kept), then g_log_writer_default(). */
GLogWriterOutput mcp_redact_log_writer (GLogLevelFlags   log_level,
                                        const GLogField *fields,
                                        gsize            n_fields,
                                        gpointer         user_data);

G_END_DECLS
