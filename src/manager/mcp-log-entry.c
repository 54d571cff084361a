/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-log-entry"

#include "config.h"

#include "mcp-log-entry.h"

struct _McpLogEntry
{
  GObject          parent_instance;

  gint64           time;
  McpLogEntryKind  kind;
  char            *text;
  char            *level;   /* MCP_LOG_ENTRY_MESSAGE only */
  char            *logger;
};

enum {
  PROP_0,
  PROP_TIME,
  PROP_KIND,
  PROP_TEXT,
  PROP_LEVEL,
  PROP_LOGGER,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (McpLogEntry, mcp_log_entry, G_TYPE_OBJECT)

static const char *
kind_to_string (McpLogEntryKind kind)
{
  switch (kind)
    {
    case MCP_LOG_ENTRY_STDERR:
      return "stderr";
    case MCP_LOG_ENTRY_NOTIFICATION:
      return "notification";
    case MCP_LOG_ENTRY_STATE:
      return "state";
    case MCP_LOG_ENTRY_MESSAGE:
      return "message";
    case MCP_LOG_ENTRY_WARNING:
      return "warning";
    default:
      return "unknown";
    }
}

static void
mcp_log_entry_constructed (GObject *object)
{
  McpLogEntry *self = MCP_LOG_ENTRY (object);

  G_OBJECT_CLASS (mcp_log_entry_parent_class)->constructed (object);

  /* Made without a time: now. */
  if (self->time == 0)
    self->time = g_get_real_time ();
  if (self->text == NULL)
    self->text = g_strdup ("");
}

static void
mcp_log_entry_finalize (GObject *object)
{
  McpLogEntry *self = MCP_LOG_ENTRY (object);

  g_clear_pointer (&self->text, g_free);
  g_clear_pointer (&self->level, g_free);
  g_clear_pointer (&self->logger, g_free);

  G_OBJECT_CLASS (mcp_log_entry_parent_class)->finalize (object);
}

static void
mcp_log_entry_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  McpLogEntry *self = MCP_LOG_ENTRY (object);

  switch (prop_id)
    {
    case PROP_TIME:
      g_value_set_int64 (value, self->time);
      break;
    case PROP_KIND:
      g_value_set_enum (value, self->kind);
      break;
    case PROP_TEXT:
      g_value_set_string (value, self->text);
      break;
    case PROP_LEVEL:
      g_value_set_string (value, self->level);
      break;
    case PROP_LOGGER:
      g_value_set_string (value, self->logger);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_log_entry_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  McpLogEntry *self = MCP_LOG_ENTRY (object);

  switch (prop_id)
    {
    case PROP_TIME:
      self->time = g_value_get_int64 (value);
      break;
    case PROP_KIND:
      self->kind = g_value_get_enum (value);
      break;
    case PROP_TEXT:
      g_free (self->text);
      self->text = g_value_dup_string (value);
      break;
    case PROP_LEVEL:
      g_free (self->level);
      self->level = g_value_dup_string (value);
      break;
    case PROP_LOGGER:
      g_free (self->logger);
      self->logger = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_log_entry_class_init (McpLogEntryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = mcp_log_entry_constructed;
  object_class->finalize = mcp_log_entry_finalize;
  object_class->get_property = mcp_log_entry_get_property;
  object_class->set_property = mcp_log_entry_set_property;

  properties[PROP_TIME] =
    g_param_spec_int64 ("time", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                        G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_KIND] =
    g_param_spec_enum ("kind", NULL, NULL,
                       MCP_TYPE_LOG_ENTRY_KIND, MCP_LOG_ENTRY_STDERR,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                       G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LEVEL] =
    g_param_spec_string ("level", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOGGER] =
    g_param_spec_string ("logger", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mcp_log_entry_init (McpLogEntry *self)
{
}

McpLogEntry *
mcp_log_entry_new (McpLogEntryKind  kind,
                   const char      *text)
{
  return g_object_new (MCP_TYPE_LOG_ENTRY,
                       "time", g_get_real_time (),
                       "kind", kind,
                       "text", text,
                       NULL);
}

McpLogEntry *
mcp_log_entry_new_message (const char *level,
                           const char *logger,
                           const char *text)
{
  g_autofree char *line = NULL;

  g_return_val_if_fail (level != NULL, NULL);

  if (logger != NULL && *logger != '\0')
    line = g_strdup_printf ("%s %s: %s", level, logger, text != NULL ? text : "");
  else
    line = g_strdup_printf ("%s: %s", level, text != NULL ? text : "");

  return g_object_new (MCP_TYPE_LOG_ENTRY,
                       "time", g_get_real_time (),
                       "kind", MCP_LOG_ENTRY_MESSAGE,
                       "text", line,
                       "level", level,
                       "logger", logger,
                       NULL);
}

gint64
mcp_log_entry_get_time (McpLogEntry *self)
{
  g_return_val_if_fail (MCP_IS_LOG_ENTRY (self), 0);

  return self->time;
}

McpLogEntryKind
mcp_log_entry_get_kind (McpLogEntry *self)
{
  g_return_val_if_fail (MCP_IS_LOG_ENTRY (self), MCP_LOG_ENTRY_STATE);

  return self->kind;
}

const char *
mcp_log_entry_get_text (McpLogEntry *self)
{
  g_return_val_if_fail (MCP_IS_LOG_ENTRY (self), NULL);

  return self->text;
}

const char *
mcp_log_entry_get_level (McpLogEntry *self)
{
  g_return_val_if_fail (MCP_IS_LOG_ENTRY (self), NULL);

  return self->level;
}

const char *
mcp_log_entry_get_logger (McpLogEntry *self)
{
  g_return_val_if_fail (MCP_IS_LOG_ENTRY (self), NULL);

  return self->logger;
}

char *
mcp_log_entry_format (McpLogEntry *self)
{
  g_autoptr(GDateTime) date_time = NULL;
  g_autofree char *clock = NULL;

  g_return_val_if_fail (MCP_IS_LOG_ENTRY (self), NULL);

  date_time = g_date_time_new_from_unix_local (self->time / G_USEC_PER_SEC);
  if (date_time != NULL)
    clock = g_date_time_format (date_time, "%H:%M:%S");

  return g_strdup_printf ("%s.%03d  [%s] %s",
                          clock != NULL ? clock : "00:00:00",
                          (int) ((self->time % G_USEC_PER_SEC) / 1000),
                          kind_to_string (self->kind),
                          self->text);
}
