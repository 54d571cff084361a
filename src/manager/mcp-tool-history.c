/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-tool-history"

#include "config.h"

#include "mcp-tool-history.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "mcp-error.h"
#include "mcp-json-private.h"

/* A summary is one line of at most this many characters. */
#define SUMMARY_MAX_CHARS 200

static JsonNode *copy_object_node (JsonObject *object);

/* ------------------------------------------------------------------------ */
/* McpHistoryEntry                                                          */

struct _McpHistoryEntry
{
  GObject            parent_instance;

  char              *qualified_name;
  JsonObject        *arguments;
  char              *summary;
  gint64             started;           /* wall clock, µs */
  gint64             started_monotonic;
  gint64             duration;
  McpHistoryOutcome  outcome;
};

G_DEFINE_FINAL_TYPE (McpHistoryEntry, mcp_history_entry, G_TYPE_OBJECT)

enum {
  ENTRY_PROP_0,
  ENTRY_PROP_QUALIFIED_NAME,
  ENTRY_PROP_ARGUMENTS,
  ENTRY_PROP_STARTED,
  ENTRY_PROP_DURATION,
  ENTRY_PROP_OUTCOME,
  ENTRY_PROP_SUMMARY,
  ENTRY_N_PROPS
};

static GParamSpec *entry_properties[ENTRY_N_PROPS];

static void
mcp_history_entry_finalize (GObject *object)
{
  McpHistoryEntry *self = MCP_HISTORY_ENTRY (object);

  g_free (self->qualified_name);
  g_clear_pointer (&self->arguments, json_object_unref);
  g_free (self->summary);

  G_OBJECT_CLASS (mcp_history_entry_parent_class)->finalize (object);
}

static void
mcp_history_entry_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  McpHistoryEntry *self = MCP_HISTORY_ENTRY (object);

  switch (prop_id)
    {
    case ENTRY_PROP_QUALIFIED_NAME:
      g_value_set_string (value, self->qualified_name);
      break;

    case ENTRY_PROP_ARGUMENTS:
      g_value_set_boxed (value, self->arguments);
      break;

    case ENTRY_PROP_STARTED:
      g_value_set_int64 (value, self->started);
      break;

    case ENTRY_PROP_DURATION:
      g_value_set_int64 (value, self->duration);
      break;

    case ENTRY_PROP_OUTCOME:
      g_value_set_int (value, self->outcome);
      break;

    case ENTRY_PROP_SUMMARY:
      g_value_set_string (value, self->summary);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_history_entry_class_init (McpHistoryEntryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mcp_history_entry_finalize;
  object_class->get_property = mcp_history_entry_get_property;

  entry_properties[ENTRY_PROP_QUALIFIED_NAME] =
    g_param_spec_string ("qualified-name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  entry_properties[ENTRY_PROP_ARGUMENTS] =
    g_param_spec_boxed ("arguments", NULL, NULL, JSON_TYPE_OBJECT,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  entry_properties[ENTRY_PROP_STARTED] =
    g_param_spec_int64 ("started", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  entry_properties[ENTRY_PROP_DURATION] =
    g_param_spec_int64 ("duration", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* An McpHistoryOutcome; an int until the engine has enum types registered. */
  entry_properties[ENTRY_PROP_OUTCOME] =
    g_param_spec_int ("outcome", NULL, NULL,
                      MCP_HISTORY_OUTCOME_RUNNING, MCP_HISTORY_OUTCOME_CANCELLED,
                      MCP_HISTORY_OUTCOME_RUNNING,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  entry_properties[ENTRY_PROP_SUMMARY] =
    g_param_spec_string ("summary", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, ENTRY_N_PROPS, entry_properties);
}

static void
mcp_history_entry_init (McpHistoryEntry *self)
{
  self->outcome = MCP_HISTORY_OUTCOME_RUNNING;
}

const char *
mcp_history_entry_get_qualified_name (McpHistoryEntry *self)
{
  g_return_val_if_fail (MCP_IS_HISTORY_ENTRY (self), NULL);
  return self->qualified_name;
}

JsonObject *
mcp_history_entry_get_arguments (McpHistoryEntry *self)
{
  g_return_val_if_fail (MCP_IS_HISTORY_ENTRY (self), NULL);
  return self->arguments;
}

gint64
mcp_history_entry_get_started (McpHistoryEntry *self)
{
  g_return_val_if_fail (MCP_IS_HISTORY_ENTRY (self), 0);
  return self->started;
}

gint64
mcp_history_entry_get_duration (McpHistoryEntry *self)
{
  g_return_val_if_fail (MCP_IS_HISTORY_ENTRY (self), 0);
  return self->duration;
}

McpHistoryOutcome
mcp_history_entry_get_outcome (McpHistoryEntry *self)
{
  g_return_val_if_fail (MCP_IS_HISTORY_ENTRY (self), MCP_HISTORY_OUTCOME_FAILED);
  return self->outcome;
}

const char *
mcp_history_entry_get_summary (McpHistoryEntry *self)
{
  g_return_val_if_fail (MCP_IS_HISTORY_ENTRY (self), NULL);
  return self->summary;
}

/* The first line, cut to SUMMARY_MAX_CHARS characters. */
static char *
one_line (const char *text)
{
  g_autoptr(GString) line = NULL;
  const char *end;
  glong chars;

  if (text == NULL)
    return NULL;

  while (g_ascii_isspace (*text))
    text++;

  end = text;
  while (*end != '\0' && *end != '\n' && *end != '\r')
    end++;

  if (!g_utf8_validate (text, end - text, NULL))
    return g_strdup ("");

  line = g_string_new_len (text, end - text);
  chars = g_utf8_strlen (line->str, -1);
  if (chars > SUMMARY_MAX_CHARS)
    {
      const char *cut = g_utf8_offset_to_pointer (line->str, SUMMARY_MAX_CHARS - 1);

      g_string_truncate (line, cut - line->str);
      g_string_append (line, "…");
    }
  else if (*end != '\0' && end[strspn (end, " \t\r\n")] != '\0')
    {
      g_string_append (line, " …");
    }

  return g_string_free (g_steal_pointer (&line), FALSE);
}

void
mcp_history_entry_finish (McpHistoryEntry   *self,
                          McpHistoryOutcome  outcome,
                          const char        *summary)
{
  g_return_if_fail (MCP_IS_HISTORY_ENTRY (self));
  g_return_if_fail (outcome != MCP_HISTORY_OUTCOME_RUNNING);

  if (self->outcome != MCP_HISTORY_OUTCOME_RUNNING)
    {
      g_debug ("History entry of %s finished twice; keeping the first outcome",
               self->qualified_name);
      return;
    }

  g_object_freeze_notify (G_OBJECT (self));

  self->duration = MAX (g_get_monotonic_time () - self->started_monotonic, 1);
  g_object_notify_by_pspec (G_OBJECT (self), entry_properties[ENTRY_PROP_DURATION]);

  self->outcome = outcome;
  g_object_notify_by_pspec (G_OBJECT (self), entry_properties[ENTRY_PROP_OUTCOME]);

  if (g_strcmp0 (self->summary, summary) != 0)
    {
      g_free (self->summary);
      self->summary = one_line (summary);
      g_object_notify_by_pspec (G_OBJECT (self), entry_properties[ENTRY_PROP_SUMMARY]);
    }

  g_object_thaw_notify (G_OBJECT (self));
}

/* ------------------------------------------------------------------------ */
/* McpToolHistory                                                           */

struct _McpToolHistory
{
  GObject     parent_instance;

  char       *path;
  GListStore *calls;     /* McpHistoryEntry, newest first */
  GHashTable *per_tool;  /* qualified name → GListStore */
};

G_DEFINE_FINAL_TYPE (McpToolHistory, mcp_tool_history, G_TYPE_OBJECT)

static void
mcp_tool_history_finalize (GObject *object)
{
  McpToolHistory *self = MCP_TOOL_HISTORY (object);

  g_free (self->path);
  g_clear_object (&self->calls);
  g_clear_pointer (&self->per_tool, g_hash_table_unref);

  G_OBJECT_CLASS (mcp_tool_history_parent_class)->finalize (object);
}

static void
mcp_tool_history_class_init (McpToolHistoryClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mcp_tool_history_finalize;
}

static void
mcp_tool_history_init (McpToolHistory *self)
{
  self->calls = g_list_store_new (MCP_TYPE_HISTORY_ENTRY);
  self->per_tool = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
}

McpToolHistory *
mcp_tool_history_new (const char *path)
{
  McpToolHistory *self = g_object_new (MCP_TYPE_TOOL_HISTORY, NULL);

  if (path != NULL)
    self->path = g_strdup (path);
  else
    self->path = g_build_filename (g_get_user_data_dir (), "plugboard",
                                   "saved-arguments.json", NULL);

  return self;
}

static GListStore *
get_tool_store (McpToolHistory *self,
                const char     *qualified_name)
{
  GListStore *store = g_hash_table_lookup (self->per_tool, qualified_name);

  if (store == NULL)
    {
      store = g_list_store_new (MCP_TYPE_HISTORY_ENTRY);
      g_hash_table_insert (self->per_tool, g_strdup (qualified_name), store);
    }

  return store;
}

McpHistoryEntry *
mcp_tool_history_start (McpToolHistory *self,
                        const char     *qualified_name,
                        JsonObject     *arguments)
{
  McpHistoryEntry *entry;

  g_return_val_if_fail (MCP_IS_TOOL_HISTORY (self), NULL);
  g_return_val_if_fail (qualified_name != NULL, NULL);

  entry = g_object_new (MCP_TYPE_HISTORY_ENTRY, NULL);
  entry->qualified_name = g_strdup (qualified_name);
  /* A copy, sealed: the entry's arguments never change, whatever the
   * caller does with its object afterwards. */
  if (arguments != NULL)
    {
      g_autoptr(JsonNode) copy = copy_object_node (arguments);

      entry->arguments = json_object_ref (json_node_get_object (copy));
    }
  else
    entry->arguments = json_object_new ();
  json_object_seal (entry->arguments);
  entry->started = g_get_real_time ();
  entry->started_monotonic = g_get_monotonic_time ();

  g_list_store_insert (self->calls, 0, entry);
  g_list_store_insert (get_tool_store (self, qualified_name), 0, entry);
  /* The history holds it; the caller borrows it (the app takes its own
   * reference). Returning the reference of g_object_new() leaked one entry
   * per call. */
  g_object_unref (entry);

  return entry;
}

GListModel *
mcp_tool_history_get_calls (McpToolHistory *self)
{
  g_return_val_if_fail (MCP_IS_TOOL_HISTORY (self), NULL);
  return G_LIST_MODEL (self->calls);
}

GListModel *
mcp_tool_history_get_calls_for (McpToolHistory *self,
                                const char     *qualified_name)
{
  g_return_val_if_fail (MCP_IS_TOOL_HISTORY (self), NULL);
  g_return_val_if_fail (qualified_name != NULL, NULL);

  return G_LIST_MODEL (get_tool_store (self, qualified_name));
}

/* ------------------------------------------------------------------------ */
/* Saved argument sets                                                      */

/* The file's root object: a new one when the file does not exist; NULL and
 * an error naming the file when it cannot be read or parsed (then it must
 * not be overwritten). */
static JsonObject *
load_root (McpToolHistory  *self,
           GError         **error)
{
  g_autoptr(JsonNode) parsed = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *contents = NULL;
  JsonObject *root;
  JsonNode *node;
  gsize length;

  if (!g_file_get_contents (self->path, &contents, &length, &local_error))
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        {
          root = json_object_new ();
          json_object_set_int_member (root, "version", 1);
          json_object_set_object_member (root, "tools", json_object_new ());
          return root;
        }

      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("Could not read the saved arguments file “%s”: %s"),
                   self->path, local_error->message);
      return NULL;
    }

  if ((parsed = mcp_json_parse (contents, length, &local_error)) == NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("The saved arguments file “%s” is not valid JSON (%s); fix or remove it "
                     "to save arguments again"),
                   self->path, local_error->message);
      return NULL;
    }

  node = parsed;
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("The saved arguments file “%s” does not hold a JSON object; fix or remove "
                     "it to save arguments again"),
                   self->path);
      return NULL;
    }

  root = json_node_get_object (node);
  if (json_object_has_member (root, "tools") &&
      !JSON_NODE_HOLDS_OBJECT (json_object_get_member (root, "tools")))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("In the saved arguments file “%s”, “tools” is not an object; fix or "
                     "remove it to save arguments again"),
                   self->path);
      return NULL;
    }

  root = json_object_ref (root);
  if (!json_object_has_member (root, "version"))
    json_object_set_int_member (root, "version", 1);
  if (!json_object_has_member (root, "tools"))
    json_object_set_object_member (root, "tools", json_object_new ());

  return root;
}

static gboolean
save_root (McpToolHistory  *self,
           JsonObject      *root,
           GError         **error)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(GError) local_error = NULL;
  g_autofree char *directory = g_path_get_dirname (self->path);
  g_autofree char *data = NULL;
  gsize length;

  if (g_mkdir_with_parents (directory, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("Could not create the folder “%s” for saved arguments: %s"),
                   directory, g_strerror (saved_errno));
      return FALSE;
    }

  json_node_set_object (node, root);
  json_generator_set_root (generator, node);
  json_generator_set_pretty (generator, TRUE);
  data = json_generator_to_data (generator, &length);

  /* Written to a temporary file and renamed over: a crash leaves the old
   * file or the new one, never half of one. */
  if (!g_file_set_contents_full (self->path, data, length,
                                 G_FILE_SET_CONTENTS_CONSISTENT, 0600, &local_error))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("Could not save arguments to “%s”: %s"),
                   self->path, local_error->message);
      return FALSE;
    }

  return TRUE;
}

/* The array of @qualified_name's sets, or NULL. */
static JsonArray *
get_sets (JsonObject *root,
          const char *qualified_name)
{
  JsonObject *tools = json_object_get_object_member (root, "tools");
  JsonNode *node;

  if (tools == NULL || (node = json_object_get_member (tools, qualified_name)) == NULL ||
      !JSON_NODE_HOLDS_ARRAY (node))
    return NULL;

  return json_node_get_array (node);
}

static JsonObject *
find_set (JsonArray  *sets,
          const char *set_name,
          guint      *index)
{
  if (sets == NULL)
    return NULL;

  for (guint i = 0; i < json_array_get_length (sets); i++)
    {
      JsonNode *node = json_array_get_element (sets, i);
      JsonObject *set;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      set = json_node_get_object (node);
      if (g_strcmp0 (json_object_get_string_member_with_default (set, "name", NULL), set_name) == 0)
        {
          if (index != NULL)
            *index = i;
          return set;
        }
    }

  return NULL;
}

static JsonNode *
copy_object_node (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *text = NULL;

  json_node_set_object (node, object);
  text = json_to_string (node, FALSE);
  return json_from_string (text, NULL);
}

gboolean
mcp_tool_history_save_arguments (McpToolHistory  *self,
                                 const char      *qualified_name,
                                 const char      *set_name,
                                 JsonObject      *arguments,
                                 GError         **error)
{
  g_autoptr(JsonObject) root = NULL;
  g_autoptr(GDateTime) now = NULL;
  g_autofree char *saved = NULL;
  JsonObject *tools;
  JsonArray *sets;
  JsonObject *set;
  JsonNode *copy;

  g_return_val_if_fail (MCP_IS_TOOL_HISTORY (self), FALSE);
  g_return_val_if_fail (qualified_name != NULL, FALSE);
  g_return_val_if_fail (set_name != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  root = load_root (self, error);
  if (root == NULL)
    return FALSE;

  tools = json_object_get_object_member (root, "tools");
  sets = get_sets (root, qualified_name);
  if (sets == NULL)
    {
      sets = json_array_new ();
      json_object_set_array_member (tools, qualified_name, sets);
    }

  /* Saving under a name that exists replaces that set where it is; its
   * other keys stay. */
  set = find_set (sets, set_name, NULL);
  if (set == NULL)
    {
      set = json_object_new ();
      json_object_set_string_member (set, "name", set_name);
      json_array_add_object_element (sets, set);
    }

  copy = arguments != NULL ? copy_object_node (arguments) : NULL;
  if (copy != NULL)
    json_object_set_member (set, "arguments", copy);
  else
    json_object_set_object_member (set, "arguments", json_object_new ());

  now = g_date_time_new_now_utc ();
  saved = g_date_time_format_iso8601 (now);
  json_object_set_string_member (set, "saved", saved);

  return save_root (self, root, error);
}

char **
mcp_tool_history_dup_saved_names (McpToolHistory *self,
                                  const char     *qualified_name)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(JsonObject) root = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *sets;

  g_return_val_if_fail (MCP_IS_TOOL_HISTORY (self), NULL);
  g_return_val_if_fail (qualified_name != NULL, NULL);

  root = load_root (self, &error);
  if (root == NULL)
    {
      g_debug ("%s", error->message);
      return g_strv_builder_end (builder);
    }

  sets = get_sets (root, qualified_name);
  for (guint i = 0; sets != NULL && i < json_array_get_length (sets); i++)
    {
      JsonNode *node = json_array_get_element (sets, i);
      const char *name;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      name = json_object_get_string_member_with_default (json_node_get_object (node), "name", NULL);
      if (name != NULL)
        g_strv_builder_add (builder, name);
    }

  return g_strv_builder_end (builder);
}

JsonObject *
mcp_tool_history_load_arguments (McpToolHistory  *self,
                                 const char      *qualified_name,
                                 const char      *set_name,
                                 GError         **error)
{
  g_autoptr(JsonObject) root = NULL;
  g_autoptr(JsonNode) copy = NULL;
  JsonObject *set;
  JsonNode *arguments;

  g_return_val_if_fail (MCP_IS_TOOL_HISTORY (self), NULL);
  g_return_val_if_fail (qualified_name != NULL, NULL);
  g_return_val_if_fail (set_name != NULL, NULL);

  root = load_root (self, error);
  if (root == NULL)
    return NULL;

  set = find_set (get_sets (root, qualified_name), set_name, NULL);
  if (set == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("No arguments saved as “%s” for %s in “%s”"),
                   set_name, qualified_name, self->path);
      return NULL;
    }

  arguments = json_object_get_member (set, "arguments");
  if (arguments == NULL || !JSON_NODE_HOLDS_OBJECT (arguments))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("The arguments saved as “%s” for %s in “%s” are not a JSON object"),
                   set_name, qualified_name, self->path);
      return NULL;
    }

  copy = copy_object_node (json_node_get_object (arguments));
  return json_object_ref (json_node_get_object (copy));
}

gboolean
mcp_tool_history_delete_arguments (McpToolHistory  *self,
                                   const char      *qualified_name,
                                   const char      *set_name,
                                   GError         **error)
{
  g_autoptr(JsonObject) root = NULL;
  JsonArray *sets;
  guint index;

  g_return_val_if_fail (MCP_IS_TOOL_HISTORY (self), FALSE);
  g_return_val_if_fail (qualified_name != NULL, FALSE);
  g_return_val_if_fail (set_name != NULL, FALSE);

  root = load_root (self, error);
  if (root == NULL)
    return FALSE;

  sets = get_sets (root, qualified_name);
  if (find_set (sets, set_name, &index) == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   _("No arguments saved as “%s” for %s in “%s”"),
                   set_name, qualified_name, self->path);
      return FALSE;
    }

  json_array_remove_element (sets, index);
  if (json_array_get_length (sets) == 0)
    json_object_remove_member (json_object_get_object_member (root, "tools"), qualified_name);

  return save_root (self, root, error);
}
