/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-permissions"

#include "config.h"

#include "mcp-permissions.h"

#include <string.h>

typedef struct
{
  char     *written;   /* as the settings have it, for messages */
  char     *pattern;   /* sanitized; a prefix when is_prefix */
  gboolean  is_prefix;
} Rule;

struct _McpPermissions
{
  GObject  parent_instance;

  GArray  *allow;
  GArray  *deny;
  GArray  *ask;
};

G_DEFINE_FINAL_TYPE (McpPermissions, mcp_permissions, G_TYPE_OBJECT)

static void
rule_clear (gpointer data)
{
  Rule *rule = data;

  g_clear_pointer (&rule->written, g_free);
  g_clear_pointer (&rule->pattern, g_free);
}

static char *
sanitize (const char *text)
{
  GString *out = g_string_sized_new (strlen (text));

  for (const char *p = text; *p != '\0'; p++)
    {
      if (g_ascii_isalnum (*p) || *p == '_' || *p == '-' || *p == '*')
        g_string_append_c (out, *p);
      else if ((guchar) *p < 0x80 || ((guchar) *p & 0xC0) == 0xC0)
        g_string_append_c (out, '_');  /* one `_` per character, not per byte */
    }

  return g_string_free (out, FALSE);
}

static GArray *
parse_rules (const char * const *rules)
{
  GArray *array = g_array_new (FALSE, TRUE, sizeof (Rule));

  g_array_set_clear_func (array, rule_clear);

  for (guint i = 0; rules != NULL && rules[i] != NULL; i++)
    {
      g_autofree char *trimmed = g_strstrip (g_strdup (rules[i]));
      g_autofree char *clean = NULL;
      const char *rest;
      const char *sep;
      Rule rule = { 0 };

      clean = sanitize (trimmed);
      if (!g_str_has_prefix (clean, "mcp__") || clean[5] == '\0')
        {
          g_debug ("Ignoring permission rule “%s”: not an MCP rule", rules[i]);
          continue;
        }

      rest = clean + 5;
      sep = strstr (rest, "__");
      rule.written = g_strdup (rules[i]);

      if (sep == NULL)
        {
          /* mcp__server: every tool of it */
          if (strchr (rest, '*') != NULL)
            {
              g_debug ("Ignoring permission rule “%s”: a wildcard only ends the rule", rules[i]);
              rule_clear (&rule);
              continue;
            }
          rule.pattern = g_strconcat (clean, "__", NULL);
          rule.is_prefix = TRUE;
        }
      else if (g_str_has_suffix (clean, "*"))
        {
          rule.pattern = g_strndup (clean, strlen (clean) - 1);
          rule.is_prefix = TRUE;
        }
      else
        {
          rule.pattern = g_steal_pointer (&clean);
          rule.is_prefix = FALSE;
        }

      if (strchr (rule.pattern, '*') != NULL)
        {
          g_debug ("Ignoring permission rule “%s”: a wildcard only ends the rule", rules[i]);
          rule_clear (&rule);
          continue;
        }

      g_array_append_val (array, rule);
    }

  return array;
}

static const Rule *
find_match (GArray     *rules,
            const char *name)
{
  for (guint i = 0; i < rules->len; i++)
    {
      const Rule *rule = &g_array_index (rules, Rule, i);

      if (rule->is_prefix ? g_str_has_prefix (name, rule->pattern)
                          : g_str_equal (name, rule->pattern))
        return rule;
    }

  return NULL;
}

static void
mcp_permissions_finalize (GObject *object)
{
  McpPermissions *self = (McpPermissions *) object;

  g_clear_pointer (&self->allow, g_array_unref);
  g_clear_pointer (&self->deny, g_array_unref);
  g_clear_pointer (&self->ask, g_array_unref);

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
}

McpPermissions *
mcp_permissions_new (const char * const *allow,
                     const char * const *deny,
                     const char * const *ask)
{
  McpPermissions *self = g_object_new (MCP_TYPE_PERMISSIONS, NULL);

  self->allow = parse_rules (allow);
  self->deny = parse_rules (deny);
  self->ask = parse_rules (ask);

  return self;
}

McpPermission
mcp_permissions_check (McpPermissions  *self,
                       const char      *qualified_name,
                       const char     **rule)
{
  const Rule *match;

  g_return_val_if_fail (MCP_IS_PERMISSIONS (self), MCP_PERMISSION_DENY);
  g_return_val_if_fail (qualified_name != NULL, MCP_PERMISSION_DENY);

  if (rule != NULL)
    *rule = NULL;

  if ((match = find_match (self->deny, qualified_name)) != NULL)
    {
      if (rule != NULL)
        *rule = match->written;
      return MCP_PERMISSION_DENY;
    }

  if ((match = find_match (self->allow, qualified_name)) != NULL)
    {
      if (rule != NULL)
        *rule = match->written;
      return MCP_PERMISSION_ALLOW;
    }

  if ((match = find_match (self->ask, qualified_name)) != NULL)
    {
      if (rule != NULL)
        *rule = match->written;
    }

  return MCP_PERMISSION_ASK;
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
