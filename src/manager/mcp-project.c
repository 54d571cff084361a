/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-project"

#include "config.h"

#include "mcp-project.h"

#include <glib/gi18n.h>

#include "mcp-error.h"

#define EXAMPLE_NAME    "everything"
#define EXAMPLE_PACKAGE "@modelcontextprotocol/server-everything"

/* The "servers" model: the manager's connections, then the shadowed
 * configs. The manager replaces its whole list on every set_configs(), so
 * the model keeps the items it last showed and announces only the range
 * that really differs: rows (and the selection) of unchanged servers stay. */
typedef struct
{
  GObject    parent_instance;
  GListModel *first;
  GListModel *second;
  GPtrArray  *items;
} McpServerList;

typedef struct
{
  GObjectClass parent_class;
} McpServerListClass;

static GType mcp_server_list_get_type (void);
static void  mcp_server_list_iface_init (GListModelInterface *iface);

G_DEFINE_TYPE_WITH_CODE (McpServerList, mcp_server_list, G_TYPE_OBJECT,
                         G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, mcp_server_list_iface_init))

static GType
mcp_server_list_get_item_type (GListModel *model)
{
  return G_TYPE_OBJECT;
}

static guint
mcp_server_list_get_n_items (GListModel *model)
{
  return ((McpServerList *) model)->items->len;
}

static gpointer
mcp_server_list_get_item (GListModel *model,
                                guint       position)
{
  McpServerList *self = (McpServerList *) model;

  if (position >= self->items->len)
    return NULL;

  return g_object_ref (g_ptr_array_index (self->items, position));
}

static void
mcp_server_list_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = mcp_server_list_get_item_type;
  iface->get_n_items = mcp_server_list_get_n_items;
  iface->get_item = mcp_server_list_get_item;
}

static void
append_items (GPtrArray  *items,
              GListModel *model)
{
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (items, g_list_model_get_item (model, i));
}

static void
mcp_server_list_sync (McpServerList *self)
{
  g_autoptr(GPtrArray) fresh = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) old = NULL;
  guint prefix = 0;
  guint suffix = 0;

  append_items (fresh, self->first);
  append_items (fresh, self->second);

  while (prefix < fresh->len && prefix < self->items->len &&
         g_ptr_array_index (fresh, prefix) == g_ptr_array_index (self->items, prefix))
    prefix++;

  while (suffix < fresh->len - prefix && suffix < self->items->len - prefix &&
         g_ptr_array_index (fresh, fresh->len - 1 - suffix) ==
         g_ptr_array_index (self->items, self->items->len - 1 - suffix))
    suffix++;

  old = g_steal_pointer (&self->items);
  self->items = g_steal_pointer (&fresh);

  if (prefix == old->len && prefix == self->items->len)
    return;

  g_list_model_items_changed (G_LIST_MODEL (self), prefix,
                              old->len - prefix - suffix,
                              self->items->len - prefix - suffix);
}

static void
on_part_items_changed_cb (McpServerList *self)
{
  mcp_server_list_sync (self);
}

static void
mcp_server_list_dispose (GObject *object)
{
  McpServerList *self = (McpServerList *) object;

  if (self->first != NULL)
    g_signal_handlers_disconnect_by_data (self->first, self);
  if (self->second != NULL)
    g_signal_handlers_disconnect_by_data (self->second, self);
  g_clear_object (&self->first);
  g_clear_object (&self->second);

  G_OBJECT_CLASS (mcp_server_list_parent_class)->dispose (object);
}

static void
mcp_server_list_finalize (GObject *object)
{
  McpServerList *self = (McpServerList *) object;

  g_clear_pointer (&self->items, g_ptr_array_unref);

  G_OBJECT_CLASS (mcp_server_list_parent_class)->finalize (object);
}

static void
mcp_server_list_class_init (McpServerListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = mcp_server_list_dispose;
  object_class->finalize = mcp_server_list_finalize;
}

static void
mcp_server_list_init (McpServerList *self)
{
  self->items = g_ptr_array_new_with_free_func (g_object_unref);
}

static McpServerList *
mcp_server_list_new (GListModel *first,
                           GListModel *second)
{
  McpServerList *self = g_object_new (mcp_server_list_get_type (), NULL);

  self->first = g_object_ref (first);
  self->second = g_object_ref (second);
  g_signal_connect_swapped (first, "items-changed", G_CALLBACK (on_part_items_changed_cb), self);
  g_signal_connect_swapped (second, "items-changed", G_CALLBACK (on_part_items_changed_cb), self);
  mcp_server_list_sync (self);

  return self;
}

/* ------------------------------------------------------------------------ */

struct _McpProject
{
  GObject              parent_instance;

  char                *project_dir;
  char                *user_config_dir;

  McpSettings         *settings;
  McpServerManager    *manager;
  McpServerList *servers;
  GSettings           *gsettings;
  McpToolPool         *tool_pool;
  McpPermissions      *permissions;
  char                *permissions_key;
  McpToolHistory      *history;
  McpRoots            *roots;
  GPtrArray           *unsaved;       /* McpServerConfig: servers being tried */

  guint                loaded : 1;
};

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
static void
update_permissions (McpProject *self)
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

  if (self->permissions != NULL && g_strcmp0 (self->permissions_key, key->str) == 0)
    return;

  g_free (self->permissions_key);
  self->permissions_key = g_strdup (key->str);
  g_clear_object (&self->permissions);
  self->permissions = mcp_permissions_new_from_settings (self->settings);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PERMISSIONS]);
}

/* The manager gets the settings' servers and then the servers being
 * tried. A try whose name the settings now have (it was saved, or the
 * name was taken in a file) is over: the saved entry wins, and when it is
 * the same entry the connection goes on (equal memo keys). */
static void
push_configs (McpProject *self)
{
  GListModel *servers = mcp_settings_get_servers (self->settings);
  g_autoptr(GListStore) all = NULL;

  if (self->unsaved->len == 0)
    {
      mcp_server_manager_set_configs (self->manager, servers);
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
}

static void
on_settings_changed_cb (McpProject *self)
{
  g_assert (MCP_IS_PROJECT (self));

  update_permissions (self);

  if (!self->loaded)
    return;

  push_configs (self);
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

/* The GSettings keys set the manager's limits (and follow changes), unless
 * the environment variable of the limit is set. */
static void
bind_limits (McpProject *self)
{
  static const struct {
    const char *key;
    const char *property;
    const char *variable;
  } limits[] = {
    { "connect-timeout", "connect-timeout", "MCP_TIMEOUT" },
    { "local-batch-size", "local-batch-size", "MCP_SERVER_CONNECTION_BATCH_SIZE" },
    { "remote-batch-size", "remote-batch-size", "MCP_REMOTE_SERVER_CONNECTION_BATCH_SIZE" },
    { "tool-timeout", "tool-timeout", "MCP_TOOL_TIMEOUT" },
    { "request-timeout", "request-timeout", "MCP_REQUEST_TIMEOUT_MS" },
    { "max-output-tokens", "max-output-tokens", "MAX_MCP_OUTPUT_TOKENS" },
  };

  self->gsettings = create_gsettings ();
  if (self->gsettings == NULL)
    return;

  for (guint i = 0; i < G_N_ELEMENTS (limits); i++)
    {
      const char *value = g_getenv (limits[i].variable);

      if (value != NULL && value[0] != '\0')
        continue;

      g_settings_bind (self->gsettings, limits[i].key,
                       self->manager, limits[i].property,
                       G_SETTINGS_BIND_GET);
    }
}

static void
mcp_project_constructed (GObject *object)
{
  McpProject *self = MCP_PROJECT (object);

  G_OBJECT_CLASS (mcp_project_parent_class)->constructed (object);

  if (self->manager == NULL)
    {
      self->manager = mcp_server_manager_new ();
      bind_limits (self);
    }

  self->settings = mcp_settings_new (self->user_config_dir,
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
  update_permissions (self);
}

static void
mcp_project_dispose (GObject *object)
{
  McpProject *self = MCP_PROJECT (object);

  if (self->gsettings != NULL && self->manager != NULL)
    {
      g_settings_unbind (self->manager, "connect-timeout");
      g_settings_unbind (self->manager, "local-batch-size");
      g_settings_unbind (self->manager, "remote-batch-size");
    }

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
  g_clear_object (&self->gsettings);

  G_OBJECT_CLASS (mcp_project_parent_class)->dispose (object);
}

static void
mcp_project_finalize (GObject *object)
{
  McpProject *self = MCP_PROJECT (object);

  g_clear_pointer (&self->project_dir, g_free);
  g_clear_pointer (&self->user_config_dir, g_free);
  g_clear_pointer (&self->permissions_key, g_free);

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

  g_object_class_install_properties (object_class, N_PROPS, properties);
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
mcp_project_set_history (McpProject *self,
                               McpToolHistory   *history)
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

  update_permissions (self);
  push_configs (self);

  if (!self->loaded)
    {
      self->loaded = TRUE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADED]);
    }

  g_task_return_boolean (task, TRUE);
}

void
mcp_project_load_async (McpProject    *self,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MCP_IS_PROJECT (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_project_load_async);

  mcp_settings_load_async (self->settings, cancellable, on_settings_loaded_cb,
                           g_steal_pointer (&task));
}

gboolean
mcp_project_load_finish (McpProject  *self,
                               GAsyncResult      *result,
                               GError           **error)
{
  g_return_val_if_fail (MCP_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ------------------------------------------------------------------------ */
/* Operations                                                               */

static gboolean
find_unsaved (McpProject *self,
              const char       *name,
              guint            *index)
{
  for (guint i = 0; self->unsaved != NULL && i < self->unsaved->len; i++)
    {
      McpServerConfig *config = g_ptr_array_index (self->unsaved, i);

      if (g_strcmp0 (mcp_server_config_get_name (config), name) == 0)
        {
          if (index != NULL)
            *index = i;
          return TRUE;
        }
    }

  return FALSE;
}

/* An entry of the settings: what writes to a scope need. */
static McpServerConfig *
lookup_config (McpProject  *self,
               const char        *name,
               GError           **error)
{
  McpServerConfig *config = mcp_settings_lookup (self->settings, name);

  if (config == NULL && find_unsaved (self, name, NULL))
    g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                 _("“%s” is only being tried: save it to a scope first"), name);
  else if (config == NULL)
    g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                 _("There is no server named “%s” in the settings"), name);

  return config;
}

static McpServerConnection *
lookup_connection (McpProject  *self,
                   const char        *name,
                   GError           **error)
{
  McpServerConnection *connection = mcp_server_manager_lookup (self->manager, name);

  if (connection == NULL)
    g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                 _("There is no server named “%s”"), name);

  return connection;
}

/* A name no scope uses. */
static gboolean
name_is_taken (McpProject *self,
               const char       *name)
{
  if (mcp_settings_lookup (self->settings, name) != NULL)
    return TRUE;

  for (McpConfigScope scope = MCP_CONFIG_SCOPE_USER; scope <= MCP_CONFIG_SCOPE_LOCAL; scope++)
    if (mcp_settings_lookup_in_scope (self->settings, name, scope) != NULL)
      return TRUE;

  return FALSE;
}

static char *
pick_free_name (McpProject *self,
                const char       *base)
{
  if (!name_is_taken (self, base))
    return g_strdup (base);

  for (guint i = 2; ; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s-%u", base, i);

      if (!name_is_taken (self, name))
        return g_steal_pointer (&name);
    }
}

static JsonObject *
copy_object (JsonObject *object)
{
  g_autoptr(JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonNode) copy = NULL;

  json_node_set_object (node, object);
  copy = json_node_copy (node);

  return json_object_ref (json_node_get_object (copy));
}

static void
on_write_done_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  McpSettings *settings = MCP_SETTINGS (object);
  gpointer tag = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  gboolean ok = FALSE;

  if (tag == mcp_settings_add_server_async)
    ok = mcp_settings_add_server_finish (settings, result, &error);
  else if (tag == mcp_settings_remove_server_async)
    ok = mcp_settings_remove_server_finish (settings, result, &error);
  else if (tag == mcp_settings_set_server_enabled_async)
    ok = mcp_settings_set_server_enabled_finish (settings, result, &error);
  else if (tag == mcp_settings_move_server_async)
    ok = mcp_settings_move_server_finish (settings, result, &error);
  else if (tag == mcp_settings_set_approval_async)
    ok = mcp_settings_set_approval_finish (settings, result, &error);
  else if (tag == mcp_settings_set_rule_async)
    ok = mcp_settings_set_rule_finish (settings, result, &error);
  else
    g_assert_not_reached ();

  if (!ok)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

static void
on_reconnect_done_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_server_connection_reconnect_finish (MCP_SERVER_CONNECTION (object), result, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

static void
on_sign_out_done_cb (GObject      *object,
                     GAsyncResult *result,
                     gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_server_manager_sign_out_finish (MCP_SERVER_MANAGER (object), result, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

void
mcp_project_run_async (McpProject    *self,
                             McpProjectOp          op,
                             const char          *name,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  McpServerConnection *connection;
  McpServerConfig *config;

  g_return_if_fail (MCP_IS_PROJECT (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_project_run_async);

  switch (op)
    {
    case MCP_PROJECT_OP_RECONNECT:
      if ((connection = lookup_connection (self, name, &error)) == NULL)
        break;
      mcp_server_connection_reconnect_async (connection, cancellable, on_reconnect_done_cb,
                                             g_steal_pointer (&task));
      return;

    case MCP_PROJECT_OP_ENABLE:
    case MCP_PROJECT_OP_DISABLE:
      if ((config = lookup_config (self, name, &error)) == NULL)
        break;
      /* At once in the manager; the settings catch up after the write. */
      mcp_server_manager_set_server_enabled (self->manager, name, op == MCP_PROJECT_OP_ENABLE);
      g_task_set_task_data (task, mcp_settings_set_server_enabled_async, NULL);
      mcp_settings_set_server_enabled_async (self->settings, name,
                                             mcp_server_config_get_scope (config),
                                             op == MCP_PROJECT_OP_ENABLE,
                                             cancellable, on_write_done_cb,
                                             g_steal_pointer (&task));
      return;

    case MCP_PROJECT_OP_DUPLICATE:
      {
        g_autofree char *base = NULL;
        g_autofree char *new_name = NULL;
        g_autoptr(JsonObject) copy = NULL;

        if ((config = lookup_config (self, name, &error)) == NULL)
          break;
        base = g_strdup_printf ("%s-copy", name);
        new_name = pick_free_name (self, base);
        copy = copy_object (mcp_server_config_get_json (config));
        g_object_set_data_full (G_OBJECT (task), "new-name", g_strdup (new_name), g_free);
        g_task_set_task_data (task, mcp_settings_add_server_async, NULL);
        mcp_settings_add_server_async (self->settings, new_name,
                                       mcp_server_config_get_scope (config), copy,
                                       cancellable, on_write_done_cb, g_steal_pointer (&task));
        return;
      }

    case MCP_PROJECT_OP_REMOVE:
      {
        guint index;

        /* a server being tried is discarded: nothing to write */
        if (mcp_settings_lookup (self->settings, name) == NULL &&
            find_unsaved (self, name, &index))
          {
            g_ptr_array_remove_index (self->unsaved, index);
            if (self->loaded)
              push_configs (self);
            g_task_return_boolean (task, TRUE);
            return;
          }
      }
      if ((config = lookup_config (self, name, &error)) == NULL)
        break;
      g_task_set_task_data (task, mcp_settings_remove_server_async, NULL);
      mcp_settings_remove_server_async (self->settings, name,
                                        mcp_server_config_get_scope (config),
                                        cancellable, on_write_done_cb, g_steal_pointer (&task));
      return;

    case MCP_PROJECT_OP_APPROVE:
    case MCP_PROJECT_OP_REJECT:
      g_task_set_task_data (task, mcp_settings_set_approval_async, NULL);
      mcp_settings_set_approval_async (self->settings, name, op == MCP_PROJECT_OP_APPROVE,
                                       cancellable, on_write_done_cb, g_steal_pointer (&task));
      return;

    case MCP_PROJECT_OP_SIGN_OUT:
      mcp_server_manager_sign_out_async (self->manager, name, cancellable,
                                         on_sign_out_done_cb, g_steal_pointer (&task));
      return;

    default:
      g_set_error (&error, MCP_ERROR, MCP_ERROR_FAILED, _("Unknown operation %d"), op);
      break;
    }

  g_task_return_error (task, g_steal_pointer (&error));
}

gboolean
mcp_project_run_finish (McpProject  *self,
                              GAsyncResult      *result,
                              char             **out_name,
                              GError           **error)
{
  g_return_val_if_fail (MCP_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  if (out_name != NULL)
    *out_name = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;

  if (out_name != NULL)
    *out_name = g_strdup (g_object_get_data (G_OBJECT (result), "new-name"));

  return TRUE;
}

void
mcp_project_move_async (McpProject    *self,
                              const char          *name,
                              McpConfigScope       to,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  McpServerConfig *config;

  g_return_if_fail (MCP_IS_PROJECT (self));
  g_return_if_fail (name != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_project_move_async);

  if ((config = lookup_config (self, name, &error)) == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_task_set_task_data (task, mcp_settings_move_server_async, NULL);
  mcp_settings_move_server_async (self->settings, name,
                                  mcp_server_config_get_scope (config), to,
                                  cancellable, on_write_done_cb, g_steal_pointer (&task));
}

void
mcp_project_set_rule_async (McpProject    *self,
                                  const char          *rule,
                                  McpConfigScope       scope,
                                  McpRuleList          list,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *trimmed = NULL;

  g_return_if_fail (MCP_IS_PROJECT (self));
  g_return_if_fail (rule != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_project_set_tool_rule_async);

  /* a rule the evaluator would ignore is refused, not written; taking one
   * out of the lists (NONE) works whatever it is */
  trimmed = g_strstrip (g_strdup (rule));
  if (list != MCP_RULE_NONE && !mcp_permissions_check_rule (trimmed, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (scope == MCP_CONFIG_SCOPE_PROJECT)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                               _("Permission rules are kept in your settings or in this project's "
                                 "entry of them (local scope), never in the project's .mcp.json"));
      return;
    }

  g_task_set_task_data (task, mcp_settings_set_rule_async, NULL);
  mcp_settings_set_rule_async (self->settings, list != MCP_RULE_NONE ? trimmed : rule, scope, list,
                               cancellable, on_write_done_cb, g_steal_pointer (&task));
}

/* Where the rules of a server go: a project's server gets them in this
 * project (local scope), a server of the person's own settings, or one
 * being tried, in those (user scope). */
static McpConfigScope
rule_scope_of (McpServerConfig *config)
{
  return config != NULL && mcp_server_config_get_scope (config) != MCP_CONFIG_SCOPE_USER
         ? MCP_CONFIG_SCOPE_LOCAL : MCP_CONFIG_SCOPE_USER;
}

void
mcp_project_set_tool_rule_async (McpProject    *self,
                                       McpPoolTool         *tool,
                                       McpRuleList          list,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data)
{
  McpServerConfig *config;

  g_return_if_fail (MCP_IS_PROJECT (self));
  g_return_if_fail (MCP_IS_POOL_TOOL (tool));

  /* The rule is the tool's qualified name: the evaluator reads it as this
   * server's tool, never as a prefix. */
  config = mcp_server_connection_get_config (mcp_pool_tool_get_connection (tool));
  mcp_project_set_rule_async (self, mcp_pool_tool_get_qualified_name (tool), rule_scope_of (config),
                                    list, cancellable, callback, user_data);
}

void
mcp_project_set_server_rule_async (McpProject    *self,
                                         const char          *name,
                                         McpRuleList          list,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *rule = NULL;
  McpServerConnection *connection;

  g_return_if_fail (MCP_IS_PROJECT (self));
  g_return_if_fail (name != NULL);

  /* the connection's config: a server being tried has rules too */
  if ((connection = lookup_connection (self, name, &error)) == NULL)
    {
      g_task_report_error (self, callback, user_data, mcp_project_set_tool_rule_async,
                           g_steal_pointer (&error));
      return;
    }

  rule = mcp_tool_pool_make_server_rule (name);
  mcp_project_set_rule_async (self, rule, rule_scope_of (mcp_server_connection_get_config (connection)),
                                    list, cancellable, callback, user_data);
}

gboolean
mcp_project_set_tool_rule_finish (McpProject  *self,
                                        GAsyncResult      *result,
                                        GError           **error)
{
  g_return_val_if_fail (MCP_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

gboolean
mcp_project_move_finish (McpProject  *self,
                               GAsyncResult      *result,
                               GError           **error)
{
  g_return_val_if_fail (MCP_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
mcp_project_restore_async (McpProject    *self,
                                 const char          *name,
                                 McpConfigScope       scope,
                                 JsonObject          *entry,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MCP_IS_PROJECT (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (entry != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_project_restore_async);
  g_task_set_task_data (task, mcp_settings_add_server_async, NULL);

  mcp_settings_add_server_async (self->settings, name, scope, entry,
                                 cancellable, on_write_done_cb, g_steal_pointer (&task));
}

gboolean
mcp_project_restore_finish (McpProject  *self,
                                  GAsyncResult      *result,
                                  GError           **error)
{
  g_return_val_if_fail (MCP_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
on_sign_in_done_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_server_manager_sign_in_finish (MCP_SERVER_MANAGER (object), result, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

void
mcp_project_sign_in_async (McpProject    *self,
                                 const char          *name,
                                 McpOAuthOpenUrlFunc  open_url,
                                 gpointer             open_url_data,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (MCP_IS_PROJECT (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (open_url != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_project_sign_in_async);

  mcp_server_manager_sign_in_async (self->manager, name, open_url, open_url_data,
                                    cancellable, on_sign_in_done_cb, g_steal_pointer (&task));
}

gboolean
mcp_project_sign_in_finish (McpProject  *self,
                                  GAsyncResult      *result,
                                  GError           **error)
{
  g_return_val_if_fail (MCP_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

void
mcp_project_add_example_async (McpProject    *self,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(JsonObject) entry = json_object_new ();
  g_autofree char *name = NULL;
  JsonArray *args = json_array_new ();

  g_return_if_fail (MCP_IS_PROJECT (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_project_add_example_async);

  json_object_set_string_member (entry, "command", "npx");
  json_array_add_string_element (args, "-y");
  json_array_add_string_element (args, EXAMPLE_PACKAGE);
  json_object_set_array_member (entry, "args", args);

  name = pick_free_name (self, EXAMPLE_NAME);
  g_object_set_data_full (G_OBJECT (task), "new-name", g_strdup (name), g_free);
  g_task_set_task_data (task, mcp_settings_add_server_async, NULL);

  mcp_settings_add_server_async (self->settings, name, MCP_CONFIG_SCOPE_USER, entry,
                                 cancellable, on_write_done_cb, g_steal_pointer (&task));
}

gboolean
mcp_project_add_example_finish (McpProject  *self,
                                      GAsyncResult      *result,
                                      char             **out_name,
                                      GError           **error)
{
  g_return_val_if_fail (MCP_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return mcp_project_run_finish (self, result, out_name, error);
}

/* ------------------------------------------------------------------------ */
/* Servers being tried                                                      */

gboolean
mcp_project_try_server (McpProject  *self,
                              const char        *name,
                              JsonObject        *entry,
                              GError           **error)
{
  g_autoptr(McpServerConfig) config = NULL;
  guint index;

  g_return_val_if_fail (MCP_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (entry != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (mcp_settings_lookup (self->settings, name) != NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_CONFIG,
                   _("A server named “%s” is already in the settings: try it under another name"),
                   name);
      return FALSE;
    }

  config = mcp_server_config_new_unsaved (name, entry, error);
  if (config == NULL)
    return FALSE;

  /* trying it again (changed) replaces the try */
  if (find_unsaved (self, name, &index))
    g_ptr_array_remove_index (self->unsaved, index);
  g_ptr_array_add (self->unsaved, g_steal_pointer (&config));

  if (self->loaded)
    push_configs (self);

  return TRUE;
}

McpServerConfig *
mcp_project_lookup_unsaved (McpProject *self,
                                  const char       *name)
{
  guint index;

  g_return_val_if_fail (MCP_IS_PROJECT (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  if (!find_unsaved (self, name, &index))
    return NULL;

  return g_ptr_array_index (self->unsaved, index);
}
