/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-permissions-window"

/* PlugboardPermissionsWindow's rule rows: each rule of a scope with what
 * it names, the list it is in (a drop-down that moves it) and a button
 * that removes it. */

#include "config.h"

#include "plugboard-permissions-window-private.h"

#include <glib/gi18n.h>
#include <string.h>

/* What a rule names, in a sentence: every tool of a server, one tool, or
 * why the evaluator ignores it. The names are those of the servers this
 * project has (the evaluator reads a rule the same way). */
static char *
describe_rule (PlugboardPermissionsWindow *self,
               const char                 *rule)
{
  GListModel *connections = G_LIST_MODEL (mcp_project_get_manager (self->project));
  g_autoptr(GError) error = NULL;
  g_autofree char *trimmed = g_strstrip (g_strdup (rule));
  const char *rest;

  if (!mcp_permissions_check_rule (trimmed, &error))
    /* Translators: %s says why (“x” is not an MCP rule: …) */
    return g_strdup_printf (_("Ignored: %s"), error->message);

  rest = trimmed + strlen ("mcp__");
  if (g_str_has_suffix (rest, "__*"))
    {
      g_autofree char *server = g_strndup (rest, strlen (rest) - 3);

      return g_strdup_printf (_("Every tool of “%s”"), server);
    }

  for (guint i = 0; i < g_list_model_get_n_items (connections); i++)
    {
      g_autoptr(McpServerConnection) connection = g_list_model_get_item (connections, i);
      const char *server = mcp_server_connection_get_name (connection);

      if (g_strcmp0 (rest, server) == 0)
        return g_strdup_printf (_("Every tool of “%s”"), server);
    }
  for (guint i = 0; i < g_list_model_get_n_items (connections); i++)
    {
      g_autoptr(McpServerConnection) connection = g_list_model_get_item (connections, i);
      const char *server = mcp_server_connection_get_name (connection);
      gsize len = strlen (server);

      if (strncmp (rest, server, len) == 0 && rest[len] == '_' && rest[len + 1] == '_' && rest[len + 2] != '\0')
        /* Translators: the tool “echo” of the server “everything” */
        return g_strdup_printf (_("The tool “%s” of “%s”"), rest + len + 2, server);
    }

  return g_strdup (_("No server of this project has this name"));
}

static void
on_rule_list_selected_cb (GtkDropDown                *dropdown,
                          GParamSpec                 *pspec,
                          PlugboardPermissionsWindow *self)
{
  const char *rule = g_object_get_data (G_OBJECT (dropdown), "rule");
  McpConfigScope scope = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (dropdown), "scope"));
  guint selected = gtk_drop_down_get_selected (dropdown);

  if (selected >= G_N_ELEMENTS (lists))
    return;
  plugboard_permissions_window_write_rule (self, rule, scope, lists[selected], NULL);
}

static void
on_remove_rule_clicked_cb (GtkButton                  *button,
                           PlugboardPermissionsWindow *self)
{
  const char *rule = g_object_get_data (G_OBJECT (button), "rule");
  McpConfigScope scope = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "scope"));
  g_autofree char *done = NULL;

  /* Translators: %s is a permission rule */
  done = g_strdup_printf (_("Removed the rule “%s”"), rule);
  plugboard_permissions_window_write_rule (self, rule, scope, MCP_RULE_NONE, done);
}

static GtkWidget *
new_rule_row (PlugboardPermissionsWindow *self,
              const char                 *rule,
              McpConfigScope              scope,
              guint                       list_index)
{
  static const char * const labels[] = { N_("Always Allow"), N_("Always Ask"), N_("Deny") };
  g_autofree char *meaning = describe_rule (self, rule);
  g_autoptr(GtkStringList) model = gtk_string_list_new (NULL);
  AdwActionRow *row;
  GtkWidget *dropdown;
  GtkWidget *remove;
  g_autofree char *remove_label = NULL;

  row = ADW_ACTION_ROW (adw_action_row_new ());
  gtk_widget_add_css_class (GTK_WIDGET (row), "plugboard-rule-row");
  g_object_set_data_full (G_OBJECT (row), "rule", g_strdup (rule), g_free);
  g_object_set_data_full (G_OBJECT (row), "meaning", g_strdup (meaning), g_free);
  /* the rule is a name: broken across lines it keeps no hyphen (the
   * row's own title label would hyphenate it at 360 px) */
  {
    GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
    GtkWidget *title = gtk_label_new (rule);
    GtkWidget *subtitle = gtk_label_new (meaning);
    PangoAttrList *attrs = pango_attr_list_new ();

    pango_attr_list_insert (attrs, pango_attr_insert_hyphens_new (FALSE));
    gtk_label_set_attributes (GTK_LABEL (title), attrs);
    pango_attr_list_unref (attrs);
    for (GtkWidget *label = title; label != NULL; label = label == title ? subtitle : NULL)
      {
        gtk_label_set_xalign (GTK_LABEL (label), 0);
        gtk_label_set_wrap (GTK_LABEL (label), TRUE);
        gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      }
    gtk_label_set_selectable (GTK_LABEL (title), TRUE);
    gtk_widget_add_css_class (subtitle, "caption");
    gtk_widget_add_css_class (subtitle, "dim-label");
    gtk_widget_set_hexpand (box, TRUE);
    gtk_widget_set_valign (box, GTK_ALIGN_CENTER);
    gtk_widget_set_margin_top (box, 6);
    gtk_widget_set_margin_bottom (box, 6);
    gtk_box_append (GTK_BOX (box), title);
    gtk_box_append (GTK_BOX (box), subtitle);
    adw_action_row_add_prefix (row, box);
  }

  /* a rule the evaluator ignores (another client's, as Bash(…)) can only
   * be removed: no list makes it act */
  if (!mcp_permissions_check_rule (rule, NULL))
    goto remove_button;

  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    gtk_string_list_append (model, _(labels[i]));
  dropdown = gtk_drop_down_new (G_LIST_MODEL (g_steal_pointer (&model)), NULL);
  gtk_widget_set_valign (dropdown, GTK_ALIGN_CENTER);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), list_index);
  gtk_widget_set_tooltip_text (dropdown, _("What this rule says"));
  g_object_set_data_full (G_OBJECT (dropdown), "rule", g_strdup (rule), g_free);
  g_object_set_data (G_OBJECT (dropdown), "scope", GINT_TO_POINTER (scope));
  g_signal_connect_object (dropdown, "notify::selected", G_CALLBACK (on_rule_list_selected_cb), self, 0);
  adw_action_row_add_suffix (row, dropdown);

remove_button:
  remove = gtk_button_new_from_icon_name ("user-trash-symbolic");
  gtk_widget_set_valign (remove, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (remove, "flat");
  gtk_widget_set_tooltip_text (remove, _("Remove Rule"));
  /* Translators: an accessible label; %s is a permission rule */
  remove_label = g_strdup_printf (_("Remove the rule %s"), rule);
  gtk_accessible_update_property (GTK_ACCESSIBLE (remove), GTK_ACCESSIBLE_PROPERTY_LABEL, remove_label, -1);
  g_object_set_data_full (G_OBJECT (remove), "rule", g_strdup (rule), g_free);
  g_object_set_data (G_OBJECT (remove), "scope", GINT_TO_POINTER (scope));
  g_signal_connect_object (remove, "clicked", G_CALLBACK (on_remove_rule_clicked_cb), self, 0);
  adw_action_row_add_suffix (row, remove);

  return GTK_WIDGET (row);
}

static void
add_row (PlugboardPermissionsWindow *self,
         AdwPreferencesGroup        *group,
         GtkWidget                  *row)
{
  g_object_set_data (G_OBJECT (row), "group", group);
  adw_preferences_group_add (group, row);
  g_ptr_array_add (self->rows, row);
}

void
plugboard_permissions_window_update_rows (PlugboardPermissionsWindow *self)
{
  McpSettings *settings = mcp_project_get_settings (self->project);

  for (guint i = 0; i < self->rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (self->rows, i);

      adw_preferences_group_remove (g_object_get_data (G_OBJECT (row), "group"), row);
    }
  g_ptr_array_set_size (self->rows, 0);

  for (guint s = 0; s < G_N_ELEMENTS (scopes); s++)
    {
      AdwPreferencesGroup *group = scopes[s] == MCP_CONFIG_SCOPE_USER ? self->user_group : self->local_group;
      guint shown = 0;

      if (scopes[s] == MCP_CONFIG_SCOPE_LOCAL && !plugboard_permissions_window_has_project (self))
        continue;

      for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
        {
          const char * const *rules = mcp_settings_get_scope_rules (settings, scopes[s], lists[l]);

          for (guint i = 0; rules[i] != NULL; i++, shown++)
            add_row (self, group, new_rule_row (self, rules[i], scopes[s], l));
        }

      if (shown == 0)
        {
          GtkWidget *row = adw_action_row_new ();

          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("No rules"));
          gtk_widget_add_css_class (row, "dim-label");
          add_row (self, group, row);
        }
    }
}
