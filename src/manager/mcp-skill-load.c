/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-skill"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-skill.h"
#include "mcp-skill-private.h"

#include "mcp-content.h"
#include "mcp-error.h"

/* Loading a skill and reading its files: one resources/read of a file the
 * entry lists, then the checks (mcp-skill-verify.c) on a worker thread, a
 * SHA-256 of up to 10 MiB being work the main thread should not do. Only
 * verified bytes are returned. */

typedef struct
{
  char       *uri;
  char       *digest;
  gint64      size;
  JsonObject *frontmatter;   /* set for the SKILL.md */
  GBytes     *bytes;
} ReadState;

static void
read_state_free (ReadState *state)
{
  g_free (state->uri);
  g_free (state->digest);
  g_clear_pointer (&state->frontmatter, json_object_unref);
  g_clear_pointer (&state->bytes, g_bytes_unref);
  g_free (state);
}

static void
verify_in_thread (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  ReadState *state = task_data;
  GError *error = NULL;

  if (!mcp_skill_verify_bytes (state->uri, state->bytes, state->digest, state->size,
                               state->frontmatter, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, g_bytes_ref (state->bytes), (GDestroyNotify) g_bytes_unref);
}

/* The raw bytes of the content item for @uri: a text's UTF-8, a blob
 * decoded. */
static GBytes *
content_bytes (GPtrArray   *contents,
               const char  *uri,
               GError     **error)
{
  for (guint i = 0; i < contents->len; i++)
    {
      McpContent *content = g_ptr_array_index (contents, i);
      const char *text;

      if (g_strcmp0 (mcp_content_get_uri (content), uri) != 0)
        continue;
      text = mcp_content_get_text (content);
      if (text != NULL)
        return g_bytes_new (text, strlen (text));
      return mcp_content_get_data (content, error);
    }

  g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
               _("The server's answer to reading %s has no content for that URI"), uri);
  return NULL;
}

static void
on_read_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  McpClient *client = MCP_CLIENT (object);
  g_autoptr(GTask) task = user_data;
  ReadState *state = g_task_get_task_data (task);
  g_autoptr(GPtrArray) contents = NULL;
  g_autoptr(GError) error = NULL;

  contents = mcp_client_read_resource_finish (client, result, &error);
  if (contents == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_prefix_error (&error, _("Reading %s failed: "), state->uri);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  state->bytes = content_bytes (contents, state->uri, &error);
  if (state->bytes == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_task_run_in_thread (task, verify_in_thread);
}

static void
read_file (McpSkill            *self,
           McpClient           *client,
           const char          *uri,
           gboolean             skill_md,
           gpointer             source_tag,
           GCancellable        *cancellable,
           GAsyncReadyCallback  callback,
           gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);
  ReadState *state;
  const char *digest;
  gint64 size;

  g_task_set_source_tag (task, source_tag);

  if (mcp_skill_is_dynamic (self))
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_UNSUPPORTED,
                               _("The skill %s is dynamic: its entry lists no digests, so its "
                                 "content cannot be verified and it is not loaded"),
                               mcp_skill_get_uri (self));
      return;
    }
  /* An unlisted file is a change to the skill: never asked for. */
  if (!mcp_skill_get_file_info (self, uri, &digest, &size))
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_ARGUMENT,
                               _("%s is not one of the files the entry of %s lists; it was not read"),
                               uri, mcp_skill_get_uri (self));
      return;
    }
  if (size > MCP_SKILL_MAX_FILE_SIZE)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_MESSAGE_TOO_LARGE,
                               _("%s is listed at %lld bytes, more than the %d MiB "
                                 "a skill file may have; it was not read"),
                               uri, (long long) size, MCP_SKILL_MAX_FILE_SIZE / (1024 * 1024));
      return;
    }

  state = g_new0 (ReadState, 1);
  state->uri = g_strdup (uri);
  state->digest = g_strdup (digest);
  state->size = size;
  if (skill_md)
    {
      /* A copy of its own for the worker thread: JsonObject's reference
       * count is not atomic. */
      g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), mcp_skill_get_frontmatter (self));
      g_autofree char *json = json_to_string (node, FALSE);
      g_autoptr(JsonNode) copy = json_from_string (json, NULL);

      state->frontmatter = json_object_ref (json_node_get_object (copy));
    }
  g_task_set_task_data (task, state, (GDestroyNotify) read_state_free);

  mcp_client_read_resource_async (client, uri, cancellable, on_read_cb, g_steal_pointer (&task));
}

void
mcp_skill_load_async (McpSkill            *self,
                      McpClient           *client,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_return_if_fail (MCP_IS_SKILL (self));
  g_return_if_fail (MCP_IS_CLIENT (client));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  read_file (self, client, mcp_skill_get_uri (self), TRUE, mcp_skill_load_async,
             cancellable, callback, user_data);
}

GBytes *
mcp_skill_load_finish (McpSkill      *self,
                       GAsyncResult  *result,
                       GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

void
mcp_skill_fetch_file_async (McpSkill            *self,
                            McpClient           *client,
                            const char          *uri,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_return_if_fail (MCP_IS_SKILL (self));
  g_return_if_fail (MCP_IS_CLIENT (client));
  g_return_if_fail (uri != NULL);
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  /* The SKILL.md read as a file is still the SKILL.md: its frontmatter is
   * checked too. */
  read_file (self, client, uri, strcmp (uri, mcp_skill_get_uri (self)) == 0,
             mcp_skill_fetch_file_async, cancellable, callback, user_data);
}

GBytes *
mcp_skill_fetch_file_finish (McpSkill      *self,
                             GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
