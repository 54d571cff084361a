/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-server-connection"

#include "config.h"

#include "mcp-server-connection.h"
#include "mcp-server-connection-private.h"

#include "mcp-capability-history.h"

#include <string.h>

/* The listings (tools, resources, resource templates, prompts): made
 * after connecting and on the server's list_changed, kept in the stores
 * the properties hand out, cached as ttlMs and cacheScope say, dropped by
 * the manager's LRU. */

typedef JsonObject *(*ItemJson) (gpointer item);

/* Through functions of this type, not casts of the typed getters: calling
 * a function through a pointer of another type is undefined. */
static JsonObject *
tool_json (gpointer item)
{
  return mcp_tool_get_json (item);
}

static JsonObject *
resource_json (gpointer item)
{
  return mcp_resource_get_json (item);
}

static JsonObject *
resource_template_json (gpointer item)
{
  return mcp_resource_template_get_json (item);
}

static JsonObject *
prompt_json (gpointer item)
{
  return mcp_prompt_get_json (item);
}

/* Whether @store holds @items already, as the server described them. A
 * listing made again because its ttlMs ran out is most often the same:
 * the tool pool and the list views bound to the store need not rebuild. */
static gboolean
store_holds (GListStore *store,
             GPtrArray  *items,
             ItemJson    item_json)
{
  guint n_items = g_list_model_get_n_items (G_LIST_MODEL (store));

  if (n_items != (items != NULL ? items->len : 0))
    return FALSE;

  for (guint i = 0; i < n_items; i++)
    {
      g_autoptr(GObject) held = g_list_model_get_item (G_LIST_MODEL (store), i);

      if (!json_object_equal (item_json (held), item_json (g_ptr_array_index (items, i))))
        return FALSE;
    }

  return TRUE;
}

static void
set_tools (McpServerConnection *self,
           GPtrArray           *tools)
{
  guint n_items = g_list_model_get_n_items (G_LIST_MODEL (self->tools));

  if (n_items == 0 && (tools == NULL || tools->len == 0))
    return;

  /* "tools-changed" says the listing was refreshed, changed or not. */
  if (!store_holds (self->tools, tools, tool_json))
    g_list_store_splice (self->tools, 0, n_items,
                         tools != NULL ? tools->pdata : NULL,
                         tools != NULL ? tools->len : 0);
  mcp_server_connection_emit (self, CONNECTION_TOOLS_CHANGED);
}

static void
set_store (GListStore *store,
           GPtrArray  *items,
           ItemJson    item_json)
{
  guint n_items = g_list_model_get_n_items (G_LIST_MODEL (store));

  if (store_holds (store, items, item_json))
    return;

  g_list_store_splice (store, 0, n_items,
                       items != NULL ? items->pdata : NULL,
                       items != NULL ? items->len : 0);
}

static GPtrArray *
store_items (GListStore *store,
             ItemJson    item_json)
{
  GPtrArray *items = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (store));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GObject) item = g_list_model_get_item (G_LIST_MODEL (store), i);

      g_ptr_array_add (items, json_object_ref (item_json (item)));
    }
  return items;
}

/* Each committed listing goes into the capability history: what the
 * server offers now, compared later with what it offered before. */
static void
record_capabilities (McpServerConnection *self,
                     guint                mask)
{
  McpCapabilityHistory *history = mcp_capability_history_get_default ();
  GPtrArray *items[MCP_N_CAPABILITY_KINDS] = { NULL, };
  g_autofree char *key = NULL;
  g_autoptr(GError) error = NULL;
  McpServerInfo *info;
  const char *instructions;
  gboolean new_connection;

  g_assert (self->client != NULL);

  /* a kind whose listing failed keeps what was recorded of it */
  for (guint i = 0; i < N_LIST_KINDS; i++)
    if (self->list_cache[i].error != NULL)
      mask &= ~(1u << i);

  items[MCP_CAPABILITY_KIND_TOOL] = store_items (self->tools, tool_json);
  items[MCP_CAPABILITY_KIND_RESOURCE] = store_items (self->resources, resource_json);
  items[MCP_CAPABILITY_KIND_TEMPLATE] = store_items (self->resource_templates, resource_template_json);
  items[MCP_CAPABILITY_KIND_PROMPT] = store_items (self->prompts, prompt_json);
  items[MCP_CAPABILITY_KIND_INSTRUCTIONS] = g_ptr_array_new_with_free_func ((GDestroyNotify) json_object_unref);
  info = mcp_client_get_server_info (self->client);
  instructions = info != NULL ? mcp_server_info_get_instructions (info) : NULL;
  if (instructions != NULL)
    {
      JsonObject *object = json_object_new ();

      json_object_set_string_member (object, "instructions", instructions);
      g_ptr_array_add (items[MCP_CAPABILITY_KIND_INSTRUCTIONS], object);
    }
  mask |= 1u << MCP_CAPABILITY_KIND_INSTRUCTIONS;

  /* the first listing of this client starts a connection */
  new_connection = g_object_get_data (G_OBJECT (self->client), "mcp-capabilities-recorded") == NULL;
  g_object_set_data (G_OBJECT (self->client), "mcp-capabilities-recorded", GINT_TO_POINTER (TRUE));

  key = mcp_capability_history_key (self->config);
  if (!mcp_capability_history_record (history, key, mcp_server_config_get_name (self->config),
                                      (GPtrArray * const *) items, mask, new_connection, &error))
    g_debug ("“%s”: the capability history was not recorded: %s",
             mcp_server_config_get_name (self->config), error->message);

  for (guint i = 0; i < MCP_N_CAPABILITY_KINDS; i++)
    g_ptr_array_unref (items[i]);
}

void
mcp_server_connection_clear_list_cache (McpServerConnection *self)
{
  for (guint i = 0; i < N_LIST_KINDS; i++)
    {
      self->list_cache[i].fresh_until = 0;
      self->list_cache[i].scope = MCP_CACHE_SCOPE_PUBLIC;
      g_clear_pointer (&self->list_cache[i].authorization, g_free);
      g_clear_error (&self->list_cache[i].error);
    }
}

const GError *
mcp_server_connection_get_tools_error (McpServerConnection *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONNECTION (self), NULL);

  return self->list_cache[g_bit_nth_lsf (LIST_TOOLS, -1)].error;
}

void
mcp_server_connection_clear_listing (McpServerConnection *self)
{
  g_cancellable_cancel (self->list_cancellable);
  g_clear_object (&self->list_cancellable);
  self->has_listing = FALSE;
  self->relist_mask = 0;
  self->listing_mask = 0;
  mcp_server_connection_clear_list_cache (self);
  set_tools (self, NULL);
  set_store (self->resources, NULL, resource_json);
  set_store (self->resource_templates, NULL, resource_template_json);
  set_store (self->prompts, NULL, prompt_json);
}

typedef struct
{
  McpServerConnection *self;
  guint                mask;  /* what is left to list, kind included */
  ListKind             kind;
  char                *authorization;  /* what it is listed under: authorization_digest() */
} ListStep;

static void
list_step_free (ListStep *step)
{
  g_free (step->authorization);
  g_free (step);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ListStep, list_step_free)

/* What tells one authorization context from another (caching: a private
 * listing "MUST NOT be shared across authorization contexts (e.g. a
 * different access token requires a different cache)"): a digest of the
 * Authorization header the requests carry now, so that the token itself
 * is kept nowhere else. NULL when they carry none. A sign-in, a sign-out,
 * a refreshed or a stepped-up token each make a new context. */
static char *
authorization_digest (McpServerConnection *self)
{
  g_autofree char *authorization = NULL;
  char *digest;

  if (self->oauth_provider == NULL)
    return NULL;

  authorization = mcp_auth_provider_get_authorization (MCP_AUTH_PROVIDER (self->oauth_provider));
  if (authorization == NULL)
    return NULL;

  digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, authorization, -1);
  explicit_bzero (authorization, strlen (authorization));
  return digest;
}

/* The kinds whose listing should not be used any more: stale by their
 * ttlMs, or private and listed under another authorization. */
guint
mcp_server_connection_stale_kinds (McpServerConnection *self)
{
  g_autofree char *authorization = authorization_digest (self);
  gint64 now = g_get_monotonic_time ();
  guint mask = 0;

  for (guint i = 0; i < N_LIST_KINDS; i++)
    {
      const ListCache *cache = &self->list_cache[i];

      if (now >= cache->fresh_until ||
          (cache->scope == MCP_CACHE_SCOPE_PRIVATE &&
           g_strcmp0 (cache->authorization, authorization) != 0))
        mask |= 1u << i;
    }

  return mask;
}

static void list_step (McpServerConnection *self,
                       guint                mask);

void
mcp_server_connection_refresh_listing (McpServerConnection *self,
                                       guint                mask)
{
  g_assert (self->client != NULL);

  g_cancellable_cancel (self->list_cancellable);
  g_clear_object (&self->list_cancellable);
  self->list_cancellable = g_cancellable_new ();

  /* A partial refresh of a listing the LRU dropped would leave it half made. */
  if (!self->has_listing)
    mask = LIST_ALL;

  self->listing_mask = mask;
  list_step (self, mask);
}

static void
on_list_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(ListStep) step = user_data;
  g_autoptr(McpServerConnection) self = step->self;
  McpClient *client = MCP_CLIENT (object);
  g_autoptr(GPtrArray) items = NULL;
  g_autoptr(GPtrArray) waiters = NULL;
  g_autoptr(GError) error = NULL;
  const char *what = NULL;
  const char *method = NULL;
  ListCache *cache;
  guint remaining;

  switch (step->kind)
    {
    case LIST_TOOLS:
      items = mcp_client_list_tools_finish (client, result, &error);
      what = "tools";
      method = "tools/list";
      break;
    case LIST_RESOURCES:
      items = mcp_client_list_resources_finish (client, result, &error);
      what = "resources";
      method = "resources/list";
      break;
    case LIST_RESOURCE_TEMPLATES:
      items = mcp_client_list_resource_templates_finish (client, result, &error);
      what = "resource templates";
      method = "resources/templates/list";
      break;
    case LIST_PROMPTS:
      items = mcp_client_list_prompts_finish (client, result, &error);
      what = "prompts";
      method = "prompts/list";
      break;
    case LIST_ALL:
    default:
      g_assert_not_reached ();
    }

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (client != self->client)
    return;

  /* A paged listing cut by an expired session starts over in a new one. */
  if (mcp_server_connection_renew_expired_session (self, client, method, error))
    return;

  /* A server that cannot list them is still connected; it has none, until
   * it says its list changed (asking again on every use would only get the
   * same error). */
  cache = &self->list_cache[g_bit_nth_lsf (step->kind, -1)];
  cache->fresh_until = MCP_LIST_FRESH_UNTIL_CHANGED;
  cache->scope = MCP_CACHE_SCOPE_PUBLIC;
  g_clear_pointer (&cache->authorization, g_free);
  g_clear_error (&cache->error);
  if (error != NULL)
    {
      g_debug ("“%s”: listing %s failed: %s",
               mcp_server_config_get_name (self->config), what, error->message);
      cache->error = g_error_copy (error);
    }
  else
    {
      mcp_client_list_get_freshness (client, result, &cache->fresh_until, &cache->scope);
      cache->authorization = g_steal_pointer (&step->authorization);
    }

  switch (step->kind)
    {
    case LIST_TOOLS:
      set_tools (self, items);
      break;
    case LIST_RESOURCES:
      set_store (self->resources, items, resource_json);
      break;
    case LIST_RESOURCE_TEMPLATES:
      set_store (self->resource_templates, items, resource_template_json);
      break;
    case LIST_PROMPTS:
      set_store (self->prompts, items, prompt_json);
      break;
    case LIST_ALL:
    default:
      g_assert_not_reached ();
    }

  remaining = step->mask & ~(guint) step->kind;
  if (remaining != 0)
    {
      list_step (self, remaining);
      return;
    }

  g_clear_object (&self->list_cancellable);
  record_capabilities (self, self->listing_mask);
  self->listing_mask = 0;

  self->has_listing = TRUE;
  self->renewing_session = FALSE;
  mcp_server_connection_emit (self, CONNECTION_LISTING_USED);

  waiters = mcp_server_connection_steal_waiters (&self->list_waiters);

  if (self->attempt_cancellable != NULL)
    {
      self->reconnects = 0;
      mcp_server_connection_finish_attempt (self, MCP_SERVER_STATE_CONNECTED, NULL);
    }

  mcp_server_connection_return_tasks (waiters, NULL);

  if (self->relist_mask != 0 && self->client != NULL && self->list_cancellable == NULL)
    {
      guint mask = self->relist_mask;

      self->relist_mask = 0;
      mcp_server_connection_refresh_listing (self, mask);
    }
}

static void
list_step (McpServerConnection *self,
           guint                mask)
{
  ListStep *step;

  g_assert (mask != 0);

  step = g_new0 (ListStep, 1);
  step->self = g_object_ref (self);
  step->mask = mask;
  step->kind = mask & -mask;
  step->authorization = authorization_digest (self);

  switch (step->kind)
    {
    case LIST_TOOLS:
      mcp_client_list_tools_async (self->client, self->list_cancellable, on_list_cb, step);
      break;
    case LIST_RESOURCES:
      mcp_client_list_resources_async (self->client, self->list_cancellable, on_list_cb, step);
      break;
    case LIST_RESOURCE_TEMPLATES:
      mcp_client_list_resource_templates_async (self->client, self->list_cancellable,
                                                on_list_cb, step);
      break;
    case LIST_PROMPTS:
      mcp_client_list_prompts_async (self->client, self->list_cancellable, on_list_cb, step);
      break;
    case LIST_ALL:
    default:
      g_assert_not_reached ();
    }
}

static void
list_changed (McpServerConnection *self,
              McpClient           *client,
              guint                mask,
              const char          *what)
{
  if (client != self->client)
    return;

  g_debug ("“%s”: %s changed, listing again", mcp_server_config_get_name (self->config), what);

  /* An interface may have changed with the tools or resources naming it. */
  if (mask & (LIST_TOOLS | LIST_RESOURCES))
    mcp_server_connection_clear_ui_cache (self);

  /* The listing under way may have been answered before the change. */
  if (self->list_cancellable != NULL)
    self->relist_mask |= mask;
  else
    mcp_server_connection_refresh_listing (self, mask);
}

static void
on_tools_list_changed_cb (McpClient           *client,
                          McpServerConnection *self)
{
  list_changed (self, client, LIST_TOOLS, "tools");
}

static void
on_resources_list_changed_cb (McpClient           *client,
                              McpServerConnection *self)
{
  list_changed (self, client, LIST_RESOURCES | LIST_RESOURCE_TEMPLATES, "resources");
}

static void
on_prompts_list_changed_cb (McpClient           *client,
                            McpServerConnection *self)
{
  list_changed (self, client, LIST_PROMPTS, "prompts");
}

void
mcp_server_connection_watch_listings (McpServerConnection *self,
                                      McpClient           *client)
{
  g_signal_connect_object (client, "tools-list-changed",
                           G_CALLBACK (on_tools_list_changed_cb), self, 0);
  g_signal_connect_object (client, "resources-list-changed",
                           G_CALLBACK (on_resources_list_changed_cb), self, 0);
  g_signal_connect_object (client, "prompts-list-changed",
                           G_CALLBACK (on_prompts_list_changed_cb), self, 0);
}

void
mcp_server_connection_drop_listing (McpServerConnection *self)
{
  g_return_if_fail (MCP_IS_SERVER_CONNECTION (self));

  if (!self->has_listing)
    return;

  g_debug ("“%s”: listing dropped from the cache", mcp_server_config_get_name (self->config));
  mcp_server_connection_clear_listing (self);
}
