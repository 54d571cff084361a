/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-permissions"

#include "config.h"

#include "mcp-permissions.h"

#include <string.h>
#include <glib/gi18n-lib.h>

/* One way to read a rule: a server and one of its tools, or all of them. */
typedef struct
{
  char *server;
  char *tool;     /* NULL: every tool */
} Reading;

typedef struct
{
  char      *written;   /* as the settings have it, for messages */
  GPtrArray *readings;  /* Reading*, longest server first */
} Rule;

typedef enum
{
  LIST_DENY,
  LIST_ASK,
  LIST_ALLOW,
  N_LISTS
} List;

struct _McpPermissions
{
  GObject     parent_instance;

  GArray     *lists[N_LISTS];  /* Rule */
  GHashTable *servers;         /* normalised names of the configured servers */
  GPtrArray  *notes;           /* char*, NULL-terminated */
  gboolean    command_line;

  McpPermissionsChangedFunc changed_func;
  gpointer                  changed_data;
  GDestroyNotify            changed_destroy;
};

G_DEFINE_FINAL_TYPE (McpPermissions, mcp_permissions, G_TYPE_OBJECT)

static void
reading_free (gpointer data)
{
  Reading *reading = data;

  g_free (reading->server);
  g_free (reading->tool);
  g_free (reading);
}

static void
rule_clear (gpointer data)
{
  Rule *rule = data;

  g_clear_pointer (&rule->written, g_free);
  g_clear_pointer (&rule->readings, g_ptr_array_unref);
}

/* As McpToolPool makes qualified names: one `_` per character outside
 * [A-Za-z0-9_-] (and `*`, which only rules have). */
static char *
normalise (const char *text,
           gboolean    keep_star)
{
  GString *out = g_string_sized_new (strlen (text));

  for (const char *p = text; *p != '\0'; p++)
    {
      if (g_ascii_isalnum (*p) || *p == '_' || *p == '-' || (keep_star && *p == '*'))
        g_string_append_c (out, *p);
      else if ((guchar) *p < 0x80 || ((guchar) *p & 0xC0) == 0xC0)
        g_string_append_c (out, '_');  /* one `_` per character, not per byte */
    }

  return g_string_free (out, FALSE);
}

static void
add_reading (GPtrArray  *readings,
             const char *server,
             gssize      server_len,
             const char *tool)
{
  Reading *reading = g_new0 (Reading, 1);

  reading->server = g_strndup (server, server_len < 0 ? strlen (server) : (gsize) server_len);
  reading->tool = g_strdup (tool);
  g_ptr_array_add (readings, reading);
}

/* Every way to read the text after `mcp__`: the whole of it as a server,
 * and each `__` inside as the end of a server and the start of a tool. */
static GPtrArray *
rule_readings (const char *rest)
{
  GPtrArray *readings = g_ptr_array_new_with_free_func (reading_free);
  gsize len = strlen (rest);

  if (g_str_has_suffix (rest, "__*"))
    {
      if (len > 3)
        add_reading (readings, rest, len - 3, NULL);
      return readings;
    }

  add_reading (readings, rest, -1, NULL);
  for (gsize i = len; i-- > 1; )
    {
      if (i + 2 < len && rest[i] == '_' && rest[i + 1] == '_')
        add_reading (readings, rest, i, rest + i + 2);
    }

  return readings;
}

/* Whether @clean (a rule trimmed and normalised) is one the evaluator
 * reads; why not in @error. */
static gboolean
check_clean (const char  *written,
             const char  *clean,
             GError     **error)
{
  const char *star;

  if (!g_str_has_prefix (clean, "mcp__") || clean[5] == '\0' ||
      (g_str_has_suffix (clean, "__*") && strlen (clean) <= 8))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   /* Translators: keep mcp__SERVER and mcp__SERVER__TOOL as they are */
                   _("“%s” is not an MCP rule: it names a server (mcp__SERVER) or one of its tools (mcp__SERVER__TOOL)"),
                   written);
      return FALSE;
    }

  star = strchr (clean, '*');
  if (star != NULL && !(star[1] == '\0' && g_str_has_suffix (clean, "__*")))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   /* Translators: keep mcp__SERVER__* as it is */
                   _("“%s”: a wildcard may only end a rule, as mcp__SERVER__*"),
                   written);
      return FALSE;
    }

  return TRUE;
}

gboolean
mcp_permissions_check_rule (const char  *rule,
                            GError     **error)
{
  g_autofree char *trimmed = NULL;
  g_autofree char *clean = NULL;

  g_return_val_if_fail (rule != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  trimmed = g_strstrip (g_strdup (rule));
  clean = normalise (trimmed, TRUE);
  return check_clean (rule, clean, error);
}

static GArray *
parse_rules (const char * const *rules)
{
  GArray *array = g_array_new (FALSE, TRUE, sizeof (Rule));

  g_array_set_clear_func (array, rule_clear);

  for (guint i = 0; rules != NULL && rules[i] != NULL; i++)
    {
      g_autofree char *trimmed = g_strstrip (g_strdup (rules[i]));
      g_autofree char *clean = normalise (trimmed, TRUE);
      Rule rule = { 0 };

      g_autoptr(GError) error = NULL;

      if (!check_clean (rules[i], clean, &error))
        {
          g_debug ("Ignoring permission rule: %s", error->message);
          continue;
        }

      rule.written = g_strdup (rules[i]);
      rule.readings = rule_readings (clean + 5);
      if (rule.readings->len == 0)
        {
          g_debug ("Ignoring permission rule “%s”: it names no server", rules[i]);
          rule_clear (&rule);
          continue;
        }
      g_array_append_val (array, rule);
    }

  return array;
}

/* Whether @rule, in the list @list, matches the tool @tool of @server
 * (both normalised). */
static gboolean
rule_matches (McpPermissions *self,
              const Rule     *rule,
              List            list,
              const char     *server,
              const char     *tool)
{
  gboolean matched = FALSE;
  guint counted = 0;

  for (guint i = 0; i < rule->readings->len; i++)
    {
      const Reading *reading = g_ptr_array_index (rule->readings, i);

      if (!g_str_equal (reading->server, server) &&
          !g_hash_table_contains (self->servers, reading->server))
        continue;
      counted++;
      if (g_str_equal (reading->server, server) &&
          (reading->tool == NULL || g_str_equal (reading->tool, tool)))
        matched = TRUE;
    }

  /* Readings name distinct servers: more than one counted is ambiguous,
   * which never widens what may run. */
  if (matched && counted > 1 && list == LIST_ALLOW)
    return FALSE;
  return matched;
}

static const Rule *
find_match (McpPermissions *self,
            List            list,
            const char     *server,
            const char     *tool)
{
  GArray *rules = self->lists[list];

  for (guint i = 0; i < rules->len; i++)
    {
      const Rule *rule = &g_array_index (rules, Rule, i);

      if (rule_matches (self, rule, list, server, tool))
        return rule;
    }

  return NULL;
}

static void
add_notes (McpPermissions *self)
{
  for (guint list = 0; list < N_LISTS; list++)
    {
      GArray *rules = self->lists[list];

      for (guint i = 0; i < rules->len; i++)
        {
          const Rule *rule = &g_array_index (rules, Rule, i);
          g_autoptr(GPtrArray) named = g_ptr_array_new ();
          g_autofree char *joined = NULL;

          for (guint j = 0; j < rule->readings->len; j++)
            {
              const Reading *reading = g_ptr_array_index (rule->readings, j);

              if (g_hash_table_contains (self->servers, reading->server))
                g_ptr_array_add (named, reading->server);
            }
          if (named->len < 2)
            continue;

          g_ptr_array_add (named, NULL);
          joined = g_strjoinv ("”, “", (char **) named->pdata);
          g_ptr_array_insert (self->notes, self->notes->len - 1,
                              list == LIST_ALLOW
                              /* Translators: the first %s is a permission rule, the second a list of server names */
                              ? g_strdup_printf (_("The permission rule “%s” could name the servers “%s”: it allows none of them"),
                                                 rule->written, joined)
                              /* Translators: the first %s is a permission rule, the second a list of server names */
                              : g_strdup_printf (_("The permission rule “%s” could name the servers “%s”: it applies to each"),
                                                 rule->written, joined));
        }
    }
}

static void
mcp_permissions_finalize (GObject *object)
{
  McpPermissions *self = (McpPermissions *) object;

  for (guint i = 0; i < N_LISTS; i++)
    g_clear_pointer (&self->lists[i], g_array_unref);
  g_clear_pointer (&self->servers, g_hash_table_unref);
  g_clear_pointer (&self->notes, g_ptr_array_unref);
  if (self->changed_destroy != NULL)
    self->changed_destroy (self->changed_data);

  G_OBJECT_CLASS (mcp_permissions_parent_class)->finalize (object);
}

static void
mcp_permissions_class_init (McpPermissionsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mcp_permissions_finalize;
}

static void
mcp_permissions_init (McpPermissions *self)
{
  self->servers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->notes = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->notes, NULL);
}

McpPermissions *
mcp_permissions_new_for_servers (const char * const *allow,
                                 const char * const *deny,
                                 const char * const *ask,
                                 const char * const *servers)
{
  McpPermissions *self = g_object_new (MCP_TYPE_PERMISSIONS, NULL);

  self->lists[LIST_ALLOW] = parse_rules (allow);
  self->lists[LIST_DENY] = parse_rules (deny);
  self->lists[LIST_ASK] = parse_rules (ask);

  for (guint i = 0; servers != NULL && servers[i] != NULL; i++)
    g_hash_table_add (self->servers, normalise (servers[i], FALSE));
  add_notes (self);

  return self;
}

McpPermissions *
mcp_permissions_new (const char * const *allow,
                     const char * const *deny,
                     const char * const *ask)
{
  return mcp_permissions_new_for_servers (allow, deny, ask, NULL);
}

McpPermissions *
mcp_permissions_new_from_settings (McpSettings *settings)
{
  GListModel *servers;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  guint n;

  g_return_val_if_fail (MCP_IS_SETTINGS (settings), NULL);

  servers = mcp_settings_get_servers (settings);
  n = g_list_model_get_n_items (servers);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpServerConfig) config = g_list_model_get_item (servers, i);

      g_ptr_array_add (names, g_strdup (mcp_server_config_get_name (config)));
    }
  g_ptr_array_add (names, NULL);

  return mcp_permissions_new_for_servers (mcp_settings_get_permissions_allow (settings),
                                          mcp_settings_get_permissions_deny (settings),
                                          mcp_settings_get_permissions_ask (settings),
                                          (const char * const *) names->pdata);
}

McpPermissions *
mcp_permissions_new_command_line (void)
{
  McpPermissions *self = mcp_permissions_new_for_servers (NULL, NULL, NULL, NULL);

  self->command_line = TRUE;
  return self;
}

void
mcp_permissions_set_changed_func (McpPermissions            *self,
                                  McpPermissionsChangedFunc  func,
                                  gpointer                   user_data,
                                  GDestroyNotify             destroy)
{
  g_return_if_fail (MCP_IS_PERMISSIONS (self));

  if (self->changed_destroy != NULL)
    self->changed_destroy (self->changed_data);
  self->changed_func = func;
  self->changed_data = user_data;
  self->changed_destroy = destroy;
}

void
mcp_permissions_decide (McpPermissions        *self,
                        const char            *server,
                        const char            *tool,
                        McpPermissionHints     hints,
                        McpPermissionDecision *decision)
{
  static const McpPermission outcomes[N_LISTS] = {
    [LIST_DENY] = MCP_PERMISSION_DENY,
    [LIST_ASK] = MCP_PERMISSION_ASK,
    [LIST_ALLOW] = MCP_PERMISSION_ALLOW,
  };
  g_autofree char *server_name = NULL;
  g_autofree char *tool_name = NULL;

  g_return_if_fail (decision != NULL);
  *decision = (McpPermissionDecision) { MCP_PERMISSION_DENY, MCP_PERMISSION_REASON_RULE, NULL };
  g_return_if_fail (MCP_IS_PERMISSIONS (self));
  g_return_if_fail (server != NULL);
  g_return_if_fail (tool != NULL);

  if (self->command_line)
    {
      decision->permission = MCP_PERMISSION_ALLOW;
      decision->reason = MCP_PERMISSION_REASON_COMMAND_LINE;
      return;
    }

  server_name = normalise (server, FALSE);
  tool_name = normalise (tool, FALSE);

  /* deny > ask > allow */
  for (List list = LIST_DENY; list < N_LISTS; list++)
    {
      const Rule *match = find_match (self, list, server_name, tool_name);

      if (match != NULL)
        {
          decision->permission = outcomes[list];
          decision->reason = MCP_PERMISSION_REASON_RULE;
          decision->rule = match->written;
          /* a rug pull: what was allowed is not what runs now */
          if (list == LIST_ALLOW && self->changed_func != NULL &&
              self->changed_func (server, tool, self->changed_data))
            {
              decision->permission = MCP_PERMISSION_ASK;
              decision->reason = MCP_PERMISSION_REASON_CHANGED_SINCE_ALLOWED;
            }
          return;
        }
    }

  if ((hints & (MCP_PERMISSION_HINT_DESTRUCTIVE | MCP_PERMISSION_HINT_OPEN_WORLD)) != 0)
    {
      decision->permission = MCP_PERMISSION_ASK;
      decision->reason = MCP_PERMISSION_REASON_DEFAULT_ASK;
    }
  else
    {
      decision->permission = MCP_PERMISSION_ALLOW;
      decision->reason = MCP_PERMISSION_REASON_DEFAULT_CONSENT;
    }
}

McpPermissionHints
mcp_permission_hints_for_tool (McpPoolTool *tool)
{
  McpPermissionHints hints = MCP_PERMISSION_HINT_NONE;

  g_return_val_if_fail (MCP_IS_POOL_TOOL (tool), MCP_PERMISSION_HINT_DESTRUCTIVE | MCP_PERMISSION_HINT_OPEN_WORLD);

  if (mcp_pool_tool_get_destructive (tool))
    hints |= MCP_PERMISSION_HINT_DESTRUCTIVE;
  if (mcp_pool_tool_get_open_world (tool))
    hints |= MCP_PERMISSION_HINT_OPEN_WORLD;
  return hints;
}

void
mcp_permissions_decide_tool (McpPermissions        *self,
                             McpPoolTool           *tool,
                             McpPermissionDecision *decision)
{
  g_return_if_fail (MCP_IS_POOL_TOOL (tool));

  mcp_permissions_decide (self,
                          mcp_pool_tool_get_server_name (tool),
                          mcp_tool_get_name (mcp_pool_tool_get_tool (tool)),
                          mcp_permission_hints_for_tool (tool),
                          decision);
}

const char * const *
mcp_permissions_get_notes (McpPermissions *self)
{
  g_return_val_if_fail (MCP_IS_PERMISSIONS (self), NULL);

  return (const char * const *) self->notes->pdata;
}

const char *
mcp_permission_to_string (McpPermission permission)
{
  switch (permission)
    {
    case MCP_PERMISSION_ASK:
      return "ask";
    case MCP_PERMISSION_ALLOW:
      return "allow";
    case MCP_PERMISSION_DENY:
      return "deny";
    default:
      return "unknown";
    }
}

const char *
mcp_permission_reason_to_string (McpPermissionReason reason)
{
  switch (reason)
    {
    case MCP_PERMISSION_REASON_RULE:
      return "rule";
    case MCP_PERMISSION_REASON_DEFAULT_CONSENT:
      return "default-consent";
    case MCP_PERMISSION_REASON_DEFAULT_ASK:
      return "default-ask";
    case MCP_PERMISSION_REASON_COMMAND_LINE:
      return "command-line";
    case MCP_PERMISSION_REASON_CHANGED_SINCE_ALLOWED:
      return "changed-since-allowed";
    default:
      return "unknown";
    }
}

char *
mcp_permission_decision_describe (const McpPermissionDecision *decision)
{
  g_return_val_if_fail (decision != NULL, NULL);

  switch (decision->reason)
    {
    case MCP_PERMISSION_REASON_RULE:
      switch (decision->permission)
        {
        case MCP_PERMISSION_DENY:
          /* Translators: %s is a permission rule, e.g. "mcp__github__delete_repo" */
          return g_strdup_printf (_("Denied by the permission rule “%s”"), decision->rule);
        case MCP_PERMISSION_ALLOW:
          /* Translators: %s is a permission rule, e.g. "mcp__github__delete_repo" */
          return g_strdup_printf (_("Allowed by the permission rule “%s”"), decision->rule);
        case MCP_PERMISSION_ASK:
        default:
          /* Translators: %s is a permission rule, e.g. "mcp__github__delete_repo" */
          return g_strdup_printf (_("The permission rule “%s” says to ask first"), decision->rule);
        }
    case MCP_PERMISSION_REASON_DEFAULT_CONSENT:
      return g_strdup (_("No permission rule matches; the tool is neither destructive nor "
                         "open-world, so running it yourself is the consent"));
    case MCP_PERMISSION_REASON_DEFAULT_ASK:
      return g_strdup (_("No permission rule matches, and the tool may be destructive or reach "
                         "outside systems: it asks first"));
    case MCP_PERMISSION_REASON_COMMAND_LINE:
      return g_strdup (_("The server was given on the command line: it has no permission rules, "
                         "and the command line is the consent"));
    case MCP_PERMISSION_REASON_CHANGED_SINCE_ALLOWED:
      /* Translators: %s is a permission rule, e.g. "mcp__github__delete_repo" */
      return g_strdup_printf (_("The permission rule “%s” allows this tool, but its description or "
                                "schema changed since you allowed it; review the change and confirm it"), decision->rule);
    default:
      g_return_val_if_reached (NULL);
    }
}
