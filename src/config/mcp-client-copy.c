/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client-copy"

#include "config.h"

#include "mcp-client-copy.h"

#include <string.h>
#include <sys/stat.h>

#include <glib/gi18n.h>

#include "mcp-config-file.h"
#include "mcp-server-config-private.h"

/* Every client's servers read (the scan), the same server found across
 * clients, and a copy from one client to others: planned (each target
 * file's new text, a diff and notes) without writing, then applied file by
 * file under the lock, refusing a file another program changed since the
 * plan. The diff itself is in mcp-client-copy-diff.c. */

void
mcp_client_server_free (McpClientServer *self)
{
  if (self == NULL)
    return;

  g_free (self->file);
  g_free (self->name);
  g_clear_pointer (&self->native, json_object_unref);
  g_clear_pointer (&self->entry, json_object_unref);
  g_strfreev (self->notes);
  g_free (self);
}

void
mcp_client_summary_free (McpClientSummary *self)
{
  if (self == NULL)
    return;

  g_clear_pointer (&self->files, g_ptr_array_unref);
  g_clear_pointer (&self->file_errors, g_ptr_array_unref);
  g_clear_pointer (&self->servers, g_ptr_array_unref);
  g_free (self);
}

void
mcp_copy_target_free (McpCopyTarget *self)
{
  if (self == NULL)
    return;

  g_free (self->path);
  g_clear_pointer (&self->before, g_bytes_unref);
  g_clear_pointer (&self->after, g_bytes_unref);
  g_free (self->diff);
  g_clear_pointer (&self->notes, g_ptr_array_unref);
  g_clear_error (&self->error);
  g_free (self);
}

/* Where the copy and the scan look */
typedef struct
{
  char *home;
  char *config_home;
  char *plugboard_dir;
  char *project_dir;
} Places;

static void
places_init (Places     *places,
             const char *home,
             const char *config_home,
             const char *plugboard_dir,
             const char *project_dir)
{
  places->home = g_strdup (home != NULL ? home : g_get_home_dir ());
  places->config_home = g_strdup (config_home != NULL ? config_home : g_get_user_config_dir ());
  places->plugboard_dir = g_strdup (plugboard_dir);
  places->project_dir = project_dir != NULL ? g_canonicalize_filename (project_dir, NULL) : NULL;
}

static void
places_clear (Places *places)
{
  g_free (places->home);
  g_free (places->config_home);
  g_free (places->plugboard_dir);
  g_free (places->project_dir);
}

/* ------------------------------------------------------------------------ */
/* Reading one file                                                         */

/* The text of @file; NULL and no error when there is none */
static GBytes *
read_file (McpClientFile  *file,
           GError        **error)
{
  g_autoptr(GError) local_error = NULL;
  GBytes *bytes = mcp_config_file_read (file->path, &local_error);

  if (bytes == NULL && !g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    g_propagate_error (error, g_steal_pointer (&local_error));
  return bytes;
}

/* The object at @names under @root: NULL when a step is missing (or
 * null); an error when one is not an object */
static JsonObject *
lookup_object (JsonNode            *root,
               const char * const  *names,
               const char          *path,
               GError             **error)
{
  JsonNode *node = root;

  for (guint i = 0; names[i] != NULL; i++)
    {
      if (!JSON_NODE_HOLDS_OBJECT (node))
        break;
      node = json_object_get_member (json_node_get_object (node), names[i]);
      if (node == NULL || JSON_NODE_HOLDS_NULL (node))
        return NULL;
    }

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autofree char *where = mcp_json_path_from_names (names, G_MAXUINT);

      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG, _("%s: %s: expected an object"), path, where);
      return NULL;
    }

  return json_node_get_object (node);
}

/* VS Code's "inputs", beside the object of servers */
static JsonArray *
lookup_inputs (JsonNode      *root,
               McpClientFile *file)
{
  guint length = g_strv_length (file->container);
  g_autofree char **parent = g_new0 (char *, length + 1);
  JsonObject *holder;
  JsonNode *inputs;

  if (file->kind != MCP_CLIENT_KIND_VSCODE)
    return NULL;

  memcpy (parent, file->container, (length - 1) * sizeof (char *));
  holder = length > 1 ? lookup_object (root, (const char * const *) parent, file->path, NULL)
                      : (JSON_NODE_HOLDS_OBJECT (root) ? json_node_get_object (root) : NULL);
  inputs = holder != NULL ? json_object_get_member (holder, "inputs") : NULL;
  return inputs != NULL && JSON_NODE_HOLDS_ARRAY (inputs) ? json_node_get_array (inputs) : NULL;
}

/* "PATH: $.mcpServers.NAME" for messages */
static char *
entry_where (McpClientFile *file,
             const char    *name)
{
  g_autofree char *container = mcp_json_path_from_names ((const char * const *) file->container, G_MAXUINT);

  return mcp_json_path_append_member (container, name);
}

/* ------------------------------------------------------------------------ */
/* The scan                                                                 */

static void
add_file_error (McpClientSummary *summary,
                char             *message)
{
  for (guint i = 0; i < summary->file_errors->len; i++)
    {
      if (g_str_equal (g_ptr_array_index (summary->file_errors, i), message))
        {
          g_free (message);
          return;
        }
    }
  g_ptr_array_add (summary->file_errors, message);
}

static void
scan_file (McpClientSummary *summary,
           McpClientFile    *file,
           const Places     *places)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = read_file (file, &error);
  g_autoptr(JsonNode) root = NULL;
  McpClientShapeContext context = { places->home, places->project_dir, NULL, NULL };
  JsonObject *servers;
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;
  gsize length;
  const char *text;

  if (bytes == NULL)
    {
      if (error != NULL)
        add_file_error (summary, g_strdup (error->message));
      return;
    }

  text = g_bytes_get_data (bytes, &length);
  root = mcp_json_document_parse (text, length, file->dialect, &error);
  if (root == NULL)
    {
      add_file_error (summary, g_strdup_printf ("%s: %s", file->path, error->message));
      return;
    }

  servers = lookup_object (root, (const char * const *) file->container, file->path, &error);
  if (servers == NULL)
    {
      if (error != NULL)
        add_file_error (summary, g_strdup (error->message));
      return;
    }
  context.inputs = lookup_inputs (root, file);

  json_object_iter_init_ordered (&iter, servers);
  while (json_object_iter_next_ordered (&iter, &name, &value))
    {
      g_autofree char *where = entry_where (file, name);
      g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(JsonObject) entry = NULL;
      g_autoptr(McpServerConfig) config = NULL;
      McpClientServer *server;

      g_clear_error (&error);
      if (!JSON_NODE_HOLDS_OBJECT (value))
        {
          add_file_error (summary, g_strdup_printf (_("%s: %s: expected an object"), file->path, where));
          continue;
        }

      entry = mcp_client_shape_to_plugboard (file->kind, name, json_node_get_object (value), &context,
                                             notes, &error);
      if (entry != NULL)
        config = mcp_server_config_new_from_json (name, file->scope, entry, file->path, where, &error);
      if (config == NULL)
        {
          if (entry == NULL)
            add_file_error (summary, g_strdup_printf ("%s: %s: %s", file->path, where, error->message));
          else
            add_file_error (summary, g_strdup (error->message));
          continue;
        }

      server = g_new0 (McpClientServer, 1);
      server->kind = file->kind;
      server->scope = file->scope;
      server->file = g_strdup (file->path);
      server->name = g_strdup (name);
      server->native = json_object_ref (json_node_get_object (value));
      server->entry = g_steal_pointer (&entry);
      g_ptr_array_add (notes, NULL);
      server->notes = (char **) g_ptr_array_steal (notes, NULL);
      g_ptr_array_add (summary->servers, server);
    }
}

static void
scan_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  const Places *places = task_data;
  g_autoptr(GPtrArray) summaries = g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_client_summary_free);
  GError *error = NULL;

  for (guint kind = 0; kind < MCP_CLIENT_KIND_COUNT; kind++)
    {
      McpClientSummary *summary = g_new0 (McpClientSummary, 1);

      if (g_cancellable_set_error_if_cancelled (cancellable, &error))
        {
          mcp_client_summary_free (summary);
          g_task_return_error (task, error);
          return;
        }

      summary->kind = kind;
      summary->present = mcp_client_kind_is_present (kind, places->home, places->config_home);
      summary->files = mcp_client_kind_dup_files (kind, places->home, places->config_home,
                                                  places->plugboard_dir, places->project_dir);
      summary->file_errors = g_ptr_array_new_with_free_func (g_free);
      summary->servers = g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_client_server_free);
      for (guint i = 0; i < summary->files->len; i++)
        scan_file (summary, g_ptr_array_index (summary->files, i), places);
      g_ptr_array_add (summaries, summary);
    }

  g_task_return_pointer (task, g_steal_pointer (&summaries), (GDestroyNotify) g_ptr_array_unref);
}

static void
places_free (Places *places)
{
  places_clear (places);
  g_free (places);
}

void
mcp_clients_scan_async (const char          *home,
                        const char          *config_home,
                        const char          *plugboard_dir,
                        const char          *project_dir,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Places *places = g_new0 (Places, 1);

  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  places_init (places, home, config_home, plugboard_dir, project_dir);
  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_clients_scan_async);
  g_task_set_task_data (task, places, (GDestroyNotify) places_free);
  g_task_run_in_thread (task, scan_thread);
}

GPtrArray *
mcp_clients_scan_finish (GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_clients_scan_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

GPtrArray *
mcp_clients_find_server (GPtrArray  *summaries,
                         const char *name,
                         gboolean   *differ)
{
  GPtrArray *found = g_ptr_array_new ();
  g_autoptr(JsonNode) first = NULL;
  gboolean different = FALSE;

  g_return_val_if_fail (summaries != NULL, found);
  g_return_val_if_fail (name != NULL, found);

  for (guint i = 0; i < summaries->len; i++)
    {
      McpClientSummary *summary = g_ptr_array_index (summaries, i);

      for (guint j = 0; j < summary->servers->len; j++)
        {
          McpClientServer *server = g_ptr_array_index (summary->servers, j);
          g_autoptr(JsonNode) node = NULL;

          if (!g_str_equal (server->name, name))
            continue;

          g_ptr_array_add (found, server);
          node = json_node_init_object (json_node_alloc (), server->entry);
          if (first == NULL)
            first = g_steal_pointer (&node);
          else if (!mcp_json_equal (first, node))
            different = TRUE;
        }
    }

  if (differ != NULL)
    *differ = different;
  return found;
}

/* ------------------------------------------------------------------------ */
/* The plan                                                                 */

typedef struct
{
  Places          places;
  McpClientKind   from;
  McpConfigScope  from_scope;
  char          **names;
  McpClientKind  *targets;
  guint           n_targets;
  McpConfigScope  to_scope;
  McpCopyFlags    flags;
} PlanData;

static void
plan_data_free (PlanData *data)
{
  places_clear (&data->places);
  g_strfreev (data->names);
  g_free (data->targets);
  g_free (data);
}

static McpClientFile *
find_file (GPtrArray      *files,
           McpConfigScope  scope)
{
  for (guint i = 0; i < files->len; i++)
    {
      McpClientFile *file = g_ptr_array_index (files, i);

      if (file->scope == scope)
        return file;
    }
  return NULL;
}

static const char *
scope_name (McpConfigScope scope)
{
  switch (scope)
    {
    case MCP_CONFIG_SCOPE_USER:
      return "user";
    case MCP_CONFIG_SCOPE_PROJECT:
      return "project";
    case MCP_CONFIG_SCOPE_LOCAL:
      return "local";
    default:
      return "?";
    }
}

/* The path to @name's entry in @file */
static char **
entry_path (McpClientFile *file,
            const char    *name)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_strv_builder_addv (builder, (const char **) file->container);
  g_strv_builder_add (builder, name);
  return g_strv_builder_end (builder);
}

/* The names and Plugboard-shaped entries of the servers to copy (in the
 * source file's order), or an error naming what is wrong */
static gboolean
read_source (PlanData      *data,
             GPtrArray     *names,
             GPtrArray     *entries,
             GError       **error)
{
  g_autoptr(GPtrArray) files = mcp_client_kind_dup_files (data->from, data->places.home, data->places.config_home,
                                                          data->places.plugboard_dir, data->places.project_dir);
  McpClientFile *file = find_file (files, data->from_scope);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(JsonNode) root = NULL;
  McpClientShapeContext context = { data->places.home, data->places.project_dir, NULL, NULL };
  JsonObject *servers;
  const char *text;
  gsize length;

  if (file == NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   /* Translators: the first %s is a client's name, the second a scope: "user", "project", "local" */
                   _("%s has no %s settings file here"),
                   mcp_client_kind_get_display_name (data->from), scope_name (data->from_scope));
      return FALSE;
    }

  bytes = read_file (file, error);
  if (bytes == NULL && error != NULL && *error != NULL)
    return FALSE;
  text = bytes != NULL ? g_bytes_get_data (bytes, &length) : NULL;
  root = mcp_json_document_parse (text, bytes != NULL ? length : 0, file->dialect, error);
  if (root == NULL)
    {
      g_prefix_error (error, "%s: ", file->path);
      return FALSE;
    }
  servers = lookup_object (root, (const char * const *) file->container, file->path, error);
  if (servers == NULL && error != NULL && *error != NULL)
    return FALSE;
  context.inputs = lookup_inputs (root, file);

  if (data->names == NULL)
    {
      g_autoptr(GList) members = servers != NULL ? json_object_get_members (servers) : NULL;

      for (GList *l = members; l != NULL; l = l->next)
        g_ptr_array_add (names, g_strdup (l->data));
    }
  else
    {
      for (guint i = 0; data->names[i] != NULL; i++)
        g_ptr_array_add (names, g_strdup (data->names[i]));
    }

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      JsonNode *node = servers != NULL ? json_object_get_member (servers, name) : NULL;
      JsonObject *entry;

      if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                       /* Translators: the first %s is a server's name, the second a file */
                       _("There is no server “%s” in %s"), name, file->path);
          return FALSE;
        }
      entry = mcp_client_shape_to_plugboard (data->from, name, json_node_get_object (node), &context, NULL, error);
      if (entry == NULL)
        {
          g_autofree char *where = entry_where (file, name);

          g_prefix_error (error, "%s: %s: ", file->path, where);
          return FALSE;
        }
      g_ptr_array_add (entries, entry);
    }

  return TRUE;
}

/* Every env and header value (not a mere ${reference}) of the servers in
 * @root's container: what the diff masks */
static void
collect_secrets (JsonNode      *root,
                 McpClientFile *file,
                 GPtrArray     *secrets)
{
  JsonObject *servers = root != NULL ? lookup_object (root, (const char * const *) file->container, file->path, NULL)
                                     : NULL;
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;

  if (servers == NULL)
    return;

  json_object_iter_init_ordered (&iter, servers);
  while (json_object_iter_next_ordered (&iter, &name, &value))
    {
      static const char * const members[] = { "env", "headers", NULL };
      g_autoptr(JsonObject) entry = NULL;

      if (JSON_NODE_HOLDS_OBJECT (value))
        entry = mcp_client_shape_to_plugboard (file->kind, name, json_node_get_object (value), NULL, NULL, NULL);
      for (guint m = 0; entry != NULL && members[m] != NULL; m++)
        {
          JsonObject *values = mcp_json_optional_object (entry, members[m], "server", name);
          JsonObjectIter inner;
          const char *key;
          JsonNode *secret;

          if (values == NULL)
            continue;
          json_object_iter_init_ordered (&inner, values);
          while (json_object_iter_next_ordered (&inner, &key, &secret))
            {
              const char *text = mcp_server_config_is_string (secret) ? json_node_get_string (secret) : NULL;

              if (text != NULL && strlen (text) >= 3 && strstr (text, "${") == NULL)
                g_ptr_array_add (secrets, g_strdup (text));
            }
        }
    }
}

static gint
by_length_down (gconstpointer a,
                gconstpointer b)
{
  gsize la = strlen (*(const char * const *) a);
  gsize lb = strlen (*(const char * const *) b);

  return la < lb ? 1 : la > lb ? -1 : 0;
}

static char *
mask (const char *text,
      GPtrArray  *secrets)
{
  GString *masked = g_string_new (text);

  for (guint i = 0; i < secrets->len; i++)
    g_string_replace (masked, g_ptr_array_index (secrets, i), "•••", 0);
  return g_string_free (masked, FALSE);
}

static char *
masked_diff (McpCopyTarget   *target,
             McpClientFile   *file,
             McpJsonDocument *document)
{
  g_autoptr(GPtrArray) secrets = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(JsonNode) before_root = NULL;
  g_autofree char *text = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  gsize length = 0;
  const char *data = target->before != NULL ? g_bytes_get_data (target->before, &length) : NULL;

  /* the file's bytes are not a string: a copy that is (a NUL inside cuts
   * the text there, which is only the preview's loss) */
  text = g_strndup (data != NULL ? data : "", length);

  before_root = mcp_json_document_parse (text, strlen (text), file->dialect, NULL);
  collect_secrets (before_root, file, secrets);
  collect_secrets (mcp_json_document_get_root (document), file, secrets);
  g_ptr_array_sort (secrets, by_length_down);

  before = mask (text, secrets);
  after = mask (mcp_json_document_get_text (document, NULL), secrets);
  return mcp_text_diff (target->path, before, after);
}

static void
target_note (McpCopyTarget *target,
             const char    *format,
             ...) G_GNUC_PRINTF (2, 3);

static void
target_note (McpCopyTarget *target,
             const char    *format,
             ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (target->notes, g_strdup_vprintf (format, args));
  va_end (args);
}

/* The change to one target file */
static McpCopyTarget *
plan_target (PlanData      *data,
             McpClientKind  kind,
             McpClientFile *file,
             GPtrArray     *names,
             GPtrArray     *entries)
{
  McpCopyTarget *target = g_new0 (McpCopyTarget, 1);
  g_autoptr(McpJsonDocument) document = NULL;
  g_autoptr(JsonArray) new_inputs = kind == MCP_CLIENT_KIND_VSCODE ? json_array_new () : NULL;
  McpClientShapeContext context = { data->places.home, data->places.project_dir, NULL, new_inputs };
  g_autoptr(GBytes) changed = NULL;
  const char *text = NULL;
  gsize length = 0;

  target->kind = kind;
  target->scope = file->scope;
  target->path = g_strdup (file->path);
  target->notes = g_ptr_array_new_with_free_func (g_free);

  target->before = read_file (file, &target->error);
  if (target->error != NULL)
    return target;
  if (target->before != NULL)
    text = g_bytes_get_data (target->before, &length);

  document = mcp_json_document_new (text, length, file->dialect, &target->error);
  if (document == NULL)
    {
      g_prefix_error (&target->error, _("%s: not changed, because it does not parse: "), file->path);
      return target;
    }
  context.inputs = lookup_inputs (mcp_json_document_get_root (document), file);

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      JsonObject *entry = g_ptr_array_index (entries, i);
      g_auto(GStrv) path = entry_path (file, name);
      JsonNode *existing = mcp_json_document_lookup (document, (const char * const *) path);
      JsonObject *base = existing != NULL && JSON_NODE_HOLDS_OBJECT (existing) ? json_node_get_object (existing) : NULL;
      g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(JsonObject) native = NULL;
      g_autoptr(JsonNode) node = NULL;
      gboolean same;

      native = mcp_client_shape_from_plugboard (kind, name, entry, base, &context, notes, &target->error);
      if (native == NULL)
        return target;
      node = json_node_init_object (json_node_alloc (), native);
      same = existing != NULL && mcp_json_equal (existing, node);

      if (existing != NULL && !same && !(data->flags & MCP_COPY_FLAGS_REPLACE))
        {
          g_set_error (&target->error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                       /* Translators: the first %s is a server's name, the second a file */
                       _("%s has a server “%s” already, set up otherwise: copy it with replace to "
                         "replace it"),
                       file->path, name);
          return target;
        }

      if (same)
        /* Translators: %s is a server's name */
        target_note (target, _("%s: the same already"), name);
      else if (existing != NULL)
        /* Translators: %s is a server's name */
        target_note (target, _("%s: replaced"), name);
      else
        /* Translators: %s is a server's name */
        target_note (target, _("%s: added"), name);
      for (guint n = 0; n < notes->len; n++)
        target_note (target, "%s: %s", name, (const char *) notes->pdata[n]);

      if (!same &&
          !(existing != NULL ? mcp_json_document_update (document, (const char * const *) path, node, &target->error)
                             : mcp_json_document_set (document, (const char * const *) path, node, &target->error)))
        return target;
    }

  /* the inputs VS Code asks for the secrets that became ${input:ID} */
  if (new_inputs != NULL && json_array_get_length (new_inputs) > 0)
    {
      guint depth = g_strv_length (file->container);
      g_autofree char **inputs_path = g_new0 (char *, depth + 1);

      memcpy (inputs_path, file->container, (depth - 1) * sizeof (char *));
      inputs_path[depth - 1] = (char *) "inputs";
      for (guint i = 0; i < json_array_get_length (new_inputs); i++)
        {
          if (!mcp_json_document_append (document, (const char * const *) inputs_path,
                                         json_array_get_element (new_inputs, i), &target->error))
            return target;
        }
    }

  changed = mcp_json_document_dup_bytes (document);
  if (target->before == NULL || !g_bytes_equal (target->before, changed))
    {
      target->after = g_steal_pointer (&changed);
      target->diff = masked_diff (target, file, document);
    }

  return target;
}

static void
plan_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  PlanData *data = task_data;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  g_autoptr(GPtrArray) plan = g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_copy_target_free);
  g_autoptr(GPtrArray) source_files = NULL;
  McpClientFile *source;
  GError *error = NULL;

  if (!read_source (data, names, entries, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  source_files = mcp_client_kind_dup_files (data->from, data->places.home, data->places.config_home,
                                            data->places.plugboard_dir, data->places.project_dir);
  source = find_file (source_files, data->from_scope);

  for (guint t = 0; t < data->n_targets; t++)
    {
      g_autoptr(GPtrArray) files = NULL;
      McpClientFile *file;
      gboolean planned = FALSE;

      if (g_cancellable_set_error_if_cancelled (cancellable, &error))
        {
          g_task_return_error (task, error);
          return;
        }

      files = mcp_client_kind_dup_files (data->targets[t], data->places.home, data->places.config_home,
                                         data->places.plugboard_dir, data->places.project_dir);
      file = find_file (files, data->to_scope);
      if (file == NULL)
        file = find_file (files, MCP_CONFIG_SCOPE_USER);

      /* one target per file (Plugboard's and Claude Code's .mcp.json are one) */
      for (guint i = 0; i < plan->len; i++)
        planned |= g_str_equal (((McpCopyTarget *) plan->pdata[i])->path, file->path);
      if (planned)
        continue;

      if (g_str_equal (file->path, source->path) &&
          g_strv_equal ((const char * const *) file->container, (const char * const *) source->container))
        {
          McpCopyTarget *target = g_new0 (McpCopyTarget, 1);

          target->kind = data->targets[t];
          target->scope = file->scope;
          target->path = g_strdup (file->path);
          target->notes = g_ptr_array_new_with_free_func (g_free);
          g_set_error (&target->error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                       /* Translators: %s is a file */
                       _("%s is where the servers come from"), file->path);
          g_ptr_array_add (plan, target);
          continue;
        }

      g_ptr_array_add (plan, plan_target (data, data->targets[t], file, names, entries));
    }

  g_task_return_pointer (task, g_steal_pointer (&plan), (GDestroyNotify) g_ptr_array_unref);
}

void
mcp_client_copy_plan_async (McpClientKind         from,
                            McpConfigScope        from_scope,
                            const char * const   *names,
                            const McpClientKind  *targets,
                            guint                 n_targets,
                            McpConfigScope        to_scope,
                            McpCopyFlags          flags,
                            const char           *home,
                            const char           *config_home,
                            const char           *plugboard_dir,
                            const char           *project_dir,
                            GCancellable         *cancellable,
                            GAsyncReadyCallback   callback,
                            gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;
  PlanData *data;

  g_return_if_fail (from < MCP_CLIENT_KIND_COUNT);
  g_return_if_fail (targets != NULL || n_targets == 0);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  data = g_new0 (PlanData, 1);
  places_init (&data->places, home, config_home, plugboard_dir, project_dir);
  data->from = from;
  data->from_scope = from_scope;
  data->names = g_strdupv ((char **) names);
  data->targets = g_memdup2 (targets, n_targets * sizeof (McpClientKind));
  data->n_targets = n_targets;
  data->to_scope = to_scope;
  data->flags = flags;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_client_copy_plan_async);
  g_task_set_task_data (task, data, (GDestroyNotify) plan_data_free);
  g_task_run_in_thread (task, plan_thread);
}

GPtrArray *
mcp_client_copy_plan_finish (GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_client_copy_plan_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ------------------------------------------------------------------------ */
/* Applying the plan                                                        */

static gboolean
apply_target (McpCopyTarget  *target,
              GCancellable   *cancellable,
              GError        **error)
{
  g_autofree char *resolved = mcp_config_file_resolve (target->path);
  g_autofree char *folder = g_path_get_dirname (resolved);
  g_autoptr(McpConfigFileLock) lock = NULL;
  g_autoptr(GBytes) current = NULL;
  g_autoptr(GError) local_error = NULL;
  struct stat st;

  lock = mcp_config_file_lock_folder (folder, cancellable, error);
  if (lock == NULL)
    return FALSE;

  current = mcp_config_file_read (resolved, &local_error);
  if (current == NULL && !g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    {
      g_set_error (error, local_error->domain, local_error->code, _("%s; nothing was changed"),
                   local_error->message);
      return FALSE;
    }

  if ((current == NULL) != (target->before == NULL) ||
      (current != NULL && !g_bytes_equal (current, target->before)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_WRONG_ETAG,
                   /* Translators: %s is a file */
                   _("%s was changed by another program since the preview; it is not written: "
                     "preview the copy again"),
                   target->path);
      return FALSE;
    }

  return mcp_config_file_commit (target->path, resolved, current,
                                 stat (resolved, &st) == 0 ? (st.st_mode & 07777) : 0600,
                                 target->after, TRUE, error);
}

static void
apply_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  GPtrArray *plan = task_data;
  GError *first = NULL;

  for (guint i = 0; i < plan->len; i++)
    {
      McpCopyTarget *target = g_ptr_array_index (plan, i);
      GError *error = NULL;

      if (target->error != NULL)
        {
          if (first == NULL)
            first = g_error_copy (target->error);
          continue;
        }
      if (target->after == NULL)
        continue;

      if (!g_cancellable_set_error_if_cancelled (cancellable, &error))
        apply_target (target, cancellable, &error);
      if (error != NULL)
        {
          target->error = error;
          if (first == NULL)
            first = g_error_copy (error);
        }
    }

  if (first != NULL)
    g_task_return_error (task, first);
  else
    g_task_return_boolean (task, TRUE);
}

void
mcp_client_copy_apply_async (GPtrArray           *plan,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (plan != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_client_copy_apply_async);
  g_task_set_task_data (task, g_ptr_array_ref (plan), (GDestroyNotify) g_ptr_array_unref);
  g_task_run_in_thread (task, apply_thread);
}

gboolean
mcp_client_copy_apply_finish (GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_client_copy_apply_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
