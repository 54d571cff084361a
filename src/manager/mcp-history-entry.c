/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-history-entry"

#include "config.h"

#include "mcp-history-entry.h"
#include "mcp-history-entry-private.h"

#include <string.h>

/* One call of the session's history: what was called with which
 * arguments, when, for how long, how it ended, and a one-line summary. */

/* A summary is one line of at most this many characters. */
#define SUMMARY_MAX_CHARS 200

struct _McpHistoryEntry
{
  GObject            parent_instance;

  char              *qualified_name;
  JsonObject        *arguments;
  char              *summary;
  JsonObject        *result;            /* an MCP Apps call's, else NULL */
  gint64             started;           /* wall clock, µs */
  gint64             started_monotonic;
  gint64             duration;
  McpHistoryOutcome  outcome;
};

G_DEFINE_FINAL_TYPE (McpHistoryEntry, mcp_history_entry, G_TYPE_OBJECT)

enum {
  ENTRY_PROP_0,
  ENTRY_PROP_QUALIFIED_NAME,
  ENTRY_PROP_ARGUMENTS,
  ENTRY_PROP_STARTED,
  ENTRY_PROP_DURATION,
  ENTRY_PROP_OUTCOME,
  ENTRY_PROP_SUMMARY,
  ENTRY_N_PROPS
};

static GParamSpec *entry_properties[ENTRY_N_PROPS];

static void
mcp_history_entry_finalize (GObject *object)
{
  McpHistoryEntry *self = MCP_HISTORY_ENTRY (object);

  g_free (self->qualified_name);
  g_clear_pointer (&self->arguments, json_object_unref);
  g_clear_pointer (&self->result, json_object_unref);
  g_free (self->summary);

  G_OBJECT_CLASS (mcp_history_entry_parent_class)->finalize (object);
}

static void
mcp_history_entry_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  McpHistoryEntry *self = MCP_HISTORY_ENTRY (object);

  switch (prop_id)
    {
    case ENTRY_PROP_QUALIFIED_NAME:
      g_value_set_string (value, self->qualified_name);
      break;

    case ENTRY_PROP_ARGUMENTS:
      g_value_set_boxed (value, self->arguments);
      break;

    case ENTRY_PROP_STARTED:
      g_value_set_int64 (value, self->started);
      break;

    case ENTRY_PROP_DURATION:
      g_value_set_int64 (value, self->duration);
      break;

    case ENTRY_PROP_OUTCOME:
      g_value_set_enum (value, self->outcome);
      break;

    case ENTRY_PROP_SUMMARY:
      g_value_set_string (value, self->summary);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_history_entry_class_init (McpHistoryEntryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mcp_history_entry_finalize;
  object_class->get_property = mcp_history_entry_get_property;

  entry_properties[ENTRY_PROP_QUALIFIED_NAME] =
    g_param_spec_string ("qualified-name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  entry_properties[ENTRY_PROP_ARGUMENTS] =
    g_param_spec_boxed ("arguments", NULL, NULL, JSON_TYPE_OBJECT,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  entry_properties[ENTRY_PROP_STARTED] =
    g_param_spec_int64 ("started", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  entry_properties[ENTRY_PROP_DURATION] =
    g_param_spec_int64 ("duration", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* An McpHistoryOutcome. */
  entry_properties[ENTRY_PROP_OUTCOME] =
    g_param_spec_enum ("outcome", NULL, NULL,
                       MCP_TYPE_HISTORY_OUTCOME, MCP_HISTORY_OUTCOME_RUNNING,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  entry_properties[ENTRY_PROP_SUMMARY] =
    g_param_spec_string ("summary", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, ENTRY_N_PROPS, entry_properties);
}

static void
mcp_history_entry_init (McpHistoryEntry *self)
{
  self->outcome = MCP_HISTORY_OUTCOME_RUNNING;
}

const char *
mcp_history_entry_get_qualified_name (McpHistoryEntry *self)
{
  g_return_val_if_fail (MCP_IS_HISTORY_ENTRY (self), NULL);
  return self->qualified_name;
}

JsonObject *
mcp_history_entry_get_arguments (McpHistoryEntry *self)
{
  g_return_val_if_fail (MCP_IS_HISTORY_ENTRY (self), NULL);
  return self->arguments;
}

gint64
mcp_history_entry_get_started (McpHistoryEntry *self)
{
  g_return_val_if_fail (MCP_IS_HISTORY_ENTRY (self), 0);
  return self->started;
}

gint64
mcp_history_entry_get_duration (McpHistoryEntry *self)
{
  g_return_val_if_fail (MCP_IS_HISTORY_ENTRY (self), 0);
  return self->duration;
}

McpHistoryOutcome
mcp_history_entry_get_outcome (McpHistoryEntry *self)
{
  g_return_val_if_fail (MCP_IS_HISTORY_ENTRY (self), MCP_HISTORY_OUTCOME_FAILED);
  return self->outcome;
}

const char *
mcp_history_entry_get_summary (McpHistoryEntry *self)
{
  g_return_val_if_fail (MCP_IS_HISTORY_ENTRY (self), NULL);
  return self->summary;
}

/* The first line, cut to SUMMARY_MAX_CHARS characters. */
static char *
one_line (const char *text)
{
  g_autoptr(GString) line = NULL;
  const char *end;
  glong chars;

  if (text == NULL)
    return NULL;

  while (g_ascii_isspace (*text))
    text++;

  end = text;
  while (*end != '\0' && *end != '\n' && *end != '\r')
    end++;

  if (!g_utf8_validate (text, end - text, NULL))
    return g_strdup ("");

  line = g_string_new_len (text, end - text);
  chars = g_utf8_strlen (line->str, -1);
  if (chars > SUMMARY_MAX_CHARS)
    {
      const char *cut = g_utf8_offset_to_pointer (line->str, SUMMARY_MAX_CHARS - 1);

      g_string_truncate (line, cut - line->str);
      g_string_append (line, "…");
    }
  else if (*end != '\0' && end[strspn (end, " \t\r\n")] != '\0')
    {
      g_string_append (line, " …");
    }

  return g_string_free (g_steal_pointer (&line), FALSE);
}

JsonObject *
mcp_history_entry_get_result (McpHistoryEntry *self)
{
  g_return_val_if_fail (MCP_IS_HISTORY_ENTRY (self), NULL);

  return self->result;
}

void
mcp_history_entry_set_result (McpHistoryEntry *self,
                              JsonObject      *result)
{
  g_return_if_fail (MCP_IS_HISTORY_ENTRY (self));

  g_clear_pointer (&self->result, json_object_unref);
  self->result = result != NULL ? json_object_ref (result) : NULL;
}

void
mcp_history_entry_finish (McpHistoryEntry   *self,
                          McpHistoryOutcome  outcome,
                          const char        *summary)
{
  g_return_if_fail (MCP_IS_HISTORY_ENTRY (self));
  g_return_if_fail (outcome != MCP_HISTORY_OUTCOME_RUNNING);

  if (self->outcome != MCP_HISTORY_OUTCOME_RUNNING)
    {
      g_debug ("History entry of %s finished twice; keeping the first outcome",
               self->qualified_name);
      return;
    }

  g_object_freeze_notify (G_OBJECT (self));

  self->duration = MAX (g_get_monotonic_time () - self->started_monotonic, 1);
  g_object_notify_by_pspec (G_OBJECT (self), entry_properties[ENTRY_PROP_DURATION]);

  self->outcome = outcome;
  g_object_notify_by_pspec (G_OBJECT (self), entry_properties[ENTRY_PROP_OUTCOME]);

  if (g_strcmp0 (self->summary, summary) != 0)
    {
      g_free (self->summary);
      self->summary = one_line (summary);
      g_object_notify_by_pspec (G_OBJECT (self), entry_properties[ENTRY_PROP_SUMMARY]);
    }

  g_object_thaw_notify (G_OBJECT (self));
}

McpHistoryEntry *
mcp_history_entry_new (const char *qualified_name,
                       JsonObject *arguments)
{
  McpHistoryEntry *self = g_object_new (MCP_TYPE_HISTORY_ENTRY, NULL);

  self->qualified_name = g_strdup (qualified_name);
  self->arguments = json_object_ref (arguments);
  json_object_seal (self->arguments);
  self->started = g_get_real_time ();
  self->started_monotonic = g_get_monotonic_time ();

  return self;
}
