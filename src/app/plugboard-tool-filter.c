/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-tool-filter"

#include "config.h"

#include "plugboard-tool-filter.h"

#include <string.h>

#include "mcp-tool-pool.h"

/* PlugboardToolFilter: the tool list's search words and annotation
 * toggles, and the text a search looks in, cached on each pool entry. */

typedef struct
{
  char *qualified_name; /* the name the text was made with */
  char *text;           /* case-folded: title, name, qualified name, description */
} Haystack;

static void
haystack_free (gpointer data)
{
  Haystack *haystack = data;

  g_free (haystack->qualified_name);
  g_free (haystack->text);
  g_free (haystack);
}

static GQuark
haystack_quark (void)
{
  static GQuark quark;

  if G_UNLIKELY (quark == 0)
    quark = g_quark_from_static_string ("plugboard-tool-list-haystack");
  return quark;
}

static const char *
get_haystack (McpPoolTool *tool)
{
  const char *qualified_name = mcp_pool_tool_get_qualified_name (tool);
  Haystack *haystack = g_object_get_qdata (G_OBJECT (tool), haystack_quark ());
  McpTool *mcp_tool;
  const char *description;
  g_autoptr(GString) text = NULL;

  /* The qualified name is the one part that can change (a collision
   * elsewhere in the pool); the rest of an entry is immutable. */
  if (haystack != NULL && g_strcmp0 (haystack->qualified_name, qualified_name) == 0)
    return haystack->text;

  mcp_tool = mcp_pool_tool_get_tool (tool);
  description = mcp_pool_tool_get_description (tool);
  text = g_string_new (mcp_pool_tool_get_display_name (tool));
  if (mcp_tool != NULL)
    g_string_append_printf (text, "\n%s", mcp_tool_get_name (mcp_tool));
  g_string_append_printf (text, "\n%s", qualified_name);
  if (description != NULL)
    g_string_append_printf (text, "\n%s", description);

  haystack = g_new0 (Haystack, 1);
  haystack->qualified_name = g_strdup (qualified_name);
  haystack->text = g_utf8_casefold (text->str, text->len);
  g_object_set_qdata_full (G_OBJECT (tool), haystack_quark (), haystack, haystack_free);

  return haystack->text;
}

struct _PlugboardToolFilter
{
  GtkFilter  parent_instance;

  char     **words; /* case-folded, never empty strings */
  gboolean   read_only_only;
  gboolean   hide_destructive;
  gboolean   open_world_only;
};

G_DEFINE_FINAL_TYPE (PlugboardToolFilter, plugboard_tool_filter, GTK_TYPE_FILTER)

gboolean
plugboard_tool_filter_is_empty (PlugboardToolFilter *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_TOOL_FILTER (self), TRUE);

  return (self->words == NULL || self->words[0] == NULL) &&
         !self->read_only_only && !self->hide_destructive && !self->open_world_only;
}

static gboolean
plugboard_tool_filter_match (GtkFilter *filter,
                             gpointer   item)
{
  PlugboardToolFilter *self = (PlugboardToolFilter *)filter;
  McpPoolTool *tool = item;
  const char *haystack;

  if (!MCP_IS_POOL_TOOL (item))
    return FALSE;

  if (self->read_only_only && !mcp_pool_tool_get_read_only (tool))
    return FALSE;
  if (self->hide_destructive && mcp_pool_tool_get_destructive (tool))
    return FALSE;
  if (self->open_world_only && !mcp_pool_tool_get_open_world (tool))
    return FALSE;

  if (self->words == NULL || self->words[0] == NULL)
    return TRUE;

  haystack = get_haystack (tool);
  for (guint i = 0; self->words[i] != NULL; i++)
    {
      if (strstr (haystack, self->words[i]) == NULL)
        return FALSE;
    }
  return TRUE;
}

static GtkFilterMatch
plugboard_tool_filter_get_strictness (GtkFilter *filter)
{
  PlugboardToolFilter *self = (PlugboardToolFilter *)filter;

  /* Lets the filter model pass everything through at once. */
  if (plugboard_tool_filter_is_empty (self))
    return GTK_FILTER_MATCH_ALL;
  return GTK_FILTER_MATCH_SOME;
}

static void
plugboard_tool_filter_finalize (GObject *object)
{
  PlugboardToolFilter *self = (PlugboardToolFilter *)object;

  g_strfreev (self->words);

  G_OBJECT_CLASS (plugboard_tool_filter_parent_class)->finalize (object);
}

static void
plugboard_tool_filter_class_init (PlugboardToolFilterClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkFilterClass *filter_class = GTK_FILTER_CLASS (klass);

  object_class->finalize = plugboard_tool_filter_finalize;
  filter_class->match = plugboard_tool_filter_match;
  filter_class->get_strictness = plugboard_tool_filter_get_strictness;
}

static void
plugboard_tool_filter_init (PlugboardToolFilter *self)
{
}

PlugboardToolFilter *
plugboard_tool_filter_new (void)
{
  return g_object_new (PLUGBOARD_TYPE_TOOL_FILTER, NULL);
}

char *
plugboard_tool_filter_normalize_search (const char *search)
{
  g_autofree char *folded = g_utf8_casefold (search != NULL ? search : "", -1);
  g_auto(GStrv) parts = g_strsplit_set (folded, " \t\n\r", -1);
  g_autoptr(GString) result = g_string_new (NULL);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      if (parts[i][0] == '\0')
        continue;
      if (result->len > 0)
        g_string_append_c (result, ' ');
      g_string_append (result, parts[i]);
    }
  return g_string_free (g_steal_pointer (&result), FALSE);
}

void
plugboard_tool_filter_set_words (PlugboardToolFilter *self,
                                 const char          *normalized)
{
  g_return_if_fail (PLUGBOARD_IS_TOOL_FILTER (self));
  g_return_if_fail (normalized != NULL);

  g_strfreev (self->words);
  self->words = normalized[0] != '\0' ? g_strsplit (normalized, " ", -1) : NULL;
}

static gboolean *
toggle_field (PlugboardToolFilter       *self,
              PlugboardToolFilterToggle  toggle)
{
  switch (toggle)
    {
    case PLUGBOARD_TOOL_FILTER_READ_ONLY_ONLY:
      return &self->read_only_only;
    case PLUGBOARD_TOOL_FILTER_HIDE_DESTRUCTIVE:
      return &self->hide_destructive;
    case PLUGBOARD_TOOL_FILTER_OPEN_WORLD_ONLY:
      return &self->open_world_only;
    default:
      g_assert_not_reached ();
    }
}

gboolean
plugboard_tool_filter_get_toggle (PlugboardToolFilter       *self,
                                  PlugboardToolFilterToggle  toggle)
{
  g_return_val_if_fail (PLUGBOARD_IS_TOOL_FILTER (self), FALSE);

  return *toggle_field (self, toggle);
}

void
plugboard_tool_filter_set_toggle (PlugboardToolFilter       *self,
                                  PlugboardToolFilterToggle  toggle,
                                  gboolean                   value)
{
  g_return_if_fail (PLUGBOARD_IS_TOOL_FILTER (self));

  *toggle_field (self, toggle) = !!value;
}

gboolean
plugboard_tool_filter_has_toggles (PlugboardToolFilter *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_TOOL_FILTER (self), FALSE);

  return self->read_only_only || self->hide_destructive || self->open_world_only;
}
