/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-config"

#include "config.h"

#include "mcp-settings.h"

#include <string.h>

#include "mcp-launch.h"
#include "mcp-settings-private.h"

/* McpSettings: the object, its scopes and what it holds as last loaded.
 * Its parts: mcp-settings-load.c (reading the files, watching them),
 * mcp-settings-read.c (the documents into the models),
 * mcp-settings-write.c, mcp-settings-transaction.c, mcp-settings-edit.c
 * and mcp-settings-edit-lists.c (the changes). */

enum {
  PROP_0,
  PROP_USER_CONFIG_DIR,
  PROP_PROJECT_DIR,
  PROP_CLIENT,
  PROP_HOME,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (McpSettings, mcp_settings, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
approval_state_free (McpApprovalState *state)
{
  g_free (state->digest);
  g_clear_pointer (&state->launch, json_object_unref);
  g_free (state->approved_digest);
  g_clear_pointer (&state->approved_launch, json_object_unref);
  g_free (state);
}

/* Scopes */

/* NULL for a scope the client lacks */
const char *
mcp_settings_scope_file (McpSettings    *self,
                         McpConfigScope  scope)
{
  if (self->layout.containers[scope] == NULL)
    return NULL;

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

void
mcp_settings_emit_changed (McpSettings *self)
{
  g_signal_emit (self, signals[CHANGED], 0);
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

  mcp_settings_set_up_files (self);
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
  if (self->plugboard_monitor != NULL)
    g_file_monitor_cancel (self->plugboard_monitor);
  g_clear_object (&self->user_monitor);
  g_clear_object (&self->project_monitor);
  g_clear_object (&self->plugboard_monitor);

  G_OBJECT_CLASS (mcp_settings_parent_class)->dispose (object);
}

static void
mcp_settings_finalize (GObject *object)
{
  McpSettings *self = (McpSettings *)object;

  g_clear_pointer (&self->user_config_dir, g_free);
  g_clear_pointer (&self->project_dir, g_free);
  g_clear_pointer (&self->home, g_free);
  g_clear_pointer (&self->user_path, g_free);
  g_clear_pointer (&self->project_path, g_free);
  g_clear_object (&self->user_file);
  g_clear_object (&self->project_file);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->user_bytes, g_bytes_unref);
  g_clear_pointer (&self->project_bytes, g_bytes_unref);
  g_clear_error (&self->user_error);
  g_clear_error (&self->project_error);
  g_clear_pointer (&self->plugboard_path, g_free);
  g_clear_object (&self->plugboard_file);
  g_clear_pointer (&self->plugboard_bytes, g_bytes_unref);
  g_clear_error (&self->plugboard_error);
  mcp_settings_layout_clear (&self->layout);
  g_clear_pointer (&self->notes, g_hash_table_unref);
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

    case PROP_CLIENT:
      g_value_set_enum (value, self->client);
      break;

    case PROP_HOME:
      g_value_set_string (value, self->layout.home);
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

    case PROP_CLIENT:
      self->client = g_value_get_enum (value);
      break;

    case PROP_HOME:
      self->home = g_value_dup_string (value);
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
  properties[PROP_CLIENT] =
    g_param_spec_enum ("client", NULL, NULL, MCP_TYPE_CLIENT_KIND, MCP_CLIENT_KIND_PLUGBOARD,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                       G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* another client's: where its files are (NULL: g_get_home_dir()) */
  properties[PROP_HOME] =
    g_param_spec_string ("home", NULL, NULL, NULL,
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
  self->notes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_strfreev);
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
