/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-app-view"

#include "config.h"

#include <string.h>

#include "plugboard-app-view-private.h"

/* The host context an interface is given comes from the desktop: the
 * style manager's theme, the locale and time zone of the session, and the
 * room the view has. */

/* libadwaita's palette (light, dark) as the specification's style
 * variables; light-dark() lets the page follow its color-scheme. */
static const struct
{
  const char *name;
  const char *value;
} style_variables[] = {
  { "--color-background-primary", "light-dark(#ffffff, #1e1e1e)" },
  { "--color-background-secondary", "light-dark(#fafafa, #242424)" },
  { "--color-background-tertiary", "light-dark(#ebebeb, #303030)" },
  { "--color-text-primary", "light-dark(rgb(0 0 0 / 80%), #ffffff)" },
  { "--color-text-secondary", "light-dark(rgb(0 0 0 / 55%), rgb(255 255 255 / 55%))" },
  { "--color-text-info", "light-dark(#1c71d8, #78aeed)" },
  { "--color-text-danger", "light-dark(#c01c28, #ff7b63)" },
  { "--color-text-success", "light-dark(#1b8553, #8ff0a4)" },
  { "--color-text-warning", "light-dark(#9c6e03, #f8e45c)" },
  { "--color-border-primary", "light-dark(rgb(0 0 0 / 15%), rgb(255 255 255 / 15%))" },
  { "--font-sans", "Cantarell, system-ui, sans-serif" },
  { "--font-mono", "monospace" },
  { "--border-radius-md", "6px" },
  { "--border-radius-lg", "12px" },
};

/* The session's language as BCP 47: "de_DE.UTF-8" → "de-DE"; "C" and
 * "POSIX" are "en-US". */
char *
plugboard_app_view_dup_locale (void)
{
  const char * const *names = g_get_language_names ();
  const char *name = names[0];
  GString *locale;

  if (name == NULL || strcmp (name, "C") == 0 || strcmp (name, "POSIX") == 0 ||
      g_str_has_prefix (name, "C."))
    return g_strdup ("en-US");

  locale = g_string_new (NULL);
  for (const char *p = name; *p != '\0' && *p != '.' && *p != '@'; p++)
    {
      if (*p == '_')
        g_string_append_c (locale, '-');
      else if (g_ascii_isalnum (*p))
        g_string_append_c (locale, *p);
      else
        break;
    }
  if (locale->len == 0)
    g_string_assign (locale, "en-US");
  return g_string_free (locale, FALSE);
}

static const char *
theme (void)
{
  return adw_style_manager_get_dark (adw_style_manager_get_default ()) ? "dark" : "light";
}

static void
dark_cb (PlugboardAppView *self)
{
  g_autoptr(JsonObject) context = NULL;

  if (self->bridge == NULL)
    return;
  context = json_object_new ();
  json_object_set_string_member (context, "theme", theme ());
  mcp_app_bridge_update_host_context (self->bridge, context);
}

static JsonObject *
container_dimensions (int width)
{
  JsonObject *dimensions = json_object_new ();

  if (width > 0)
    json_object_set_int_member (dimensions, "width", width);
  json_object_set_int_member (dimensions, "maxHeight", PLUGBOARD_APP_VIEW_MAX_HEIGHT);
  return dimensions;
}

void
plugboard_app_view_context_size (PlugboardAppView *self,
                                 int               width)
{
  g_autoptr(JsonObject) context = NULL;

  if (self->bridge == NULL)
    return;
  context = json_object_new ();
  json_object_set_object_member (context, "containerDimensions", container_dimensions (width));
  mcp_app_bridge_update_host_context (self->bridge, context);
}

void
plugboard_app_view_context_start (PlugboardAppView *self)
{
  g_autoptr(JsonObject) context = json_object_new ();
  g_autoptr(GTimeZone) zone = g_time_zone_new_local ();
  g_autofree char *locale = plugboard_app_view_dup_locale ();
  JsonObject *capabilities, *styles, *variables;
  JsonArray *modes;

  g_assert (self->bridge != NULL);

  json_object_set_string_member (context, "theme", theme ());
  json_object_set_string_member (context, "locale", locale);
  json_object_set_string_member (context, "timeZone", g_time_zone_get_identifier (zone));
  json_object_set_string_member (context, "platform", "desktop");
  json_object_set_string_member (context, "userAgent", "Plugboard/" PACKAGE_VERSION);
  json_object_set_string_member (context, "displayMode", mcp_app_bridge_get_display_mode (self->bridge));
  modes = json_array_new ();
  json_array_add_string_element (modes, "inline");
  json_array_add_string_element (modes, "fullscreen");
  json_object_set_array_member (context, "availableDisplayModes", modes);
  json_object_set_object_member (context, "containerDimensions",
                                 container_dimensions (self->container_width));

  capabilities = json_object_new ();
  json_object_set_boolean_member (capabilities, "hover", TRUE);
  json_object_set_boolean_member (capabilities, "touch", FALSE);
  json_object_set_object_member (context, "deviceCapabilities", capabilities);

  variables = json_object_new ();
  for (guint i = 0; i < G_N_ELEMENTS (style_variables); i++)
    json_object_set_string_member (variables, style_variables[i].name, style_variables[i].value);
  styles = json_object_new ();
  json_object_set_object_member (styles, "variables", variables);
  json_object_set_object_member (context, "styles", styles);

  mcp_app_bridge_update_host_context (self->bridge, context);

  g_signal_handlers_disconnect_by_func (adw_style_manager_get_default (), dark_cb, self);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (dark_cb), self, G_CONNECT_SWAPPED);
}
