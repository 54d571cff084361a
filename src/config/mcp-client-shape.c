/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client-shape"

#include "config.h"

#include "mcp-client-shape-private.h"

#include <string.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "mcp-server-config-private.h"

/* The MCP clients Plugboard knows: where each keeps its servers, and what
 * every conversion between their shapes and Plugboard's shares (notes,
 * variables, secrets, the entry already in the target's file). Each
 * client's own converters are in mcp-client-shape-json.c and
 * mcp-client-shape-other.c. */

static const struct
{
  const char          *id;
  const char          *display;
  const McpShapeClass *shape;
} kinds[] = {
  { "plugboard", "Plugboard", &mcp_shape_plugboard },
  { "claude-code", "Claude Code", &mcp_shape_claude_code },
  { "claude-desktop", "Claude Desktop", &mcp_shape_claude_desktop },
  { "vscode", "VS Code", &mcp_shape_vscode },
  { "cursor", "Cursor", &mcp_shape_cursor },
  { "windsurf", "Windsurf", &mcp_shape_windsurf },
  { "gemini", "Gemini CLI", &mcp_shape_gemini },
  { "codex", "Codex", &mcp_shape_codex },
  { "zed", "Zed", &mcp_shape_zed },
  { "goose", "Goose", &mcp_shape_goose },
};

G_STATIC_ASSERT (G_N_ELEMENTS (kinds) == MCP_CLIENT_KIND_COUNT);

/* Plugboard's own members (mcp-server-config.h) */
static const char * const plugboard_members[] = {
  "type", "command", "args", "env", "cwd", "url", "headers", "oauth",
  "ideLockDir", "ideName", "enabled", "disabled", "timeout", "toolTimeout",
  NULL
};

const char *
mcp_client_kind_to_id (McpClientKind kind)
{
  g_return_val_if_fail (kind < MCP_CLIENT_KIND_COUNT, NULL);

  return kinds[kind].id;
}

gboolean
mcp_client_kind_from_id (const char     *id,
                         McpClientKind  *kind)
{
  g_return_val_if_fail (kind != NULL, FALSE);

  for (guint i = 0; id != NULL && i < G_N_ELEMENTS (kinds); i++)
    {
      if (g_str_equal (id, kinds[i].id))
        {
          *kind = i;
          return TRUE;
        }
    }

  return FALSE;
}

const char *
mcp_client_kind_get_display_name (McpClientKind kind)
{
  g_return_val_if_fail (kind < MCP_CLIENT_KIND_COUNT, NULL);

  return kinds[kind].display;
}

const char *
mcp_client_kind_list_ids (void)
{
  return "plugboard, claude-code, claude-desktop, vscode, cursor, windsurf, gemini, codex, zed, goose";
}

/* ------------------------------------------------------------------------ */
/* Files                                                                    */

void
mcp_client_file_free (McpClientFile *self)
{
  if (self == NULL)
    return;

  g_free (self->path);
  g_strfreev (self->container);
  g_free (self);
}

static void
add_file (GPtrArray      *files,
          McpClientKind   kind,
          McpConfigScope  scope,
          char           *path,
          McpJsonDialect  dialect,
          ...)
{
  McpClientFile *file = g_new0 (McpClientFile, 1);
  g_autoptr(GStrvBuilder) container = g_strv_builder_new ();
  const char *member;
  va_list args;

  va_start (args, dialect);
  while ((member = va_arg (args, const char *)) != NULL)
    g_strv_builder_add (container, member);
  va_end (args);

  file->kind = kind;
  file->scope = scope;
  file->path = path;
  file->dialect = dialect;
  file->container = g_strv_builder_end (container);
  g_ptr_array_add (files, file);
}

static gboolean
same_file (const char *a,
           const char *b)
{
  GStatBuf sa, sb;

  if (g_strcmp0 (a, b) == 0)
    return TRUE;
  return g_stat (a, &sa) == 0 && g_stat (b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* A project that is the home folder (or links to it) makes Cursor's,
 * Gemini's and Zed's project file the user file itself: the client reads
 * it as its global settings, so it is the user scope only, and its servers
 * are not taken for project servers that wait for approval. */
static void
drop_project_file_that_is_user_file (GPtrArray *files)
{
  McpClientFile *user = NULL;

  for (guint i = 0; i < files->len; i++)
    {
      McpClientFile *file = files->pdata[i];

      if (file->scope == MCP_CONFIG_SCOPE_USER)
        user = file;
    }
  if (user == NULL)
    return;

  for (guint i = files->len; i > 0; i--)
    {
      McpClientFile *file = files->pdata[i - 1];

      if (file->scope == MCP_CONFIG_SCOPE_PROJECT && same_file (file->path, user->path) &&
          g_strv_equal ((const char * const *) file->container, (const char * const *) user->container))
        g_ptr_array_remove_index (files, i - 1);
    }
}

GPtrArray *
mcp_client_kind_dup_files (McpClientKind  kind,
                           const char    *home,
                           const char    *config_home,
                           const char    *plugboard_dir,
                           const char    *project_dir)
{
  GPtrArray *files = g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_client_file_free);
  g_autofree char *project = NULL;

  g_return_val_if_fail (kind < MCP_CLIENT_KIND_COUNT, files);

  if (home == NULL)
    home = g_get_home_dir ();
  if (config_home == NULL)
    config_home = g_get_user_config_dir ();
  /* the key Claude Code (and Plugboard) keeps a project's own part under */
  if (project_dir != NULL)
    project = g_canonicalize_filename (project_dir, NULL);

  switch (kind)
    {
    case MCP_CLIENT_KIND_PLUGBOARD:
      {
        g_autofree char *dir = plugboard_dir != NULL ? g_strdup (plugboard_dir)
                                                     : g_build_filename (config_home, "plugboard", NULL);

        add_file (files, kind, MCP_CONFIG_SCOPE_USER, g_build_filename (dir, "settings.json", NULL),
                  MCP_JSON_DIALECT_JSON, "mcpServers", NULL);
        if (project != NULL)
          {
            add_file (files, kind, MCP_CONFIG_SCOPE_PROJECT, g_build_filename (project, ".mcp.json", NULL),
                      MCP_JSON_DIALECT_JSON, "mcpServers", NULL);
            add_file (files, kind, MCP_CONFIG_SCOPE_LOCAL, g_build_filename (dir, "settings.json", NULL),
                      MCP_JSON_DIALECT_JSON, "projects", project, "mcpServers", NULL);
          }
        break;
      }

    case MCP_CLIENT_KIND_CLAUDE_CODE:
      add_file (files, kind, MCP_CONFIG_SCOPE_USER, g_build_filename (home, ".claude.json", NULL),
                MCP_JSON_DIALECT_JSON, "mcpServers", NULL);
      if (project != NULL)
        {
          add_file (files, kind, MCP_CONFIG_SCOPE_PROJECT, g_build_filename (project, ".mcp.json", NULL),
                    MCP_JSON_DIALECT_JSON, "mcpServers", NULL);
          add_file (files, kind, MCP_CONFIG_SCOPE_LOCAL, g_build_filename (home, ".claude.json", NULL),
                    MCP_JSON_DIALECT_JSON, "projects", project, "mcpServers", NULL);
        }
      break;

    case MCP_CLIENT_KIND_CLAUDE_DESKTOP:
      add_file (files, kind, MCP_CONFIG_SCOPE_USER,
                g_build_filename (config_home, "Claude", "claude_desktop_config.json", NULL),
                MCP_JSON_DIALECT_JSON, "mcpServers", NULL);
      break;

    case MCP_CLIENT_KIND_VSCODE:
      {
        g_autofree char *mcp_json = g_build_filename (config_home, "Code", "User", "mcp.json", NULL);

        /* VS Code moved the user's servers from settings.json "mcp" to
         * their own file; a person who has that file uses it */
        if (g_file_test (mcp_json, G_FILE_TEST_EXISTS))
          add_file (files, kind, MCP_CONFIG_SCOPE_USER, g_steal_pointer (&mcp_json),
                    MCP_JSON_DIALECT_JSONC, "servers", NULL);
        else
          add_file (files, kind, MCP_CONFIG_SCOPE_USER,
                    g_build_filename (config_home, "Code", "User", "settings.json", NULL),
                    MCP_JSON_DIALECT_JSONC, "mcp", "servers", NULL);
        if (project != NULL)
          add_file (files, kind, MCP_CONFIG_SCOPE_PROJECT, g_build_filename (project, ".vscode", "mcp.json", NULL),
                    MCP_JSON_DIALECT_JSONC, "servers", NULL);
        break;
      }

    case MCP_CLIENT_KIND_CURSOR:
      add_file (files, kind, MCP_CONFIG_SCOPE_USER, g_build_filename (home, ".cursor", "mcp.json", NULL),
                MCP_JSON_DIALECT_JSON, "mcpServers", NULL);
      if (project != NULL)
        add_file (files, kind, MCP_CONFIG_SCOPE_PROJECT, g_build_filename (project, ".cursor", "mcp.json", NULL),
                  MCP_JSON_DIALECT_JSON, "mcpServers", NULL);
      break;

    case MCP_CLIENT_KIND_WINDSURF:
      add_file (files, kind, MCP_CONFIG_SCOPE_USER,
                g_build_filename (home, ".codeium", "windsurf", "mcp_config.json", NULL),
                MCP_JSON_DIALECT_JSON, "mcpServers", NULL);
      break;

    case MCP_CLIENT_KIND_GEMINI:
      /* Gemini CLI strips comments from its settings files */
      add_file (files, kind, MCP_CONFIG_SCOPE_USER, g_build_filename (home, ".gemini", "settings.json", NULL),
                MCP_JSON_DIALECT_JSONC, "mcpServers", NULL);
      if (project != NULL)
        add_file (files, kind, MCP_CONFIG_SCOPE_PROJECT,
                  g_build_filename (project, ".gemini", "settings.json", NULL),
                  MCP_JSON_DIALECT_JSONC, "mcpServers", NULL);
      break;

    case MCP_CLIENT_KIND_CODEX:
      add_file (files, kind, MCP_CONFIG_SCOPE_USER, g_build_filename (home, ".codex", "config.toml", NULL),
                MCP_JSON_DIALECT_TOML, "mcp_servers", NULL);
      break;

    case MCP_CLIENT_KIND_ZED:
      add_file (files, kind, MCP_CONFIG_SCOPE_USER, g_build_filename (config_home, "zed", "settings.json", NULL),
                MCP_JSON_DIALECT_JSONC, "context_servers", NULL);
      if (project != NULL)
        add_file (files, kind, MCP_CONFIG_SCOPE_PROJECT, g_build_filename (project, ".zed", "settings.json", NULL),
                  MCP_JSON_DIALECT_JSONC, "context_servers", NULL);
      break;

    case MCP_CLIENT_KIND_GOOSE:
      add_file (files, kind, MCP_CONFIG_SCOPE_USER, g_build_filename (config_home, "goose", "config.yaml", NULL),
                MCP_JSON_DIALECT_YAML, "extensions", NULL);
      break;

    default:
      g_assert_not_reached ();
    }

  drop_project_file_that_is_user_file (files);
  return files;
}

gboolean
mcp_client_kind_is_present (McpClientKind  kind,
                            const char    *home,
                            const char    *config_home)
{
  g_autoptr(GPtrArray) files = NULL;
  g_autofree char *folder = NULL;

  g_return_val_if_fail (kind < MCP_CLIENT_KIND_COUNT, FALSE);

  if (kind == MCP_CLIENT_KIND_PLUGBOARD)
    return TRUE;

  if (home == NULL)
    home = g_get_home_dir ();
  if (config_home == NULL)
    config_home = g_get_user_config_dir ();

  files = mcp_client_kind_dup_files (kind, home, config_home, NULL, NULL);
  for (guint i = 0; i < files->len; i++)
    {
      McpClientFile *file = g_ptr_array_index (files, i);

      if (g_file_test (file->path, G_FILE_TEST_EXISTS))
        return TRUE;
    }

  /* the folder the client keeps its settings in, made when it first ran */
  switch (kind)
    {
    case MCP_CLIENT_KIND_CLAUDE_CODE:
      folder = g_build_filename (home, ".claude", NULL);
      break;
    case MCP_CLIENT_KIND_CLAUDE_DESKTOP:
      folder = g_build_filename (config_home, "Claude", NULL);
      break;
    case MCP_CLIENT_KIND_VSCODE:
      folder = g_build_filename (config_home, "Code", "User", NULL);
      break;
    case MCP_CLIENT_KIND_CURSOR:
      folder = g_build_filename (home, ".cursor", NULL);
      break;
    case MCP_CLIENT_KIND_WINDSURF:
      folder = g_build_filename (home, ".codeium", "windsurf", NULL);
      break;
    case MCP_CLIENT_KIND_GEMINI:
      folder = g_build_filename (home, ".gemini", NULL);
      break;
    case MCP_CLIENT_KIND_CODEX:
      folder = g_build_filename (home, ".codex", NULL);
      break;
    case MCP_CLIENT_KIND_ZED:
      folder = g_build_filename (config_home, "zed", NULL);
      break;
    case MCP_CLIENT_KIND_GOOSE:
      folder = g_build_filename (config_home, "goose", NULL);
      break;
    default:
      g_assert_not_reached ();
    }

  return g_file_test (folder, G_FILE_TEST_IS_DIR);
}

/* ------------------------------------------------------------------------ */
/* What the converters share                                                */

void
mcp_shape_note (McpShapeRun *run,
                const char  *format,
                ...)
{
  g_autofree char *note = NULL;
  va_list args;

  if (run->notes == NULL)
    return;

  va_start (args, format);
  note = g_strdup_vprintf (format, args);
  va_end (args);

  for (guint i = 0; i < run->notes->len; i++)
    {
      if (g_str_equal (g_ptr_array_index (run->notes, i), note))
        return;
    }
  g_ptr_array_add (run->notes, g_steal_pointer (&note));
}

static gboolean
is_name_start (char c)
{
  return g_ascii_isalpha (c) || c == '_';
}

static gboolean
is_name_char (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

/* The length of the variable name at @p (0: none) */
static gsize
name_length (const char *p)
{
  gsize n = 0;

  if (!is_name_start (p[0]))
    return 0;
  while (is_name_char (p[n]))
    n++;
  return n;
}

/* Whether @inner (what is between "${" and "}") is one of Plugboard's
 * variables: NAME or NAME:-default; *@length is NAME's length. */
static gboolean
is_plugboard_variable (const char *inner,
                       gsize      *length)
{
  gsize n = name_length (inner);

  *length = n;
  return n > 0 && (inner[n] == '\0' || g_str_has_prefix (inner + n, ":-"));
}

/* A VS Code, Cursor or Windsurf variable, into Plugboard's syntax */
static void
editor_variable_in (McpShapeRun *run,
                    GString     *out,
                    const char  *inner)
{
  const char *client = mcp_client_kind_get_display_name (run->kind);
  const McpClientShapeContext *context = run->context;

  if (g_str_has_prefix (inner, "env:") && name_length (inner + 4) == strlen (inner + 4) && inner[4] != '\0')
    {
      g_string_append_printf (out, "${%s}", inner + 4);
    }
  else if (g_str_equal (inner, "userHome") && context != NULL && context->home != NULL)
    {
      g_string_append (out, context->home);
    }
  else if (g_str_equal (inner, "workspaceFolder") && context != NULL && context->project_dir != NULL)
    {
      g_string_append (out, context->project_dir);
    }
  else if (g_str_equal (inner, "workspaceFolder"))
    {
      g_string_append_printf (out, "${%s}", inner);
      mcp_shape_note (run, "%s", _("“${workspaceFolder}” is kept as it is: there is no project folder "
                                   "here; replace it with the folder"));
    }
  else if (g_str_has_prefix (inner, "input:") && run->kind == MCP_CLIENT_KIND_VSCODE)
    {
      const char *id = inner + strlen ("input:");
      const char *description = NULL;
      JsonArray *inputs = context != NULL ? context->inputs : NULL;

      for (guint i = 0; inputs != NULL && i < json_array_get_length (inputs); i++)
        {
          JsonNode *node = json_array_get_element (inputs, i);

          if (JSON_NODE_HOLDS_OBJECT (node) &&
              g_strcmp0 (mcp_json_optional_string (json_node_get_object (node), "id", "VS Code input", NULL), id) == 0)
            description = mcp_json_optional_string (json_node_get_object (node), "description",
                                                    "VS Code input", id);
        }

      g_string_append_printf (out, "${%s}", inner);
      if (description != NULL)
        /* Translators: the first %s is a VS Code input's id, the second its description */
        mcp_shape_note (run, _("“${input:%s}” (%s) is asked by VS Code when it starts "
                               "the server: replace it with the value, or with a "
                               "${VARIABLE} from the environment"), id, description);
      else
        /* Translators: %s is a VS Code input's id */
        mcp_shape_note (run, _("“${input:%s}” is asked by VS Code when it starts the "
                               "server: replace it with the value, or with a "
                               "${VARIABLE} from the environment"), id);
    }
  else
    {
      g_string_append_printf (out, "${%s}", inner);
      /* Translators: the first %s is a variable such as “${pathSeparator}”, the second a client's name */
      mcp_shape_note (run, _("“${%s}” is a %s variable Plugboard does not know: replace it"),
                      inner, client);
    }
}

char *
mcp_shape_vars_in (McpShapeRun *run,
                   const char  *text)
{
  g_autoptr(GString) out = g_string_new (NULL);
  const char *p = text;

  if (run->vars == MCP_SHAPE_VARS_PLUGBOARD || run->vars == MCP_SHAPE_VARS_NONE)
    return g_strdup (text);

  while (*p != '\0')
    {
      const char *end;

      if (p[0] == '$' && p[1] == '{' && (end = strchr (p + 2, '}')) != NULL)
        {
          g_autofree char *inner = g_strndup (p + 2, end - p - 2);

          if (run->vars == MCP_SHAPE_VARS_EDITOR)
            editor_variable_in (run, out, inner);
          else
            g_string_append_printf (out, "${%s}", inner);
          p = end + 1;
        }
      else if (p[0] == '$' && run->vars == MCP_SHAPE_VARS_SHELL && name_length (p + 1) > 0)
        {
          /* Gemini CLI's $NAME */
          gsize n = name_length (p + 1);

          g_string_append (out, "${");
          g_string_append_len (out, p + 1, n);
          g_string_append_c (out, '}');
          p += 1 + n;
        }
      else
        {
          g_string_append_c (out, *p);
          p++;
        }
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}

char *
mcp_shape_vars_out (McpShapeRun *run,
                    const char  *text)
{
  g_autoptr(GString) out = g_string_new (NULL);
  const char *client = mcp_client_kind_get_display_name (run->kind);
  const char *p = text;

  if (run->vars == MCP_SHAPE_VARS_PLUGBOARD)
    return g_strdup (text);

  while (*p != '\0')
    {
      const char *end;
      g_autofree char *inner = NULL;
      gsize n;

      if (p[0] != '$' || p[1] != '{' || (end = strchr (p + 2, '}')) == NULL)
        {
          g_string_append_c (out, *p);
          p++;
          continue;
        }

      inner = g_strndup (p + 2, end - p - 2);
      p = end + 1;

      if (!is_plugboard_variable (inner, &n))
        {
          /* not Plugboard's: a VS Code ${input:…} going back to VS Code,
           * or text the target takes as it is */
          g_string_append_printf (out, "${%s}", inner);
          if (run->kind != MCP_CLIENT_KIND_VSCODE || !g_str_has_prefix (inner, "input:"))
            /* Translators: the first %s is a variable such as “${input:token}”, the second a client's name */
            mcp_shape_note (run, _("“${%s}”: %s does not expand it; it is written as it is"), inner, client);
          continue;
        }

      if (run->vars == MCP_SHAPE_VARS_NONE)
        {
          g_string_append_printf (out, "${%s}", inner);
          mcp_shape_note (run, _("“${%s}”: %s does not expand it; it is written as it is"), inner, client);
          continue;
        }

      if (run->vars == MCP_SHAPE_VARS_EDITOR)
        g_string_append (out, "${env:");
      else
        g_string_append (out, "${");
      g_string_append_len (out, inner, n);
      g_string_append_c (out, '}');

      if (inner[n] != '\0')
        /* Translators: the first %s is a variable with its default, “${PORT:-8080}”; the second a client's name */
        mcp_shape_note (run, _("“${%s}”: %s has no default values for variables; the default is left out"),
                        inner, client);
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}

static JsonNode *
map_strings (McpShapeRun  *run,
             JsonNode     *node,
             char       *(*convert) (McpShapeRun *, const char *))
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *copy = json_object_new ();
      JsonNode *out = json_node_alloc ();
      JsonObjectIter iter;
      const char *member;
      JsonNode *value;

      json_object_iter_init_ordered (&iter, json_node_get_object (node));
      while (json_object_iter_next_ordered (&iter, &member, &value))
        json_object_set_member (copy, member, map_strings (run, value, convert));
      json_node_init_object (out, copy);
      json_object_unref (copy);
      return out;
    }

  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);
      JsonArray *copy = json_array_sized_new (json_array_get_length (array));
      JsonNode *out = json_node_alloc ();

      for (guint i = 0; i < json_array_get_length (array); i++)
        json_array_add_element (copy, map_strings (run, json_array_get_element (array, i), convert));
      json_node_init_array (out, copy);
      json_array_unref (copy);
      return out;
    }

  if (mcp_server_config_is_string (node))
    {
      g_autofree char *text = convert (run, json_node_get_string (node));

      return json_node_init_string (json_node_alloc (), text);
    }

  return json_node_copy (node);
}

JsonNode *
mcp_shape_vars_in_node (McpShapeRun *run,
                        JsonNode    *node)
{
  return map_strings (run, node, mcp_shape_vars_in);
}

JsonNode *
mcp_shape_vars_out_node (McpShapeRun *run,
                         JsonNode    *node)
{
  return map_strings (run, node, mcp_shape_vars_out);
}

gboolean
mcp_shape_copy_in (McpShapeRun *run,
                   JsonObject  *native,
                   const char  *member,
                   JsonObject  *out,
                   const char  *out_member)
{
  JsonNode *node = json_object_get_member (native, member);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return FALSE;
  json_object_set_member (out, out_member, mcp_shape_vars_in_node (run, node));
  return TRUE;
}

gboolean
mcp_shape_copy_out (McpShapeRun *run,
                    JsonObject  *entry,
                    const char  *member,
                    JsonObject  *out,
                    const char  *out_member)
{
  JsonNode *node = json_object_get_member (entry, member);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return FALSE;
  json_object_set_member (out, out_member, mcp_shape_vars_out_node (run, node));
  return TRUE;
}

const char *
mcp_shape_entry_transport (McpShapeRun  *run,
                           JsonObject   *entry,
                           GError      **error)
{
  const char *type = mcp_json_optional_string (entry, "type", "server", run->name);
  const char *url;

  if (type != NULL)
    {
      for (guint i = 0; i < G_N_ELEMENTS (mcp_server_config_transport_names); i++)
        {
          if (g_str_equal (type, mcp_server_config_transport_names[i]))
            return mcp_server_config_transport_names[i];
        }
      if (g_str_equal (type, "streamable-http") || g_str_equal (type, "streamableHttp"))
        return "http";
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   /* Translators: the first %s is a server's name, the second what its “type” says */
                   _("The server “%s” has the “type” “%s”, which is not one Plugboard knows"),
                   run->name, type);
      return NULL;
    }

  if (mcp_json_optional_string (entry, "command", "server", run->name) != NULL)
    return "stdio";

  url = mcp_json_optional_string (entry, "url", "server", run->name);
  if (url != NULL)
    {
      g_autoptr(GUri) uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);

      return g_str_has_suffix (uri != NULL ? g_uri_get_path (uri) : url, "/sse") ? "sse" : "http";
    }

  g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
               /* Translators: %s is a server's name; the quoted words are setting names, keep them */
               _("The server “%s” has neither a “command” nor a “url”: it is not a server"),
               run->name);
  return NULL;
}

void
mcp_shape_set_cannot_run (McpShapeRun  *run,
                          GError      **error,
                          const char   *why)
{
  g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
               /* Translators: the first %s is a client's name, the second a server's, the third why */
               _("%s cannot run the server “%s”: %s"),
               mcp_client_kind_get_display_name (run->kind), run->name, why);
}

void
mcp_shape_drop (McpShapeRun *run,
                JsonObject  *entry,
                const char  *member)
{
  if (!json_object_has_member (entry, member))
    return;

  /* Translators: the first %s is a setting's name, the second a client's */
  mcp_shape_note (run, _("%s: %s has no such setting; left out"),
                  member, mcp_client_kind_get_display_name (run->kind));
}

gboolean
mcp_shape_entry_enabled (JsonObject *entry)
{
  JsonNode *enabled = json_object_get_member (entry, "enabled");
  JsonNode *disabled = json_object_get_member (entry, "disabled");

  if (enabled != NULL && JSON_NODE_HOLDS_VALUE (enabled) &&
      json_node_get_value_type (enabled) == G_TYPE_BOOLEAN && !json_node_get_boolean (enabled))
    return FALSE;
  if (disabled != NULL && JSON_NODE_HOLDS_VALUE (disabled) &&
      json_node_get_value_type (disabled) == G_TYPE_BOOLEAN && json_node_get_boolean (disabled))
    return FALSE;
  return TRUE;
}

gint64
mcp_shape_get_count (JsonObject *object,
                     const char *member)
{
  JsonNode *node = json_object_get_member (object, member);
  GType type;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return -1;

  type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64)
    return json_node_get_int (node) >= 0 ? json_node_get_int (node) : -1;
  if (type == G_TYPE_DOUBLE)
    {
      double value = json_node_get_double (node);

      if (value >= 0 && value < 1e15)
        return (gint64) value;
    }
  return -1;
}

gboolean
mcp_shape_is_secret_name (const char *name)
{
  static const char * const words[] = { "KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", NULL };
  g_autofree char *upper = g_ascii_strup (name, -1);

  if (g_ascii_strcasecmp (name, "Authorization") == 0)
    return TRUE;
  for (guint i = 0; words[i] != NULL; i++)
    {
      if (strstr (upper, words[i]) != NULL)
        return TRUE;
    }
  return FALSE;
}

static gboolean
has_input (JsonArray  *inputs,
           const char *id)
{
  for (guint i = 0; inputs != NULL && i < json_array_get_length (inputs); i++)
    {
      JsonNode *node = json_array_get_element (inputs, i);

      if (JSON_NODE_HOLDS_OBJECT (node) &&
          g_strcmp0 (mcp_json_optional_string (json_node_get_object (node), "id", "VS Code input", NULL), id) == 0)
        return TRUE;
    }
  return FALSE;
}

static void
add_input (McpShapeRun *run,
           const char  *id,
           const char  *description)
{
  JsonObject *input = json_object_new ();

  json_object_set_string_member (input, "type", "promptString");
  json_object_set_string_member (input, "id", id);
  json_object_set_string_member (input, "description", description);
  json_object_set_boolean_member (input, "password", TRUE);
  json_array_add_object_element (run->context->new_inputs, input);
}

char *
mcp_shape_secret_to_input (McpShapeRun *run,
                           const char  *what,
                           const char  *value)
{
  g_autoptr(GString) id = g_string_new (NULL);
  g_autofree char *base_id = NULL;
  g_autofree char *description = NULL;
  const char *prefix = "";

  if (run->context == NULL || run->context->new_inputs == NULL ||
      !mcp_shape_is_secret_name (what) || value[0] == '\0' || strstr (value, "${") != NULL)
    return NULL;

  /* "Bearer TOKEN": the scheme stays in the file, the token is asked for */
  if (g_ascii_strncasecmp (value, "Bearer ", 7) == 0 || g_ascii_strncasecmp (value, "Basic ", 6) == 0)
    {
      prefix = g_ascii_strncasecmp (value, "Bearer ", 7) == 0 ? "Bearer " : "Basic ";
    }

  for (const char *p = run->name; *p != '\0'; p++)
    g_string_append_c (id, g_ascii_isalnum (*p) ? g_ascii_tolower (*p) : '-');
  g_string_append_c (id, '-');
  for (const char *p = what; *p != '\0'; p++)
    g_string_append_c (id, g_ascii_isalnum (*p) ? g_ascii_tolower (*p) : '-');

  base_id = g_strdup (id->str);
  for (guint n = 2; has_input (run->context->inputs, id->str) || has_input (run->context->new_inputs, id->str); n++)
    g_string_printf (id, "%s-%u", base_id, n);

  description = g_strdup_printf ("%s: %s", run->name, what);
  add_input (run, id->str, description);
  /* Translators: the first %s is an environment variable's or header's name, the second a VS Code input's id */
  mcp_shape_note (run, _("%s: VS Code asks for it (“${input:%s}”) when it starts the server"), what, id->str);

  return g_strdup_printf ("%s${input:%s}", prefix, id->str);
}

void
mcp_shape_ensure_inputs (McpShapeRun *run,
                         const char  *text)
{
  const char *p = text;

  if (run->context == NULL || run->context->new_inputs == NULL)
    return;

  while ((p = strstr (p, "${input:")) != NULL)
    {
      const char *end = strchr (p, '}');
      g_autofree char *id = NULL;

      if (end == NULL)
        break;
      id = g_strndup (p + strlen ("${input:"), end - p - strlen ("${input:"));
      if (!has_input (run->context->inputs, id) && !has_input (run->context->new_inputs, id))
        add_input (run, id, id);
      p = end + 1;
    }
}

static gboolean
strv_has (const char * const *strv,
          const char         *member)
{
  return strv != NULL && g_strv_contains (strv, member);
}

/* ------------------------------------------------------------------------ */
/* The conversions                                                          */

JsonObject *
mcp_client_shape_to_plugboard (McpClientKind                 kind,
                               const char                   *name,
                               JsonObject                   *native,
                               const McpClientShapeContext  *context,
                               GPtrArray                    *notes,
                               GError                      **error)
{
  const McpShapeClass *shape;
  McpShapeRun run = { kind, name, context, notes, 0 };
  g_autoptr(JsonObject) entry = NULL;
  JsonObjectIter iter;
  const char *member;
  JsonNode *value;

  g_return_val_if_fail (kind < MCP_CLIENT_KIND_COUNT, NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (native != NULL, NULL);

  shape = kinds[kind].shape;
  run.vars = shape->vars;
  entry = shape->to_plugboard (&run, native, error);
  if (entry == NULL)
    return NULL;

  /* what Plugboard does not understand stays, for the way back */
  json_object_iter_init_ordered (&iter, native);
  while (json_object_iter_next_ordered (&iter, &member, &value))
    {
      if (shape->mapped == NULL || strv_has (shape->mapped, member) || json_object_has_member (entry, member))
        continue;
      json_object_set_member (entry, member, json_node_copy (value));
      /* Translators: %s is a setting's name */
      mcp_shape_note (&run, _("%s: kept, not used by Plugboard"), member);
    }

  return g_steal_pointer (&entry);
}

/* @result laid out as @base is: @base's members in their order (its own
 * value where it means the same as the new one, so its spelling of
 * variables stays), the members the shape does not map kept, the mapped
 * ones that are gone removed; then what is new. */
static JsonObject *
merge_base (McpShapeRun         *run,
            const McpShapeClass *shape,
            JsonObject          *result,
            JsonObject          *base)
{
  JsonObject *merged = json_object_new ();
  JsonObjectIter iter;
  const char *member;
  JsonNode *value;
  McpShapeRun quiet = *run;

  quiet.notes = NULL;

  json_object_iter_init_ordered (&iter, base);
  while (json_object_iter_next_ordered (&iter, &member, &value))
    {
      JsonNode *now = json_object_get_member (result, member);

      if (now != NULL)
        {
          g_autoptr(JsonNode) was_in = mcp_shape_vars_in_node (&quiet, value);
          g_autoptr(JsonNode) now_in = mcp_shape_vars_in_node (&quiet, now);

          json_object_set_member (merged, member,
                                  json_node_copy (mcp_json_equal (was_in, now_in) ? value : now));
        }
      else if (shape->mapped != NULL && !strv_has (shape->mapped, member))
        json_object_set_member (merged, member, json_node_copy (value));
    }

  json_object_iter_init_ordered (&iter, result);
  while (json_object_iter_next_ordered (&iter, &member, &value))
    {
      if (!json_object_has_member (merged, member))
        json_object_set_member (merged, member, json_node_copy (value));
    }

  return merged;
}

JsonObject *
mcp_client_shape_from_plugboard (McpClientKind                 kind,
                                 const char                   *name,
                                 JsonObject                   *entry,
                                 JsonObject                   *base,
                                 const McpClientShapeContext  *context,
                                 GPtrArray                    *notes,
                                 GError                      **error)
{
  const McpShapeClass *shape;
  McpShapeRun run = { kind, name, context, notes, 0 };
  g_autoptr(JsonObject) result = NULL;
  JsonObjectIter iter;
  const char *member;
  JsonNode *value;

  g_return_val_if_fail (kind < MCP_CLIENT_KIND_COUNT, NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (entry != NULL, NULL);

  shape = kinds[kind].shape;
  run.vars = shape->vars;
  result = shape->from_plugboard (&run, entry, base, error);
  if (result == NULL)
    return NULL;

  /* members from another client's file: passed on when this client knows
   * them, else named */
  json_object_iter_init_ordered (&iter, entry);
  while (json_object_iter_next_ordered (&iter, &member, &value))
    {
      if (strv_has (plugboard_members, member) || json_object_has_member (result, member) ||
          shape->mapped == NULL)
        continue;
      if (strv_has (shape->known, member))
        json_object_set_member (result, member, json_node_copy (value));
      else
        mcp_shape_drop (&run, entry, member);
    }

  if (base != NULL)
    return merge_base (&run, shape, result, base);

  return g_steal_pointer (&result);
}
