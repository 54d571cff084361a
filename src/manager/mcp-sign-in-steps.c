/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-sign-in-steps"

#include "config.h"

#include "mcp-sign-in-steps.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-json-private.h"

/* The AUTH entries of a trace as a list model (mcp-sign-in-steps.h). A
 * replay keeps every entry of its file by seq, so that a step finds its
 * exchange as a live trace's mcp_trace_lookup() would. */

struct _McpSignInSteps
{
  GObject     parent_instance;

  McpTrace   *trace;       /* live */
  GHashTable *replayed;    /* replay: seq → McpTraceEntry */
  GPtrArray  *steps;       /* McpTraceEntry */
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (McpSignInSteps, mcp_sign_in_steps, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static GType
get_item_type (GListModel *model)
{
  return MCP_TYPE_TRACE_ENTRY;
}

static guint
get_n_items (GListModel *model)
{
  return MCP_SIGN_IN_STEPS (model)->steps->len;
}

static gpointer
get_item (GListModel *model,
          guint       position)
{
  McpSignInSteps *self = MCP_SIGN_IN_STEPS (model);

  if (position >= self->steps->len)
    return NULL;
  return g_object_ref (g_ptr_array_index (self->steps, position));
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

static void
mcp_sign_in_steps_dispose (GObject *object)
{
  McpSignInSteps *self = MCP_SIGN_IN_STEPS (object);

  g_clear_object (&self->trace);
  G_OBJECT_CLASS (mcp_sign_in_steps_parent_class)->dispose (object);
}

static void
mcp_sign_in_steps_finalize (GObject *object)
{
  McpSignInSteps *self = MCP_SIGN_IN_STEPS (object);

  g_clear_pointer (&self->replayed, g_hash_table_unref);
  g_ptr_array_unref (self->steps);
  G_OBJECT_CLASS (mcp_sign_in_steps_parent_class)->finalize (object);
}

static void
mcp_sign_in_steps_class_init (McpSignInStepsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = mcp_sign_in_steps_dispose;
  object_class->finalize = mcp_sign_in_steps_finalize;
}

static void
mcp_sign_in_steps_init (McpSignInSteps *self)
{
  self->steps = g_ptr_array_new_with_free_func (g_object_unref);
}

static void
add_step (McpSignInSteps *self,
          McpTraceEntry  *entry)
{
  g_ptr_array_add (self->steps, g_object_ref (entry));
}

/* Makes room for one more step; TRUE when the oldest went. */
static gboolean
make_room (McpSignInSteps *self)
{
  if (self->steps->len < MCP_SIGN_IN_STEPS_MAX)
    return FALSE;
  g_ptr_array_remove_index (self->steps, 0);
  return TRUE;
}

static void
recorded_cb (McpTrace       *trace,
             McpTraceEntry  *entry,
             McpSignInSteps *self)
{
  if (mcp_trace_entry_get_kind (entry) != MCP_TRACE_KIND_AUTH)
    return;
  if (make_room (self))
    g_list_model_items_changed (G_LIST_MODEL (self), 0, 1, 0);
  add_step (self, entry);
  g_list_model_items_changed (G_LIST_MODEL (self), self->steps->len - 1, 0, 1);
}

McpSignInSteps *
mcp_sign_in_steps_new (McpTrace *trace,
                       guint64   after_seq)
{
  McpSignInSteps *self;
  g_autoptr(GPtrArray) entries = NULL;

  g_return_val_if_fail (MCP_IS_TRACE (trace), NULL);

  self = g_object_new (MCP_TYPE_SIGN_IN_STEPS, NULL);
  self->trace = g_object_ref (trace);
  entries = mcp_trace_dup_entries (trace);
  for (guint i = 0; i < entries->len; i++)
    {
      McpTraceEntry *entry = g_ptr_array_index (entries, i);

      if (mcp_trace_entry_get_seq (entry) > after_seq &&
          mcp_trace_entry_get_kind (entry) == MCP_TRACE_KIND_AUTH)
        {
          make_room (self);
          add_step (self, entry);
        }
    }
  g_signal_connect_object (trace, "recorded", G_CALLBACK (recorded_cb), self, 0);

  return self;
}

McpSignInSteps *
mcp_sign_in_steps_new_replay (GPtrArray *entries)
{
  McpSignInSteps *self;

  g_return_val_if_fail (entries != NULL, NULL);

  self = g_object_new (MCP_TYPE_SIGN_IN_STEPS, NULL);
  self->replayed = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_object_unref);
  for (guint i = 0; i < entries->len; i++)
    {
      McpTraceEntry *entry = g_ptr_array_index (entries, i);
      gint64 *seq = g_new (gint64, 1);

      *seq = (gint64) mcp_trace_entry_get_seq (entry);
      g_hash_table_replace (self->replayed, seq, g_object_ref (entry));
      if (mcp_trace_entry_get_kind (entry) == MCP_TRACE_KIND_AUTH)
        {
          make_room (self);
          add_step (self, entry);
        }
    }

  return self;
}

McpTrace *
mcp_sign_in_steps_get_trace (McpSignInSteps *self)
{
  g_return_val_if_fail (MCP_IS_SIGN_IN_STEPS (self), NULL);

  return self->trace;
}

McpTraceEntry *
mcp_sign_in_steps_get_exchange (McpSignInSteps *self,
                                McpTraceEntry  *step)
{
  gint64 seq;

  g_return_val_if_fail (MCP_IS_SIGN_IN_STEPS (self), NULL);
  g_return_val_if_fail (MCP_IS_TRACE_ENTRY (step), NULL);

  seq = (gint64) mcp_trace_entry_get_http_seq (step);
  if (seq == 0)
    return NULL;
  if (self->trace != NULL)
    return mcp_trace_lookup (self->trace, (guint64) seq);
  return g_hash_table_lookup (self->replayed, &seq);
}

const char *
mcp_sign_in_step_get_title (const char *step)
{
  static const struct { const char *name; const char *title; } titles[] = {
    { "challenge", N_("Challenge") },
    { "protected-resource-metadata", N_("Protected resource metadata") },
    { "authorization-server-metadata", N_("Authorization server metadata") },
    { "scopes", N_("Scopes") },
    { "client-registration", N_("Client identity") },
    { "client-id-metadata-document", N_("Client ID metadata document") },
    { "authorization-url", N_("Authorization URL") },
    { "callback", N_("Callback") },
    { "token-exchange", N_("Token exchange") },
    { "refresh", N_("Refresh") },
    { "step-up", N_("Step-up") },
    { "grant", N_("Grant") },
    { "id-token", N_("Assertion or ID token") },
    { "idp-token-exchange", N_("Token exchange at the identity provider") },
    { "sign-in", N_("Result") },
  };

  for (guint i = 0; step != NULL && i < G_N_ELEMENTS (titles); i++)
    if (g_str_equal (step, titles[i].name))
      return _(titles[i].title);
  return step != NULL ? step : "";
}

const char *
mcp_sign_in_step_get_marker (McpTraceStepStatus status)
{
  switch (status)
    {
    case MCP_TRACE_STEP_OK:
      return "✓";
    case MCP_TRACE_STEP_FAILED:
      return "✗";
    case MCP_TRACE_STEP_SKIPPED:
      return "–";
    case MCP_TRACE_STEP_INFO:
    default:
      return "·";
    }
}

/* A JSON body laid out for people; anything else as it is. */
static void
append_body (GString    *out,
             const char *body)
{
  g_autoptr(JsonNode) node = NULL;

  if (body == NULL || body[0] == '\0')
    return;
  if (out->len > 0)
    g_string_append_c (out, '\n');
  node = mcp_json_parse (body, strlen (body), NULL);
  if (node == NULL)
    g_string_append (out, body);
  else
    mcp_json_append_pretty (out, node);
}

static void
append_headers (GString            *out,
                const char * const *headers)
{
  for (guint i = 0; headers != NULL && headers[i] != NULL && headers[i + 1] != NULL; i += 2)
    g_string_append_printf (out, "\n%s: %s", headers[i], headers[i + 1]);
}

char *
mcp_sign_in_exchange_format (McpTraceEntry *exchange,
                             gboolean       response)
{
  GString *out;

  g_return_val_if_fail (MCP_IS_TRACE_ENTRY (exchange), NULL);

  out = g_string_new (NULL);
  if (!response)
    {
      g_string_append_printf (out, "%s %s", mcp_trace_entry_get_method (exchange) ?: "",
                              mcp_trace_entry_get_url (exchange) ?: "");
      append_headers (out, mcp_trace_entry_get_request_headers (exchange));
      if (mcp_trace_entry_get_request_body (exchange) != NULL)
        g_string_append_c (out, '\n');
      append_body (out, mcp_trace_entry_get_request_body (exchange));
    }
  else if (mcp_trace_entry_get_status (exchange) == 0 && mcp_trace_entry_get_response_body (exchange) == NULL)
    g_string_append (out, mcp_trace_entry_get_error_text (exchange) ?: _("No answer (yet)"));
  else
    {
      if (mcp_trace_entry_get_status (exchange) != 0)
        g_string_append_printf (out, "HTTP %u", mcp_trace_entry_get_status (exchange));
      append_headers (out, mcp_trace_entry_get_response_headers (exchange));
      if (out->len > 0)
        g_string_append_c (out, '\n');
      append_body (out, mcp_trace_entry_get_response_body (exchange));
    }
  return g_string_free (out, FALSE);
}

static void
append_indented (GString    *out,
                 const char *prefix,
                 const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    g_string_append_printf (out, "    %s %s\n", prefix, lines[i]);
}

char *
mcp_sign_in_step_format (McpTraceEntry *step,
                         McpTraceEntry *exchange,
                         gboolean       details)
{
  GString *out;

  g_return_val_if_fail (MCP_IS_TRACE_ENTRY (step), NULL);
  g_return_val_if_fail (exchange == NULL || MCP_IS_TRACE_ENTRY (exchange), NULL);

  out = g_string_new (NULL);
  g_string_append_printf (out, "%s %s: %s\n",
                          mcp_sign_in_step_get_marker (mcp_trace_entry_get_step_status (step)),
                          mcp_sign_in_step_get_title (mcp_trace_entry_get_method (step)),
                          mcp_trace_entry_get_text (step) ? mcp_trace_entry_get_text (step) : "");
  if (mcp_trace_entry_get_url (step) != NULL)
    g_string_append_printf (out, "    %s\n", mcp_trace_entry_get_url (step));
  if (exchange == NULL)
    return g_string_free (out, FALSE);

  {
    g_autofree char *summary = mcp_trace_entry_dup_summary (exchange);

    g_string_append_printf (out, "    %s\n", summary);
  }
  if (details)
    {
      g_autofree char *request = mcp_sign_in_exchange_format (exchange, FALSE);
      g_autofree char *response = mcp_sign_in_exchange_format (exchange, TRUE);

      append_indented (out, ">", request);
      append_indented (out, "<", response);
    }
  return g_string_free (out, FALSE);
}
