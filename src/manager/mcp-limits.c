/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-limits"

#include "config.h"

#include "mcp-limits.h"

#include "mcp-http-transport.h"
#include "mcp-oauth-provider.h"
#include "mcp-processed-result.h"
#include "mcp-server-manager.h"
#include "mcp-trace.h"

struct _McpLimits
{
  GObject    parent_instance;

  GSettings *settings;

  guint      values[MCP_N_LIMITS];
  char      *environment[MCP_N_LIMITS];  /* as read; NULL: unset or empty */
  guint      overridden;                  /* bit per limit: the variable's value is used */
  guint      bound;                       /* bit per limit: follows settings */
};

G_DEFINE_FINAL_TYPE (McpLimits, mcp_limits, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_CONNECT_TIMEOUT,
  PROP_TOOL_TIMEOUT,
  PROP_REQUEST_TIMEOUT,
  PROP_LOCAL_BATCH_SIZE,
  PROP_REMOTE_BATCH_SIZE,
  PROP_MAX_OUTPUT_TOKENS,
  PROP_TRACE_KIB,
  PROP_OAUTH_REQUEST_TIMEOUT,
  PROP_SETTINGS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* In McpLimit order; the property of limit i is PROP_CONNECT_TIMEOUT + i. */
static const struct {
  const char *variable;
  const char *property;
  guint       minimum;
  guint       maximum;
  guint       fallback;
} limit_info[MCP_N_LIMITS] = {
  { "MCP_TIMEOUT", "connect-timeout", 0, G_MAXUINT, MCP_DEFAULT_CONNECT_TIMEOUT_MS },
  { "MCP_TOOL_TIMEOUT", "tool-timeout", 0, G_MAXUINT, 0 },
  { "MCP_REQUEST_TIMEOUT_MS", "request-timeout", 0, G_MAXUINT,
    MCP_HTTP_TRANSPORT_DEFAULT_REQUEST_TIMEOUT_MS },
  { "MCP_SERVER_CONNECTION_BATCH_SIZE", "local-batch-size", 1, G_MAXUINT,
    MCP_DEFAULT_LOCAL_BATCH_SIZE },
  { "MCP_REMOTE_SERVER_CONNECTION_BATCH_SIZE", "remote-batch-size", 1, G_MAXUINT,
    MCP_DEFAULT_REMOTE_BATCH_SIZE },
  { "MAX_MCP_OUTPUT_TOKENS", "max-output-tokens", 1, G_MAXUINT / MCP_CHARACTERS_PER_TOKEN,
    MCP_DEFAULT_MAX_OUTPUT_TOKENS },
  { "PLUGBOARD_TRACE_KIB", "trace-kib", MCP_TRACE_MIN_MAX_BYTES / 1024, 1024 * 1024,
    MCP_TRACE_DEFAULT_MAX_BYTES / 1024 },
};

/* Every variable accepts a whole number up to G_MAXUINT; the limit then
 * brings it into its range (a batch of 0 is a batch of 1). */
static gboolean
parse_value (McpLimit    limit,
             const char *value,
             guint      *out_value)
{
  g_autoptr(GError) error = NULL;
  guint64 parsed;

  if (!g_ascii_string_to_unsigned (value, 10, 0, G_MAXUINT, &parsed, &error))
    {
      g_debug ("Ignoring %s=%s: %s", limit_info[limit].variable, value, error->message);
      return FALSE;
    }

  *out_value = CLAMP ((guint) parsed, limit_info[limit].minimum, limit_info[limit].maximum);
  return TRUE;
}

static void
read_environment (McpLimits *self)
{
  for (guint i = 0; i < MCP_N_LIMITS; i++)
    {
      const char *value = g_getenv (limit_info[i].variable);

      self->values[i] = limit_info[i].fallback;
      if (value == NULL || value[0] == '\0')
        continue;

      self->environment[i] = g_strdup (value);
      if (parse_value (i, value, &self->values[i]))
        self->overridden |= 1u << i;
    }
}

/* ------------------------------------------------------------------------ */
/* Public                                                                   */

McpLimits *
mcp_limits_new (GSettings *settings)
{
  g_return_val_if_fail (!settings || G_IS_SETTINGS (settings), NULL);

  return g_object_new (MCP_TYPE_LIMITS, "settings", settings, NULL);
}

guint
mcp_limits_get (McpLimits *self,
                McpLimit   limit)
{
  g_return_val_if_fail (MCP_IS_LIMITS (self), 0);
  g_return_val_if_fail (limit < MCP_N_LIMITS, 0);

  return self->values[limit];
}

const char *
mcp_limits_get_override (McpLimits *self,
                         McpLimit   limit)
{
  g_return_val_if_fail (MCP_IS_LIMITS (self), NULL);
  g_return_val_if_fail (limit < MCP_N_LIMITS, NULL);

  return (self->overridden & (1u << limit)) != 0 ? limit_info[limit].variable : NULL;
}

const char *
mcp_limits_get_environment_value (McpLimits *self,
                                  McpLimit   limit)
{
  g_return_val_if_fail (MCP_IS_LIMITS (self), NULL);
  g_return_val_if_fail (limit < MCP_N_LIMITS, NULL);

  return self->environment[limit];
}

guint
mcp_limits_get_oauth_request_timeout (McpLimits *self)
{
  g_return_val_if_fail (MCP_IS_LIMITS (self), MCP_OAUTH_REQUEST_TIMEOUT_MS);

  /* OAuth requests never go without a timer: 0 is the default too. */
  if (mcp_limits_get_override (self, MCP_LIMIT_REQUEST_TIMEOUT) != NULL &&
      self->values[MCP_LIMIT_REQUEST_TIMEOUT] > 0)
    return self->values[MCP_LIMIT_REQUEST_TIMEOUT];

  return MCP_OAUTH_REQUEST_TIMEOUT_MS;
}

gsize
mcp_limits_get_max_output_characters (McpLimits *self)
{
  g_return_val_if_fail (MCP_IS_LIMITS (self), 0);

  return (gsize) self->values[MCP_LIMIT_MAX_OUTPUT_TOKENS] * MCP_CHARACTERS_PER_TOKEN;
}

const char *
mcp_limit_get_variable (McpLimit limit)
{
  g_return_val_if_fail (limit < MCP_N_LIMITS, NULL);

  return limit_info[limit].variable;
}

const char *
mcp_limit_get_property_name (McpLimit limit)
{
  g_return_val_if_fail (limit < MCP_N_LIMITS, NULL);

  return limit_info[limit].property;
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static void
mcp_limits_constructed (GObject *object)
{
  McpLimits *self = MCP_LIMITS (object);

  G_OBJECT_CLASS (mcp_limits_parent_class)->constructed (object);

  read_environment (self);

  if (self->settings == NULL)
    return;

  /* A variable that is set, even to a value that is ignored, keeps its
   * limit from the preferences, as it always did. */
  for (guint i = 0; i < MCP_N_LIMITS; i++)
    {
      if (self->environment[i] != NULL)
        continue;

      g_settings_bind (self->settings, limit_info[i].property,
                       self, limit_info[i].property,
                       G_SETTINGS_BIND_GET);
      self->bound |= 1u << i;
    }
}

static void
mcp_limits_dispose (GObject *object)
{
  McpLimits *self = MCP_LIMITS (object);

  for (guint i = 0; i < MCP_N_LIMITS; i++)
    if ((self->bound & (1u << i)) != 0)
      g_settings_unbind (self, limit_info[i].property);
  self->bound = 0;

  g_clear_object (&self->settings);

  G_OBJECT_CLASS (mcp_limits_parent_class)->dispose (object);
}

static void
mcp_limits_finalize (GObject *object)
{
  McpLimits *self = MCP_LIMITS (object);

  for (guint i = 0; i < MCP_N_LIMITS; i++)
    g_clear_pointer (&self->environment[i], g_free);

  G_OBJECT_CLASS (mcp_limits_parent_class)->finalize (object);
}

static void
mcp_limits_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  McpLimits *self = MCP_LIMITS (object);

  switch (prop_id)
    {
    case PROP_CONNECT_TIMEOUT:
    case PROP_TOOL_TIMEOUT:
    case PROP_REQUEST_TIMEOUT:
    case PROP_LOCAL_BATCH_SIZE:
    case PROP_REMOTE_BATCH_SIZE:
    case PROP_MAX_OUTPUT_TOKENS:
    case PROP_TRACE_KIB:
      g_value_set_uint (value, self->values[prop_id - PROP_CONNECT_TIMEOUT]);
      break;
    case PROP_OAUTH_REQUEST_TIMEOUT:
      g_value_set_uint (value, mcp_limits_get_oauth_request_timeout (self));
      break;
    case PROP_SETTINGS:
      g_value_set_object (value, self->settings);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_limits_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  McpLimits *self = MCP_LIMITS (object);

  switch (prop_id)
    {
    case PROP_CONNECT_TIMEOUT:
    case PROP_TOOL_TIMEOUT:
    case PROP_REQUEST_TIMEOUT:
    case PROP_LOCAL_BATCH_SIZE:
    case PROP_REMOTE_BATCH_SIZE:
    case PROP_MAX_OUTPUT_TOKENS:
    case PROP_TRACE_KIB:
      {
        guint *field = &self->values[prop_id - PROP_CONNECT_TIMEOUT];

        if (*field == g_value_get_uint (value))
          break;
        *field = g_value_get_uint (value);
        g_object_notify_by_pspec (object, pspec);
      }
      break;
    case PROP_SETTINGS:
      self->settings = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_limits_class_init (McpLimitsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = mcp_limits_constructed;
  object_class->dispose = mcp_limits_dispose;
  object_class->finalize = mcp_limits_finalize;
  object_class->get_property = mcp_limits_get_property;
  object_class->set_property = mcp_limits_set_property;

  for (guint i = 0; i < MCP_N_LIMITS; i++)
    properties[PROP_CONNECT_TIMEOUT + i] =
      g_param_spec_uint (limit_info[i].property, NULL, NULL,
                         limit_info[i].minimum, limit_info[i].maximum, limit_info[i].fallback,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_OAUTH_REQUEST_TIMEOUT] =
    g_param_spec_uint ("oauth-request-timeout", NULL, NULL, 1, G_MAXUINT,
                       MCP_OAUTH_REQUEST_TIMEOUT_MS,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL, G_TYPE_SETTINGS,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mcp_limits_init (McpLimits *self)
{
}
