/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-registry-install"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mcp-registry-install.h"
#include "mcp-secret-store.h"

/* Installing from the registry: the entry is built first (so that a
 * missing or wrong value fails before anything is stored), then, for
 * Plugboard's own settings, each secret goes to the McpSecretStore under
 * an ID no other secret has, then the entry is written; a write that fails
 * takes the secrets it stored back out. */

#define MAX_ID_TRIES 100

typedef struct
{
  McpProject        *project;
  McpRegistryServer *server;
  McpRegistryChoice *choice;       /* borrowed from @server */
  GHashTable        *values;
  char              *name;
  McpClientKind      target;
  McpConfigScope     scope;

  McpSettings       *settings;     /* the target's */
  gboolean           own;          /* the project's own settings */
  gboolean           use_store;    /* Plugboard's: secrets in the McpSecretStore */
  GPtrArray         *secret_inputs; /* McpRegistryInput *, borrowed */
  GHashTable        *refs;         /* input name → "${secret:ID}" */
  GPtrArray         *ids;          /* the IDs, as secret_inputs */
  GPtrArray         *stored;       /* IDs stored, to take back on failure */
  guint              next;
  guint              tries;
  JsonObject        *entry;
  GPtrArray         *notes;
  GError            *failure;      /* the write's, while stored secrets go */
} Install;

static void
install_free (Install *install)
{
  g_clear_object (&install->project);
  g_clear_object (&install->server);
  g_clear_pointer (&install->values, g_hash_table_unref);
  g_free (install->name);
  g_clear_object (&install->settings);
  g_clear_pointer (&install->secret_inputs, g_ptr_array_unref);
  g_clear_pointer (&install->refs, g_hash_table_unref);
  g_clear_pointer (&install->ids, g_ptr_array_unref);
  g_clear_pointer (&install->stored, g_ptr_array_unref);
  g_clear_pointer (&install->entry, json_object_unref);
  g_clear_pointer (&install->notes, g_ptr_array_unref);
  g_clear_error (&install->failure);
  g_free (install);
}

/* The value the person gave @input, or its default */
static const char *
input_value (Install                *install,
             const McpRegistryInput *input)
{
  const char *value = install->values != NULL ? g_hash_table_lookup (install->values, input->name) : NULL;

  if (value == NULL || *value == '\0')
    value = input->default_value;
  return value != NULL && *value != '\0' ? value : NULL;
}

static void
return_name (GTask *task)
{
  Install *install = g_task_get_task_data (task);

  g_task_return_pointer (task, g_strdup (install->name), g_free);
}

/* Taking back what was stored before the write failed */

static void clear_next (GTask *task);

static void
clear_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_secret_store_clear_finish (MCP_SECRET_STORE (object), result, &error))
    g_message ("Could not remove a secret stored for an install that failed: %s", error->message);
  clear_next (g_steal_pointer (&task));
}

/* Takes @task */
static void
clear_next (GTask *task)
{
  Install *install = g_task_get_task_data (task);

  if (install->stored->len == 0)
    {
      g_task_return_error (task, g_steal_pointer (&install->failure));
      g_object_unref (task);
      return;
    }
  mcp_secret_store_clear_async (mcp_secret_store_get_default (),
                                g_ptr_array_index (install->stored, install->stored->len - 1),
                                NULL, clear_cb, task);
  g_ptr_array_remove_index (install->stored, install->stored->len - 1);
}

static void
install_failed (GTask  *task,
                GError *error)
{
  Install *install = g_task_get_task_data (task);

  install->failure = error;
  clear_next (g_object_ref (task));
}

/* Writing the entry */

static void
written_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Install *install = g_task_get_task_data (task);
  GError *error = NULL;
  gboolean ok;

  if (install->own)
    ok = mcp_project_add_server_finish (MCP_PROJECT (object), result, &error);
  else
    ok = mcp_settings_add_server_finish (MCP_SETTINGS (object), result, &error);
  if (!ok)
    {
      install_failed (task, error);
      return;
    }
  return_name (task);
}

static void
write_entry (GTask *task)
{
  Install *install = g_task_get_task_data (task);
  GCancellable *cancellable = g_task_get_cancellable (task);

  /* The project's own: it reloads and its manager connects the server */
  if (install->own)
    mcp_project_add_server_async (install->project, install->name, install->scope, install->entry,
                                  cancellable, written_cb, g_object_ref (task));
  else
    mcp_settings_add_server_async (install->settings, install->name, install->scope, install->entry,
                                   cancellable, written_cb, g_object_ref (task));
}

/* Storing the secrets (Plugboard's own settings) */

static void store_next (GTask *task);

static void
stored_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Install *install = g_task_get_task_data (task);
  GError *error = NULL;

  if (!mcp_secret_store_store_finish (MCP_SECRET_STORE (object), result, &error))
    {
      install_failed (task, error);
      return;
    }
  g_ptr_array_add (install->stored, g_strdup (g_ptr_array_index (install->ids, install->next)));
  install->next++;
  store_next (g_steal_pointer (&task));
}

/* Takes @task */
static void
store_next (GTask *task)
{
  Install *install = g_task_get_task_data (task);
  const McpRegistryInput *input;

  if (install->next == install->secret_inputs->len)
    {
      write_entry (task);
      g_object_unref (task);
      return;
    }
  input = g_ptr_array_index (install->secret_inputs, install->next);
  mcp_secret_store_store_async (mcp_secret_store_get_default (),
                                g_ptr_array_index (install->ids, install->next),
                                input_value (install, input),
                                g_task_get_cancellable (task), stored_cb, task);
}

static gboolean
build_entry (GTask *task)
{
  Install *install = g_task_get_task_data (task);
  GError *error = NULL;

  g_clear_pointer (&install->entry, json_object_unref);
  install->entry = mcp_registry_server_build_entry (install->server, install->choice, install->values,
                                                    install->use_store ? install->refs : NULL, &error);
  if (install->entry == NULL)
    {
      g_task_return_error (task, error);
      return FALSE;
    }
  return TRUE;
}

/* Finding for each secret an ID no stored secret has */

static void find_ids_next (GTask *task);

static void
id_lookup_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Install *install = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autofree char *existing = NULL;
  const McpRegistryInput *input = g_ptr_array_index (install->secret_inputs, install->next);

  existing = mcp_secret_store_lookup_finish (MCP_SECRET_STORE (object), result, &error);
  if (error != NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (existing != NULL)
    {
      g_autofree char *base = mcp_secret_store_make_id (install->name, input->name);

      memset (existing, 0, strlen (existing));
      if (++install->tries >= MAX_ID_TRIES)
        {
          /* Translators: %s is a server's name */
          g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_FAILED,
                                   _("Could not find a free name for a secret of “%s”"), install->name);
          return;
        }
      g_free (install->ids->pdata[install->next]);
      install->ids->pdata[install->next] = g_strdup_printf ("%s-%u", base, install->tries + 1);
    }
  else
    {
      install->next++;
      install->tries = 0;
    }
  find_ids_next (g_steal_pointer (&task));
}

/* Takes @task */
static void
find_ids_next (GTask *task)
{
  Install *install = g_task_get_task_data (task);

  if (install->next == install->secret_inputs->len)
    {
      for (guint i = 0; i < install->secret_inputs->len; i++)
        {
          const McpRegistryInput *input = g_ptr_array_index (install->secret_inputs, i);

          g_hash_table_insert (install->refs, g_strdup (input->name),
                               g_strdup_printf ("${secret:%s}", (char *) g_ptr_array_index (install->ids, i)));
        }
      if (!build_entry (task))
        {
          g_object_unref (task);
          return;
        }
      install->next = 0;
      store_next (task);
      return;
    }
  mcp_secret_store_lookup_async (mcp_secret_store_get_default (),
                                 g_ptr_array_index (install->ids, install->next),
                                 g_task_get_cancellable (task), id_lookup_cb, task);
}

/* Notes for another client: what its shape says of the entry, and where
 * its secrets end up. */
static void
add_client_notes (Install *install)
{
  g_autoptr(JsonArray) inputs = json_array_new ();
  g_autoptr(JsonObject) converted = NULL;
  g_autoptr(GError) error = NULL;
  McpClientShapeContext context = {
    .home = g_get_home_dir (),
    .project_dir = mcp_project_get_project_dir (install->project),
    .new_inputs = install->target == MCP_CLIENT_KIND_VSCODE ? inputs : NULL,
  };

  converted = mcp_client_shape_from_plugboard (install->target, install->name, install->entry, NULL,
                                               &context, install->notes, &error);
  if (converted == NULL)
    g_ptr_array_add (install->notes, g_strdup (error->message));

  for (guint i = 0; i < install->secret_inputs->len; i++)
    {
      const McpRegistryInput *input = g_ptr_array_index (install->secret_inputs, i);

      if (install->target == MCP_CLIENT_KIND_VSCODE)
        /* Translators: the first %s is a secret's name, the second a product name */
        g_ptr_array_add (install->notes,
                         g_strdup_printf (_("%s: %s asks for it when it starts the server"),
                                          input->name, mcp_client_kind_get_display_name (install->target)));
      else
        /* Translators: the first %s is a secret's name, the second a product name, the last a file */
        g_ptr_array_add (install->notes,
                         g_strdup_printf (_("%s: kept in %s's file %s, as it keeps its secrets"),
                                          input->name, mcp_client_kind_get_display_name (install->target),
                                          mcp_settings_get_file (install->settings, install->scope)));
    }
}

/* The target's settings are loaded: the name must be free */
static void
settings_ready (GTask *task)
{
  Install *install = g_task_get_task_data (task);

  if (!mcp_settings_has_scope (install->settings, install->scope))
    {
      /* Translators: %s is a product name */
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                               _("%s has no settings file for that scope"),
                               mcp_client_kind_get_display_name (install->target));
      g_object_unref (task);
      return;
    }
  if (mcp_settings_lookup (install->settings, install->name) != NULL ||
      mcp_settings_lookup_in_scope (install->settings, install->name, install->scope) != NULL)
    {
      /* Translators: the first %s is a server's name, the second a product name */
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                               _("A server named “%s” is already in the settings of %s; "
                                 "choose another name"),
                               install->name, mcp_client_kind_get_display_name (install->target));
      g_object_unref (task);
      return;
    }

  if (!install->use_store)
    {
      /* The client keeps the values in its file (VS Code asks for them) */
      if (!build_entry (task))
        {
          g_object_unref (task);
          return;
        }
      add_client_notes (install);
      write_entry (task);
      g_object_unref (task);
      return;
    }

  for (guint i = 0; i < install->secret_inputs->len; i++)
    {
      const McpRegistryInput *input = g_ptr_array_index (install->secret_inputs, i);

      g_ptr_array_add (install->ids, mcp_secret_store_make_id (install->name, input->name));
      /* Placeholders, so that the entry is checked before anything is stored */
      g_hash_table_insert (install->refs, g_strdup (input->name), g_strdup ("${secret:pending}"));
    }
  if (!build_entry (task))
    {
      g_object_unref (task);
      return;
    }
  find_ids_next (task);
}

static void
settings_loaded_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!mcp_settings_load_finish (MCP_SETTINGS (object), result, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  settings_ready (g_steal_pointer (&task));
}

void
mcp_registry_install_async (McpProject              *project,
                            McpRegistryServer       *server,
                            const McpRegistryChoice *choice,
                            GHashTable              *values,
                            const char              *name,
                            McpClientKind            target,
                            McpConfigScope           scope,
                            GCancellable            *cancellable,
                            GAsyncReadyCallback      callback,
                            gpointer                 user_data)
{
  GTask *task;
  Install *install;
  McpSettings *own_settings;
  guint index;

  g_return_if_fail (MCP_IS_PROJECT (project));
  g_return_if_fail (MCP_IS_REGISTRY_SERVER (server));
  g_return_if_fail (choice != NULL);

  task = g_task_new (project, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_registry_install_async);

  install = g_new0 (Install, 1);
  install->project = g_object_ref (project);
  install->server = g_object_ref (server);
  install->choice = (McpRegistryChoice *) choice;
  install->values = values != NULL ? g_hash_table_ref (values) : NULL;
  install->name = name != NULL ? g_strdup (name) : mcp_registry_server_dup_entry_name (server);
  install->target = target;
  install->scope = scope;
  install->secret_inputs = g_ptr_array_new ();
  install->refs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  install->ids = g_ptr_array_new_with_free_func (g_free);
  install->stored = g_ptr_array_new_with_free_func (g_free);
  install->notes = g_ptr_array_new_with_free_func (g_free);
  g_task_set_task_data (task, install, (GDestroyNotify) install_free);

  if (!g_ptr_array_find (mcp_registry_server_get_choices (server), choice, &index))
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_ARGUMENT,
                               "the choice is not one of “%s”", mcp_registry_server_get_name (server));
      g_object_unref (task);
      return;
    }

  for (guint i = 0; i < choice->inputs->len; i++)
    {
      McpRegistryInput *input = g_ptr_array_index (choice->inputs, i);

      if (input->is_secret && !input->fixed && input_value (install, input) != NULL)
        g_ptr_array_add (install->secret_inputs, input);
    }

  own_settings = mcp_project_get_settings (project);
  install->own = target == mcp_project_get_client (project);
  install->use_store = target == MCP_CLIENT_KIND_PLUGBOARD;
  if (install->own)
    {
      install->settings = g_object_ref (own_settings);
      settings_ready (task);
      return;
    }

  install->settings = mcp_settings_new_for_client (target, NULL,
                                                   mcp_settings_get_user_config_dir (own_settings),
                                                   mcp_project_get_project_dir (project));
  mcp_settings_load_async (install->settings, cancellable, settings_loaded_cb, task);
}

char *
mcp_registry_install_finish (GAsyncResult  *result,
                             GPtrArray    **notes,
                             GError       **error)
{
  Install *install;
  char *name;

  g_return_val_if_fail (G_IS_TASK (result), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_registry_install_async, NULL);

  install = g_task_get_task_data (G_TASK (result));
  name = g_task_propagate_pointer (G_TASK (result), error);
  if (notes != NULL)
    *notes = name != NULL ? g_ptr_array_ref (install->notes) : NULL;
  return name;
}
