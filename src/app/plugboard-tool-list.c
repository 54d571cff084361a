/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-tool-list"

#include "config.h"

#include "plugboard-tool-list.h"

#include <glib/gi18n.h>

#include "mcp-tool-pool.h"
#include "plugboard-tool-filter.h"
#include "plugboard-tool-row.h"

struct _PlugboardToolList
{
  AdwBin               parent_instance;

  /* Template widgets */
  GtkSearchEntry      *search_entry;
  GtkMenuButton       *filter_button;
  GtkLabel            *count_label;
  GtkStack            *stack;
  GtkListView         *list_view;
  AdwStatusPage       *no_match_page;
  AdwStatusPage       *empty_page;

  /* Owned references */
  GListModel          *tools;
  McpPermissions      *permissions;
  PlugboardToolFilter *filter;
  GtkFilterListModel  *filter_model;
  GtkSortListModel    *sort_model;   /* by server, then tool: the same order every launch */
  GtkNoSelection      *selection;
  GHashTable          *bound_rows;
  char                *search;      /* as set */
  char                *normalized;  /* its words, case-folded */
  gulong               tools_handler;
  guint                n_shown;
  gboolean             setting_entry;
};

enum {
  PROP_0,
  PROP_TOOLS,
  PROP_PERMISSIONS,
  PROP_SEARCH,
  PROP_READ_ONLY_ONLY,
  PROP_HIDE_DESTRUCTIVE,
  PROP_OPEN_WORLD_ONLY,
  PROP_N_SHOWN,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (PlugboardToolList, plugboard_tool_list, ADW_TYPE_BIN)

static void
plugboard_tool_list_update_state (PlugboardToolList *self)
{
  guint total = self->tools != NULL ? g_list_model_get_n_items (self->tools) : 0;
  guint pending = gtk_filter_list_model_get_pending (self->filter_model);

  /* The count changes with every batch of an incremental filter; set once
   * the filter is done, it does not resize the whole page batch after
   * batch (nor flicker). */
  if (pending == 0)
    {
      g_autofree char *count = NULL;

      if (plugboard_tool_filter_is_empty (self->filter))
        count = g_strdup_printf (ngettext ("%u tool", "%u tools", total), total);
      else
        /* Translators: "3 of 120 tools": the tools shown of all the tools. */
        count = g_strdup_printf (ngettext ("%u of %u tool", "%u of %u tools", total), self->n_shown, total);
      gtk_label_set_text (self->count_label, count);
    }

  if (total == 0)
    gtk_stack_set_visible_child_name (self->stack, "empty");
  else if (self->n_shown > 0)
    gtk_stack_set_visible_child_name (self->stack, "list");
  else if (pending == 0)
    gtk_stack_set_visible_child_name (self->stack, "no-match");
}

static void
on_filter_items_changed_cb (PlugboardToolList *self)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->filter_model));

  if (n != self->n_shown)
    {
      self->n_shown = n;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_SHOWN]);
    }
  plugboard_tool_list_update_state (self);
}

static void
refilter (PlugboardToolList *self,
          GtkFilterChange    change)
{
  gtk_filter_changed (GTK_FILTER (self->filter), change);
  plugboard_tool_list_update_state (self);
}

/* ------------------------------------------------------------------------ */
/* Rows                                                                     */

static void
on_factory_setup_cb (GtkListItemFactory *factory,
                     GtkListItem        *item,
                     PlugboardToolList  *self)
{
  gtk_list_item_set_child (item, plugboard_tool_row_new ());
}

static void
on_factory_bind_cb (GtkListItemFactory *factory,
                    GtkListItem        *item,
                    PlugboardToolList  *self)
{
  GtkWidget *row = gtk_list_item_get_child (item);

  plugboard_tool_row_bind (PLUGBOARD_TOOL_ROW (row),
                           MCP_POOL_TOOL (gtk_list_item_get_item (item)),
                           self->permissions);
  g_hash_table_insert (self->bound_rows, row, gtk_list_item_get_item (item));
}

static void
on_factory_unbind_cb (GtkListItemFactory *factory,
                      GtkListItem        *item,
                      PlugboardToolList  *self)
{
  GtkWidget *row = gtk_list_item_get_child (item);

  plugboard_tool_row_unbind (PLUGBOARD_TOOL_ROW (row));
  g_hash_table_remove (self->bound_rows, row);
}

static void
on_list_activate_cb (PlugboardToolList *self,
                     guint              position)
{
  g_autoptr(McpPoolTool) tool = g_list_model_get_item (G_LIST_MODEL (self->filter_model), position);

  if (tool != NULL)
    g_signal_emit (self, signals[ACTIVATED], 0, tool);
}

static void
on_search_changed_cb (PlugboardToolList *self)
{
  /* The entry emits while the property is being set (and with the old
   * text): the property leads then. */
  if (self->setting_entry)
    return;
  plugboard_tool_list_set_search (self, gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
}

/* Enter in the search opens the first tool shown. */
static void
on_search_activate_cb (PlugboardToolList *self)
{
  on_search_changed_cb (self);
  if (gtk_filter_list_model_get_pending (self->filter_model) == 0 && self->n_shown > 0)
    on_list_activate_cb (self, 0);
}

/* ------------------------------------------------------------------------ */
/* Public API                                                               */

GtkWidget *
plugboard_tool_list_new (void)
{
  return g_object_new (PLUGBOARD_TYPE_TOOL_LIST, NULL);
}

void
plugboard_tool_list_set_tools (PlugboardToolList *self,
                               GListModel        *tools)
{
  g_return_if_fail (PLUGBOARD_IS_TOOL_LIST (self));
  g_return_if_fail (tools == NULL || G_IS_LIST_MODEL (tools));

  if (self->tools == tools)
    return;

  if (self->tools != NULL && self->tools_handler != 0)
    g_signal_handler_disconnect (self->tools, self->tools_handler);
  self->tools_handler = 0;
  g_set_object (&self->tools, tools);
  if (tools != NULL)
    self->tools_handler = g_signal_connect_object (tools, "items-changed",
                                                   G_CALLBACK (plugboard_tool_list_update_state),
                                                   self, G_CONNECT_SWAPPED);

  gtk_sort_list_model_set_model (self->sort_model, tools);
  on_filter_items_changed_cb (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOOLS]);
}

void
plugboard_tool_list_set_permissions (PlugboardToolList *self,
                                     McpPermissions    *permissions)
{
  GHashTableIter iter;
  gpointer row;
  gpointer tool;

  g_return_if_fail (PLUGBOARD_IS_TOOL_LIST (self));
  g_return_if_fail (permissions == NULL || MCP_IS_PERMISSIONS (permissions));

  if (!g_set_object (&self->permissions, permissions))
    return;

  /* Only the rows on screen are bound: give them the new rules. */
  g_hash_table_iter_init (&iter, self->bound_rows);
  while (g_hash_table_iter_next (&iter, &row, &tool))
    plugboard_tool_row_bind (PLUGBOARD_TOOL_ROW (row), MCP_POOL_TOOL (tool), permissions);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PERMISSIONS]);
}

void
plugboard_tool_list_set_search (PlugboardToolList *self,
                                const char        *search)
{
  g_autofree char *normalized = NULL;
  const char *old;
  GtkFilterChange change;

  g_return_if_fail (PLUGBOARD_IS_TOOL_LIST (self));

  if (search == NULL)
    search = "";
  if (g_strcmp0 (self->search, search) == 0)
    return;

  g_free (self->search);
  self->search = g_strdup (search);
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->search_entry)), search) != 0)
    {
      self->setting_entry = TRUE;
      gtk_editable_set_text (GTK_EDITABLE (self->search_entry), search);
      self->setting_entry = FALSE;
    }

  normalized = plugboard_tool_filter_normalize_search (search);
  old = self->normalized;
  if (!g_str_equal (old, normalized))
    {
      /* A longer query (more words, or a word typed further) only ever
       * narrows what shows: the filter model then looks only at the items
       * still shown. */
      if (g_str_has_prefix (normalized, old))
        change = GTK_FILTER_CHANGE_MORE_STRICT;
      else if (g_str_has_prefix (old, normalized))
        change = GTK_FILTER_CHANGE_LESS_STRICT;
      else
        change = GTK_FILTER_CHANGE_DIFFERENT;

      plugboard_tool_filter_set_words (self->filter, normalized);
      g_free (self->normalized);
      self->normalized = g_steal_pointer (&normalized);
      refilter (self, change);
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEARCH]);
}

guint
plugboard_tool_list_get_n_shown (PlugboardToolList *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_TOOL_LIST (self), 0);

  return self->n_shown;
}

GListModel *
plugboard_tool_list_get_shown_model (PlugboardToolList *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_TOOL_LIST (self), NULL);

  return G_LIST_MODEL (self->filter_model);
}

static void
set_toggle (PlugboardToolList         *self,
            PlugboardToolFilterToggle  toggle,
            gboolean                   value,
            guint                      prop_id)
{
  value = !!value;
  if (plugboard_tool_filter_get_toggle (self->filter, toggle) == value)
    return;

  plugboard_tool_filter_set_toggle (self->filter, toggle, value);
  refilter (self, value ? GTK_FILTER_CHANGE_MORE_STRICT : GTK_FILTER_CHANGE_LESS_STRICT);
  if (value)
    gtk_widget_add_css_class (GTK_WIDGET (self->filter_button), "accent");
  else if (!plugboard_tool_filter_has_toggles (self->filter))
    gtk_widget_remove_css_class (GTK_WIDGET (self->filter_button), "accent");
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static void
plugboard_tool_list_dispose (GObject *object)
{
  PlugboardToolList *self = (PlugboardToolList *)object;

  /* Unbinds every row while the table they are kept in still exists. */
  if (self->list_view != NULL)
    {
      gtk_list_view_set_model (self->list_view, NULL);
      gtk_list_view_set_factory (self->list_view, NULL);
    }

  if (self->tools != NULL && self->tools_handler != 0)
    g_signal_handler_disconnect (self->tools, self->tools_handler);
  self->tools_handler = 0;

  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_TOOL_LIST);

  g_clear_object (&self->selection);
  g_clear_object (&self->filter_model);
  g_clear_object (&self->sort_model);
  g_clear_object (&self->filter);
  g_clear_object (&self->tools);
  g_clear_object (&self->permissions);

  G_OBJECT_CLASS (plugboard_tool_list_parent_class)->dispose (object);
}

static void
plugboard_tool_list_finalize (GObject *object)
{
  PlugboardToolList *self = (PlugboardToolList *)object;

  g_clear_pointer (&self->bound_rows, g_hash_table_unref);
  g_free (self->search);
  g_free (self->normalized);

  G_OBJECT_CLASS (plugboard_tool_list_parent_class)->finalize (object);
}

static void
plugboard_tool_list_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  PlugboardToolList *self = PLUGBOARD_TOOL_LIST (object);

  switch (prop_id)
    {
    case PROP_TOOLS:
      g_value_set_object (value, self->tools);
      break;
    case PROP_PERMISSIONS:
      g_value_set_object (value, self->permissions);
      break;
    case PROP_SEARCH:
      g_value_set_string (value, self->search);
      break;
    case PROP_READ_ONLY_ONLY:
      g_value_set_boolean (value,
                           plugboard_tool_filter_get_toggle (self->filter, PLUGBOARD_TOOL_FILTER_READ_ONLY_ONLY));
      break;
    case PROP_HIDE_DESTRUCTIVE:
      g_value_set_boolean (value,
                           plugboard_tool_filter_get_toggle (self->filter, PLUGBOARD_TOOL_FILTER_HIDE_DESTRUCTIVE));
      break;
    case PROP_OPEN_WORLD_ONLY:
      g_value_set_boolean (value,
                           plugboard_tool_filter_get_toggle (self->filter, PLUGBOARD_TOOL_FILTER_OPEN_WORLD_ONLY));
      break;
    case PROP_N_SHOWN:
      g_value_set_uint (value, self->n_shown);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_tool_list_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  PlugboardToolList *self = PLUGBOARD_TOOL_LIST (object);

  switch (prop_id)
    {
    case PROP_TOOLS:
      plugboard_tool_list_set_tools (self, g_value_get_object (value));
      break;
    case PROP_PERMISSIONS:
      plugboard_tool_list_set_permissions (self, g_value_get_object (value));
      break;
    case PROP_SEARCH:
      plugboard_tool_list_set_search (self, g_value_get_string (value));
      break;
    case PROP_READ_ONLY_ONLY:
      set_toggle (self, PLUGBOARD_TOOL_FILTER_READ_ONLY_ONLY, g_value_get_boolean (value), prop_id);
      break;
    case PROP_HIDE_DESTRUCTIVE:
      set_toggle (self, PLUGBOARD_TOOL_FILTER_HIDE_DESTRUCTIVE, g_value_get_boolean (value), prop_id);
      break;
    case PROP_OPEN_WORLD_ONLY:
      set_toggle (self, PLUGBOARD_TOOL_FILTER_OPEN_WORLD_ONLY, g_value_get_boolean (value), prop_id);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_tool_list_class_init (PlugboardToolListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = plugboard_tool_list_dispose;
  object_class->finalize = plugboard_tool_list_finalize;
  object_class->get_property = plugboard_tool_list_get_property;
  object_class->set_property = plugboard_tool_list_set_property;

  properties[PROP_TOOLS] =
    g_param_spec_object ("tools", NULL, NULL, G_TYPE_LIST_MODEL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PERMISSIONS] =
    g_param_spec_object ("permissions", NULL, NULL, MCP_TYPE_PERMISSIONS,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SEARCH] =
    g_param_spec_string ("search", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_READ_ONLY_ONLY] =
    g_param_spec_boolean ("read-only-only", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_HIDE_DESTRUCTIVE] =
    g_param_spec_boolean ("hide-destructive", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_OPEN_WORLD_ONLY] =
    g_param_spec_boolean ("open-world-only", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_SHOWN] =
    g_param_spec_uint ("n-shown", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * PlugboardToolList::activated:
   * @tool: the McpPoolTool of the row
   *
   * A row was activated (click, Enter, or Enter in the search).
   */
  signals[ACTIVATED] =
    g_signal_new ("activated",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, MCP_TYPE_POOL_TOOL);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/plugboard/Plugboard/plugboard-tool-list.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolList, search_entry);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolList, filter_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolList, count_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolList, stack);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolList, list_view);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolList, no_match_page);
  gtk_widget_class_bind_template_child (widget_class, PlugboardToolList, empty_page);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_search_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_list_activate_cb);

  gtk_widget_class_install_property_action (widget_class, "tool-list.read-only-only", "read-only-only");
  gtk_widget_class_install_property_action (widget_class, "tool-list.hide-destructive", "hide-destructive");
  gtk_widget_class_install_property_action (widget_class, "tool-list.open-world-only", "open-world-only");
}

/* Tools of a server together, servers and then tools by name: servers
 * connect in any order, and the list once followed it. */
static int
compare_tools (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  McpPoolTool *tool_a = (McpPoolTool *) a;
  McpPoolTool *tool_b = (McpPoolTool *) b;
  int order = g_utf8_collate (mcp_pool_tool_get_server_name (tool_a), mcp_pool_tool_get_server_name (tool_b));

  if (order != 0)
    return order;
  return strcmp (mcp_pool_tool_get_qualified_name (tool_a), mcp_pool_tool_get_qualified_name (tool_b));
}

static void
plugboard_tool_list_init (PlugboardToolList *self)
{
  g_autoptr(GtkListItemFactory) factory = NULL;

  self->search = g_strdup ("");
  self->normalized = g_strdup ("");
  self->bound_rows = g_hash_table_new (NULL, NULL);
  /* Before the template: its menu reads the toggles from the filter. */
  self->filter = plugboard_tool_filter_new ();

  gtk_widget_init_template (GTK_WIDGET (self));

  self->sort_model = gtk_sort_list_model_new (NULL, GTK_SORTER (gtk_custom_sorter_new (compare_tools, NULL, NULL)));
  self->filter_model = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->sort_model)),
                                                  g_object_ref (GTK_FILTER (self->filter)));
  /* Not incremental: matching 10,000 cached texts takes a few
   * milliseconds, while in GTK 4.8 every batch of an incremental filter
   * re-creates the rows on screen and paints a frame (bench-tool-list
   * measured a keystroke ten times slower that way). */
  gtk_filter_list_model_set_incremental (self->filter_model, FALSE);
  g_signal_connect_object (self->filter_model, "items-changed",
                           G_CALLBACK (on_filter_items_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->filter_model, "notify::pending",
                           G_CALLBACK (plugboard_tool_list_update_state), self, G_CONNECT_SWAPPED);
  self->selection = gtk_no_selection_new (g_object_ref (G_LIST_MODEL (self->filter_model)));

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (on_factory_setup_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (on_factory_bind_cb), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (on_factory_unbind_cb), self);
  gtk_list_view_set_factory (self->list_view, factory);
  gtk_list_view_set_model (self->list_view, GTK_SELECTION_MODEL (self->selection));

  plugboard_tool_list_update_state (self);
}

void
plugboard_tool_list_focus_search (PlugboardToolList *self)
{
  g_return_if_fail (PLUGBOARD_IS_TOOL_LIST (self));

  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}
