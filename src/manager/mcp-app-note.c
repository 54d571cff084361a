/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-app-note"

#include "config.h"

#include "mcp-app-note.h"
#include "mcp-app-note-private.h"

#include "mcp-manager-enums.h"

struct _McpAppNote
{
  GObject         parent_instance;

  McpAppNoteKind  kind;
  gint64          time;
  char           *title;
  char           *text;
  JsonObject     *params;
};

G_DEFINE_FINAL_TYPE (McpAppNote, mcp_app_note, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_KIND,
  PROP_TIME,
  PROP_TITLE,
  PROP_TEXT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
mcp_app_note_finalize (GObject *object)
{
  McpAppNote *self = MCP_APP_NOTE (object);

  g_free (self->title);
  g_free (self->text);
  g_clear_pointer (&self->params, json_object_unref);

  G_OBJECT_CLASS (mcp_app_note_parent_class)->finalize (object);
}

static void
mcp_app_note_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  McpAppNote *self = MCP_APP_NOTE (object);

  switch (prop_id)
    {
    case PROP_KIND:
      g_value_set_enum (value, self->kind);
      break;
    case PROP_TIME:
      g_value_set_int64 (value, self->time);
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_TEXT:
      g_value_set_string (value, self->text);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_app_note_class_init (McpAppNoteClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mcp_app_note_finalize;
  object_class->get_property = mcp_app_note_get_property;

  properties[PROP_KIND] =
    g_param_spec_enum ("kind", NULL, NULL, MCP_TYPE_APP_NOTE_KIND, MCP_APP_NOTE_MESSAGE,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_TIME] =
    g_param_spec_int64 ("time", NULL, NULL, 0, G_MAXINT64, 0,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
mcp_app_note_init (McpAppNote *self)
{
}

McpAppNote *
mcp_app_note_new (McpAppNoteKind  kind,
                  const char     *title,
                  const char     *text,
                  JsonObject     *params)
{
  McpAppNote *self = g_object_new (MCP_TYPE_APP_NOTE, NULL);

  self->kind = kind;
  self->time = g_get_real_time ();
  self->title = g_strdup (title);
  self->text = g_strdup (text != NULL ? text : "");
  self->params = params != NULL ? json_object_ref (params) : NULL;
  return self;
}

McpAppNoteKind
mcp_app_note_get_kind (McpAppNote *self)
{
  g_return_val_if_fail (MCP_IS_APP_NOTE (self), MCP_APP_NOTE_MESSAGE);
  return self->kind;
}

gint64
mcp_app_note_get_time (McpAppNote *self)
{
  g_return_val_if_fail (MCP_IS_APP_NOTE (self), 0);
  return self->time;
}

const char *
mcp_app_note_get_title (McpAppNote *self)
{
  g_return_val_if_fail (MCP_IS_APP_NOTE (self), NULL);
  return self->title;
}

const char *
mcp_app_note_get_text (McpAppNote *self)
{
  g_return_val_if_fail (MCP_IS_APP_NOTE (self), NULL);
  return self->text;
}

JsonObject *
mcp_app_note_get_params (McpAppNote *self)
{
  g_return_val_if_fail (MCP_IS_APP_NOTE (self), NULL);
  return self->params;
}
