/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client-import"

#include "config.h"

#include "mcp-client-import-private.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-config-file.h"
#include "mcp-json-document.h"
#include "mcp-json-private.h"
#include "mcp-server-config-private.h"

typedef enum
{
  DIALECT_PLAIN,   /* Claude Desktop, Claude Code, Cursor: our own shape */
  DIALECT_VSCODE,  /* JSON with comments, ${env:…}, ${workspaceFolder}, ${input:…} */
} Dialect;

typedef struct
{
  char *home;
  char *project_dir;
} ScanData;

typedef struct
{
  GPtrArray *candidates;
  GPtrArray *problems;
} ScanResult;

typedef struct
{
  const ScanData *data;
  GPtrArray      *candidates;
  GPtrArray      *problems;
} Scan;

void
mcp_import_candidate_free (McpImportCandidate *self)
{
  if (self == NULL)
    return;

  g_free (self->client);
  g_free (self->file);
  g_free (self->name);
  g_clear_pointer (&self->entry, json_object_unref);
  g_free (self->note);
  g_free (self);
}

static void
scan_data_free (ScanData *data)
{
  g_free (data->home);
  g_free (data->project_dir);
  g_free (data);
}

static void
scan_result_free (ScanResult *result)
{
  g_clear_pointer (&result->candidates, g_ptr_array_unref);
  g_clear_pointer (&result->problems, g_ptr_array_unref);
  g_free (result);
}

static void
add_problem (Scan       *scan,
             const char *format,
             ...) G_GNUC_PRINTF (2, 3);

static void
add_problem (Scan       *scan,
             const char *format,
             ...)
{
  va_list args;
  char *message;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_debug ("%s", message);
  g_ptr_array_add (scan->problems, message);
}

/* The file's top-level object; NULL when there is no file (silently) or it
 * cannot be read (a problem). */
/* The file's top-level object; NULL when it is not an object (a problem). */
static JsonObject *
parse_root (Scan       *scan,
            const char *path,
            const char *contents,
            gsize       length,
            Dialect     dialect)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;

  /* VS Code's files allow comments and trailing commas */
  root = mcp_json_document_parse (contents, length,
                                  dialect == DIALECT_VSCODE ? MCP_JSON_DIALECT_JSONC : MCP_JSON_DIALECT_JSON,
                                  &error);
  if (root == NULL)
    {
      add_problem (scan, _("%s: not valid JSON: %s (its servers are not imported)"),
                   path, error->message);
      return NULL;
    }

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      add_problem (scan, _("%s: $: expected an object (its servers are not imported)"), path);
      return NULL;
    }

  return json_object_ref (json_node_get_object (root));
}

/* The file's bytes; NULL when there is no file (silently) or it cannot be
 * read (a problem). */
static GBytes *
load_file (Scan       *scan,
           const char *path)
{
  g_autoptr(GError) error = NULL;
  GBytes *bytes;

  /* a regular file of at most 16 MiB: a FIFO or a device never blocks */
  bytes = mcp_config_file_read (path, &error);
  if (bytes == NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    add_problem (scan, _("%s (its servers are not imported)"), error->message);

  return bytes;
}

/* ------------------------------------------------------------------------ */
/* VS Code's variables                                                      */

typedef struct
{
  const ScanData *data;
  JsonObject     *inputs;     /* id → description, from the file's "inputs" */
  GPtrArray      *notes;
} Convert;

static void
add_note (Convert    *convert,
          const char *note)
{
  for (guint i = 0; i < convert->notes->len; i++)
    {
      if (g_str_equal (g_ptr_array_index (convert->notes, i), note))
        return;
    }

  g_ptr_array_add (convert->notes, g_strdup (note));
}

static char *
convert_string (Convert    *convert,
                const char *text)
{
  g_autoptr(GString) out = g_string_new (NULL);
  const char *p = text;

  while (*p != '\0')
    {
      const char *start = strstr (p, "${");
      const char *end;
      g_autofree char *variable = NULL;

      if (start == NULL || (end = strchr (start + 2, '}')) == NULL)
        {
          g_string_append (out, p);
          break;
        }

      g_string_append_len (out, p, start - p);
      variable = g_strndup (start + 2, end - start - 2);
      p = end + 1;

      if (g_str_has_prefix (variable, "env:"))
        {
          g_string_append_printf (out, "${%s}", variable + strlen ("env:"));
        }
      else if (g_str_equal (variable, "workspaceFolder") && convert->data->project_dir != NULL)
        {
          g_string_append (out, convert->data->project_dir);
        }
      else if (g_str_equal (variable, "userHome"))
        {
          g_string_append (out, convert->data->home);
        }
      else if (g_str_equal (variable, "workspaceFolder"))
        {
          g_string_append_len (out, start, end + 1 - start);
          add_note (convert, _("“${workspaceFolder}” is kept as it is: there is no project folder "
                               "here; replace it with the folder"));
        }
      else if (g_str_has_prefix (variable, "input:"))
        {
          const char *id = variable + strlen ("input:");
          const char *description = NULL;
          g_autofree char *note = NULL;

          if (convert->inputs != NULL && json_object_has_member (convert->inputs, id))
            description = json_object_get_string_member (convert->inputs, id);

          g_string_append_len (out, start, end + 1 - start);
          if (description != NULL)
            /* Translators: the first %s is a VS Code input's id, the second its description */
            note = g_strdup_printf (_("“${input:%s}” (%s) is asked by VS Code when it starts "
                                      "the server: replace it with the value, or with a "
                                      "${VARIABLE} from the environment"), id, description);
          else
            /* Translators: %s is a VS Code input's id */
            note = g_strdup_printf (_("“${input:%s}” is asked by VS Code when it starts the "
                                      "server: replace it with the value, or with a "
                                      "${VARIABLE} from the environment"), id);
          add_note (convert, note);
        }
      else
        {
          g_autofree char *note = NULL;

          g_string_append_len (out, start, end + 1 - start);
          note = g_strdup_printf (_("“${%s}” is a VS Code variable Plugboard does not know: "
                                    "replace it"), variable);
          add_note (convert, note);
        }
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}

static JsonNode *convert_node (Convert  *convert,
                               JsonNode *node);

static JsonObject *
convert_object (Convert    *convert,
                JsonObject *object)
{
  JsonObject *copy = json_object_new ();
  JsonObjectIter iter;
  const char *member;
  JsonNode *value;

  json_object_iter_init_ordered (&iter, object);
  while (json_object_iter_next_ordered (&iter, &member, &value))
    json_object_set_member (copy, member, convert_node (convert, value));

  return copy;
}

static JsonNode *
convert_node (Convert  *convert,
              JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonNode *copy = json_node_alloc ();

      json_node_init_object (copy, NULL);
      json_node_take_object (copy, convert_object (convert, json_node_get_object (node)));
      return copy;
    }

  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);
      JsonArray *copy = json_array_sized_new (json_array_get_length (array));
      JsonNode *out = json_node_alloc ();

      for (guint i = 0; i < json_array_get_length (array); i++)
        json_array_add_element (copy, convert_node (convert, json_array_get_element (array, i)));

      json_node_init_array (out, NULL);
      json_node_take_array (out, copy);
      return out;
    }

  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    {
      g_autofree char *text = convert_string (convert, json_node_get_string (node));

      return json_node_init_string (json_node_alloc (), text);
    }

  return json_node_copy (node);
}

/* "inputs": [{ "id": "token", "type": "promptString", "description": "…" }] */
static JsonObject *
collect_inputs (JsonObject *root)
{
  JsonObject *inputs = json_object_new ();
  JsonNode *node = json_object_get_member (root, "inputs");
  JsonArray *array;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return inputs;

  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      const char *id;
      const char *description;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;

      id = mcp_json_optional_string (json_node_get_object (element), "id", "VS Code input", NULL);
      description = mcp_json_optional_string (json_node_get_object (element), "description",
                                              "VS Code input", id);
      if (id != NULL)
        json_object_set_string_member (inputs, id, description != NULL ? description : id);
    }

  return inputs;
}

/* ------------------------------------------------------------------------ */
/* Reading one file's servers                                               */

/* A "url" without "type" (Cursor, Claude Desktop's remote entries): the
 * other client picks the transport by trying; we say which. */
static void
guess_remote_type (JsonObject *entry,
                   GPtrArray  *notes)
{
  const char *url;
  const char *type;

  if (json_object_has_member (entry, "type") || json_object_has_member (entry, "command"))
    return;

  url = mcp_json_optional_string (entry, "url", "server", NULL);
  if (url == NULL)
    return;

  type = g_str_has_suffix (url, "/sse") ? "sse" : "http";
  json_object_set_string_member (entry, "type", type);
  g_ptr_array_add (notes, g_strdup_printf (_("No “type” was given: taken as “%s” from the URL"), type));
}

static void
read_servers (Scan           *scan,
              const char     *client,
              const char     *file,
              JsonObject     *root,
              const char     *container_path,
              JsonObject     *servers,
              McpConfigScope  scope,
              Dialect         dialect)
{
  g_autoptr(JsonObject) inputs = dialect == DIALECT_VSCODE ? collect_inputs (root) : NULL;
  JsonObjectIter iter;
  const char *name;
  JsonNode *value;

  json_object_iter_init_ordered (&iter, servers);
  while (json_object_iter_next_ordered (&iter, &name, &value))
    {
      g_autofree char *path = mcp_json_path_append_member (container_path, name);
      g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(JsonObject) entry = NULL;
      g_autoptr(McpServerConfig) config = NULL;
      g_autoptr(GError) error = NULL;
      McpImportCandidate *candidate;

      if (!JSON_NODE_HOLDS_OBJECT (value))
        {
          add_problem (scan, _("%s: %s: expected an object (the server is not imported)"), file, path);
          continue;
        }

      if (dialect == DIALECT_VSCODE)
        {
          Convert convert = { scan->data, inputs, notes };
          const char *env_file;

          entry = convert_object (&convert, json_node_get_object (value));
          env_file = mcp_json_optional_string (entry, "envFile", "server", name);
          if (env_file != NULL)
            {
              /* Translators: %s is a file name */
              g_ptr_array_add (notes, g_strdup_printf (_("“envFile” (%s) is not read: copy its "
                                                         "variables into “env”"), env_file));
              json_object_remove_member (entry, "envFile");
            }
        }
      else
        {
          JsonNode *copy = json_node_copy (value);

          entry = json_object_ref (json_node_get_object (copy));
          json_node_unref (copy);
        }

      guess_remote_type (entry, notes);

      config = mcp_server_config_new_from_json (name, scope, entry, file, path, &error);
      if (config == NULL)
        {
          add_problem (scan, _("%s (the server is not imported)"), error->message);
          continue;
        }

      candidate = g_new0 (McpImportCandidate, 1);
      candidate->client = g_strdup (client);
      candidate->file = g_strdup (file);
      candidate->name = g_strdup (name);
      candidate->entry = g_steal_pointer (&entry);
      candidate->scope = scope;
      if (notes->len > 0)
        {
          g_ptr_array_add (notes, NULL);
          candidate->note = g_strjoinv ("; ", (char **) notes->pdata);
        }
      g_ptr_array_add (scan->candidates, candidate);
    }
}

/* @object's member @container (a dotted list of members, from @base_path)
 * if it is an object: NULL when absent; a problem when it is something
 * else. */
static JsonObject *
get_container (Scan        *scan,
               const char  *file,
               JsonObject  *object,
               const char  *base_path,
               const char  *container,
               char       **out_path)
{
  g_auto(GStrv) members = g_strsplit (container, ".", -1);
  g_autofree char *path = g_strdup (base_path);

  for (guint i = 0; members[i] != NULL; i++)
    {
      JsonNode *node = json_object_get_member (object, members[i]);
      g_autofree char *next = mcp_json_path_append_member (path, members[i]);

      g_free (path);
      path = g_steal_pointer (&next);

      if (node == NULL || JSON_NODE_HOLDS_NULL (node))
        return NULL;
      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          add_problem (scan, _("%s: %s: expected an object (its servers are not imported)"), file, path);
          return NULL;
        }
      object = json_node_get_object (node);
    }

  *out_path = g_steal_pointer (&path);
  return object;
}

/* Where each format keeps its servers */
static const struct
{
  const char *client;
  const char *container;    /* dotted; NULL: Claude Code's own layout */
  Dialect     dialect;
} formats[] = {
  [MCP_IMPORT_CLAUDE_DESKTOP] = { "Claude Desktop", "mcpServers", DIALECT_PLAIN },
  [MCP_IMPORT_CLAUDE_CODE] = { "Claude Code", NULL, DIALECT_PLAIN },
  [MCP_IMPORT_VSCODE] = { "VS Code", "servers", DIALECT_VSCODE },
  [MCP_IMPORT_VSCODE_SETTINGS] = { "VS Code", "mcp.servers", DIALECT_VSCODE },
  [MCP_IMPORT_CURSOR] = { "Cursor", "mcpServers", DIALECT_PLAIN },
};

/* Claude Code turns a server off in one project by naming it in
 * projects[dir].disabledMcpServers: the candidates read since @first say
 * so ("disabled": true), and why. */
static void
mark_switched_off (Scan       *scan,
                   guint       first,
                   JsonObject *project)
{
  JsonNode *node = json_object_get_member (project, "disabledMcpServers");
  JsonArray *names;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return;

  names = json_node_get_array (node);
  for (guint i = first; i < scan->candidates->len; i++)
    {
      McpImportCandidate *candidate = scan->candidates->pdata[i];

      for (guint j = 0; j < json_array_get_length (names); j++)
        {
          JsonNode *name = json_array_get_element (names, j);
          const char *note = _("Turned off in this project in Claude Code");

          if (!JSON_NODE_HOLDS_VALUE (name) || json_node_get_value_type (name) != G_TYPE_STRING ||
              !g_str_equal (json_node_get_string (name), candidate->name))
            continue;

          json_object_set_boolean_member (candidate->entry, "disabled", TRUE);
          if (candidate->note == NULL)
            candidate->note = g_strdup (note);
          else
            {
              char *joined = g_strconcat (candidate->note, "; ", note, NULL);

              g_free (candidate->note);
              candidate->note = joined;
            }
          break;
        }
    }
}

/* Claude Code: ~/.claude.json has the user's servers and, per project
 * directory, the person's own ("local") servers for it. */
static void
import_claude_code (Scan       *scan,
                    const char *file,
                    JsonObject *root)
{
  g_autofree char *path = NULL;
  g_autofree char *project_path = NULL;
  g_autofree char *dir_path = NULL;
  guint first = scan->candidates->len;
  JsonObject *servers;
  JsonObject *projects;
  JsonNode *node;

  servers = get_container (scan, file, root, "$", "mcpServers", &path);
  if (servers != NULL)
    read_servers (scan, "Claude Code", file, root, path, servers,
                  MCP_CONFIG_SCOPE_USER, DIALECT_PLAIN);

  if (scan->data->project_dir == NULL)
    return;

  /* The project's key is its directory, which may hold dots: one member at
   * a time. */
  projects = get_container (scan, file, root, "$", "projects", &project_path);
  if (projects == NULL)
    return;

  node = json_object_get_member (projects, scan->data->project_dir);
  dir_path = mcp_json_path_append_member (project_path, scan->data->project_dir);
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      add_problem (scan, _("%s: %s: expected an object (its servers are not imported)"),
                   file, dir_path);
      return;
    }

  g_clear_pointer (&path, g_free);
  servers = get_container (scan, file, json_node_get_object (node), dir_path, "mcpServers", &path);
  if (servers != NULL)
    read_servers (scan, "Claude Code", file, root, path, servers,
                  MCP_CONFIG_SCOPE_LOCAL, DIALECT_PLAIN);

  mark_switched_off (scan, first, json_node_get_object (node));
}

static void
import_text (Scan            *scan,
             McpImportFormat  format,
             const char      *file,
             const char      *contents,
             gsize            length,
             McpConfigScope   scope)
{
  g_autoptr(JsonObject) root = parse_root (scan, file, contents, length, formats[format].dialect);
  g_autofree char *path = NULL;
  JsonObject *servers;

  if (root == NULL)
    return;

  if (formats[format].container == NULL)
    {
      import_claude_code (scan, file, root);
      return;
    }

  servers = get_container (scan, file, root, "$", formats[format].container, &path);
  if (servers != NULL)
    read_servers (scan, formats[format].client, file, root, path, servers, scope,
                  formats[format].dialect);
}

void
mcp_client_import_read (McpImportFormat  format,
                        const char      *file,
                        const char      *contents,
                        gsize            length,
                        McpConfigScope   scope,
                        const char      *home,
                        const char      *project_dir,
                        GPtrArray       *candidates,
                        GPtrArray       *problems)
{
  ScanData data = { (char *) home, (char *) project_dir };
  Scan scan = { &data, candidates, problems };

  g_return_if_fail (format < G_N_ELEMENTS (formats));

  import_text (&scan, format, file, contents, length, scope);
}

static void
scan_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  const ScanData *data = task_data;
  g_autoptr(GError) error = NULL;
  ScanResult *result;
  Scan scan = {
    .data = data,
    .candidates = g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_import_candidate_free),
    .problems = g_ptr_array_new_with_free_func (g_free),
  };
  struct
  {
    McpImportFormat  format;
    char            *file;
    McpConfigScope   scope;
  } files[] = {
    { MCP_IMPORT_CLAUDE_DESKTOP,
      g_build_filename (data->home, ".config", "Claude", "claude_desktop_config.json", NULL),
      MCP_CONFIG_SCOPE_USER },
    { MCP_IMPORT_CLAUDE_CODE, g_build_filename (data->home, ".claude.json", NULL), MCP_CONFIG_SCOPE_USER },
    { MCP_IMPORT_VSCODE, g_build_filename (data->home, ".config", "Code", "User", "mcp.json", NULL),
      MCP_CONFIG_SCOPE_USER },
    { MCP_IMPORT_VSCODE_SETTINGS,
      g_build_filename (data->home, ".config", "Code", "User", "settings.json", NULL),
      MCP_CONFIG_SCOPE_USER },
    { MCP_IMPORT_VSCODE,
      data->project_dir != NULL ? g_build_filename (data->project_dir, ".vscode", "mcp.json", NULL) : NULL,
      MCP_CONFIG_SCOPE_PROJECT },
    { MCP_IMPORT_CURSOR, g_build_filename (data->home, ".cursor", "mcp.json", NULL),
      MCP_CONFIG_SCOPE_USER },
    { MCP_IMPORT_CURSOR,
      data->project_dir != NULL ? g_build_filename (data->project_dir, ".cursor", "mcp.json", NULL) : NULL,
      MCP_CONFIG_SCOPE_PROJECT },
  };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      if (error == NULL && g_cancellable_set_error_if_cancelled (cancellable, &error))
        g_debug ("Import scan cancelled");

      if (error == NULL && files[i].file != NULL)
        {
          g_autoptr(GBytes) bytes = load_file (&scan, files[i].file);

          if (bytes != NULL)
            import_text (&scan, files[i].format, files[i].file,
                         g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), files[i].scope);
        }

      g_free (files[i].file);
    }

  if (error != NULL)
    {
      g_ptr_array_unref (scan.candidates);
      g_ptr_array_unref (scan.problems);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  result = g_new0 (ScanResult, 1);
  result->candidates = scan.candidates;
  result->problems = scan.problems;
  g_task_return_pointer (task, result, (GDestroyNotify) scan_result_free);
}

void
mcp_client_import_scan_async (const char          *home,
                              const char          *project_dir,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  ScanData *data;

  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  data = g_new0 (ScanData, 1);
  data->home = g_strdup (home != NULL ? home : g_get_home_dir ());
  data->project_dir = project_dir != NULL ? g_canonicalize_filename (project_dir, NULL) : NULL;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_client_import_scan_async);
  g_task_set_task_data (task, data, (GDestroyNotify) scan_data_free);
  g_task_run_in_thread (task, scan_thread);
}

/**
 * mcp_client_import_scan_finish:
 * @problems: (out) (optional): a GPtrArray of messages (char *), maybe empty
 */
GPtrArray *
mcp_client_import_scan_finish (GAsyncResult  *result,
                               GPtrArray    **problems,
                               GError       **error)
{
  ScanResult *scan_result;
  GPtrArray *candidates;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_client_import_scan_async, NULL);

  if (problems != NULL)
    *problems = NULL;

  scan_result = g_task_propagate_pointer (G_TASK (result), error);
  if (scan_result == NULL)
    return NULL;

  candidates = g_steal_pointer (&scan_result->candidates);
  if (problems != NULL)
    *problems = g_steal_pointer (&scan_result->problems);
  scan_result_free (scan_result);

  return candidates;
}
