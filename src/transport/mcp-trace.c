/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-trace"

#include "config.h"

#include "mcp-trace.h"
#include "mcp-trace-private.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-json-private.h"
#include "mcp-redact.h"

/* The ring of one server's trace (mcp-trace.h): entries in a circular
 * array, numbered without gaps, so that entry @seq is at (seq - first_seq)
 * from the oldest; requests waiting for their response by id. */

/* Requests whose answer never came stay in the tables; past this many the
 * oldest are forgotten (they are then shown without a response). */
#define MAX_WAITING 4096

struct _McpTrace
{
  GObject parent_instance;

  McpTraceEntry **ring;
  guint capacity;                /* a power of two */
  guint head;                    /* index of the oldest */
  guint len;
  guint64 first_seq;             /* seq of the oldest */
  guint64 next_seq;
  gsize bytes;
  gsize max_bytes;
  guint64 dropped;

  char **secrets;

  GHashTable *waiting_out;       /* id text → seq of our request */
  GHashTable *waiting_in;        /* id text → seq of the server's request */
  GHashTable *progress;          /* progressToken text → seq of the request */
  GHashTable *rounds;            /* id (gint64) → Round */

  guint64 last_out_unlinked;     /* seq of the last message sent, not yet tied to its POST */
  guint64 last_in_http;          /* the exchange whose body or stream was read last */
};

typedef struct
{
  guint64 group_seq;
  guint round;
} Round;

static void mcp_trace_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (McpTrace, mcp_trace, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, mcp_trace_list_model_init))

enum {
  RECORDED,
  UPDATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static GType
mcp_trace_get_item_type (GListModel *model)
{
  return MCP_TYPE_TRACE_ENTRY;
}

static guint
mcp_trace_get_n_items (GListModel *model)
{
  return MCP_TRACE (model)->len;
}

static gpointer
mcp_trace_get_item (GListModel *model,
                    guint       position)
{
  McpTrace *self = MCP_TRACE (model);

  if (position >= self->len)
    return NULL;
  return g_object_ref (self->ring[(self->head + position) & (self->capacity - 1)]);
}

static void
mcp_trace_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = mcp_trace_get_item_type;
  iface->get_n_items = mcp_trace_get_n_items;
  iface->get_item = mcp_trace_get_item;
}

static void
forget_messages (McpTrace *self)
{
  g_hash_table_remove_all (self->waiting_out);
  g_hash_table_remove_all (self->waiting_in);
  g_hash_table_remove_all (self->progress);
  g_hash_table_remove_all (self->rounds);
}

static void
clear_ring (McpTrace *self)
{
  for (guint i = 0; i < self->len; i++)
    g_object_unref (self->ring[(self->head + i) & (self->capacity - 1)]);
  self->head = 0;
  self->len = 0;
  self->bytes = 0;
  self->first_seq = self->next_seq;
}

static void
mcp_trace_finalize (GObject *object)
{
  McpTrace *self = MCP_TRACE (object);

  clear_ring (self);
  g_free (self->ring);
  g_strfreev (self->secrets);
  g_hash_table_unref (self->waiting_out);
  g_hash_table_unref (self->waiting_in);
  g_hash_table_unref (self->progress);
  g_hash_table_unref (self->rounds);

  G_OBJECT_CLASS (mcp_trace_parent_class)->finalize (object);
}

static void
mcp_trace_class_init (McpTraceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mcp_trace_finalize;

  /**
   * McpTrace::recorded:
   * @entry: the new entry
   */
  signals[RECORDED] =
    g_signal_new ("recorded", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, MCP_TYPE_TRACE_ENTRY);
  /**
   * McpTrace::updated:
   * @entry: an entry that got its response, status or body
   */
  signals[UPDATED] =
    g_signal_new ("updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, MCP_TYPE_TRACE_ENTRY);
}

static void
mcp_trace_init (McpTrace *self)
{
  self->capacity = 64;
  self->ring = g_new0 (McpTraceEntry *, self->capacity);
  self->next_seq = 1;
  self->first_seq = 1;
  self->max_bytes = MCP_TRACE_DEFAULT_MAX_BYTES;
  self->waiting_out = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->waiting_in = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->progress = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->rounds = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
}

McpTrace *
mcp_trace_new (gsize max_bytes)
{
  McpTrace *self = g_object_new (MCP_TYPE_TRACE, NULL);

  mcp_trace_set_max_bytes (self, max_bytes);
  return self;
}

gsize
mcp_trace_get_max_bytes (McpTrace *self)
{
  g_return_val_if_fail (MCP_IS_TRACE (self), 0);
  return self->max_bytes;
}

gsize
mcp_trace_get_bytes (McpTrace *self)
{
  g_return_val_if_fail (MCP_IS_TRACE (self), 0);
  return self->bytes;
}

guint64
mcp_trace_get_dropped (McpTrace *self)
{
  g_return_val_if_fail (MCP_IS_TRACE (self), 0);
  return self->dropped;
}

void
mcp_trace_set_secrets (McpTrace           *self,
                       const char * const *secrets)
{
  g_auto(GStrv) old = NULL;
  guint n;

  g_return_if_fail (MCP_IS_TRACE (self));

  old = g_steal_pointer (&self->secrets);
  if (secrets == NULL)
    return;
  /* Longest first, so that a secret inside another is not half shown. */
  self->secrets = g_strdupv ((char **) secrets);
  n = g_strv_length (self->secrets);
  for (guint i = 1; i < n; i++)
    for (guint j = i; j > 0 && strlen (self->secrets[j]) > strlen (self->secrets[j - 1]); j--)
      {
        char *t = self->secrets[j];

        self->secrets[j] = self->secrets[j - 1];
        self->secrets[j - 1] = t;
      }
}

const char * const *
mcp_trace_get_secrets (McpTrace *self)
{
  return (const char * const *) self->secrets;
}

/* A short string a server chose (a method, an id, an event's type): its
 * secrets masked, when it holds one. */
static char *
mask_short (McpTrace   *self,
            const char *text)
{
  g_autoptr(GString) masked = NULL;

  if (text == NULL)
    return NULL;
  for (guint i = 0; self->secrets != NULL && self->secrets[i] != NULL; i++)
    if (strlen (self->secrets[i]) >= 3 && strstr (text, self->secrets[i]) != NULL)
      {
        gboolean truncated;

        return mcp_trace_mask_body (text, strlen (text), "text/plain",
                                    (const char * const *) self->secrets, G_MAXSIZE, &truncated);
      }
  if (!g_utf8_validate (text, -1, NULL))
    return g_utf8_make_valid (text, -1);
  return g_strdup (text);
}

/* Drops the oldest until within budget; one items-changed for them. */
static void
evict (McpTrace *self,
       guint     keep_at_least)
{
  guint removed = 0;

  while (self->len > keep_at_least && self->bytes > self->max_bytes)
    {
      McpTraceEntry *oldest = self->ring[self->head];

      self->bytes -= MIN (self->bytes, oldest->cost);
      g_object_unref (oldest);
      self->ring[self->head] = NULL;
      self->head = (self->head + 1) & (self->capacity - 1);
      self->len--;
      self->first_seq++;
      self->dropped++;
      removed++;
    }
  if (removed > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, removed, 0);
}

void
mcp_trace_set_max_bytes (McpTrace *self,
                         gsize     max_bytes)
{
  g_return_if_fail (MCP_IS_TRACE (self));

  self->max_bytes = MAX (max_bytes, MCP_TRACE_MIN_MAX_BYTES);
  evict (self, 0);
}

void
mcp_trace_clear (McpTrace *self)
{
  guint n;

  g_return_if_fail (MCP_IS_TRACE (self));

  n = self->len;
  self->dropped += n;
  clear_ring (self);
  forget_messages (self);
  self->last_out_unlinked = 0;
  self->last_in_http = 0;
  if (n > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, n, 0);
}

McpTraceEntry *
mcp_trace_lookup (McpTrace *self,
                  guint64   seq)
{
  g_return_val_if_fail (MCP_IS_TRACE (self), NULL);

  if (seq < self->first_seq || seq >= self->first_seq + self->len)
    return NULL;
  return self->ring[(self->head + (guint) (seq - self->first_seq)) & (self->capacity - 1)];
}

GPtrArray *
mcp_trace_dup_entries (McpTrace *self)
{
  GPtrArray *entries;

  g_return_val_if_fail (MCP_IS_TRACE (self), NULL);

  entries = g_ptr_array_new_full (self->len, g_object_unref);
  for (guint i = 0; i < self->len; i++)
    g_ptr_array_add (entries, g_object_ref (self->ring[(self->head + i) & (self->capacity - 1)]));
  return entries;
}

void
mcp_trace_add (McpTrace      *self,
               McpTraceEntry *entry)
{
  if (self->len == self->capacity)
    {
      /* Grow, unrolling the ring at the start of the new array. */
      McpTraceEntry **ring = g_new0 (McpTraceEntry *, self->capacity * 2);

      for (guint i = 0; i < self->len; i++)
        ring[i] = self->ring[(self->head + i) & (self->capacity - 1)];
      g_free (self->ring);
      self->ring = ring;
      self->head = 0;
      self->capacity *= 2;
    }

  entry->seq = self->next_seq++;
  self->ring[(self->head + self->len) & (self->capacity - 1)] = entry;
  self->len++;
  entry->cost = mcp_trace_entry_get_cost (entry);
  self->bytes += entry->cost;

  g_signal_emit (self, signals[RECORDED], 0, entry);
  g_list_model_items_changed (G_LIST_MODEL (self), self->len - 1, 0, 1);
  /* The new entry itself stays, whatever its size. */
  evict (self, 1);
}

/* What an entry gets later (headers, a body) counts in the budget too. */
void
mcp_trace_entry_changed (McpTrace      *self,
                         McpTraceEntry *entry,
                         gboolean       resized)
{
  g_autoptr(McpTraceEntry) hold = g_object_ref (entry);

  g_signal_emit (self, signals[UPDATED], 0, entry);
  if (mcp_trace_lookup (self, entry->seq) != entry)
    return;
  g_list_model_items_changed (G_LIST_MODEL (self), (guint) (entry->seq - self->first_seq), 1, 1);
  if (resized)
    {
      gsize cost = mcp_trace_entry_get_cost (entry);

      self->bytes = self->bytes - MIN (self->bytes, entry->cost) + cost;
      entry->cost = cost;
      evict (self, 1);
    }
}

/* ---- messages ----------------------------------------------------------- */

static char *
id_text (JsonNode *id)
{
  GString *out;

  if (id == NULL)
    return NULL;
  out = g_string_new (NULL);
  mcp_json_append (out, id);
  return g_string_free (out, FALSE);
}

static void
remember (GHashTable *table,
          char       *key,
          guint64     seq)
{
  if (key == NULL)
    return;
  if (g_hash_table_size (table) >= MAX_WAITING)
    g_hash_table_remove_all (table);
  g_hash_table_insert (table, key, GUINT_TO_POINTER ((gsize) seq));
}

static guint64
take (GHashTable *table,
      const char *key)
{
  gpointer stolen = NULL;
  gpointer value = NULL;

  if (key == NULL || !g_hash_table_steal_extended (table, key, &stolen, &value))
    return 0;
  g_free (stolen);
  return (guint64) GPOINTER_TO_SIZE (value);
}

static guint64
peek (GHashTable *table,
      const char *key)
{
  return key != NULL ? (guint64) GPOINTER_TO_SIZE (g_hash_table_lookup (table, key)) : 0;
}

/* The member @name of @message's params (or of their _meta) as JSON text. */
static char *
param_text (McpMessage *message,
            const char *name,
            gboolean    in_meta)
{
  JsonObject *params = mcp_message_get_params_object (message);

  if (params == NULL)
    return NULL;
  if (in_meta)
    {
      JsonNode *meta = json_object_get_member (params, "_meta");

      if (meta == NULL || !JSON_NODE_HOLDS_OBJECT (meta))
        return NULL;
      params = json_node_get_object (meta);
    }
  return id_text (json_object_get_member (params, name));
}

/* Before @response is added: what it takes from its request. */
static McpTraceEntry *
pair_response (McpTrace      *self,
               McpTraceEntry *response,
               guint64        request_seq)
{
  McpTraceEntry *request = mcp_trace_lookup (self, request_seq);

  response->request_seq = request_seq;
  if (request == NULL)
    return NULL;
  g_free (response->method);
  response->method = g_strdup (request->method);
  response->duration = MAX (response->mono - request->mono, 0);
  response->group_seq = request->group_seq;
  response->round = request->round;
  return request;
}

/* After: the request learns its response. */
static void
pair_request (McpTrace      *self,
              McpTraceEntry *request,
              McpTraceEntry *response)
{
  request->response_seq = response->seq;
  request->duration = response->duration;
  if (request->error_class == MCP_TRACE_ERROR_NONE && response->error_class != MCP_TRACE_ERROR_NONE)
    {
      request->error_class = response->error_class;
      request->error_code = response->error_code;
      g_free (request->error_text);
      request->error_text = g_strdup (response->error_text);
    }
  mcp_trace_entry_changed (self, request, FALSE);
}

/* Progress tokens end with their request. */
static void
forget_progress (McpTrace *self,
                 guint64   request_seq)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->progress);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if ((guint64) GPOINTER_TO_SIZE (value) == request_seq)
      {
        g_hash_table_iter_remove (&iter);
        return;
      }
}

/* The latest request we sent with @id, searched back a little way. */
static McpTraceEntry *
find_request (McpTrace   *self,
              const char *id)
{
  for (guint i = self->len; i > 0 && self->len - i < 1024; i--)
    {
      McpTraceEntry *entry = self->ring[(self->head + i - 1) & (self->capacity - 1)];

      if (entry->kind == MCP_TRACE_KIND_MESSAGE && entry->direction == MCP_TRACE_DIRECTION_OUT &&
          entry->message_kind == MCP_MESSAGE_REQUEST && g_strcmp0 (entry->id, id) == 0)
        return entry;
    }
  return NULL;
}

McpTraceEntry *
mcp_trace_take_unlinked_message (McpTrace *self)
{
  McpTraceEntry *message = mcp_trace_lookup (self, self->last_out_unlinked);

  self->last_out_unlinked = 0;
  return message;
}

void
mcp_trace_set_receiving (McpTrace *self,
                         guint64   http_seq)
{
  self->last_in_http = http_seq;
}

void
mcp_trace_note_round (McpTrace *self,
                      gint64    first_id,
                      gint64    new_id,
                      guint     round)
{
  g_autofree char *id = g_strdup_printf ("%" G_GINT64_FORMAT, first_id);
  McpTraceEntry *first;
  Round *r;

  g_return_if_fail (MCP_IS_TRACE (self));

  first = find_request (self, id);
  if (first == NULL)
    return;
  if (first->group_seq == 0)
    {
      McpTraceEntry *response = mcp_trace_lookup (self, first->response_seq);

      first->group_seq = first->seq;
      first->round = 1;
      if (response != NULL)
        {
          response->group_seq = first->seq;
          response->round = 1;
        }
    }
  if (g_hash_table_size (self->rounds) >= MAX_WAITING)
    g_hash_table_remove_all (self->rounds);
  r = g_new (Round, 1);
  r->group_seq = first->group_seq;
  r->round = round;
  g_hash_table_insert (self->rounds, g_memdup2 (&new_id, sizeof new_id), r);
}

McpTraceEntry *
mcp_trace_record_message (McpTrace          *self,
                          McpTraceDirection  direction,
                          McpMessage        *message,
                          const char        *text,
                          gsize              length)
{
  g_autofree char *owned = NULL;
  g_autofree char *id = NULL;
  McpTraceEntry *request = NULL;
  McpTraceEntry *entry;
  const char *method;

  g_return_val_if_fail (MCP_IS_TRACE (self), NULL);
  g_return_val_if_fail (MCP_IS_MESSAGE (message), NULL);

  if (text == NULL)
    text = owned = mcp_message_to_string (message, &length);

  entry = mcp_trace_entry_new (MCP_TRACE_KIND_MESSAGE, direction);
  entry->message_kind = mcp_message_get_kind (message);
  entry->size = length;
  entry->text = mcp_trace_mask_message_text (text, length, (const char * const *) self->secrets,
                                             &entry->truncated, &entry->text_is_json);
  method = mcp_message_get_method (message);
  entry->method = mask_short (self, method);
  id = id_text (mcp_message_get_id (message));
  entry->id = mask_short (self, id);
  if (direction == MCP_TRACE_DIRECTION_IN)
    entry->http_seq = self->last_in_http;

  if (entry->message_kind == MCP_MESSAGE_ERROR)
    {
      entry->error_class = MCP_TRACE_ERROR_JSONRPC;
      entry->error_code = mcp_message_get_error_code (message);
      entry->error_text = mcp_trace_mask_text (self, mcp_message_get_error_message (message), -1);
    }

  if (entry->message_kind == MCP_MESSAGE_REQUEST)
    {
      gint64 int_id;
      Round *r;

      if (mcp_message_get_int_id (message, &int_id) && direction == MCP_TRACE_DIRECTION_OUT &&
          (r = g_hash_table_lookup (self->rounds, &int_id)) != NULL)
        {
          entry->group_seq = r->group_seq;
          entry->round = r->round;
          g_hash_table_remove (self->rounds, &int_id);
        }
    }
  else if (entry->message_kind == MCP_MESSAGE_NOTIFICATION && method != NULL)
    {
      g_autofree char *about = NULL;

      if (g_str_equal (method, "notifications/progress"))
        entry->related_seq = peek (self->progress, about = param_text (message, "progressToken", FALSE));
      else if (g_str_equal (method, "notifications/cancelled"))
        {
          about = param_text (message, "requestId", FALSE);
          entry->related_seq = peek (direction == MCP_TRACE_DIRECTION_OUT ? self->waiting_out
                                                                          : self->waiting_in, about);
        }
    }
  else if (entry->message_kind == MCP_MESSAGE_RESULT || entry->message_kind == MCP_MESSAGE_ERROR)
    {
      guint64 request_seq = take (direction == MCP_TRACE_DIRECTION_IN ? self->waiting_out
                                                                      : self->waiting_in, id);

      if (request_seq != 0)
        {
          request = pair_response (self, entry, request_seq);
          if (direction == MCP_TRACE_DIRECTION_IN && g_hash_table_size (self->progress) > 0)
            forget_progress (self, request_seq);
        }
    }

  /* The request may be evicted by this very entry. */
  if (request != NULL)
    g_object_ref (request);
  mcp_trace_add (self, entry);
  if (request != NULL)
    {
      pair_request (self, request, entry);
      g_object_unref (request);
    }

  if (direction == MCP_TRACE_DIRECTION_OUT)
    self->last_out_unlinked = entry->seq;
  if (entry->message_kind == MCP_MESSAGE_REQUEST)
    {
      remember (direction == MCP_TRACE_DIRECTION_OUT ? self->waiting_out : self->waiting_in,
                g_strdup (id), entry->seq);
      if (direction == MCP_TRACE_DIRECTION_OUT)
        remember (self->progress, param_text (message, "progressToken", TRUE), entry->seq);
    }

  return entry;
}

void
mcp_trace_record_invalid (McpTrace     *self,
                          const char   *text,
                          gsize         length,
                          const GError *error)
{
  McpTraceEntry *entry;

  g_return_if_fail (MCP_IS_TRACE (self));

  entry = mcp_trace_entry_new (MCP_TRACE_KIND_INVALID, MCP_TRACE_DIRECTION_IN);
  entry->size = length;
  entry->text = mcp_trace_mask_body (text, length, NULL, (const char * const *) self->secrets,
                                     MCP_TRACE_MAX_BODY_BYTES, &entry->truncated);
  entry->error_class = MCP_TRACE_ERROR_PROTOCOL;
  if (error != NULL)
    entry->error_text = mcp_trace_mask_text (self, error->message, -1);
  entry->http_seq = self->last_in_http;
  mcp_trace_add (self, entry);
}

McpTraceEntry *
mcp_trace_record_app (McpTrace          *self,
                      McpTraceDirection  direction,
                      McpMessage        *message,
                      const char        *text,
                      gsize              length,
                      const GError      *error)
{
  g_autofree char *id = NULL;
  McpTraceEntry *entry;

  g_return_val_if_fail (MCP_IS_TRACE (self), NULL);
  g_return_val_if_fail (message == NULL || MCP_IS_MESSAGE (message), NULL);
  g_return_val_if_fail (text != NULL, NULL);

  entry = mcp_trace_entry_new (MCP_TRACE_KIND_APP, direction);
  entry->size = length;
  if (message == NULL)
    {
      /* Not JSON-RPC: kept as text, as an invalid message of a server is. */
      entry->message_kind = MCP_MESSAGE_NOTIFICATION;
      entry->text = mcp_trace_mask_body (text, length, NULL, (const char * const *) self->secrets,
                                         MCP_TRACE_MAX_BODY_BYTES, &entry->truncated);
      entry->error_class = MCP_TRACE_ERROR_PROTOCOL;
      if (error != NULL)
        entry->error_text = mcp_trace_mask_text (self, error->message, -1);
      mcp_trace_add (self, entry);
      return entry;
    }

  /* A page's requests and the host's are numbered apart from the
   * server's, so they are not paired with its responses. */
  entry->message_kind = mcp_message_get_kind (message);
  entry->text = mcp_trace_mask_message_text (text, length, (const char * const *) self->secrets,
                                             &entry->truncated, &entry->text_is_json);
  entry->method = mask_short (self, mcp_message_get_method (message));
  id = id_text (mcp_message_get_id (message));
  entry->id = mask_short (self, id);
  if (entry->message_kind == MCP_MESSAGE_ERROR)
    {
      entry->error_class = MCP_TRACE_ERROR_JSONRPC;
      entry->error_code = mcp_message_get_error_code (message);
      entry->error_text = mcp_trace_mask_text (self, mcp_message_get_error_message (message), -1);
    }
  mcp_trace_add (self, entry);
  return entry;
}

McpTraceEntry *
mcp_trace_record_app_blocked (McpTrace   *self,
                              const char *what,
                              const char *detail)
{
  g_autofree char *text = NULL;
  McpTraceEntry *entry;

  g_return_val_if_fail (MCP_IS_TRACE (self), NULL);
  g_return_val_if_fail (what != NULL, NULL);

  text = g_strdup_printf ("%s: %s", what, detail != NULL ? detail : "");
  entry = mcp_trace_entry_new (MCP_TRACE_KIND_APP, MCP_TRACE_DIRECTION_NONE);
  entry->method = g_strdup ("blocked");
  entry->text = mcp_trace_mask_text (self, text, -1);
  entry->size = strlen (text);
  entry->error_class = MCP_TRACE_ERROR_PROTOCOL;
  entry->error_text = g_strdup (entry->text);
  mcp_trace_add (self, entry);
  return entry;
}

void
mcp_trace_record_stderr (McpTrace   *self,
                         const char *line)
{
  McpTraceEntry *entry;
  gsize length;

  g_return_if_fail (MCP_IS_TRACE (self));
  g_return_if_fail (line != NULL);

  length = strlen (line);
  entry = mcp_trace_entry_new (MCP_TRACE_KIND_STDERR, MCP_TRACE_DIRECTION_IN);
  entry->size = length;
  entry->text = mcp_trace_mask_body (line, length, "text/plain", (const char * const *) self->secrets,
                                     MCP_TRACE_MAX_BODY_BYTES, &entry->truncated);
  mcp_trace_add (self, entry);
}

void
mcp_trace_record_request_failed (McpTrace     *self,
                                 JsonNode     *id,
                                 const GError *error,
                                 guint         http_status)
{
  g_autofree char *key = id_text (id);
  g_autofree char *masked = NULL;
  McpTraceEntry *request;
  McpTraceEntry *entry;
  guint64 request_seq;

  g_return_if_fail (MCP_IS_TRACE (self));

  request_seq = take (self->waiting_out, key);
  request = mcp_trace_lookup (self, request_seq);
  masked = error != NULL ? mcp_trace_mask_text (self, error->message, -1) : NULL;

  entry = mcp_trace_entry_new (MCP_TRACE_KIND_EVENT, MCP_TRACE_DIRECTION_NONE);
  entry->method = g_strdup ("request-failed");
  entry->id = mask_short (self, key);
  entry->text = g_strdup (masked);
  entry->size = masked != NULL ? strlen (masked) : 0;
  entry->related_seq = request_seq;
  entry->error_class = http_status >= 400 ? MCP_TRACE_ERROR_HTTP : MCP_TRACE_ERROR_TRANSPORT;
  entry->error_code = http_status >= 400 ? (int) http_status : 0;
  entry->error_text = g_strdup (masked);
  if (request != NULL)
    {
      g_object_ref (request);
      entry->duration = MAX (entry->mono - request->mono, 0);
    }
  mcp_trace_add (self, entry);
  if (request != NULL)
    {
      request->duration = entry->duration;
      request->error_class = entry->error_class;
      request->error_code = entry->error_code;
      g_free (request->error_text);
      request->error_text = g_strdup (masked);
      mcp_trace_entry_changed (self, request, FALSE);
      g_object_unref (request);
    }
}

McpTraceEntry *
mcp_trace_record_event (McpTrace     *self,
                        const char   *what,
                        const char   *text,
                        const GError *error,
                        const char   *session_id)
{
  McpTraceEntry *entry;

  g_return_val_if_fail (MCP_IS_TRACE (self), NULL);
  g_return_val_if_fail (what != NULL, NULL);

  entry = mcp_trace_entry_new (MCP_TRACE_KIND_EVENT, MCP_TRACE_DIRECTION_NONE);
  entry->method = mask_short (self, what);
  entry->text = text != NULL ? mcp_trace_mask_text (self, text, -1) : NULL;
  entry->size = text != NULL ? strlen (text) : 0;
  entry->session_id = mask_short (self, session_id);
  if (error != NULL)
    {
      entry->error_class = MCP_TRACE_ERROR_TRANSPORT;
      entry->error_text = mcp_trace_mask_text (self, error->message, -1);
    }
  mcp_trace_add (self, entry);
  return entry;
}

void
mcp_trace_record_sse_event (McpTrace   *self,
                            guint64     http_seq,
                            const char *event_type,
                            const char *event_id,
                            gint64      retry_ms,
                            const char *data,
                            gsize       length)
{
  McpTraceEntry *entry;

  g_return_if_fail (MCP_IS_TRACE (self));

  entry = mcp_trace_entry_new (MCP_TRACE_KIND_SSE, MCP_TRACE_DIRECTION_IN);
  entry->method = mask_short (self, event_type != NULL ? event_type : "message");
  entry->id = mask_short (self, event_id);
  entry->retry = retry_ms;
  entry->http_seq = http_seq;
  entry->size = length;
  /* The data of a message event is the message, recorded next on its own. */
  if (data != NULL && (event_type == NULL || !g_str_equal (event_type, "message")))
    entry->text = mcp_trace_mask_body (data, length, NULL, (const char * const *) self->secrets,
                                       MCP_TRACE_MAX_BODY_BYTES, &entry->truncated);
  self->last_in_http = http_seq;
  mcp_trace_add (self, entry);
}

static McpTraceEntry *
auth_step_new (McpTrace           *self,
               const char         *step,
               McpTraceStepStatus  status,
               const char         *text,
               guint64             http_seq)
{
  McpTraceEntry *entry = mcp_trace_entry_new (MCP_TRACE_KIND_AUTH, MCP_TRACE_DIRECTION_NONE);

  entry->method = mask_short (self, step);
  entry->step_status = status;
  entry->text = text != NULL ? mcp_trace_mask_text (self, text, -1) : NULL;
  entry->size = text != NULL ? strlen (text) : 0;
  entry->http_seq = http_seq;
  if (status == MCP_TRACE_STEP_FAILED)
    entry->error_class = MCP_TRACE_ERROR_PROTOCOL;
  return entry;
}

McpTraceEntry *
mcp_trace_record_auth_step (McpTrace           *self,
                            const char         *step,
                            McpTraceStepStatus  status,
                            const char         *text,
                            guint64             http_seq)
{
  McpTraceEntry *entry;

  g_return_val_if_fail (MCP_IS_TRACE (self), NULL);
  g_return_val_if_fail (step != NULL, NULL);

  entry = auth_step_new (self, step, status, text, http_seq);
  mcp_trace_add (self, entry);
  return entry;
}

McpTraceEntry *
mcp_trace_record_auth_step_url (McpTrace           *self,
                                const char         *step,
                                McpTraceStepStatus  status,
                                const char         *text,
                                const char         *url)
{
  McpTraceEntry *entry;
  g_autofree char *masked = NULL;
  gboolean truncated;

  g_return_val_if_fail (MCP_IS_TRACE (self), NULL);
  g_return_val_if_fail (step != NULL, NULL);

  entry = auth_step_new (self, step, status, text, 0);
  /* As an exchange's URL: only secret parameters masked, so that the
   * person can copy it whole. */
  masked = mcp_trace_mask_url (url);
  if (masked != NULL)
    entry->url = mcp_trace_mask_body (masked, strlen (masked), "text/plain", mcp_trace_get_secrets (self),
                                      G_MAXSIZE, &truncated);
  mcp_trace_add (self, entry);
  return entry;
}

/* ---- files -------------------------------------------------------------- */

void
mcp_trace_append_jsonl (McpTrace   *self,
                        const char *server,
                        GString    *out)
{
  g_return_if_fail (MCP_IS_TRACE (self));

  for (guint i = 0; i < self->len; i++)
    {
      mcp_trace_entry_append_json (self->ring[(self->head + i) & (self->capacity - 1)], server, out);
      g_string_append_c (out, '\n');
    }
}

GPtrArray *
mcp_trace_read_jsonl (const char  *data,
                      gsize        length,
                      GPtrArray  **out_servers,
                      GError     **error)
{
  g_autoptr(GPtrArray) entries = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) servers = g_ptr_array_new_with_free_func (g_free);
  const char *p = data;
  const char *end = data + length;
  guint line = 0;

  while (p < end)
    {
      const char *eol = memchr (p, '\n', end - p);
      gsize n = (eol != NULL ? eol : end) - p;
      g_autoptr(GError) local = NULL;
      g_autoptr(JsonNode) node = NULL;
      McpTraceEntry *entry;
      char *server = NULL;

      line++;
      if (n > 0 && p[n - 1] == '\r')
        n--;
      if (n == 0 || strspn (p, " \t") >= n)
        {
          p += (eol != NULL ? eol + 1 : end) - p;
          continue;
        }
      node = mcp_json_parse (p, n, &local);
      if (node != NULL && !JSON_NODE_HOLDS_OBJECT (node))
        g_set_error (&local, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("not a JSON object"));
      entry = local == NULL ? mcp_trace_entry_new_from_json (json_node_get_object (node), &server, &local)
                            : NULL;
      if (entry == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       /* Translators: %u is a line number, %s what is wrong. */
                       _("Line %u is not a trace record: %s"), line, local->message);
          return NULL;
        }
      g_ptr_array_add (entries, entry);
      g_ptr_array_add (servers, server);
      p += (eol != NULL ? eol + 1 : end) - p;
    }

  if (out_servers != NULL)
    *out_servers = g_steal_pointer (&servers);
  return g_steal_pointer (&entries);
}
