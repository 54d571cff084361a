/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-server-config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-json-private.h"
#include "mcp-server-config-private.h"

/* McpServerConfig read from its JSON: each member checked, and an error
 * that names the file, the JSON path and what was expected. */

typedef struct
{
  const char  *file;
  const char  *path;
} Where;

static gboolean G_GNUC_PRINTF (4, 5)
fail_at (GError     **error,
         const Where *where,
         const char  *member,
         const char  *format,
         ...)
{
  g_autofree char *path = NULL;
  g_autofree char *what = NULL;
  va_list args;

  path = member != NULL ? mcp_json_path_append_member (where->path, member) : g_strdup (where->path);

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
               "%s: %s: %s", where->file, path, what);

  return FALSE;
}

static const char *
node_type_name (JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    /* Translators: these name a JSON value's type, as in “expected a string, not an object” */
    return _("an object");
  if (JSON_NODE_HOLDS_ARRAY (node))
    return _("an array");
  if (JSON_NODE_HOLDS_NULL (node))
    return "null";

  switch (json_node_get_value_type (node) == G_TYPE_STRING ? 0 :
          json_node_get_value_type (node) == G_TYPE_BOOLEAN ? 1 : 2)
    {
    case 0:
      return _("a string");
    case 1:
      return _("a boolean");
    default:
      return _("a number");
    }
}

gboolean
mcp_server_config_is_string (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING;
}

/* An optional string member: TRUE with *out NULL when absent. */
static gboolean
get_string (JsonObject   *object,
            const char   *member,
            const Where  *where,
            gboolean      required,
            char        **out,
            GError      **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL)
    {
      if (required)
        return fail_at (error, where, member, _("expected a string (it is required)"));
      return TRUE;
    }

  if (!mcp_server_config_is_string (node))
    return fail_at (error, where, member, _("expected a string, not %s"), node_type_name (node));

  if (required && json_node_get_string (node)[0] == '\0')
    return fail_at (error, where, member, _("expected a non-empty string"));

  *out = g_strdup (json_node_get_string (node));

  return TRUE;
}

static gboolean
get_string_array (JsonObject   *object,
                  const char   *member,
                  const Where  *where,
                  char       ***out,
                  GError      **error)
{
  JsonNode *node = json_object_get_member (object, member);
  g_autoptr(GStrvBuilder) builder = NULL;
  JsonArray *array;

  if (node == NULL)
    return TRUE;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    return fail_at (error, where, member, _("expected an array of strings, not %s"), node_type_name (node));

  array = json_node_get_array (node);
  builder = g_strv_builder_new ();
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (!mcp_server_config_is_string (element))
        {
          g_autofree char *path = mcp_json_path_append_member (where->path, member);

          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                       /* Translators: the first %s is a settings file, the second a JSON path, the last a JSON type (“a number”) */
                       _("%s: %s[%u]: expected a string, not %s"),
                       where->file, path, i, node_type_name (element));
          return FALSE;
        }
      g_strv_builder_add (builder, json_node_get_string (element));
    }

  *out = g_strv_builder_end (builder);

  return TRUE;
}

/* An object of string values, as "K<separator>V" strings. */
static gboolean
get_string_map (JsonObject   *object,
                const char   *member,
                const char   *separator,
                const Where  *where,
                char       ***out,
                GError      **error)
{
  JsonNode *node = json_object_get_member (object, member);
  g_autoptr(GStrvBuilder) builder = NULL;
  g_autofree char *path = NULL;
  JsonObjectIter iter;
  const char *key;
  JsonNode *value;

  if (node == NULL)
    return TRUE;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return fail_at (error, where, member, _("expected an object of strings, not %s"), node_type_name (node));

  path = mcp_json_path_append_member (where->path, member);
  builder = g_strv_builder_new ();
  json_object_iter_init_ordered (&iter, json_node_get_object (node));
  while (json_object_iter_next_ordered (&iter, &key, &value))
    {
      Where inner = { where->file, path };

      if (key[0] == '\0')
        return fail_at (error, &inner, key, _("expected a non-empty name"));
      if (!mcp_server_config_is_string (value))
        return fail_at (error, &inner, key, _("expected a string, not %s"), node_type_name (value));
      if (strcmp (separator, "=") == 0 && strchr (key, '=') != NULL)
        return fail_at (error, &inner, key, _("an environment variable name must not contain ‘=’"));
      {
        g_autofree char *pair = g_strconcat (key, separator, json_node_get_string (value), NULL);

        g_strv_builder_add (builder, pair);
      }
    }

  *out = g_strv_builder_end (builder);

  return TRUE;
}

static gboolean
get_uint (JsonObject   *object,
          const char   *member,
          const Where  *where,
          guint64       max,
          guint64      *out,
          GError      **error)
{
  JsonNode *node = json_object_get_member (object, member);
  gint64 value;

  if (node == NULL)
    return TRUE;

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    return fail_at (error, where, member, _("expected a whole number, not %s"), node_type_name (node));

  value = json_node_get_int (node);
  if (value < 0 || (guint64)value > max)
    return fail_at (error, where, member, _("expected a whole number from 0 to %llu"), (unsigned long long) max);

  *out = (guint64)value;

  return TRUE;
}

/* A string member that must be one of @values, unless it is left to
 * ${VAR} expansion. */
static gboolean
get_enum (JsonObject          *object,
          const char          *member,
          const Where         *where,
          const char * const  *values,
          const char          *expected,
          GError             **error)
{
  g_autofree char *value = NULL;

  if (!get_string (object, member, where, FALSE, &value, error))
    return FALSE;
  if (value == NULL || strstr (value, "${") != NULL || g_strv_contains (values, value))
    return TRUE;
  /* Translators: %s lists the values allowed */
  return fail_at (error, where, member, _("expected %s"), expected);
}

static gboolean
get_boolean (JsonObject   *object,
             const char   *member,
             const Where  *where,
             GError      **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL || (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_BOOLEAN))
    return TRUE;
  return fail_at (error, where, member, _("expected true or false, not %s"), node_type_name (node));
}

/* "assertion" and "idp.idToken": {"file": PATH}, {"env": VAR}, and for an
 * ID token also {"command": [ARGV…]} or {"signIn": true}. */
static gboolean
check_token_source (JsonObject   *object,
                    const char   *member,
                    const Where  *where,
                    gboolean      id_token,
                    GError      **error)
{
  JsonNode *node = json_object_get_member (object, member);
  g_autofree char *path = NULL;
  const char *expected;
  JsonObject *source;
  Where inner;

  if (id_token)
    expected = _("expected {\"command\": [PROGRAM, ARGUMENT…]}, {\"file\": PATH}, {\"env\": VARIABLE} "
                 "or {\"signIn\": true}");
  else
    expected = _("expected {\"file\": PATH} or {\"env\": VARIABLE}");

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node) || json_object_get_size (json_node_get_object (node)) != 1)
    return fail_at (error, where, member, "%s", expected);

  source = json_node_get_object (node);
  path = mcp_json_path_append_member (where->path, member);
  inner.file = where->file;
  inner.path = path;
  if (json_object_has_member (source, "file") || json_object_has_member (source, "env"))
    {
      g_autofree char *value = NULL;

      return get_string (source, json_object_has_member (source, "file") ? "file" : "env",
                         &inner, TRUE, &value, error);
    }
  if (id_token && json_object_has_member (source, "command"))
    {
      g_auto(GStrv) argv = NULL;

      if (!get_string_array (source, "command", &inner, &argv, error))
        return FALSE;
      if (argv == NULL || argv[0] == NULL || argv[0][0] == '\0')
        return fail_at (error, &inner, "command", _("expected the program, then its arguments"));
      return TRUE;
    }
  if (id_token && json_object_has_member (source, "signIn"))
    return get_boolean (source, "signIn", &inner, error);

  return fail_at (error, where, member, "%s", expected);
}

static gboolean
check_idp (JsonObject   *oauth,
           const Where  *where,
           GError      **error)
{
  JsonNode *node = json_object_get_member (oauth, "idp");
  g_autofree char *path = NULL;
  g_autofree char *issuer = NULL;
  g_autofree char *token_endpoint = NULL;
  g_autofree char *client_id = NULL;
  g_autofree char *client_secret = NULL;
  JsonObject *idp;
  Where inner;

  if (node == NULL)
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return fail_at (error, where, "idp", _("expected an object, not %s"), node_type_name (node));

  idp = json_node_get_object (node);
  path = mcp_json_path_append_member (where->path, "idp");
  inner.file = where->file;
  inner.path = path;
  return get_string (idp, "issuer", &inner, FALSE, &issuer, error) &&
         get_string (idp, "tokenEndpoint", &inner, FALSE, &token_endpoint, error) &&
         get_string (idp, "clientId", &inner, FALSE, &client_id, error) &&
         get_string (idp, "clientSecret", &inner, FALSE, &client_secret, error) &&
         check_token_source (idp, "idToken", &inner, TRUE, error);
}

/* The members of "oauth" (mcp-server-config.h). Secrets written as they
 * are rather than as ${secret:ID} are accepted: the values are masked
 * wherever the server's secrets are (mcp_server_config_dup_secrets()). */
static gboolean
check_oauth (JsonObject   *oauth,
             const Where  *where,
             GError      **error)
{
  g_autofree char *client_id = NULL;
  g_autofree char *metadata_url = NULL;
  g_autofree char *client_metadata_url = NULL;
  g_autofree char *client_secret = NULL;
  g_autofree char *private_key = NULL;
  g_auto(GStrv) scopes = NULL;
  guint64 port = 0;
  static const char * const grants[] = {
    "authorization_code", "client_credentials", "jwt_bearer", "enterprise", NULL
  };
  static const char * const methods[] = {
    "client_secret_basic", "client_secret_post", "private_key_jwt", "none", NULL
  };
  static const char * const algorithms[] = { "ES256", "RS256", NULL };

  if (!get_string (oauth, "clientId", where, FALSE, &client_id, error) ||
      !get_string (oauth, "authServerMetadataUrl", where, FALSE, &metadata_url, error) ||
      !get_string (oauth, "clientMetadataUrl", where, FALSE, &client_metadata_url, error) ||
      !get_string_array (oauth, "scopes", where, &scopes, error) ||
      !get_uint (oauth, "callbackPort", where, 65535, &port, error) ||
      !get_enum (oauth, "grant", where, grants,
                 _("“authorization_code”, “client_credentials”, “jwt_bearer” or “enterprise”"), error) ||
      !get_string (oauth, "clientSecret", where, FALSE, &client_secret, error) ||
      !get_enum (oauth, "tokenEndpointAuthMethod", where, methods,
                 _("“client_secret_basic”, “client_secret_post”, “private_key_jwt” or “none”"), error) ||
      !get_string (oauth, "privateKey", where, FALSE, &private_key, error) ||
      !get_enum (oauth, "signingAlgorithm", where, algorithms, _("“ES256” or “RS256”"), error) ||
      !check_token_source (oauth, "assertion", where, FALSE, error) ||
      !check_idp (oauth, where, error) ||
      !get_boolean (oauth, "dpop", where, error))
    return FALSE;

  return TRUE;
}

JsonObject *
mcp_server_config_copy_object (JsonObject *object)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonNode) copy = NULL;

  json_node_set_object (node, object);
  mcp_json_append (text, node);
  copy = mcp_json_parse (text->str, text->len, NULL);
  g_assert (copy != NULL);

  return json_object_ref (json_node_get_object (copy));
}

char *
mcp_server_config_normalize_remote (JsonObject *object)
{
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  const char *type;
  const char *url;

  g_return_val_if_fail (object != NULL, NULL);

  url = mcp_json_optional_string (object, "serverUrl", "server", NULL);
  if (url != NULL && !json_object_has_member (object, "url") && !json_object_has_member (object, "command"))
    {
      json_object_set_string_member (object, "url", url);
      json_object_remove_member (object, "serverUrl");
      g_ptr_array_add (notes, g_strdup (_("“serverUrl” taken as “url”")));
    }

  type = mcp_json_optional_string (object, "type", "server", NULL);
  if (type != NULL && (strcmp (type, "streamable-http") == 0 || strcmp (type, "streamableHttp") == 0))
    {
      g_ptr_array_add (notes, g_strdup_printf (_("“type” “%s” taken as “http”"), type));
      json_object_set_string_member (object, "type", "http");
    }

  url = mcp_json_optional_string (object, "url", "server", NULL);
  if (url != NULL && !json_object_has_member (object, "type") && !json_object_has_member (object, "command"))
    {
      g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
      const char *path = uri != NULL ? g_uri_get_path (uri) : url;

      type = g_str_has_suffix (path, "/sse") ? "sse" : "http";
      json_object_set_string_member (object, "type", type);
      g_ptr_array_add (notes, g_strdup_printf (_("No “type” was given: taken as “%s” from the URL"), type));
    }

  if (notes->len == 0)
    return NULL;
  g_ptr_array_add (notes, NULL);
  return g_strjoinv ("; ", (char **) notes->pdata);
}

McpServerConfig *
mcp_server_config_new_from_json (const char      *name,
                                 McpConfigScope   scope,
                                 JsonObject      *object,
                                 const char      *file,
                                 const char      *json_path,
                                 GError         **error)
{
  g_autoptr(McpServerConfig) self = NULL;
  g_autofree char *type = NULL;
  g_autofree char *default_path = NULL;
  g_autofree char *ide_dir = NULL;
  g_autofree char *ide_name = NULL;
  JsonNode *node;
  guint64 value;
  Where where;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (object != NULL, NULL);
  g_return_val_if_fail (scope <= MCP_CONFIG_SCOPE_LOCAL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (file == NULL)
    file = "(settings)";
  if (json_path == NULL)
    json_path = default_path = mcp_json_path_append_member ("$.mcpServers", name);
  where.file = file;
  where.path = json_path;

  if (name[0] == '\0')
    {
      fail_at (error, &where, NULL, _("a server needs a non-empty name"));
      return NULL;
    }

  self = g_object_new (MCP_TYPE_SERVER_CONFIG, NULL);
  self->name = g_strdup (name);
  self->scope = scope;
  self->file = g_strdup (file);
  self->json_path = g_strdup (json_path);
  self->object = mcp_server_config_copy_object (object);
  object = self->object;

  if (!get_string (object, "type", &where, FALSE, &type, error))
    return NULL;

  if (type == NULL)
    {
      if (!json_object_has_member (object, "command"))
        {
          fail_at (error, &where, NULL,
                   /* Translators: the quoted words are JSON member names and values; keep them */
                   _("expected \"command\" (a local stdio server) or \"type\" "
                     "(\"stdio\", \"http\", \"sse\", \"ws\", \"sse-ide\" or \"ws-ide\")"));
          return NULL;
        }
      self->transport = MCP_TRANSPORT_KIND_STDIO;
    }
  else
    {
      guint i;

      for (i = 0; i < G_N_ELEMENTS (mcp_server_config_transport_names); i++)
        {
          if (strcmp (type, mcp_server_config_transport_names[i]) == 0)
            break;
        }
      if (i == G_N_ELEMENTS (mcp_server_config_transport_names))
        {
          fail_at (error, &where, "type",
                   /* Translators: the quoted words are the values “type” may have; keep them */
                   _("expected \"stdio\", \"http\", \"sse\", \"ws\", \"sse-ide\" or \"ws-ide\", not \"%s\""),
                   type);
          return NULL;
        }
      self->transport = (McpTransportKind)i;
    }

  switch (self->transport)
    {
    case MCP_TRANSPORT_KIND_STDIO:
      if (!get_string (object, "command", &where, TRUE, &self->command, error) ||
          !get_string_array (object, "args", &where, &self->args, error) ||
          !get_string_map (object, "env", "=", &where, &self->env, error) ||
          !get_string (object, "cwd", &where, FALSE, &self->cwd, error))
        return NULL;
      break;

    case MCP_TRANSPORT_KIND_HTTP:
    case MCP_TRANSPORT_KIND_SSE:
    case MCP_TRANSPORT_KIND_WS:
      if (!get_string (object, "url", &where, TRUE, &self->url, error) ||
          !get_string_map (object, "headers", ": ", &where, &self->headers, error))
        return NULL;
      break;

    case MCP_TRANSPORT_KIND_SSE_IDE:
    case MCP_TRANSPORT_KIND_WS_IDE:
    default:
      if (!get_string (object, "url", &where, FALSE, &self->url, error) ||
          !get_string (object, "ideLockDir", &where, FALSE, &ide_dir, error) ||
          !get_string (object, "ideName", &where, FALSE, &ide_name, error))
        return NULL;
      break;
    }

  node = json_object_get_member (object, "oauth");
  if (node != NULL)
    {
      g_autofree char *path = mcp_json_path_append_member (json_path, "oauth");
      Where inner = { file, path };

      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          fail_at (error, &where, "oauth", _("expected an object, not %s"), node_type_name (node));
          return NULL;
        }
      if (!check_oauth (json_node_get_object (node), &inner, error))
        return NULL;
      self->oauth = json_object_ref (json_node_get_object (node));
    }

  node = json_object_get_member (object, "enabled");
  if (node != NULL)
    {
      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
        {
          fail_at (error, &where, "enabled", _("expected true or false, not %s"), node_type_name (node));
          return NULL;
        }
      self->enabled = json_node_get_boolean (node);
    }

  /* Claude Desktop's, Cline's and Windsurf's key: off when either says so */
  node = json_object_get_member (object, "disabled");
  if (node != NULL)
    {
      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
        {
          fail_at (error, &where, "disabled", _("expected true or false, not %s"), node_type_name (node));
          return NULL;
        }
      if (json_node_get_boolean (node))
        self->enabled = FALSE;
    }

  value = 0;
  if (!get_uint (object, "timeout", &where, G_MAXUINT, &value, error))
    return NULL;
  self->connect_timeout = (guint)value;
  value = 0;
  if (!get_uint (object, "toolTimeout", &where, G_MAXUINT, &value, error))
    return NULL;
  self->tool_timeout = (guint)value;

  return g_steal_pointer (&self);
}

McpServerConfig *
mcp_server_config_new_unsaved (const char  *name,
                               JsonObject  *object,
                               GError     **error)
{
  McpServerConfig *self;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (object != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = mcp_server_config_new_from_json (name, MCP_CONFIG_SCOPE_USER, object,
                                          /* Translators: stands where messages name a settings file, for a server the person tries without saving it ("the server being tried: $.mcpServers.x.url: expected a string") */
                                          _("the server being tried"),
                                          NULL, error);
  if (self != NULL)
    self->unsaved = TRUE;

  return self;
}
