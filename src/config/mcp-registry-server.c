/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-registry"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "mcp-registry-private.h"

#define MAX_CHOICES 64
#define MAX_INPUTS  256
#define MAX_DOCUMENT_BYTES (1024 * 1024)
#define OFFICIAL_META "io.modelcontextprotocol.registry/official"

struct _McpRegistryServer
{
  GObject     parent_instance;

  /* owned */
  JsonObject *json;        /* the server.json */
  GPtrArray  *choices;     /* McpRegistryChoice */
  char       *status;
  guint       n_inputs;
};

G_DEFINE_FINAL_TYPE (McpRegistryServer, mcp_registry_server, G_TYPE_OBJECT)

static void
mcp_registry_server_finalize (GObject *object)
{
  McpRegistryServer *self = (McpRegistryServer *) object;

  g_clear_pointer (&self->choices, g_ptr_array_unref);
  g_clear_pointer (&self->json, json_object_unref);
  g_free (self->status);

  G_OBJECT_CLASS (mcp_registry_server_parent_class)->finalize (object);
}

static void
mcp_registry_server_class_init (McpRegistryServerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mcp_registry_server_finalize;
}

static void
mcp_registry_server_init (McpRegistryServer *self)
{
  self->choices = g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_registry_choice_free);
}

void
mcp_registry_input_free (McpRegistryInput *self)
{
  if (self == NULL)
    return;
  g_free (self->name);
  g_free (self->description);
  g_free (self->default_value);
  g_free (self->format);
  g_strfreev (self->choices);
  g_free (self);
}

void
mcp_registry_choice_free (McpRegistryChoice *self)
{
  if (self == NULL)
    return;
  g_free (self->identifier);
  g_free (self->version);
  g_free (self->transport);
  g_free (self->label);
  g_clear_pointer (&self->inputs, g_ptr_array_unref);
  g_free (self);
}

/* Reading, with the JSON path of every value in errors. */

static gboolean
invalid (GError    **error,
         const char *path,
         const char *member,
         const char *expected)
{
  g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
               _("%s%s%s: expected %s"), path, member && *path ? "." : "",
               member ? member : "", expected);
  return FALSE;
}

/* An optional string member: *@out is NULL when it is absent or null. */
static gboolean
read_string (JsonObject  *object,
             const char  *path,
             const char  *member,
             gboolean     required,
             const char **out,
             GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  *out = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return required ? invalid (error, path, member, _("a string")) : TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return invalid (error, path, member, _("a string"));
  *out = json_node_get_string (node);
  if (required && **out == '\0')
    return invalid (error, path, member, _("a string that is not empty"));
  return TRUE;
}

static gboolean
read_boolean (JsonObject  *object,
              const char  *path,
              const char  *member,
              gboolean    *out,
              GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  *out = FALSE;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return invalid (error, path, member, _("true or false"));
  *out = json_node_get_boolean (node);
  return TRUE;
}

/* An optional member of @type (JSON_NODE_OBJECT or JSON_NODE_ARRAY). */
static gboolean
read_node (JsonObject    *object,
           const char    *path,
           const char    *member,
           JsonNodeType   type,
           JsonNode     **out,
           GError       **error)
{
  JsonNode *node = json_object_get_member (object, member);

  *out = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (JSON_NODE_TYPE (node) != type)
    return invalid (error, path, member, type == JSON_NODE_OBJECT ? _("an object") : _("an array"));
  *out = node;
  return TRUE;
}

static McpRegistryInput *
read_input (JsonObject            *object,
            const char            *path,
            McpRegistryInputKind   kind,
            const char            *name,
            GError               **error)
{
  g_autoptr(McpRegistryInput) input = g_new0 (McpRegistryInput, 1);
  const char *description, *default_value, *format, *value;
  JsonNode *choices;

  if (!read_string (object, path, "description", FALSE, &description, error) ||
      !read_string (object, path, "default", FALSE, &default_value, error) ||
      !read_string (object, path, "format", FALSE, &format, error) ||
      !read_string (object, path, "value", FALSE, &value, error) ||
      !read_boolean (object, path, "isRequired", &input->is_required, error) ||
      !read_boolean (object, path, "isSecret", &input->is_secret, error) ||
      !read_node (object, path, "choices", JSON_NODE_ARRAY, &choices, error))
    return NULL;

  input->kind = kind;
  input->name = g_strdup (name);
  input->description = g_strdup (description);
  /* A fixed value is what the entry gets; the person is not asked. */
  input->default_value = g_strdup (value != NULL ? value : default_value);
  input->format = g_strdup (format != NULL ? format : "string");
  input->fixed = value != NULL;

  if (choices != NULL)
    {
      JsonArray *array = json_node_get_array (choices);
      guint n = json_array_get_length (array);

      input->choices = g_new0 (char *, n + 1);
      for (guint i = 0; i < n; i++)
        {
          JsonNode *item = json_array_get_element (array, i);

          if (!JSON_NODE_HOLDS_VALUE (item) || json_node_get_value_type (item) != G_TYPE_STRING)
            {
              g_autofree char *at = g_strdup_printf ("%s.choices[%u]", path, i);

              invalid (error, at, NULL, _("a string"));
              return NULL;
            }
          input->choices[i] = json_node_dup_string (item);
        }
    }

  return g_steal_pointer (&input);
}

static gboolean
add_input (McpRegistryServer  *self,
           McpRegistryChoice  *choice,
           McpRegistryInput   *input,
           const char         *path,
           GError            **error)
{
  if (input == NULL)
    return FALSE;
  if (++self->n_inputs > MAX_INPUTS)
    {
      mcp_registry_input_free (input);
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("%s: more than %d inputs"), path, MAX_INPUTS);
      return FALSE;
    }
  g_ptr_array_add (choice->inputs, input);
  return TRUE;
}

/* "runtimeArguments", "packageArguments": positional and named */
static gboolean
read_arguments (McpRegistryServer     *self,
                McpRegistryChoice     *choice,
                JsonObject            *package,
                const char            *path,
                const char            *member,
                McpRegistryInputKind   kind,
                GError               **error)
{
  JsonNode *node;
  JsonArray *array;

  if (!read_node (package, path, member, JSON_NODE_ARRAY, &node, error))
    return FALSE;
  if (node == NULL)
    return TRUE;

  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *item = json_array_get_element (array, i);
      g_autofree char *at = g_strdup_printf ("%s.%s[%u]", path, member, i);
      g_autofree char *fallback = NULL;
      const char *type, *name, *hint;
      JsonObject *argument;

      if (!JSON_NODE_HOLDS_OBJECT (item))
        return invalid (error, at, NULL, _("an object"));
      argument = json_node_get_object (item);
      if (!read_string (argument, at, "type", TRUE, &type, error) ||
          !read_string (argument, at, "name", FALSE, &name, error) ||
          !read_string (argument, at, "valueHint", FALSE, &hint, error))
        return FALSE;

      if (strcmp (type, "named") == 0)
        {
          if (name == NULL)
            return invalid (error, at, "name", _("a string"));
        }
      else if (strcmp (type, "positional") == 0)
        {
          name = hint != NULL ? hint : name;
          if (name == NULL)
            name = fallback = g_strdup_printf ("argument %u", i + 1);
        }
      else
        return invalid (error, at, "type", _("“positional” or “named”"));

      if (!add_input (self, choice, read_input (argument, at, kind, name, error), at, error))
        return FALSE;
    }
  return TRUE;
}

/* "environmentVariables" and "headers": [{"name": …}] */
static gboolean
read_named_inputs (McpRegistryServer     *self,
                   McpRegistryChoice     *choice,
                   JsonObject            *object,
                   const char            *path,
                   const char            *member,
                   McpRegistryInputKind   kind,
                   GError               **error)
{
  JsonNode *node;
  JsonArray *array;

  if (!read_node (object, path, member, JSON_NODE_ARRAY, &node, error))
    return FALSE;
  if (node == NULL)
    return TRUE;

  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *item = json_array_get_element (array, i);
      g_autofree char *at = g_strdup_printf ("%s.%s[%u]", path, member, i);
      const char *name;

      if (!JSON_NODE_HOLDS_OBJECT (item))
        return invalid (error, at, NULL, _("an object"));
      if (!read_string (json_node_get_object (item), at, "name", TRUE, &name, error))
        return FALSE;
      if (!add_input (self, choice,
                      read_input (json_node_get_object (item), at, kind, name, error), at, error))
        return FALSE;
    }
  return TRUE;
}

static const char *
transport_label (const char *transport)
{
  if (g_strcmp0 (transport, "streamable-http") == 0)
    return _("Streamable HTTP");
  if (g_strcmp0 (transport, "sse") == 0)
    return _("SSE");
  return transport;
}

static gboolean
read_package (McpRegistryServer  *self,
              JsonObject         *package,
              guint               index,
              const char         *path,
              GError            **error)
{
  g_autoptr(McpRegistryChoice) choice = g_new0 (McpRegistryChoice, 1);
  const char *type, *identifier, *version, *transport_type, *runner_name;
  JsonNode *transport;

  if (!read_string (package, path, "registryType", TRUE, &type, error) ||
      !read_string (package, path, "identifier", TRUE, &identifier, error) ||
      !read_string (package, path, "version", FALSE, &version, error) ||
      !read_node (package, path, "transport", JSON_NODE_OBJECT, &transport, error))
    return FALSE;
  if (transport == NULL)
    return invalid (error, path, "transport", _("an object"));
  {
    g_autofree char *at = g_strdup_printf ("%s.transport", path);

    if (!read_string (json_node_get_object (transport), at, "type", TRUE, &transport_type, error))
      return FALSE;
    if (strcmp (transport_type, "stdio") != 0 && strcmp (transport_type, "streamable-http") != 0 &&
        strcmp (transport_type, "sse") != 0)
      return invalid (error, at, "type", _("“stdio”, “streamable-http” or “sse”"));
  }

  if (strcmp (type, "npm") == 0)
    {
      choice->runner = MCP_REGISTRY_RUNNER_NPX;
      runner_name = "npx";
    }
  else if (strcmp (type, "pypi") == 0)
    {
      choice->runner = MCP_REGISTRY_RUNNER_UVX;
      runner_name = "uvx";
    }
  else if (strcmp (type, "oci") == 0)
    {
      choice->runner = MCP_REGISTRY_RUNNER_DOCKER;
      runner_name = "docker";
    }
  else if (strcmp (type, "nuget") == 0)
    {
      choice->runner = MCP_REGISTRY_RUNNER_DNX;
      runner_name = "dnx";
    }
  else if (strcmp (type, "mcpb") == 0)
    {
      choice->runner = MCP_REGISTRY_RUNNER_MCPB;
      runner_name = _("MCP bundle");
    }
  else
    return invalid (error, path, "registryType",
                    _("“npm”, “pypi”, “oci”, “nuget” or “mcpb”"));

  choice->index = index;
  choice->identifier = g_strdup (identifier);
  choice->version = g_strdup (version);
  choice->transport = g_strdup (transport_type);
  choice->inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_registry_input_free);
  choice->label = g_strdup_printf ("%s: %s%s%s (%s)", type, identifier,
                                   version ? " " : "", version ? version : "", runner_name);

  if (!read_arguments (self, choice, package, path, "runtimeArguments",
                       MCP_REGISTRY_INPUT_RUNTIME_ARGUMENT, error) ||
      !read_arguments (self, choice, package, path, "packageArguments",
                       MCP_REGISTRY_INPUT_ARGUMENT, error) ||
      !read_named_inputs (self, choice, package, path, "environmentVariables",
                          MCP_REGISTRY_INPUT_ENV, error))
    return FALSE;
  {
    g_autofree char *at = g_strdup_printf ("%s.transport", path);

    if (!read_named_inputs (self, choice, json_node_get_object (transport), at, "headers",
                            MCP_REGISTRY_INPUT_HEADER, error))
      return FALSE;
  }

  g_ptr_array_add (self->choices, g_steal_pointer (&choice));
  return TRUE;
}

static gboolean
read_remote (McpRegistryServer  *self,
             JsonObject         *remote,
             guint               index,
             const char         *path,
             GError            **error)
{
  g_autoptr(McpRegistryChoice) choice = g_new0 (McpRegistryChoice, 1);
  const char *type, *url;
  JsonNode *variables;

  if (!read_string (remote, path, "type", TRUE, &type, error) ||
      !read_string (remote, path, "url", TRUE, &url, error) ||
      !read_node (remote, path, "variables", JSON_NODE_OBJECT, &variables, error))
    return FALSE;
  if (strcmp (type, "streamable-http") != 0 && strcmp (type, "sse") != 0)
    return invalid (error, path, "type", _("“streamable-http” or “sse”"));

  choice->runner = MCP_REGISTRY_RUNNER_REMOTE;
  choice->index = index;
  choice->identifier = g_strdup (url);
  choice->version = g_strdup (mcp_registry_server_get_version (self));
  choice->transport = g_strdup (type);
  choice->inputs = g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_registry_input_free);
  choice->label = g_strdup_printf (_("Remote: %s (%s)"), url, transport_label (type));

  if (variables != NULL)
    {
      JsonObject *object = json_node_get_object (variables);
      g_autoptr(GList) names = json_object_get_members (object);

      for (GList *l = names; l != NULL; l = l->next)
        {
          JsonNode *item = json_object_get_member (object, l->data);
          g_autofree char *at = g_strdup_printf ("%s.variables.%s", path, (char *) l->data);

          if (!JSON_NODE_HOLDS_OBJECT (item))
            return invalid (error, at, NULL, _("an object"));
          if (!add_input (self, choice,
                          read_input (json_node_get_object (item), at,
                                      MCP_REGISTRY_INPUT_URL_VARIABLE, l->data, error),
                          at, error))
            return FALSE;
        }
    }
  if (!read_named_inputs (self, choice, remote, path, "headers", MCP_REGISTRY_INPUT_HEADER, error))
    return FALSE;

  g_ptr_array_add (self->choices, g_steal_pointer (&choice));
  return TRUE;
}

static gboolean
read_list (McpRegistryServer  *self,
           const char         *path,
           const char         *member,
           guint              *count,
           gboolean          (*read) (McpRegistryServer *, JsonObject *, guint, const char *, GError **),
           GError            **error)
{
  JsonNode *node;
  JsonArray *array;

  if (!read_node (self->json, path, member, JSON_NODE_ARRAY, &node, error))
    return FALSE;
  if (node == NULL)
    return TRUE;

  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *item = json_array_get_element (array, i);
      g_autofree char *at = g_strdup_printf ("%s%s%s[%u]", path, *path ? "." : "", member, i);

      if (++*count > MAX_CHOICES)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       _("%s: more than %d packages and remotes"), at, MAX_CHOICES);
          return FALSE;
        }
      if (!JSON_NODE_HOLDS_OBJECT (item))
        return invalid (error, at, NULL, _("an object"));
      if (!read (self, json_node_get_object (item), i, at, error))
        return FALSE;
    }
  return TRUE;
}

McpRegistryServer *
mcp_registry_server_new_at (JsonObject  *object,
                            const char  *prefix,
                            GError     **error)
{
  g_autoptr(McpRegistryServer) self = g_object_new (MCP_TYPE_REGISTRY_SERVER, NULL);
  g_autofree char *path = NULL;
  JsonObject *server = object;
  JsonNode *meta = NULL;
  JsonNode *node;
  const char *unused;
  guint count = 0;

  g_return_val_if_fail (object != NULL, NULL);

  /* An entry of the API ({"server": …, "_meta": …}), or the server.json */
  node = json_object_get_member (object, "server");
  if (node != NULL)
    {
      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          invalid (error, prefix, "server", _("an object"));
          return NULL;
        }
      server = json_node_get_object (node);
      meta = json_object_get_member (object, "_meta");
      path = g_strdup_printf ("%s%sserver", prefix, *prefix ? "." : "");
    }
  else
    {
      meta = json_object_get_member (object, "_meta");
      path = g_strdup (prefix);
    }

  {
    g_autoptr(JsonNode) root = json_node_init_object (json_node_alloc (), server);
    g_autoptr(JsonGenerator) generator = json_generator_new ();
    gsize length;
    g_autofree char *text = NULL;

    json_generator_set_root (generator, root);
    text = json_generator_to_data (generator, &length);
    if (length > MAX_DOCUMENT_BYTES)
      {
        g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                     _("%s: a server.json of more than %d KiB"),
                     *path ? path : "server", MAX_DOCUMENT_BYTES / 1024);
        return NULL;
      }
  }

  self->json = json_object_ref (server);
  if (!read_string (server, path, "name", TRUE, &unused, error) ||
      !read_string (server, path, "description", FALSE, &unused, error) ||
      !read_string (server, path, "title", FALSE, &unused, error) ||
      !read_string (server, path, "version", TRUE, &unused, error) ||
      !read_string (server, path, "websiteUrl", FALSE, &unused, error))
    return NULL;
  node = json_object_get_member (server, "repository");
  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      g_autofree char *at = g_strdup_printf ("%s%srepository", path, *path ? "." : "");

      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          invalid (error, path, "repository", _("an object"));
          return NULL;
        }
      if (!read_string (json_node_get_object (node), at, "url", FALSE, &unused, error))
        return NULL;
    }

  if (meta != NULL && JSON_NODE_HOLDS_OBJECT (meta))
    {
      JsonNode *official = json_object_get_member (json_node_get_object (meta), OFFICIAL_META);

      if (official != NULL && JSON_NODE_HOLDS_OBJECT (official))
        {
          g_autofree char *at = g_strdup_printf ("%s%s_meta.%s", prefix, *prefix ? "." : "",
                                                 OFFICIAL_META);
          const char *status;

          if (!read_string (json_node_get_object (official), at, "status", FALSE, &status, error))
            return NULL;
          self->status = g_strdup (status);
        }
    }

  if (!read_list (self, path, "packages", &count, read_package, error) ||
      !read_list (self, path, "remotes", &count, read_remote, error))
    return NULL;

  return g_steal_pointer (&self);
}

McpRegistryServer *
mcp_registry_server_new_from_json (JsonObject  *object,
                                   GError     **error)
{
  g_return_val_if_fail (object != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return mcp_registry_server_new_at (object, "", error);
}

const char *
mcp_registry_server_get_name (McpRegistryServer *self)
{
  g_return_val_if_fail (MCP_IS_REGISTRY_SERVER (self), NULL);
  return json_object_get_string_member (self->json, "name");
}

static const char *
get_optional (JsonObject *object,
              const char *member)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

const char *
mcp_registry_server_get_title (McpRegistryServer *self)
{
  g_return_val_if_fail (MCP_IS_REGISTRY_SERVER (self), NULL);
  return get_optional (self->json, "title");
}

const char *
mcp_registry_server_get_description (McpRegistryServer *self)
{
  const char *description;

  g_return_val_if_fail (MCP_IS_REGISTRY_SERVER (self), NULL);
  description = get_optional (self->json, "description");
  return description != NULL ? description : "";
}

const char *
mcp_registry_server_get_version (McpRegistryServer *self)
{
  g_return_val_if_fail (MCP_IS_REGISTRY_SERVER (self), NULL);
  return get_optional (self->json, "version");
}

const char *
mcp_registry_server_get_website_url (McpRegistryServer *self)
{
  g_return_val_if_fail (MCP_IS_REGISTRY_SERVER (self), NULL);
  return get_optional (self->json, "websiteUrl");
}

const char *
mcp_registry_server_get_repository_url (McpRegistryServer *self)
{
  JsonNode *node;

  g_return_val_if_fail (MCP_IS_REGISTRY_SERVER (self), NULL);
  node = json_object_get_member (self->json, "repository");
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  return get_optional (json_node_get_object (node), "url");
}

const char *
mcp_registry_server_get_status (McpRegistryServer *self)
{
  g_return_val_if_fail (MCP_IS_REGISTRY_SERVER (self), NULL);
  return self->status;
}

JsonObject *
mcp_registry_server_get_json (McpRegistryServer *self)
{
  g_return_val_if_fail (MCP_IS_REGISTRY_SERVER (self), NULL);
  return self->json;
}

GPtrArray *
mcp_registry_server_get_choices (McpRegistryServer *self)
{
  g_return_val_if_fail (MCP_IS_REGISTRY_SERVER (self), NULL);
  return self->choices;
}

char *
mcp_registry_server_dup_entry_name (McpRegistryServer *self)
{
  const char *name, *slash;
  g_autofree char *lower = NULL;
  GString *out;

  g_return_val_if_fail (MCP_IS_REGISTRY_SERVER (self), NULL);

  name = mcp_registry_server_get_name (self);
  slash = strrchr (name, '/');
  lower = g_utf8_strdown (slash != NULL ? slash + 1 : name, -1);
  out = g_string_new (NULL);
  for (const char *p = lower; *p != '\0'; p++)
    {
      gboolean keep = g_ascii_isalnum (*p) || *p == '_' || *p == '-';

      /* Never a leading '-': the name could be read as an option */
      if (keep && !(*p == '-' && out->len == 0))
        g_string_append_c (out, *p);
      else if (out->len > 0 && out->str[out->len - 1] != '-')
        g_string_append_c (out, '-');
    }
  while (out->len > 0 && out->str[out->len - 1] == '-')
    g_string_truncate (out, out->len - 1);
  if (out->len == 0)
    g_string_append (out, "server");
  return g_string_free (out, FALSE);
}
