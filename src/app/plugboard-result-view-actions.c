/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-result-view"

#include "config.h"

#include "plugboard-result-view.h"

#include <string.h>

#include <glib/gi18n.h>

#include "plugboard-common.h"

#include "plugboard-result-view-private.h"

/* PlugboardResultView's actions: Copy Result, Copy as Command and Save
 * Full Result, and the texts they copy or save. */

static void
append_text (GString    *out,
             const char *text)
{
  if (text == NULL)
    return;
  if (out->len > 0)
    g_string_append (out, "\n\n");
  g_string_append (out, text);
}

static char *
result_text (McpToolResult *result)
{
  GPtrArray *content = mcp_tool_result_get_content (result);
  GString *out = g_string_new (NULL);
  JsonNode *structured;

  for (guint i = 0; content != NULL && i < content->len; i++)
    {
      McpContent *item = g_ptr_array_index (content, i);
      McpContentKind kind = mcp_content_get_kind (item);

      if (kind == MCP_CONTENT_TEXT || kind == MCP_CONTENT_RESOURCE)
        append_text (out, mcp_content_get_text (item));
    }

  structured = mcp_tool_result_get_structured_content (result);
  if (out->len == 0 && structured != NULL)
    {
      g_autofree char *json = plugboard_dup_json (structured, TRUE);
      append_text (out, json);
    }
  if (out->len == 0)
    {
      g_autofree char *json = plugboard_json_object_to_text (mcp_tool_result_get_json (result), TRUE);
      append_text (out, json);
    }

  return g_string_free (out, FALSE);
}

char *
plugboard_result_view_dup_text (PlugboardResultView *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_RESULT_VIEW (self), NULL);

  if (self->result == NULL)
    return NULL;
  return result_text (mcp_processed_result_get_result (self->result));
}

char *
plugboard_result_view_dup_command_line (PlugboardResultView *self)
{
  GString *line;

  g_return_val_if_fail (PLUGBOARD_IS_RESULT_VIEW (self), NULL);

  if (self->tool == NULL)
    return NULL;

  line = g_string_new ("plugboard-cli call");
  plugboard_append_shell_word (line, mcp_pool_tool_get_server_name (self->tool));
  plugboard_append_shell_word (line, mcp_tool_get_name (mcp_pool_tool_get_tool (self->tool)));

  if (self->arguments != NULL && json_object_get_size (self->arguments) > 0)
    {
      g_autofree char *json = plugboard_json_object_to_text (self->arguments, FALSE);

      g_string_append (line, " --args");
      plugboard_append_shell_word (line, json);
    }

  return g_string_free (line, FALSE);
}

static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  PlugboardResultView *self = PLUGBOARD_RESULT_VIEW (widget);
  g_autofree char *text = plugboard_result_view_dup_text (self);

  if (text == NULL)
    return;
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
  plugboard_result_view_toast (self, _("Result copied"));
}

static void
copy_command_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  PlugboardResultView *self = PLUGBOARD_RESULT_VIEW (widget);
  g_autofree char *line = plugboard_result_view_dup_command_line (self);

  if (line == NULL)
    return;
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), line);
  plugboard_result_view_toast (self, _("Command copied"));
}

static void
save_full_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  PlugboardResultView *self = PLUGBOARD_RESULT_VIEW (widget);
  g_autofree char *text = NULL;
  g_autofree char *name = NULL;
  g_autoptr(GBytes) bytes = NULL;

  if (self->result == NULL)
    return;

  text = result_text (mcp_processed_result_get_original (self->result));
  bytes = g_bytes_new_take (text, strlen (text));
  text = NULL;
  name = plugboard_result_view_dup_suggested_name (self, "txt");
  plugboard_result_view_save_as (self, name, bytes, NULL);
}

void
plugboard_result_view_class_init_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_property_action (widget_class, "result.plain-text", "plain-text");
  gtk_widget_class_install_property_action (widget_class, "result.wrap", "wrap");
  gtk_widget_class_install_action (widget_class, "result.copy", NULL, copy_action);
  gtk_widget_class_install_action (widget_class, "result.copy-command", NULL, copy_command_action);
  gtk_widget_class_install_action (widget_class, "result.save-full", NULL, save_full_action);
}
