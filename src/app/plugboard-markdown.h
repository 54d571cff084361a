/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Markdown (CommonMark, parsed with libcmark — never by hand) as Pango
 * markup for a GtkLabel with use-markup: paragraphs separated by blank
 * lines, headings bold and larger, *emphasis*, **strong**, `code` and code
 * blocks in monospace, links as <a href="…"> (GtkLabel makes them
 * clickable; only http, https and mailto URLs become links), bullet and
 * numbered lists with "•" / "1." and indentation, block quotes indented,
 * raw HTML shown as text. Everything is escaped: the result always parses
 * as Pango markup. GTK-free; tested without a display. */
char     *plugboard_markdown_to_pango (const char *markdown);

/* A guess whether @text is Markdown worth rendering (headings, lists,
 * emphasis, links, code fences) rather than plain text. */
gboolean  plugboard_markdown_detect   (const char *text);

G_END_DECLS
