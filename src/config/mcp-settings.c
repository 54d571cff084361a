/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-settings.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-config-file.h"
#include "mcp-json-document.h"
#include "mcp-json-private.h"
#include "mcp-launch.h"
#include "mcp-server-config-private.h"
#include "mcp-settings-private.h"

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

static void
approval_state_free (McpApprovalState *state)
{
  g_free (state->digest);
  g_clear_pointer (&state->launch, json_object_unref);
  g_free (state->approved_digest);
  g_clear_pointer (&state->approved_launch, json_object_unref);
  g_free (state);
}

/* Reading the documents */

const char *
mcp_settings_scope_file (McpSettings    *self,
                         McpConfigScope  scope)
{
  return scope == MCP_CONFIG_SCOPE_PROJECT ? self->project_path : self->user_path;
}

const char *
mcp_settings_scope_name (McpConfigScope scope)
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
                GError     *read_error,
                const char *file,
                GPtrArray  *problems)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;
  gsize length;
  const char *data;

  if (read_error != NULL)
    {
      g_autofree char *message = g_strdup_printf (_("%s (the file is not changed until it is fixed)"),
                                                  read_error->message);

      add_problem (problems, file, "$", message);
      return NULL;
    }
  if (bytes == NULL)
    return NULL;

  data = g_bytes_get_data (bytes, &length);
  root = mcp_json_document_parse (data, length, MCP_JSON_DIALECT_JSON, &error);
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

/* approvedMcpjsonServers[@name]: {"digest": "sha256:…", "launch": {…}} */
static void
read_approved (McpApprovalState *state,
               JsonObject       *approved,
               const char       *name)
{
  JsonNode *node = approved != NULL ? json_object_get_member (approved, name) : NULL;
  JsonObject *object;
  JsonNode *digest;
  JsonNode *launch;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return;
  object = json_node_get_object (node);
  digest = json_object_get_member (object, "digest");
  launch = json_object_get_member (object, "launch");
  if (digest == NULL || !JSON_NODE_HOLDS_VALUE (digest) || json_node_get_value_type (digest) != G_TYPE_STRING)
    return;
  state->approved_digest = g_strdup (json_node_get_string (digest));
  if (launch != NULL && JSON_NODE_HOLDS_OBJECT (launch))
    state->approved_launch = json_object_ref (json_node_get_object (launch));
}

static McpApprovalState *
new_approval_state (McpServerConfig *config,
                    JsonObject      *approved)
{
  McpApprovalState *state = g_new0 (McpApprovalState, 1);
  g_autoptr(McpServerConfig) expanded = mcp_server_config_expand (config, NULL, NULL);

  state->expands = expanded != NULL;
  state->digest = mcp_launch_dup_digest (config, NULL);
  state->launch = mcp_launch_dup_description (config, NULL);
  read_approved (state, approved, mcp_server_config_get_name (config));

  return state;
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
  g_auto(GStrv) enabled = NULL, disabled = NULL, switched_off = NULL;
  JsonObject *projects;
  JsonObject *entry;
  JsonObject *permissions;
  JsonObject *approved;
  gboolean enable_all = FALSE;

  user = parse_document (self->user_bytes, self->user_error, self->user_path, problems);
  project = parse_document (self->project_bytes, self->project_error, self->project_path, problems);

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
  approved = get_object_member (entry, "approvedMcpjsonServers", self->user_path, local, problems);
  disabled = get_strings (entry, "disabledMcpjsonServers", self->user_path, local, problems);
  /* Claude Code's way of turning a user or local server off in one project */
  switched_off = get_strings (entry, "disabledMcpServers", self->user_path, local, problems);
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
  g_hash_table_remove_all (self->launches);
  g_ptr_array_set_size (self->pending, 0);
  for (guint i = 0; i < configs->len; i++)
    {
      McpServerConfig *config = configs->pdata[i];
      const char *name = mcp_server_config_get_name (config);
      McpApprovalState *state;
      McpApproval approval;

      if (mcp_server_config_get_scope (config) != MCP_CONFIG_SCOPE_PROJECT)
        continue;

      /* The names are Claude Code's, and the way other clients' approvals
       * come in; the digest beside them is ours. "enableAllProjectMcpServers"
       * approves each server by name: each is bound as any other. */
      state = new_approval_state (config, approved);
      g_hash_table_insert (self->launches, g_strdup (name), state);
      if (strv_contains (disabled, name))
        approval = MCP_APPROVAL_REJECTED;
      else if (!enable_all && !strv_contains (enabled, name))
        approval = MCP_APPROVAL_PENDING;
      else if (state->approved_digest != NULL && g_strcmp0 (state->approved_digest, state->digest) != 0)
        approval = MCP_APPROVAL_CHANGED;
      else
        approval = MCP_APPROVAL_APPROVED;
      g_hash_table_insert (self->approvals, g_strdup (name), GUINT_TO_POINTER (approval));
      if (approval == MCP_APPROVAL_PENDING || approval == MCP_APPROVAL_CHANGED)
        g_ptr_array_add (self->pending, g_strdup (name));
    }

  for (guint i = 0; i < effective->len; i++)
    {
      McpServerConfig *config = effective->pdata[i];
      g_autoptr(McpServerConfig) expanded = NULL;
      g_autoptr(GError) error = NULL;

      if (mcp_server_config_get_scope (config) == MCP_CONFIG_SCOPE_PROJECT &&
          mcp_settings_get_approval (self, mcp_server_config_get_name (config)) == MCP_APPROVAL_APPROVED)
        {
          McpApprovalState *state = g_hash_table_lookup (self->launches, mcp_server_config_get_name (config));

          /* the connection checks it again against what it starts */
          if (state != NULL && state->approved_digest != NULL)
            {
              effective->pdata[i] = mcp_server_config_copy_approved (config, state->approved_digest);
              g_object_unref (config);
              config = effective->pdata[i];
            }
        }

      if ((mcp_server_config_get_scope (config) == MCP_CONFIG_SCOPE_PROJECT &&
           mcp_settings_get_approval (self, mcp_server_config_get_name (config)) != MCP_APPROVAL_APPROVED) ||
          (mcp_server_config_get_scope (config) != MCP_CONFIG_SCOPE_PROJECT &&
           mcp_server_config_get_enabled (config) &&
           strv_contains (switched_off, mcp_server_config_get_name (config))))
        {
          const char *reason;

          if (mcp_server_config_get_scope (config) != MCP_CONFIG_SCOPE_PROJECT)
            reason = _("switched off in this project");
          else
            switch (mcp_settings_get_approval (self, mcp_server_config_get_name (config)))
              {
              case MCP_APPROVAL_CHANGED:
                reason = _("changed since approval");
                break;
              case MCP_APPROVAL_REJECTED:
                reason = _("rejected");
                break;
              case MCP_APPROVAL_PENDING:
              case MCP_APPROVAL_APPROVED:
              default:
                reason = _("awaiting approval");
                break;
              }
          effective->pdata[i] = mcp_server_config_copy_disabled (config, reason);
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
  {
    GStrv lists[2][3] = {
      { user_allow, user_ask, user_deny },
      { local_allow, local_ask, local_deny },
    };

    for (guint s = 0; s < 2; s++)
      for (guint l = 0; l < 3; l++)
        {
          g_strfreev (self->scope_rules[s][l]);
          self->scope_rules[s][l] = concat_strv (lists[s][l], NULL);
        }
  }

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
  GWeakRef  self;
  char     *user_path;
  char     *project_path;
  GBytes   *user;
  GBytes   *project;
  GError   *user_error;
  GError   *project_error;
  guint     generation;
  gboolean  emit;
} LoadData;

static void
load_data_free (LoadData *data)
{
  g_weak_ref_clear (&data->self);
  g_free (data->user_path);
  g_free (data->project_path);
  g_clear_pointer (&data->user, g_bytes_unref);
  g_clear_pointer (&data->project, g_bytes_unref);
  g_clear_error (&data->user_error);
  g_clear_error (&data->project_error);
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

static gboolean
errors_equal (GError *a,
              GError *b)
{
  if (a == NULL || b == NULL)
    return a == b;

  return g_strcmp0 (a->message, b->message) == 0;
}

static void
finish_load (McpSettings *self)
{
  self->loading--;
  if (self->loading == 0 && !self->writing && self->reload_pending)
    {
      self->reload_pending = FALSE;
      mcp_settings_start_load (self, NULL);
    }
}

/* A file that cannot be read (a FIFO, a device, too large, no
 * permission) is a problem of its own; the other file still loads. */
static void
read_settings_file (const char  *path,
                    GBytes     **bytes,
                    GError     **error)
{
  g_autoptr(GError) local_error = NULL;

  *bytes = mcp_config_file_read (path, &local_error);
  if (*bytes == NULL && !g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    *error = g_steal_pointer (&local_error);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  LoadData *data = task_data;

  read_settings_file (data->user_path, &data->user, &data->user_error);
  read_settings_file (data->project_path, &data->project, &data->project_error);
  g_task_return_boolean (task, TRUE);
}

static void
bind_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error) &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    /* (not a warning: a read-only settings file is the person's choice;
     * the approvals then stay by name, as they were) */
    g_message ("Could not bind the project servers’ approvals to what they run: %s", error->message);
  if (task != NULL)
    g_task_return_boolean (task, TRUE);
}

/* Approvals by name only are bound by the first load that finds them:
 * their digest is written, once (a write that fails is not tried again by
 * these settings). A launch that does not expand is not bound: it does
 * not start either. When there is something to bind, @task (or NULL)
 * completes after the write and its reload. */
static gboolean
bind_approvals (McpSettings *self,
                GTask       *task)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, self->launches);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      McpApprovalState *state = value;
      g_autofree char *tried = NULL;

      if (mcp_settings_get_approval (self, key) != MCP_APPROVAL_APPROVED ||
          state->approved_digest != NULL || !state->expands)
        continue;
      tried = g_strconcat (key, " ", state->digest, NULL);
      if (g_hash_table_contains (self->bind_tried, tried))
        continue;
      g_hash_table_add (self->bind_tried, g_steal_pointer (&tried));
      g_ptr_array_add (names, g_strdup (key));
    }

  if (names->len == 0)
    return FALSE;

  mcp_settings_bind_approvals (self, names, bind_done_cb, task != NULL ? g_object_ref (task) : NULL);
  return TRUE;
}

static void
load_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  LoadData *data = g_task_get_task_data (G_TASK (result));
  g_autoptr(McpSettings) self = g_weak_ref_get (&data->self);
  gboolean changed;

  /* A reload of our own does not keep the settings alive: once their
   * owner let them go, nobody is told anything. */
  if (self == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s", "");
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    {
      finish_load (self);
      return;
    }

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
            !bytes_equal (data->project, self->project_bytes) ||
            !errors_equal (data->user_error, self->user_error) ||
            !errors_equal (data->project_error, self->project_error);
  g_clear_pointer (&self->user_bytes, g_bytes_unref);
  g_clear_pointer (&self->project_bytes, g_bytes_unref);
  g_clear_error (&self->user_error);
  g_clear_error (&self->project_error);
  self->user_bytes = g_steal_pointer (&data->user);
  self->project_bytes = g_steal_pointer (&data->project);
  self->user_error = g_steal_pointer (&data->user_error);
  self->project_error = g_steal_pointer (&data->project_error);
  apply_documents (self);

  if (changed && data->emit)
    g_signal_emit (self, signals[CHANGED], 0);

  /* The person's load finishes once what it found is bound: a program
   * that loads, runs one server and exits leaves the digest written. */
  if (g_task_get_source_tag (task) == mcp_settings_load_async)
    {
      if (!bind_approvals (self, task))
        g_task_return_boolean (task, TRUE);
      finish_load (self);
      return;
    }

  g_task_return_boolean (task, TRUE);
  finish_load (self);
  bind_approvals (self, NULL);
}

void
mcp_settings_apply_bytes (McpSettings *self,
                          GBytes      *user,
                          GBytes      *project)
{
  g_return_if_fail (MCP_IS_SETTINGS (self));

  g_clear_pointer (&self->user_bytes, g_bytes_unref);
  g_clear_pointer (&self->project_bytes, g_bytes_unref);
  self->user_bytes = user != NULL ? g_bytes_ref (user) : NULL;
  self->project_bytes = project != NULL ? g_bytes_ref (project) : NULL;
  apply_documents (self);
}

void
mcp_settings_start_load (McpSettings *self,
                         GTask       *task)
{
  g_autoptr(GTask) worker = NULL;
  LoadData *data = g_new0 (LoadData, 1);

  if (task == NULL)
    {
      task = g_task_new (NULL, self->cancellable, NULL, NULL);
      g_task_set_source_tag (task, mcp_settings_start_load);
      data->emit = TRUE;
    }
  else
    {
      g_object_ref (task);
      data->emit = g_task_get_source_tag (task) != mcp_settings_load_async;
    }

  g_weak_ref_init (&data->self, self);
  data->user_path = g_strdup (self->user_path);
  data->project_path = g_strdup (self->project_path);
  data->generation = ++self->generation;
  self->loading++;

  /* files are read off the main thread: a slow disk never blocks it */
  worker = g_task_new (NULL, g_task_get_cancellable (task), load_done_cb, task);
  g_task_set_source_tag (worker, load_thread);
  g_task_set_task_data (worker, data, (GDestroyNotify)load_data_free);
  g_task_run_in_thread (worker, load_thread);
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

  mcp_settings_start_load (self, NULL);
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

  mcp_settings_start_load (self, task);
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
  return mcp_settings_scope_file (self, scope);
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

McpApprovalState *
mcp_settings_get_approval_state (McpSettings *self,
                                 const char  *name)
{
  return g_hash_table_lookup (self->launches, name);
}

char **
mcp_settings_dup_approval_changes (McpSettings *self,
                                   const char  *name)
{
  McpApprovalState *state;

  g_return_val_if_fail (MCP_IS_SETTINGS (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  if (mcp_settings_get_approval (self, name) != MCP_APPROVAL_CHANGED)
    return NULL;
  state = g_hash_table_lookup (self->launches, name);

  return mcp_launch_dup_changes (state->approved_launch, state->launch);
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

const char * const *
mcp_settings_get_scope_rules (McpSettings    *self,
                              McpConfigScope  scope,
                              McpRuleList     list)
{
  static const char * const none[] = { NULL };
  char **rules;

  g_return_val_if_fail (MCP_IS_SETTINGS (self), none);
  g_return_val_if_fail (list >= MCP_RULE_ALLOW && list <= MCP_RULE_DENY, none);

  if (scope == MCP_CONFIG_SCOPE_PROJECT)
    return none;
  rules = self->scope_rules[scope == MCP_CONFIG_SCOPE_LOCAL ? 1 : 0][list - MCP_RULE_ALLOW];

  return rules != NULL ? (const char * const *) rules : none;
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
  g_clear_error (&self->user_error);
  g_clear_error (&self->project_error);
  g_clear_object (&self->servers);
  g_clear_object (&self->shadowed);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
  g_clear_pointer (&self->approvals, g_hash_table_unref);
  g_clear_pointer (&self->launches, g_hash_table_unref);
  g_clear_pointer (&self->bind_tried, g_hash_table_unref);
  g_clear_pointer (&self->pending, g_ptr_array_unref);
  g_clear_pointer (&self->allow, g_strfreev);
  g_clear_pointer (&self->deny, g_strfreev);
  g_clear_pointer (&self->ask, g_strfreev);
  for (guint s = 0; s < 2; s++)
    for (guint l = 0; l < 3; l++)
      g_clear_pointer (&self->scope_rules[s][l], g_strfreev);

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
  self->launches = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                          (GDestroyNotify) approval_state_free);
  self->bind_tried = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
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
