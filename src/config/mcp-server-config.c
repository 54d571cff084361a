/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-server-config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-json-private.h"
#include "mcp-server-config-private.h"

struct _McpServerConfig
{
  GObject           parent_instance;

  McpConfigScope    scope;
  McpTransportKind  transport;
  guint             enabled : 1;
  guint             enabled_overridden : 1;
  guint             unsaved : 1;        /* being tried, in no file */
  guint             connect_timeout;
  guint             tool_timeout;

  /* owned */
  char             *name;
  char             *file;
  char             *json_path;
  JsonObject       *object;
  char             *command;
  char            **args;
  char            **env;
  char             *cwd;
  char             *url;
  char            **headers;
  JsonObject       *oauth;
  char            **expanded_values;  /* what ${VAR}s gave; NULL: not expanded */
  char             *approved_digest;  /* a project server's bound approval, or NULL */
  char             *disabled_reason;  /* why the settings turned it off, or NULL */
};

G_DEFINE_FINAL_TYPE (McpServerConfig, mcp_server_config, G_TYPE_OBJECT)

static const char * const transport_names[] = {
  [MCP_TRANSPORT_KIND_STDIO] = "stdio",
  [MCP_TRANSPORT_KIND_HTTP] = "http",
  [MCP_TRANSPORT_KIND_SSE] = "sse",
  [MCP_TRANSPORT_KIND_WS] = "ws",
  [MCP_TRANSPORT_KIND_SSE_IDE] = "sse-ide",
  [MCP_TRANSPORT_KIND_WS_IDE] = "ws-ide",
};

static void
mcp_server_config_finalize (GObject *object)
{
  McpServerConfig *self = (McpServerConfig *)object;

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->file, g_free);
  g_clear_pointer (&self->json_path, g_free);
  g_clear_pointer (&self->object, json_object_unref);
  g_clear_pointer (&self->command, g_free);
  g_clear_pointer (&self->args, g_strfreev);
  g_clear_pointer (&self->env, g_strfreev);
  g_clear_pointer (&self->cwd, g_free);
  g_clear_pointer (&self->url, g_free);
  g_clear_pointer (&self->headers, g_strfreev);
  g_clear_pointer (&self->oauth, json_object_unref);
  g_clear_pointer (&self->expanded_values, g_strfreev);
  g_clear_pointer (&self->approved_digest, g_free);
  g_clear_pointer (&self->disabled_reason, g_free);

  G_OBJECT_CLASS (mcp_server_config_parent_class)->finalize (object);
}

static void
mcp_server_config_class_init (McpServerConfigClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mcp_server_config_finalize;
}

static void
mcp_server_config_init (McpServerConfig *self)
{
  self->enabled = TRUE;
}

/* JSON paths */

static gboolean
is_identifier (const char *key)
{
  if (key[0] == '\0' || g_ascii_isdigit (key[0]))
    return FALSE;

  for (const char *p = key; *p != '\0'; p++)
    {
      if (!g_ascii_isalnum (*p) && *p != '_' && *p != '$')
        return FALSE;
    }

  return TRUE;
}

char *
mcp_json_path_append_member (const char *path,
                             const char *key)
{
  GString *out;

  if (is_identifier (key))
    return g_strconcat (path, ".", key, NULL);

  out = g_string_new (path);
  g_string_append_c (out, '[');
  mcp_json_append_string (out, key);
  g_string_append_c (out, ']');

  return g_string_free (out, FALSE);
}

char *
mcp_json_path_from_names (const char * const *names,
                          guint               length)
{
  g_autofree char *path = g_strdup ("$");

  for (guint i = 0; i < length && names[i] != NULL; i++)
    {
      char *next = mcp_json_path_append_member (path, names[i]);

      g_free (path);
      path = next;
    }

  return g_steal_pointer (&path);
}

/* Parsing */

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

static gboolean
is_string (JsonNode *node)
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

  if (!is_string (node))
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

      if (!is_string (element))
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
      if (!is_string (value))
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

static gboolean
check_oauth (JsonObject   *oauth,
             const Where  *where,
             GError      **error)
{
  g_autofree char *client_id = NULL;
  g_autofree char *metadata_url = NULL;
  g_autofree char *client_metadata_url = NULL;
  g_auto(GStrv) scopes = NULL;
  guint64 port = 0;

  if (!get_string (oauth, "clientId", where, FALSE, &client_id, error) ||
      !get_string (oauth, "authServerMetadataUrl", where, FALSE, &metadata_url, error) ||
      !get_string (oauth, "clientMetadataUrl", where, FALSE, &client_metadata_url, error) ||
      !get_string_array (oauth, "scopes", where, &scopes, error) ||
      !get_uint (oauth, "callbackPort", where, 65535, &port, error))
    return FALSE;

  return TRUE;
}

/* A deep copy that keeps member order. */
static JsonObject *
copy_object (JsonObject *object)
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
  self->object = copy_object (object);
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

      for (i = 0; i < G_N_ELEMENTS (transport_names); i++)
        {
          if (strcmp (type, transport_names[i]) == 0)
            break;
        }
      if (i == G_N_ELEMENTS (transport_names))
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

const char *
mcp_server_config_get_name (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);
  return self->name;
}

McpConfigScope
mcp_server_config_get_scope (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), MCP_CONFIG_SCOPE_USER);
  return self->scope;
}

McpTransportKind
mcp_server_config_get_transport (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), MCP_TRANSPORT_KIND_STDIO);
  return self->transport;
}

const char *
mcp_server_config_get_transport_name (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);
  return transport_names[self->transport];
}

gboolean
mcp_server_config_is_remote (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), FALSE);
  return self->transport != MCP_TRANSPORT_KIND_STDIO;
}

const char *
mcp_server_config_get_command (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);
  return self->command;
}

const char * const *
mcp_server_config_get_args (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);
  return (const char * const *)self->args;
}

const char * const *
mcp_server_config_get_env (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);
  return (const char * const *)self->env;
}

const char *
mcp_server_config_get_cwd (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);
  return self->cwd;
}

const char *
mcp_server_config_get_url (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);
  return self->url;
}

const char * const *
mcp_server_config_get_headers (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);
  return (const char * const *)self->headers;
}

JsonObject *
mcp_server_config_get_oauth (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);
  return self->oauth;
}

gboolean
mcp_server_config_get_enabled (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), FALSE);
  return self->enabled;
}

guint
mcp_server_config_get_connect_timeout (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), 0);
  return self->connect_timeout;
}

guint
mcp_server_config_get_tool_timeout (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), 0);
  return self->tool_timeout;
}

const char *
mcp_server_config_get_file (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);
  return self->unsaved ? NULL : self->file;
}

gboolean
mcp_server_config_get_saved (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), FALSE);
  return !self->unsaved;
}

const char *
mcp_server_config_get_json_path (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);
  return self->json_path;
}

JsonObject *
mcp_server_config_get_json (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);
  return self->object;
}

char *
mcp_server_config_dup_memo_key (McpServerConfig *self)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(JsonObject) object = NULL;
  GString *out;

  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);

  object = copy_object (self->object);
  if (self->enabled_overridden)
    json_object_set_boolean_member (object, "enabled", self->enabled);

  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, object);

  out = g_string_new (NULL);
  mcp_json_append_string (out, self->name);
  g_string_append_c (out, ':');
  mcp_json_append_canonical (out, node);

  return g_string_free (out, FALSE);
}

/* Expansion */

static const char *
lookup_variable (const char * const *environ,
                 const char         *name)
{
  /* "A=b" is no name: getenv() would find the variable A whose value
   * starts with "b=" */
  if (strchr (name, '=') != NULL)
    return NULL;

  if (environ == NULL)
    return g_getenv (name);

  return g_environ_getenv ((char **)environ, name);
}

static char *
expand_string (McpServerConfig     *self,
               const char          *text,
               const char          *path,
               const char * const  *environ,
               GPtrArray           *values,
               GError             **error)
{
  GString *out = g_string_new (NULL);
  const char *p = text;

  while (*p != '\0')
    {
      const char *start;
      const char *close;
      const char *dash;
      g_autofree char *name = NULL;
      const char *value;

      if (p[0] != '$' || p[1] != '{')
        {
          g_string_append_c (out, *p++);
          continue;
        }

      start = p + 2;
      close = strchr (start, '}');
      if (close == NULL)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                       /* Translators: the first %s is a settings file, the second a JSON path, the third the server's name */
                       _("%s: %s: server “%s”: “${” without a closing “}”"),
                       self->file, path, self->name);
          g_string_free (out, TRUE);
          return NULL;
        }

      dash = g_strstr_len (start, close - start, ":-");
      name = g_strndup (start, (dash != NULL ? dash : close) - start);
      if (name[0] == '\0')
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                       /* Translators: the first %s is a settings file, the second a JSON path, the third the server's name */
                       _("%s: %s: server “%s”: “${}” names no variable"),
                       self->file, path, self->name);
          g_string_free (out, TRUE);
          return NULL;
        }

      value = lookup_variable (environ, name);
      if (value != NULL && value[0] != '\0')
        {
          g_string_append (out, value);
          g_ptr_array_add (values, g_strdup (value));
        }
      else if (dash != NULL)
        g_string_append_len (out, dash + 2, close - (dash + 2));
      else if (value != NULL)
        ; /* set and empty: empty, as a shell does */
      else
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                       /* Translators: the first %s is a settings file, the second a JSON path, the third the server's name, then twice an environment variable's name */
                       _("%s: %s: server “%s” uses the environment variable %s, "
                         "which is not set and has no default (write ${%s:-default} to give one)"),
                       self->file, path, self->name, name, name);
          g_string_free (out, TRUE);
          return NULL;
        }

      p = close + 1;
    }

  return g_string_free (out, FALSE);
}

static gboolean
expand_member (McpServerConfig     *self,
               JsonObject          *object,
               const char          *member,
               const char * const  *environ,
               GPtrArray           *values,
               GError             **error)
{
  g_autofree char *path = mcp_json_path_append_member (self->json_path, member);
  JsonNode *node = json_object_get_member (object, member);
  char *expanded;

  if (node == NULL || !is_string (node))
    return TRUE;

  expanded = expand_string (self, json_node_get_string (node), path, environ, values, error);
  if (expanded == NULL)
    return FALSE;
  json_object_set_string_member (object, member, expanded);
  g_free (expanded);

  return TRUE;
}

static gboolean
expand_array (McpServerConfig     *self,
              JsonObject          *object,
              const char          *member,
              const char * const  *environ,
              GPtrArray           *values,
              GError             **error)
{
  g_autofree char *path = mcp_json_path_append_member (self->json_path, member);
  JsonNode *node = json_object_get_member (object, member);
  JsonArray *array;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return TRUE;

  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      g_autofree char *element_path = g_strdup_printf ("%s[%u]", path, i);
      g_autofree char *expanded = NULL;

      if (!is_string (element))
        continue;
      expanded = expand_string (self, json_node_get_string (element), element_path, environ, values, error);
      if (expanded == NULL)
        return FALSE;
      json_node_set_string (element, expanded);
    }

  return TRUE;
}

static gboolean
expand_map (McpServerConfig     *self,
            JsonObject          *object,
            const char          *member,
            const char * const  *environ,
            GPtrArray           *values,
            GError             **error)
{
  g_autofree char *path = mcp_json_path_append_member (self->json_path, member);
  JsonNode *node = json_object_get_member (object, member);
  JsonObjectIter iter;
  const char *key;
  JsonNode *value;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return TRUE;

  json_object_iter_init_ordered (&iter, json_node_get_object (node));
  while (json_object_iter_next_ordered (&iter, &key, &value))
    {
      g_autofree char *value_path = mcp_json_path_append_member (path, key);
      g_autofree char *expanded = NULL;

      if (!is_string (value))
        continue;
      expanded = expand_string (self, json_node_get_string (value), value_path, environ, values, error);
      if (expanded == NULL)
        return FALSE;
      json_node_set_string (value, expanded);
    }

  return TRUE;
}

McpServerConfig *
mcp_server_config_expand (McpServerConfig     *self,
                          const char * const  *environ,
                          GError             **error)
{
  g_autoptr(JsonObject) object = NULL;
  g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func (g_free);
  McpServerConfig *copy;

  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  object = copy_object (self->object);
  if (!expand_member (self, object, "command", environ, values, error) ||
      !expand_array (self, object, "args", environ, values, error) ||
      !expand_map (self, object, "env", environ, values, error) ||
      !expand_member (self, object, "url", environ, values, error) ||
      !expand_map (self, object, "headers", environ, values, error))
    return NULL;

  copy = mcp_server_config_new_from_json (self->name, self->scope, object,
                                          self->file, self->json_path, error);
  if (copy != NULL && self->enabled_overridden)
    {
      copy->enabled = self->enabled;
      copy->enabled_overridden = TRUE;
    }
  if (copy != NULL)
    {
      copy->unsaved = self->unsaved;
      g_ptr_array_add (values, NULL);
      copy->expanded_values = (char **) g_ptr_array_steal (values, NULL);
    }

  return copy;
}

/* Secrets */

static void
add_secret (GPtrArray  *secrets,
            const char *value)
{
  g_autofree char *copy = g_strstrip (g_strdup (value));

  if (*copy == '\0')
    return;
  for (guint i = 0; i < secrets->len; i++)
    {
      if (g_str_equal (secrets->pdata[i], copy))
        return;
    }
  g_ptr_array_add (secrets, g_steal_pointer (&copy));
}

/* The user info of @url ("user:pass", "pass") and its query's values,
 * as written and decoded. */
static void
add_url_secrets (GPtrArray  *secrets,
                 const char *url)
{
  g_autoptr(GUri) uri = NULL;
  const char *userinfo;
  const char *query;

  if (url == NULL)
    return;
  uri = g_uri_parse (url, G_URI_FLAGS_ENCODED | G_URI_FLAGS_PARSE_RELAXED, NULL);
  if (uri == NULL)
    return;

  userinfo = g_uri_get_userinfo (uri);
  if (userinfo != NULL)
    {
      const char *colon = strchr (userinfo, ':');

      add_secret (secrets, userinfo);
      if (colon != NULL)
        add_secret (secrets, colon + 1);
    }

  query = g_uri_get_query (uri);
  if (query != NULL)
    {
      g_auto(GStrv) pairs = g_strsplit_set (query, "&;", -1);

      for (guint i = 0; pairs[i] != NULL; i++)
        {
          const char *eq = strchr (pairs[i], '=');
          g_autofree char *decoded = NULL;

          if (eq == NULL)
            continue;
          add_secret (secrets, eq + 1);
          decoded = g_uri_unescape_string (eq + 1, NULL);
          if (decoded != NULL)
            add_secret (secrets, decoded);
        }
    }
}

char **
mcp_server_config_dup_secrets (McpServerConfig *self)
{
  g_autoptr(GPtrArray) secrets = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);

  for (guint i = 0; self->expanded_values != NULL && self->expanded_values[i] != NULL; i++)
    add_secret (secrets, self->expanded_values[i]);
  for (guint i = 0; self->env != NULL && self->env[i] != NULL; i++)
    {
      const char *eq = strchr (self->env[i], '=');

      if (eq != NULL)
        add_secret (secrets, eq + 1);
    }
  for (guint i = 0; self->headers != NULL && self->headers[i] != NULL; i++)
    {
      const char *colon = strchr (self->headers[i], ':');

      if (colon != NULL)
        add_secret (secrets, colon + 1);
    }
  add_url_secrets (secrets, self->url);

  g_ptr_array_add (secrets, NULL);
  return (char **) g_ptr_array_steal (secrets, NULL);
}

McpServerConfig *
mcp_server_config_copy_disabled (McpServerConfig *self,
                                 const char      *reason)
{
  McpServerConfig *copy;

  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);

  copy = mcp_server_config_new_from_json (self->name, self->scope, self->object,
                                          self->file, self->json_path, NULL);
  g_assert (copy != NULL);
  copy->enabled = FALSE;
  copy->enabled_overridden = TRUE;
  copy->unsaved = self->unsaved;
  copy->disabled_reason = g_strdup (reason);

  return copy;
}

McpServerConfig *
mcp_server_config_copy_approved (McpServerConfig *self,
                                 const char      *digest)
{
  McpServerConfig *copy;

  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);
  g_return_val_if_fail (digest != NULL, NULL);

  copy = mcp_server_config_new_from_json (self->name, self->scope, self->object,
                                          self->file, self->json_path, NULL);
  g_assert (copy != NULL);
  copy->enabled = self->enabled;
  copy->enabled_overridden = self->enabled_overridden;
  copy->unsaved = self->unsaved;
  copy->approved_digest = g_strdup (digest);

  return copy;
}

const char *
mcp_server_config_get_disabled_reason (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);

  return self->disabled_reason;
}

const char *
mcp_server_config_get_approved_digest (McpServerConfig *self)
{
  g_return_val_if_fail (MCP_IS_SERVER_CONFIG (self), NULL);
  return self->approved_digest;
}
