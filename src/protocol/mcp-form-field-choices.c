/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-form-field.h"
#include "mcp-form-field-private.h"

#include <glib/gi18n.h>

/* McpFormField: the choices of an ENUM ("enum" with the legacy
 * "enumNames", or a titled single choice) and the variants of a UNION
 * with their titles. */

void
mcp_form_field_init_enum (McpFormField *self,
                          JsonArray    *values,
                          JsonNode     *names)
{
  gboolean has_null = FALSE;
  JsonArray *titles = NULL;

  self->choices = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  for (guint i = 0; i < json_array_get_length (values); i++)
    if (JSON_NODE_HOLDS_NULL (json_array_get_element (values, i)))
      has_null = TRUE;
  if (has_null)
    self->nullable = TRUE;
  if (self->nullable)
    g_ptr_array_add (self->choices, json_node_init_null (json_node_alloc ()));
  if (names != NULL && JSON_NODE_HOLDS_ARRAY (names) &&
      json_array_get_length (json_node_get_array (names)) == json_array_get_length (values))
    {
      JsonArray *given = json_node_get_array (names);

      titles = given;
      for (guint i = 0; i < json_array_get_length (given); i++)
        if (json_node_get_value_type (json_array_get_element (given, i)) != G_TYPE_STRING)
          titles = NULL;
    }
  if (titles != NULL)
    {
      self->choice_titles = g_ptr_array_new_with_free_func (g_free);
      if (self->nullable)
        g_ptr_array_add (self->choice_titles, NULL);
    }

  for (guint i = 0; i < json_array_get_length (values); i++)
    {
      JsonNode *value = json_array_get_element (values, i);

      if (JSON_NODE_HOLDS_NULL (value))
        continue;
      g_ptr_array_add (self->choices, json_node_copy (value));
      if (titles != NULL)
        g_ptr_array_add (self->choice_titles, g_strdup (json_array_get_string_element (titles, i)));
    }
}

gboolean
mcp_form_field_is_titled_enum (JsonArray *variants)
{
  for (guint i = 0; i < json_array_get_length (variants); i++)
    {
      JsonNode *node = json_array_get_element (variants, i);
      JsonObject *variant;
      g_autoptr(GList) members = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        return FALSE;
      variant = json_node_get_object (node);
      if (!json_object_has_member (variant, "const") ||
          !JSON_NODE_HOLDS_VALUE (json_object_get_member (variant, "const")))
        return FALSE;
      members = json_object_get_members (variant);
      for (GList *l = members; l != NULL; l = l->next)
        if (!g_str_equal (l->data, "const") && !g_str_equal (l->data, "title") &&
            !g_str_equal (l->data, "description"))
          return FALSE;
    }
  return json_array_get_length (variants) > 0;
}

void
mcp_form_field_init_titled_enum (McpFormField *self,
                                 JsonArray    *variants)
{
  self->choices = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  self->choice_titles = g_ptr_array_new_with_free_func (g_free);
  if (self->nullable)
    {
      g_ptr_array_add (self->choices, json_node_init_null (json_node_alloc ()));
      g_ptr_array_add (self->choice_titles, NULL);
    }
  for (guint i = 0; i < json_array_get_length (variants); i++)
    {
      JsonObject *variant = json_array_get_object_element (variants, i);
      JsonNode *title = json_object_get_member (variant, "title");

      g_ptr_array_add (self->choices, json_node_copy (json_object_get_member (variant, "const")));
      g_ptr_array_add (self->choice_titles,
                       title != NULL && json_node_get_value_type (title) == G_TYPE_STRING
                       ? g_strdup (json_node_get_string (title)) : NULL);
    }
}

static char *
variant_title (JsonNode *variant,
               guint     index)
{
  JsonObject *object;
  JsonNode *member;
  JsonNode *properties;
  const char *type;

  if (variant == NULL || !JSON_NODE_HOLDS_OBJECT (variant))
    return g_strdup_printf (_("Option %u"), index + 1);
  object = json_node_get_object (variant);

  member = json_object_get_member (object, "title");
  if (mcp_form_field_node_is_string (member))
    return g_strdup (json_node_get_string (member));

  member = json_object_get_member (object, "const");
  if (member != NULL)
    return mcp_form_field_node_is_string (member) ? g_strdup (json_node_get_string (member)) : mcp_form_field_node_to_text (member);

  /* A discriminated union: the property whose value is a const. */
  properties = json_object_get_member (object, "properties");
  if (properties != NULL && JSON_NODE_HOLDS_OBJECT (properties))
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *property;

      json_object_iter_init_ordered (&iter, json_node_get_object (properties));
      while (json_object_iter_next_ordered (&iter, &name, &property))
        {
          JsonNode *resolved = mcp_json_schema_resolve (NULL, property, NULL);

          if (resolved != NULL && JSON_NODE_HOLDS_OBJECT (resolved) &&
              (member = json_object_get_member (json_node_get_object (resolved), "const")) != NULL)
            return mcp_form_field_node_is_string (member) ? g_strdup (json_node_get_string (member)) : mcp_form_field_node_to_text (member);
        }
    }

  type = mcp_json_schema_get_type (object, NULL);
  if (type != NULL)
    return g_strdup (type);

  return g_strdup_printf (_("Option %u"), index + 1);
}

void
mcp_form_field_init_union (McpFormField *self,
                           JsonArray    *variants)
{
  GStrvBuilder *titles = g_strv_builder_new ();

  self->variants = g_ptr_array_new ();
  for (guint i = 0; i < json_array_get_length (variants); i++)
    {
      JsonNode *variant = json_array_get_element (variants, i);
      JsonNode *target = mcp_json_schema_resolve (self->root, variant, NULL);
      g_autofree char *title = variant_title (target != NULL ? target : variant, i);

      g_ptr_array_add (self->variants, variant);
      g_strv_builder_add (titles, title);
    }
  self->variant_titles = g_strv_builder_end (titles);
  g_strv_builder_unref (titles);
}
