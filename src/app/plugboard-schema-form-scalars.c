/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-schema-form"

#include "config.h"

#include "plugboard-schema-form.h"

#include <string.h>

#include <glib/gi18n.h>

#include "plugboard-json-editor.h"

#include "plugboard-schema-form-private.h"

/* PlugboardSchemaForm's rows of one value: entries (STRING, NUMBER,
 * INTEGER), switches (BOOLEAN), fixed values (NULL, CONST), combos (ENUM)
 * and JSON text (what the form cannot express). */

typedef void (*SyncFunc) (GtkWidget    *row,
                          McpFormField *field);

/* @row shows @field through @sync, now and whenever the field changes. */
static void
follow_field (GtkWidget    *row,
              McpFormField *field,
              SyncFunc      sync)
{
  sync (row, field);
  g_signal_connect_object (field, "changed", G_CALLBACK (sync), row, G_CONNECT_SWAPPED);
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
      plugboard_schema_form_row_set_syncing (row, TRUE);
      gtk_editable_set_text (GTK_EDITABLE (row), text);
      plugboard_schema_form_row_set_syncing (row, FALSE);
    }
  plugboard_schema_form_row_update_hint (row, field);
  plugboard_schema_form_row_update_problems (row, field);
}

static void
on_entry_changed_cb (GtkEditable *editable)
{
  McpFormField *field = plugboard_schema_form_row_get_field (editable);
  const char *text = gtk_editable_get_text (editable);

  if (plugboard_schema_form_row_is_syncing (editable))
    return;

  g_object_set_data (G_OBJECT (editable), DATA_TOUCHED, GINT_TO_POINTER (TRUE));
  if (text[0] == '\0' && plugboard_schema_form_field_is_optional (field))
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
  McpFormField *field = plugboard_schema_form_row_get_field (row);
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

GtkWidget *
plugboard_schema_form_entry_row_new (McpFormField *field,
                                     const char   *title)
{
  GtkWidget *row = adw_entry_row_new ();
  g_autofree char *row_title = plugboard_schema_form_dup_row_title (field, title);
  const char *format = mcp_form_field_get_format (field);
  const char *description = mcp_form_field_get_description (field);
  McpFormFieldKind kind = mcp_form_field_get_kind (field);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), row_title);
  plugboard_schema_form_row_set_field (row, field);

  if (kind == MCP_FORM_FIELD_NUMBER || kind == MCP_FORM_FIELD_INTEGER)
    adw_entry_row_set_input_purpose (ADW_ENTRY_ROW (row),
                                     kind == MCP_FORM_FIELD_INTEGER ? GTK_INPUT_PURPOSE_DIGITS
                                                                    : GTK_INPUT_PURPOSE_NUMBER);
  else if (g_strcmp0 (format, "email") == 0)
    adw_entry_row_set_input_purpose (ADW_ENTRY_ROW (row), GTK_INPUT_PURPOSE_EMAIL);
  else if (g_strcmp0 (format, "uri") == 0)
    adw_entry_row_set_input_purpose (ADW_ENTRY_ROW (row), GTK_INPUT_PURPOSE_URL);

  plugboard_schema_form_row_add_hint (row);
  plugboard_schema_form_row_add_problem_icon (row);

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
      plugboard_schema_form_row_add_suffix (row, button);
    }

  if (description != NULL)
    plugboard_schema_form_row_add_suffix (row, description_button_new (description));

  follow_field (row, field, sync_entry);
  g_signal_connect (row, "changed", G_CALLBACK (on_entry_changed_cb), NULL);
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
      plugboard_schema_form_row_set_syncing (row, TRUE);
      gtk_switch_set_active (toggle, mcp_form_field_get_boolean (field));
      plugboard_schema_form_row_set_syncing (row, FALSE);
    }
  plugboard_schema_form_row_update_hint (row, field);
  plugboard_schema_form_row_update_unset (row, field);
}

static void
on_switch_active_cb (GtkSwitch  *toggle,
                     GParamSpec *pspec,
                     GtkWidget  *row)
{
  if (plugboard_schema_form_row_is_syncing (row))
    return;
  mcp_form_field_set_boolean (plugboard_schema_form_row_get_field (row), gtk_switch_get_active (toggle));
}

static void
action_row_setup (GtkWidget    *row,
                  McpFormField *field,
                  const char   *title)
{
  g_autofree char *row_title = plugboard_schema_form_dup_row_title (field, title);
  const char *description = mcp_form_field_get_description (field);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), row_title);
  if (description != NULL)
    {
      g_autofree char *escaped = g_markup_escape_text (description, -1);

      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), escaped);
    }
  plugboard_schema_form_row_set_field (row, field);
  plugboard_schema_form_row_set_description (row, field, NULL);
}

GtkWidget *
plugboard_schema_form_switch_row_new (McpFormField *field,
                                      const char   *title)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *toggle = gtk_switch_new ();

  action_row_setup (row, field, title);
  plugboard_schema_form_row_add_hint (row);
  if (plugboard_schema_form_field_is_optional (field))
    plugboard_schema_form_row_add_unset_button (row, field);
  plugboard_schema_form_row_add_suffix (row, toggle);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), toggle);

  follow_field (row, field, sync_switch);
  g_signal_connect_object (toggle, "notify::active", G_CALLBACK (on_switch_active_cb), row, 0);
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
      plugboard_schema_form_row_set_syncing (row, TRUE);
      gtk_switch_set_active (toggle, mcp_form_field_get_present (field));
      plugboard_schema_form_row_set_syncing (row, FALSE);
    }
}

static void
on_presence_active_cb (GtkSwitch  *toggle,
                       GParamSpec *pspec,
                       GtkWidget  *row)
{
  if (plugboard_schema_form_row_is_syncing (row))
    return;
  mcp_form_field_set_present (plugboard_schema_form_row_get_field (row), gtk_switch_get_active (toggle));
}

GtkWidget *
plugboard_schema_form_fixed_row_new (McpFormField *field,
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

      value = node != NULL ? plugboard_schema_form_dup_node_text (node) : g_strdup ("");
    }

  label = gtk_label_new (value);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (label, "monospace");
  gtk_widget_add_css_class (label, "dim-label");
  plugboard_schema_form_row_add_suffix (row, label);

  if (plugboard_schema_form_field_is_optional (field))
    {
      GtkWidget *toggle = gtk_switch_new ();

      gtk_widget_set_tooltip_text (toggle, _("Include this value"));
      plugboard_schema_form_row_add_suffix (row, toggle);
      adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), toggle);
      g_object_set_data (G_OBJECT (row), DATA_PRESENCE, toggle);
      follow_field (row, field, sync_presence);
      g_signal_connect_object (toggle, "notify::active", G_CALLBACK (on_presence_active_cb), row, 0);
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
      plugboard_schema_form_row_set_syncing (row, TRUE);
      adw_combo_row_set_selected (ADW_COMBO_ROW (row), choice);
      plugboard_schema_form_row_set_syncing (row, FALSE);
    }
  plugboard_schema_form_row_update_unset (row, field);
  plugboard_schema_form_row_update_hint (row, field);
}

static void
on_combo_selected_cb (AdwComboRow *row)
{
  guint selected = adw_combo_row_get_selected (row);
  McpFormField *field = plugboard_schema_form_row_get_field (row);

  if (plugboard_schema_form_row_is_syncing (row))
    return;
  if (selected == GTK_INVALID_LIST_POSITION)
    mcp_form_field_set_present (field, FALSE);
  else
    mcp_form_field_set_choice (field, (int) selected);
}

GtkWidget *
plugboard_schema_form_combo_row_new (McpFormField *field,
                                     const char   *title)
{
  GtkWidget *row = adw_combo_row_new ();
  GPtrArray *choices = mcp_form_field_get_choices (field);
  g_autoptr(GtkStringList) model = gtk_string_list_new (NULL);

  for (guint i = 0; choices != NULL && i < choices->len; i++)
    {
      const char *choice_title = mcp_form_field_get_choice_title (field, i);
      JsonNode *choice = g_ptr_array_index (choices, i);
      g_autofree char *text = choice_title != NULL ? g_strdup (choice_title)
                                                   : plugboard_schema_form_dup_choice_text (choice);

      gtk_string_list_append (model, text);
    }

  action_row_setup (row, field, title);
  adw_combo_row_set_model (ADW_COMBO_ROW (row), G_LIST_MODEL (model));
  plugboard_schema_form_row_add_hint (row);
  if (plugboard_schema_form_field_is_optional (field))
    plugboard_schema_form_row_add_unset_button (row, field);

  follow_field (row, field, sync_combo);
  g_signal_connect (row, "notify::selected", G_CALLBACK (on_combo_selected_cb), NULL);
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
      plugboard_schema_form_row_set_syncing (row, TRUE);
      plugboard_json_editor_set_text (editor, text);
      plugboard_schema_form_row_set_syncing (row, FALSE);
    }
  plugboard_schema_form_row_update_unset (row, field);
}

static void
on_json_editor_changed_cb (PlugboardJsonEditor *editor,
                           GtkWidget           *row)
{
  McpFormField *field = plugboard_schema_form_row_get_field (row);
  const char *text = plugboard_json_editor_get_text (editor);

  if (plugboard_schema_form_row_is_syncing (row))
    return;
  if (text[0] == '\0' && plugboard_schema_form_field_is_optional (field))
    mcp_form_field_set_present (field, FALSE);
  else
    mcp_form_field_set_text (field, text);
}

GtkWidget *
plugboard_schema_form_json_row_new (McpFormField *field,
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
  g_autofree char *row_title = plugboard_schema_form_dup_row_title (field, title);
  const char *description = mcp_form_field_get_description (field);
  g_autofree char *subtitle = NULL;
  GtkWidget *subtitle_label;

  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), row_title);
  plugboard_schema_form_row_set_field (row, field);
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

  if (plugboard_schema_form_field_is_optional (field))
    plugboard_schema_form_row_add_unset_button (row, field);

  follow_field (row, field, sync_json);
  g_signal_connect_object (editor, "changed", G_CALLBACK (on_json_editor_changed_cb), row, 0);
  return row;
}
