/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-secret-store"

#include "config.h"

#include "mcp-secret-store.h"

#include <string.h>
#include <glib/gi18n-lib.h>
#include <libsecret/secret.h>

#include "mcp-error.h"

#include "mcp-credential-file-private.h"

#define BACKEND_SECRET_SERVICE "secret-service"
#define BACKEND_FILE           "file"
#define BACKEND_AUTO           "auto"
#define MAX_ID_LENGTH          128

struct _McpSecretStore
{
  GObject     parent_instance;

  /* owned */
  char       *backend;
  char       *fallback_path;
  char       *fallback_reason;

  /* BACKEND_SECRET_SERVICE, BACKEND_FILE or NULL while undecided */
  const char *active_backend;
  guint       fallback_announced : 1;
};

G_DEFINE_FINAL_TYPE (McpSecretStore, mcp_secret_store, G_TYPE_OBJECT)

typedef enum
{
  OP_LOOKUP,
  OP_STORE,
  OP_CLEAR,
  OP_LIST,
} OpKind;

typedef struct
{
  OpKind  op;
  char   *id;
  char   *value;
  GPtrArray *ids;   /* OP_LIST: found so far */
} Op;

static void
op_free (Op *op)
{
  g_free (op->id);
  if (op->value != NULL)
    memset (op->value, 0, strlen (op->value));
  g_free (op->value);
  g_clear_pointer (&op->ids, g_ptr_array_unref);
  g_free (op);
}

static void
mcp_secret_store_finalize (GObject *object)
{
  McpSecretStore *self = MCP_SECRET_STORE (object);

  g_free (self->backend);
  g_free (self->fallback_path);
  g_free (self->fallback_reason);

  G_OBJECT_CLASS (mcp_secret_store_parent_class)->finalize (object);
}

static void
mcp_secret_store_class_init (McpSecretStoreClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mcp_secret_store_finalize;
}

static void
mcp_secret_store_init (McpSecretStore *self)
{
}

McpSecretStore *
mcp_secret_store_new (const char *backend,
                      const char *fallback_path)
{
  McpSecretStore *self;

  g_return_val_if_fail (backend == NULL || g_str_equal (backend, BACKEND_AUTO) ||
                        g_str_equal (backend, BACKEND_FILE) ||
                        g_str_equal (backend, BACKEND_SECRET_SERVICE), NULL);

  self = g_object_new (MCP_TYPE_SECRET_STORE, NULL);
  self->backend = g_strdup (backend != NULL ? backend : BACKEND_AUTO);
  self->fallback_path = fallback_path != NULL ? g_strdup (fallback_path)
                                              : mcp_credential_file_default_path ();
  return self;
}

McpSecretStore *
mcp_secret_store_get_default (void)
{
  static McpSecretStore *store;

  if (g_once_init_enter (&store))
    g_once_init_leave (&store, mcp_secret_store_new (BACKEND_AUTO, NULL));
  return store;
}

gboolean
mcp_secret_store_id_is_valid (const char *id)
{
  gsize length;

  if (id == NULL)
    return FALSE;
  length = strlen (id);
  if (length == 0 || length > MAX_ID_LENGTH)
    return FALSE;
  for (const char *p = id; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '.' && *p != '_' && *p != '-')
      return FALSE;
  return TRUE;
}

static void
append_id_part (GString    *out,
                const char *part,
                gsize       max)
{
  gsize start = out->len;

  for (const char *p = part; *p != '\0' && out->len - start < max; p++)
    g_string_append_c (out, g_ascii_isalnum (*p) || *p == '.' || *p == '_' || *p == '-' ? *p : '-');
}

char *
mcp_secret_store_make_id (const char *server,
                          const char *name)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (server != NULL && name != NULL, NULL);

  /* Room for the caller's suffix ("-2") within the 128 characters */
  append_id_part (out, server, 60);
  g_string_append_c (out, '.');
  append_id_part (out, name, 60);
  return g_string_free (out, FALSE);
}

/* The fall back to the file */

static void
announce_fallback (McpSecretStore *self)
{
  if (self->fallback_reason == NULL || self->fallback_announced)
    return;
  self->fallback_announced = TRUE;
  /* Translators: the first %s is the reason, the second a file name */
  g_message (_("No Secret Service is available (%s); secrets for servers are kept in %s instead"),
             self->fallback_reason, self->fallback_path);
}

static int
compare_ids (gconstpointer a,
             gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

static void run_file_locked (GTask *task);

/* The whole read, change and write under the file's lock. */
static void
run_file (GTask *task)
{
  McpSecretStore *self = g_task_get_source_object (task);
  GError *error = NULL;
  int lock;

  if (g_task_return_error_if_cancelled (task))
    return;

  lock = mcp_credential_file_lock (self->fallback_path, &error);
  if (lock < 0)
    {
      g_task_return_error (task, error);
      return;
    }
  run_file_locked (task);
  mcp_credential_file_unlock (lock);
}

static void
run_file_locked (GTask *task)
{
  McpSecretStore *self = g_task_get_source_object (task);
  Op *op = g_task_get_task_data (task);
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *object, *secrets;
  JsonNode *node;
  gboolean exists;

  if (g_task_return_error_if_cancelled (task))
    return;

  root = mcp_credential_file_load (self->fallback_path, &exists, &error);
  if (root == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  object = json_node_get_object (root);
  node = json_object_get_member (object, "secrets");
  if (node == NULL)
    json_object_set_object_member (object, "secrets", json_object_new ());
  else if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      /* Translators: %s is a file name */
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_FAILED,
                               _("The sign-in file %s: $.secrets is not an object. Plugboard will not "
                                 "overwrite it; move it away to store secrets again."),
                               self->fallback_path);
      return;
    }
  secrets = json_object_get_object_member (object, "secrets");

  switch (op->op)
    {
    case OP_LOOKUP:
      node = json_object_get_member (secrets, op->id);
      if (node == NULL)
        {
          g_task_return_pointer (task, NULL, NULL);
          return;
        }
      announce_fallback (self);
      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
        {
          /* Translators: the first %s is a secret's ID, the second a file name */
          g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                   _("The secret “%s” in %s is not a string; store it again"),
                                   op->id, self->fallback_path);
          return;
        }
      g_task_return_pointer (task, json_node_dup_string (node), g_free);
      return;

    case OP_STORE:
      json_object_set_string_member (secrets, op->id, op->value);
      break;

    case OP_LIST:
      {
        g_autoptr(GList) members = json_object_get_members (secrets);

        for (GList *l = members; l != NULL; l = l->next)
          if (!g_ptr_array_find_with_equal_func (op->ids, l->data, g_str_equal, NULL))
            g_ptr_array_add (op->ids, g_strdup (l->data));
        g_ptr_array_sort (op->ids, compare_ids);
        g_ptr_array_add (op->ids, NULL);
        g_task_return_pointer (task, g_ptr_array_steal (op->ids, NULL), (GDestroyNotify) g_strfreev);
        return;
      }

    case OP_CLEAR:
      if (!json_object_has_member (secrets, op->id))
        {
          g_task_return_boolean (task, TRUE);
          return;
        }
      json_object_remove_member (secrets, op->id);
      break;

    default:
      g_assert_not_reached ();
    }

  announce_fallback (self);
  if (!mcp_credential_file_save (self->fallback_path, root, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

/* The Secret Service */

static const SecretSchema *
get_schema (void)
{
  static const SecretSchema schema = {
    "org.plugboard.Plugboard.Secret",
    SECRET_SCHEMA_NONE,
    {
      { "id", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { NULL, 0 },
    }
  };

  return &schema;
}

/* Takes @error: switches to the file and runs the operation there, or
 * returns the error. */
/* In "auto", the fallback file (when there is one) is read after the
 * keyring: a secret stored while no keyring answered, or one that had no
 * place to go, is still found once a keyring runs. */
static gboolean
also_in_file (McpSecretStore *self)
{
  return mcp_credential_file_also_read (self->backend, self->fallback_path);
}

static void
secret_failed (GTask  *task,
               GError *error)
{
  McpSecretStore *self = g_task_get_source_object (task);
  Op *op = g_task_get_task_data (task);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, error);
      return;
    }

  if (mcp_credential_should_fall_back (self->backend, self->active_backend, error))
    {
      self->active_backend = BACKEND_FILE;
      if (self->fallback_reason == NULL)
        self->fallback_reason = g_strdup (error->message);
      g_error_free (error);
      run_file (task);
      return;
    }

  /* A keyring that answers but has nowhere to keep a new secret (no
   * default collection: a fresh gnome-keyring with no login keyring, in a
   * session that cannot prompt) must not lose the person's secret: it
   * goes to the file, with the notice, and lookups read the file after
   * the keyring (see lookup_cb()). */
  if (op->op == OP_STORE && g_strcmp0 (self->backend, "auto") == 0 && mcp_credential_is_no_place_to_store (error))
    {
      if (self->fallback_reason == NULL)
        self->fallback_reason = g_strdup (error->message);
      g_error_free (error);
      run_file (task);
      return;
    }

  /* Translators: the first %s is a secret's ID, the second the reason */
  g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_FAILED,
                           op->op == OP_LIST ? _("Could not list the secrets%s in the keyring: %s")
                           : op->op == OP_LOOKUP ? _("Could not read the secret “%s” from the keyring: %s")
                           : op->op == OP_STORE ? _("Could not save the secret “%s” in the keyring: %s")
                           : _("Could not remove the secret “%s” from the keyring: %s"),
                           op->id, error->message);
  g_error_free (error);
}

static void
secret_answered (McpSecretStore *self)
{
  if (self->active_backend == NULL)
    self->active_backend = BACKEND_SECRET_SERVICE;
}

static void
lookup_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  char *secret;

  secret = secret_password_lookup_finish (result, &error);
  if (error != NULL)
    {
      secret_failed (task, error);
      return;
    }
  secret_answered (g_task_get_source_object (task));
  if (secret == NULL)
    {
      if (also_in_file (g_task_get_source_object (task)))
        run_file (task);
      else
        g_task_return_pointer (task, NULL, NULL);
      return;
    }
  g_task_return_pointer (task, g_strdup (secret), g_free);
  secret_password_free (secret);
}

static void
store_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!secret_password_store_finish (result, &error))
    {
      secret_failed (task, error);
      return;
    }
  secret_answered (g_task_get_source_object (task));
  g_task_return_boolean (task, TRUE);
}

static void
clear_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  /* FALSE without an error: nothing matched, which is no error */
  secret_password_clear_finish (result, &error);
  if (error != NULL)
    {
      secret_failed (task, error);
      return;
    }
  secret_answered (g_task_get_source_object (task));
  if (also_in_file (g_task_get_source_object (task)))
    run_file (task);
  else
    g_task_return_boolean (task, TRUE);
}

static void
list_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Op *op = g_task_get_task_data (task);
  GError *error = NULL;
  GList *items;

  items = secret_password_search_finish (result, &error);
  if (error != NULL)
    {
      secret_failed (task, error);
      return;
    }
  secret_answered (g_task_get_source_object (task));
  for (GList *l = items; l != NULL; l = l->next)
    {
      g_autoptr(GHashTable) attributes = secret_retrievable_get_attributes (l->data);
      const char *id = g_hash_table_lookup (attributes, "id");

      if (id != NULL && !g_ptr_array_find_with_equal_func (op->ids, id, g_str_equal, NULL))
        g_ptr_array_add (op->ids, g_strdup (id));
    }
  g_list_free_full (items, g_object_unref);
  if (also_in_file (g_task_get_source_object (task)))
    {
      run_file (task);
      return;
    }
  g_ptr_array_sort (op->ids, compare_ids);
  g_ptr_array_add (op->ids, NULL);
  g_task_return_pointer (task, g_ptr_array_steal (op->ids, NULL), (GDestroyNotify) g_strfreev);
}

static void
start_op (McpSecretStore      *self,
          OpKind               kind,
          const char          *id,
          const char          *value,
          gpointer             source_tag,
          GCancellable        *cancellable,
          GAsyncReadyCallback  callback,
          gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(GHashTable) attributes = NULL;
  Op *op;

  g_task_set_source_tag (task, source_tag);
  if (kind != OP_LIST && !mcp_secret_store_id_is_valid (id))
    {
      g_autofree char *shown = g_utf8_make_valid (id != NULL ? id : "", MIN (strlen (id ? id : ""), 160));

      /* Translators: %s is what was given as a secret's ID */
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_ARGUMENT,
                               _("“%s” is not a secret ID: 1 to 128 letters, digits, “.”, “_” or “-”"),
                               shown);
      return;
    }

  op = g_new0 (Op, 1);
  op->op = kind;
  op->id = g_strdup (kind == OP_LIST ? "" : id);
  op->value = g_strdup (value);
  op->ids = g_ptr_array_new_with_free_func (g_free);
  g_task_set_task_data (task, op, (GDestroyNotify) op_free);

  if (g_str_equal (self->backend, BACKEND_FILE) || g_strcmp0 (self->active_backend, BACKEND_FILE) == 0)
    {
      self->active_backend = BACKEND_FILE;
      run_file (task);
      return;
    }

  attributes = g_hash_table_new (g_str_hash, g_str_equal);
  if (kind != OP_LIST)
    g_hash_table_insert (attributes, (gpointer) "id", op->id);
  switch (kind)
    {
    case OP_LOOKUP:
      secret_password_lookupv (get_schema (), attributes, cancellable, lookup_cb, g_object_ref (task));
      break;
    case OP_STORE:
      {
        g_autofree char *label = g_strdup_printf ("Plugboard: %s", id);

        secret_password_storev (get_schema (), attributes, SECRET_COLLECTION_DEFAULT, label,
                                op->value, cancellable, store_cb, g_object_ref (task));
      }
      break;
    case OP_CLEAR:
      secret_password_clearv (get_schema (), attributes, cancellable, clear_cb, g_object_ref (task));
      break;
    case OP_LIST:
      secret_password_searchv (get_schema (), attributes, SECRET_SEARCH_ALL, cancellable,
                               list_cb, g_object_ref (task));
      break;
    default:
      g_assert_not_reached ();
    }
}

void
mcp_secret_store_store_async (McpSecretStore      *self,
                              const char          *id,
                              const char          *value,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_return_if_fail (MCP_IS_SECRET_STORE (self));
  g_return_if_fail (value != NULL);

  start_op (self, OP_STORE, id, value, mcp_secret_store_store_async, cancellable, callback, user_data);
}

gboolean
mcp_secret_store_store_finish (McpSecretStore  *self,
                               GAsyncResult    *result,
                               GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_secret_store_store_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
mcp_secret_store_lookup_async (McpSecretStore      *self,
                               const char          *id,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_return_if_fail (MCP_IS_SECRET_STORE (self));

  start_op (self, OP_LOOKUP, id, NULL, mcp_secret_store_lookup_async, cancellable, callback, user_data);
}

char *
mcp_secret_store_lookup_finish (McpSecretStore  *self,
                                GAsyncResult    *result,
                                GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_secret_store_lookup_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

void
mcp_secret_store_clear_async (McpSecretStore      *self,
                              const char          *id,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_return_if_fail (MCP_IS_SECRET_STORE (self));

  start_op (self, OP_CLEAR, id, NULL, mcp_secret_store_clear_async, cancellable, callback, user_data);
}

gboolean
mcp_secret_store_clear_finish (McpSecretStore  *self,
                               GAsyncResult    *result,
                               GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_secret_store_clear_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
mcp_secret_store_list_async (McpSecretStore      *self,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_return_if_fail (MCP_IS_SECRET_STORE (self));

  start_op (self, OP_LIST, NULL, NULL, mcp_secret_store_list_async, cancellable, callback, user_data);
}

char **
mcp_secret_store_list_finish (McpSecretStore  *self,
                              GAsyncResult    *result,
                              GError         **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_secret_store_list_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
