/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-project"

#include "config.h"

#include "mcp-project-private.h"

#include <glib/gi18n.h>

#include "mcp-error.h"

/* ------------------------------------------------------------------------ */


G_DEFINE_FINAL_TYPE (McpProject, mcp_project, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_PROJECT_DIR,
  PROP_USER_CONFIG_DIR,
  PROP_SETTINGS,
  PROP_MANAGER,
  PROP_SERVERS,
  PROP_LOADED,
  PROP_TOOL_POOL,
  PROP_PERMISSIONS,
  PROP_HISTORY,
  PROP_INTERACTION,
  PROP_LIMITS,
  PROP_CLIENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
append_rules (GString            *key,
              const char * const *rules)
{
  for (guint i = 0; rules != NULL && rules[i] != NULL; i++)
    {
      g_string_append (key, rules[i]);
      g_string_append_c (key, '\n');
    }
  g_string_append_c (key, '\x1e');
}

/* McpPermissions is immutable: a new one when the rules change. */
void
mcp_project_update_permissions (McpProject *self,
                                gboolean    force)
{
  const char * const *allow = mcp_settings_get_permissions_allow (self->settings);
  const char * const *deny = mcp_settings_get_permissions_deny (self->settings);
  const char * const *ask = mcp_settings_get_permissions_ask (self->settings);
  GListModel *servers = mcp_settings_get_servers (self->settings);
  g_autoptr(GString) key = g_string_new (NULL);

  append_rules (key, allow);
  append_rules (key, deny);
  append_rules (key, ask);
  /* The servers' names settle how a rule with `__` inside is read. */
  for (guint i = 0; i < g_list_model_get_n_items (servers); i++)
    {
      g_autoptr(McpServerConfig) config = g_list_model_get_item (servers, i);

      g_string_append (key, mcp_server_config_get_name (config));
      g_string_append_c (key, '\n');
    }

  if (!force && self->permissions != NULL && g_strcmp0 (self->permissions_key, key->str) == 0)
    return;

  g_free (self->permissions_key);
  self->permissions_key = g_strdup (key->str);
  g_clear_object (&self->permissions);
  self->permissions = mcp_permissions_new_from_settings (self->settings);
  mcp_project_check_changes (self, self->permissions);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PERMISSIONS]);
}

/* The manager gets the settings' servers and then the servers being
 * tried. A try whose name the settings now have (it was saved, or the
 * name was taken in a file) is over: the saved entry wins, and when it is
 * the same entry the connection goes on (equal memo keys). */
void
mcp_project_push_configs (McpProject *self)
{
  GListModel *servers = mcp_settings_get_servers (self->settings);
  g_autoptr(GListStore) all = NULL;

  if (self->connect_only != NULL)
    {
      mcp_project_push_only (self);
      mcp_server_manager_update_approvals (self->manager, self->settings);
      return;
    }

  if (self->unsaved->len == 0)
    {
      mcp_server_manager_set_configs (self->manager, servers);
      mcp_server_manager_update_approvals (self->manager, self->settings);
      return;
    }

  all = g_list_store_new (MCP_TYPE_SERVER_CONFIG);
  for (guint i = 0; i < g_list_model_get_n_items (servers); i++)
    {
      g_autoptr(McpServerConfig) config = g_list_model_get_item (servers, i);

      g_list_store_append (all, config);
    }

  for (guint i = self->unsaved->len; i > 0; i--)
    {
      McpServerConfig *config = g_ptr_array_index (self->unsaved, i - 1);

      if (mcp_settings_lookup (self->settings, mcp_server_config_get_name (config)) != NULL)
        g_ptr_array_remove_index (self->unsaved, i - 1);
    }
  for (guint i = 0; i < self->unsaved->len; i++)
    g_list_store_append (all, g_ptr_array_index (self->unsaved, i));

  mcp_server_manager_set_configs (self->manager, G_LIST_MODEL (all));
  mcp_server_manager_update_approvals (self->manager, self->settings);
}

static void
on_settings_changed_cb (McpProject *self)
{
  g_assert (MCP_IS_PROJECT (self));

  mcp_project_update_permissions (self, FALSE);

  if (!self->loaded)
    return;

  mcp_project_push_configs (self);
}

static GSettings *
create_gsettings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APPLICATION_ID, TRUE);
  if (schema == NULL)
    return NULL;

  return g_settings_new_full (schema, NULL, NULL);
}

/* The manager's limits are the project's McpLimits (the environment, then
 * the GSettings keys), and follow their changes. A manager handed in (by a
 * test, or the CLI's for an ad-hoc server) keeps what its maker set, but
 * for the limits the environment sets. */
static void
bind_limits (McpProject *self,
             gboolean    own_manager)
{
  for (McpLimit limit = 0; limit < MCP_N_LIMITS; limit++)
    {
      const char *property = mcp_limit_get_property_name (limit);

      if (own_manager)
        self->limit_bindings[limit] = g_object_bind_property (self->limits, property,
                                                              self->manager, property,
                                                              G_BINDING_SYNC_CREATE);
      else if (mcp_limits_get_override (self->limits, limit) != NULL)
        g_object_set (self->manager, property, mcp_limits_get (self->limits, limit), NULL);
    }

  g_object_set (self->manager, "oauth-request-timeout",
                mcp_limits_get_oauth_request_timeout (self->limits), NULL);
}

static void
mcp_project_constructed (GObject *object)
{
  McpProject *self = MCP_PROJECT (object);

  G_OBJECT_CLASS (mcp_project_parent_class)->constructed (object);

  if (self->limits == NULL)
    {
      g_autoptr(GSettings) gsettings = create_gsettings ();

      self->limits = mcp_limits_new (gsettings);
    }

  if (self->manager == NULL)
    {
      self->manager = mcp_server_manager_new ();
      bind_limits (self, TRUE);
    }
  else
    {
      bind_limits (self, FALSE);
    }

  self->settings = mcp_settings_new_for_client (self->client, NULL, self->user_config_dir,
                                                self->project_dir != NULL ? self->project_dir
                                                                          : g_get_home_dir ());
  g_signal_connect_object (self->settings, "changed",
                           G_CALLBACK (on_settings_changed_cb), self,
                           G_CONNECT_SWAPPED);

  /* Before any server connects: roots/list is declared at connect time. */
  self->roots = mcp_roots_new (self->project_dir);
  self->unsaved = g_ptr_array_new_with_free_func (g_object_unref);
  mcp_server_manager_set_roots (self->manager, self->roots);

  self->servers = mcp_server_list_new (G_LIST_MODEL (self->manager),
                                       mcp_settings_get_shadowed (self->settings));
  self->tool_pool = mcp_tool_pool_new (G_LIST_MODEL (self->manager));
  mcp_project_update_permissions (self, FALSE);
  mcp_project_watch_changes (self);
}

static void
mcp_project_dispose (GObject *object)
{
  McpProject *self = MCP_PROJECT (object);

  for (guint i = 0; i < G_N_ELEMENTS (self->limit_bindings); i++)
    if (self->limit_bindings[i] != NULL)
      g_binding_unbind (g_steal_pointer (&self->limit_bindings[i]));

  if (self->manager != NULL)
    mcp_project_set_interaction (self, NULL);

  /* A manager handed in by a test may outlive the project. */
  if (self->manager != NULL && self->roots != NULL &&
      mcp_server_manager_get_roots (self->manager) == self->roots)
    mcp_server_manager_set_roots (self->manager, NULL);
  g_clear_object (&self->roots);

  g_clear_object (&self->servers);
  g_clear_pointer (&self->unsaved, g_ptr_array_unref);
  g_clear_object (&self->tool_pool);
  g_clear_object (&self->permissions);
  g_clear_object (&self->history);
  g_clear_object (&self->settings);
  g_clear_object (&self->manager);
  g_clear_object (&self->limits);

  G_OBJECT_CLASS (mcp_project_parent_class)->dispose (object);
}

static void
mcp_project_finalize (GObject *object)
{
  McpProject *self = MCP_PROJECT (object);

  g_clear_pointer (&self->project_dir, g_free);
  g_clear_pointer (&self->user_config_dir, g_free);
  g_clear_pointer (&self->permissions_key, g_free);
  g_clear_pointer (&self->connect_only, g_strfreev);

  G_OBJECT_CLASS (mcp_project_parent_class)->finalize (object);
}

static void
mcp_project_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  McpProject *self = MCP_PROJECT (object);

  switch (prop_id)
    {
    case PROP_PROJECT_DIR:
      g_value_set_string (value, self->project_dir);
      break;

    case PROP_USER_CONFIG_DIR:
      g_value_set_string (value, self->user_config_dir);
      break;

    case PROP_SETTINGS:
      g_value_set_object (value, self->settings);
      break;

    case PROP_MANAGER:
      g_value_set_object (value, self->manager);
      break;

    case PROP_SERVERS:
      g_value_set_object (value, self->servers);
      break;

    case PROP_LOADED:
      g_value_set_boolean (value, self->loaded);
      break;

    case PROP_TOOL_POOL:
      g_value_set_object (value, self->tool_pool);
      break;

    case PROP_PERMISSIONS:
      g_value_set_object (value, self->permissions);
      break;

    case PROP_HISTORY:
      g_value_set_object (value, mcp_project_get_history (self));
      break;

    case PROP_INTERACTION:
      g_value_set_object (value, self->interaction);
      break;

    case PROP_CLIENT:
      g_value_set_enum (value, self->client);
      break;

    case PROP_LIMITS:
      g_value_set_object (value, self->limits);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_project_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  McpProject *self = MCP_PROJECT (object);

  switch (prop_id)
    {
    case PROP_PROJECT_DIR:
      self->project_dir = g_value_dup_string (value);
      break;

    case PROP_USER_CONFIG_DIR:
      self->user_config_dir = g_value_dup_string (value);
      break;

    case PROP_MANAGER:
      self->manager = g_value_dup_object (value);
      break;

    case PROP_HISTORY:
      mcp_project_set_history (self, g_value_get_object (value));
      break;

    case PROP_INTERACTION:
      mcp_project_set_interaction (self, g_value_get_object (value));
      break;

    case PROP_LIMITS:
      self->limits = g_value_dup_object (value);
      break;

    case PROP_CLIENT:
      self->client = g_value_get_enum (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
mcp_project_class_init (McpProjectClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = mcp_project_constructed;
  object_class->dispose = mcp_project_dispose;
  object_class->finalize = mcp_project_finalize;
  object_class->get_property = mcp_project_get_property;
  object_class->set_property = mcp_project_set_property;

  properties[PROP_PROJECT_DIR] =
    g_param_spec_string ("project-dir", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_USER_CONFIG_DIR] =
    g_param_spec_string ("user-config-dir", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL, MCP_TYPE_SETTINGS,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* Read-only to the window; a test may hand its own at construction. */
  properties[PROP_MANAGER] =
    g_param_spec_object ("manager", NULL, NULL, MCP_TYPE_SERVER_MANAGER,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SERVERS] =
    g_param_spec_object ("servers", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOADED] =
    g_param_spec_boolean ("loaded", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TOOL_POOL] =
    g_param_spec_object ("tool-pool", NULL, NULL, MCP_TYPE_TOOL_POOL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PERMISSIONS] =
    g_param_spec_object ("permissions", NULL, NULL, MCP_TYPE_PERMISSIONS,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_HISTORY] =
    g_param_spec_object ("history", NULL, NULL, MCP_TYPE_TOOL_HISTORY,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_INTERACTION] =
    g_param_spec_object ("interaction", NULL, NULL, MCP_TYPE_INTERACTION,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* By default made with the application's GSettings, when installed. */
  properties[PROP_LIMITS] =
    g_param_spec_object ("limits", NULL, NULL, MCP_TYPE_LIMITS,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /* whose settings files (mcp_project_new_for_client()) */
  properties[PROP_CLIENT] =
    g_param_spec_enum ("client", NULL, NULL, MCP_TYPE_CLIENT_KIND, MCP_CLIENT_KIND_PLUGBOARD,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                       G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* (server, tool): a tool an allow rule matches changed since the person
   * allowed it; the rule is suspended until mcp_project_confirm_tool(). */
  mcp_project_tool_changed_signal =
    g_signal_new ("tool-changed-since-allowed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
}

static void
mcp_project_init (McpProject *self)
{
}

McpProject *
mcp_project_new (const char *project_dir,
                 const char *user_config_dir)
{
  return g_object_new (MCP_TYPE_PROJECT,
                       "project-dir", project_dir,
                       "user-config-dir", user_config_dir,
                       NULL);
}

McpProject *
mcp_project_new_with_manager (const char       *project_dir,
                              const char       *user_config_dir,
                              McpServerManager *manager)
{
  g_return_val_if_fail (MCP_IS_SERVER_MANAGER (manager), NULL);

  return g_object_new (MCP_TYPE_PROJECT,
                       "project-dir", project_dir,
                       "user-config-dir", user_config_dir,
                       "manager", manager,
                       NULL);
}

McpLimits *
mcp_project_get_limits (McpProject *self)
{
  g_return_val_if_fail (MCP_IS_PROJECT (self), NULL);

  return self->limits;
}

const char *
mcp_project_get_project_dir (McpProject *self)
{
  g_return_val_if_fail (MCP_IS_PROJECT (self), NULL);

  return self->project_dir;
}

McpSettings *
mcp_project_get_settings (McpProject *self)
{
  g_return_val_if_fail (MCP_IS_PROJECT (self), NULL);

  return self->settings;
}

McpServerManager *
mcp_project_get_manager (McpProject *self)
{
  g_return_val_if_fail (MCP_IS_PROJECT (self), NULL);

  return self->manager;
}

McpToolPool *
mcp_project_get_tool_pool (McpProject *self)
{
  g_return_val_if_fail (MCP_IS_PROJECT (self), NULL);

  return self->tool_pool;
}

McpPermissions *
mcp_project_get_permissions (McpProject *self)
{
  g_return_val_if_fail (MCP_IS_PROJECT (self), NULL);

  return self->permissions;
}

McpToolHistory *
mcp_project_get_history (McpProject *self)
{
  g_return_val_if_fail (MCP_IS_PROJECT (self), NULL);

  /* The saved sets' file is read on first use, not for every project. */
  if (self->history == NULL)
    {
      g_autofree char *path = g_build_filename (g_get_user_data_dir (), "plugboard",
                                                "saved-arguments.json", NULL);

      self->history = mcp_tool_history_new (path);
    }

  return self->history;
}

void
mcp_project_set_history (McpProject     *self,
                         McpToolHistory *history)
{
  g_return_if_fail (MCP_IS_PROJECT (self));
  g_return_if_fail (!history || MCP_IS_TOOL_HISTORY (history));

  if (g_set_object (&self->history, history))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HISTORY]);
}

McpRoots *
mcp_project_get_roots (McpProject *self)
{
  g_return_val_if_fail (MCP_IS_PROJECT (self), NULL);

  return self->roots;
}

GListModel *
mcp_project_get_servers (McpProject *self)
{
  g_return_val_if_fail (MCP_IS_PROJECT (self), NULL);

  return G_LIST_MODEL (self->servers);
}

gboolean
mcp_project_get_loaded (McpProject *self)
{
  g_return_val_if_fail (MCP_IS_PROJECT (self), FALSE);

  return self->loaded;
}

/* ------------------------------------------------------------------------ */
/* Load                                                                     */

static void
on_settings_loaded_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpProject *self = g_task_get_source_object (task);
  g_autoptr(GError) error = NULL;

  if (!mcp_settings_load_finish (MCP_SETTINGS (object), result, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  mcp_project_update_permissions (self, FALSE);
  mcp_project_push_configs (self);

  if (!self->loaded)
    {
      self->loaded = TRUE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADED]);
    }

  g_task_return_boolean (task, TRUE);
}

void
mcp_project_load_async (McpProject          *self,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MCP_IS_PROJECT (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_project_load_async);

  if (self->ad_hoc)
    {
      mcp_project_load_ad_hoc (self, g_steal_pointer (&task));
      return;
    }

  mcp_settings_load_async (self->settings, cancellable, on_settings_loaded_cb,
                           g_steal_pointer (&task));
}

gboolean
mcp_project_load_finish (McpProject    *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (MCP_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}


/* ------------------------------------------------------------------------ */
/* Connecting only some servers (plugboard-cli)                             */

/* The manager gets the settings' servers that connect_only names, then
 * the servers being tried that it names. */
void
mcp_project_push_only (McpProject *self)
{
  GListModel *servers = mcp_settings_get_servers (self->settings);
  g_autoptr(GListStore) wanted = g_list_store_new (MCP_TYPE_SERVER_CONFIG);

  for (guint i = 0; i < g_list_model_get_n_items (servers); i++)
    {
      g_autoptr(McpServerConfig) config = g_list_model_get_item (servers, i);

      if (g_strv_contains ((const char * const *) self->connect_only,
                           mcp_server_config_get_name (config)))
        g_list_store_append (wanted, config);
    }
  for (guint i = 0; i < self->unsaved->len; i++)
    {
      McpServerConfig *config = g_ptr_array_index (self->unsaved, i);

      if (g_strv_contains ((const char * const *) self->connect_only,
                           mcp_server_config_get_name (config)))
        g_list_store_append (wanted, config);
    }

  mcp_server_manager_set_configs (self->manager, G_LIST_MODEL (wanted));
}

void
mcp_project_set_connect_only (McpProject         *self,
                              const char * const *names)
{
  g_return_if_fail (MCP_IS_PROJECT (self));

  g_clear_pointer (&self->connect_only, g_strfreev);
  if (names != NULL)
    self->connect_only = g_strdupv ((char **) names);

  if (self->loaded)
    mcp_project_push_configs (self);
}

/* An ad-hoc project (mcp_project_new_ad_hoc()) reads no file: loading it
 * connects its server. */
void
mcp_project_load_ad_hoc (McpProject *self,
                         GTask      *task)
{
  if (!self->loaded)
    {
      self->loaded = TRUE;
      mcp_project_push_configs (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADED]);
    }
  g_task_return_boolean (task, TRUE);
  g_object_unref (task);
}
