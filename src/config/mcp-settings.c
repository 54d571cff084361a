/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-settings.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-json-private.h"
#include "mcp-server-config-private.h"

#define MAX_WRITE_ATTEMPTS 3

struct _McpSettings
{
  GObject          parent_instance;

  guint            loading;
  guint            writing : 1;
  guint            reload_pending : 1;
  guint            generation;

  /* owned */
  char            *user_config_dir;
  char            *project_dir;
  char            *user_path;
  char            *project_path;
  GFile           *user_file;
  GFile           *project_file;
  GFileMonitor    *user_monitor;
  GFileMonitor    *project_monitor;
  GCancellable    *cancellable;
  GBytes          *user_bytes;      /* as last loaded; NULL: no file */
  GBytes          *project_bytes;
  GListStore      *servers;
  GListStore      *shadowed;
  GPtrArray       *problems;
  GHashTable      *approvals;       /* name → McpApproval */
  GPtrArray       *pending;         /* names */
  char           **allow;
  char           **deny;
  char           **ask;
  GQueue           writes;          /* GTasks */
};

enum {
  PROP_0,
  PROP_USER_CONFIG_DIR,
  PROP_PROJECT_DIR,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (McpSettings, mcp_settings, G_TYPE_OBJECT)
G_DEFINE_BOXED_TYPE (McpSettingsProblem, mcp_settings_problem,
                     mcp_settings_problem_copy, mcp_settings_problem_free)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void start_load   (McpSettings *self,
                          GTask       *task);
static void run_next_write (McpSettings *self);

McpSettingsProblem *
mcp_settings_problem_copy (const McpSettingsProblem *problem)
{
  McpSettingsProblem *copy = g_new0 (McpSettingsProblem, 1);

  copy->file = g_strdup (problem->file);
  copy->json_path = g_strdup (problem->json_path);
  copy->message = g_strdup (problem->message);

  return copy;
}

void
mcp_settings_problem_free (McpSettingsProblem *problem)
{
  if (problem == NULL)
    return;

  g_free (problem->file);
  g_free (problem->json_path);
  g_free (problem->message);
  g_free (problem);
}

static void
add_problem (GPtrArray  *problems,
             const char *file,
             const char *json_path,
             const char *message)
{
  McpSettingsProblem *problem = g_new0 (McpSettingsProblem, 1);

  problem->file = g_strdup (file);
  problem->json_path = g_strdup (json_path);
  problem->message = g_strdup (message);
  g_debug ("%s", message);
  g_ptr_array_add (problems, problem);
}

/* Reading the documents */

static const char *
scope_file (McpSettings    *self,
            McpConfigScope  scope)
{
  return scope == MCP_CONFIG_SCOPE_PROJECT ? self->project_path : self->user_path;
}

static char *
local_path (McpSettings *self)
{
  return mcp_json_path_append_member ("$.projects", self->project_dir);
}

static JsonObject *
get_object_member (JsonObject  *object,
                   const char  *member,
                   const char  *file,
                   const char  *path,
                   GPtrArray   *problems)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  if (node == NULL)
    return NULL;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autofree char *where = mcp_json_path_append_member (path, member);
      g_autofree char *message = g_strdup_printf (_("%s: %s: expected an object"), file, where);

      add_problem (problems, file, where, message);
      return NULL;
    }

  return json_node_get_object (node);
}

static char **
get_strings (JsonObject *object,
             const char *member,
             const char *file,
             const char *path,
             GPtrArray  *problems)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autofree char *where = NULL;
  JsonArray *array;

  if (node == NULL)
    return NULL;

  where = mcp_json_path_append_member (path, member);
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      g_autofree char *message = g_strdup_printf (_("%s: %s: expected an array of strings"), file, where);

      add_problem (problems, file, where, message);
      return NULL;
    }

  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (!JSON_NODE_HOLDS_VALUE (element) || json_node_get_value_type (element) != G_TYPE_STRING)
        {
          g_autofree char *at = g_strdup_printf ("%s[%u]", where, i);
          g_autofree char *message = g_strdup_printf (_("%s: %s: expected a string (left out)"), file, at);

          add_problem (problems, file, at, message);
          continue;
        }
      g_strv_builder_add (builder, json_node_get_string (element));
    }

  return g_strv_builder_end (builder);
}

static JsonObject *
parse_document (GBytes     *bytes,
                const char *file,
                GPtrArray  *problems)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;
  gsize length;
  const char *data;

  if (bytes == NULL)
    return NULL;

  data = g_bytes_get_data (bytes, &length);
  root = mcp_json_parse (data, length, &error);
  if (root == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("%s: %s (the file is not changed until it is fixed)"),
                                                  file, error->message);

      add_problem (problems, file, "$", message);
      return NULL;
    }

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_autofree char *message = g_strdup_printf (_("%s: $: expected an object"), file);

      add_problem (problems, file, "$", message);
      return NULL;
    }

  return json_object_ref (json_node_get_object (root));
}

static void
read_servers (JsonObject     *servers,
              McpConfigScope  scope,
              const char     *file,
              const char     *path,
              GPtrArray      *configs,
              GPtrArray      *problems)
{
  JsonObjectIter iter;
  const char *name;
  JsonNode *node;

  if (servers == NULL)
    return;

  json_object_iter_init_ordered (&iter, servers);
  while (json_object_iter_next_ordered (&iter, &name, &node))
    {
      g_autofree char *where = mcp_json_path_append_member (path, name);
      g_autoptr(GError) error = NULL;
      McpServerConfig *config;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          g_autofree char *message = g_strdup_printf (_("%s: %s: expected an object (server “%s” is skipped)"),
                                                      file, where, name);

          add_problem (problems, file, where, message);
          continue;
        }

      config = mcp_server_config_new_from_json (name, scope, json_node_get_object (node),
                                                file, where, &error);
      if (config == NULL)
        {
          add_problem (problems, file, where, error->message);
          continue;
        }
      g_ptr_array_add (configs, config);
    }
}

static char **
concat_strv (char **a,
             char **b)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  if (a != NULL)
    g_strv_builder_addv (builder, (const char **)a);
  if (b != NULL)
    g_strv_builder_addv (builder, (const char **)b);

  return g_strv_builder_end (builder);
}

static gboolean
strv_contains (char       **strv,
               const char  *name)
{
  return strv != NULL && g_strv_contains ((const char * const *)strv, name);
}

/* Rebuilds the models from the bytes last read. */
static void
apply_documents (McpSettings *self)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify)mcp_settings_problem_free);
  g_autoptr(GPtrArray) configs = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) effective = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) shadowed = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GHashTable) winners = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(JsonObject) user = NULL;
  g_autoptr(JsonObject) project = NULL;
  g_autofree char *local = local_path (self);
  g_autofree char *local_servers_path = NULL;
  g_auto(GStrv) user_allow = NULL, user_deny = NULL, user_ask = NULL;
  g_auto(GStrv) local_allow = NULL, local_deny = NULL, local_ask = NULL;
  g_auto(GStrv) enabled = NULL, disabled = NULL;
  JsonObject *projects;
  JsonObject *entry;
  JsonObject *permissions;
  gboolean enable_all = FALSE;

  user = parse_document (self->user_bytes, self->user_path, problems);
  project = parse_document (self->project_bytes, self->project_path, problems);

  read_servers (get_object_member (user, "mcpServers", self->user_path, "$", problems),
                MCP_CONFIG_SCOPE_USER, self->user_path, "$.mcpServers", configs, problems);
  read_servers (get_object_member (project, "mcpServers", self->project_path, "$", problems),
                MCP_CONFIG_SCOPE_PROJECT, self->project_path, "$.mcpServers", configs, problems);

  projects = get_object_member (user, "projects", self->user_path, "$", problems);
  entry = get_object_member (projects, self->project_dir, self->user_path, "$.projects", problems);
  local_servers_path = mcp_json_path_append_member (local, "mcpServers");
  read_servers (get_object_member (entry, "mcpServers", self->user_path, local, problems),
                MCP_CONFIG_SCOPE_LOCAL, self->user_path, local_servers_path, configs, problems);

  enabled = get_strings (entry, "enabledMcpjsonServers", self->user_path, local, problems);
  disabled = get_strings (entry, "disabledMcpjsonServers", self->user_path, local, problems);
  if (entry != NULL && json_object_has_member (entry, "enableAllProjectMcpServers"))
    {
      JsonNode *node = json_object_get_member (entry, "enableAllProjectMcpServers");

      enable_all = JSON_NODE_HOLDS_VALUE (node) &&
                   json_node_get_value_type (node) == G_TYPE_BOOLEAN &&
                   json_node_get_boolean (node);
    }

  permissions = get_object_member (user, "permissions", self->user_path, "$", problems);
  user_allow = get_strings (permissions, "allow", self->user_path, "$.permissions", problems);
  user_deny = get_strings (permissions, "deny", self->user_path, "$.permissions", problems);
  user_ask = get_strings (permissions, "ask", self->user_path, "$.permissions", problems);
  {
    g_autofree char *path = mcp_json_path_append_member (local, "permissions");

    permissions = get_object_member (entry, "permissions", self->user_path, local, problems);
    local_allow = get_strings (permissions, "allow", self->user_path, path, problems);
    local_deny = get_strings (permissions, "deny", self->user_path, path, problems);
    local_ask = get_strings (permissions, "ask", self->user_path, path, problems);
  }

  /* configs are in scope order, so a later one of a name wins */
  for (guint i = 0; i < configs->len; i++)
    {
      McpServerConfig *config = configs->pdata[i];
      const char *name = mcp_server_config_get_name (config);
      gpointer index;

      if (g_hash_table_lookup_extended (winners, name, NULL, &index))
        {
          guint at = GPOINTER_TO_UINT (index);

          g_ptr_array_add (shadowed, g_object_ref (effective->pdata[at]));
          g_object_unref (effective->pdata[at]);
          effective->pdata[at] = g_object_ref (config);
        }
      else
        {
          g_hash_table_insert (winners, (gpointer)name, GUINT_TO_POINTER (effective->len));
          g_ptr_array_add (effective, g_object_ref (config));
        }
    }

  g_hash_table_remove_all (self->approvals);
  g_ptr_array_set_size (self->pending, 0);
  for (guint i = 0; i < configs->len; i++)
    {
      McpServerConfig *config = configs->pdata[i];
      const char *name = mcp_server_config_get_name (config);
      McpApproval approval;

      if (mcp_server_config_get_scope (config) != MCP_CONFIG_SCOPE_PROJECT)
        continue;

      if (strv_contains (disabled, name))
        approval = MCP_APPROVAL_REJECTED;
      else if (enable_all || strv_contains (enabled, name))
        approval = MCP_APPROVAL_APPROVED;
      else
        approval = MCP_APPROVAL_PENDING;
      g_hash_table_insert (self->approvals, g_strdup (name), GUINT_TO_POINTER (approval));
      if (approval == MCP_APPROVAL_PENDING)
        g_ptr_array_add (self->pending, g_strdup (name));
    }

  for (guint i = 0; i < effective->len; i++)
    {
      McpServerConfig *config = effective->pdata[i];
      g_autoptr(McpServerConfig) expanded = NULL;
      g_autoptr(GError) error = NULL;

      if (mcp_server_config_get_scope (config) == MCP_CONFIG_SCOPE_PROJECT &&
          mcp_settings_get_approval (self, mcp_server_config_get_name (config)) != MCP_APPROVAL_APPROVED)
        {
          effective->pdata[i] = mcp_server_config_copy_disabled (config);
          g_object_unref (config);
          config = effective->pdata[i];
        }

      /* reported now; the connection fails with the same message */
      expanded = mcp_server_config_expand (config, NULL, &error);
      if (expanded == NULL)
        add_problem (problems, mcp_server_config_get_file (config),
                     mcp_server_config_get_json_path (config), error->message);
    }

  g_clear_pointer (&self->allow, g_strfreev);
  g_clear_pointer (&self->deny, g_strfreev);
  g_clear_pointer (&self->ask, g_strfreev);
  self->allow = concat_strv (user_allow, local_allow);
  self->deny = concat_strv (user_deny, local_deny);
  self->ask = concat_strv (user_ask, local_ask);

  g_clear_pointer (&self->problems, g_ptr_array_unref);
  self->problems = g_steal_pointer (&problems);

  g_list_store_splice (self->shadowed, 0, g_list_model_get_n_items (G_LIST_MODEL (self->shadowed)),
                       shadowed->pdata, shadowed->len);
  g_list_store_splice (self->servers, 0, g_list_model_get_n_items (G_LIST_MODEL (self->servers)),
                       effective->pdata, effective->len);
}

/* Loading */

typedef struct
{
  GBytes   *user;
  GBytes   *project;
  guint     remaining;
  guint     generation;
  gboolean  emit;
} LoadData;

static void
load_data_free (LoadData *data)
{
  g_clear_pointer (&data->user, g_bytes_unref);
  g_clear_pointer (&data->project, g_bytes_unref);
  g_free (data);
}

static gboolean
bytes_equal (GBytes *a,
             GBytes *b)
{
  if (a == NULL || b == NULL)
    return a == b;

  return g_bytes_equal (a, b);
}

static void
finish_load (McpSettings *self)
{
  self->loading--;
  if (self->loading == 0 && !self->writing && self->reload_pending)
    {
      self->reload_pending = FALSE;
      start_load (self, NULL);
    }
}

static void
load_file_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpSettings *self = g_task_get_source_object (task);
  LoadData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;
  gsize length = 0;
  GBytes *bytes = NULL;
  gboolean changed;

  if (g_file_load_contents_finish (G_FILE (object), result, &contents, &length, NULL, &error))
    bytes = g_bytes_new_take (contents, length);
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND) &&
           !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY))
    {
      if (data->remaining > 0)
        {
          data->remaining = 0;
          finish_load (self);
          if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            g_prefix_error (&error, "%s: ", g_file_peek_path (G_FILE (object)));
          g_task_return_error (task, g_steal_pointer (&error));
        }
      return;
    }

  if (G_FILE (object) == self->user_file)
    data->user = bytes;
  else
    data->project = bytes;

  if (data->remaining == 0 || --data->remaining > 0)
    return;

  /* A newer load started meanwhile: its answer will be the news. (The
   * reload finish_load may start comes after this one is applied, so a
   * write's own reload is never thrown away.) */
  if (data->generation != self->generation)
    {
      finish_load (self);
      g_task_return_boolean (task, TRUE);
      return;
    }

  changed = !bytes_equal (data->user, self->user_bytes) ||
            !bytes_equal (data->project, self->project_bytes);
  g_clear_pointer (&self->user_bytes, g_bytes_unref);
  g_clear_pointer (&self->project_bytes, g_bytes_unref);
  self->user_bytes = g_steal_pointer (&data->user);
  self->project_bytes = g_steal_pointer (&data->project);
  apply_documents (self);

  if (changed && data->emit)
    g_signal_emit (self, signals[CHANGED], 0);

  g_task_return_boolean (task, TRUE);
  finish_load (self);
}

static void
start_load (McpSettings *self,
            GTask       *task)
{
  LoadData *data = g_new0 (LoadData, 1);

  if (task == NULL)
    {
      task = g_task_new (self, self->cancellable, NULL, NULL);
      g_task_set_source_tag (task, start_load);
      data->emit = TRUE;
    }
  else
    {
      g_object_ref (task);
      data->emit = g_task_get_source_tag (task) != mcp_settings_load_async;
    }

  data->remaining = 2;
  data->generation = ++self->generation;
  g_task_set_task_data (task, data, (GDestroyNotify)load_data_free);
  self->loading++;

  g_file_load_contents_async (self->user_file, g_task_get_cancellable (task),
                              load_file_cb, g_object_ref (task));
  g_file_load_contents_async (self->project_file, g_task_get_cancellable (task),
                              load_file_cb, task);
}

static void
on_file_changed_cb (McpSettings       *self,
                    GFile             *file,
                    GFile             *other,
                    GFileMonitorEvent  event,
                    GFileMonitor      *monitor)
{
  if (event == G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED ||
      event == G_FILE_MONITOR_EVENT_PRE_UNMOUNT ||
      event == G_FILE_MONITOR_EVENT_UNMOUNTED)
    return;

  if (self->writing || self->loading > 0)
    {
      self->reload_pending = TRUE;
      return;
    }

  start_load (self, NULL);
}

static GFileMonitor *
watch (McpSettings *self,
       GFile       *file)
{
  g_autoptr(GError) error = NULL;
  GFileMonitor *monitor;

  monitor = g_file_monitor_file (file, G_FILE_MONITOR_NONE, self->cancellable, &error);
  if (monitor == NULL)
    {
      g_debug ("Cannot watch %s: %s", g_file_peek_path (file), error->message);
      return NULL;
    }

  g_file_monitor_set_rate_limit (monitor, 100);
  g_signal_connect_object (monitor, "changed", G_CALLBACK (on_file_changed_cb),
                           self, G_CONNECT_SWAPPED);

  return monitor;
}

void
mcp_settings_load_async (McpSettings         *self,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MCP_IS_SETTINGS (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_settings_load_async);

  if (self->user_monitor == NULL)
    self->user_monitor = watch (self, self->user_file);
  if (self->project_monitor == NULL)
    self->project_monitor = watch (self, self->project_file);

  start_load (self, task);
}

gboolean
mcp_settings_load_finish (McpSettings   *self,
                          GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (MCP_IS_SETTINGS (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_settings_load_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* Writing: pretty JSON as JSON.stringify (value, null, 2) writes it */

static void
append_indent (GString *out,
               guint    indent)
{
  for (guint i = 0; i < indent; i++)
    g_string_append_c (out, ' ');
}

static void
append_pretty (GString  *out,
               JsonNode *node,
               guint     indent)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *object = json_node_get_object (node);
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;
      gboolean first = TRUE;

      if (json_object_get_size (object) == 0)
        {
          g_string_append (out, "{}");
          return;
        }

      g_string_append_c (out, '{');
      json_object_iter_init_ordered (&iter, object);
      while (json_object_iter_next_ordered (&iter, &name, &member))
        {
          g_string_append (out, first ? "\n" : ",\n");
          first = FALSE;
          append_indent (out, indent + 2);
          mcp_json_append_string (out, name);
          g_string_append (out, ": ");
          append_pretty (out, member, indent + 2);
        }
      g_string_append_c (out, '\n');
      append_indent (out, indent);
      g_string_append_c (out, '}');
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);
      guint n = json_array_get_length (array);

      if (n == 0)
        {
          g_string_append (out, "[]");
          return;
        }

      g_string_append_c (out, '[');
      for (guint i = 0; i < n; i++)
        {
          g_string_append (out, i == 0 ? "\n" : ",\n");
          append_indent (out, indent + 2);
          append_pretty (out, json_array_get_element (array, i), indent + 2);
        }
      g_string_append_c (out, '\n');
      append_indent (out, indent);
      g_string_append_c (out, ']');
    }
  else
    {
      mcp_json_append (out, node);
    }
}

typedef enum
{
  OP_ADD,
  OP_EDIT,
  OP_RENAME,
  OP_REMOVE,
  OP_SET_ENABLED,
  OP_MOVE,
  OP_APPROVAL,
} OpKind;

typedef enum
{
  STEP_EDIT,          /* the whole operation in one file */
  STEP_FETCH,         /* move: read the entry from @from */
  STEP_ADD_MOVED,     /* move: add it to @to */
  STEP_REMOVE_MOVED,  /* move: remove it from @from */
  STEP_DONE,
} Step;

typedef struct
{
  OpKind          kind;
  Step            step;
  guint           attempts;
  McpConfigScope  scope;
  McpConfigScope  to;
  gboolean        flag;
  char           *name;
  char           *new_name;
  JsonObject     *object;
  GFile          *file;     /* of the current step */
  char           *etag;
  GBytes         *old;
  GBytes         *new;
  GPtrArray      *directories;
} WriteOp;

static void
write_op_free (WriteOp *op)
{
  g_clear_pointer (&op->name, g_free);
  g_clear_pointer (&op->new_name, g_free);
  g_clear_pointer (&op->object, json_object_unref);
  g_clear_object (&op->file);
  g_clear_pointer (&op->etag, g_free);
  g_clear_pointer (&op->old, g_bytes_unref);
  g_clear_pointer (&op->new, g_bytes_unref);
  g_clear_pointer (&op->directories, g_ptr_array_unref);
  g_free (op);
}

static gboolean G_GNUC_PRINTF (3, 4)
edit_error (GError     **error,
            const char  *file,
            const char  *format,
            ...)
{
  g_autofree char *what = NULL;
  va_list args;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);

  g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG, "%s: %s", file, what);

  return FALSE;
}

/* The object @member of @parent, created (at the end) when missing. */
static JsonObject *
ensure_object (JsonObject  *parent,
               const char  *member,
               const char  *file,
               const char  *path,
               GError     **error)
{
  JsonNode *node = json_object_get_member (parent, member);
  g_autofree char *where = NULL;

  if (node == NULL)
    {
      json_object_set_object_member (parent, member, json_object_new ());
      return json_object_get_object_member (parent, member);
    }

  if (JSON_NODE_HOLDS_OBJECT (node))
    return json_node_get_object (node);

  where = mcp_json_path_append_member (path, member);
  edit_error (error, file, _("%s: expected an object; not changing it"), where);

  return NULL;
}

/* mcpServers of @scope in its file's @root, and its JSON path. */
static JsonObject *
servers_object (McpSettings     *self,
                JsonObject      *root,
                McpConfigScope   scope,
                gboolean         create,
                char           **path,
                GError         **error)
{
  const char *file = scope_file (self, scope);
  JsonObject *parent = root;
  g_autofree char *parent_path = g_strdup ("$");

  if (scope == MCP_CONFIG_SCOPE_LOCAL)
    {
      JsonObject *projects;

      if (!create && !json_object_has_member (root, "projects"))
        goto missing;
      projects = ensure_object (root, "projects", file, "$", error);
      if (projects == NULL)
        return NULL;
      if (!create && !json_object_has_member (projects, self->project_dir))
        goto missing;
      parent = ensure_object (projects, self->project_dir, file, "$.projects", error);
      if (parent == NULL)
        return NULL;
      g_free (parent_path);
      parent_path = local_path (self);
    }

  *path = mcp_json_path_append_member (parent_path, "mcpServers");
  if (!create && !json_object_has_member (parent, "mcpServers"))
    goto missing;

  return ensure_object (parent, "mcpServers", file, parent_path, error);

missing:
  g_clear_pointer (path, g_free);
  return NULL;
}

static const char *
scope_name (McpConfigScope scope)
{
  switch (scope)
    {
    case MCP_CONFIG_SCOPE_USER:
      return "user";
    case MCP_CONFIG_SCOPE_PROJECT:
      return "project";
    case MCP_CONFIG_SCOPE_LOCAL:
    default:
      return "local";
    }
}

/* The existing entry @name of @scope, or an error. */
static JsonObject *
find_server (McpSettings     *self,
             JsonObject      *root,
             McpConfigScope   scope,
             const char      *name,
             JsonObject     **servers_out,
             GError         **error)
{
  g_autofree char *path = NULL;
  JsonObject *servers;
  JsonNode *node;

  servers = servers_object (self, root, scope, FALSE, &path, error);
  if (servers == NULL)
    {
      if (error == NULL || *error == NULL)
        edit_error (error, scope_file (self, scope),
                    /* Translators: %s is a server's name, the second %s its scope: user, project or local (keep these words) */
                    _("there is no server “%s” in the %s scope"),
                    name, scope_name (scope));
      return NULL;
    }

  node = json_object_get_member (servers, name);
  if (node == NULL)
    {
      edit_error (error, scope_file (self, scope),
                  /* Translators: %s is a server's name, the second %s its scope: user, project or local (keep these words) */
                  _("there is no server “%s” in the %s scope"),
                  name, scope_name (scope));
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autofree char *where = mcp_json_path_append_member (path, name);

      edit_error (error, scope_file (self, scope), _("%s: expected an object; not changing it"), where);
      return NULL;
    }

  if (servers_out != NULL)
    *servers_out = servers;

  return json_node_get_object (node);
}

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

static gboolean
add_entry (McpSettings     *self,
           JsonObject      *root,
           McpConfigScope   scope,
           const char      *name,
           JsonObject      *object,
           GError         **error)
{
  g_autofree char *path = NULL;
  JsonObject *servers;

  servers = servers_object (self, root, scope, TRUE, &path, error);
  if (servers == NULL)
    return FALSE;

  if (json_object_has_member (servers, name))
    return edit_error (error, scope_file (self, scope),
                       /* Translators: %s is a server's name, the second %s its scope: user, project or local (keep these words) */
                       _("there is already a server “%s” in the %s scope"),
                       name, scope_name (scope));

  json_object_set_object_member (servers, name, copy_object (object));

  return TRUE;
}

static gboolean
set_approval (McpSettings  *self,
              JsonObject   *root,
              const char   *name,
              gboolean      approved,
              GError      **error)
{
  const char *lists[2] = { "enabledMcpjsonServers", "disabledMcpjsonServers" };
  g_autofree char *path = local_path (self);
  JsonObject *projects;
  JsonObject *entry;

  projects = ensure_object (root, "projects", self->user_path, "$", error);
  if (projects == NULL)
    return FALSE;
  entry = ensure_object (projects, self->project_dir, self->user_path, "$.projects", error);
  if (entry == NULL)
    return FALSE;

  for (guint i = 0; i < 2; i++)
    {
      gboolean wanted = (i == 0) == !!approved;
      JsonNode *node = json_object_get_member (entry, lists[i]);
      JsonArray *array;
      gboolean found = FALSE;

      if (node == NULL)
        {
          if (!wanted)
            continue;
          json_object_set_array_member (entry, lists[i], json_array_new ());
          node = json_object_get_member (entry, lists[i]);
        }
      if (!JSON_NODE_HOLDS_ARRAY (node))
        {
          g_autofree char *where = mcp_json_path_append_member (path, lists[i]);

          return edit_error (error, self->user_path, _("%s: expected an array; not changing it"), where);
        }

      array = json_node_get_array (node);
      for (guint j = json_array_get_length (array); j > 0; j--)
        {
          JsonNode *element = json_array_get_element (array, j - 1);

          if (JSON_NODE_HOLDS_VALUE (element) &&
              json_node_get_value_type (element) == G_TYPE_STRING &&
              strcmp (json_node_get_string (element), name) == 0)
            {
              if (wanted && !found)
                found = TRUE;
              else
                json_array_remove_element (array, j - 1);
            }
        }
      if (wanted && !found)
        json_array_add_string_element (array, name);
    }

  return TRUE;
}

static gboolean
apply_edit (McpSettings  *self,
            WriteOp      *op,
            JsonObject   *root,
            GError      **error)
{
  JsonObject *servers = NULL;
  JsonObject *entry;

  if (op->kind == OP_APPROVAL)
    return set_approval (self, root, op->name, op->flag, error);

  switch (op->step)
    {
    case STEP_FETCH:
      entry = find_server (self, root, op->scope, op->name, NULL, error);
      if (entry == NULL)
        return FALSE;
      g_clear_pointer (&op->object, json_object_unref);
      op->object = copy_object (entry);
      return TRUE;

    case STEP_ADD_MOVED:
      return add_entry (self, root, op->to, op->name, op->object, error);

    case STEP_REMOVE_MOVED:
      if (find_server (self, root, op->scope, op->name, &servers, error) == NULL)
        return FALSE;
      json_object_remove_member (servers, op->name);
      return TRUE;

    case STEP_EDIT:
    case STEP_DONE:
    default:
      break;
    }

  switch (op->kind)
    {
    case OP_ADD:
      return add_entry (self, root, op->scope, op->name, op->object, error);

    case OP_EDIT:
      if (find_server (self, root, op->scope, op->name, &servers, error) == NULL)
        return FALSE;
      /* replacing a member keeps its place */
      json_object_set_object_member (servers, op->name, copy_object (op->object));
      return TRUE;

    case OP_RENAME:
      {
        g_autoptr(JsonObject) renamed = json_object_new ();
        JsonObjectIter iter;
        const char *key;
        JsonNode *value;

        if (find_server (self, root, op->scope, op->name, &servers, error) == NULL)
          return FALSE;
        if (strcmp (op->name, op->new_name) == 0)
          return TRUE;
        if (json_object_has_member (servers, op->new_name))
          return edit_error (error, scope_file (self, op->scope),
                             /* Translators: %s is a server's name, the second %s its scope: user, project or local (keep these words) */
                             _("there is already a server “%s” in the %s scope"),
                             op->new_name, scope_name (op->scope));

        json_object_iter_init_ordered (&iter, servers);
        while (json_object_iter_next_ordered (&iter, &key, &value))
          json_object_set_member (renamed, strcmp (key, op->name) == 0 ? op->new_name : key,
                                  json_node_ref (value));
        /* empty and refill the same object, so its own place is kept */
        while (json_object_get_size (servers) > 0)
          {
            g_autoptr(GList) members = json_object_get_members (servers);

            json_object_remove_member (servers, members->data);
          }
        json_object_iter_init_ordered (&iter, renamed);
        while (json_object_iter_next_ordered (&iter, &key, &value))
          json_object_set_member (servers, key, json_node_ref (value));
        return TRUE;
      }

    case OP_REMOVE:
      if (find_server (self, root, op->scope, op->name, &servers, error) == NULL)
        return FALSE;
      json_object_remove_member (servers, op->name);
      return TRUE;

    case OP_SET_ENABLED:
      entry = find_server (self, root, op->scope, op->name, NULL, error);
      if (entry == NULL)
        return FALSE;
      if (op->flag)
        {
          if (json_object_has_member (entry, "enabled"))
            json_object_remove_member (entry, "enabled");
        }
      else
        {
          json_object_set_boolean_member (entry, "enabled", FALSE);
        }
      return TRUE;

    case OP_MOVE:
      {
        /* user and local share a file: one write */
        g_autoptr(JsonObject) moved = NULL;

        entry = find_server (self, root, op->scope, op->name, &servers, error);
        if (entry == NULL)
          return FALSE;
        moved = copy_object (entry);
        if (!add_entry (self, root, op->to, op->name, moved, error))
          return FALSE;
        json_object_remove_member (servers, op->name);
        return TRUE;
      }

    case OP_APPROVAL:
    default:
      g_assert_not_reached ();
    }

  return FALSE;
}

static McpConfigScope
step_scope (WriteOp *op)
{
  if (op->kind == OP_APPROVAL)
    return MCP_CONFIG_SCOPE_LOCAL;
  if (op->step == STEP_ADD_MOVED)
    return op->to;

  return op->scope;
}

static void run_step (GTask *task);

static void
next_step (GTask *task)
{
  WriteOp *op = g_task_get_task_data (task);

  op->attempts = 0;
  switch (op->step)
    {
    case STEP_FETCH:
      op->step = STEP_ADD_MOVED;
      break;
    case STEP_ADD_MOVED:
      op->step = STEP_REMOVE_MOVED;
      break;
    case STEP_EDIT:
    case STEP_REMOVE_MOVED:
    case STEP_DONE:
    default:
      op->step = STEP_DONE;
      break;
    }

  run_step (task);
}

static void
write_done_reload_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpSettings *self = g_task_get_source_object (task);
  GError *error = g_task_get_task_data (task);

  if (error != NULL)
    g_task_return_error (task, g_error_copy (error));
  else
    g_task_return_boolean (task, TRUE);

  run_next_write (self);
}

/* The write is over (@error or not): reload what is on disk now, then
 * let the next write go. */
static void
finish_write (GTask  *task,
              GError *error)
{
  McpSettings *self = g_task_get_source_object (task);
  GTask *reload;

  self->writing = FALSE;
  self->reload_pending = FALSE;

  if (error != NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      run_next_write (self);
      return;
    }

  reload = g_task_new (self, self->cancellable, write_done_reload_cb, task);
  g_task_set_source_tag (reload, finish_write);
  g_task_set_task_data (task, error, error != NULL ? (GDestroyNotify)g_error_free : NULL);
  start_load (self, reload);
  g_object_unref (reload);
}

static void
replace_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  GTask *task = user_data;
  WriteOp *op = g_task_get_task_data (task);
  GError *error = NULL;

  if (!g_file_replace_contents_finish (G_FILE (object), result, NULL, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WRONG_ETAG) &&
          ++op->attempts < MAX_WRITE_ATTEMPTS)
        {
          /* changed since we read it: apply the edit again to what is there now */
          g_clear_error (&error);
          run_step (task);
          return;
        }
      g_prefix_error (&error, _("Could not write %s: "), g_file_peek_path (G_FILE (object)));
      finish_write (task, error);
      return;
    }

  next_step (task);
}

static void
replace_target (GTask *task)
{
  WriteOp *op = g_task_get_task_data (task);
  gsize length;
  const char *data = g_bytes_get_data (op->new, &length);

  g_file_replace_contents_async (op->file, data, length, op->etag, FALSE,
                                 G_FILE_CREATE_NONE, g_task_get_cancellable (task),
                                 replace_cb, task);
}

static void
backup_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  GTask *task = user_data;
  GError *error = NULL;

  if (!g_file_replace_contents_finish (G_FILE (object), result, NULL, &error))
    {
      g_prefix_error (&error, _("Could not write the backup %s: "), g_file_peek_path (G_FILE (object)));
      finish_write (task, error);
      return;
    }

  replace_target (task);
}

static void
write_backup (GTask *task)
{
  WriteOp *op = g_task_get_task_data (task);
  g_autofree char *path = NULL;
  g_autoptr(GFile) backup = NULL;
  gsize length;
  const char *data;

  if (op->old == NULL)
    {
      replace_target (task);
      return;
    }

  path = g_strconcat (g_file_peek_path (op->file), ".bak", NULL);
  backup = g_file_new_for_path (path);
  data = g_bytes_get_data (op->old, &length);
  g_file_replace_contents_async (backup, data, length, NULL, FALSE, G_FILE_CREATE_NONE,
                                 g_task_get_cancellable (task), backup_cb, task);
}

/* Creates the folders the file goes in, outermost missing one first:
 * op->directories is a stack of the ones still to make. */
static void
make_directory_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  GTask *task = user_data;
  WriteOp *op = g_task_get_task_data (task);
  GFile *directory = G_FILE (object);
  GError *error = NULL;

  if (!g_file_make_directory_finish (directory, result, &error))
    {
      g_autoptr(GFile) parent = g_file_get_parent (directory);

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND) && parent != NULL &&
          op->directories->len < 64)
        {
          g_clear_error (&error);
          g_ptr_array_add (op->directories, g_object_ref (parent));
          g_file_make_directory_async (parent, G_PRIORITY_DEFAULT, g_task_get_cancellable (task),
                                       make_directory_cb, task);
          return;
        }
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_EXISTS))
        {
          g_prefix_error (&error, _("Could not create the folder %s: "), g_file_peek_path (directory));
          finish_write (task, error);
          return;
        }
      g_clear_error (&error);
    }

  g_ptr_array_remove_index (op->directories, op->directories->len - 1);
  if (op->directories->len > 0)
    {
      GFile *next = g_ptr_array_index (op->directories, op->directories->len - 1);

      g_file_make_directory_async (next, G_PRIORITY_DEFAULT, g_task_get_cancellable (task),
                                   make_directory_cb, task);
      return;
    }

  write_backup (task);
}

static void
make_directory (GTask *task,
                GFile *directory)
{
  WriteOp *op = g_task_get_task_data (task);

  g_ptr_array_set_size (op->directories, 0);
  g_ptr_array_add (op->directories, g_object_ref (directory));
  g_file_make_directory_async (directory, G_PRIORITY_DEFAULT, g_task_get_cancellable (task),
                               make_directory_cb, task);
}

static void
step_loaded_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GTask *task = user_data;
  McpSettings *self = g_task_get_source_object (task);
  WriteOp *op = g_task_get_task_data (task);
  GError *error = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GString) out = NULL;
  char *contents = NULL;
  gsize length = 0;
  gboolean final_newline = TRUE;

  g_clear_pointer (&op->old, g_bytes_unref);
  g_clear_pointer (&op->new, g_bytes_unref);
  g_clear_pointer (&op->etag, g_free);

  if (g_file_load_contents_finish (G_FILE (object), result, &contents, &length, &op->etag, &error))
    {
      op->old = g_bytes_new_take (contents, length);
      root = mcp_json_parse (contents, length, &error);
      if (root == NULL)
        {
          GError *refused = g_error_new (MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                                         _("%s: not written, because it does not parse: %s"),
                                         g_file_peek_path (op->file), error->message);

          g_clear_error (&error);
          finish_write (task, refused);
          return;
        }
      if (!JSON_NODE_HOLDS_OBJECT (root))
        {
          finish_write (task, g_error_new (MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                                           _("%s: not written, because it is not a JSON object"),
                                           g_file_peek_path (op->file)));
          return;
        }
      final_newline = length > 0 && contents[length - 1] == '\n';
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND) ||
           g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY))
    {
      g_autoptr(JsonObject) empty = json_object_new ();

      g_clear_error (&error);
      root = json_node_init_object (json_node_alloc (), empty);
    }
  else
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_prefix_error (&error, _("Could not read %s: "), g_file_peek_path (op->file));
      finish_write (task, error);
      return;
    }

  if (!apply_edit (self, op, json_node_get_object (root), &error))
    {
      finish_write (task, error);
      return;
    }

  if (op->step == STEP_FETCH)
    {
      next_step (task);
      return;
    }

  out = g_string_new (NULL);
  append_pretty (out, root, 0);
  if (final_newline)
    g_string_append_c (out, '\n');
  op->new = g_string_free_to_bytes (g_steal_pointer (&out));

  if (op->old != NULL)
    {
      if (g_bytes_equal (op->old, op->new))
        next_step (task);
      else
        write_backup (task);
      return;
    }

  {
    g_autoptr(GFile) parent = g_file_get_parent (op->file);

    make_directory (task, parent);
  }
}

static void
run_step (GTask *task)
{
  McpSettings *self = g_task_get_source_object (task);
  WriteOp *op = g_task_get_task_data (task);

  if (op->step == STEP_DONE)
    {
      finish_write (task, NULL);
      return;
    }

  g_clear_object (&op->file);
  op->file = g_file_new_for_path (scope_file (self, step_scope (op)));
  g_file_load_contents_async (op->file, g_task_get_cancellable (task), step_loaded_cb, task);
}

static void
run_next_write (McpSettings *self)
{
  GTask *task;

  if (self->writing)
    return;

  task = g_queue_pop_head (&self->writes);
  if (task == NULL)
    {
      if (self->reload_pending && self->loading == 0)
        {
          self->reload_pending = FALSE;
          start_load (self, NULL);
        }
      return;
    }

  self->writing = TRUE;
  run_step (task);
}

static void
queue_write (McpSettings         *self,
             WriteOp             *op,
             gpointer             source_tag,
             GCancellable        *cancellable,
             GAsyncReadyCallback  callback,
             gpointer             user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  g_autoptr(GError) error = NULL;

  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, op, (GDestroyNotify)write_op_free);

  if (op->object != NULL)
    {
      McpConfigScope scope = op->kind == OP_MOVE ? op->to : op->scope;
      g_autofree char *path = mcp_json_path_append_member ("$.mcpServers", op->name);
      g_autoptr(McpServerConfig) check = NULL;

      if (scope == MCP_CONFIG_SCOPE_LOCAL)
        {
          g_autofree char *local = local_path (self);
          g_autofree char *servers = mcp_json_path_append_member (local, "mcpServers");

          g_free (path);
          path = mcp_json_path_append_member (servers, op->name);
        }

      check = mcp_server_config_new_from_json (op->name, scope, op->object,
                                               scope_file (self, scope), path, &error);
      if (check == NULL)
        {
          g_task_return_error (task, g_steal_pointer (&error));
          g_object_unref (task);
          return;
        }
    }

  if ((op->name != NULL && op->name[0] == '\0') ||
      (op->new_name != NULL && op->new_name[0] == '\0'))
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                               _("A server needs a non-empty name"));
      g_object_unref (task);
      return;
    }

  g_queue_push_tail (&self->writes, task);
  run_next_write (self);
}

static WriteOp *
write_op_new (OpKind          kind,
              const char     *name,
              McpConfigScope  scope)
{
  WriteOp *op = g_new0 (WriteOp, 1);

  op->kind = kind;
  op->name = g_strdup (name);
  op->scope = scope;
  op->step = STEP_EDIT;
  op->directories = g_ptr_array_new_with_free_func (g_object_unref);

  return op;
}

static gboolean
write_finish (McpSettings   *self,
              GAsyncResult  *result,
              gpointer       source_tag,
              GError       **error)
{
  g_return_val_if_fail (MCP_IS_SETTINGS (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
mcp_settings_add_server_async (McpSettings         *self,
                               const char          *name,
                               McpConfigScope       scope,
                               JsonObject          *object,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  WriteOp *op;

  g_return_if_fail (MCP_IS_SETTINGS (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (object != NULL);

  op = write_op_new (OP_ADD, name, scope);
  op->object = json_object_ref (object);
  queue_write (self, op, mcp_settings_add_server_async, cancellable, callback, user_data);
}

gboolean
mcp_settings_add_server_finish (McpSettings   *self,
                                GAsyncResult  *result,
                                GError       **error)
{
  return write_finish (self, result, mcp_settings_add_server_async, error);
}

void
mcp_settings_edit_server_async (McpSettings         *self,
                                const char          *name,
                                McpConfigScope       scope,
                                JsonObject          *object,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  WriteOp *op;

  g_return_if_fail (MCP_IS_SETTINGS (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (object != NULL);

  op = write_op_new (OP_EDIT, name, scope);
  op->object = json_object_ref (object);
  queue_write (self, op, mcp_settings_edit_server_async, cancellable, callback, user_data);
}

gboolean
mcp_settings_edit_server_finish (McpSettings   *self,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  return write_finish (self, result, mcp_settings_edit_server_async, error);
}

void
mcp_settings_rename_server_async (McpSettings         *self,
                                  const char          *name,
                                  McpConfigScope       scope,
                                  const char          *new_name,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  WriteOp *op;

  g_return_if_fail (MCP_IS_SETTINGS (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (new_name != NULL);

  op = write_op_new (OP_RENAME, name, scope);
  op->new_name = g_strdup (new_name);
  queue_write (self, op, mcp_settings_rename_server_async, cancellable, callback, user_data);
}

gboolean
mcp_settings_rename_server_finish (McpSettings   *self,
                                   GAsyncResult  *result,
                                   GError       **error)
{
  return write_finish (self, result, mcp_settings_rename_server_async, error);
}

void
mcp_settings_remove_server_async (McpSettings         *self,
                                  const char          *name,
                                  McpConfigScope       scope,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_return_if_fail (MCP_IS_SETTINGS (self));
  g_return_if_fail (name != NULL);

  queue_write (self, write_op_new (OP_REMOVE, name, scope),
               mcp_settings_remove_server_async, cancellable, callback, user_data);
}

gboolean
mcp_settings_remove_server_finish (McpSettings   *self,
                                   GAsyncResult  *result,
                                   GError       **error)
{
  return write_finish (self, result, mcp_settings_remove_server_async, error);
}

void
mcp_settings_set_server_enabled_async (McpSettings         *self,
                                       const char          *name,
                                       McpConfigScope       scope,
                                       gboolean             enabled,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  WriteOp *op;

  g_return_if_fail (MCP_IS_SETTINGS (self));
  g_return_if_fail (name != NULL);

  /* A project server is the team's (.mcp.json is shared): turning it off
   * or on is a private choice, kept where other MCP clients keep it, in
   * the local scope's enabled/disabledMcpjsonServers. */
  if (scope == MCP_CONFIG_SCOPE_PROJECT)
    op = write_op_new (OP_APPROVAL, name, MCP_CONFIG_SCOPE_LOCAL);
  else
    op = write_op_new (OP_SET_ENABLED, name, scope);
  op->flag = !!enabled;
  queue_write (self, op, mcp_settings_set_server_enabled_async, cancellable, callback, user_data);
}

gboolean
mcp_settings_set_server_enabled_finish (McpSettings   *self,
                                        GAsyncResult  *result,
                                        GError       **error)
{
  return write_finish (self, result, mcp_settings_set_server_enabled_async, error);
}

void
mcp_settings_move_server_async (McpSettings         *self,
                                const char          *name,
                                McpConfigScope       from,
                                McpConfigScope       to,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  WriteOp *op;

  g_return_if_fail (MCP_IS_SETTINGS (self));
  g_return_if_fail (name != NULL);

  op = write_op_new (OP_MOVE, name, from);
  op->to = to;
  if ((from == MCP_CONFIG_SCOPE_PROJECT) != (to == MCP_CONFIG_SCOPE_PROJECT))
    op->step = STEP_FETCH;
  queue_write (self, op, mcp_settings_move_server_async, cancellable, callback, user_data);
}

gboolean
mcp_settings_move_server_finish (McpSettings   *self,
                                 GAsyncResult  *result,
                                 GError       **error)
{
  return write_finish (self, result, mcp_settings_move_server_async, error);
}

void
mcp_settings_set_approval_async (McpSettings         *self,
                                 const char          *name,
                                 gboolean             approved,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  WriteOp *op;

  g_return_if_fail (MCP_IS_SETTINGS (self));
  g_return_if_fail (name != NULL);

  op = write_op_new (OP_APPROVAL, name, MCP_CONFIG_SCOPE_LOCAL);
  op->flag = !!approved;
  queue_write (self, op, mcp_settings_set_approval_async, cancellable, callback, user_data);
}

gboolean
mcp_settings_set_approval_finish (McpSettings   *self,
                                  GAsyncResult  *result,
                                  GError       **error)
{
  return write_finish (self, result, mcp_settings_set_approval_async, error);
}

/* Getters */

const char *
mcp_settings_get_user_config_dir (McpSettings *self)
{
  g_return_val_if_fail (MCP_IS_SETTINGS (self), NULL);
  return self->user_config_dir;
}

const char *
mcp_settings_get_project_dir (McpSettings *self)
{
  g_return_val_if_fail (MCP_IS_SETTINGS (self), NULL);
  return self->project_dir;
}

const char *
mcp_settings_get_file (McpSettings    *self,
                       McpConfigScope  scope)
{
  g_return_val_if_fail (MCP_IS_SETTINGS (self), NULL);
  return scope_file (self, scope);
}

GListModel *
mcp_settings_get_servers (McpSettings *self)
{
  g_return_val_if_fail (MCP_IS_SETTINGS (self), NULL);
  return G_LIST_MODEL (self->servers);
}

GListModel *
mcp_settings_get_shadowed (McpSettings *self)
{
  g_return_val_if_fail (MCP_IS_SETTINGS (self), NULL);
  return G_LIST_MODEL (self->shadowed);
}

static McpServerConfig *
find_in (GListStore     *store,
         const char     *name,
         int             scope)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (store));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpServerConfig) config = g_list_model_get_item (G_LIST_MODEL (store), i);

      if (strcmp (mcp_server_config_get_name (config), name) == 0 &&
          (scope < 0 || (int)mcp_server_config_get_scope (config) == scope))
        return config;  /* the store keeps it alive */
    }

  return NULL;
}

McpServerConfig *
mcp_settings_lookup (McpSettings *self,
                     const char  *name)
{
  g_return_val_if_fail (MCP_IS_SETTINGS (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  return find_in (self->servers, name, -1);
}

McpServerConfig *
mcp_settings_lookup_in_scope (McpSettings    *self,
                              const char     *name,
                              McpConfigScope  scope)
{
  McpServerConfig *config;

  g_return_val_if_fail (MCP_IS_SETTINGS (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  config = find_in (self->servers, name, scope);
  if (config == NULL)
    config = find_in (self->shadowed, name, scope);

  return config;
}

GPtrArray *
mcp_settings_get_problems (McpSettings *self)
{
  g_return_val_if_fail (MCP_IS_SETTINGS (self), NULL);
  return self->problems;
}

McpApproval
mcp_settings_get_approval (McpSettings *self,
                           const char  *name)
{
  gpointer value;

  g_return_val_if_fail (MCP_IS_SETTINGS (self), MCP_APPROVAL_NOT_NEEDED);
  g_return_val_if_fail (name != NULL, MCP_APPROVAL_NOT_NEEDED);

  if (!g_hash_table_lookup_extended (self->approvals, name, NULL, &value))
    return MCP_APPROVAL_NOT_NEEDED;

  return GPOINTER_TO_UINT (value);
}

char **
mcp_settings_dup_pending_approvals (McpSettings *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (MCP_IS_SETTINGS (self), NULL);

  for (guint i = 0; i < self->pending->len; i++)
    g_strv_builder_add (builder, self->pending->pdata[i]);

  return g_strv_builder_end (builder);
}

const char * const *
mcp_settings_get_permissions_allow (McpSettings *self)
{
  g_return_val_if_fail (MCP_IS_SETTINGS (self), NULL);
  return (const char * const *)self->allow;
}

const char * const *
mcp_settings_get_permissions_deny (McpSettings *self)
{
  g_return_val_if_fail (MCP_IS_SETTINGS (self), NULL);
  return (const char * const *)self->deny;
}

const char * const *
mcp_settings_get_permissions_ask (McpSettings *self)
{
  g_return_val_if_fail (MCP_IS_SETTINGS (self), NULL);
  return (const char * const *)self->ask;
}

/* GObject */

static void
mcp_settings_constructed (GObject *object)
{
  McpSettings *self = (McpSettings *)object;

  G_OBJECT_CLASS (mcp_settings_parent_class)->constructed (object);

  if (self->user_config_dir == NULL)
    self->user_config_dir = g_build_filename (g_get_user_config_dir (), "plugboard", NULL);
  if (self->project_dir == NULL)
    self->project_dir = g_get_current_dir ();

  self->user_path = g_build_filename (self->user_config_dir, "settings.json", NULL);
  self->project_path = g_build_filename (self->project_dir, ".mcp.json", NULL);
  self->user_file = g_file_new_for_path (self->user_path);
  self->project_file = g_file_new_for_path (self->project_path);
}

static void
mcp_settings_dispose (GObject *object)
{
  McpSettings *self = (McpSettings *)object;

  g_cancellable_cancel (self->cancellable);
  if (self->user_monitor != NULL)
    g_file_monitor_cancel (self->user_monitor);
  if (self->project_monitor != NULL)
    g_file_monitor_cancel (self->project_monitor);
  g_clear_object (&self->user_monitor);
  g_clear_object (&self->project_monitor);

  G_OBJECT_CLASS (mcp_settings_parent_class)->dispose (object);
}

static void
mcp_settings_finalize (GObject *object)
{
  McpSettings *self = (McpSettings *)object;

  g_clear_pointer (&self->user_config_dir, g_free);
  g_clear_pointer (&self->project_dir, g_free);
  g_clear_pointer (&self->user_path, g_free);
  g_clear_pointer (&self->project_path, g_free);
  g_clear_object (&self->user_file);
  g_clear_object (&self->project_file);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->user_bytes, g_bytes_unref);
  g_clear_pointer (&self->project_bytes, g_bytes_unref);
  g_clear_object (&self->servers);
  g_clear_object (&self->shadowed);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
  g_clear_pointer (&self->approvals, g_hash_table_unref);
  g_clear_pointer (&self->pending, g_ptr_array_unref);
  g_clear_pointer (&self->allow, g_strfreev);
  g_clear_pointer (&self->deny, g_strfreev);
  g_clear_pointer (&self->ask, g_strfreev);

  G_OBJECT_CLASS (mcp_settings_parent_class)->finalize (object);
}

static void
mcp_settings_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  McpSettings *self = MCP_SETTINGS (object);

  switch (prop_id)
    {
    case PROP_USER_CONFIG_DIR:
      g_value_set_string (value, self->user_config_dir);
      break;

    case PROP_PROJECT_DIR:
      g_value_set_string (value, self->project_dir);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_settings_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  McpSettings *self = MCP_SETTINGS (object);

  switch (prop_id)
    {
    case PROP_USER_CONFIG_DIR:
      self->user_config_dir = g_value_dup_string (value);
      break;

    case PROP_PROJECT_DIR:
      if (g_value_get_string (value) != NULL)
        self->project_dir = g_canonicalize_filename (g_value_get_string (value), NULL);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_settings_class_init (McpSettingsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = mcp_settings_constructed;
  object_class->dispose = mcp_settings_dispose;
  object_class->finalize = mcp_settings_finalize;
  object_class->get_property = mcp_settings_get_property;
  object_class->set_property = mcp_settings_set_property;

  properties[PROP_USER_CONFIG_DIR] =
    g_param_spec_string ("user-config-dir", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PROJECT_DIR] =
    g_param_spec_string ("project-dir", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
mcp_settings_init (McpSettings *self)
{
  self->cancellable = g_cancellable_new ();
  self->servers = g_list_store_new (MCP_TYPE_SERVER_CONFIG);
  self->shadowed = g_list_store_new (MCP_TYPE_SERVER_CONFIG);
  self->problems = g_ptr_array_new_with_free_func ((GDestroyNotify)mcp_settings_problem_free);
  self->approvals = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->pending = g_ptr_array_new_with_free_func (g_free);
  self->allow = g_new0 (char *, 1);
  self->deny = g_new0 (char *, 1);
  self->ask = g_new0 (char *, 1);
  g_queue_init (&self->writes);
}

McpSettings *
mcp_settings_new (const char *user_config_dir,
                  const char *project_dir)
{
  g_return_val_if_fail (project_dir == NULL || g_path_is_absolute (project_dir), NULL);

  return g_object_new (MCP_TYPE_SETTINGS,
                       "user-config-dir", user_config_dir,
                       "project-dir", project_dir,
                       NULL);
}
