/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-protocol"

#include "config.h"

#include "mcp-form-field.h"
#include "mcp-form-field-private.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-json-private.h"

/* McpFormField: the value the fields make (mcp_form_field_to_json) and
 * their problems against the schema (mcp_form_field_check). */

/* Numbers: a NUMBER or INTEGER field keeps the literal the person typed
 * and to_json() parses exactly that literal with mcp_json_parse(), so the
 * JSON value sent is the value written (the text "1.50" gives the number
 * 1.5, "1e3" gives 1000.0; an integer beyond 64 bits gives the nearest
 * double). Being a JsonNode, the value is judged as a JSON value, not as
 * characters: the writer may print 1.50 as 1.5. */

static gboolean
path_error (McpFormField  *self,
            GError       **error,
            const char    *message)
{
  g_autofree char *path = mcp_form_field_dup_path (self);

  g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE, "%s: %s", path, message);
  return FALSE;
}

JsonNode *
mcp_form_field_to_json (McpFormField  *self,
                        GError       **error)
{
  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!self->present && self->parent == NULL && self->kind == MCP_FORM_FIELD_OBJECT)
    return json_node_init_object (json_node_alloc (), json_object_new ());

  if (self->is_null)
    return json_node_init_null (json_node_alloc ());

  switch (self->kind)
    {
    case MCP_FORM_FIELD_STRING:
      return json_node_init_string (json_node_alloc (), self->text);

    case MCP_FORM_FIELD_NUMBER:
    case MCP_FORM_FIELD_INTEGER:
      {
        g_autofree char *literal = g_strstrip (g_strdup (self->text));
        g_autoptr(JsonNode) number = NULL;
        g_autofree char *message = NULL;
        GType type;

        if (literal[0] != '\0')
          number = mcp_json_parse (literal, strlen (literal), NULL);
        type = number != NULL && JSON_NODE_HOLDS_VALUE (number) ? json_node_get_value_type (number) : G_TYPE_INVALID;
        if (literal[0] == '\0')
          message = g_strdup (self->kind == MCP_FORM_FIELD_INTEGER ? _("an integer is needed") : _("a number is needed"));
        else if (type != G_TYPE_INT64 && type != G_TYPE_DOUBLE)
          message = g_strdup_printf (_("“%s” is not a number"), literal);
        else if (self->kind == MCP_FORM_FIELD_INTEGER && type == G_TYPE_DOUBLE &&
                 json_node_get_double (number) != (double) (gint64) json_node_get_double (number))
          message = g_strdup_printf (_("“%s” is not a whole number"), literal);
        if (message != NULL)
          {
            path_error (self, error, message);
            return NULL;
          }
        return g_steal_pointer (&number);
      }

    case MCP_FORM_FIELD_BOOLEAN:
      return json_node_init_boolean (json_node_alloc (), self->boolean);

    case MCP_FORM_FIELD_NULL:
      return json_node_init_null (json_node_alloc ());

    case MCP_FORM_FIELD_CONST:
      return json_node_copy (self->const_value);

    case MCP_FORM_FIELD_ENUM:
      if (self->choice < 0)
        {
          path_error (self, error, _("choose one of the values"));
          return NULL;
        }
      return json_node_copy (g_ptr_array_index (self->choices, self->choice));

    case MCP_FORM_FIELD_OBJECT:
    case MCP_FORM_FIELD_MAP:
      {
        g_autoptr(JsonObject) object = json_object_new ();
        guint n = g_list_model_get_n_items (G_LIST_MODEL (self->children));

        for (guint i = 0; i < n; i++)
          {
            g_autoptr(McpFormField) child = g_list_model_get_item (G_LIST_MODEL (self->children), i);
            JsonNode *value;

            if (!child->present)
              continue;
            value = mcp_form_field_to_json (child, error);
            if (value == NULL)
              return NULL;
            json_object_set_member (object, child->name, value);
          }
        return json_node_init_object (json_node_alloc (), object);
      }

    case MCP_FORM_FIELD_ARRAY:
      {
        g_autoptr(JsonArray) array = json_array_new ();
        guint n = g_list_model_get_n_items (G_LIST_MODEL (self->children));

        for (guint i = 0; i < n; i++)
          {
            g_autoptr(McpFormField) child = g_list_model_get_item (G_LIST_MODEL (self->children), i);
            JsonNode *value = mcp_form_field_to_json (child, error);

            if (value == NULL)
              return NULL;
            json_array_add_element (array, value);
          }
        return json_node_init_array (json_node_alloc (), array);
      }

    case MCP_FORM_FIELD_UNION:
      {
        g_autoptr(McpFormField) child = g_list_model_get_item (G_LIST_MODEL (self->children), 0);

        return mcp_form_field_to_json (child, error);
      }

    case MCP_FORM_FIELD_JSON:
      {
        g_autoptr(GError) local_error = NULL;
        g_autofree char *message = NULL;
        JsonNode *value;

        value = mcp_json_parse (self->text, strlen (self->text), &local_error);
        if (value != NULL)
          return value;
        message = g_strdup_printf (_("invalid JSON: %s"), local_error->message);
        path_error (self, error, message);
        return NULL;
      }

    default:
      g_assert_not_reached ();
    }
}

/* Checking */

static void
add_check_problem (GPtrArray    *problems,
                   McpFormField *self,
                   const char   *message)
{
  g_autofree char *path = mcp_form_field_dup_path (self);

  g_ptr_array_add (problems, g_strdup_printf ("%s: %s", path, message));
}

static void
check_field (McpFormField *self,
             GPtrArray    *problems)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->children));

  if (!self->present)
    {
      if (self->required)
        add_check_problem (problems, self, _("is required"));
      return;
    }

  if (self->kind == MCP_FORM_FIELD_OBJECT || self->kind == MCP_FORM_FIELD_UNION)
    {
      for (guint i = 0; i < n; i++)
        {
          g_autoptr(McpFormField) child = g_list_model_get_item (G_LIST_MODEL (self->children), i);

          check_field (child, problems);
        }
      return;
    }

  if (self->kind == MCP_FORM_FIELD_ARRAY || self->kind == MCP_FORM_FIELD_MAP)
    {
      JsonNode *bound;
      const char *min = self->kind == MCP_FORM_FIELD_ARRAY ? "minItems" : "minProperties";
      const char *max = self->kind == MCP_FORM_FIELD_ARRAY ? "maxItems" : "maxProperties";

      for (guint i = 0; i < n; i++)
        {
          g_autoptr(McpFormField) child = g_list_model_get_item (G_LIST_MODEL (self->children), i);

          check_field (child, problems);
        }
      bound = json_object_get_member (self->schema, min);
      if (bound != NULL && JSON_NODE_HOLDS_VALUE (bound) && json_node_get_value_type (bound) == G_TYPE_INT64 &&
          n < json_node_get_int (bound))
        {
          g_autofree char *message = g_strdup_printf (_("needs at least %lld entries, not %u"),
                                                      (long long) json_node_get_int (bound), n);
          add_check_problem (problems, self, message);
        }
      bound = json_object_get_member (self->schema, max);
      if (bound != NULL && JSON_NODE_HOLDS_VALUE (bound) && json_node_get_value_type (bound) == G_TYPE_INT64 &&
          n > json_node_get_int (bound))
        {
          g_autofree char *message = g_strdup_printf (_("takes at most %lld entries, not %u"),
                                                      (long long) json_node_get_int (bound), n);
          add_check_problem (problems, self, message);
        }
      return;
    }

  /* scalars and JSON: the value against the field's schema */
  if (self->required && !self->has_value &&
      (self->kind == MCP_FORM_FIELD_STRING || self->kind == MCP_FORM_FIELD_ENUM ||
       self->kind == MCP_FORM_FIELD_NUMBER || self->kind == MCP_FORM_FIELD_INTEGER ||
       self->kind == MCP_FORM_FIELD_JSON))
    {
      add_check_problem (problems, self, _("is required"));
      return;
    }

  {
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonNode) value = mcp_form_field_to_json (self, &error);
    g_autoptr(GPtrArray) found = NULL;
    g_autofree char *path = NULL;

    if (value == NULL)
      {
        g_ptr_array_add (problems, g_strdup (error->message));
        return;
      }
    /* A schema too complex to check says nothing against the value. */
    if (self->schema_node == NULL ||
        mcp_form_field_check_value (self, self->schema_node, value, &found) != MCP_JSON_SCHEMA_INVALID)
      return;

    path = mcp_form_field_dup_path (self);
    for (guint i = 0; i < found->len; i++)
      {
        const char *problem = g_ptr_array_index (found, i);

        /* "$…: message" from the validator, rooted at this field */
        g_ptr_array_add (problems, g_strdup_printf ("%s%s", path, problem + 1));
      }
  }
}

GPtrArray *
mcp_form_field_check (McpFormField *self)
{
  GPtrArray *problems = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (MCP_IS_FORM_FIELD (self), problems);
  mcp_form_field_budget_start (self);
  check_field (self, problems);
  return problems;
}
