/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "mcp-server-config.h"

G_BEGIN_DECLS

typedef enum
{
  MCP_CAPABILITY_KIND_TOOL,
  MCP_CAPABILITY_KIND_RESOURCE,
  MCP_CAPABILITY_KIND_TEMPLATE,
  MCP_CAPABILITY_KIND_PROMPT,
  MCP_CAPABILITY_KIND_INSTRUCTIONS,
  MCP_N_CAPABILITY_KINDS,
} McpCapabilityKind;

typedef enum
{
  MCP_CAPABILITY_ADDED,
  MCP_CAPABILITY_REMOVED,
  MCP_CAPABILITY_CHANGED,
} McpCapabilityChangeType;

/**
 * McpCapabilityChange:
 * @kind: what kind of item
 * @name: its name (a resource's URI, a template's URI template; "" for
 *   the instructions)
 * @change: added, removed or changed
 * @old_definition: (nullable): the item as it was (NULL when added, or
 *   when its definition was not kept)
 * @new_definition: (nullable): the item as it is (NULL when removed)
 * @description_diff: (nullable): a unified diff of the description, lines
 *   starting "-", "+" or " "; NULL when it did not change
 * @schema_diff: (nullable): one line per JSON path that differs outside
 *   the description ("added $.inputSchema.properties.x", "removed …",
 *   "changed …"); NULL when none
 * @time: when the item took its current form
 * @flagged: a tool an allow rule may match whose description or schema
 *   changed since the person last confirmed it
 *
 * Immutable and reference counted.
 */
typedef struct
{
  McpCapabilityKind        kind;
  char                    *name;
  McpCapabilityChangeType  change;
  JsonObject              *old_definition;
  JsonObject              *new_definition;
  char                    *description_diff;
  GStrv                    schema_diff;
  GDateTime               *time;
  gboolean                 flagged;
} McpCapabilityChange;

#define MCP_TYPE_CAPABILITY_CHANGE (mcp_capability_change_get_type ())

GType                mcp_capability_change_get_type (void) G_GNUC_CONST;
McpCapabilityChange *mcp_capability_change_ref      (McpCapabilityChange *self);
void                 mcp_capability_change_unref    (McpCapabilityChange *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (McpCapabilityChange, mcp_capability_change_unref)

/* "tool", "resource", "template", "prompt", "instructions" */
const char *mcp_capability_kind_to_string        (McpCapabilityKind       kind);
/* "added", "removed", "changed" */
const char *mcp_capability_change_type_to_string (McpCapabilityChangeType change);

/* The most revisions kept per server, and the largest state file. */
#define MCP_CAPABILITY_HISTORY_MAX_REVISIONS 100
#define MCP_CAPABILITY_HISTORY_MAX_BYTES (8 * 1024 * 1024)
/* The most items of one kind recorded from one listing. */
#define MCP_CAPABILITY_HISTORY_MAX_ITEMS 10000

#define MCP_TYPE_CAPABILITY_HISTORY (mcp_capability_history_get_type ())

G_DECLARE_FINAL_TYPE (McpCapabilityHistory, mcp_capability_history, MCP, CAPABILITY_HISTORY, GObject)

/**
 * McpCapabilityHistory:
 *
 * What each server offered, listing after listing: one state file per
 * server identity (see mcp_capability_history_key()) in a folder, by
 * default `$XDG_STATE_HOME/plugboard/capabilities/`. A revision holds a
 * SHA-256 digest of each item's canonical JSON (members sorted, so that
 * their order alone is no change); an item's full definition is kept once
 * per digest. At most MCP_CAPABILITY_HISTORY_MAX_REVISIONS revisions and
 * MCP_CAPABILITY_HISTORY_MAX_BYTES are kept.
 *
 * Tools are trusted on first use: the first description and schema seen
 * are the confirmed ones. When they change, the tool is "changed since
 * confirmed" until mcp_capability_history_confirm_tool(); the permission
 * evaluator then suspends an allow rule for it.
 *
 * Every change is made under the folder's lock, on the file as it is on
 * disk, and written through a temporary file and a rename: two processes
 * recording at once keep each other's revisions, and a crash leaves the
 * old file or the new one. A file that cannot be read is set aside (with
 * a warning) and the history starts over.
 *
 * Blocking file I/O of small files; called where a listing is committed.
 *
 * Signals: "tool-changed" (key, server, tool) when a listing shows a
 * tool whose description or schema differs from the confirmed one, for
 * the first time since it changed.
 */
McpCapabilityHistory *mcp_capability_history_new          (const char            *folder);
/* One per process, on $XDG_STATE_HOME/plugboard/capabilities. */
McpCapabilityHistory *mcp_capability_history_get_default  (void);
const char           *mcp_capability_history_get_folder   (McpCapabilityHistory  *self);

/* The identity of @config's server: its scope, settings file, place in it
 * and name; equal in the app and the CLI. */
char                 *mcp_capability_history_key          (McpServerConfig       *config);
/* The state file of @key (a digest: any server name is safe). */
char                 *mcp_capability_history_path         (McpCapabilityHistory  *self,
                                                           const char            *key);

/* Records one successful listing of @server: @items[kind] is a
 * GPtrArray of JsonObject (tools, resources, templates, prompts; for
 * MCP_CAPABILITY_KIND_INSTRUCTIONS one {"instructions": text} or none),
 * for the kinds in @mask (1 << kind); the kinds outside @mask are taken
 * over from the last revision. @new_connection: the first listing of a
 * connection (what "since the previous connection" starts from). */
gboolean              mcp_capability_history_record       (McpCapabilityHistory  *self,
                                                           const char            *key,
                                                           const char            *server,
                                                           GPtrArray * const     *items,
                                                           guint                  mask,
                                                           gboolean               new_connection,
                                                           GError               **error);

/* What changed since the previous connection (@since NULL) or since the
 * time @since: McpCapabilityChange, tools first, then by name. */
GPtrArray            *mcp_capability_history_list_changes (McpCapabilityHistory  *self,
                                                           const char            *key,
                                                           GDateTime             *since,
                                                           GError               **error);

/* Whether the tool @tool's description or schema differs from the one
 * the person confirmed (first seen, or mcp_capability_history_confirm_tool()). */
gboolean              mcp_capability_history_tool_changed (McpCapabilityHistory  *self,
                                                           const char            *key,
                                                           const char            *tool);
/* The tool @tool as it is now becomes the confirmed one. FALSE and an
 * error when the history has no such tool. */
gboolean              mcp_capability_history_confirm_tool (McpCapabilityHistory  *self,
                                                           const char            *key,
                                                           const char            *tool,
                                                           GError               **error);

G_END_DECLS
