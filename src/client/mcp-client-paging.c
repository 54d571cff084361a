/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-client.h"
#include "mcp-client-private.h"
#include "mcp-error.h"
#include "mcp-json-private.h"

/* The paged listings (tools/list, resources/list, resources/templates/list,
 * prompts/list): pages read until the last, bounded in pages and bytes,
 * items deduplicated, and the stateless era's cache hints. The four
 * listings themselves are in mcp-client-listings.c. */

#define MAX_LIST_PAGES 10000

typedef struct
{
  const McpClientListKind *kind;
  GPtrArray               *items;
  GHashTable              *keys;
  char                    *cursor;
  guint                    pages;
  guint64                  bytes;       /* of the pages so far, estimated */
  gint64                   fresh_until; /* monotonic µs; the minimum over the pages */
  McpCacheScope            scope;       /* private when any page is */
  guint                    restarted : 1;
} ListPaged;

static void
list_paged_free (ListPaged *state)
{
  g_clear_pointer (&state->items, g_ptr_array_unref);
  g_clear_pointer (&state->keys, g_hash_table_unref);
  g_free (state->cursor);
  g_free (state);
}

static void list_paged_next_page (GTask *task);

static void
list_paged_reset (ListPaged *state)
{
  g_ptr_array_set_size (state->items, 0);
  g_hash_table_remove_all (state->keys);
  g_clear_pointer (&state->cursor, g_free);
  state->pages = 0;
  state->bytes = 0;
  state->fresh_until = MCP_LIST_FRESH_UNTIL_CHANGED;
  state->scope = MCP_CACHE_SCOPE_PUBLIC;
}

/* The stateless era's cache hints of one page (caching: "each page is an
 * independently cacheable response"): ttlMs absent, not an integer or
 * negative counts as 0, stale at once; a cacheScope other than "public"
 * as private, the safe reading. The handshake era has no hints: its
 * listings stay fresh until a list_changed notification says otherwise. */
static void
list_paged_note_hints (McpClient  *self,
                       ListPaged  *state,
                       JsonObject *object_result,
                       gint64      received)
{
  JsonNode *ttl_node;
  JsonNode *scope_node;
  gint64 ttl_ms = 0;
  gint64 fresh_until;

  if (mcp_client_get_era (self) != MCP_PROTOCOL_ERA_MODERN)
    return;

  ttl_node = json_object_get_member (object_result, "ttlMs");
  if (ttl_node != NULL && JSON_NODE_HOLDS_VALUE (ttl_node) &&
      json_node_get_value_type (ttl_node) == G_TYPE_INT64)
    ttl_ms = MAX (json_node_get_int (ttl_node), 0);

  /* A huge ttlMs must not overflow into the past. */
  if (ttl_ms >= (G_MAXINT64 - received) / 1000)
    fresh_until = G_MAXINT64 - 1;
  else
    fresh_until = received + ttl_ms * 1000;
  state->fresh_until = MIN (state->fresh_until, fresh_until);

  scope_node = json_object_get_member (object_result, "cacheScope");
  if (scope_node == NULL || !JSON_NODE_HOLDS_VALUE (scope_node) ||
      json_node_get_value_type (scope_node) != G_TYPE_STRING ||
      g_strcmp0 (json_node_get_string (scope_node), "public") != 0)
    state->scope = MCP_CACHE_SCOPE_PRIVATE;
}

static void
on_list_paged_page_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  McpClient *self = MCP_CLIENT (object);
  g_autoptr(GTask) task = user_data;
  ListPaged *state = g_task_get_task_data (task);
  const McpClientListKind *kind = state->kind;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *server = NULL;
  JsonObject *object_result;
  JsonNode *items_node;
  JsonNode *cursor_node;
  JsonArray *items;
  gint64 received;

  node = mcp_client_request_finish (self, result, &error);
  received = g_get_monotonic_time ();

  /* caching: on an invalid cursor "discard all cached pages and re-fetch
   * from the beginning" (once: a server that refuses its own first cursor
   * again is broken, not stale). */
  if (node == NULL && state->cursor != NULL && !state->restarted &&
      g_error_matches (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_ERROR_INVALID_PARAMS))
    {
      server = mcp_client_describe_server (self);
      g_debug ("%s answered cursor “%s” of %s with: %s; listing again from the start",
               server, state->cursor, kind->method, error->message);
      list_paged_reset (state);
      state->restarted = TRUE;
      list_paged_next_page (g_steal_pointer (&task));
      return;
    }

  if (node == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  server = mcp_client_describe_server (self);

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                               _("%s answered %s with something that is not an object"),
                               server, kind->method);
      return;
    }

  /* Bounded in bytes too: an endless listing of big pages would take
   * gigabytes long before the page limit. */
  state->bytes += mcp_json_estimate_size (node);
  if (state->bytes > MCP_CLIENT_MAX_LIST_BYTES)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE,
                               _("%s sent more than %u MiB of %s (%u pages); stopped reading"),
                               server, MCP_CLIENT_MAX_LIST_BYTES / (1024 * 1024),
                               kind->what, state->pages + 1);
      return;
    }

  object_result = json_node_get_object (node);
  list_paged_note_hints (self, state, object_result, received);
  items_node = json_object_get_member (object_result, kind->member);
  if (items_node == NULL || !JSON_NODE_HOLDS_ARRAY (items_node))
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                               _("%s answered %s without a “%s” array"),
                               server, kind->method, kind->member);
      return;
    }

  items = json_node_get_array (items_node);
  for (guint i = 0; i < json_array_get_length (items); i++)
    {
      JsonNode *element = json_array_get_element (items, i);
      g_autoptr(GError) item_error = NULL;
      g_autoptr(GObject) item = NULL;
      const char *key;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        {
          g_debug ("%s: %s page %u: %s[%u] is not an object; skipped",
                   server, kind->method, state->pages + 1, kind->member, i);
          continue;
        }

      item = kind->item_new (json_node_get_object (element), &item_error);
      if (item == NULL)
        {
          /* One broken item must not hide the others. */
          g_debug ("%s: %s page %u: %s[%u] skipped: %s",
                   server, kind->method, state->pages + 1, kind->member, i,
                   item_error->message);
          continue;
        }

      key = kind->item_key (item);
      if (g_hash_table_contains (state->keys, key))
        {
          g_debug ("%s: %s lists “%s” twice; keeping the first",
                   server, kind->method, key);
          continue;
        }

      g_hash_table_add (state->keys, g_strdup (key));
      g_ptr_array_add (state->items, g_steal_pointer (&item));
    }

  state->pages++;

  cursor_node = json_object_get_member (object_result, "nextCursor");
  if (cursor_node != NULL && JSON_NODE_HOLDS_VALUE (cursor_node) &&
      json_node_get_value_type (cursor_node) == G_TYPE_STRING)
    {
      const char *cursor = json_node_get_string (cursor_node);

      if (g_strcmp0 (cursor, state->cursor) == 0 || state->pages >= MAX_LIST_PAGES)
        {
          g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                   _("%s keeps sending more pages of %s (cursor “%s” after "
                                     "%u pages); stopped reading"),
                                   server, kind->what, cursor, state->pages);
          return;
        }

      g_free (state->cursor);
      state->cursor = g_strdup (cursor);
      list_paged_next_page (g_steal_pointer (&task));
      return;
    }

  g_task_return_pointer (task, g_ptr_array_ref (state->items), (GDestroyNotify) g_ptr_array_unref);
}

static void
list_paged_next_page (GTask *task)
{
  McpClient *self = g_task_get_source_object (task);
  ListPaged *state = g_task_get_task_data (task);
  g_autoptr(JsonObject) params = NULL;

  if (state->cursor != NULL)
    {
      params = json_object_new ();
      json_object_set_string_member (params, "cursor", state->cursor);
    }

  mcp_client_request_async (self, state->kind->method, params, NULL,
                            g_task_get_cancellable (task),
                            on_list_paged_page_cb, task);
}

/* @declared: whether the server's capabilities offer this listing; when it
 * does not, the answer is an empty array without asking. */
void
mcp_client_list_paged_async (McpClient               *self,
                             const McpClientListKind *kind,
                             gboolean                 declared,
                             gpointer                 source_tag,
                             GCancellable            *cancellable,
                             GAsyncReadyCallback      callback,
                             gpointer                 user_data)
{
  GTask *task;
  ListPaged *state;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, source_tag);

  state = g_new0 (ListPaged, 1);
  state->kind = kind;
  state->items = g_ptr_array_new_with_free_func (g_object_unref);
  state->keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  state->fresh_until = MCP_LIST_FRESH_UNTIL_CHANGED;
  state->scope = MCP_CACHE_SCOPE_PUBLIC;
  g_task_set_task_data (task, state, (GDestroyNotify) list_paged_free);

  if (!declared)
    {
      g_task_return_pointer (task, g_ptr_array_ref (state->items),
                             (GDestroyNotify) g_ptr_array_unref);
      g_object_unref (task);
      return;
    }

  list_paged_next_page (task);
}

GPtrArray *
mcp_client_list_paged_finish (McpClient     *self,
                              GAsyncResult  *result,
                              gpointer       source_tag,
                              GError       **error)
{
  g_return_val_if_fail (MCP_IS_CLIENT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static gboolean
is_list_result (GAsyncResult *result)
{
  gpointer tag = g_task_get_source_tag (G_TASK (result));

  return tag == mcp_client_list_tools_async ||
         tag == mcp_client_list_resources_async ||
         tag == mcp_client_list_resource_templates_async ||
         tag == mcp_client_list_prompts_async;
}

void
mcp_client_list_get_freshness (McpClient     *self,
                               GAsyncResult  *result,
                               gint64        *fresh_until,
                               McpCacheScope *scope)
{
  ListPaged *state;

  g_return_if_fail (MCP_IS_CLIENT (self));
  g_return_if_fail (g_task_is_valid (result, self));
  g_return_if_fail (is_list_result (result));

  state = g_task_get_task_data (G_TASK (result));
  if (fresh_until != NULL)
    *fresh_until = state->fresh_until;
  if (scope != NULL)
    *scope = state->scope;
}
