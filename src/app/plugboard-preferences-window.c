/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-preferences-window"

#include "config.h"

#include "plugboard-preferences-window.h"

#include <glib/gi18n.h>

struct _PlugboardPreferencesWindow
{
  AdwPreferencesWindow  parent_instance;

  /* Template widgets */
  AdwActionRow         *connect_timeout_row;
  GtkSpinButton        *connect_timeout_spin;
  AdwActionRow         *tool_timeout_row;
  GtkSpinButton        *tool_timeout_spin;
  AdwActionRow         *request_timeout_row;
  GtkSpinButton        *request_timeout_spin;
  AdwActionRow         *local_batch_size_row;
  GtkSpinButton        *local_batch_size_spin;
  AdwActionRow         *remote_batch_size_row;
  GtkSpinButton        *remote_batch_size_spin;
  AdwActionRow         *max_output_tokens_row;
  GtkSpinButton        *max_output_tokens_spin;
  AdwActionRow         *trace_kib_row;
  GtkSpinButton        *trace_kib_spin;
  AdwComboRow          *default_scope_row;
  AdwEntryRow          *registry_url_row;

  /* Owned references */
  GSettings            *settings;
  McpLimits            *limits;
};

G_DEFINE_FINAL_TYPE (PlugboardPreferencesWindow, plugboard_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

enum {
  PROP_0,
  PROP_SETTINGS,
  PROP_LIMITS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The order of the items in the template's combo row. */
static const char * const scopes[] = { "user", "project", "local" };

typedef struct
{
  const char *key;
  McpLimit    limit;
  gsize       row_offset;
  gsize       spin_offset;
  gboolean    milliseconds;  /* stored in ms, shown in seconds */
} NumberKey;

#define WIDGET_AT(self, offset) (*(GtkWidget **) G_STRUCT_MEMBER_P ((self), (offset)))

static const NumberKey number_keys[] = {
  { "connect-timeout", MCP_LIMIT_CONNECT_TIMEOUT,
    G_STRUCT_OFFSET (PlugboardPreferencesWindow, connect_timeout_row),
    G_STRUCT_OFFSET (PlugboardPreferencesWindow, connect_timeout_spin), TRUE },
  { "tool-timeout", MCP_LIMIT_TOOL_TIMEOUT,
    G_STRUCT_OFFSET (PlugboardPreferencesWindow, tool_timeout_row),
    G_STRUCT_OFFSET (PlugboardPreferencesWindow, tool_timeout_spin), TRUE },
  { "request-timeout", MCP_LIMIT_REQUEST_TIMEOUT,
    G_STRUCT_OFFSET (PlugboardPreferencesWindow, request_timeout_row),
    G_STRUCT_OFFSET (PlugboardPreferencesWindow, request_timeout_spin), TRUE },
  { "local-batch-size", MCP_LIMIT_LOCAL_BATCH_SIZE,
    G_STRUCT_OFFSET (PlugboardPreferencesWindow, local_batch_size_row),
    G_STRUCT_OFFSET (PlugboardPreferencesWindow, local_batch_size_spin), FALSE },
  { "remote-batch-size", MCP_LIMIT_REMOTE_BATCH_SIZE,
    G_STRUCT_OFFSET (PlugboardPreferencesWindow, remote_batch_size_row),
    G_STRUCT_OFFSET (PlugboardPreferencesWindow, remote_batch_size_spin), FALSE },
  { "max-output-tokens", MCP_LIMIT_MAX_OUTPUT_TOKENS,
    G_STRUCT_OFFSET (PlugboardPreferencesWindow, max_output_tokens_row),
    G_STRUCT_OFFSET (PlugboardPreferencesWindow, max_output_tokens_spin), FALSE },
  { "trace-kib", MCP_LIMIT_TRACE_KIB,
    G_STRUCT_OFFSET (PlugboardPreferencesWindow, trace_kib_row),
    G_STRUCT_OFFSET (PlugboardPreferencesWindow, trace_kib_spin), FALSE },
};

static gboolean
get_seconds_mapping (GValue   *value,
                     GVariant *variant,
                     gpointer  user_data)
{
  g_value_set_double (value, g_variant_get_uint32 (variant) / 1000.0);
  return TRUE;
}

static GVariant *
set_seconds_mapping (const GValue       *value,
                     const GVariantType *expected_type,
                     gpointer            user_data)
{
  double milliseconds = CLAMP (g_value_get_double (value) * 1000.0, 0.0, (double) (G_MAXUINT32 - 1));

  /* Rounded, not truncated: 1.5 s is 1500 ms, whatever the floating point. */
  return g_variant_new_uint32 ((guint32) (milliseconds + 0.5));
}

static gboolean
get_number_mapping (GValue   *value,
                    GVariant *variant,
                    gpointer  user_data)
{
  g_value_set_double (value, g_variant_get_uint32 (variant));
  return TRUE;
}

static GVariant *
set_number_mapping (const GValue       *value,
                    const GVariantType *expected_type,
                    gpointer            user_data)
{
  double number = CLAMP (g_value_get_double (value), 0.0, (double) (G_MAXUINT32 - 1));

  return g_variant_new_uint32 ((guint32) (number + 0.5));
}

static gboolean
get_scope_mapping (GValue   *value,
                   GVariant *variant,
                   gpointer  user_data)
{
  const char *scope = g_variant_get_string (variant, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (scopes); i++)
    {
      if (g_str_equal (scope, scopes[i]))
        {
          g_value_set_uint (value, i);
          return TRUE;
        }
    }

  return FALSE;
}

static GVariant *
set_scope_mapping (const GValue       *value,
                   const GVariantType *expected_type,
                   gpointer            user_data)
{
  guint selected = g_value_get_uint (value);

  if (selected >= G_N_ELEMENTS (scopes))
    return NULL;

  return g_variant_new_string (scopes[selected]);
}

/* The engine's McpLimits read these variables at start-up and ignore a
 * value that is not a number; the row says which of the two happened. */
static void
plugboard_preferences_window_check_environment (PlugboardPreferencesWindow *self,
                                                const NumberKey            *key)
{
  GtkWidget *row = WIDGET_AT (self, key->row_offset);
  const char *variable = mcp_limit_get_variable (key->limit);
  const char *value;
  g_autofree char *escaped = NULL;
  g_autofree char *subtitle = NULL;

  if (self->limits == NULL)
    return;

  value = mcp_limits_get_environment_value (self->limits, key->limit);
  if (value == NULL)
    return;

  escaped = g_markup_escape_text (value, -1);

  if (mcp_limits_get_override (self->limits, key->limit) == NULL)
    {
      /* Translators: the first %s is an environment variable's name, the second its value */
      subtitle = g_strdup_printf (_("%s=%s is ignored because it is not a whole number"),
                                  variable, escaped);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      return;
    }

  if (key->milliseconds)
    /* Translators: the first %s is an environment variable's name, the second its value in milliseconds */
    subtitle = g_strdup_printf (_("Set by %s in the environment (%s ms)"), variable, escaped);
  else
    /* Translators: the first %s is an environment variable's name, the second its value */
    subtitle = g_strdup_printf (_("Set by %s in the environment (%s)"), variable, escaped);

  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_widget_set_sensitive (row, FALSE);
}

/* Written on Apply, not on each key: a half-typed address is no registry.
 * Empty goes back to the official one. */
static void
on_registry_url_apply_cb (PlugboardPreferencesWindow *self)
{
  g_autofree char *url = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->registry_url_row))));

  if (url[0] == '\0')
    {
      g_autofree char *official = NULL;

      g_settings_reset (self->settings, "registry-url");
      official = g_settings_get_string (self->settings, "registry-url");
      gtk_editable_set_text (GTK_EDITABLE (self->registry_url_row), official);
      return;
    }

  g_settings_set_string (self->settings, "registry-url", url);
}

static void
plugboard_preferences_window_constructed (GObject *object)
{
  PlugboardPreferencesWindow *self = PLUGBOARD_PREFERENCES_WINDOW (object);

  G_OBJECT_CLASS (plugboard_preferences_window_parent_class)->constructed (object);

  for (guint i = 0; i < G_N_ELEMENTS (number_keys); i++)
    {
      const NumberKey *key = &number_keys[i];
      GtkWidget *spin = WIDGET_AT (self, key->spin_offset);

      g_settings_bind_with_mapping (self->settings, key->key,
                                    gtk_spin_button_get_adjustment (GTK_SPIN_BUTTON (spin)), "value",
                                    G_SETTINGS_BIND_DEFAULT,
                                    key->milliseconds ? get_seconds_mapping : get_number_mapping,
                                    key->milliseconds ? set_seconds_mapping : set_number_mapping,
                                    NULL, NULL);

      plugboard_preferences_window_check_environment (self, key);
    }

  g_settings_bind_with_mapping (self->settings, "default-scope",
                                self->default_scope_row, "selected",
                                G_SETTINGS_BIND_DEFAULT,
                                get_scope_mapping, set_scope_mapping,
                                NULL, NULL);

  {
    g_autofree char *url = g_settings_get_string (self->settings, "registry-url");

    gtk_editable_set_text (GTK_EDITABLE (self->registry_url_row), url);
  }
}

static void
plugboard_preferences_window_set_property (GObject      *object,
                                           guint         prop_id,
                                           const GValue *value,
                                           GParamSpec   *pspec)
{
  PlugboardPreferencesWindow *self = PLUGBOARD_PREFERENCES_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      self->settings = g_value_dup_object (value);
      break;

    case PROP_LIMITS:
      self->limits = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_preferences_window_get_property (GObject    *object,
                                           guint       prop_id,
                                           GValue     *value,
                                           GParamSpec *pspec)
{
  PlugboardPreferencesWindow *self = PLUGBOARD_PREFERENCES_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      g_value_set_object (value, self->settings);
      break;

    case PROP_LIMITS:
      g_value_set_object (value, self->limits);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_preferences_window_dispose (GObject *object)
{
  PlugboardPreferencesWindow *self = PLUGBOARD_PREFERENCES_WINDOW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_PREFERENCES_WINDOW);

  g_clear_object (&self->settings);
  g_clear_object (&self->limits);

  G_OBJECT_CLASS (plugboard_preferences_window_parent_class)->dispose (object);
}

static void
plugboard_preferences_window_class_init (PlugboardPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = plugboard_preferences_window_constructed;
  object_class->dispose = plugboard_preferences_window_dispose;
  object_class->get_property = plugboard_preferences_window_get_property;
  object_class->set_property = plugboard_preferences_window_set_property;

  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL,
                         G_TYPE_SETTINGS,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /* Which limits the environment sets (nullable: none). */
  properties[PROP_LIMITS] =
    g_param_spec_object ("limits", NULL, NULL,
                         MCP_TYPE_LIMITS,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/plugboard/Plugboard/plugboard-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardPreferencesWindow, connect_timeout_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPreferencesWindow, connect_timeout_spin);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPreferencesWindow, tool_timeout_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPreferencesWindow, tool_timeout_spin);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPreferencesWindow, request_timeout_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPreferencesWindow, request_timeout_spin);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPreferencesWindow, local_batch_size_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPreferencesWindow, local_batch_size_spin);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPreferencesWindow, remote_batch_size_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPreferencesWindow, remote_batch_size_spin);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPreferencesWindow, max_output_tokens_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPreferencesWindow, max_output_tokens_spin);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPreferencesWindow, trace_kib_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPreferencesWindow, trace_kib_spin);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPreferencesWindow, default_scope_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPreferencesWindow, registry_url_row);
  gtk_widget_class_bind_template_callback (widget_class, on_registry_url_apply_cb);
}

static void
plugboard_preferences_window_init (PlugboardPreferencesWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

PlugboardPreferencesWindow *
plugboard_preferences_window_new (GtkWindow *parent,
                                  GSettings *settings,
                                  McpLimits *limits)
{
  g_return_val_if_fail (!parent || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);
  g_return_val_if_fail (!limits || MCP_IS_LIMITS (limits), NULL);

  return g_object_new (PLUGBOARD_TYPE_PREFERENCES_WINDOW,
                       "transient-for", parent,
                       "settings", settings,
                       "limits", limits,
                       NULL);
}
