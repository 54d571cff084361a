/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plugboard-cli-private.h"

/* plugboard-cli: one field of an elicitation form — what it takes (from
 * its schema), how it is shown, and the JSON value a typed line gives. */

void
plugboard_cli_field_free (PlugboardCliField *field)
{
  g_free (field->name);
  g_clear_pointer (&field->schema, json_object_unref);
  g_clear_pointer (&field->values, g_ptr_array_unref);
  g_clear_pointer (&field->labels, g_ptr_array_unref);
  g_free (field);
}


static void
add_choices (PlugboardCliField *field,
             JsonArray         *values,
             JsonArray         *labels)
{
  for (guint i = 0; i < json_array_get_length (values); i++)
    {
      JsonNode *label = labels && i < json_array_get_length (labels)
        ? json_array_get_element (labels, i) : NULL;

      g_ptr_array_add (field->values, json_node_copy (json_array_get_element (values, i)));
      g_ptr_array_add (field->labels,
                       label && JSON_NODE_HOLDS_VALUE (label) &&
                       json_node_get_value_type (label) == G_TYPE_STRING
                         ? g_strdup (json_node_get_string (label)) : NULL);
    }
}

/* oneOf / anyOf of {const, title} */
static void
add_titled_choices (PlugboardCliField *field,
                    JsonArray         *options)
{
  for (guint i = 0; i < json_array_get_length (options); i++)
    {
      JsonNode *element = json_array_get_element (options, i);
      JsonObject *option = JSON_NODE_HOLDS_OBJECT (element) ? json_node_get_object (element) : NULL;

      if (option == NULL || !json_object_has_member (option, "const"))
        continue;
      g_ptr_array_add (field->values, json_node_copy (json_object_get_member (option, "const")));
      g_ptr_array_add (field->labels,
                       g_strdup (json_object_get_string_member_with_default (option, "title", NULL)));
    }
}

JsonArray *
plugboard_cli_array_member (JsonObject *object,
                            const char *name)
{
  JsonNode *node = object ? json_object_get_member (object, name) : NULL;

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

static gboolean
collect_choices (PlugboardCliField *field,
                 JsonObject        *schema)
{
  JsonArray *options;

  if ((options = plugboard_cli_array_member (schema, "enum")) != NULL)
    add_choices (field, options, plugboard_cli_array_member (schema, "enumNames"));
  else if ((options = plugboard_cli_array_member (schema, "oneOf")) != NULL ||
           (options = plugboard_cli_array_member (schema, "anyOf")) != NULL)
    add_titled_choices (field, options);

  return field->values->len > 0;
}

PlugboardCliField *
plugboard_cli_field_new (const char *name,
                         JsonObject *schema,
                         gboolean    required)
{
  PlugboardCliField *field = g_new0 (PlugboardCliField, 1);
  const char *type = json_object_get_string_member_with_default (schema, "type", "string");

  field->name = g_strdup (name);
  field->schema = json_object_ref (schema);
  field->required = required;
  field->values = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  field->labels = g_ptr_array_new_with_free_func (g_free);

  if (g_str_equal (type, "number"))
    field->kind = PLUGBOARD_CLI_FIELD_NUMBER;
  else if (g_str_equal (type, "integer"))
    field->kind = PLUGBOARD_CLI_FIELD_INTEGER;
  else if (g_str_equal (type, "boolean"))
    field->kind = PLUGBOARD_CLI_FIELD_BOOLEAN;
  else if (g_str_equal (type, "array"))
    {
      JsonNode *items = json_object_get_member (schema, "items");

      field->kind = PLUGBOARD_CLI_FIELD_CHOICES;
      if (items == NULL || !JSON_NODE_HOLDS_OBJECT (items) ||
          !collect_choices (field, json_node_get_object (items)))
        field->kind = PLUGBOARD_CLI_FIELD_STRING;
    }
  else if (collect_choices (field, schema))
    field->kind = PLUGBOARD_CLI_FIELD_CHOICE;
  else
    field->kind = PLUGBOARD_CLI_FIELD_STRING;

  return field;
}

static const char *
field_type_name (PlugboardCliField *field)
{
  switch (field->kind)
    {
    case PLUGBOARD_CLI_FIELD_NUMBER:
      return "number";
    case PLUGBOARD_CLI_FIELD_INTEGER:
      return "integer";
    case PLUGBOARD_CLI_FIELD_BOOLEAN:
      return "boolean, y or n";
    case PLUGBOARD_CLI_FIELD_CHOICE:
      return "one of the choices, by number or name";
    case PLUGBOARD_CLI_FIELD_CHOICES:
      return "some of the choices, by number or name, separated by commas";
    case PLUGBOARD_CLI_FIELD_STRING:
    default:
      return "string";
    }
}

static char *
choice_text (PlugboardCliField *field,
             guint              index)
{
  g_autofree char *value = plugboard_cli_node_to_compact (g_ptr_array_index (field->values, index));
  const char *label = g_ptr_array_index (field->labels, index);
  JsonNode *node = g_ptr_array_index (field->values, index);

  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    {
      g_free (value);
      value = g_strdup (json_node_get_string (node));
    }
  if (label != NULL && g_strcmp0 (label, value) != 0)
    return g_strdup_printf ("%s (%s)", label, value);
  return g_steal_pointer (&value);
}

void
plugboard_cli_field_print (PlugboardCliField *field,
                           guint              index,
                           guint              n_fields)
{
  const char *title = json_object_get_string_member_with_default (field->schema, "title", NULL);
  const char *description = json_object_get_string_member_with_default (field->schema, "description", NULL);
  const char *format = json_object_get_string_member_with_default (field->schema, "format", NULL);

  g_print ("\n[%u/%u] %s%s%s%s — %s%s%s%s\n", index + 1, n_fields, field->name,
           title ? " (" : "", title ? title : "", title ? ")" : "",
           field_type_name (field),
           format ? _(", format ") : "", format ? format : "",
           field->required ? _(", required") : _(", optional"));
  if (description != NULL && *description != '\0')
    plugboard_cli_print_indented ("      ", description);
  for (guint i = 0; i < field->values->len; i++)
    {
      g_autofree char *text = choice_text (field, i);

      g_print ("      %u) %s\n", i + 1, text);
    }
  if (json_object_has_member (field->schema, "default"))
    {
      g_autofree char *value = plugboard_cli_node_to_compact (json_object_get_member (field->schema, "default"));

      g_print (_("      default: %s\n"), value);
    }
}

/* The index of the choice @text names (its number, value or title), or -1. */
static int
find_choice (PlugboardCliField *field,
             const char        *text)
{
  guint64 number;

  if (g_ascii_string_to_unsigned (text, 10, 1, field->values->len, &number, NULL))
    return (int) number - 1;

  for (guint i = 0; i < field->values->len; i++)
    {
      JsonNode *value = g_ptr_array_index (field->values, i);
      const char *label = g_ptr_array_index (field->labels, i);

      if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) == G_TYPE_STRING &&
          g_str_equal (json_node_get_string (value), text))
        return (int) i;
      if (label != NULL && g_utf8_collate (label, text) == 0)
        return (int) i;
    }
  for (guint i = 0; i < field->values->len; i++)
    {
      const char *label = g_ptr_array_index (field->labels, i);

      if (label != NULL && g_ascii_strcasecmp (label, text) == 0)
        return (int) i;
    }
  return -1;
}

static gboolean
check_bounds (PlugboardCliField *field,
              double             value,
              char             **problem)
{
  if (json_object_has_member (field->schema, "minimum") &&
      value < json_object_get_double_member (field->schema, "minimum"))
    {
      g_autofree char *bound = plugboard_cli_node_to_compact (json_object_get_member (field->schema, "minimum"));

      *problem = g_strdup_printf (_("at least %s"), bound);
      return FALSE;
    }
  if (json_object_has_member (field->schema, "maximum") &&
      value > json_object_get_double_member (field->schema, "maximum"))
    {
      g_autofree char *bound = plugboard_cli_node_to_compact (json_object_get_member (field->schema, "maximum"));

      *problem = g_strdup_printf (_("at most %s"), bound);
      return FALSE;
    }
  return TRUE;
}

static gboolean
check_string (PlugboardCliField *field,
              const char        *text,
              char             **problem)
{
  const char *format = json_object_get_string_member_with_default (field->schema, "format", NULL);
  glong length = g_utf8_strlen (text, -1);

  if (json_object_has_member (field->schema, "minLength") &&
      length < json_object_get_int_member (field->schema, "minLength"))
    {
      *problem = g_strdup_printf (_("at least %lld characters"), (long long)
                                  json_object_get_int_member (field->schema, "minLength"));
      return FALSE;
    }
  if (json_object_has_member (field->schema, "maxLength") &&
      length > json_object_get_int_member (field->schema, "maxLength"))
    {
      *problem = g_strdup_printf (_("at most %lld characters"), (long long)
                                  json_object_get_int_member (field->schema, "maxLength"));
      return FALSE;
    }

  if (g_strcmp0 (format, "email") == 0)
    {
      const char *at = strchr (text, '@');

      if (at == NULL || at == text || at[1] == '\0' || strpbrk (text, " \t") != NULL)
        {
          *problem = g_strdup (_("an email address, like name@example.org"));
          return FALSE;
        }
    }
  else if (g_strcmp0 (format, "uri") == 0)
    {
      if (!g_uri_is_valid (text, G_URI_FLAGS_NONE, NULL))
        {
          *problem = g_strdup (_("an absolute URI, like https://example.org/"));
          return FALSE;
        }
    }
  else if (g_strcmp0 (format, "date") == 0)
    {
      int year, month, day, consumed = 0;

      if (sscanf (text, "%4d-%2d-%2d%n", &year, &month, &day, &consumed) != 3 ||
          consumed != 10 || text[consumed] != '\0' ||
          !g_date_valid_dmy (day, month, year))
        {
          *problem = g_strdup (_("a date, YYYY-MM-DD"));
          return FALSE;
        }
    }
  else if (g_strcmp0 (format, "date-time") == 0)
    {
      g_autoptr(GDateTime) date_time = g_date_time_new_from_iso8601 (text, NULL);

      if (date_time == NULL)
        {
          *problem = g_strdup (_("a date and time, like 2025-01-31T12:00:00Z"));
          return FALSE;
        }
    }

  return TRUE;
}

/* The JSON value @text gives @field, or NULL with @problem saying what
 * the field takes. */
JsonNode *
plugboard_cli_field_parse (PlugboardCliField *field,
                           const char        *text,
                           char             **problem)
{
  JsonNode *node;

  switch (field->kind)
    {
    case PLUGBOARD_CLI_FIELD_NUMBER:
      {
        char *end = NULL;
        double value = g_ascii_strtod (text, &end);

        if (end == text || *end != '\0' || !isfinite (value))
          {
            *problem = g_strdup (_("a number, like 3.5"));
            return NULL;
          }
        if (!check_bounds (field, value, problem))
          return NULL;
        node = json_node_new (JSON_NODE_VALUE);
        json_node_set_double (node, value);
        return node;
      }

    case PLUGBOARD_CLI_FIELD_INTEGER:
      {
        gint64 value;

        if (!g_ascii_string_to_signed (text, 10, G_MININT64, G_MAXINT64, &value, NULL))
          {
            *problem = g_strdup (_("a whole number, like 42"));
            return NULL;
          }
        if (!check_bounds (field, (double) value, problem))
          return NULL;
        node = json_node_new (JSON_NODE_VALUE);
        json_node_set_int (node, value);
        return node;
      }

    case PLUGBOARD_CLI_FIELD_BOOLEAN:
      {
        static const char *yes[] = { "y", "yes", "true", NULL };
        static const char *no[] = { "n", "no", "false", NULL };

        for (guint i = 0; yes[i] != NULL; i++)
          if (g_ascii_strcasecmp (text, yes[i]) == 0)
            {
              node = json_node_new (JSON_NODE_VALUE);
              json_node_set_boolean (node, TRUE);
              return node;
            }
        for (guint i = 0; no[i] != NULL; i++)
          if (g_ascii_strcasecmp (text, no[i]) == 0)
            {
              node = json_node_new (JSON_NODE_VALUE);
              json_node_set_boolean (node, FALSE);
              return node;
            }
        *problem = g_strdup (_("y or n"));
        return NULL;
      }

    case PLUGBOARD_CLI_FIELD_CHOICE:
      {
        int index = find_choice (field, text);

        if (index < 0)
          {
            *problem = g_strdup_printf (_("one of the choices: a number from 1 to %u, or its name"),
                                        field->values->len);
            return NULL;
          }
        return json_node_copy (g_ptr_array_index (field->values, index));
      }

    case PLUGBOARD_CLI_FIELD_CHOICES:
      {
        g_auto(GStrv) parts = g_strsplit (text, ",", -1);
        g_autoptr(JsonArray) array = json_array_new ();
        guint n;

        for (guint i = 0; parts[i] != NULL; i++)
          {
            int index;

            g_strstrip (parts[i]);
            if (*parts[i] == '\0')
              continue;
            index = find_choice (field, parts[i]);
            if (index < 0)
              {
                *problem = g_strdup_printf (_("“%s” is not one of the choices (1 to %u, or a name)"),
                                            parts[i], field->values->len);
                return NULL;
              }
            json_array_add_element (array, json_node_copy (g_ptr_array_index (field->values, index)));
          }
        n = json_array_get_length (array);
        if (json_object_has_member (field->schema, "minItems") &&
            n < json_object_get_int_member (field->schema, "minItems"))
          {
            *problem = g_strdup_printf (_("at least %lld of the choices"), (long long)
                                        json_object_get_int_member (field->schema, "minItems"));
            return NULL;
          }
        if (json_object_has_member (field->schema, "maxItems") &&
            n > json_object_get_int_member (field->schema, "maxItems"))
          {
            *problem = g_strdup_printf (_("at most %lld of the choices"), (long long)
                                        json_object_get_int_member (field->schema, "maxItems"));
            return NULL;
          }
        node = json_node_new (JSON_NODE_ARRAY);
        json_node_set_array (node, array);
        return node;
      }

    case PLUGBOARD_CLI_FIELD_STRING:
    default:
      if (!check_string (field, text, problem))
        return NULL;
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_string (node, text);
      return node;
    }
}
