/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-result-view"

#include "config.h"

#include "plugboard-result-view.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-json-private.h"
#include "mcp-processed-result.h"

#include "plugboard-result-view-private.h"

/* PlugboardResultView checks the structured content against the tool's
 * output schema, in a thread, and says what it found. */

#define MAX_SHOWN_PROBLEMS 20

/* Checking structuredContent against the outputSchema, in a thread, by
 * the engine's mcp_structured_content_check() (plugboard-cli says the
 * same): both come from a server, and a schema can make validation take
 * its whole budget. The thread gets texts and parses its own copies, so
 * it shares no node with the main thread. */
typedef struct
{
  char               *schema;
  char               *instance;
  gboolean            is_error;
  McpStructuredCheck  outcome;
  GPtrArray          *problems;
  char               *message;
} SchemaCheck;

static void
schema_check_free (SchemaCheck *check)
{
  g_free (check->schema);
  g_free (check->instance);
  g_clear_pointer (&check->problems, g_ptr_array_unref);
  g_free (check->message);
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
  check->outcome = mcp_structured_content_check (schema, instance, check->is_error,
                                                 &check->problems, &check->message);
  g_task_return_boolean (task, TRUE);
}

static void
show_schema_outcome (PlugboardResultView *self,
                     McpStructuredCheck   outcome,
                     const char          *message,
                     const char * const  *problems)
{
  g_autoptr(GString) list = g_string_new (NULL);
  guint n = problems != NULL ? g_strv_length ((char **) problems) : 0;

  switch (outcome)
    {
    case MCP_STRUCTURED_CHECK_NOT_CHECKED:
    case MCP_STRUCTURED_CHECK_NO_SCHEMA:
      gtk_image_set_from_icon_name (self->schema_icon, "dialog-information-symbolic");
      gtk_label_set_text (self->schema_label, _("The tool declares no output schema to check the structured content against"));
      return;

    case MCP_STRUCTURED_CHECK_VALID:
      self->schema_ok = 1;
      gtk_image_set_from_icon_name (self->schema_icon, "emblem-ok-symbolic");
      gtk_widget_add_css_class (GTK_WIDGET (self->schema_icon), "success");
      gtk_widget_add_css_class (GTK_WIDGET (self->schema_label), "success");
      gtk_label_set_text (self->schema_label, _("The structured content matches the output schema"));
      return;

    case MCP_STRUCTURED_CHECK_ERROR_RESULT:
      gtk_image_set_from_icon_name (self->schema_icon, "dialog-warning-symbolic");
      gtk_label_set_text (self->schema_label, _("No structured content (the tool reported an error)"));
      return;

    case MCP_STRUCTURED_CHECK_TOO_COMPLEX:
      self->schema_ok = 2;
      gtk_image_set_from_icon_name (self->schema_icon, "dialog-warning-symbolic");
      gtk_widget_add_css_class (GTK_WIDGET (self->schema_icon), "warning");
      gtk_label_set_text (self->schema_label, message);
      break;

    case MCP_STRUCTURED_CHECK_INVALID:
    case MCP_STRUCTURED_CHECK_MISSING:
    default:
      self->schema_ok = 0;
      gtk_image_set_from_icon_name (self->schema_icon, "dialog-warning-symbolic");
      gtk_widget_add_css_class (GTK_WIDGET (self->schema_icon), "error");
      gtk_widget_add_css_class (GTK_WIDGET (self->schema_label), "error");
      gtk_label_set_text (self->schema_label, message);
      break;
    }

  /* an only problem is in the message already */
  if (n == 1 && outcome == MCP_STRUCTURED_CHECK_INVALID)
    n = 0;
  for (guint i = 0; i < n && i < MAX_SHOWN_PROBLEMS; i++)
    {
      if (list->len > 0)
        g_string_append_c (list, '\n');
      g_string_append_printf (list, "• %s", problems[i]);
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

  g_ptr_array_add (check->problems, NULL);
  show_schema_outcome (self, check->outcome, check->message, (const char * const *) check->problems->pdata);
}

void
plugboard_result_view_show_schema_check (PlugboardResultView *self,
                                         McpToolResult       *result)
{
  JsonNode *structured = mcp_tool_result_get_structured_content (result);
  McpStructuredCheck checked = mcp_processed_result_get_structured_check (self->result);
  JsonObject *schema = NULL;
  g_autoptr(JsonNode) schema_node = NULL;
  g_autoptr(GTask) task = NULL;
  g_autoptr(GString) text = NULL;
  SchemaCheck *check;

  if (self->tool != NULL)
    schema = mcp_tool_get_output_schema (mcp_pool_tool_get_tool (self->tool));

  self->schema_ok = -1;
  gtk_widget_set_visible (GTK_WIDGET (self->schema_problems_label), FALSE);

  if (structured != NULL && JSON_NODE_HOLDS_NULL (structured))
    structured = NULL;
  if (structured == NULL && schema == NULL && checked == MCP_STRUCTURED_CHECK_NOT_CHECKED)
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

  /* A call's result was checked as it was processed, against the
   * original structured content (the shown one may be left out). */
  if (checked != MCP_STRUCTURED_CHECK_NOT_CHECKED)
    {
      show_schema_outcome (self, checked, mcp_processed_result_get_structured_message (self->result),
                           mcp_processed_result_get_structured_problems (self->result));
      return;
    }

  if (schema == NULL || structured == NULL)
    {
      g_autofree char *message = NULL;
      g_autoptr(JsonNode) node = schema != NULL ? json_node_init_object (json_node_alloc (), schema) : NULL;
      /* nothing to validate: no thread */
      McpStructuredCheck outcome = mcp_structured_content_check (node, structured,
                                                                 mcp_tool_result_get_is_error (result),
                                                                 NULL, &message);

      show_schema_outcome (self, outcome, message, NULL);
      return;
    }

  gtk_image_set_from_icon_name (self->schema_icon, "content-loading-symbolic");
  gtk_label_set_text (self->schema_label, _("Checking the structured content against the output schema…"));

  check = g_new0 (SchemaCheck, 1);
  check->is_error = mcp_tool_result_get_is_error (result);
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
