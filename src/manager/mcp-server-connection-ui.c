/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-server-connection"

#include "config.h"

#include "mcp-server-connection.h"
#include "mcp-server-connection-private.h"

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-resource.h"
#include "mcp-url-policy.h"

/* MCP Apps: a tool's interface read through resources/read and kept per
 * connection. A cached interface lives for the result's ttlMs (0: not
 * kept), or without one until the server's tool or resource list changes
 * or the session ends (mcp_server_connection_clear_ui_cache). Reads of one
 * URI at the same time share one request; a caller that cancels stops
 * waiting, and the request is cancelled only when nobody waits for it. */

typedef struct
{
  McpUiResource *resource;
  gint64         expires;  /* monotonic µs; G_MAXINT64: until cleared */
} UiCacheEntry;

typedef struct _UiRead UiRead;

/* One caller of read_ui_resource_async. Reference-counted (g_rc_box):
 * held by its read and by a pending cancellation. */
typedef struct
{
  GTask  *task;     /* NULL once answered */
  gulong  handler;  /* on the task's cancellable */
  UiRead *read;     /* NULL once answered */
} UiWaiter;

/* One resources/read under way, owned by its callbacks; self->ui_reads
 * points at it while new callers may join it. */
struct _UiRead
{
  McpServerConnection *self;
  char                *uri;
  GPtrArray           *waiters;      /* UiWaiter */
  GCancellable        *cancellable;  /* the request's own */
  guint                generation;   /* self->ui_generation when it began */
};

static void
ui_cache_entry_free (gpointer data)
{
  UiCacheEntry *entry = data;

  g_clear_object (&entry->resource);
  g_free (entry);
}

static void
ui_waiter_clear (gpointer data)
{
  UiWaiter *waiter = data;

  g_clear_object (&waiter->task);
}

static void
ui_waiter_release (gpointer data)
{
  g_rc_box_release_full (data, ui_waiter_clear);
}

static void
ui_read_free (UiRead *read)
{
  g_assert (read->waiters->len == 0);

  g_clear_object (&read->self);
  g_free (read->uri);
  g_ptr_array_unref (read->waiters);
  g_clear_object (&read->cancellable);
  g_free (read);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (UiRead, ui_read_free)

void
mcp_server_connection_clear_ui_cache (McpServerConnection *self)
{
  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));

  /* A read under way belongs to what is being forgotten: its answer is
   * handed to its callers but not kept. */
  self->ui_generation++;
  if (self->ui_cache != NULL && g_hash_table_size (self->ui_cache) > 0)
    {
      g_debug ("“%s”: interfaces dropped from the cache", mcp_server_config_get_name (self->config));
      g_hash_table_remove_all (self->ui_cache);
    }
}

/* The read no longer takes new callers (it is ending, or nobody waits). */
static void
ui_read_detach (UiRead *read)
{
  McpServerConnection *self = read->self;

  if (self->ui_reads != NULL && g_hash_table_lookup (self->ui_reads, read->uri) == read)
    g_hash_table_remove (self->ui_reads, read->uri);
}

/* Takes @waiter's task out of it: it is answered by the caller. */
static GTask *
ui_waiter_take_task (UiWaiter *waiter)
{
  GCancellable *cancellable = g_task_get_cancellable (waiter->task);

  if (waiter->handler != 0)
    g_cancellable_disconnect (cancellable, waiter->handler);
  waiter->handler = 0;
  waiter->read = NULL;
  return g_steal_pointer (&waiter->task);
}

static void
ui_read_answer (UiRead        *read,
                McpUiResource *resource,
                const GError  *error)
{
  g_autoptr(GPtrArray) waiters = g_steal_pointer (&read->waiters);

  read->waiters = g_ptr_array_new_with_free_func (ui_waiter_release);
  ui_read_detach (read);

  for (guint i = 0; i < waiters->len; i++)
    {
      g_autoptr(GTask) task = ui_waiter_take_task (g_ptr_array_index (waiters, i));

      if (g_task_return_error_if_cancelled (task))
        continue;
      if (resource != NULL)
        g_task_return_pointer (task, g_object_ref (resource), g_object_unref);
      else
        g_task_return_error (task, g_error_copy (error));
    }
}

static gboolean
ui_waiter_cancel_idle_cb (gpointer data)
{
  UiWaiter *waiter = data;
  UiRead *read = waiter->read;
  g_autoptr(GTask) task = NULL;

  if (waiter->task == NULL)
    return G_SOURCE_REMOVE;

  task = ui_waiter_take_task (waiter);
  g_ptr_array_remove (read->waiters, waiter);
  g_task_return_error_if_cancelled (task);

  if (read->waiters->len == 0)
    {
      ui_read_detach (read);
      g_cancellable_cancel (read->cancellable);
    }

  return G_SOURCE_REMOVE;
}

/* Runs in the thread that cancelled, maybe inside g_cancellable_connect():
 * the waiter is answered from the main context. */
static void
on_waiter_cancelled_cb (GCancellable *cancellable,
                        gpointer      data)
{
  g_idle_add_full (G_PRIORITY_DEFAULT, ui_waiter_cancel_idle_cb,
                   g_rc_box_acquire (data), ui_waiter_release);
}

static void
ui_read_add_waiter (UiRead *read,
                    GTask  *task)
{
  UiWaiter *waiter = g_rc_box_new0 (UiWaiter);
  GCancellable *cancellable = g_task_get_cancellable (task);

  waiter->task = g_object_ref (task);
  waiter->read = read;
  g_ptr_array_add (read->waiters, waiter);
  if (cancellable != NULL)
    waiter->handler = g_cancellable_connect (cancellable, G_CALLBACK (on_waiter_cancelled_cb),
                                             g_rc_box_acquire (waiter), ui_waiter_release);
}

/* The _meta of @uri's entry in the server's resources/list, if listed. */
static JsonObject *
find_listed_meta (McpServerConnection *self,
                  const char          *uri)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->resources));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpResource) resource = g_list_model_get_item (G_LIST_MODEL (self->resources), i);

      if (g_strcmp0 (mcp_resource_get_uri (resource), uri) == 0)
        return mcp_resource_get_meta (resource);
    }

  return NULL;
}

static void
ui_cache_store (McpServerConnection *self,
                McpUiResource       *resource)
{
  gint64 ttl_ms = mcp_ui_resource_get_ttl_ms (resource);
  UiCacheEntry *entry;

  if (ttl_ms == 0)
    return;

  entry = g_new0 (UiCacheEntry, 1);
  entry->resource = g_object_ref (resource);
  /* A ttlMs too large to add is as good as none. */
  if (ttl_ms < 0 || ttl_ms > (G_MAXINT64 - g_get_monotonic_time ()) / 1000)
    entry->expires = G_MAXINT64;
  else
    entry->expires = g_get_monotonic_time () + ttl_ms * 1000;

  if (self->ui_cache == NULL)
    self->ui_cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, ui_cache_entry_free);
  g_hash_table_replace (self->ui_cache, g_strdup (mcp_ui_resource_get_uri (resource)), entry);
}

static void
on_read_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(UiRead) read = user_data;
  McpServerConnection *self = read->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(McpUiResource) resource = NULL;

  node = mcp_client_request_finish (MCP_CLIENT (object), result, &error);
  if (node != NULL)
    resource = mcp_ui_resource_new_from_read_result (read->uri, node,
                                                     find_listed_meta (self, read->uri),
                                                     &error);

  if (resource != NULL && read->generation == self->ui_generation)
    ui_cache_store (self, resource);

  ui_read_answer (read, resource, error);
}

static void
on_connected_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(UiRead) read = user_data;
  McpServerConnection *self = read->self;
  g_autoptr(JsonObject) params = NULL;
  g_autoptr(GError) error = NULL;
  GCancellable *cancellable;

  if (!mcp_server_connection_ensure_connected_finish (self, result, &error))
    {
      ui_read_answer (read, NULL, error);
      return;
    }
  if (self->client == NULL)
    {
      error = g_error_new (MCP_ERROR, MCP_ERROR_NOT_CONNECTED, _("“%s” is not connected"),
                           mcp_server_config_get_name (self->config));
      ui_read_answer (read, NULL, error);
      return;
    }

  params = json_object_new ();
  json_object_set_string_member (params, "uri", read->uri);
  /* Connecting may have ended the session it began in. */
  read->generation = self->ui_generation;
  cancellable = read->cancellable;
  mcp_client_request_async (self->client, "resources/read", params, NULL, cancellable,
                            on_read_cb, g_steal_pointer (&read));
}

void
mcp_server_connection_read_ui_resource_async (McpServerConnection *self,
                                              const char          *uri,
                                              McpUiReadFlags       flags,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  UiCacheEntry *entry;
  UiRead *read;

  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));
  g_return_if_fail (uri != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_server_connection_read_ui_resource_async);

  if (!mcp_ui_uri_is_valid (uri))
    {
      g_autofree char *quoted = mcp_url_policy_quote (uri);

      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_ARGUMENT,
                               _("“%s” is not the ui:// URI of an interface"), quoted);
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    return;

  entry = self->ui_cache != NULL ? g_hash_table_lookup (self->ui_cache, uri) : NULL;
  if (entry != NULL && entry->expires <= g_get_monotonic_time ())
    {
      g_hash_table_remove (self->ui_cache, uri);
      entry = NULL;
    }
  if (entry != NULL && !(flags & MCP_UI_READ_FLAGS_RELOAD))
    {
      g_task_return_pointer (task, g_object_ref (entry->resource), g_object_unref);
      return;
    }

  read = self->ui_reads != NULL ? g_hash_table_lookup (self->ui_reads, uri) : NULL;
  if (read != NULL)
    {
      ui_read_add_waiter (read, task);
      return;
    }

  read = g_new0 (UiRead, 1);
  read->self = g_object_ref (self);
  read->uri = g_strdup (uri);
  read->waiters = g_ptr_array_new_with_free_func (ui_waiter_release);
  read->cancellable = g_cancellable_new ();
  read->generation = self->ui_generation;
  if (self->ui_reads == NULL)
    self->ui_reads = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_hash_table_insert (self->ui_reads, g_strdup (uri), read);
  ui_read_add_waiter (read, task);

  mcp_server_connection_ensure_connected_async (self, read->cancellable, on_connected_cb, read);
}

McpUiResource *
mcp_server_connection_read_ui_resource_finish (McpServerConnection  *self,
                                               GAsyncResult         *result,
                                               GError              **error)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
                        mcp_server_connection_read_ui_resource_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
