/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-result-view"

#include "config.h"

#include "plugboard-result-view.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-json-private.h"
#include "mcp-json-schema.h"

#include "plugboard-result-view-private.h"

/* PlugboardResultView checks the structured content against the tool's
 * output schema, in a thread, and says what it found. */

#define MAX_SHOWN_PROBLEMS 20

/* Checking structuredContent against the outputSchema, in a thread: both
 * come from a server, and a schema can make validation take its whole
 * budget. The thread gets texts and parses its own copies, so it shares no
 * node with the main thread. */
typedef struct
{
  char                 *schema;
  char                 *instance;
  McpJsonSchemaOutcome  outcome;
  GPtrArray            *problems;
} SchemaCheck;

static void
schema_check_free (SchemaCheck *check)
{
  g_free (check->schema);
  g_free (check->instance);
  g_clear_pointer (&check->problems, g_ptr_array_unref);
  g_free (check);
}

static void
schema_check_thread (GTask        *task,
                     gpointer      source_object,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  SchemaCheck *check = task_data;
  g_autoptr(JsonNode) schema = NULL;
  g_autoptr(JsonNode) instance = NULL;
  g_autoptr(GError) error = NULL;

  schema = mcp_json_parse (check->schema, strlen (check->schema), &error);
  if (schema != NULL)
    instance = mcp_json_parse (check->instance, strlen (check->instance), &error);
  if (instance == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  check->outcome = mcp_json_schema_check (schema, schema, instance, NULL, &check->problems);
  g_task_return_boolean (task, TRUE);
}

static void
show_schema_outcome (PlugboardResultView  *self,
                     McpJsonSchemaOutcome  outcome,
                     GPtrArray            *problems)
{
  g_autoptr(GString) list = g_string_new (NULL);
  guint n = problems != NULL ? problems->len : 0;

  if (outcome == MCP_JSON_SCHEMA_VALID)
    {
      self->schema_ok = 1;
      gtk_image_set_from_icon_name (self->schema_icon, "emblem-ok-symbolic");
      gtk_widget_add_css_class (GTK_WIDGET (self->schema_icon), "success");
      gtk_widget_add_css_class (GTK_WIDGET (self->schema_label), "success");
      gtk_label_set_text (self->schema_label, _("The structured content matches the output schema"));
      return;
    }

  if (outcome == MCP_JSON_SCHEMA_TOO_COMPLEX)
    {
      self->schema_ok = 2;
      gtk_image_set_from_icon_name (self->schema_icon, "dialog-warning-symbolic");
      gtk_widget_add_css_class (GTK_WIDGET (self->schema_icon), "warning");
      gtk_label_set_text (self->schema_label,
                          _("Not validated: the output schema is too complex to check the structured content against"));
    }
  else
    {
      self->schema_ok = 0;
      gtk_image_set_from_icon_name (self->schema_icon, "dialog-warning-symbolic");
      gtk_widget_add_css_class (GTK_WIDGET (self->schema_icon), "error");
      gtk_widget_add_css_class (GTK_WIDGET (self->schema_label), "error");
      gtk_label_set_text (self->schema_label, _("The structured content does not match the output schema"));
    }

  for (guint i = 0; i < n && i < MAX_SHOWN_PROBLEMS; i++)
    {
      if (list->len > 0)
        g_string_append_c (list, '\n');
      g_string_append_printf (list, "• %s", (const char *) g_ptr_array_index (problems, i));
    }
  if (n > MAX_SHOWN_PROBLEMS)
    {
      g_string_append_c (list, '\n');
      g_string_append_printf (list, ngettext ("and %u more problem", "and %u more problems",
                                              n - MAX_SHOWN_PROBLEMS),
                              n - MAX_SHOWN_PROBLEMS);
    }
  gtk_label_set_text (self->schema_problems_label, list->str);
  gtk_widget_set_visible (GTK_WIDGET (self->schema_problems_label), list->len > 0);
}

static void
schema_checked_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  PlugboardResultView *self = PLUGBOARD_RESULT_VIEW (object);
  SchemaCheck *check = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      g_warning ("Could not check the structured content: %s", error->message);
      return;
    }

  show_schema_outcome (self, check->outcome, check->problems);
}

void
plugboard_result_view_show_schema_check (PlugboardResultView *self,
                                         McpToolResult       *result)
{
  JsonNode *structured = mcp_tool_result_get_structured_content (result);
  JsonObject *schema = NULL;
  g_autoptr(JsonNode) schema_node = NULL;
  g_autoptr(GTask) task = NULL;
  g_autoptr(GString) text = NULL;
  SchemaCheck *check;

  if (self->tool != NULL)
    schema = mcp_tool_get_output_schema (mcp_pool_tool_get_tool (self->tool));

  self->schema_ok = -1;
  gtk_widget_set_visible (GTK_WIDGET (self->schema_problems_label), FALSE);

  if (structured == NULL && schema == NULL)
    {
      gtk_widget_set_visible (self->schema_box, FALSE);
      return;
    }

  gtk_widget_remove_css_class (GTK_WIDGET (self->schema_label), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (self->schema_label), "success");
  gtk_widget_remove_css_class (GTK_WIDGET (self->schema_icon), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (self->schema_icon), "success");
  gtk_widget_remove_css_class (GTK_WIDGET (self->schema_icon), "warning");
  gtk_widget_set_visible (self->schema_box, TRUE);

  if (schema == NULL)
    {
      gtk_image_set_from_icon_name (self->schema_icon, "dialog-information-symbolic");
      gtk_label_set_text (self->schema_label, _("The tool declares no output schema to check the structured content against"));
      return;
    }

  if (structured == NULL)
    {
      self->schema_ok = 0;
      gtk_image_set_from_icon_name (self->schema_icon, "dialog-warning-symbolic");
      gtk_widget_add_css_class (GTK_WIDGET (self->schema_icon), "error");
      gtk_widget_add_css_class (GTK_WIDGET (self->schema_label), "error");
      gtk_label_set_text (self->schema_label,
                          mcp_tool_result_get_is_error (result)
                            ? _("No structured content (the tool reported an error)")
                            : _("The tool declares an output schema but sent no structured content"));
      if (mcp_tool_result_get_is_error (result))
        self->schema_ok = -1;
      return;
    }

  gtk_image_set_from_icon_name (self->schema_icon, "content-loading-symbolic");
  gtk_label_set_text (self->schema_label, _("Checking the structured content against the output schema…"));

  check = g_new0 (SchemaCheck, 1);
  schema_node = json_node_init_object (json_node_alloc (), schema);
  text = g_string_new (NULL);
  mcp_json_append (text, schema_node);
  check->schema = g_string_free (g_steal_pointer (&text), FALSE);
  text = g_string_new (NULL);
  mcp_json_append (text, structured);
  check->instance = g_string_free (g_steal_pointer (&text), FALSE);

  task = g_task_new (self, self->cancellable, schema_checked_cb, NULL);
  g_task_set_source_tag (task, plugboard_result_view_show_schema_check);
  g_task_set_task_data (task, check, (GDestroyNotify) schema_check_free);
  g_task_run_in_thread (task, schema_check_thread);
}
