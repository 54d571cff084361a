/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-schema-form"

#include "config.h"

#include "plugboard-schema-form.h"

#include <glib/gi18n.h>

#include "mcp-json-private.h"
#include "plugboard-json-editor.h"

/* Rows are built from the McpFormField tree and write straight into it;
 * what they show is read back from the fields on "changed". A container (the
 * root group, an expander row) remembers the rows it added so it can build
 * them again when its field's children change ("structure-changed"). */

#define DATA_FIELD     "plugboard-form-field"
#define DATA_ROWS      "plugboard-form-rows"
#define DATA_SYNCING   "plugboard-form-syncing"
#define DATA_TOUCHED   "plugboard-form-touched"
#define DATA_HINT      "plugboard-form-hint"
#define DATA_PROBLEM   "plugboard-form-problem"
#define DATA_UNSET     "plugboard-form-unset"
#define DATA_EDITOR    "plugboard-form-editor"
#define DATA_SUFFIXES  "plugboard-form-suffixes"
#define DATA_PRESENCE  "plugboard-form-presence"
#define DATA_REFILL    "plugboard-form-refill"

struct _PlugboardSchemaForm
{
  AdwBin               parent_instance;

  /* Owned references */
  McpFormField        *field;
  AdwPreferencesGroup *group;
};

G_DEFINE_FINAL_TYPE (PlugboardSchemaForm, plugboard_schema_form, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_FIELD,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void       fill_rows       (GtkWidget    *container,
                                   McpFormField *field);
static GtkWidget *build_field_row (McpFormField *field,
                                   const char   *title);

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static McpFormField *
row_get_field (gpointer row)
{
  return g_object_get_data (G_OBJECT (row), DATA_FIELD);
}

static void
row_set_field (gpointer      row,
               McpFormField *field)
{
  g_object_set_data_full (G_OBJECT (row), DATA_FIELD, g_object_ref (field), g_object_unref);
}

static gboolean
is_syncing (gpointer row)
{
  return GPOINTER_TO_INT (g_object_get_data (G_OBJECT (row), DATA_SYNCING));
}

static void
set_syncing (gpointer row,
             gboolean syncing)
{
  g_object_set_data (G_OBJECT (row), DATA_SYNCING, GINT_TO_POINTER (syncing));
}

/* An optional property: absent until given a value, left out of the JSON. */
static gboolean
is_optional (McpFormField *field)
{
  McpFormField *parent = mcp_form_field_get_parent (field);

  return parent != NULL &&
         mcp_form_field_get_kind (parent) == MCP_FORM_FIELD_OBJECT &&
         !mcp_form_field_get_required (field);
}

static char *
dup_node_text (JsonNode *node)
{
  GString *text = g_string_new (NULL);

  mcp_json_append (text, node);
  return g_string_free (text, FALSE);
}

static char *
dup_choice_text (JsonNode *node)
{
  if (JSON_NODE_HOLDS_NULL (node))
    return g_strdup (_("None"));
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (node));
  return dup_node_text (node);
}

/* The title with the required marker, escaped for the rows' markup. */
static char *
dup_row_title (McpFormField *field,
               const char   *title)
{
  g_autofree char *escaped = g_markup_escape_text (title != NULL ? title : "", -1);

  McpFormField *parent = mcp_form_field_get_parent (field);

  /* only properties: items and map entries are always there */
  if (mcp_form_field_get_required (field) &&
      parent != NULL && mcp_form_field_get_kind (parent) == MCP_FORM_FIELD_OBJECT)
    return g_strdup_printf ("%s *", escaped);
  return g_steal_pointer (&escaped);
}

static char *
dup_field_title (McpFormField *field)
{
  McpFormField *parent = mcp_form_field_get_parent (field);
  const char *title = mcp_form_field_get_title (field);

  if (parent != NULL && mcp_form_field_get_kind (parent) == MCP_FORM_FIELD_MAP)
    return g_strdup (mcp_form_field_get_name (field));

  if (parent != NULL && mcp_form_field_get_kind (parent) == MCP_FORM_FIELD_ARRAY)
    {
      GListModel *items = mcp_form_field_get_children (parent);
      guint n = g_list_model_get_n_items (items);

      for (guint i = 0; i < n; i++)
        {
          g_autoptr(McpFormField) item = g_list_model_get_item (items, i);

          if (item == field)
            {
              /* Translators: an item of a list in a form; %u is its number */
              return g_strdup_printf (_("Item %u"), i + 1);
            }
        }
    }

  if (parent != NULL && mcp_form_field_get_kind (parent) == MCP_FORM_FIELD_UNION)
    {
      const char * const *titles = mcp_form_field_get_variant_titles (parent);

      if (title == NULL && titles != NULL)
        return g_strdup (titles[mcp_form_field_get_variant (parent)]);
    }

  return g_strdup (title != NULL ? title : _("Value"));
}

static void
set_accessible_description (GtkWidget    *row,
                            McpFormField *field,
                            const char   *problems)
{
  const char *description = mcp_form_field_get_description (field);
  GString *text = g_string_new (NULL);

  if (mcp_form_field_get_required (field))
    g_string_append (text, _("Required."));
  if (description != NULL)
    g_string_append_printf (text, "%s%s", text->len > 0 ? " " : "", description);
  if (problems != NULL)
    g_string_append_printf (text, "%s%s", text->len > 0 ? " " : "", problems);

  gtk_accessible_update_property (GTK_ACCESSIBLE (row),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text->str,
                                  -1);
  g_string_free (text, TRUE);
}

static void
row_add_suffix (GtkWidget *row,
                GtkWidget *widget)
{
  GtkBox *suffixes = g_object_get_data (G_OBJECT (row), DATA_SUFFIXES);

  gtk_widget_set_valign (widget, GTK_ALIGN_CENTER);
  if (suffixes != NULL)
    gtk_box_append (suffixes, widget);
  else if (ADW_IS_ENTRY_ROW (row))
    adw_entry_row_add_suffix (ADW_ENTRY_ROW (row), widget);
  else if (ADW_IS_EXPANDER_ROW (row))
    adw_expander_row_add_action (ADW_EXPANDER_ROW (row), widget);
  else if (ADW_IS_ACTION_ROW (row))
    adw_action_row_add_suffix (ADW_ACTION_ROW (row), widget);
  else
    g_assert_not_reached ();
}

static GtkWidget *
icon_button_new (const char *icon_name,
                 const char *tooltip,
                 const char *action_name,
                 const char *path)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon_name);

  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip,
                                  -1);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action_name);
  gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "s", path);
  return button;
}

/* Hints shown beside an entry: bounds, lengths, formats, the default. */
static char *
dup_hint (McpFormField *field)
{
  JsonObject *schema = mcp_form_field_get_schema (field);
  McpFormFieldKind kind = mcp_form_field_get_kind (field);
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);

  if (schema == NULL)
    return NULL;

#define MEMBER_TEXT(name) \
  (json_object_has_member (schema, name) && JSON_NODE_HOLDS_VALUE (json_object_get_member (schema, name)) \
   ? dup_node_text (json_object_get_member (schema, name)) : NULL)

  if (kind == MCP_FORM_FIELD_NUMBER || kind == MCP_FORM_FIELD_INTEGER)
    {
      g_autofree char *min = MEMBER_TEXT ("minimum");
      g_autofree char *max = MEMBER_TEXT ("maximum");
      g_autofree char *xmin = MEMBER_TEXT ("exclusiveMinimum");
      g_autofree char *xmax = MEMBER_TEXT ("exclusiveMaximum");
      g_autofree char *step = MEMBER_TEXT ("multipleOf");

      /* draft-04's boolean exclusive bounds */
      if (g_strcmp0 (xmin, "true") == 0 || g_strcmp0 (xmin, "false") == 0)
        g_clear_pointer (&xmin, g_free);
      if (g_strcmp0 (xmax, "true") == 0 || g_strcmp0 (xmax, "false") == 0)
        g_clear_pointer (&xmax, g_free);

      if (min != NULL && max != NULL)
        /* Translators: the bounds of a number, "0 to 100" */
        g_ptr_array_add (parts, g_strdup_printf (_("%s to %s"), min, max));
      else if (min != NULL)
        g_ptr_array_add (parts, g_strdup_printf (_("at least %s"), min));
      else if (max != NULL)
        g_ptr_array_add (parts, g_strdup_printf (_("at most %s"), max));
      if (xmin != NULL)
        g_ptr_array_add (parts, g_strdup_printf (_("more than %s"), xmin));
      if (xmax != NULL)
        g_ptr_array_add (parts, g_strdup_printf (_("less than %s"), xmax));
      if (step != NULL)
        g_ptr_array_add (parts, g_strdup_printf (_("step %s"), step));
    }
  else if (kind == MCP_FORM_FIELD_STRING)
    {
      g_autofree char *min = MEMBER_TEXT ("minLength");
      g_autofree char *max = MEMBER_TEXT ("maxLength");
      const char *format = mcp_form_field_get_format (field);

      if (min != NULL && max != NULL)
        g_ptr_array_add (parts, g_strdup_printf (_("%s to %s characters"), min, max));
      else if (min != NULL)
        g_ptr_array_add (parts, g_strdup_printf (_("at least %s characters"), min));
      else if (max != NULL)
        g_ptr_array_add (parts, g_strdup_printf (_("at most %s characters"), max));
      if (g_strcmp0 (format, "date") == 0)
        g_ptr_array_add (parts, g_strdup (_("YYYY-MM-DD")));
      else if (g_strcmp0 (format, "date-time") == 0)
        g_ptr_array_add (parts, g_strdup (_("YYYY-MM-DDThh:mm:ssZ")));
    }
#undef MEMBER_TEXT

  if (!mcp_form_field_get_present (field))
    {
      const char *text = mcp_form_field_get_text (field);

      if (text != NULL && text[0] != '\0' && kind != MCP_FORM_FIELD_JSON)
        g_ptr_array_add (parts, g_strdup_printf (_("default %s"), text));
      else if (kind == MCP_FORM_FIELD_BOOLEAN)
        g_ptr_array_add (parts, g_strdup (_("not set")));
    }

  if (parts->len == 0)
    return NULL;
  g_ptr_array_add (parts, NULL);
  return g_strjoinv (" · ", (char **) parts->pdata);
}

static GtkWidget *
hint_label_new (void)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_add_css_class (label, "caption");
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 24);
  gtk_widget_set_visible (label, FALSE);
  return label;
}

static void
update_hint (GtkWidget    *row,
             McpFormField *field)
{
  GtkLabel *label = g_object_get_data (G_OBJECT (row), DATA_HINT);
  g_autofree char *hint = NULL;

  if (label == NULL)
    return;
  hint = dup_hint (field);
  gtk_label_set_text (label, hint != NULL ? hint : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (label), hint);
  gtk_widget_set_visible (GTK_WIDGET (label), hint != NULL);
}

/* The field's own problems, once there is something to check. */
static void
update_problems (GtkWidget    *row,
                 McpFormField *field)
{
  GtkWidget *icon = g_object_get_data (G_OBJECT (row), DATA_PROBLEM);
  g_autoptr(GPtrArray) problems = NULL;
  g_autofree char *path = NULL;
  GString *text = NULL;
  const char *value = mcp_form_field_get_text (field);
  gboolean touched = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (row), DATA_TOUCHED));

  if (icon == NULL)
    return;

  if (mcp_form_field_get_present (field) && (touched || (value != NULL && value[0] != '\0')))
    {
      problems = mcp_form_field_check (field);
      path = mcp_form_field_dup_path (field);
      for (guint i = 0; i < problems->len; i++)
        {
          const char *problem = g_ptr_array_index (problems, i);

          /* "$.a.b: message": the row already says where */
          if (g_str_has_prefix (problem, path) && g_str_has_prefix (problem + strlen (path), ": "))
            problem += strlen (path) + 2;
          if (text == NULL)
            text = g_string_new (NULL);
          else
            g_string_append_c (text, '\n');
          g_string_append (text, problem);
        }
    }

  gtk_widget_set_visible (icon, text != NULL);
  gtk_widget_set_tooltip_text (icon, text != NULL ? text->str : NULL);
  if (text != NULL)
    gtk_widget_add_css_class (row, "error");
  else
    gtk_widget_remove_css_class (row, "error");
  set_accessible_description (row, field, text != NULL ? text->str : NULL);

  if (text != NULL)
    g_string_free (text, TRUE);
}

static void
add_problem_icon (GtkWidget *row)
{
  GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");

  gtk_widget_add_css_class (icon, "error");
  gtk_widget_set_visible (icon, FALSE);
  row_add_suffix (row, icon);
  g_object_set_data (G_OBJECT (row), DATA_PROBLEM, icon);
}

static void
add_unset_button (GtkWidget    *row,
                  McpFormField *field)
{
  g_autofree char *path = mcp_form_field_dup_path (field);
  GtkWidget *button = icon_button_new ("edit-clear-symbolic", _("Unset"), "form.unset", path);

  row_add_suffix (row, button);
  g_object_set_data (G_OBJECT (row), DATA_UNSET, button);
}

static void
update_unset (GtkWidget    *row,
              McpFormField *field)
{
  GtkWidget *button = g_object_get_data (G_OBJECT (row), DATA_UNSET);

  if (button != NULL)
    gtk_widget_set_visible (button, mcp_form_field_get_present (field));
}

/* ------------------------------------------------------------------------ */
/* Containers                                                               */

static void
container_add (GtkWidget *container,
               GtkWidget *row)
{
  GPtrArray *rows = g_object_get_data (G_OBJECT (container), DATA_ROWS);

  if (ADW_IS_PREFERENCES_GROUP (container))
    adw_preferences_group_add (ADW_PREFERENCES_GROUP (container), row);
  else
    adw_expander_row_add_row (ADW_EXPANDER_ROW (container), row);
  g_ptr_array_add (rows, row);
}

static void
container_clear (GtkWidget *container)
{
  GPtrArray *rows = g_object_get_data (G_OBJECT (container), DATA_ROWS);

  for (guint i = 0; i < rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (rows, i);

      if (ADW_IS_PREFERENCES_GROUP (container))
        adw_preferences_group_remove (ADW_PREFERENCES_GROUP (container), row);
      else
        adw_expander_row_remove (ADW_EXPANDER_ROW (container), row);
    }
  g_ptr_array_set_size (rows, 0);
}

static void update_expander_header (GtkWidget    *expander,
                                    McpFormField *field);

static void
container_refill (GtkWidget *container)
{
  McpFormField *field = row_get_field (container);

  container_clear (container);
  fill_rows (container, field);
  if (ADW_IS_EXPANDER_ROW (container))
    update_expander_header (container, field);
}

static gboolean
refill_idle_cb (gpointer user_data)
{
  GWeakRef *ref = user_data;
  g_autoptr(GtkWidget) container = g_weak_ref_get (ref);

  if (container != NULL)
    {
      g_object_set_data (G_OBJECT (container), DATA_REFILL, NULL);
      container_refill (container);
    }
  return G_SOURCE_REMOVE;
}

static void
free_weak_ref (gpointer data)
{
  g_weak_ref_clear (data);
  g_free (data);
}

/* Later, not now: the row whose signal changed the model (a variant chosen
 * in a combo, a key applied in an entry) is among the rows replaced, and
 * must not be destroyed while it emits. */
static void
schedule_refill (GtkWidget *container)
{
  GWeakRef *ref;

  if (g_object_get_data (G_OBJECT (container), DATA_REFILL) != NULL)
    return;

  ref = g_new0 (GWeakRef, 1);
  g_weak_ref_init (ref, container);
  g_object_set_data (G_OBJECT (container), DATA_REFILL, GINT_TO_POINTER (TRUE));
  g_idle_add_full (G_PRIORITY_HIGH_IDLE, refill_idle_cb, ref, free_weak_ref);
}

static void
on_container_structure_changed_cb (McpFormField *field,
                                   GtkWidget    *container)
{
  schedule_refill (container);
}

static void
container_init (GtkWidget    *container,
                McpFormField *field)
{
  row_set_field (container, field);
  g_object_set_data_full (G_OBJECT (container), DATA_ROWS, g_ptr_array_new (),
                          (GDestroyNotify) g_ptr_array_unref);
  g_signal_connect_object (field, "structure-changed",
                           G_CALLBACK (on_container_structure_changed_cb), container, 0);
}

/* A scalar that turned into a JSON field: the rows around it are built
 * again, so it gets the editor. */
static void
on_scalar_structure_changed_cb (McpFormField *field,
                                GtkWidget    *row)
{
  for (GtkWidget *widget = gtk_widget_get_parent (row); widget != NULL; widget = gtk_widget_get_parent (widget))
    if (g_object_get_data (G_OBJECT (widget), DATA_ROWS) != NULL)
      {
        schedule_refill (widget);
        return;
      }
}

/* ------------------------------------------------------------------------ */
/* Entries: STRING, NUMBER, INTEGER                                         */

static void
sync_entry (GtkWidget    *row,
            McpFormField *field)
{
  const char *text = mcp_form_field_get_present (field) ? mcp_form_field_get_text (field) : "";

  if (text == NULL)
    text = "";
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (row)), text) != 0)
    {
      set_syncing (row, TRUE);
      gtk_editable_set_text (GTK_EDITABLE (row), text);
      set_syncing (row, FALSE);
    }
  update_hint (row, field);
  update_problems (row, field);
}

static void
on_entry_field_changed_cb (McpFormField *field,
                           GtkWidget    *row)
{
  sync_entry (row, field);
}

static void
on_entry_changed_cb (GtkEditable *editable)
{
  McpFormField *field = row_get_field (editable);
  const char *text = gtk_editable_get_text (editable);

  if (is_syncing (editable))
    return;

  g_object_set_data (G_OBJECT (editable), DATA_TOUCHED, GINT_TO_POINTER (TRUE));
  if (text[0] == '\0' && is_optional (field))
    {
      if (mcp_form_field_get_present (field))
        mcp_form_field_set_present (field, FALSE);
      else
        sync_entry (GTK_WIDGET (editable), field);
    }
  else
    {
      mcp_form_field_set_text (field, text);
    }
}

static void
on_day_selected_cb (GtkCalendar *calendar,
                    GtkWidget   *row)
{
  McpFormField *field = row_get_field (row);
  g_autoptr(GDateTime) date = gtk_calendar_get_date (calendar);
  g_autofree char *day = g_date_time_format (date, "%Y-%m-%d");
  const char *current = gtk_editable_get_text (GTK_EDITABLE (row));
  GtkWidget *popover = gtk_widget_get_ancestor (GTK_WIDGET (calendar), GTK_TYPE_POPOVER);

  if (g_strcmp0 (mcp_form_field_get_format (field), "date-time") == 0)
    {
      const char *time = strchr (current, 'T');
      g_autofree char *text = g_strconcat (day, time != NULL ? time : "T00:00:00Z", NULL);

      gtk_editable_set_text (GTK_EDITABLE (row), text);
    }
  else
    {
      gtk_editable_set_text (GTK_EDITABLE (row), day);
    }

  if (popover != NULL)
    gtk_popover_popdown (GTK_POPOVER (popover));
}

static GtkWidget *
description_button_new (const char *description)
{
  GtkWidget *button = gtk_menu_button_new ();
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *label = gtk_label_new (description);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_margin_top (label, 6);
  gtk_widget_set_margin_bottom (label, 6);
  gtk_widget_set_margin_start (label, 6);
  gtk_widget_set_margin_end (label, 6);
  gtk_popover_set_child (GTK_POPOVER (popover), label);
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (button), popover);
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (button), "help-about-symbolic");
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_tooltip_text (button, description);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Description"),
                                  -1);
  return button;
}

static GtkWidget *
entry_row_new (McpFormField *field,
               const char   *title)
{
  GtkWidget *row = adw_entry_row_new ();
  g_autofree char *row_title = dup_row_title (field, title);
  const char *format = mcp_form_field_get_format (field);
  const char *description = mcp_form_field_get_description (field);
  McpFormFieldKind kind = mcp_form_field_get_kind (field);
  GtkWidget *hint = hint_label_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), row_title);
  row_set_field (row, field);

  if (kind == MCP_FORM_FIELD_NUMBER || kind == MCP_FORM_FIELD_INTEGER)
    adw_entry_row_set_input_purpose (ADW_ENTRY_ROW (row),
                                     kind == MCP_FORM_FIELD_INTEGER ? GTK_INPUT_PURPOSE_DIGITS
                                                                    : GTK_INPUT_PURPOSE_NUMBER);
  else if (g_strcmp0 (format, "email") == 0)
    adw_entry_row_set_input_purpose (ADW_ENTRY_ROW (row), GTK_INPUT_PURPOSE_EMAIL);
  else if (g_strcmp0 (format, "uri") == 0)
    adw_entry_row_set_input_purpose (ADW_ENTRY_ROW (row), GTK_INPUT_PURPOSE_URL);

  row_add_suffix (row, hint);
  g_object_set_data (G_OBJECT (row), DATA_HINT, hint);
  add_problem_icon (row);

  if (kind == MCP_FORM_FIELD_STRING &&
      (g_strcmp0 (format, "date") == 0 || g_strcmp0 (format, "date-time") == 0))
    {
      GtkWidget *button = gtk_menu_button_new ();
      GtkWidget *popover = gtk_popover_new ();
      GtkWidget *calendar = gtk_calendar_new ();

      gtk_popover_set_child (GTK_POPOVER (popover), calendar);
      gtk_menu_button_set_popover (GTK_MENU_BUTTON (button), popover);
      gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (button), "x-office-calendar-symbolic");
      gtk_widget_add_css_class (button, "flat");
      gtk_widget_set_tooltip_text (button, _("Pick a Date"));
      gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, _("Pick a Date"),
                                      -1);
      g_signal_connect_object (calendar, "day-selected", G_CALLBACK (on_day_selected_cb), row, 0);
      row_add_suffix (row, button);
    }

  if (description != NULL)
    row_add_suffix (row, description_button_new (description));

  sync_entry (row, field);
  g_signal_connect (row, "changed", G_CALLBACK (on_entry_changed_cb), NULL);
  g_signal_connect_object (field, "changed", G_CALLBACK (on_entry_field_changed_cb), row, 0);
  return row;
}

/* ------------------------------------------------------------------------ */
/* BOOLEAN                                                                  */

static void
sync_switch (GtkWidget    *row,
             McpFormField *field)
{
  GtkSwitch *toggle = GTK_SWITCH (adw_action_row_get_activatable_widget (ADW_ACTION_ROW (row)));

  if (gtk_switch_get_active (toggle) != mcp_form_field_get_boolean (field))
    {
      set_syncing (row, TRUE);
      gtk_switch_set_active (toggle, mcp_form_field_get_boolean (field));
      set_syncing (row, FALSE);
    }
  update_hint (row, field);
  update_unset (row, field);
}

static void
on_switch_field_changed_cb (McpFormField *field,
                            GtkWidget    *row)
{
  sync_switch (row, field);
}

static void
on_switch_active_cb (GtkSwitch  *toggle,
                     GParamSpec *pspec,
                     GtkWidget  *row)
{
  if (is_syncing (row))
    return;
  mcp_form_field_set_boolean (row_get_field (row), gtk_switch_get_active (toggle));
}

static void
action_row_setup (GtkWidget    *row,
                  McpFormField *field,
                  const char   *title)
{
  g_autofree char *row_title = dup_row_title (field, title);
  const char *description = mcp_form_field_get_description (field);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), row_title);
  if (description != NULL)
    {
      g_autofree char *escaped = g_markup_escape_text (description, -1);

      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), escaped);
    }
  row_set_field (row, field);
  set_accessible_description (row, field, NULL);
}

static GtkWidget *
switch_row_new (McpFormField *field,
                const char   *title)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *toggle = gtk_switch_new ();
  GtkWidget *hint = hint_label_new ();

  action_row_setup (row, field, title);
  row_add_suffix (row, hint);
  g_object_set_data (G_OBJECT (row), DATA_HINT, hint);
  if (is_optional (field))
    add_unset_button (row, field);
  row_add_suffix (row, toggle);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), toggle);

  sync_switch (row, field);
  g_signal_connect_object (toggle, "notify::active", G_CALLBACK (on_switch_active_cb), row, 0);
  g_signal_connect_object (field, "changed", G_CALLBACK (on_switch_field_changed_cb), row, 0);
  return row;
}

/* ------------------------------------------------------------------------ */
/* NULL and CONST: a fixed value; optional ones can be left out             */

static void
sync_presence (GtkWidget    *row,
               McpFormField *field)
{
  GtkSwitch *toggle = g_object_get_data (G_OBJECT (row), DATA_PRESENCE);

  if (toggle != NULL && gtk_switch_get_active (toggle) != mcp_form_field_get_present (field))
    {
      set_syncing (row, TRUE);
      gtk_switch_set_active (toggle, mcp_form_field_get_present (field));
      set_syncing (row, FALSE);
    }
}

static void
on_presence_field_changed_cb (McpFormField *field,
                              GtkWidget    *row)
{
  sync_presence (row, field);
}

static void
on_presence_active_cb (GtkSwitch  *toggle,
                       GParamSpec *pspec,
                       GtkWidget  *row)
{
  if (is_syncing (row))
    return;
  mcp_form_field_set_present (row_get_field (row), gtk_switch_get_active (toggle));
}

static GtkWidget *
fixed_row_new (McpFormField *field,
               const char   *title)
{
  GtkWidget *row = adw_action_row_new ();
  g_autofree char *value = NULL;
  GtkWidget *label;

  action_row_setup (row, field, title);
  if (mcp_form_field_get_kind (field) == MCP_FORM_FIELD_NULL)
    {
      value = g_strdup ("null");
    }
  else
    {
      g_autoptr(JsonNode) node = mcp_form_field_to_json (field, NULL);

      value = node != NULL ? dup_node_text (node) : g_strdup ("");
    }

  label = gtk_label_new (value);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (label, "monospace");
  gtk_widget_add_css_class (label, "dim-label");
  row_add_suffix (row, label);

  if (is_optional (field))
    {
      GtkWidget *toggle = gtk_switch_new ();

      gtk_widget_set_tooltip_text (toggle, _("Include this value"));
      row_add_suffix (row, toggle);
      adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), toggle);
      g_object_set_data (G_OBJECT (row), DATA_PRESENCE, toggle);
      sync_presence (row, field);
      g_signal_connect_object (toggle, "notify::active", G_CALLBACK (on_presence_active_cb), row, 0);
      g_signal_connect_object (field, "changed", G_CALLBACK (on_presence_field_changed_cb), row, 0);
    }
  return row;
}

/* ------------------------------------------------------------------------ */
/* ENUM                                                                     */

static guint
displayed_choice (McpFormField *field)
{
  int choice = mcp_form_field_get_choice (field);

  if (!mcp_form_field_get_present (field) || choice < 0)
    return GTK_INVALID_LIST_POSITION;
  return (guint) choice;
}

static void
sync_combo (GtkWidget    *row,
            McpFormField *field)
{
  guint choice = displayed_choice (field);

  if (adw_combo_row_get_selected (ADW_COMBO_ROW (row)) != choice)
    {
      set_syncing (row, TRUE);
      adw_combo_row_set_selected (ADW_COMBO_ROW (row), choice);
      set_syncing (row, FALSE);
    }
  update_unset (row, field);
  update_hint (row, field);
}

static void
on_combo_field_changed_cb (McpFormField *field,
                           GtkWidget    *row)
{
  sync_combo (row, field);
}

static void
on_combo_selected_cb (AdwComboRow *row)
{
  guint selected = adw_combo_row_get_selected (row);
  McpFormField *field = row_get_field (row);

  if (is_syncing (row))
    return;
  if (selected == GTK_INVALID_LIST_POSITION)
    mcp_form_field_set_present (field, FALSE);
  else
    mcp_form_field_set_choice (field, (int) selected);
}

static GtkWidget *
combo_row_new (McpFormField *field,
               const char   *title)
{
  GtkWidget *row = adw_combo_row_new ();
  GPtrArray *choices = mcp_form_field_get_choices (field);
  g_autoptr(GtkStringList) model = gtk_string_list_new (NULL);
  GtkWidget *hint = hint_label_new ();

  for (guint i = 0; choices != NULL && i < choices->len; i++)
    {
      const char *choice_title = mcp_form_field_get_choice_title (field, i);
      g_autofree char *text = choice_title != NULL ? g_strdup (choice_title)
                                                   : dup_choice_text (g_ptr_array_index (choices, i));

      gtk_string_list_append (model, text);
    }

  action_row_setup (row, field, title);
  adw_combo_row_set_model (ADW_COMBO_ROW (row), G_LIST_MODEL (model));
  row_add_suffix (row, hint);
  g_object_set_data (G_OBJECT (row), DATA_HINT, hint);
  if (is_optional (field))
    add_unset_button (row, field);

  sync_combo (row, field);
  g_signal_connect (row, "notify::selected", G_CALLBACK (on_combo_selected_cb), NULL);
  g_signal_connect_object (field, "changed", G_CALLBACK (on_combo_field_changed_cb), row, 0);
  return row;
}

/* ------------------------------------------------------------------------ */
/* JSON: what the form cannot express, as text                              */

static void
sync_json (GtkWidget    *row,
           McpFormField *field)
{
  PlugboardJsonEditor *editor = g_object_get_data (G_OBJECT (row), DATA_EDITOR);
  const char *text = mcp_form_field_get_present (field) ? mcp_form_field_get_text (field) : "";

  if (text == NULL)
    text = "";
  if (g_strcmp0 (plugboard_json_editor_get_text (editor), text) != 0)
    {
      set_syncing (row, TRUE);
      plugboard_json_editor_set_text (editor, text);
      set_syncing (row, FALSE);
    }
  update_unset (row, field);
}

static void
on_json_field_changed_cb (McpFormField *field,
                          GtkWidget    *row)
{
  sync_json (row, field);
}

static void
on_json_editor_changed_cb (PlugboardJsonEditor *editor,
                           GtkWidget           *row)
{
  McpFormField *field = row_get_field (row);
  const char *text = plugboard_json_editor_get_text (editor);

  if (is_syncing (row))
    return;
  if (text[0] == '\0' && is_optional (field))
    mcp_form_field_set_present (field, FALSE);
  else
    mcp_form_field_set_text (field, text);
}

static GtkWidget *
json_row_new (McpFormField *field,
              const char   *title)
{
  /* a preferences row, so a group keeps it inside its boxed list */
  GtkWidget *row = adw_preferences_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *titles = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *suffixes = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *title_label = gtk_label_new (NULL);
  GtkWidget *editor = plugboard_json_editor_new ();
  g_autofree char *row_title = dup_row_title (field, title);
  const char *description = mcp_form_field_get_description (field);
  g_autofree char *subtitle = NULL;
  GtkWidget *subtitle_label;

  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), row_title);
  row_set_field (row, field);
  g_object_set_data (G_OBJECT (row), DATA_EDITOR, editor);
  g_object_set_data (G_OBJECT (row), DATA_SUFFIXES, suffixes);

  gtk_widget_set_margin_top (box, 9);
  gtk_widget_set_margin_bottom (box, 12);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);

  gtk_label_set_markup (GTK_LABEL (title_label), row_title);
  gtk_label_set_xalign (GTK_LABEL (title_label), 0);
  gtk_label_set_wrap (GTK_LABEL (title_label), TRUE);
  gtk_box_append (GTK_BOX (titles), title_label);

  if (mcp_form_field_get_too_complex (field))
    subtitle = g_strdup (_("The schema is too complex for a form here: edited as JSON"));
  else if (description != NULL)
    /* Translators: the subtitle of a field edited as JSON text */
    subtitle = g_strdup_printf (_("%s (as JSON)"), description);
  else
    subtitle = g_strdup (_("Edited as JSON"));
  subtitle_label = gtk_label_new (subtitle);
  gtk_label_set_xalign (GTK_LABEL (subtitle_label), 0);
  gtk_label_set_wrap (GTK_LABEL (subtitle_label), TRUE);
  gtk_widget_add_css_class (subtitle_label, "dim-label");
  gtk_widget_add_css_class (subtitle_label, "caption");
  gtk_box_append (GTK_BOX (titles), subtitle_label);

  gtk_widget_set_hexpand (titles, TRUE);
  gtk_box_append (GTK_BOX (header), titles);
  gtk_box_append (GTK_BOX (header), suffixes);
  gtk_box_append (GTK_BOX (box), header);

  gtk_widget_set_vexpand (editor, FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (editor),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, title,
                                  -1);
  gtk_box_append (GTK_BOX (box), editor);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);

  if (is_optional (field))
    add_unset_button (row, field);

  sync_json (row, field);
  g_signal_connect_object (editor, "changed", G_CALLBACK (on_json_editor_changed_cb), row, 0);
  g_signal_connect_object (field, "changed", G_CALLBACK (on_json_field_changed_cb), row, 0);
  return row;
}

/* ------------------------------------------------------------------------ */
/* OBJECT, ARRAY, MAP, UNION: expander rows                                 */

static void
update_expander_header (GtkWidget    *expander,
                        McpFormField *field)
{
  AdwExpanderRow *row = ADW_EXPANDER_ROW (expander);
  const char *description = mcp_form_field_get_description (field);
  McpFormFieldKind kind = mcp_form_field_get_kind (field);
  g_autofree char *subtitle = NULL;

  if (description != NULL)
    {
      subtitle = g_markup_escape_text (description, -1);
    }
  else if (kind == MCP_FORM_FIELD_ARRAY || kind == MCP_FORM_FIELD_MAP)
    {
      guint n = g_list_model_get_n_items (mcp_form_field_get_children (field));

      if (kind == MCP_FORM_FIELD_ARRAY)
        subtitle = g_strdup_printf (ngettext ("%u item", "%u items", n), n);
      else
        subtitle = g_strdup_printf (ngettext ("%u entry", "%u entries", n), n);
    }
  adw_expander_row_set_subtitle (row, subtitle != NULL ? subtitle : "");

  if (adw_expander_row_get_show_enable_switch (row) &&
      adw_expander_row_get_enable_expansion (row) != mcp_form_field_get_present (field))
    {
      set_syncing (expander, TRUE);
      adw_expander_row_set_enable_expansion (row, mcp_form_field_get_present (field));
      set_syncing (expander, FALSE);
    }
}

static void
on_expander_field_changed_cb (McpFormField *field,
                              GtkWidget    *expander)
{
  update_expander_header (expander, field);
}

static void
on_enable_expansion_cb (AdwExpanderRow *row)
{
  McpFormField *field = row_get_field (row);

  if (is_syncing (row))
    return;
  mcp_form_field_set_present (field, adw_expander_row_get_enable_expansion (row));
}

static GtkWidget *
expander_row_new (McpFormField *field,
                  const char   *title)
{
  GtkWidget *row = adw_expander_row_new ();
  g_autofree char *row_title = dup_row_title (field, title);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), row_title);
  container_init (row, field);
  set_accessible_description (row, field, NULL);

  if (is_optional (field))
    {
      adw_expander_row_set_show_enable_switch (ADW_EXPANDER_ROW (row), TRUE);
      adw_expander_row_set_enable_expansion (ADW_EXPANDER_ROW (row), mcp_form_field_get_present (field));
      g_signal_connect (row, "notify::enable-expansion", G_CALLBACK (on_enable_expansion_cb), NULL);
    }
  adw_expander_row_set_expanded (ADW_EXPANDER_ROW (row), mcp_form_field_get_present (field));

  fill_rows (row, field);
  update_expander_header (row, field);
  g_signal_connect_object (field, "changed", G_CALLBACK (on_expander_field_changed_cb), row, 0);
  return row;
}

static void
add_item_controls (GtkWidget    *row,
                   McpFormField *item,
                   guint         index,
                   guint         n_items,
                   gboolean      movable)
{
  g_autofree char *path = mcp_form_field_dup_path (item);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

  if (movable)
    {
      GtkWidget *up = icon_button_new ("go-up-symbolic", _("Move Up"), "form.move-up", path);
      GtkWidget *down = icon_button_new ("go-down-symbolic", _("Move Down"), "form.move-down", path);

      /* an action helper would make them sensitive again */
      if (index == 0)
        {
          gtk_actionable_set_action_name (GTK_ACTIONABLE (up), NULL);
          gtk_widget_set_sensitive (up, FALSE);
        }
      if (index + 1 >= n_items)
        {
          gtk_actionable_set_action_name (GTK_ACTIONABLE (down), NULL);
          gtk_widget_set_sensitive (down, FALSE);
        }
      gtk_box_append (GTK_BOX (box), up);
      gtk_box_append (GTK_BOX (box), down);
    }
  gtk_box_append (GTK_BOX (box),
                  icon_button_new ("user-trash-symbolic",
                                   movable ? _("Remove Item") : _("Remove Entry"),
                                   "form.remove-item", path));
  row_add_suffix (row, box);
}

static void
on_new_key_apply_cb (AdwEntryRow *entry)
{
  McpFormField *field = row_get_field (entry);
  const char *key = gtk_editable_get_text (GTK_EDITABLE (entry));
  g_autoptr(GError) error = NULL;

  if (key[0] == '\0')
    return;
  /* On success the rows are built again, this entry with them. */
  if (mcp_form_field_add_key (field, key, &error) == NULL)
    {
      gtk_widget_add_css_class (GTK_WIDGET (entry), "error");
      gtk_widget_set_tooltip_text (GTK_WIDGET (entry), error->message);
    }
}

static void
on_variant_selected_cb (AdwComboRow *row)
{
  guint selected = adw_combo_row_get_selected (row);

  if (selected != GTK_INVALID_LIST_POSITION)
    mcp_form_field_set_variant (row_get_field (row), selected);
}

/* A multi-select (an array whose items are one of a few values, as
 * elicitation's "items": {"enum": …} or {"anyOf": [{"const", "title"}…]}):
 * one check row per value, instead of items to add one by one. */

/* The items schema as a field of its own, when it is a choice; NULL
 * otherwise. */
static McpFormField *
dup_item_choices (McpFormField *field)
{
  JsonObject *schema = mcp_form_field_get_schema (field);
  JsonNode *items = schema != NULL ? json_object_get_member (schema, "items") : NULL;
  McpFormField *choices;

  if (items == NULL || !JSON_NODE_HOLDS_OBJECT (items))
    return NULL;
  choices = mcp_form_field_new_from_schema (items);
  if (mcp_form_field_get_kind (choices) != MCP_FORM_FIELD_ENUM ||
      mcp_form_field_get_choices (choices)->len == 0 ||
      mcp_form_field_get_choices (choices)->len > 64)
    {
      g_object_unref (choices);
      return NULL;
    }
  return choices;
}

/* The position among @field's items of the one holding choice @index, or -1. */
static int
find_item_with_choice (McpFormField *field,
                       int           index)
{
  GListModel *items = mcp_form_field_get_children (field);

  for (guint i = 0; i < g_list_model_get_n_items (items); i++)
    {
      g_autoptr(McpFormField) item = g_list_model_get_item (items, i);

      if (mcp_form_field_get_kind (item) == MCP_FORM_FIELD_ENUM && mcp_form_field_get_choice (item) == index)
        return (int) i;
    }
  return -1;
}

static void
on_multi_select_toggled_cb (GtkCheckButton *check,
                            McpFormField   *field)
{
  int index = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (check), "plugboard-choice"));
  int at = find_item_with_choice (field, index);

  if (gtk_check_button_get_active (check) && at < 0)
    mcp_form_field_set_choice (mcp_form_field_add_item (field), index);
  else if (!gtk_check_button_get_active (check) && at >= 0)
    mcp_form_field_remove_item (field, (guint) at);
}

static gboolean
fill_multi_select (GtkWidget    *container,
                   McpFormField *field)
{
  g_autoptr(McpFormField) choices = dup_item_choices (field);
  GPtrArray *values;

  if (choices == NULL)
    return FALSE;

  values = mcp_form_field_get_choices (choices);
  for (guint i = 0; i < values->len; i++)
    {
      GtkWidget *row = adw_action_row_new ();
      GtkWidget *check = gtk_check_button_new ();
      const char *title = mcp_form_field_get_choice_title (choices, i);
      g_autofree char *text = title != NULL ? g_strdup (title) : dup_choice_text (values->pdata[i]);

      /* a null value is no choice to tick */
      if (JSON_NODE_HOLDS_NULL ((JsonNode *) values->pdata[i]))
        {
          g_object_unref (g_object_ref_sink (row));
          g_object_unref (g_object_ref_sink (check));
          continue;
        }
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), text);
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      gtk_check_button_set_active (GTK_CHECK_BUTTON (check), find_item_with_choice (field, (int) i) >= 0);
      g_object_set_data (G_OBJECT (check), "plugboard-choice", GINT_TO_POINTER (i));
      g_signal_connect_object (check, "toggled", G_CALLBACK (on_multi_select_toggled_cb), field, 0);
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), check);
      adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), check);
      container_add (container, row);
    }

  return TRUE;
}

static void
fill_rows (GtkWidget    *container,
           McpFormField *field)
{
  GListModel *children = mcp_form_field_get_children (field);
  guint n = g_list_model_get_n_items (children);
  g_autofree char *path = mcp_form_field_dup_path (field);

  switch (mcp_form_field_get_kind (field))
    {
    case MCP_FORM_FIELD_OBJECT:
      for (guint i = 0; i < n; i++)
        {
          g_autoptr(McpFormField) child = g_list_model_get_item (children, i);

          container_add (container, build_field_row (child, NULL));
        }
      if (n == 0 && ADW_IS_PREFERENCES_GROUP (container))
        {
          GtkWidget *row = adw_action_row_new ();

          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("No values to fill in"));
          gtk_widget_add_css_class (row, "dim-label");
          container_add (container, row);
        }
      break;

    case MCP_FORM_FIELD_ARRAY:
      if (fill_multi_select (container, field))
        break;
      {
        GtkWidget *add = adw_action_row_new ();
        GtkWidget *icon = gtk_image_new_from_icon_name ("list-add-symbolic");

        for (guint i = 0; i < n; i++)
          {
            g_autoptr(McpFormField) item = g_list_model_get_item (children, i);
            GtkWidget *row = build_field_row (item, NULL);

            add_item_controls (row, item, i, n, TRUE);
            container_add (container, row);
          }

        adw_preferences_row_set_title (ADW_PREFERENCES_ROW (add), _("_Add Item"));
        adw_preferences_row_set_use_underline (ADW_PREFERENCES_ROW (add), TRUE);
        adw_action_row_add_prefix (ADW_ACTION_ROW (add), icon);
        gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (add), TRUE);
        gtk_actionable_set_action_name (GTK_ACTIONABLE (add), "form.add-item");
        gtk_actionable_set_action_target (GTK_ACTIONABLE (add), "s", path);
        container_add (container, add);
      }
      break;

    case MCP_FORM_FIELD_MAP:
      {
        GtkWidget *entry = adw_entry_row_new ();

        for (guint i = 0; i < n; i++)
          {
            g_autoptr(McpFormField) value = g_list_model_get_item (children, i);
            GtkWidget *row = build_field_row (value, NULL);

            add_item_controls (row, value, i, n, FALSE);
            container_add (container, row);
          }

        adw_preferences_row_set_title (ADW_PREFERENCES_ROW (entry), _("New Key"));
        adw_entry_row_set_show_apply_button (ADW_ENTRY_ROW (entry), TRUE);
        row_set_field (entry, field);
        g_signal_connect (entry, "apply", G_CALLBACK (on_new_key_apply_cb), NULL);
        g_signal_connect (entry, "entry-activated", G_CALLBACK (on_new_key_apply_cb), NULL);
        container_add (container, entry);
      }
      break;

    case MCP_FORM_FIELD_UNION:
      {
        GtkWidget *chooser = adw_combo_row_new ();
        g_autoptr(GtkStringList) model =
          gtk_string_list_new ((const char * const *) mcp_form_field_get_variant_titles (field));
        g_autoptr(McpFormField) child = n > 0 ? g_list_model_get_item (children, 0) : NULL;

        adw_preferences_row_set_title (ADW_PREFERENCES_ROW (chooser), _("Type"));
        adw_combo_row_set_model (ADW_COMBO_ROW (chooser), G_LIST_MODEL (model));
        adw_combo_row_set_selected (ADW_COMBO_ROW (chooser), mcp_form_field_get_variant (field));
        row_set_field (chooser, field);
        /* Choosing a variant replaces the child: the rows are built again. */
        g_signal_connect (chooser, "notify::selected", G_CALLBACK (on_variant_selected_cb), NULL);
        container_add (container, chooser);

        if (child != NULL && mcp_form_field_get_kind (child) == MCP_FORM_FIELD_OBJECT)
          {
            GListModel *members = mcp_form_field_get_children (child);

            /* The variant's properties inline; its own changes rebuild here. */
            g_signal_handlers_disconnect_by_func (child, on_container_structure_changed_cb, container);
            g_signal_connect_object (child, "structure-changed",
                                     G_CALLBACK (on_container_structure_changed_cb), container, 0);
            for (guint i = 0; i < g_list_model_get_n_items (members); i++)
              {
                g_autoptr(McpFormField) property = g_list_model_get_item (members, i);

                container_add (container, build_field_row (property, NULL));
              }
          }
        else if (child != NULL)
          {
            container_add (container, build_field_row (child, NULL));
          }
      }
      break;

    case MCP_FORM_FIELD_STRING:
    case MCP_FORM_FIELD_NUMBER:
    case MCP_FORM_FIELD_INTEGER:
    case MCP_FORM_FIELD_BOOLEAN:
    case MCP_FORM_FIELD_NULL:
    case MCP_FORM_FIELD_CONST:
    case MCP_FORM_FIELD_ENUM:
    case MCP_FORM_FIELD_JSON:
    default:
      /* the root, or a composite field that turned into JSON */
      container_add (container, build_field_row (field, NULL));
      break;
    }
}

static GtkWidget *
build_field_row (McpFormField *field,
                 const char   *title)
{
  g_autofree char *default_title = title == NULL ? dup_field_title (field) : NULL;
  GtkWidget *row = NULL;

  if (title == NULL)
    title = default_title;

  switch (mcp_form_field_get_kind (field))
    {
    case MCP_FORM_FIELD_STRING:
    case MCP_FORM_FIELD_NUMBER:
    case MCP_FORM_FIELD_INTEGER:
      row = entry_row_new (field, title);
      break;

    case MCP_FORM_FIELD_BOOLEAN:
      row = switch_row_new (field, title);
      break;

    case MCP_FORM_FIELD_NULL:
    case MCP_FORM_FIELD_CONST:
      row = fixed_row_new (field, title);
      break;

    case MCP_FORM_FIELD_ENUM:
      row = combo_row_new (field, title);
      break;

    case MCP_FORM_FIELD_JSON:
      row = json_row_new (field, title);
      break;

    case MCP_FORM_FIELD_OBJECT:
    case MCP_FORM_FIELD_ARRAY:
    case MCP_FORM_FIELD_MAP:
    case MCP_FORM_FIELD_UNION:
    default:
      return expander_row_new (field, title);
    }

  g_signal_connect_object (field, "structure-changed",
                           G_CALLBACK (on_scalar_structure_changed_cb), row, 0);
  return row;
}

/* ------------------------------------------------------------------------ */
/* Actions                                                                  */

/* A union's variant has the union's path: @kind tells them apart (-1: the
 * first one). */
static McpFormField *
find_field (McpFormField *field,
            const char   *path,
            int           kind)
{
  g_autofree char *own = mcp_form_field_dup_path (field);
  GListModel *children;
  guint n;

  if (g_strcmp0 (own, path) == 0 && (kind < 0 || (int) mcp_form_field_get_kind (field) == kind))
    return field;

  children = mcp_form_field_get_children (field);
  n = g_list_model_get_n_items (children);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpFormField) child = g_list_model_get_item (children, i);
      McpFormField *found = find_field (child, path, kind);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static guint
index_in_parent (McpFormField *field)
{
  GListModel *siblings = mcp_form_field_get_children (mcp_form_field_get_parent (field));
  guint n = g_list_model_get_n_items (siblings);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(McpFormField) sibling = g_list_model_get_item (siblings, i);

      if (sibling == field)
        return i;
    }
  return G_MAXUINT;
}

static void
form_action_cb (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  PlugboardSchemaForm *self = PLUGBOARD_SCHEMA_FORM (widget);
  gboolean adding = g_str_equal (action_name, "form.add-item");
  McpFormField *field = find_field (self->field, g_variant_get_string (parameter, NULL),
                                    adding ? MCP_FORM_FIELD_ARRAY : -1);
  McpFormField *parent;
  guint index;

  if (field == NULL)
    {
      g_debug ("%s: no field at %s", action_name, g_variant_get_string (parameter, NULL));
      return;
    }

  if (adding)
    {
      mcp_form_field_add_item (field);
      return;
    }
  if (g_str_equal (action_name, "form.unset"))
    {
      mcp_form_field_set_present (field, FALSE);
      return;
    }

  parent = mcp_form_field_get_parent (field);
  if (parent == NULL)
    return;
  index = index_in_parent (field);
  if (index == G_MAXUINT)
    return;

  if (g_str_equal (action_name, "form.remove-item"))
    mcp_form_field_remove_item (parent, index);
  else if (g_str_equal (action_name, "form.move-up") && index > 0)
    mcp_form_field_move_item (parent, index, index - 1);
  else if (g_str_equal (action_name, "form.move-down") &&
           index + 1 < g_list_model_get_n_items (mcp_form_field_get_children (parent)))
    mcp_form_field_move_item (parent, index, index + 1);
}

/* ------------------------------------------------------------------------ */
/* The widget                                                               */

static void
plugboard_schema_form_set_field (PlugboardSchemaForm *self,
                                 McpFormField        *field)
{
  GtkWidget *group;

  g_return_if_fail (field == NULL || MCP_IS_FORM_FIELD (field));

  if (!g_set_object (&self->field, field))
    return;

  group = adw_preferences_group_new ();
  self->group = ADW_PREFERENCES_GROUP (group);
  adw_bin_set_child (ADW_BIN (self), group);
  if (field != NULL)
    {
      container_init (group, field);
      fill_rows (group, field);
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FIELD]);
}

static void
plugboard_schema_form_dispose (GObject *object)
{
  PlugboardSchemaForm *self = PLUGBOARD_SCHEMA_FORM (object);

  self->group = NULL;
  adw_bin_set_child (ADW_BIN (self), NULL);
  g_clear_object (&self->field);

  G_OBJECT_CLASS (plugboard_schema_form_parent_class)->dispose (object);
}

static void
plugboard_schema_form_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  PlugboardSchemaForm *self = PLUGBOARD_SCHEMA_FORM (object);

  switch (prop_id)
    {
    case PROP_FIELD:
      g_value_set_object (value, self->field);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_schema_form_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  PlugboardSchemaForm *self = PLUGBOARD_SCHEMA_FORM (object);

  switch (prop_id)
    {
    case PROP_FIELD:
      plugboard_schema_form_set_field (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_schema_form_class_init (PlugboardSchemaFormClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = plugboard_schema_form_dispose;
  object_class->get_property = plugboard_schema_form_get_property;
  object_class->set_property = plugboard_schema_form_set_property;

  properties[PROP_FIELD] =
    g_param_spec_object ("field", NULL, NULL, MCP_TYPE_FORM_FIELD,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                         G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "form.add-item", "s", form_action_cb);
  gtk_widget_class_install_action (widget_class, "form.remove-item", "s", form_action_cb);
  gtk_widget_class_install_action (widget_class, "form.move-up", "s", form_action_cb);
  gtk_widget_class_install_action (widget_class, "form.move-down", "s", form_action_cb);
  gtk_widget_class_install_action (widget_class, "form.unset", "s", form_action_cb);
}

static void
plugboard_schema_form_init (PlugboardSchemaForm *self)
{
}

GtkWidget *
plugboard_schema_form_new (McpFormField *root)
{
  g_return_val_if_fail (MCP_IS_FORM_FIELD (root), NULL);

  return g_object_new (PLUGBOARD_TYPE_SCHEMA_FORM, "field", root, NULL);
}

McpFormField *
plugboard_schema_form_get_field (PlugboardSchemaForm *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_SCHEMA_FORM (self), NULL);

  return self->field;
}

GtkWidget *
plugboard_schema_form_find_row (PlugboardSchemaForm *self,
                                const char          *name)
{
  GPtrArray *rows;

  g_return_val_if_fail (PLUGBOARD_IS_SCHEMA_FORM (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  if (self->group == NULL || self->field == NULL ||
      mcp_form_field_get_kind (self->field) != MCP_FORM_FIELD_OBJECT)
    return NULL;

  rows = g_object_get_data (G_OBJECT (self->group), DATA_ROWS);
  for (guint i = 0; rows != NULL && i < rows->len; i++)
    {
      GtkWidget *row = g_ptr_array_index (rows, i);
      McpFormField *field = row_get_field (row);

      if (field != NULL && mcp_form_field_get_parent (field) == self->field &&
          g_strcmp0 (mcp_form_field_get_name (field), name) == 0)
        return row;
    }

  return NULL;
}
