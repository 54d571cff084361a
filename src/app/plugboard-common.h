/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>
#include <gtk/gtk.h>
#include <json-glib/json-glib.h>

#include "mcp-server-config.h"

G_BEGIN_DECLS

/* Small things the app's widgets share. */

/* Adds the app's stylesheet (resource plugboard.css) to @widget's display,
 * once per display. Widgets that use its classes call it from init. (Not
 * "style.css", which AdwApplication would load a second time.) */
void        plugboard_style_ensure (GtkWidget      *widget);

/* "User", "Project", "Local" (translated). */
const char *plugboard_scope_label  (McpConfigScope  scope);
/* A message's role as a person reads it: "User", "Assistant" (translated),
 * another role as the server wrote it, or @missing when there is none. */
const char *plugboard_role_label   (const char     *role,
                                    const char     *missing);

/* The scope's label of @config, or "Not saved" for a server being tried. */
const char *plugboard_config_place_label (McpServerConfig *config);

/* @path with the home folder as "~" (for showing, never for opening);
 * "" for NULL. */
char       *plugboard_dup_display_path (const char *path);

/* Appends @word to @line after a space, shell-quoted only when it needs
 * it, so "npx -y pkg" reads as typed and "My Files" stays one word. */
void        plugboard_append_shell_word (GString         *line,
                                         const char      *word);

/* @node as JSON text; @pretty: on several lines, indented by two spaces. */
char       *plugboard_dup_json          (JsonNode        *node,
                                         gboolean         pretty);

/* What a server runs, as its settings have it: the command line (stdio)
 * or the URL with its user info and query values masked (remote); for IDE
 * kinds a sentence saying so. */
char       *plugboard_dup_what_runs     (McpServerConfig *config);

/* @label's links (Markdown a server wrote: a description, instructions, a
 * prompt's text) open only through the URL policy (mcp-url-policy.h); a
 * refused one is said with the reason (win.toast when the window has it),
 * never opened. */
void        plugboard_label_guard_links (GtkLabel        *label);

/* A label for a message: wrapped anywhere, left-aligned, with @css_class
 * (nullable); @selectable for text worth copying (a selectable label takes
 * the focus first in a dialog). */
GtkWidget  *plugboard_message_label_new       (const char         *text,
                                               const char         *css_class,
                                               gboolean            selectable);

/* @object as JSON text, indented by 2 when @pretty. */
char       *plugboard_json_object_to_text     (JsonObject         *object,
                                               gboolean            pretty);

/* Starts @command (a command line, split as the shell would but run with
 * no shell) with @url as its last argument, and does not wait for it.
 * FALSE with @error: a G_SHELL_ERROR when @command cannot be read, else
 * why the program (@out_program, nullable) could not start. */
/* Opens @url (already let through the URL policy) in the browser:
 * gtk_show_uri(), or for tests the command in
 * PLUGBOARD_TEST_OPEN_URL_COMMAND with the URL appended. */
void        plugboard_show_url                (GtkWindow          *parent,
                                               const char         *url);
gboolean    plugboard_run_url_command         (const char         *command,
                                               const char         *url,
                                               char              **out_program,
                                               GError            **error);

/* Writes @bytes to @target as the person's files are written: a local file
 * through a checked temporary file and a rename, in a thread (mode 0644);
 * anything else (a remote folder through GVfs) through GIO. */
void        plugboard_write_file_async        (GFile              *target,
                                               GBytes             *bytes,
                                               GCancellable       *cancellable,
                                               GAsyncReadyCallback callback,
                                               gpointer            user_data);
gboolean    plugboard_write_file_finish       (GAsyncResult       *result,
                                               GError            **error);

G_END_DECLS
