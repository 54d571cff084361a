/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-capability-history"

#include "config.h"

#include "mcp-capability-history.h"
#include "mcp-capability-history-private.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "mcp-config-file.h"
#include "mcp-error.h"
#include "mcp-json-private.h"

/* The state file of one server:
 *
 *   { "version": 1, "server": NAME,
 *     "previous": ID,     the last revision before the current connection
 *     "revisions": [{ "id": N, "time": ISO 8601, "items": { KEY: DIGEST } }],
 *     "definitions": { DIGEST: item },
 *     "confirmed": { TOOL: TRUST DIGEST } }
 *
 * KEY is "kind:name". A tool's trust digest covers what a rug pull
 * changes: its description, input and output schemas and annotations. */

#define STATE_VERSION 1

struct _McpCapabilityHistory
{
  GObject     parent_instance;

  char       *folder;

  /* path → Flagged: the tools changed since confirmed, as of a version
   * of the file; the permission evaluator asks for every allowed tool */
  GMutex      lock;
  GHashTable *flagged;
};

typedef struct
{
  gint64      mtime;
  goffset     size;
  guint64     inode;
  GHashTable *tools;
} Flagged;

static void
flagged_free (gpointer data)
{
  Flagged *flagged = data;

  g_hash_table_unref (flagged->tools);
  g_free (flagged);
}

G_DEFINE_FINAL_TYPE (McpCapabilityHistory, mcp_capability_history, G_TYPE_OBJECT)

enum {
  SIGNAL_TOOL_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const char * const kind_names[MCP_N_CAPABILITY_KINDS] = {
  [MCP_CAPABILITY_KIND_TOOL] = "tool",
  [MCP_CAPABILITY_KIND_RESOURCE] = "resource",
  [MCP_CAPABILITY_KIND_TEMPLATE] = "template",
  [MCP_CAPABILITY_KIND_PROMPT] = "prompt",
  [MCP_CAPABILITY_KIND_INSTRUCTIONS] = "instructions",
};

const char *
mcp_capability_kind_to_string (McpCapabilityKind kind)
{
  g_return_val_if_fail (kind < MCP_N_CAPABILITY_KINDS, "unknown");

  return kind_names[kind];
}

const char *
mcp_capability_change_type_to_string (McpCapabilityChangeType change)
{
  switch (change)
    {
    case MCP_CAPABILITY_ADDED:
      return "added";
    case MCP_CAPABILITY_REMOVED:
      return "removed";
    case MCP_CAPABILITY_CHANGED:
      return "changed";
    default:
      return "unknown";
    }
}

static void
change_clear (McpCapabilityChange *self)
{
  g_free (self->name);
  g_clear_pointer (&self->old_definition, json_object_unref);
  g_clear_pointer (&self->new_definition, json_object_unref);
  g_free (self->description_diff);
  g_strfreev (self->schema_diff);
  g_clear_pointer (&self->time, g_date_time_unref);
}

McpCapabilityChange *
mcp_capability_change_ref (McpCapabilityChange *self)
{
  return g_atomic_rc_box_acquire (self);
}

void
mcp_capability_change_unref (McpCapabilityChange *self)
{
  g_atomic_rc_box_release_full (self, (GDestroyNotify) change_clear);
}

G_DEFINE_BOXED_TYPE (McpCapabilityChange, mcp_capability_change,
                     mcp_capability_change_ref, mcp_capability_change_unref)

static void
mcp_capability_history_finalize (GObject *object)
{
  McpCapabilityHistory *self = (McpCapabilityHistory *) object;

  g_free (self->folder);
  g_hash_table_unref (self->flagged);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (mcp_capability_history_parent_class)->finalize (object);
}

static void
mcp_capability_history_class_init (McpCapabilityHistoryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mcp_capability_history_finalize;

  signals[SIGNAL_TOOL_CHANGED] =
    g_signal_new ("tool-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 3,
                  G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING);
}

static void
mcp_capability_history_init (McpCapabilityHistory *self)
{
  g_mutex_init (&self->lock);
  self->flagged = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, flagged_free);
}

McpCapabilityHistory *
mcp_capability_history_new (const char *folder)
{
  McpCapabilityHistory *self;

  g_return_val_if_fail (folder != NULL, NULL);

  self = g_object_new (MCP_TYPE_CAPABILITY_HISTORY, NULL);
  self->folder = g_strdup (folder);
  return self;
}

McpCapabilityHistory *
mcp_capability_history_get_default (void)
{
  static McpCapabilityHistory *history;

  if (g_once_init_enter (&history))
    {
      /* beside the backups: the same absolute $XDG_STATE_HOME/plugboard */
      g_autofree char *backups = mcp_config_file_get_backup_dir ();
      g_autofree char *state = g_path_get_dirname (backups);
      g_autofree char *folder = g_build_filename (state, "capabilities", NULL);

      g_once_init_leave (&history, mcp_capability_history_new (folder));
    }

  return history;
}

const char *
mcp_capability_history_get_folder (McpCapabilityHistory *self)
{
  g_return_val_if_fail (MCP_IS_CAPABILITY_HISTORY (self), NULL);

  return self->folder;
}

char *
mcp_capability_history_key (McpServerConfig *config)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (config), NULL);

  /* a server being tried has no file: it is the user's, by its name */
  return g_strdup_printf ("%d\n%s\n%s\n%s",
                          mcp_server_config_get_saved (config) ? (int) mcp_server_config_get_scope (config) : 0,
                          mcp_server_config_get_saved (config) ? mcp_server_config_get_file (config) : "",
                          mcp_server_config_get_saved (config) ? mcp_server_config_get_json_path (config) : "",
                          mcp_server_config_get_name (config));
}

char *
mcp_capability_history_path (McpCapabilityHistory *self,
                             const char           *key)
{
  g_autofree char *digest = NULL;
  g_autofree char *name = NULL;

  g_return_val_if_fail (MCP_IS_CAPABILITY_HISTORY (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  /* a digest, never the name: "../x" or "a/b" stay in the folder */
  digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, key, -1);
  name = g_strconcat (digest, ".json", NULL);
  return g_build_filename (self->folder, name, NULL);
}

/* ------------------------------------------------------------------------ */

char *
mcp_capability_digest (JsonObject *object)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), object);

  mcp_json_append_canonical (text, node);
  return g_compute_checksum_for_string (G_CHECKSUM_SHA256, text->str, text->len);
}

static const char * const trust_members[] = {
  "description", "inputSchema", "outputSchema", "annotations", NULL
};

/* What a person relied on when allowing the tool. */
static char *
trust_digest (JsonObject *tool)
{
  g_autoptr(JsonObject) part = json_object_new ();

  for (guint i = 0; trust_members[i] != NULL; i++)
    {
      JsonNode *member = json_object_get_member (tool, trust_members[i]);

      if (member != NULL)
        json_object_set_member (part, trust_members[i], json_node_copy (member));
    }
  return mcp_capability_digest (part);
}

static char *
item_key (McpCapabilityKind  kind,
          const char        *name)
{
  return g_strconcat (kind_names[kind], ":", name, NULL);
}

static gboolean
parse_item_key (const char        *key,
                McpCapabilityKind *kind,
                const char       **name)
{
  const char *colon = strchr (key, ':');

  if (colon == NULL)
    return FALSE;
  for (guint i = 0; i < MCP_N_CAPABILITY_KINDS; i++)
    {
      if (strlen (kind_names[i]) == (gsize) (colon - key) &&
          strncmp (kind_names[i], key, colon - key) == 0)
        {
          *kind = i;
          *name = colon + 1;
          return TRUE;
        }
    }
  return FALSE;
}

static const char *
item_name (McpCapabilityKind  kind,
           JsonObject        *item)
{
  switch (kind)
    {
    case MCP_CAPABILITY_KIND_RESOURCE:
      return json_object_get_string_member_with_default (item, "uri", NULL);
    case MCP_CAPABILITY_KIND_TEMPLATE:
      return json_object_get_string_member_with_default (item, "uriTemplate", NULL);
    case MCP_CAPABILITY_KIND_INSTRUCTIONS:
      return "";
    case MCP_CAPABILITY_KIND_TOOL:
    case MCP_CAPABILITY_KIND_PROMPT:
    default:
      return json_object_get_string_member_with_default (item, "name", NULL);
    }
}

/* ------------------------------------------------------------------------ */

typedef struct
{
  JsonObject *root;
  JsonArray  *revisions;
  JsonObject *definitions;
  JsonObject *confirmed;
} State;

static void
state_clear (State *state)
{
  g_clear_pointer (&state->root, json_object_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (State, state_clear)

static JsonObject *
ensure_object (JsonObject *root,
               const char *member)
{
  JsonNode *node = json_object_get_member (root, member);

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    json_object_set_object_member (root, member, json_object_new ());
  return json_object_get_object_member (root, member);
}

static gboolean
state_valid (JsonObject *root)
{
  JsonNode *revisions = json_object_get_member (root, "revisions");

  if (revisions == NULL || !JSON_NODE_HOLDS_ARRAY (revisions))
    return FALSE;
  for (guint i = 0; i < json_array_get_length (json_node_get_array (revisions)); i++)
    {
      JsonNode *revision = json_array_get_element (json_node_get_array (revisions), i);
      JsonNode *items;

      if (!JSON_NODE_HOLDS_OBJECT (revision))
        return FALSE;
      items = json_object_get_member (json_node_get_object (revision), "items");
      if (items == NULL || !JSON_NODE_HOLDS_OBJECT (items) ||
          json_object_get_string_member_with_default (json_node_get_object (revision), "time", NULL) == NULL)
        return FALSE;
    }
  return TRUE;
}

/* The state in @path, or a new one: a missing file is an empty history,
 * an unreadable or corrupt one is renamed aside (@set_aside says so). */
static void
state_load (State      *state,
            const char *path,
            gboolean    set_aside)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;

  *state = (State) { 0 };

  bytes = mcp_config_file_read (path, &error);
  if (bytes != NULL)
    {
      gsize length;
      const char *data = g_bytes_get_data (bytes, &length);

      node = mcp_json_parse (data, length, &error);
      if (node != NULL && (!JSON_NODE_HOLDS_OBJECT (node) || !state_valid (json_node_get_object (node))))
        {
          g_clear_pointer (&node, json_node_unref);
          g_set_error (&error, MCP_ERROR, MCP_ERROR_FAILED, "not a capability history");
        }
    }

  if (node != NULL)
    state->root = json_object_ref (json_node_get_object (node));
  else
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND) && set_aside)
        {
          g_autofree char *aside = g_strconcat (path, ".corrupt", NULL);

          g_warning ("The capability history “%s” cannot be read (%s); it is kept as “%s” and "
                     "the history starts over", path, error->message, aside);
          if (g_rename (path, aside) != 0)
            g_unlink (path);
        }
      state->root = json_object_new ();
      json_object_set_int_member (state->root, "version", STATE_VERSION);
      json_object_set_array_member (state->root, "revisions", json_array_new ());
    }

  state->revisions = json_object_get_array_member (state->root, "revisions");
  state->definitions = ensure_object (state->root, "definitions");
  state->confirmed = ensure_object (state->root, "confirmed");
}

static JsonObject *
revision_at (State *state,
             guint  index)
{
  return json_array_get_object_element (state->revisions, index);
}

static JsonObject *
revision_items (JsonObject *revision)
{
  return revision != NULL ? json_object_get_object_member (revision, "items") : NULL;
}

static JsonObject *
latest_revision (State *state)
{
  guint n = json_array_get_length (state->revisions);

  return n > 0 ? revision_at (state, n - 1) : NULL;
}

static JsonObject *
definition_of (State      *state,
               const char *digest)
{
  JsonNode *node;

  if (digest == NULL || (node = json_object_get_member (state->definitions, digest)) == NULL ||
      !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  return json_node_get_object (node);
}

static const char *
items_digest (JsonObject *items,
              const char *key)
{
  JsonNode *node;

  if (items == NULL || (node = json_object_get_member (items, key)) == NULL ||
      !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

/* The tools of @items whose trust digest is not the confirmed one. */
static gboolean
tool_changed_in (State      *state,
                 JsonObject *items,
                 const char *tool)
{
  g_autofree char *key = item_key (MCP_CAPABILITY_KIND_TOOL, tool);
  JsonObject *definition = definition_of (state, items_digest (items, key));
  const char *confirmed = json_object_get_string_member_with_default (state->confirmed, tool, NULL);
  g_autofree char *trust = NULL;

  if (definition == NULL || confirmed == NULL)
    return FALSE;
  trust = trust_digest (definition);
  return !g_str_equal (trust, confirmed);
}

/* Drops the oldest revisions past the limits, and the definitions no
 * revision refers to. */
static void
state_prune (State *state)
{
  g_autoptr(GHashTable) used = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GList) digests = NULL;
  gsize size;

  while (json_array_get_length (state->revisions) > MCP_CAPABILITY_HISTORY_MAX_REVISIONS)
    json_array_remove_element (state->revisions, 0);

  for (;;)
    {
      g_autoptr(JsonNode) root = json_node_init_object (json_node_alloc (), state->root);

      g_hash_table_remove_all (used);
      for (guint i = 0; i < json_array_get_length (state->revisions); i++)
        {
          JsonObjectIter iter;
          JsonNode *value;

          json_object_iter_init (&iter, revision_items (revision_at (state, i)));
          while (json_object_iter_next (&iter, NULL, &value))
            if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING)
              g_hash_table_add (used, (gpointer) json_node_get_string (value));
        }
      digests = json_object_get_members (state->definitions);
      for (GList *l = digests; l != NULL; l = l->next)
        if (!g_hash_table_contains (used, l->data))
          json_object_remove_member (state->definitions, l->data);
      g_clear_pointer (&digests, g_list_free);

      size = mcp_json_estimate_size (root);
      if (size <= MCP_CAPABILITY_HISTORY_MAX_BYTES || json_array_get_length (state->revisions) <= 1)
        break;
      json_array_remove_element (state->revisions, 0);
    }

  /* One revision alone too big (a server with very many large items):
   * its definitions go, its digests stay. */
  if (size > MCP_CAPABILITY_HISTORY_MAX_BYTES)
    json_object_set_object_member (state->root, "definitions",
                                   (state->definitions = json_object_new ()));
}

static gboolean
state_save (State       *state,
            const char  *path,
            GError     **error)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(JsonNode) root = json_node_init_object (json_node_alloc (), state->root);
  g_autoptr(GBytes) bytes = NULL;

  mcp_json_append (text, root);
  g_string_append_c (text, '\n');
  bytes = g_bytes_new (text->str, text->len);
  return mcp_config_file_replace (path, bytes, 0600, error);
}

static McpConfigFileLock *
lock_folder (McpCapabilityHistory  *self,
             GError               **error)
{
  if (g_mkdir_with_parents (self->folder, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("Could not create the folder “%s” for the capability history: %s"),
                   self->folder, g_strerror (saved_errno));
      return NULL;
    }
  return mcp_config_file_lock_folder (self->folder, NULL, error);
}

static gint64
revision_id (JsonObject *revision)
{
  return revision != NULL ? json_object_get_int_member_with_default (revision, "id", -1) : -1;
}

gboolean
mcp_capability_history_record (McpCapabilityHistory  *self,
                               const char            *key,
                               const char            *server,
                               GPtrArray * const     *items,
                               guint                  mask,
                               gboolean               new_connection,
                               GError               **error)
{
  g_autoptr(McpConfigFileLock) lock = NULL;
  g_autofree char *path = NULL;
  g_auto(State) state = { 0 };
  g_autoptr(JsonObject) next = json_object_new ();
  g_autoptr(GPtrArray) changed_tools = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  JsonObject *latest;
  JsonObject *latest_items;
  g_autoptr(JsonNode) next_node = NULL;
  g_autoptr(JsonNode) latest_node = NULL;

  g_return_val_if_fail (MCP_IS_CAPABILITY_HISTORY (self), FALSE);
  g_return_val_if_fail (key != NULL && server != NULL && items != NULL, FALSE);

  if ((lock = lock_folder (self, error)) == NULL)
    return FALSE;

  path = mcp_capability_history_path (self, key);
  state_load (&state, path, TRUE);
  json_object_set_string_member (state.root, "server", server);
  latest = latest_revision (&state);
  latest_items = revision_items (latest);

  /* the kinds not listed this time are as they were */
  if (latest_items != NULL)
    {
      JsonObjectIter iter;
      const char *member;
      JsonNode *value;

      json_object_iter_init (&iter, latest_items);
      while (json_object_iter_next (&iter, &member, &value))
        {
          McpCapabilityKind kind;
          const char *name;

          if (parse_item_key (member, &kind, &name) && (mask & (1u << kind)) == 0)
            json_object_set_member (next, member, json_node_copy (value));
        }
    }

  for (guint kind = 0; kind < MCP_N_CAPABILITY_KINDS; kind++)
    {
      if ((mask & (1u << kind)) == 0 || items[kind] == NULL)
        continue;
      for (guint i = 0; i < items[kind]->len && i < MCP_CAPABILITY_HISTORY_MAX_ITEMS; i++)
        {
          JsonObject *item = g_ptr_array_index (items[kind], i);
          const char *name = item_name (kind, item);
          g_autofree char *member = NULL;
          g_autofree char *digest = NULL;

          if (name == NULL)
            continue;
          member = item_key (kind, name);
          digest = mcp_capability_digest (item);
          if (!json_object_has_member (state.definitions, digest))
            json_object_set_object_member (state.definitions, digest, json_object_ref (item));
          json_object_set_string_member (next, member, digest);

          if (kind == MCP_CAPABILITY_KIND_TOOL)
            {
              g_autofree char *trust = trust_digest (item);
              const char *confirmed = json_object_get_string_member_with_default (state.confirmed, name, NULL);
              JsonObject *before = definition_of (&state, items_digest (latest_items, member));
              g_autofree char *before_trust = before != NULL ? trust_digest (before) : NULL;

              /* trust on first use; a change of what was trusted is
               * news each time it happens, not at each listing */
              if (confirmed == NULL)
                json_object_set_string_member (state.confirmed, name, trust);
              else if (!g_str_equal (confirmed, trust) && g_strcmp0 (before_trust, trust) != 0)
                g_ptr_array_add (changed_tools, g_strdup (name));
            }
        }
    }

  if (new_connection)
    json_object_set_int_member (state.root, "previous", revision_id (latest));

  next_node = json_node_init_object (json_node_alloc (), next);
  if (latest_items != NULL)
    latest_node = json_node_init_object (json_node_alloc (), latest_items);
  if (latest_node == NULL || !json_node_equal (next_node, latest_node))
    {
      g_autoptr(JsonObject) revision = json_object_new ();
      g_autofree char *time = g_date_time_format_iso8601 (now);

      json_object_set_int_member (revision, "id", revision_id (latest) + 1);
      json_object_set_string_member (revision, "time", time);
      json_object_set_object_member (revision, "items", json_object_ref (next));
      json_array_add_object_element (state.revisions, g_steal_pointer (&revision));
    }
  else if (!new_connection)
    return TRUE;

  state_prune (&state);
  if (!state_save (&state, path, error))
    return FALSE;
  g_clear_pointer (&lock, mcp_config_file_unlock);

  for (guint i = 0; i < changed_tools->len; i++)
    g_signal_emit (self, signals[SIGNAL_TOOL_CHANGED], 0, key, server,
                   (const char *) g_ptr_array_index (changed_tools, i));
  return TRUE;
}

static gint64
mtime_ns (const GStatBuf *st)
{
  return (gint64) st->st_mtim.tv_sec * G_GINT64_CONSTANT (1000000000) + st->st_mtim.tv_nsec;
}

gboolean
mcp_capability_history_tool_changed (McpCapabilityHistory *self,
                                     const char           *key,
                                     const char           *tool)
{
  g_autofree char *path = NULL;
  g_autoptr(GMutexLocker) locker = NULL;
  GStatBuf st;
  Flagged *flagged;

  g_return_val_if_fail (MCP_IS_CAPABILITY_HISTORY (self), FALSE);
  g_return_val_if_fail (key != NULL && tool != NULL, FALSE);

  path = mcp_capability_history_path (self, key);
  if (g_stat (path, &st) != 0)
    return FALSE;

  locker = g_mutex_locker_new (&self->lock);
  flagged = g_hash_table_lookup (self->flagged, path);
  /* a file replaced is a new inode: read again only when it was */
  if (flagged == NULL || flagged->mtime != mtime_ns (&st) || flagged->size != st.st_size ||
      flagged->inode != (guint64) st.st_ino)
    {
      g_auto(State) state = { 0 };
      JsonObject *items;
      JsonObjectIter iter;
      const char *member;

      state_load (&state, path, FALSE);
      items = revision_items (latest_revision (&state));
      flagged = g_new0 (Flagged, 1);
      flagged->mtime = mtime_ns (&st);
      flagged->size = st.st_size;
      flagged->inode = st.st_ino;
      flagged->tools = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      if (items != NULL)
        {
          json_object_iter_init (&iter, items);
          while (json_object_iter_next (&iter, &member, NULL))
            {
              McpCapabilityKind kind;
              const char *name;

              if (parse_item_key (member, &kind, &name) && kind == MCP_CAPABILITY_KIND_TOOL &&
                  tool_changed_in (&state, items, name))
                g_hash_table_add (flagged->tools, g_strdup (name));
            }
        }
      g_hash_table_replace (self->flagged, g_strdup (path), flagged);
    }

  return g_hash_table_contains (flagged->tools, tool);
}

gboolean
mcp_capability_history_confirm_tool (McpCapabilityHistory  *self,
                                     const char            *key,
                                     const char            *tool,
                                     GError               **error)
{
  g_autoptr(McpConfigFileLock) lock = NULL;
  g_autofree char *path = NULL;
  g_autofree char *member = NULL;
  g_autofree char *trust = NULL;
  g_auto(State) state = { 0 };
  JsonObject *definition;

  g_return_val_if_fail (MCP_IS_CAPABILITY_HISTORY (self), FALSE);
  g_return_val_if_fail (key != NULL && tool != NULL, FALSE);

  if ((lock = lock_folder (self, error)) == NULL)
    return FALSE;

  path = mcp_capability_history_path (self, key);
  state_load (&state, path, TRUE);
  member = item_key (MCP_CAPABILITY_KIND_TOOL, tool);
  definition = definition_of (&state, items_digest (revision_items (latest_revision (&state)), member));
  if (definition == NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_ARGUMENT,
                   _("The server “%s” did not list a tool “%s” the last time it was connected"),
                   json_object_get_string_member_with_default (state.root, "server", "?"), tool);
      return FALSE;
    }

  trust = trust_digest (definition);
  json_object_set_string_member (state.confirmed, tool, trust);
  return state_save (&state, path, error);
}

/* ------------------------------------------------------------------------ */

static GDateTime *
revision_time (JsonObject *revision)
{
  const char *text = json_object_get_string_member_with_default (revision, "time", NULL);

  return text != NULL ? g_date_time_new_from_iso8601 (text, NULL) : NULL;
}

/* The index of the revision @from starts from: -1 for none (an empty
 * listing); -2 when there is nothing to compare. */
static gint
find_from (State     *state,
           GDateTime *since)
{
  guint n = json_array_get_length (state->revisions);

  if (since == NULL)
    {
      gint64 previous = json_object_get_int_member_with_default (state->root, "previous", -1);

      if (previous < 0)
        return -2;
      for (guint i = n; i > 0; i--)
        if (revision_id (revision_at (state, i - 1)) <= previous)
          return (gint) i - 1;
      return -2;
    }

  for (guint i = n; i > 0; i--)
    {
      g_autoptr(GDateTime) time = revision_time (revision_at (state, i - 1));

      if (time != NULL && g_date_time_compare (time, since) <= 0)
        return (gint) i - 1;
    }
  return -1;
}

static gint
compare_changes (gconstpointer a,
                 gconstpointer b)
{
  const McpCapabilityChange *x = *(McpCapabilityChange **) a;
  const McpCapabilityChange *y = *(McpCapabilityChange **) b;

  if (x->kind != y->kind)
    return x->kind < y->kind ? -1 : 1;
  return g_strcmp0 (x->name, y->name);
}

static void
add_change (State      *state,
            GPtrArray  *changes,
            const char *member,
            const char *old_digest,
            const char *new_digest)
{
  McpCapabilityChange *change;
  McpCapabilityKind kind;
  const char *name;
  JsonObject *old_definition = definition_of (state, old_digest);
  JsonObject *new_definition = definition_of (state, new_digest);
  guint n = json_array_get_length (state->revisions);

  if (!parse_item_key (member, &kind, &name))
    return;

  change = g_atomic_rc_box_new0 (McpCapabilityChange);
  change->kind = kind;
  change->name = g_strdup (name);
  change->change = old_digest == NULL ? MCP_CAPABILITY_ADDED
                   : new_digest == NULL ? MCP_CAPABILITY_REMOVED : MCP_CAPABILITY_CHANGED;
  change->old_definition = old_definition != NULL ? json_object_ref (old_definition) : NULL;
  change->new_definition = new_definition != NULL ? json_object_ref (new_definition) : NULL;

  /* when it took its current form: the newest revision where it changed */
  for (guint i = n - 1; i > 0 && change->time == NULL; i--)
    if (g_strcmp0 (items_digest (revision_items (revision_at (state, i - 1)), member), new_digest) != 0)
      change->time = revision_time (revision_at (state, i));
  if (change->time == NULL)
    change->time = revision_time (revision_at (state, 0));

  if (change->change == MCP_CAPABILITY_CHANGED && old_definition != NULL && new_definition != NULL)
    {
      change->description_diff =
        mcp_capability_diff_text (json_object_get_string_member_with_default (old_definition, "description", NULL),
                                  json_object_get_string_member_with_default (new_definition, "description", NULL));
      change->schema_diff = mcp_capability_diff_json (old_definition, new_definition);
    }
  if (kind == MCP_CAPABILITY_KIND_TOOL && new_digest != NULL)
    change->flagged = tool_changed_in (state, revision_items (revision_at (state, n - 1)), name);

  g_ptr_array_add (changes, change);
}

GPtrArray *
mcp_capability_history_list_changes (McpCapabilityHistory  *self,
                                     const char            *key,
                                     GDateTime             *since,
                                     GError               **error)
{
  g_autoptr(GPtrArray) changes = g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_capability_change_unref);
  g_autofree char *path = NULL;
  g_auto(State) state = { 0 };
  JsonObject *from_items = NULL;
  JsonObject *to_items;
  JsonObjectIter iter;
  const char *member;
  JsonNode *value;
  gint from;

  g_return_val_if_fail (MCP_IS_CAPABILITY_HISTORY (self), NULL);
  g_return_val_if_fail (key != NULL, NULL);

  path = mcp_capability_history_path (self, key);
  state_load (&state, path, FALSE);
  to_items = revision_items (latest_revision (&state));
  if (to_items == NULL)
    return g_steal_pointer (&changes);

  from = find_from (&state, since);
  if (from == -2)
    return g_steal_pointer (&changes);
  if (from >= 0)
    from_items = revision_items (revision_at (&state, from));

  json_object_iter_init (&iter, to_items);
  while (json_object_iter_next (&iter, &member, &value))
    {
      const char *new_digest = items_digest (to_items, member);
      const char *old_digest = items_digest (from_items, member);

      if (g_strcmp0 (old_digest, new_digest) != 0)
        add_change (&state, changes, member, old_digest, new_digest);
    }
  if (from_items != NULL)
    {
      json_object_iter_init (&iter, from_items);
      while (json_object_iter_next (&iter, &member, &value))
        if (items_digest (to_items, member) == NULL)
          add_change (&state, changes, member, items_digest (from_items, member), NULL);
    }

  /* a tool still changed since it was confirmed, though not in this span */
  json_object_iter_init (&iter, to_items);
  while (json_object_iter_next (&iter, &member, &value))
    {
      McpCapabilityKind kind;
      const char *name;
      gboolean listed = FALSE;

      if (!parse_item_key (member, &kind, &name) || kind != MCP_CAPABILITY_KIND_TOOL ||
          !tool_changed_in (&state, to_items, name))
        continue;
      for (guint i = 0; i < changes->len && !listed; i++)
        {
          McpCapabilityChange *change = g_ptr_array_index (changes, i);

          listed = change->kind == MCP_CAPABILITY_KIND_TOOL && g_str_equal (change->name, name);
        }
      if (!listed)
        {
          /* compared with the newest revision that still had the confirmed form */
          const char *old_digest = NULL;
          const char *confirmed = json_object_get_string_member_with_default (state.confirmed, name, NULL);

          for (guint i = json_array_get_length (state.revisions); i > 0 && old_digest == NULL; i--)
            {
              const char *digest = items_digest (revision_items (revision_at (&state, i - 1)), member);
              JsonObject *definition = definition_of (&state, digest);
              g_autofree char *trust = definition != NULL ? trust_digest (definition) : NULL;

              if (trust != NULL && g_strcmp0 (trust, confirmed) == 0)
                old_digest = digest;
            }
          add_change (&state, changes, member, old_digest != NULL ? old_digest : "", items_digest (to_items, member));
        }
    }

  g_ptr_array_sort (changes, compare_changes);
  return g_steal_pointer (&changes);
}
