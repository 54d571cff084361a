/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-doctor"

#include "config.h"

#include "mcp-doctor-check.h"

struct _McpDoctorCheck
{
  GObject          parent_instance;

  char            *id;
  char            *title;
  McpDoctorStatus  status;
  char            *seen;
  char            *fix;
  gint64           duration;
};

enum {
  PROP_0,
  PROP_ID,
  PROP_TITLE,
  PROP_STATUS,
  PROP_SEEN,
  PROP_FIX,
  PROP_DURATION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (McpDoctorCheck, mcp_doctor_check, G_TYPE_OBJECT)

static void
mcp_doctor_check_finalize (GObject *object)
{
  McpDoctorCheck *self = MCP_DOCTOR_CHECK (object);

  g_free (self->id);
  g_free (self->title);
  g_free (self->seen);
  g_free (self->fix);

  G_OBJECT_CLASS (mcp_doctor_check_parent_class)->finalize (object);
}

static void
mcp_doctor_check_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  McpDoctorCheck *self = MCP_DOCTOR_CHECK (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->id);
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_STATUS:
      g_value_set_enum (value, self->status);
      break;
    case PROP_SEEN:
      g_value_set_string (value, self->seen);
      break;
    case PROP_FIX:
      g_value_set_string (value, self->fix);
      break;
    case PROP_DURATION:
      g_value_set_int64 (value, self->duration);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_doctor_check_class_init (McpDoctorCheckClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mcp_doctor_check_finalize;
  object_class->get_property = mcp_doctor_check_get_property;

  properties[PROP_ID] =
    g_param_spec_string ("id", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_STATUS] =
    g_param_spec_enum ("status", NULL, NULL,
                       MCP_TYPE_DOCTOR_STATUS, MCP_DOCTOR_STATUS_RUNNING,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SEEN] =
    g_param_spec_string ("seen", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_FIX] =
    g_param_spec_string ("fix", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_DURATION] =
    g_param_spec_int64 ("duration", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mcp_doctor_check_init (McpDoctorCheck *self)
{
}

McpDoctorCheck *
mcp_doctor_check_new (const char      *id,
                      const char      *title,
                      McpDoctorStatus  status,
                      const char      *seen,
                      const char      *fix,
                      gint64           duration)
{
  McpDoctorCheck *self;

  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (title != NULL, NULL);

  self = g_object_new (MCP_TYPE_DOCTOR_CHECK, NULL);
  self->id = g_strdup (id);
  self->title = g_strdup (title);
  self->status = status;
  self->seen = g_strdup (seen);
  self->fix = g_strdup (fix);
  self->duration = MAX (duration, 0);
  return self;
}

const char *
mcp_doctor_check_get_id (McpDoctorCheck *self)
{
  g_return_val_if_fail (MCP_IS_DOCTOR_CHECK (self), NULL);
  return self->id;
}

const char *
mcp_doctor_check_get_title (McpDoctorCheck *self)
{
  g_return_val_if_fail (MCP_IS_DOCTOR_CHECK (self), NULL);
  return self->title;
}

McpDoctorStatus
mcp_doctor_check_get_status (McpDoctorCheck *self)
{
  g_return_val_if_fail (MCP_IS_DOCTOR_CHECK (self), MCP_DOCTOR_STATUS_RUNNING);
  return self->status;
}

const char *
mcp_doctor_check_get_seen (McpDoctorCheck *self)
{
  g_return_val_if_fail (MCP_IS_DOCTOR_CHECK (self), NULL);
  return self->seen;
}

const char *
mcp_doctor_check_get_fix (McpDoctorCheck *self)
{
  g_return_val_if_fail (MCP_IS_DOCTOR_CHECK (self), NULL);
  return self->fix;
}

gint64
mcp_doctor_check_get_duration (McpDoctorCheck *self)
{
  g_return_val_if_fail (MCP_IS_DOCTOR_CHECK (self), 0);
  return self->duration;
}

const char *
mcp_doctor_status_to_string (McpDoctorStatus status)
{
  switch (status)
    {
    case MCP_DOCTOR_STATUS_RUNNING:
      return "running";
    case MCP_DOCTOR_STATUS_PASS:
      return "pass";
    case MCP_DOCTOR_STATUS_WARN:
      return "warn";
    case MCP_DOCTOR_STATUS_FAIL:
      return "fail";
    case MCP_DOCTOR_STATUS_SKIPPED:
    default:
      return "skipped";
    }
}
