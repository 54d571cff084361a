/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-token-store"

#include "config.h"

#include "mcp-token-store.h"

#include <string.h>
#include <glib/gi18n-lib.h>
#include <libsecret/secret.h>

#include "mcp-error.h"
#include "mcp-json-private.h"

#include "mcp-credential-file-private.h"
#include "mcp-token-store-private.h"

/* McpTokenStore's Secret Service backend (libsecret), and the fall back
 * to the file when there is no Secret Service here. */

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

/* The Secret Service backend */

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
  if (mcp_credential_should_fall_back (self->backend, self->active_backend, error))
    {
      mcp_token_store_fall_back_to_file (self, error);
      g_error_free (error);
      mcp_token_store_run_file (task);
      return;
    }

  /* A keyring with nowhere to keep a new secret must not lose the
   * sign-in: it goes to the 0600 file, with the notice, and lookups read
   * the file after the keyring (lookup_cb()). The keyring stays the
   * store for everything else. */
  if (op->op == OP_STORE && g_strcmp0 (self->backend, "auto") == 0 &&
      mcp_credential_is_no_place_to_store (error))
    {
      if (self->fallback_reason == NULL)
        self->fallback_reason = g_strdup (error->message);
      g_error_free (error);
      mcp_token_store_run_file (task);
      return;
    }

  switch (op->op)
    {
    case OP_LOOKUP:
      /* Translators: the first %s is “sign-in” or “OAuth client”, the second the server's name, the third its URL */
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_FAILED,
                               _("Could not read the %s for “%s” (%s) from the keyring: %s"),
                               mcp_token_store_describe_kind (op->kind), op->server_name, op->server_url,
                               error->message);
      break;
    case OP_STORE:
      /* Translators: the first %s is “sign-in” or “OAuth client”, the second the server's name, the third its URL */
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_FAILED,
                               _("Could not save the %s for “%s” (%s) in the keyring: %s"),
                               mcp_token_store_describe_kind (op->kind), op->server_name, op->server_url,
                               error->message);
      break;
    case OP_CLEAR:
      /* Translators: the first %s is “sign-in” or “OAuth client”, the second the server's name, the third its URL */
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_FAILED,
                               _("Could not remove the %s for “%s” (%s) from the keyring: %s"),
                               mcp_token_store_describe_kind (op->kind), op->server_name, op->server_url,
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
    mcp_token_store_set_active_backend (self, BACKEND_SECRET_SERVICE);
}

/* In "auto", the fallback file (when there is one) is read after the
 * keyring, and cleared with it: what was stored while the keyring had no
 * place for it is still found, and still forgotten on sign-out. */
static gboolean
also_in_file (McpTokenStore *self)
{
  return mcp_credential_file_also_read (self->backend, self->fallback_path);
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
      if (also_in_file (self))
        mcp_token_store_run_file (task);
      else
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
                               mcp_token_store_describe_kind (op->kind), op->server_name, op->server_url);
      return;
    }
  secret_password_free (secret);

  mcp_token_store_return_lookup (task, root, _("the keyring"));
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
      mcp_token_store_run_op (g_steal_pointer (&task));
      return;
    }

  /* The file's copy (tokens and clients) goes too. */
  if (also_in_file (g_task_get_source_object (task)))
    mcp_token_store_run_file (task);
  else
    g_task_return_boolean (task, TRUE);
}

void
mcp_token_store_run_secret (GTask *task)
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

