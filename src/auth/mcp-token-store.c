/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-token-store"

#include "config.h"

#include "mcp-token-store.h"

#include <errno.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <libsecret/secret.h>

#include "mcp-error.h"
#include "mcp-json-private.h"

#define BACKEND_SECRET_SERVICE "secret-service"
#define BACKEND_FILE           "file"
#define BACKEND_AUTO           "auto"

#define KIND_TOKENS "tokens"
#define KIND_CLIENT "client"

#define FILE_VERSION 1

struct _McpTokenStore
{
  GObject     parent_instance;

  /* owned */
  char       *backend;
  char       *fallback_path;

  /* BACKEND_SECRET_SERVICE, BACKEND_FILE or NULL while undecided */
  const char *active_backend;
  guint       fallback_announced : 1;
};

G_DEFINE_FINAL_TYPE (McpTokenStore, mcp_token_store, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_BACKEND,
  PROP_FALLBACK_PATH,
  PROP_ACTIVE_BACKEND,
  N_PROPS
};

enum {
  FALLBACK_USED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static const SecretSchema *
get_schema (void)
{
  static const SecretSchema schema = {
    "org.plugboard.Plugboard.OAuth",
    SECRET_SCHEMA_NONE,
    {
      { "server", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { "url", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { "kind", SECRET_SCHEMA_ATTRIBUTE_STRING },
      /* Clients only: the authorization server that issued the client_id
       * (absent on clients stored before clients were kept per issuer). */
      { "issuer", SECRET_SCHEMA_ATTRIBUTE_STRING },
      { NULL, 0 },
    }
  };

  return &schema;
}

/* One operation, whichever backend ends up serving it. */
typedef enum
{
  OP_LOOKUP,
  OP_STORE,
  OP_CLEAR,
} OpKind;

typedef struct
{
  OpKind      op;
  const char *kind;         /* KIND_TOKENS / KIND_CLIENT; for OP_CLEAR the one being cleared */
  char       *server_name;
  char       *server_url;
  /* KIND_CLIENT: the issuer the client belongs to; NULL looks up any
   * client of the server (and stores one that names no issuer). */
  char       *issuer;
  JsonNode   *value;        /* OP_STORE */
} Op;

static void
op_free (Op *op)
{
  g_free (op->server_name);
  g_free (op->server_url);
  g_free (op->issuer);
  g_clear_pointer (&op->value, json_node_unref);
  g_free (op);
}

static const char *
describe_kind (const char *kind)
{
  return g_str_equal (kind, KIND_TOKENS) ? _("sign-in") : _("OAuth client");
}

static void run_op   (GTask *task);
static void run_file (GTask *task);

/* Construction */

static void
mcp_token_store_finalize (GObject *object)
{
  McpTokenStore *self = MCP_TOKEN_STORE (object);

  g_clear_pointer (&self->backend, g_free);
  g_clear_pointer (&self->fallback_path, g_free);

  G_OBJECT_CLASS (mcp_token_store_parent_class)->finalize (object);
}

static void
mcp_token_store_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  McpTokenStore *self = MCP_TOKEN_STORE (object);

  switch (prop_id)
    {
    case PROP_BACKEND:
      g_value_set_string (value, self->backend);
      break;

    case PROP_FALLBACK_PATH:
      g_value_set_string (value, self->fallback_path);
      break;

    case PROP_ACTIVE_BACKEND:
      g_value_set_string (value, self->active_backend);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_token_store_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  McpTokenStore *self = MCP_TOKEN_STORE (object);

  switch (prop_id)
    {
    case PROP_BACKEND:
      g_free (self->backend);
      self->backend = g_value_dup_string (value);
      if (self->backend == NULL)
        self->backend = g_strdup (BACKEND_AUTO);
      break;

    case PROP_FALLBACK_PATH:
      g_free (self->fallback_path);
      self->fallback_path = g_value_dup_string (value);
      if (self->fallback_path == NULL)
        self->fallback_path = g_build_filename (g_get_user_data_dir (), "plugboard",
                                                "oauth-credentials.json", NULL);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_token_store_class_init (McpTokenStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mcp_token_store_finalize;
  object_class->get_property = mcp_token_store_get_property;
  object_class->set_property = mcp_token_store_set_property;

  properties[PROP_BACKEND] =
    g_param_spec_string ("backend", NULL, NULL,
                         BACKEND_AUTO,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /* NULL: $XDG_DATA_HOME/plugboard/oauth-credentials.json */
  properties[PROP_FALLBACK_PATH] =
    g_param_spec_string ("fallback-path", NULL, NULL,
                         NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_ACTIVE_BACKEND] =
    g_param_spec_string ("active-backend", NULL, NULL,
                         NULL,
                         G_PARAM_READABLE |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * McpTokenStore::fallback-used:
   *
   * Emitted once, when an "auto" store finds no Secret Service and starts
   * keeping credentials in its file ("fallback-path") instead.
   */
  signals[FALLBACK_USED] =
    g_signal_new ("fallback-used",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
mcp_token_store_init (McpTokenStore *self)
{
}

McpTokenStore *
mcp_token_store_new (const char *backend,
                     const char *fallback_path)
{
  g_return_val_if_fail (backend == NULL ||
                        g_str_equal (backend, BACKEND_AUTO) ||
                        g_str_equal (backend, BACKEND_FILE) ||
                        g_str_equal (backend, BACKEND_SECRET_SERVICE), NULL);

  return g_object_new (MCP_TYPE_TOKEN_STORE,
                       "backend", backend,
                       "fallback-path", fallback_path,
                       NULL);
}

McpTokenStore *
mcp_token_store_get_default (void)
{
  static McpTokenStore *default_store;

  if (g_once_init_enter (&default_store))
    {
      McpTokenStore *store = mcp_token_store_new (BACKEND_AUTO, NULL);

      g_once_init_leave (&default_store, store);
    }

  return default_store;
}

const char *
mcp_token_store_get_active_backend (McpTokenStore *self)
{
  g_return_val_if_fail (MCP_IS_TOKEN_STORE (self), NULL);

  return self->active_backend;
}

static void
set_active_backend (McpTokenStore *self,
                    const char    *backend)
{
  if (self->active_backend == backend)
    return;

  self->active_backend = backend;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ACTIVE_BACKEND]);
}

/* Results */

static void
return_lookup (GTask    *task,
               JsonNode *node,
               const char *where)
{
  Op *op = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (node == NULL)
    {
      g_task_return_pointer (task, NULL, NULL);
      return;
    }

  if (g_str_equal (op->kind, KIND_TOKENS))
    {
      McpOAuthTokens *tokens = mcp_oauth_tokens_from_json (node, &error);

      if (tokens != NULL)
        {
          g_task_return_pointer (task, tokens, (GDestroyNotify) mcp_oauth_tokens_free);
          return;
        }
    }
  else
    {
      McpOAuthClientInfo *client = mcp_oauth_client_info_from_json (node, &error);

      if (client != NULL)
        {
          g_task_return_pointer (task, client, (GDestroyNotify) mcp_oauth_client_info_free);
          return;
        }
    }

  /* Translators: the first %s is “sign-in” or “OAuth client”, the second the server's name,
   * the third its URL, the fourth a file name or “the keyring”, the last the reason */
  g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("The stored %s for “%s” (%s) in %s cannot be read: %s. Sign in again to replace it."),
                           describe_kind (op->kind), op->server_name, op->server_url, where,
                           error != NULL ? error->message : _("not a valid record"));
}

/* The file backend: { "version": 1, "entries": { "<kind>\n<server>\n<url>": value } };
 * a client that names its issuer: "client\n<server>\n<url>\n<issuer>". */

static char *
file_key (const char *kind,
          const char *server_name,
          const char *server_url)
{
  return g_strconcat (kind, "\n", server_name, "\n", server_url, NULL);
}

static char *
op_file_key (Op *op)
{
  if (g_str_equal (op->kind, KIND_CLIENT) && op->issuer != NULL)
    return g_strconcat (op->kind, "\n", op->server_name, "\n", op->server_url, "\n", op->issuer, NULL);
  return file_key (op->kind, op->server_name, op->server_url);
}

/* Every client entry of a server, whatever its issuer. */
static GPtrArray *
client_keys (JsonObject *entries,
             const char *server_name,
             const char *server_url)
{
  g_autofree char *key = file_key (KIND_CLIENT, server_name, server_url);
  g_autofree char *prefix = g_strconcat (key, "\n", NULL);
  g_autoptr(GList) members = json_object_get_members (entries);
  GPtrArray *keys = g_ptr_array_new_with_free_func (g_free);

  for (GList *l = members; l != NULL; l = l->next)
    if (g_str_equal (l->data, key) || g_str_has_prefix (l->data, prefix))
      g_ptr_array_add (keys, g_strdup (l->data));
  return keys;
}

/* Loads the file; a missing file is an empty document. A file that cannot
 * be read or parsed is an error: it must not be overwritten. */
static JsonNode *
load_file (McpTokenStore  *self,
           JsonObject    **entries_out,
           gboolean       *exists,
           GError        **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;
  JsonNode *entries;

  *exists = FALSE;

  if (!g_file_get_contents (self->fallback_path, &contents, &length, &local_error))
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        {
          g_autoptr(JsonObject) new_object = json_object_new ();

          json_object_set_int_member (new_object, "version", FILE_VERSION);
          json_object_set_object_member (new_object, "entries", json_object_new ());
          *entries_out = json_object_get_object_member (new_object, "entries");
          root = json_node_new (JSON_NODE_OBJECT);
          json_node_set_object (root, new_object);
          return g_steal_pointer (&root);
        }

      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("Could not read the sign-in file %s: %s"),
                   self->fallback_path, local_error->message);
      return NULL;
    }

  *exists = TRUE;

  /* Strict RFC 8259: json-glib reads "\7" as an octal escape into a
   * string that is not UTF-8, which, written back, made a file no one
   * could read. */
  root = mcp_json_parse (contents, length, &local_error);
  if (root == NULL)
    {
      g_autofree char *reason = g_utf8_make_valid (local_error->message, -1);

      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("The sign-in file %s is not valid JSON (%s). Plugboard will not overwrite it; "
                     "move it away to sign in again."),
                   self->fallback_path, reason);
      return NULL;
    }

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("The sign-in file %s is not a JSON object. Plugboard will not overwrite it; "
                     "move it away to sign in again."),
                   self->fallback_path);
      return NULL;
    }

  object = json_node_get_object (root);
  entries = json_object_get_member (object, "entries");
  if (entries == NULL)
    {
      json_object_set_object_member (object, "entries", json_object_new ());
    }
  else if (!JSON_NODE_HOLDS_OBJECT (entries))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("The sign-in file %s: $.entries is not an object. Plugboard will not overwrite it; "
                     "move it away to sign in again."),
                   self->fallback_path);
      return NULL;
    }

  *entries_out = json_object_get_object_member (object, "entries");
  return g_steal_pointer (&root);
}

static gboolean
save_file (McpTokenStore  *self,
           JsonNode       *root,
           GError        **error)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(GError) local_error = NULL;
  g_autofree char *dir = g_path_get_dirname (self->fallback_path);
  g_autofree char *data = NULL;
  gsize length;
  gboolean ok;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Could not create the folder %s for the sign-in file: %s"),
                   dir, g_strerror (saved_errno));
      return FALSE;
    }

  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  data = json_generator_to_data (generator, &length);

  ok = g_file_set_contents_full (self->fallback_path, data, length,
                                 G_FILE_SET_CONTENTS_CONSISTENT, 0600, &local_error);
  /* The document holds secrets: do not leave them in freed memory. */
  memset (data, 0, length);

  if (!ok)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("Could not write the sign-in file %s: %s"),
                   self->fallback_path, local_error->message);
      return FALSE;
    }

  return TRUE;
}

static void
run_file (GTask *task)
{
  McpTokenStore *self = g_task_get_source_object (task);
  Op *op = g_task_get_task_data (task);
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *entries = NULL;
  gboolean exists;

  if (g_task_return_error_if_cancelled (task))
    return;

  root = load_file (self, &entries, &exists, &error);
  if (root == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  switch (op->op)
    {
    case OP_LOOKUP:
      {
        g_autofree char *key = op_file_key (op);
        JsonNode *value = json_object_get_member (entries, key);

        if (value == NULL && g_str_equal (op->kind, KIND_CLIENT) && op->issuer == NULL)
          {
            g_autoptr(GPtrArray) keys = client_keys (entries, op->server_name, op->server_url);

            if (keys->len > 0)
              value = json_object_get_member (entries, g_ptr_array_index (keys, 0));
          }
        return_lookup (task, value, self->fallback_path);
      }
      break;

    case OP_STORE:
      {
        g_autofree char *key = op_file_key (op);

        json_object_set_member (entries, key, json_node_copy (op->value));
        if (save_file (self, root, &error))
          g_task_return_boolean (task, TRUE);
        else
          g_task_return_error (task, g_steal_pointer (&error));
      }
      break;

    case OP_CLEAR:
      {
        g_autofree char *tokens_key = file_key (KIND_TOKENS, op->server_name, op->server_url);
        g_autoptr(GPtrArray) keys = client_keys (entries, op->server_name, op->server_url);
        gboolean changed = FALSE;

        if (json_object_has_member (entries, tokens_key))
          {
            json_object_remove_member (entries, tokens_key);
            changed = TRUE;
          }
        /* The clients of every issuer. */
        for (guint i = 0; i < keys->len; i++)
          {
            json_object_remove_member (entries, g_ptr_array_index (keys, i));
            changed = TRUE;
          }

        if (changed && !save_file (self, root, &error))
          g_task_return_error (task, g_steal_pointer (&error));
        else
          g_task_return_boolean (task, TRUE);
      }
      break;

    default:
      g_assert_not_reached ();
    }
}

/* The Secret Service backend */

/* Errors that mean "there is no Secret Service here" (no session bus, no
 * provider of org.freedesktop.secrets, a sandbox that hides it), as opposed
 * to one that answered and failed. */
static gboolean
is_no_secret_service (const GError *error)
{
  if (error->domain == G_DBUS_ERROR)
    {
      switch (error->code)
        {
        case G_DBUS_ERROR_SERVICE_UNKNOWN:
        case G_DBUS_ERROR_NAME_HAS_NO_OWNER:
        case G_DBUS_ERROR_NO_SERVER:
        case G_DBUS_ERROR_DISCONNECTED:
        case G_DBUS_ERROR_FILE_NOT_FOUND:
        case G_DBUS_ERROR_ACCESS_DENIED:
        case G_DBUS_ERROR_UNKNOWN_METHOD:
        case G_DBUS_ERROR_UNKNOWN_OBJECT:
        case G_DBUS_ERROR_UNKNOWN_INTERFACE:
        case G_DBUS_ERROR_SPAWN_EXEC_FAILED:
        case G_DBUS_ERROR_SPAWN_FORK_FAILED:
        case G_DBUS_ERROR_SPAWN_CHILD_EXITED:
        case G_DBUS_ERROR_SPAWN_CHILD_SIGNALED:
        case G_DBUS_ERROR_SPAWN_FAILED:
        case G_DBUS_ERROR_SPAWN_SETUP_FAILED:
        case G_DBUS_ERROR_SPAWN_CONFIG_INVALID:
        case G_DBUS_ERROR_SPAWN_SERVICE_INVALID:
        case G_DBUS_ERROR_SPAWN_SERVICE_NOT_FOUND:
        case G_DBUS_ERROR_SPAWN_PERMISSIONS_INVALID:
        case G_DBUS_ERROR_SPAWN_FILE_INVALID:
        case G_DBUS_ERROR_SPAWN_NO_MEMORY:
          return TRUE;
        default:
          return FALSE;
        }
    }

  if (error->domain == G_IO_ERROR)
    {
      switch (error->code)
        {
        /* Connecting to the session bus: no socket, nobody listening, or
         * no address and no way to autolaunch one. */
        case G_IO_ERROR_NOT_FOUND:
        case G_IO_ERROR_CONNECTION_REFUSED:
        case G_IO_ERROR_CLOSED:
        case G_IO_ERROR_BROKEN_PIPE:
        case G_IO_ERROR_PERMISSION_DENIED:
        case G_IO_ERROR_NOT_SUPPORTED:
        case G_IO_ERROR_INVALID_ARGUMENT:
        case G_IO_ERROR_FAILED:
          return TRUE;
        default:
          return FALSE;
        }
    }

  return error->domain == G_SPAWN_ERROR;
}

/* Without an issuer, the attributes match the server's clients of every
 * issuer (a lookup takes one of them, a clear removes them all). */
static GHashTable *
make_attributes (const char *kind,
                 const char *server_name,
                 const char *server_url,
                 const char *issuer)
{
  GHashTable *attributes = g_hash_table_new (g_str_hash, g_str_equal);

  g_hash_table_insert (attributes, (gpointer) "server", (gpointer) server_name);
  g_hash_table_insert (attributes, (gpointer) "url", (gpointer) server_url);
  g_hash_table_insert (attributes, (gpointer) "kind", (gpointer) kind);
  if (issuer != NULL && g_str_equal (kind, KIND_CLIENT))
    g_hash_table_insert (attributes, (gpointer) "issuer", (gpointer) issuer);

  return attributes;
}

static void
fall_back_to_file (McpTokenStore *self,
                   const GError  *why)
{
  set_active_backend (self, BACKEND_FILE);

  if (self->fallback_announced)
    return;

  self->fallback_announced = TRUE;
  /* Translators: the first %s is the reason, the second a file name */
  g_message (_("No Secret Service is available (%s); OAuth sign-ins are kept in %s instead"),
             why->message, self->fallback_path);
  g_signal_emit (self, signals[FALLBACK_USED], 0);
}

/* Takes @error: either switches to the file and runs the operation there,
 * or returns the error. */
static void
secret_failed (GTask  *task,
               GError *error)
{
  McpTokenStore *self = g_task_get_source_object (task);
  Op *op = g_task_get_task_data (task);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, error);
      return;
    }

  /* Fall back only while undecided (or already fallen back, for an
   * operation that was started before): once the keyring has answered, the
   * credentials live there and a second copy elsewhere would diverge. */
  if (g_str_equal (self->backend, BACKEND_AUTO) &&
      g_strcmp0 (self->active_backend, BACKEND_SECRET_SERVICE) != 0 &&
      is_no_secret_service (error))
    {
      fall_back_to_file (self, error);
      g_error_free (error);
      run_file (task);
      return;
    }

  switch (op->op)
    {
    case OP_LOOKUP:
      /* Translators: the first %s is “sign-in” or “OAuth client”, the second the server's name, the third its URL */
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_FAILED,
                               _("Could not read the %s for “%s” (%s) from the keyring: %s"),
                               describe_kind (op->kind), op->server_name, op->server_url,
                               error->message);
      break;
    case OP_STORE:
      /* Translators: the first %s is “sign-in” or “OAuth client”, the second the server's name, the third its URL */
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_FAILED,
                               _("Could not save the %s for “%s” (%s) in the keyring: %s"),
                               describe_kind (op->kind), op->server_name, op->server_url,
                               error->message);
      break;
    case OP_CLEAR:
      /* Translators: the first %s is “sign-in” or “OAuth client”, the second the server's name, the third its URL */
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_FAILED,
                               _("Could not remove the %s for “%s” (%s) from the keyring: %s"),
                               describe_kind (op->kind), op->server_name, op->server_url,
                               error->message);
      break;
    default:
      g_assert_not_reached ();
    }

  g_error_free (error);
}

static void
secret_answered (McpTokenStore *self)
{
  if (self->active_backend == NULL)
    set_active_backend (self, BACKEND_SECRET_SERVICE);
}

static void
lookup_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpTokenStore *self = g_task_get_source_object (task);
  Op *op = g_task_get_task_data (task);
  g_autoptr(JsonNode) root = NULL;
  GError *error = NULL;
  char *secret;

  secret = secret_password_lookup_finish (result, &error);
  if (error != NULL)
    {
      secret_failed (task, error);
      return;
    }

  secret_answered (self);

  if (secret == NULL)
    {
      g_task_return_pointer (task, NULL, NULL);
      return;
    }

  root = mcp_json_parse (secret, strlen (secret), NULL);
  if (root == NULL)
    {
      secret_password_free (secret);
      /* Translators: the first %s is “sign-in” or “OAuth client”, the second the server's name, the third its URL */
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                               _("The stored %s for “%s” (%s) in the keyring cannot be read: "
                                 "it is not JSON. Sign in again to replace it."),
                               describe_kind (op->kind), op->server_name, op->server_url);
      return;
    }
  secret_password_free (secret);

  return_lookup (task, root, _("the keyring"));
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
  Op *op = g_task_get_task_data (task);
  GError *error = NULL;

  /* FALSE without an error: nothing matched. */
  secret_password_clear_finish (result, &error);
  if (error != NULL)
    {
      secret_failed (task, error);
      return;
    }

  secret_answered (g_task_get_source_object (task));

  if (g_str_equal (op->kind, KIND_TOKENS))
    {
      op->kind = KIND_CLIENT;
      run_op (g_steal_pointer (&task));
      return;
    }

  g_task_return_boolean (task, TRUE);
}

static void
run_secret (GTask *task)
{
  Op *op = g_task_get_task_data (task);
  g_autoptr(GHashTable) attributes = NULL;
  GCancellable *cancellable = g_task_get_cancellable (task);

  /* A clear removes the clients of every issuer. */
  attributes = make_attributes (op->kind, op->server_name, op->server_url,
                                op->op == OP_CLEAR ? NULL : op->issuer);

  switch (op->op)
    {
    case OP_LOOKUP:
      secret_password_lookupv (get_schema (), attributes, cancellable, lookup_cb, task);
      break;

    case OP_STORE:
      {
        g_autofree char *label = NULL;
        g_autofree char *password = json_to_string (op->value, FALSE);

        if (g_str_equal (op->kind, KIND_TOKENS))
          label = g_strdup_printf (_("Plugboard sign-in for “%s”"), op->server_name);
        else
          label = g_strdup_printf (_("Plugboard OAuth client for “%s”"), op->server_name);

        secret_password_storev (get_schema (), attributes, SECRET_COLLECTION_DEFAULT,
                                label, password, cancellable, store_cb, task);
        memset (password, 0, strlen (password));
      }
      break;

    case OP_CLEAR:
      secret_password_clearv (get_schema (), attributes, cancellable, clear_cb, task);
      break;

    default:
      g_assert_not_reached ();
    }
}

/* Takes @task. */
static void
run_op (GTask *task)
{
  McpTokenStore *self = g_task_get_source_object (task);

  if (g_str_equal (self->backend, BACKEND_FILE) ||
      g_strcmp0 (self->active_backend, BACKEND_FILE) == 0)
    {
      if (self->active_backend == NULL)
        set_active_backend (self, BACKEND_FILE);
      run_file (task);
      g_object_unref (task);
      return;
    }

  run_secret (task);
}

static void
start_op (McpTokenStore       *self,
          OpKind               kind_of_op,
          const char          *kind,
          const char          *server_name,
          const char          *server_url,
          const char          *issuer,
          JsonNode            *value,
          gpointer             source_tag,
          GCancellable        *cancellable,
          GAsyncReadyCallback  callback,
          gpointer             user_data)
{
  GTask *task;
  Op *op;

  op = g_new0 (Op, 1);
  op->op = kind_of_op;
  op->kind = kind;
  op->server_name = g_strdup (server_name);
  op->server_url = g_strdup (server_url);
  op->issuer = g_strdup (issuer);
  op->value = value;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, op, (GDestroyNotify) op_free);

  run_op (task);
}

/* Public API */

void
mcp_token_store_lookup_tokens_async (McpTokenStore       *self,
                                     const char          *server_name,
                                     const char          *server_url,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_return_if_fail (MCP_IS_TOKEN_STORE (self));
  g_return_if_fail (server_name != NULL);
  g_return_if_fail (server_url != NULL);

  start_op (self, OP_LOOKUP, KIND_TOKENS, server_name, server_url, NULL, NULL,
            mcp_token_store_lookup_tokens_async, cancellable, callback, user_data);
}

McpOAuthTokens *
mcp_token_store_lookup_tokens_finish (McpTokenStore  *self,
                                      GAsyncResult   *result,
                                      GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_token_store_lookup_tokens_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

void
mcp_token_store_store_tokens_async (McpTokenStore        *self,
                                    const char           *server_name,
                                    const char           *server_url,
                                    const McpOAuthTokens *tokens,
                                    GCancellable         *cancellable,
                                    GAsyncReadyCallback   callback,
                                    gpointer              user_data)
{
  g_return_if_fail (MCP_IS_TOKEN_STORE (self));
  g_return_if_fail (server_name != NULL);
  g_return_if_fail (server_url != NULL);
  g_return_if_fail (tokens != NULL);

  start_op (self, OP_STORE, KIND_TOKENS, server_name, server_url, NULL,
            mcp_oauth_tokens_to_json (tokens),
            mcp_token_store_store_tokens_async, cancellable, callback, user_data);
}

gboolean
mcp_token_store_store_tokens_finish (McpTokenStore  *self,
                                     GAsyncResult   *result,
                                     GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_token_store_store_tokens_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
mcp_token_store_lookup_client_async (McpTokenStore       *self,
                                     const char          *server_name,
                                     const char          *server_url,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_return_if_fail (MCP_IS_TOKEN_STORE (self));
  g_return_if_fail (server_name != NULL);
  g_return_if_fail (server_url != NULL);

  start_op (self, OP_LOOKUP, KIND_CLIENT, server_name, server_url, NULL, NULL,
            mcp_token_store_lookup_client_async, cancellable, callback, user_data);
}

McpOAuthClientInfo *
mcp_token_store_lookup_client_finish (McpTokenStore  *self,
                                      GAsyncResult   *result,
                                      GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_token_store_lookup_client_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

void
mcp_token_store_lookup_issuer_client_async (McpTokenStore       *self,
                                            const char          *server_name,
                                            const char          *server_url,
                                            const char          *issuer,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data)
{
  g_return_if_fail (MCP_IS_TOKEN_STORE (self));
  g_return_if_fail (server_name != NULL);
  g_return_if_fail (server_url != NULL);
  g_return_if_fail (issuer != NULL);

  start_op (self, OP_LOOKUP, KIND_CLIENT, server_name, server_url, issuer, NULL,
            mcp_token_store_lookup_issuer_client_async, cancellable, callback, user_data);
}

McpOAuthClientInfo *
mcp_token_store_lookup_issuer_client_finish (McpTokenStore  *self,
                                             GAsyncResult   *result,
                                             GError        **error)
{
  g_autoptr(McpOAuthClientInfo) client = NULL;
  Op *op;

  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_token_store_lookup_issuer_client_async, NULL);

  op = g_task_get_task_data (G_TASK (result));
  client = g_task_propagate_pointer (G_TASK (result), error);
  /* What the record says counts, not where it was found. */
  if (client != NULL && g_strcmp0 (client->issuer, op->issuer) != 0)
    return NULL;
  return g_steal_pointer (&client);
}

void
mcp_token_store_store_client_async (McpTokenStore            *self,
                                    const char               *server_name,
                                    const char               *server_url,
                                    const McpOAuthClientInfo *client,
                                    GCancellable             *cancellable,
                                    GAsyncReadyCallback       callback,
                                    gpointer                  user_data)
{
  g_return_if_fail (MCP_IS_TOKEN_STORE (self));
  g_return_if_fail (server_name != NULL);
  g_return_if_fail (server_url != NULL);
  g_return_if_fail (client != NULL);

  start_op (self, OP_STORE, KIND_CLIENT, server_name, server_url, client->issuer,
            mcp_oauth_client_info_to_json (client),
            mcp_token_store_store_client_async, cancellable, callback, user_data);
}

gboolean
mcp_token_store_store_client_finish (McpTokenStore  *self,
                                     GAsyncResult   *result,
                                     GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_token_store_store_client_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
mcp_token_store_clear_async (McpTokenStore       *self,
                             const char          *server_name,
                             const char          *server_url,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_return_if_fail (MCP_IS_TOKEN_STORE (self));
  g_return_if_fail (server_name != NULL);
  g_return_if_fail (server_url != NULL);

  start_op (self, OP_CLEAR, KIND_TOKENS, server_name, server_url, NULL, NULL,
            mcp_token_store_clear_async, cancellable, callback, user_data);
}

gboolean
mcp_token_store_clear_finish (McpTokenStore  *self,
                              GAsyncResult   *result,
                              GError        **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_token_store_clear_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
