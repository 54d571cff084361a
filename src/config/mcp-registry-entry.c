/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-registry"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mcp-registry-private.h"
#include "mcp-url-policy.h"

/* The value @input gets: the person's, else its fixed value or default;
 * NULL (no error) when it has none and is not required. */
static gboolean
resolve_value (McpRegistryServer       *self,
               const McpRegistryInput  *input,
               GHashTable              *values,
               const char             **out,
               GError                 **error)
{
  const char *value = NULL;

  if (input->fixed)
    value = input->default_value;
  else if (values != NULL)
    value = g_hash_table_lookup (values, input->name);
  if (value == NULL || (*value == '\0' && input->is_required))
    value = input->default_value;

  *out = NULL;
  if (value == NULL)
    {
      if (!input->is_required)
        return TRUE;
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   _("“%s” needs a value for “%s”, which is required"),
                   mcp_registry_server_get_name (self), input->name);
      return FALSE;
    }

  if (input->choices != NULL && !input->fixed && !g_strv_contains ((const char * const *) input->choices, value))
    {
      g_autofree char *allowed = g_strjoinv (", ", input->choices);

      /* A secret's value never goes into a message. */
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   _("“%s” is not a choice for “%s” of “%s” (one of: %s)"),
                   input->is_secret ? "…" : value, input->name,
                   mcp_registry_server_get_name (self), allowed);
      return FALSE;
    }

  *out = value;
  return TRUE;
}

/* What the entry holds for @input's @value: a reference to where the
 * secret is kept when there is one. */
static const char *
entry_value (const McpRegistryInput *input,
             const char             *value,
             GHashTable             *secret_refs)
{
  const char *ref;

  if (input->is_secret && secret_refs != NULL &&
      (ref = g_hash_table_lookup (secret_refs, input->name)) != NULL)
    return ref;
  return value;
}

static void
add_argument (JsonArray              *args,
              const McpRegistryInput *input,
              const char             *value)
{
  gboolean named = input->name[0] == '-';

  if (named && g_strcmp0 (input->format, "boolean") == 0)
    {
      /* A flag: given or not */
      if (g_ascii_strcasecmp (value, "true") == 0)
        json_array_add_string_element (args, input->name);
      return;
    }
  if (named)
    json_array_add_string_element (args, input->name);
  json_array_add_string_element (args, value);
}

static char *
fill_url (McpRegistryServer        *self,
          const McpRegistryChoice  *choice,
          GHashTable               *filled,
          GError                  **error)
{
  const char *url = choice->identifier;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GError) local_error = NULL;

  for (const char *p = url; *p != '\0'; p++)
    {
      const char *end;
      g_autofree char *name = NULL;
      const char *value;

      if (*p != '{' || (end = strchr (p, '}')) == NULL)
        {
          g_string_append_c (out, *p);
          continue;
        }
      name = g_strndup (p + 1, end - p - 1);
      value = g_hash_table_lookup (filled, name);
      if (value == NULL)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                       _("The address “%s” of “%s” needs a value for “%s”"),
                       url, mcp_registry_server_get_name (self), name);
          return NULL;
        }
      g_string_append_uri_escaped (out, value, ":", FALSE);
      p = end;
    }

  if (!mcp_url_policy_check (out->str, MCP_URL_USE_FETCH, NULL, &local_error))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   _("The address of “%s” cannot be used: %s"),
                   mcp_registry_server_get_name (self), local_error->message);
      return NULL;
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static JsonObject *
build_remote (McpRegistryServer        *self,
              const McpRegistryChoice  *choice,
              GHashTable               *values,
              GHashTable               *secret_refs,
              GError                  **error)
{
  g_autoptr(JsonObject) entry = json_object_new ();
  g_autoptr(JsonObject) headers = json_object_new ();
  g_autoptr(GHashTable) filled = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *url = NULL;

  for (guint i = 0; i < choice->inputs->len; i++)
    {
      const McpRegistryInput *input = g_ptr_array_index (choice->inputs, i);
      const char *value;

      if (!resolve_value (self, input, values, &value, error))
        return NULL;
      if (value == NULL)
        continue;
      if (input->kind == MCP_REGISTRY_INPUT_URL_VARIABLE)
        g_hash_table_insert (filled, input->name, (gpointer) value);
      else if (input->kind == MCP_REGISTRY_INPUT_HEADER)
        json_object_set_string_member (headers, input->name, entry_value (input, value, secret_refs));
    }

  url = fill_url (self, choice, filled, error);
  if (url == NULL)
    return NULL;

  json_object_set_string_member (entry, "type",
                                 g_strcmp0 (choice->transport, "sse") == 0 ? "sse" : "http");
  json_object_set_string_member (entry, "url", url);
  if (json_object_get_size (headers) > 0)
    json_object_set_object_member (entry, "headers", g_steal_pointer (&headers));
  return g_steal_pointer (&entry);
}

/* "ID@VERSION", "ID==VERSION", an image with its tag */
static char *
package_spec (const McpRegistryChoice *choice)
{
  const char *id = choice->identifier;
  const char *version = choice->version;

  if (version == NULL || *version == '\0')
    return g_strdup (id);

  switch (choice->runner)
    {
    case MCP_REGISTRY_RUNNER_UVX:
      return g_strdup_printf ("%s==%s", id, version);
    case MCP_REGISTRY_RUNNER_DOCKER:
      {
        const char *slash = strrchr (id, '/');
        const char *last = slash != NULL ? slash + 1 : id;

        /* An image that names its tag or digest already keeps it. */
        if (strchr (last, ':') != NULL || strchr (last, '@') != NULL)
          return g_strdup (id);
        return g_strdup_printf ("%s:%s", id, version);
      }
    case MCP_REGISTRY_RUNNER_NPX:
    case MCP_REGISTRY_RUNNER_DNX:
    case MCP_REGISTRY_RUNNER_MCPB:
    case MCP_REGISTRY_RUNNER_REMOTE:
    default:
      return g_strdup_printf ("%s@%s", id, version);
    }
}

static JsonObject *
build_package (McpRegistryServer        *self,
               const McpRegistryChoice  *choice,
               GHashTable               *values,
               GHashTable               *secret_refs,
               GError                  **error)
{
  g_autoptr(JsonObject) entry = json_object_new ();
  g_autoptr(JsonArray) args = json_array_new ();
  g_autoptr(JsonArray) package_args = json_array_new ();
  g_autoptr(JsonObject) env = json_object_new ();
  g_autofree char *spec = package_spec (choice);
  const char *command = NULL;

  if (g_strcmp0 (choice->transport, "stdio") != 0)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   _("The package “%s” of “%s” serves %s on its own port, which Plugboard does not start; "
                     "choose another way to install it"),
                   choice->identifier, mcp_registry_server_get_name (self), choice->transport);
      return NULL;
    }

  switch (choice->runner)
    {
    case MCP_REGISTRY_RUNNER_NPX:
      command = "npx";
      json_array_add_string_element (args, "-y");
      break;
    case MCP_REGISTRY_RUNNER_UVX:
      command = "uvx";
      break;
    case MCP_REGISTRY_RUNNER_DOCKER:
      command = "docker";
      json_array_add_string_element (args, "run");
      json_array_add_string_element (args, "-i");
      json_array_add_string_element (args, "--rm");
      break;
    case MCP_REGISTRY_RUNNER_DNX:
      command = "dnx";
      break;
    case MCP_REGISTRY_RUNNER_MCPB:
    case MCP_REGISTRY_RUNNER_REMOTE:
    default:
      g_assert_not_reached ();
    }

  for (guint i = 0; i < choice->inputs->len; i++)
    {
      const McpRegistryInput *input = g_ptr_array_index (choice->inputs, i);
      const char *value;

      if (!resolve_value (self, input, values, &value, error))
        return NULL;
      if (value == NULL)
        continue;
      value = entry_value (input, value, secret_refs);

      switch (input->kind)
        {
        case MCP_REGISTRY_INPUT_RUNTIME_ARGUMENT:
          add_argument (args, input, value);
          break;
        case MCP_REGISTRY_INPUT_ARGUMENT:
          add_argument (package_args, input, value);
          break;
        case MCP_REGISTRY_INPUT_ENV:
          json_object_set_string_member (env, input->name, value);
          /* docker passes on only the variables it is told to */
          if (choice->runner == MCP_REGISTRY_RUNNER_DOCKER)
            {
              json_array_add_string_element (args, "-e");
              json_array_add_string_element (args, input->name);
            }
          break;
        case MCP_REGISTRY_INPUT_HEADER:
        case MCP_REGISTRY_INPUT_URL_VARIABLE:
        default:
          break;
        }
    }

  json_array_add_string_element (args, spec);
  if (choice->runner == MCP_REGISTRY_RUNNER_DNX)
    json_array_add_string_element (args, "--yes");
  for (guint i = 0; i < json_array_get_length (package_args); i++)
    json_array_add_element (args, json_node_copy (json_array_get_element (package_args, i)));

  json_object_set_string_member (entry, "command", command);
  json_object_set_array_member (entry, "args", g_steal_pointer (&args));
  if (json_object_get_size (env) > 0)
    json_object_set_object_member (entry, "env", g_steal_pointer (&env));
  return g_steal_pointer (&entry);
}

JsonObject *
mcp_registry_server_build_entry (McpRegistryServer        *self,
                                 const McpRegistryChoice  *choice,
                                 GHashTable               *values,
                                 GHashTable               *secret_refs,
                                 GError                  **error)
{
  g_return_val_if_fail (MCP_IS_REGISTRY_SERVER (self), NULL);
  g_return_val_if_fail (choice != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  switch (choice->runner)
    {
    case MCP_REGISTRY_RUNNER_MCPB:
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   _("“%s” is an MCP bundle (%s), which Plugboard cannot install; "
                     "download it from that address and open it with a client that can"),
                   mcp_registry_server_get_name (self), choice->identifier);
      return NULL;
    case MCP_REGISTRY_RUNNER_REMOTE:
      return build_remote (self, choice, values, secret_refs, error);
    case MCP_REGISTRY_RUNNER_NPX:
    case MCP_REGISTRY_RUNNER_UVX:
    case MCP_REGISTRY_RUNNER_DOCKER:
    case MCP_REGISTRY_RUNNER_DNX:
    default:
      return build_package (self, choice, values, secret_refs, error);
    }
}
