/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-settings.h"

#include <glib/gi18n.h>

#include "mcp-json-document.h"
#include "mcp-launch.h"
#include "mcp-server-config-private.h"
#include "mcp-settings-private.h"

/* McpSettings' reading of the documents: the bytes of the two files, as
 * last loaded, become the models (servers, shadowed, problems), the
 * approvals of the project's servers and the permission lists. */

static void
add_problem (GPtrArray  *problems,
             const char *file,
             const char *json_path,
             const char *message)
{
  McpSettingsProblem *problem;

  /* (a member on the way to two places, e.g. "projects", is looked at twice) */
  for (guint i = 0; i < problems->len; i++)
    {
      McpSettingsProblem *known = problems->pdata[i];

      if (g_strcmp0 (known->file, file) == 0 && g_strcmp0 (known->json_path, json_path) == 0 &&
          g_strcmp0 (known->message, message) == 0)
        return;
    }

  problem = g_new0 (McpSettingsProblem, 1);
  problem->file = g_strdup (file);
  problem->json_path = g_strdup (json_path);
  problem->message = g_strdup (message);
  g_debug ("%s", message);
  g_ptr_array_add (problems, problem);
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

/* The object at @names from @root: NULL when a member on the way is
 * missing or not an object (a problem), or there are no @names. *@parent
 * (if not NULL) is the object that holds it. */
static JsonObject *
get_object_path (JsonObject   *root,
                 char        **names,
                 const char   *file,
                 JsonObject  **parent,
                 GPtrArray    *problems)
{
  g_autofree char *path = g_strdup ("$");
  JsonObject *object = root;

  if (parent != NULL)
    *parent = NULL;
  if (names == NULL)
    return NULL;

  for (guint i = 0; names[i] != NULL && object != NULL; i++)
    {
      char *next = mcp_json_path_append_member (path, names[i]);

      if (parent != NULL)
        *parent = object;
      object = get_object_member (object, names[i], file, path, problems);
      g_free (path);
      path = next;
    }

  return object;
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
parse_document (GBytes          *bytes,
                GError          *read_error,
                const char      *file,
                McpJsonDialect   dialect,
                GPtrArray       *problems)
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
  root = mcp_json_document_parse (data, length, dialect, &error);
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

/* VS Code's "inputs", beside its servers (@parent holds them) */
static JsonArray *
get_inputs (JsonObject *parent)
{
  JsonNode *node = parent != NULL ? json_object_get_member (parent, "inputs") : NULL;

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

static void
read_servers (McpSettings    *self,
              JsonObject     *servers,
              JsonObject     *parent,
              McpConfigScope  scope,
              const char     *file,
              GPtrArray      *configs,
              GPtrArray      *problems)
{
  g_autofree char *path = NULL;
  JsonObjectIter iter;
  const char *name;
  JsonNode *node;

  if (servers == NULL)
    return;

  path = mcp_json_path_from_names ((const char * const *) self->layout.containers[scope], G_MAXUINT);
  json_object_iter_init_ordered (&iter, servers);
  while (json_object_iter_next_ordered (&iter, &name, &node))
    {
      g_autofree char *where = mcp_json_path_append_member (path, name);
      g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(JsonObject) entry = NULL;
      g_autoptr(GError) error = NULL;
      McpServerConfig *config;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        {
          g_autofree char *message = g_strdup_printf (_("%s: %s: expected an object (server “%s” is skipped)"),
                                                      file, where, name);

          add_problem (problems, file, where, message);
          continue;
        }

      /* another client's entry, in Plugboard's shape */
      entry = mcp_settings_layout_to_plugboard (&self->layout, name, json_node_get_object (node),
                                                get_inputs (parent), notes, &error);
      if (entry == NULL)
        {
          g_autofree char *message = g_strdup_printf ("%s: %s: %s", file, where, error->message);

          add_problem (problems, file, where, message);
          continue;
        }
      if (notes->len > 0)
        {
          g_ptr_array_add (notes, NULL);
          g_hash_table_replace (self->notes, mcp_settings_notes_key (name, scope),
                                g_ptr_array_steal (notes, NULL));
        }

      config = mcp_server_config_new_from_json (name, scope, entry, file, where, &error);
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
void
mcp_settings_apply_documents (McpSettings *self)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify)mcp_settings_problem_free);
  g_autoptr(GPtrArray) configs = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) effective = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) shadowed = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GHashTable) winners = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(JsonObject) user = NULL;
  g_autoptr(JsonObject) project = NULL;
  g_autoptr(JsonObject) plugboard = NULL;
  g_autofree char *local = NULL;
  g_autofree char *rules_local = NULL;
  g_auto(GStrv) user_allow = NULL, user_deny = NULL, user_ask = NULL;
  g_auto(GStrv) local_allow = NULL, local_deny = NULL, local_ask = NULL;
  g_auto(GStrv) enabled = NULL, disabled = NULL, switched_off = NULL;
  McpSettingsLayout *layout = &self->layout;
  JsonObject *lists_root;
  const char *lists_path;
  JsonObject *rules_root;
  const char *rules_path;
  JsonObject *rules_entry;
  JsonObject *entry;
  JsonObject *permissions;
  JsonObject *approved;
  JsonObject *servers;
  JsonObject *parent;
  gboolean enable_all = FALSE;

  g_hash_table_remove_all (self->notes);
  user = parse_document (self->user_bytes, self->user_error, self->user_path,
                         layout->dialects[SETTINGS_FILE_USER], problems);
  project = parse_document (self->project_bytes, self->project_error, self->project_path,
                            layout->dialects[SETTINGS_FILE_PROJECT], problems);
  plugboard = parse_document (self->plugboard_bytes, self->plugboard_error, self->plugboard_path,
                              MCP_JSON_DIALECT_JSON, problems);

  servers = get_object_path (user, layout->containers[MCP_CONFIG_SCOPE_USER], self->user_path,
                             &parent, problems);
  read_servers (self, servers, parent, MCP_CONFIG_SCOPE_USER, self->user_path, configs, problems);
  servers = get_object_path (project, layout->containers[MCP_CONFIG_SCOPE_PROJECT], self->project_path,
                             &parent, problems);
  read_servers (self, servers, parent, MCP_CONFIG_SCOPE_PROJECT, self->project_path, configs, problems);
  servers = get_object_path (user, layout->containers[MCP_CONFIG_SCOPE_LOCAL], self->user_path,
                             &parent, problems);
  read_servers (self, servers, parent, MCP_CONFIG_SCOPE_LOCAL, self->user_path, configs, problems);

  /* The approvals: in the user file (Plugboard's, Claude Code's), or for
   * another client in Plugboard's, under "clients"[ID] */
  lists_root = layout->lists_file == SETTINGS_FILE_USER ? user : plugboard;
  lists_path = layout->lists_file == SETTINGS_FILE_USER ? self->user_path : self->plugboard_path;
  local = mcp_json_path_from_names ((const char * const *) layout->lists_prefix, G_MAXUINT);
  entry = get_object_path (lists_root, layout->lists_prefix, lists_path, NULL, problems);

  enabled = get_strings (entry, "enabledMcpjsonServers", lists_path, local, problems);
  approved = get_object_member (entry, "approvedMcpjsonServers", lists_path, local, problems);
  disabled = get_strings (entry, "disabledMcpjsonServers", lists_path, local, problems);
  /* Claude Code's way of turning a user or local server off in one project */
  switched_off = get_strings (entry, "disabledMcpServers", lists_path, local, problems);
  if (entry != NULL && json_object_has_member (entry, "enableAllProjectMcpServers"))
    {
      JsonNode *node = json_object_get_member (entry, "enableAllProjectMcpServers");

      enable_all = JSON_NODE_HOLDS_VALUE (node) &&
                   json_node_get_value_type (node) == G_TYPE_BOOLEAN &&
                   json_node_get_boolean (node);
    }

  /* The permission rules are Plugboard's own, whatever the client */
  rules_root = layout->rules_file == SETTINGS_FILE_USER ? user : plugboard;
  rules_path = layout->rules_file == SETTINGS_FILE_USER ? self->user_path : self->plugboard_path;
  permissions = get_object_member (rules_root, "permissions", rules_path, "$", problems);
  user_allow = get_strings (permissions, "allow", rules_path, "$.permissions", problems);
  user_deny = get_strings (permissions, "deny", rules_path, "$.permissions", problems);
  user_ask = get_strings (permissions, "ask", rules_path, "$.permissions", problems);
  {
    g_autofree char *path = NULL;
    const char *names[] = { "projects", self->project_dir, NULL };

    rules_entry = get_object_path (rules_root, (char **) names, rules_path, NULL, problems);
    rules_local = mcp_json_path_from_names (names, G_MAXUINT);
    path = mcp_json_path_append_member (rules_local, "permissions");
    permissions = get_object_member (rules_entry, "permissions", rules_path, rules_local, problems);
    local_allow = get_strings (permissions, "allow", rules_path, path, problems);
    local_deny = get_strings (permissions, "deny", rules_path, path, problems);
    local_ask = get_strings (permissions, "ask", rules_path, path, problems);
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
