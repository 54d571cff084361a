/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-permissions-window"

#include "config.h"

#include "plugboard-permissions-window.h"

#include <glib/gi18n.h>
#include <string.h>

#include "mcp-permissions.h"
#include "plugboard-common.h"

struct _PlugboardPermissionsWindow
{
  AdwWindow            parent_instance;

  /* Template widgets */
  AdwEntryRow         *rule_row;
  AdwComboRow         *list_row;
  AdwComboRow         *scope_row;
  GtkStringList       *scope_list;
  GtkLabel            *message_label;
  GtkButton           *add_button;
  AdwPreferencesGroup *user_group;
  AdwPreferencesGroup *local_group;

  /* Owned */
  McpProject    *project;
  GCancellable        *cancellable;
  GPtrArray           *rows;        /* the rule rows shown, to take out again */
  guint                writing;     /* writes under way */
};

G_DEFINE_FINAL_TYPE (PlugboardPermissionsWindow, plugboard_permissions_window, ADW_TYPE_WINDOW)

/* The lists in the order of the drop-downs: McpRuleList - MCP_RULE_ALLOW. */
static const McpRuleList lists[] = { MCP_RULE_ALLOW, MCP_RULE_ASK, MCP_RULE_DENY };

static const McpConfigScope scopes[] = { MCP_CONFIG_SCOPE_USER, MCP_CONFIG_SCOPE_LOCAL };

static gboolean
has_project (PlugboardPermissionsWindow *self)
{
  return mcp_project_get_project_dir (self->project) != NULL;
}

static void
show_message (PlugboardPermissionsWindow *self,
              const char                 *message,
              gboolean                    is_error)
{
  gtk_label_set_text (self->message_label, message != NULL ? message : "");
  if (is_error)
    gtk_widget_add_css_class (GTK_WIDGET (self->message_label), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->message_label), "error");
}

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

/* Writing */

typedef struct
{
  PlugboardPermissionsWindow *self;
  char                       *done;   /* said when it worked, or NULL */
} WriteData;

static void
on_rule_written_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  WriteData *data = user_data;
  PlugboardPermissionsWindow *self = data->self;
  g_autoptr(GError) error = NULL;

  self->writing--;
  if (!mcp_project_set_tool_rule_finish (MCP_PROJECT (object), result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_message (self, error->message, TRUE);
    }
  else if (data->done != NULL)
    {
      show_message (self, data->done, FALSE);
    }

  g_object_unref (data->self);
  g_free (data->done);
  g_free (data);
}

static void
write_rule (PlugboardPermissionsWindow *self,
            const char                 *rule,
            McpConfigScope              scope,
            McpRuleList                 list,
            const char                 *done)
{
  WriteData *data = g_new0 (WriteData, 1);

  data->self = g_object_ref (self);
  data->done = g_strdup (done);
  self->writing++;
  mcp_project_set_rule_async (self->project, rule, scope, list, self->cancellable,
                              on_rule_written_cb, data);
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
  write_rule (self, rule, scope, lists[selected], NULL);
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
  write_rule (self, rule, scope, MCP_RULE_NONE, done);
}

/* The rows */

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

static void
update_rows (PlugboardPermissionsWindow *self)
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

      if (scopes[s] == MCP_CONFIG_SCOPE_LOCAL && !has_project (self))
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

static void
update_groups (PlugboardPermissionsWindow *self)
{
  McpSettings *settings = mcp_project_get_settings (self->project);
  g_autofree char *user_file = plugboard_dup_display_path (mcp_settings_get_file (settings, MCP_CONFIG_SCOPE_USER));
  g_autofree char *user_text = NULL;

  /* Translators: %s is a settings file */
  user_text = g_strdup_printf (_("In %s, for every project"), user_file);
  adw_preferences_group_set_description (self->user_group, user_text);
  gtk_string_list_append (self->scope_list, _("Your Settings"));

  gtk_widget_set_visible (GTK_WIDGET (self->local_group), has_project (self));
  if (has_project (self))
    {
      g_autofree char *dir = plugboard_dup_display_path (mcp_project_get_project_dir (self->project));
      g_autofree char *local_text = NULL;

      /* Translators: %s is the project folder; the rules are in the person's own settings file */
      local_text = g_strdup_printf (_("For %s only, kept in your settings (local scope)"), dir);
      adw_preferences_group_set_description (self->local_group, local_text);
      gtk_string_list_append (self->scope_list, _("This Project"));
    }
}

/* Adding */

static void
update_add_button (PlugboardPermissionsWindow *self)
{
  g_autofree char *rule = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->rule_row))));

  gtk_widget_set_sensitive (GTK_WIDGET (self->add_button), *rule != '\0');
}

static void
on_rule_changed_cb (PlugboardPermissionsWindow *self)
{
  gtk_widget_remove_css_class (GTK_WIDGET (self->rule_row), "error");
  update_add_button (self);
}

static void
on_add_clicked_cb (PlugboardPermissionsWindow *self)
{
  plugboard_permissions_window_add (self);
}

static void
on_settings_changed_cb (PlugboardPermissionsWindow *self)
{
  update_rows (self);
}

/* GObject */

static void
plugboard_permissions_window_dispose (GObject *object)
{
  PlugboardPermissionsWindow *self = PLUGBOARD_PERMISSIONS_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_PERMISSIONS_WINDOW);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_object (&self->project);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (plugboard_permissions_window_parent_class)->dispose (object);
}

static void
plugboard_permissions_window_class_init (PlugboardPermissionsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = plugboard_permissions_window_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/plugboard/Plugboard/plugboard-permissions-window.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardPermissionsWindow, rule_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPermissionsWindow, list_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPermissionsWindow, scope_row);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPermissionsWindow, scope_list);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPermissionsWindow, message_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPermissionsWindow, add_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPermissionsWindow, user_group);
  gtk_widget_class_bind_template_child (widget_class, PlugboardPermissionsWindow, local_group);
  gtk_widget_class_bind_template_callback (widget_class, on_rule_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_add_clicked_cb);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
plugboard_permissions_window_init (PlugboardPermissionsWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->cancellable = g_cancellable_new ();
  self->rows = g_ptr_array_new ();
}

PlugboardPermissionsWindow *
plugboard_permissions_window_new (GtkWindow  *parent,
                                  McpProject *project)
{
  PlugboardPermissionsWindow *self;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (MCP_IS_PROJECT (project), NULL);

  self = g_object_new (PLUGBOARD_TYPE_PERMISSIONS_WINDOW,
                       "transient-for", parent,
                       NULL);
  self->project = g_object_ref (project);
  g_signal_connect_object (mcp_project_get_settings (project), "changed",
                           G_CALLBACK (on_settings_changed_cb), self, G_CONNECT_SWAPPED);

  update_groups (self);
  /* a project's rules go to the project by default, as the tool page's */
  adw_combo_row_set_selected (self->scope_row, has_project (self) ? 1 : 0);
  update_rows (self);
  update_add_button (self);

  return self;
}

void
plugboard_permissions_window_add (PlugboardPermissionsWindow *self)
{
  g_autofree char *rule = NULL;
  g_autofree char *done = NULL;
  g_autoptr(GError) error = NULL;
  guint list = adw_combo_row_get_selected (self->list_row);
  guint scope = adw_combo_row_get_selected (self->scope_row);

  g_return_if_fail (PLUGBOARD_IS_PERMISSIONS_WINDOW (self));

  rule = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->rule_row))));
  if (*rule == '\0' || list >= G_N_ELEMENTS (lists) || scope >= G_N_ELEMENTS (scopes))
    return;

  /* said at once, before any write */
  if (!mcp_permissions_check_rule (rule, &error))
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->rule_row), "error");
      show_message (self, error->message, TRUE);
      return;
    }

  /* Translators: %s is a permission rule */
  done = g_strdup_printf (_("Added the rule “%s”"), rule);
  write_rule (self, rule, scopes[scope], lists[list], done);
  gtk_editable_set_text (GTK_EDITABLE (self->rule_row), "");
}

const char *
plugboard_permissions_window_get_message (PlugboardPermissionsWindow *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_PERMISSIONS_WINDOW (self), NULL);

  return gtk_label_get_text (self->message_label);
}
