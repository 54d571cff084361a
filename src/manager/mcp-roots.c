/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-roots"

#include "config.h"

#include "mcp-roots.h"

#include <errno.h>

#include <glib/gstdio.h>
#include <glib/gi18n.h>

#include "mcp-config-file.h"
#include "mcp-error.h"
#include "mcp-json-private.h"

/* roots.json: {"<project folder or empty>": {"<server>": ["/abs/path", …]}} */

struct _McpRoots
{
  GObject     parent_instance;

  /* owned */
  char       *project_dir;  /* canonical; NULL: none */
  char       *path;         /* the roots file */
  JsonObject *file;         /* the whole file, other projects' folders included */
};

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (McpRoots, mcp_roots, G_TYPE_OBJECT)

static const char *
project_key (McpRoots *self)
{
  return self->project_dir != NULL ? self->project_dir : "";
}

/* The file's folders for @server in this project, or NULL. */
static JsonArray *
lookup_added (McpRoots   *self,
              const char *server)
{
  JsonNode *project = json_object_get_member (self->file, project_key (self));
  JsonNode *added;

  if (project == NULL || !JSON_NODE_HOLDS_OBJECT (project))
    return NULL;

  added = json_object_get_member (json_node_get_object (project), server);
  if (added == NULL || !JSON_NODE_HOLDS_ARRAY (added))
    return NULL;

  return json_node_get_array (added);
}

static const char *
element_path (JsonArray *array,
              guint      index)
{
  JsonNode *node = json_array_get_element (array, index);

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

static gint
find_path (JsonArray  *array,
           const char *path)
{
  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    if (g_strcmp0 (element_path (array, i), path) == 0)
      return (gint) i;

  return -1;
}

/* A file that does not parse is set aside, named in a message, rather than
 * overwritten by the next change. */
static void
set_aside (McpRoots     *self,
           const GError *why)
{
  g_autofree char *aside = g_strdup_printf ("%s.corrupt-%" G_GINT64_FORMAT,
                                            self->path, g_get_real_time () / G_USEC_PER_SEC);

  if (g_rename (self->path, aside) != 0)
    {
      int saved_errno = errno;

      /* Translators: the first %s is a file, the second what is wrong with it, the third the name it was to get, the last the system's error */
      g_message (_("The roots file “%s” is not valid (%s) and could not be set aside as “%s”: %s; "
                   "it will be replaced at the next change"),
                 self->path, why->message, aside, g_strerror (saved_errno));
      return;
    }

  /* Translators: the first %s is a file, the second what is wrong with it, the third its new name */
  g_message (_("The roots file “%s” is not valid (%s); it was set aside as “%s” and the "
               "added folders start empty"),
             self->path, why->message, aside);
}

static void
load (McpRoots *self)
{
  g_autofree char *contents = NULL;
  gsize length = 0;
  g_autoptr(JsonNode) parsed = NULL;
  g_autoptr(GError) error = NULL;
  JsonNode *root;

  if (!g_file_get_contents (self->path, &contents, &length, &error))
    {
      if (!g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        g_message (_("Could not read the roots file “%s”: %s"), self->path, error->message);
      return;
    }

  if ((parsed = mcp_json_parse (contents, length, &error)) == NULL)
    {
      set_aside (self, error);
      return;
    }

  root = parsed;
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_autoptr(GError) not_object = g_error_new_literal (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                                          _("not a JSON object"));

      set_aside (self, not_object);
      return;
    }

  g_clear_pointer (&self->file, json_object_unref);
  self->file = json_object_ref (json_node_get_object (root));
}

typedef struct
{
  McpRoots   *self;
  const char *server;
} SaveData;

/* Only this project's folders of @server change: another window or
 * process may have changed the others since the file was read. */
static gboolean
edit_roots_cb (McpJsonDocument  *document,
               gpointer          user_data,
               GError          **error)
{
  SaveData *data = user_data;
  const char * const path[] = { project_key (data->self), data->server, NULL };
  JsonArray *added = lookup_added (data->self, data->server);
  g_autoptr(JsonNode) value = NULL;

  if (added == NULL || json_array_get_length (added) == 0)
    {
      JsonNode *project;

      if (!mcp_json_document_remove (document, path, error))
        return FALSE;
      /* no empty objects left behind */
      project = mcp_json_document_lookup (document, (const char * const[]) { path[0], NULL });
      if (project != NULL && JSON_NODE_HOLDS_OBJECT (project) &&
          json_object_get_size (json_node_get_object (project)) == 0)
        return mcp_json_document_remove (document, (const char * const[]) { path[0], NULL }, error);
      return TRUE;
    }

  value = json_node_init_array (json_node_alloc (), added);
  return mcp_json_document_set (document, path, value, error);
}

static gboolean
save (McpRoots    *self,
      const char  *server,
      GError     **error)
{
  g_autoptr(McpJsonDocument) written = NULL;
  g_autoptr(GError) local_error = NULL;
  SaveData data = { self, server };
  JsonNode *root;

  if (!mcp_config_file_edit (self->path, MCP_JSON_DIALECT_JSON, FALSE, edit_roots_cb, &data,
                             &written, NULL, &local_error))
    {
      g_set_error (error, local_error->domain, local_error->code,
                   _("Could not save the roots file: %s"), local_error->message);
      return FALSE;
    }

  /* what the others changed meanwhile is ours now too */
  root = mcp_json_document_get_root (written);
  if (JSON_NODE_HOLDS_OBJECT (root))
    {
      g_autoptr(JsonNode) copy = json_node_copy (root);

      g_clear_pointer (&self->file, json_object_unref);
      self->file = json_object_ref (json_node_get_object (copy));
    }

  return TRUE;
}

/* A deep copy, to put back when a change could not be written. */
static JsonObject *
copy_file (McpRoots *self)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonNode) copy = NULL;
  g_autofree char *text = NULL;

  /* json_node_copy() would share the members. */
  json_node_set_object (node, self->file);
  text = json_to_string (node, FALSE);
  copy = json_from_string (text, NULL);
  g_assert (copy != NULL && JSON_NODE_HOLDS_OBJECT (copy));
  return json_object_ref (json_node_get_object (copy));
}

static gboolean
commit (McpRoots    *self,
        JsonObject  *before,
        const char  *server,
        GError     **error)
{
  if (!save (self, server, error))
    {
      json_object_unref (self->file);
      self->file = json_object_ref (before);
      return FALSE;
    }

  g_signal_emit (self, signals[CHANGED], 0, server);
  return TRUE;
}

static void
mcp_roots_finalize (GObject *object)
{
  McpRoots *self = MCP_ROOTS (object);

  g_clear_pointer (&self->project_dir, g_free);
  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->file, json_object_unref);

  G_OBJECT_CLASS (mcp_roots_parent_class)->finalize (object);
}

static void
mcp_roots_class_init (McpRootsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mcp_roots_finalize;

  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
mcp_roots_init (McpRoots *self)
{
  self->file = json_object_new ();
}

McpRoots *
mcp_roots_new (const char *project_dir)
{
  McpRoots *self = g_object_new (MCP_TYPE_ROOTS, NULL);

  if (project_dir != NULL && *project_dir != '\0')
    self->project_dir = g_canonicalize_filename (project_dir, NULL);
  self->path = g_build_filename (g_get_user_data_dir (), "plugboard", "roots.json", NULL);
  load (self);

  return self;
}

const char *
mcp_roots_get_project_dir (McpRoots *self)
{
  g_return_val_if_fail (MCP_IS_ROOTS (self), NULL);

  return self->project_dir;
}

static void
add_root (JsonArray  *roots,
          GHashTable *seen,
          const char *path)
{
  g_autofree char *uri = NULL;
  g_autofree char *name = NULL;
  JsonObject *root;

  if (!g_hash_table_add (seen, (gpointer) path))
    return;

  uri = g_filename_to_uri (path, NULL, NULL);
  if (uri == NULL)
    return;
  name = g_path_get_basename (path);

  root = json_object_new ();
  json_object_set_string_member (root, "uri", uri);
  json_object_set_string_member (root, "name", name);
  json_array_add_object_element (roots, root);
}

gboolean
mcp_roots_offers_project_dir (McpConfigScope scope)
{
  return scope == MCP_CONFIG_SCOPE_PROJECT || scope == MCP_CONFIG_SCOPE_LOCAL;
}

GStrv
mcp_roots_dup_paths (McpRoots       *self,
                     const char     *server,
                     McpConfigScope  scope)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  JsonArray *added;

  g_return_val_if_fail (MCP_IS_ROOTS (self), NULL);
  g_return_val_if_fail (server != NULL, NULL);

  if (self->project_dir != NULL && mcp_roots_offers_project_dir (scope))
    {
      g_hash_table_add (seen, self->project_dir);
      g_strv_builder_add (builder, self->project_dir);
    }

  added = lookup_added (self, server);
  for (guint i = 0; added != NULL && i < json_array_get_length (added); i++)
    {
      const char *path = element_path (added, i);

      if (path != NULL && g_path_is_absolute (path) && g_hash_table_add (seen, (gpointer) path))
        g_strv_builder_add (builder, path);
    }

  return g_strv_builder_end (builder);
}

JsonArray *
mcp_roots_dup_json (McpRoots       *self,
                    const char     *server,
                    McpConfigScope  scope)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_auto(GStrv) paths = NULL;
  JsonArray *roots;

  g_return_val_if_fail (MCP_IS_ROOTS (self), NULL);
  g_return_val_if_fail (server != NULL, NULL);

  paths = mcp_roots_dup_paths (self, server, scope);
  roots = json_array_new ();
  for (guint i = 0; paths[i] != NULL; i++)
    add_root (roots, seen, paths[i]);

  return roots;
}

GStrv
mcp_roots_dup_added (McpRoots   *self,
                     const char *server)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  JsonArray *added;

  g_return_val_if_fail (MCP_IS_ROOTS (self), NULL);
  g_return_val_if_fail (server != NULL, NULL);

  added = lookup_added (self, server);
  for (guint i = 0; added != NULL && i < json_array_get_length (added); i++)
    {
      const char *path = element_path (added, i);

      if (path != NULL && g_path_is_absolute (path))
        g_strv_builder_add (builder, path);
    }

  return g_strv_builder_end (builder);
}

gboolean
mcp_roots_add (McpRoots    *self,
               const char  *server,
               const char  *path,
               GError     **error)
{
  g_autofree char *canonical = NULL;
  g_autoptr(JsonObject) before = NULL;
  JsonNode *project_node;
  JsonObject *project;
  JsonArray *added;

  g_return_val_if_fail (MCP_IS_ROOTS (self), FALSE);
  g_return_val_if_fail (server != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!g_path_is_absolute (path))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_ARGUMENT,
                   /* Translators: the first %s is a folder, the second a server's name */
                   _("Cannot add “%s” as a root of “%s”: a root must be a full path "
                     "starting with “/”"), path, server);
      return FALSE;
    }

  canonical = g_canonicalize_filename (path, NULL);
  if (!g_file_test (canonical, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_ARGUMENT,
                   g_file_test (canonical, G_FILE_TEST_EXISTS)
                   ? _("Cannot add “%s” as a root of “%s”: it is not a folder")
                   : _("Cannot add “%s” as a root of “%s”: no such folder"),
                   canonical, server);
      return FALSE;
    }

  if (find_path (lookup_added (self, server), canonical) >= 0)
    return TRUE;

  before = copy_file (self);

  project_node = json_object_get_member (self->file, project_key (self));
  if (project_node == NULL || !JSON_NODE_HOLDS_OBJECT (project_node))
    {
      project = json_object_new ();
      json_object_set_object_member (self->file, project_key (self), project);
    }
  else
    {
      project = json_node_get_object (project_node);
    }

  added = lookup_added (self, server);
  if (added == NULL)
    {
      added = json_array_new ();
      json_object_set_array_member (project, server, added);
    }
  json_array_add_string_element (added, canonical);

  return commit (self, before, server, error);
}

gboolean
mcp_roots_remove (McpRoots    *self,
                  const char  *server,
                  const char  *path,
                  GError     **error)
{
  g_autofree char *canonical = NULL;
  g_autoptr(JsonObject) before = NULL;
  JsonArray *added;
  gint index;

  g_return_val_if_fail (MCP_IS_ROOTS (self), FALSE);
  g_return_val_if_fail (server != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  canonical = g_path_is_absolute (path) ? g_canonicalize_filename (path, NULL) : g_strdup (path);
  added = lookup_added (self, server);
  index = find_path (added, canonical);
  if (index < 0)
    index = find_path (added, path);
  if (index < 0)
    return TRUE;

  before = copy_file (self);
  json_array_remove_element (added, index);

  /* No empty objects left behind for a server or a project. */
  if (json_array_get_length (added) == 0)
    {
      JsonObject *project = json_object_get_object_member (self->file, project_key (self));

      json_object_remove_member (project, server);
      if (json_object_get_size (project) == 0)
        json_object_remove_member (self->file, project_key (self));
    }

  return commit (self, before, server, error);
}
