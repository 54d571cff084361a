/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include <string.h>
#include <sys/stat.h>

#include <glib/gi18n.h>

#include "mcp-config-file.h"
#include "mcp-error.h"
#include "mcp-json-document.h"
#include "mcp-json-private.h"
#include "mcp-launch.h"
#include "mcp-server-config-private.h"
#include "mcp-settings-private.h"

/* Every change is a transaction run in a worker thread: under the lock of
 * each file it touches, the files are read as they are now, the change is
 * spliced into their text (McpJsonDocument), and each changed file is
 * backed up and replaced. Nothing is written until the whole change has
 * been made in memory, so a change that cannot be made leaves every file
 * as it was. */

typedef enum
{
  OP_SAVE,          /* add, edit, rename and move, in one */
  OP_REMOVE,
  OP_SET_ENABLED,
  OP_APPROVAL,
  OP_BIND,          /* approvals by name get their digest */
  OP_PERMISSION,    /* a rule into one of allow, ask, deny, or out of all */
} OpKind;

typedef enum
{
  FILE_USER,        /* the user and local scopes */
  FILE_PROJECT,
  N_FILES,
} FileKind;

typedef struct
{
  char            *path;      /* as the settings name it */
  char            *target;    /* where the bytes are (symlinks followed) */
  GBytes          *known;     /* as the settings last read it */
  GBytes          *current;   /* as it is under the lock; NULL: no file */
  guint            mode;
  McpJsonDocument *document;
  gboolean         used;
} FileEdit;

typedef struct
{
  OpKind          kind;
  char           *name;       /* NULL: a new server */
  McpConfigScope  scope;
  char           *new_name;
  McpConfigScope  to;
  JsonNode       *entry;      /* deep copies: the thread's own */
  JsonNode       *expected;
  gboolean        flag;
  char           *project_dir;
  GPtrArray      *bindings;   /* Binding: approvedMcpjsonServers members to write */
  gboolean        untouched;  /* nothing was changed: nothing is written */
  FileEdit        files[N_FILES];
} WriteOp;

typedef struct
{
  char     *name;
  JsonNode *value;            /* {"digest": "sha256:…", "launch": {…}} */
} Binding;

static void
binding_free (Binding *binding)
{
  g_free (binding->name);
  g_clear_pointer (&binding->value, json_node_unref);
  g_free (binding);
}

static void
write_op_free (WriteOp *op)
{
  g_free (op->name);
  g_free (op->new_name);
  g_clear_pointer (&op->entry, json_node_unref);
  g_clear_pointer (&op->expected, json_node_unref);
  g_free (op->project_dir);
  g_clear_pointer (&op->bindings, g_ptr_array_unref);
  for (guint i = 0; i < N_FILES; i++)
    {
      g_free (op->files[i].path);
      g_free (op->files[i].target);
      g_clear_pointer (&op->files[i].known, g_bytes_unref);
      g_clear_pointer (&op->files[i].current, g_bytes_unref);
      g_clear_pointer (&op->files[i].document, mcp_json_document_free);
    }
  g_free (op);
}

static FileKind
file_of (McpConfigScope scope)
{
  return scope == MCP_CONFIG_SCOPE_PROJECT ? FILE_PROJECT : FILE_USER;
}

static FileEdit *
op_file (WriteOp        *op,
         McpConfigScope  scope)
{
  return &op->files[file_of (scope)];
}

/* Where things are */

/* The local scope's object: projects["<dir>"] */
static char **
local_entry_path (WriteOp    *op,
                  const char *member)
{
  const char *path[] = { "projects", op->project_dir, member, NULL };

  return g_strdupv ((char **) path);
}

/* mcpServers[@name] of @scope */
static char **
entry_path (WriteOp        *op,
            McpConfigScope  scope,
            const char     *name)
{
  if (scope == MCP_CONFIG_SCOPE_LOCAL)
    {
      const char *path[] = { "projects", op->project_dir, "mcpServers", name, NULL };

      return g_strdupv ((char **) path);
    }
  else
    {
      const char *path[] = { "mcpServers", name, NULL };

      return g_strdupv ((char **) path);
    }
}

static char **
path_append (char       **path,
             const char  *name)
{
  guint length = g_strv_length (path);
  char **longer = g_new0 (char *, length + 2);

  for (guint i = 0; i < length; i++)
    longer[i] = g_strdup (path[i]);
  longer[length] = g_strdup (name);

  return longer;
}

static gboolean G_GNUC_PRINTF (3, 4)
file_error (GError     **error,
            FileEdit    *file,
            const char  *format,
            ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG, "%s: %s", file->path, what);

  return FALSE;
}

/* A failed edit of a document names the file. */
static gboolean
in_file (gboolean   ok,
         FileEdit  *file,
         GError   **error)
{
  if (!ok)
    g_prefix_error (error, "%s: ", file->path);

  return ok;
}

/* Reading under the lock */

static gboolean
open_file (FileEdit  *file,
           GError   **error)
{
  g_autoptr(GError) local_error = NULL;
  const char *data = NULL;
  gsize length = 0;
  struct stat st;

  file->current = mcp_config_file_read (file->target, &local_error);
  if (file->current == NULL)
    {
      if (!g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        {
          /* the message names the file read: a link's target */
          if (strcmp (file->path, file->target) != 0)
            g_set_error (error, local_error->domain, local_error->code,
                         /* Translators: the first %s is a settings file that is a symbolic link, the second says why the file it leads to could not be read (it names that file) */
                         _("%s is a link: %s; nothing was changed"),
                         file->path, local_error->message);
          else
            g_set_error (error, local_error->domain, local_error->code,
                         /* Translators: %s says why a settings file could not be read; it names the file */
                         _("%s; nothing was changed"), local_error->message);
          return FALSE;
        }
      g_clear_error (&local_error);
      file->mode = 0600;
    }
  else
    {
      data = g_bytes_get_data (file->current, &length);
      file->mode = stat (file->target, &st) == 0 ? (st.st_mode & 07777) : 0600;
    }

  file->document = mcp_json_document_new (data, length, MCP_JSON_DIALECT_JSON, &local_error);
  if (file->document == NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   _("%s: not written, because it does not parse: %s"),
                   file->path, local_error->message);
      return FALSE;
    }
  if (!JSON_NODE_HOLDS_OBJECT (mcp_json_document_get_root (file->document)))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   _("%s: not written, because it is not a JSON object"), file->path);
      return FALSE;
    }

  return TRUE;
}

static gboolean
bytes_equal (GBytes *a,
             GBytes *b)
{
  if (a == NULL || b == NULL)
    return a == b;

  return g_bytes_equal (a, b);
}

/* Another program (or window) may have written the file since it was
 * read: what the change is about must be as it was then (@expected, or
 * as last read), or the change is refused rather than made over it.
 * Changes elsewhere in the file are kept. */
static gboolean
check_unchanged (FileEdit    *file,
                 char       **path,
                 JsonNode    *expected,
                 const char  *name,
                 GError     **error)
{
  g_autoptr(McpJsonDocument) known = NULL;
  JsonNode *now = mcp_json_document_lookup (file->document, (const char * const *) path);
  JsonNode *then = expected;

  if (then == NULL)
    {
      const char *data = NULL;
      gsize length = 0;

      if (bytes_equal (file->known, file->current))
        return TRUE;
      if (file->known != NULL)
        data = g_bytes_get_data (file->known, &length);
      known = mcp_json_document_new (data, length, MCP_JSON_DIALECT_JSON, NULL);
      /* it did not parse then: there is nothing to compare with */
      if (known == NULL)
        return TRUE;
      then = mcp_json_document_lookup (known, (const char * const *) path);
    }

  if (mcp_json_equal (then, now))
    return TRUE;

  return file_error (error, file,
                     /* Translators: %s is a server's name */
                     _("“%s” was changed meanwhile, by another program or window; nothing was "
                       "changed. Look at it again and repeat your change."),
                     name);
}

static gboolean
find_server (WriteOp         *op,
             McpConfigScope   scope,
             const char      *name,
             GError         **error)
{
  FileEdit *file = op_file (op, scope);
  g_auto(GStrv) path = entry_path (op, scope, name);
  JsonNode *node = mcp_json_document_lookup (file->document, (const char * const *) path);

  if (node == NULL)
    return file_error (error, file,
                       /* Translators: %s is a server's name, the second %s its scope: user, project or local (keep these words) */
                       _("there is no server “%s” in the %s scope"),
                       name, mcp_settings_scope_name (scope));
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autofree char *where = mcp_json_path_from_names ((const char * const *) path, G_MAXUINT);

      return file_error (error, file, _("%s: expected an object; not changing it"), where);
    }

  return TRUE;
}

static gboolean
no_server (WriteOp         *op,
           McpConfigScope   scope,
           const char      *name,
           GError         **error)
{
  FileEdit *file = op_file (op, scope);
  g_auto(GStrv) path = entry_path (op, scope, name);

  if (mcp_json_document_lookup (file->document, (const char * const *) path) == NULL)
    return TRUE;

  return file_error (error, file,
                     /* Translators: %s is a server's name, the second %s its scope: user, project or local (keep these words) */
                     _("there is already a server “%s” in the %s scope"),
                     name, mcp_settings_scope_name (scope));
}

/* The changes */

static gboolean
apply_save (WriteOp  *op,
            GError  **error)
{
  FileEdit *from = op_file (op, op->scope);
  FileEdit *to = op_file (op, op->to);
  g_auto(GStrv) old_path = NULL;
  g_auto(GStrv) new_path = entry_path (op, op->to, op->new_name);

  if (op->name == NULL)
    return no_server (op, op->to, op->new_name, error) &&
           in_file (mcp_json_document_set (to->document, (const char * const *) new_path,
                                           op->entry, error), to, error);

  /* A rename or a move carries the entry as it is now; an edit replaces
   * it, so it must be what the edit was made on. */
  old_path = entry_path (op, op->scope, op->name);
  if (!find_server (op, op->scope, op->name, error) ||
      (op->entry != NULL && !check_unchanged (from, old_path, op->expected, op->name, error)))
    return FALSE;

  if (op->scope == op->to)
    {
      /* renamed in place: it keeps its place among the others */
      if (strcmp (op->name, op->new_name) != 0 &&
          (!no_server (op, op->to, op->new_name, error) ||
           !in_file (mcp_json_document_rename (from->document, (const char * const *) old_path,
                                               op->new_name, error), from, error)))
        return FALSE;
    }
  else
    {
      /* its own bytes go with it, then what changed is changed */
      if (!no_server (op, op->to, op->new_name, error) ||
          !in_file (mcp_json_document_copy (to->document, (const char * const *) new_path,
                                            from->document, (const char * const *) old_path,
                                            error), to, error) ||
          !in_file (mcp_json_document_remove (from->document, (const char * const *) old_path,
                                              error), from, error))
        return FALSE;
    }

  if (op->entry == NULL)
    return TRUE;

  return in_file (mcp_json_document_update (to->document, (const char * const *) new_path,
                                            op->entry, error), to, error);
}

static gboolean
apply_remove (WriteOp  *op,
              GError  **error)
{
  FileEdit *file = op_file (op, op->scope);
  g_auto(GStrv) path = entry_path (op, op->scope, op->name);

  return find_server (op, op->scope, op->name, error) &&
         check_unchanged (file, path, NULL, op->name, error) &&
         in_file (mcp_json_document_remove (file->document, (const char * const *) path, error),
                  file, error);
}

static gboolean
set_boolean (FileEdit  *file,
             char     **path,
             gboolean   value,
             GError   **error)
{
  g_autoptr(JsonNode) node = json_node_init_boolean (json_node_alloc (), value);

  return in_file (mcp_json_document_set (file->document, (const char * const *) path, node, error),
                  file, error);
}

/* Removes @name from the array at @path (all of it, or all but the first
 * when @keep_one); no array is fine. */
static gboolean
remove_string (FileEdit    *file,
               char       **path,
               const char  *name,
               gboolean     keep_one,
               GError     **error)
{
  JsonNode *node = mcp_json_document_lookup (file->document, (const char * const *) path);
  JsonArray *array;
  guint first = G_MAXUINT;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      g_autofree char *where = mcp_json_path_from_names ((const char * const *) path, G_MAXUINT);

      return file_error (error, file, _("%s: expected an array; not changing it"), where);
    }

  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array) && first == G_MAXUINT; i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_VALUE (element) && json_node_get_value_type (element) == G_TYPE_STRING &&
          strcmp (json_node_get_string (element), name) == 0)
        first = i;
    }

  for (guint i = json_array_get_length (array); i > 0; i--)
    {
      JsonNode *element;

      /* the document's tree is new after each removal */
      node = mcp_json_document_lookup (file->document, (const char * const *) path);
      element = json_array_get_element (json_node_get_array (node), i - 1);
      if (!JSON_NODE_HOLDS_VALUE (element) || json_node_get_value_type (element) != G_TYPE_STRING ||
          strcmp (json_node_get_string (element), name) != 0 || (keep_one && i - 1 == first))
        continue;
      if (!in_file (mcp_json_document_remove_element (file->document, (const char * const *) path,
                                                      i - 1, error), file, error))
        return FALSE;
    }

  return TRUE;
}

static gboolean
has_string (FileEdit    *file,
            char       **path,
            const char  *name)
{
  JsonNode *node = mcp_json_document_lookup (file->document, (const char * const *) path);
  JsonArray *array;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return FALSE;

  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_VALUE (element) && json_node_get_value_type (element) == G_TYPE_STRING &&
          strcmp (json_node_get_string (element), name) == 0)
        return TRUE;
    }

  return FALSE;
}

/* Whether the entries of @servers say "disabled" (Claude Desktop's way)
 * and none says "enabled". */
static gboolean
prefers_disabled (JsonNode *servers)
{
  gboolean disabled = FALSE;
  JsonObjectIter iter;
  const char *name;
  JsonNode *entry;

  json_object_iter_init (&iter, json_node_get_object (servers));
  while (json_object_iter_next (&iter, &name, &entry))
    {
      if (!JSON_NODE_HOLDS_OBJECT (entry))
        continue;
      if (json_object_has_member (json_node_get_object (entry), "enabled"))
        return FALSE;
      if (json_object_has_member (json_node_get_object (entry), "disabled"))
        disabled = TRUE;
    }

  return disabled;
}

/* In the words the entry (or its file) already uses: "enabled", or
 * "disabled", or Claude Code's projects[dir].disabledMcpServers. */
static gboolean
apply_set_enabled (WriteOp  *op,
                   GError  **error)
{
  FileEdit *file = op_file (op, op->scope);
  g_auto(GStrv) path = entry_path (op, op->scope, op->name);
  g_auto(GStrv) enabled_path = path_append (path, "enabled");
  g_auto(GStrv) disabled_path = path_append (path, "disabled");
  g_auto(GStrv) off_path = local_entry_path (op, "disabledMcpServers");
  JsonObject *entry;
  gboolean has_enabled;
  gboolean has_disabled;

  if (!find_server (op, op->scope, op->name, error))
    return FALSE;
  /* (each edit parses the document anew: what is needed of it, first) */
  entry = json_node_get_object (mcp_json_document_lookup (file->document, (const char * const *) path));
  has_enabled = json_object_has_member (entry, "enabled");
  has_disabled = json_object_has_member (entry, "disabled");

  if (op->flag)
    {
      if (has_enabled &&
          !in_file (mcp_json_document_remove (file->document, (const char * const *) enabled_path, error),
                    file, error))
        return FALSE;
      if (has_disabled && !set_boolean (file, disabled_path, FALSE, error))
        return FALSE;
      return remove_string (file, off_path, op->name, FALSE, error);
    }

  if (has_disabled)
    return set_boolean (file, disabled_path, TRUE, error);
  if (!has_enabled)
    {
      g_auto(GStrv) servers = g_strdupv (path);

      g_clear_pointer (&servers[g_strv_length (servers) - 1], g_free);
      if (prefers_disabled (mcp_json_document_lookup (file->document, (const char * const *) servers)))
        return set_boolean (file, disabled_path, TRUE, error);
    }

  return set_boolean (file, enabled_path, FALSE, error);
}

static Binding *
find_binding (WriteOp    *op,
              const char *name)
{
  for (guint i = 0; op->bindings != NULL && i < op->bindings->len; i++)
    {
      Binding *binding = op->bindings->pdata[i];

      if (strcmp (binding->name, name) == 0)
        return binding;
    }

  return NULL;
}

/* projects[dir].approvedMcpjsonServers[@name] */
static char **
approved_path (WriteOp    *op,
               const char *name)
{
  const char *path[] = { "projects", op->project_dir, "approvedMcpjsonServers", name, NULL };

  return g_strdupv ((char **) path);
}

/* What is approved is what runs: the digest goes beside the name, and a
 * rejection takes it away. */
static gboolean
apply_approved_digest (WriteOp  *op,
                       GError  **error)
{
  FileEdit *file = &op->files[FILE_USER];
  g_auto(GStrv) path = approved_path (op, op->name);
  Binding *binding = find_binding (op, op->name);

  if (op->flag && binding != NULL)
    return in_file (mcp_json_document_set (file->document, (const char * const *) path,
                                           binding->value, error), file, error);

  if (mcp_json_document_lookup (file->document, (const char * const *) path) == NULL)
    return TRUE;

  return in_file (mcp_json_document_remove (file->document, (const char * const *) path, error),
                  file, error);
}

/* Each server still approved by name only in the file as it is now gets
 * its digest; one that was decided on meanwhile is left alone. */
static gboolean
apply_bind (WriteOp  *op,
            GError  **error)
{
  FileEdit *file = &op->files[FILE_USER];
  g_auto(GStrv) enabled_path = local_entry_path (op, "enabledMcpjsonServers");
  g_auto(GStrv) disabled_path = local_entry_path (op, "disabledMcpjsonServers");
  g_auto(GStrv) all_path = local_entry_path (op, "enableAllProjectMcpServers");
  JsonNode *all = mcp_json_document_lookup (file->document, (const char * const *) all_path);
  gboolean enable_all = all != NULL && JSON_NODE_HOLDS_VALUE (all) &&
                        json_node_get_value_type (all) == G_TYPE_BOOLEAN && json_node_get_boolean (all);

  op->untouched = TRUE;
  for (guint i = 0; i < op->bindings->len; i++)
    {
      Binding *binding = op->bindings->pdata[i];
      g_auto(GStrv) path = approved_path (op, binding->name);

      if ((!enable_all && !has_string (file, enabled_path, binding->name)) ||
          has_string (file, disabled_path, binding->name) ||
          mcp_json_document_lookup (file->document, (const char * const *) path) != NULL)
        continue;
      if (!in_file (mcp_json_document_set (file->document, (const char * const *) path,
                                           binding->value, error), file, error))
        return FALSE;
      op->untouched = FALSE;
    }

  return TRUE;
}

static gboolean
apply_approval (WriteOp  *op,
                GError  **error)
{
  static const char * const lists[] = { "enabledMcpjsonServers", "disabledMcpjsonServers" };
  FileEdit *file = &op->files[FILE_USER];

  for (guint i = 0; i < G_N_ELEMENTS (lists); i++)
    {
      g_auto(GStrv) path = local_entry_path (op, lists[i]);
      gboolean wanted = (i == 0) == !!op->flag;

      if (wanted && !has_string (file, path, op->name))
        {
          g_autoptr(JsonNode) name = json_node_init_string (json_node_alloc (), op->name);

          if (!in_file (mcp_json_document_append (file->document, (const char * const *) path,
                                                  name, error), file, error))
            return FALSE;
        }
      if (!remove_string (file, path, op->name, wanted, error))
        return FALSE;
    }

  return apply_approved_digest (op, error);
}

/* The rule (op->name) in the list op->flag names (McpRuleList) of the
 * user file's "permissions" (user scope) or of the project's entry in it
 * (local scope), and in no other list of that place. */
static gboolean
apply_permission (WriteOp  *op,
                  GError  **error)
{
  static const char * const lists[] = { NULL, "allow", "ask", "deny" };
  FileEdit *file = &op->files[FILE_USER];

  for (guint i = MCP_RULE_ALLOW; i <= MCP_RULE_DENY; i++)
    {
      const char *local[] = { "projects", op->project_dir, "permissions", lists[i], NULL };
      const char *user[] = { "permissions", lists[i], NULL };
      g_auto(GStrv) path = g_strdupv ((char **) (op->scope == MCP_CONFIG_SCOPE_LOCAL ? local : user));
      gboolean wanted = (guint) op->flag == i;

      if (wanted && !has_string (file, path, op->name))
        {
          g_autoptr(JsonNode) rule = json_node_init_string (json_node_alloc (), op->name);

          if (!in_file (mcp_json_document_append (file->document, (const char * const *) path,
                                                  rule, error), file, error))
            return FALSE;
        }
      if (!remove_string (file, path, op->name, wanted, error))
        return FALSE;
    }

  return TRUE;
}

static gboolean
apply_op (WriteOp  *op,
          GError  **error)
{
  switch (op->kind)
    {
    case OP_PERMISSION:
      return apply_permission (op, error);
    case OP_SAVE:
      return apply_save (op, error);
    case OP_REMOVE:
      return apply_remove (op, error);
    case OP_SET_ENABLED:
      return apply_set_enabled (op, error);
    case OP_BIND:
      return apply_bind (op, error);
    case OP_APPROVAL:
    default:
      return apply_approval (op, error);
    }
}

/* The thread */

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* One lock per folder, taken in the order of their names, so that two
 * writers that need the same two folders never wait for each other. */
static GPtrArray *
lock_files (WriteOp       *op,
            GCancellable  *cancellable,
            GError       **error)
{
  g_autoptr(GPtrArray) locks = g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_config_file_unlock);
  g_autoptr(GPtrArray) folders = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < N_FILES; i++)
    {
      g_autofree char *folder = NULL;

      if (!op->files[i].used)
        continue;
      folder = g_path_get_dirname (op->files[i].target);
      if (!g_ptr_array_find_with_equal_func (folders, folder, g_str_equal, NULL))
        g_ptr_array_add (folders, g_steal_pointer (&folder));
    }
  g_ptr_array_sort (folders, compare_strings);

  for (guint i = 0; i < folders->len; i++)
    {
      McpConfigFileLock *lock = mcp_config_file_lock_folder (folders->pdata[i], cancellable, error);

      if (lock == NULL)
        return NULL;
      g_ptr_array_add (locks, lock);
    }

  return g_steal_pointer (&locks);
}

static gboolean
write_file (FileEdit  *file,
            GError   **error)
{
  g_autoptr(GBytes) bytes = mcp_json_document_dup_bytes (file->document);

  return mcp_config_file_commit (file->path, file->target, file->current, file->mode,
                                 bytes, TRUE, error);
}

static void
write_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  WriteOp *op = task_data;
  g_autoptr(GPtrArray) locks = NULL;
  GError *error = NULL;
  FileKind order[N_FILES] = { FILE_USER, FILE_PROJECT };
  gboolean written = FALSE;

  for (guint i = 0; i < N_FILES; i++)
    {
      if (op->files[i].used)
        op->files[i].target = mcp_config_file_resolve (op->files[i].path);
    }

  locks = lock_files (op, cancellable, &error);
  if (locks == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  for (guint i = 0; i < N_FILES; i++)
    {
      if (op->files[i].used && !open_file (&op->files[i], &error))
        {
          g_task_return_error (task, error);
          return;
        }
    }

  if (!apply_op (op, &error) || g_cancellable_set_error_if_cancelled (cancellable, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  /* A move writes where it goes first: when the second write fails, the
   * server is in both files rather than in none. */
  if (op->kind == OP_SAVE && op->name != NULL && file_of (op->to) == FILE_PROJECT)
    {
      order[0] = FILE_PROJECT;
      order[1] = FILE_USER;
    }

  for (guint i = 0; i < N_FILES; i++)
    {
      FileEdit *file = &op->files[order[i]];

      if (!file->used || op->untouched)
        continue;
      if (!write_file (file, &error))
        {
          if (written)
            g_prefix_error (&error,
                            /* Translators: %s is a server's name, then two files */
                            _("“%s” was saved in %s, but could not be taken out of %s, so it is "
                              "in both now: "),
                            op->new_name, op->files[order[0]].path, file->path);
          g_task_return_error (task, error);
          return;
        }
      written = TRUE;
    }

  g_task_return_boolean (task, TRUE);
}

/* The queue: one change at a time, each on what the one before wrote */

static void
reload_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpSettings *self = g_task_get_source_object (task);
  GError *error = g_task_get_task_data (G_TASK (result));

  if (error != NULL)
    g_task_return_error (task, g_error_copy (error));
  else
    g_task_return_boolean (task, TRUE);

  mcp_settings_run_next_write (self);
}

static void
write_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  McpSettings *self = MCP_SETTINGS (object);
  g_autoptr(GTask) task = user_data;
  g_autoptr(GTask) reload = NULL;
  GError *error = NULL;

  self->writing = FALSE;
  self->reload_pending = FALSE;

  g_task_propagate_boolean (G_TASK (result), &error);
  if (error != NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, error);
      mcp_settings_run_next_write (self);
      return;
    }

  /* What is on disk now, whatever happened: one reload, one "changed" */
  reload = g_task_new (self, self->cancellable, reload_done_cb, g_steal_pointer (&task));
  g_task_set_source_tag (reload, write_done_cb);
  g_task_set_task_data (reload, error, error != NULL ? (GDestroyNotify) g_error_free : NULL);
  mcp_settings_start_load (self, reload);
}

static void
start_write (McpSettings *self,
             GTask       *task)
{
  WriteOp *op = g_task_get_task_data (task);
  g_autoptr(GTask) worker = NULL;

  op->files[FILE_USER].known = self->user_bytes != NULL ? g_bytes_ref (self->user_bytes) : NULL;
  op->files[FILE_PROJECT].known = self->project_bytes != NULL ? g_bytes_ref (self->project_bytes) : NULL;

  worker = g_task_new (self, g_task_get_cancellable (task), write_done_cb, task);
  g_task_set_source_tag (worker, write_thread);
  g_task_set_task_data (worker, op, NULL);
  g_task_run_in_thread (worker, write_thread);
}

void
mcp_settings_run_next_write (McpSettings *self)
{
  GTask *task;

  if (self->writing)
    return;

  task = g_queue_pop_head (&self->writes);
  if (task == NULL)
    {
      if (self->reload_pending && self->loading == 0)
        {
          self->reload_pending = FALSE;
          mcp_settings_start_load (self, NULL);
        }
      return;
    }

  self->writing = TRUE;
  start_write (self, task);
}

static JsonNode *
copy_entry (JsonObject *object)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  JsonNode *copy;

  json_node_set_object (node, object);
  mcp_json_append (text, node);
  copy = mcp_json_parse (text->str, text->len, NULL);
  g_assert (copy != NULL);

  return copy;
}

static WriteOp *
write_op_new (McpSettings    *self,
              OpKind          kind,
              const char     *name,
              McpConfigScope  scope)
{
  WriteOp *op = g_new0 (WriteOp, 1);

  op->kind = kind;
  op->name = g_strdup (name);
  op->scope = scope;
  op->new_name = g_strdup (name);
  op->to = scope;
  op->project_dir = g_strdup (self->project_dir);
  op->files[FILE_USER].path = g_strdup (self->user_path);
  op->files[FILE_PROJECT].path = g_strdup (self->project_path);

  return op;
}

static void
queue_write (McpSettings         *self,
             WriteOp             *op,
             gpointer             source_tag,
             GCancellable        *cancellable,
             GAsyncReadyCallback  callback,
             gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(GError) error = NULL;

  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, op, (GDestroyNotify) write_op_free);

  if ((op->name != NULL && op->name[0] == '\0') ||
      (op->new_name != NULL && op->new_name[0] == '\0'))
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                               _("A server needs a non-empty name"));
      g_object_unref (task);
      return;
    }

  if (op->entry != NULL)
    {
      g_auto(GStrv) path = entry_path (op, op->to, op->new_name);
      g_autofree char *where = mcp_json_path_from_names ((const char * const *) path, G_MAXUINT);
      g_autoptr(McpServerConfig) check = NULL;

      check = mcp_server_config_new_from_json (op->new_name, op->to, json_node_get_object (op->entry),
                                               mcp_settings_scope_file (self, op->to), where, &error);
      if (check == NULL)
        {
          g_task_return_error (task, g_steal_pointer (&error));
          g_object_unref (task);
          return;
        }
    }

  op->files[file_of (op->scope)].used = TRUE;
  op->files[file_of (op->to)].used = TRUE;
  if (op->kind == OP_SET_ENABLED || op->kind == OP_APPROVAL || op->kind == OP_BIND ||
      op->kind == OP_PERMISSION)
    op->files[FILE_USER].used = TRUE;

  g_queue_push_tail (&self->writes, task);
  mcp_settings_run_next_write (self);
}

static gboolean
write_finish (McpSettings   *self,
              GAsyncResult  *result,
              gpointer       source_tag,
              GError       **error)
{
  g_return_val_if_fail (MCP_IS_SETTINGS (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* {"digest": …, "launch": …} of @config (the project's) as loaded: what the
 * person saw is what is approved. */
static Binding *
binding_new (McpServerConfig *config)
{
  Binding *binding = g_new0 (Binding, 1);
  g_autoptr(JsonObject) object = json_object_new ();
  g_autofree char *digest = mcp_launch_dup_digest (config, NULL);

  json_object_set_string_member (object, "digest", digest);
  json_object_set_object_member (object, "launch", mcp_launch_dup_description (config, NULL));
  binding->name = g_strdup (mcp_server_config_get_name (config));
  binding->value = copy_entry (object);

  return binding;
}

static WriteOp *
approval_op_new (McpSettings *self,
                 const char  *name,
                 gboolean     approved)
{
  WriteOp *op = write_op_new (self, OP_APPROVAL, name, MCP_CONFIG_SCOPE_LOCAL);
  McpServerConfig *config = mcp_settings_lookup_in_scope (self, name, MCP_CONFIG_SCOPE_PROJECT);

  op->flag = !!approved;
  op->bindings = g_ptr_array_new_with_free_func ((GDestroyNotify) binding_free);
  if (approved && config != NULL)
    g_ptr_array_add (op->bindings, binding_new (config));

  return op;
}

void
mcp_settings_bind_approvals (McpSettings         *self,
                             GPtrArray           *names,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  WriteOp *op = write_op_new (self, OP_BIND, NULL, MCP_CONFIG_SCOPE_LOCAL);

  op->bindings = g_ptr_array_new_with_free_func ((GDestroyNotify) binding_free);
  for (guint i = 0; i < names->len; i++)
    {
      McpServerConfig *config = mcp_settings_lookup_in_scope (self, names->pdata[i],
                                                              MCP_CONFIG_SCOPE_PROJECT);

      if (config != NULL)
        g_ptr_array_add (op->bindings, binding_new (config));
    }
  queue_write (self, op, mcp_settings_bind_approvals, self->cancellable, callback, user_data);
}

/* The API */

void
mcp_settings_save_server_async (McpSettings         *self,
                                const char          *name,
                                McpConfigScope       scope,
                                const char          *new_name,
                                McpConfigScope       new_scope,
                                JsonObject          *entry,
                                JsonObject          *expected,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  WriteOp *op;

  g_return_if_fail (MCP_IS_SETTINGS (self));
  g_return_if_fail (new_name != NULL);
  g_return_if_fail (name != NULL || entry != NULL);

  op = write_op_new (self, OP_SAVE, name, name != NULL ? scope : new_scope);
  g_free (op->new_name);
  op->new_name = g_strdup (new_name);
  op->to = new_scope;
  if (entry != NULL)
    op->entry = copy_entry (entry);
  if (expected != NULL)
    op->expected = copy_entry (expected);
  queue_write (self, op, mcp_settings_save_server_async, cancellable, callback, user_data);
}

gboolean
mcp_settings_save_server_finish (McpSettings   *self,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  return write_finish (self, result, mcp_settings_save_server_async, error);
}

void
mcp_settings_add_server_async (McpSettings         *self,
                               const char          *name,
                               McpConfigScope       scope,
                               JsonObject          *object,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  WriteOp *op;

  g_return_if_fail (MCP_IS_SETTINGS (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (object != NULL);

  op = write_op_new (self, OP_SAVE, NULL, scope);
  op->new_name = g_strdup (name);
  op->entry = copy_entry (object);
  queue_write (self, op, mcp_settings_add_server_async, cancellable, callback, user_data);
}

gboolean
mcp_settings_add_server_finish (McpSettings   *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  return write_finish (self, result, mcp_settings_add_server_async, error);
}

void
mcp_settings_edit_server_async (McpSettings         *self,
                                const char          *name,
                                McpConfigScope       scope,
                                JsonObject          *object,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  WriteOp *op;

  g_return_if_fail (MCP_IS_SETTINGS (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (object != NULL);

  op = write_op_new (self, OP_SAVE, name, scope);
  op->entry = copy_entry (object);
  queue_write (self, op, mcp_settings_edit_server_async, cancellable, callback, user_data);
}

gboolean
mcp_settings_edit_server_finish (McpSettings   *self,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  return write_finish (self, result, mcp_settings_edit_server_async, error);
}

void
mcp_settings_rename_server_async (McpSettings         *self,
                                  const char          *name,
                                  McpConfigScope       scope,
                                  const char          *new_name,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  WriteOp *op;

  g_return_if_fail (MCP_IS_SETTINGS (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (new_name != NULL);

  op = write_op_new (self, OP_SAVE, name, scope);
  g_free (op->new_name);
  op->new_name = g_strdup (new_name);
  queue_write (self, op, mcp_settings_rename_server_async, cancellable, callback, user_data);
}

gboolean
mcp_settings_rename_server_finish (McpSettings   *self,
                                   GAsyncResult  *result,
                                   GError       **error)
{
  return write_finish (self, result, mcp_settings_rename_server_async, error);
}

void
mcp_settings_remove_server_async (McpSettings         *self,
                                  const char          *name,
                                  McpConfigScope       scope,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_return_if_fail (MCP_IS_SETTINGS (self));
  g_return_if_fail (name != NULL);

  queue_write (self, write_op_new (self, OP_REMOVE, name, scope),
               mcp_settings_remove_server_async, cancellable, callback, user_data);
}

gboolean
mcp_settings_remove_server_finish (McpSettings   *self,
                                   GAsyncResult  *result,
                                   GError       **error)
{
  return write_finish (self, result, mcp_settings_remove_server_async, error);
}

void
mcp_settings_set_server_enabled_async (McpSettings         *self,
                                       const char          *name,
                                       McpConfigScope       scope,
                                       gboolean             enabled,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  WriteOp *op;

  g_return_if_fail (MCP_IS_SETTINGS (self));
  g_return_if_fail (name != NULL);

  /* A project server is the team's (.mcp.json is shared): turning it off
   * or on is a private choice, kept where other MCP clients keep it, in
   * the local scope's enabled/disabledMcpjsonServers. */
  if (scope == MCP_CONFIG_SCOPE_PROJECT)
    op = approval_op_new (self, name, enabled);
  else
    op = write_op_new (self, OP_SET_ENABLED, name, scope);
  op->flag = !!enabled;
  queue_write (self, op, mcp_settings_set_server_enabled_async, cancellable, callback, user_data);
}

gboolean
mcp_settings_set_server_enabled_finish (McpSettings   *self,
                                        GAsyncResult  *result,
                                        GError       **error)
{
  return write_finish (self, result, mcp_settings_set_server_enabled_async, error);
}

void
mcp_settings_move_server_async (McpSettings         *self,
                                const char          *name,
                                McpConfigScope       from,
                                McpConfigScope       to,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  WriteOp *op;

  g_return_if_fail (MCP_IS_SETTINGS (self));
  g_return_if_fail (name != NULL);

  op = write_op_new (self, OP_SAVE, name, from);
  op->to = to;
  queue_write (self, op, mcp_settings_move_server_async, cancellable, callback, user_data);
}

gboolean
mcp_settings_move_server_finish (McpSettings   *self,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  return write_finish (self, result, mcp_settings_move_server_async, error);
}

void
mcp_settings_set_approval_async (McpSettings         *self,
                                 const char          *name,
                                 gboolean             approved,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  WriteOp *op;

  g_return_if_fail (MCP_IS_SETTINGS (self));
  g_return_if_fail (name != NULL);

  op = approval_op_new (self, name, approved);
  queue_write (self, op, mcp_settings_set_approval_async, cancellable, callback, user_data);
}

gboolean
mcp_settings_set_approval_finish (McpSettings   *self,
                                  GAsyncResult  *result,
                                  GError       **error)
{
  return write_finish (self, result, mcp_settings_set_approval_async, error);
}

void
mcp_settings_set_rule_async (McpSettings         *self,
                             const char          *rule,
                             McpConfigScope       scope,
                             McpRuleList          list,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  WriteOp *op;

  g_return_if_fail (MCP_IS_SETTINGS (self));
  g_return_if_fail (rule != NULL && g_str_has_prefix (rule, "mcp__"));
  g_return_if_fail (scope == MCP_CONFIG_SCOPE_USER || scope == MCP_CONFIG_SCOPE_LOCAL);
  g_return_if_fail (list <= MCP_RULE_DENY);

  /* the user file holds both; the project's .mcp.json holds no rules */
  op = write_op_new (self, OP_PERMISSION, rule, scope);
  op->to = MCP_CONFIG_SCOPE_USER;
  op->flag = list;
  queue_write (self, op, mcp_settings_set_rule_async, cancellable, callback, user_data);
}

gboolean
mcp_settings_set_rule_finish (McpSettings   *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  return write_finish (self, result, mcp_settings_set_rule_async, error);
}
