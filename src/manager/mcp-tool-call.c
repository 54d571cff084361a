/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-tool-call"

#include "config.h"

#include "mcp-tool-call.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <gdk-pixbuf/gdk-pixbuf.h>

#include "mcp-client.h"
#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-message.h"
#include "mcp-redact.h"
#include "mcp-server-connection.h"
#include "mcp-transport.h"
#include "mcp-url-policy.h"

#define MCP_JSONRPC_URL_ELICITATION_REQUIRED (-32042)

/* ------------------------------------------------------------------------ */
/* McpProcessedResult                                                       */

struct _McpProcessedResult
{
  GObject        parent_instance;

  McpToolResult *result;
  McpToolResult *original;
  GPtrArray     *files;          /* char*, NULL-terminated */
  GPtrArray     *content_files;  /* char* or NULL, one per content block */
  GPtrArray     *content_json;   /* JsonNode* or NULL, one per content block */
  GPtrArray     *notes;          /* char*, NULL-terminated */
  gsize          cut;
};

G_DEFINE_FINAL_TYPE (McpProcessedResult, mcp_processed_result, G_TYPE_OBJECT)

/* GPtrArray calls its free function on NULL elements too. */
static void
json_node_unref0 (gpointer node)
{
  if (node != NULL)
    json_node_unref (node);
}

static void
mcp_processed_result_finalize (GObject *object)
{
  McpProcessedResult *self = (McpProcessedResult *) object;

  g_clear_object (&self->result);
  g_clear_object (&self->original);
  g_clear_pointer (&self->files, g_ptr_array_unref);
  g_clear_pointer (&self->content_files, g_ptr_array_unref);
  g_clear_pointer (&self->content_json, g_ptr_array_unref);
  g_clear_pointer (&self->notes, g_ptr_array_unref);

  G_OBJECT_CLASS (mcp_processed_result_parent_class)->finalize (object);
}

static void
mcp_processed_result_class_init (McpProcessedResultClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mcp_processed_result_finalize;
}

static void
mcp_processed_result_init (McpProcessedResult *self)
{
  self->files = g_ptr_array_new_with_free_func (g_free);
  self->content_files = g_ptr_array_new_with_free_func (g_free);
  self->content_json = g_ptr_array_new_with_free_func (json_node_unref0);
  self->notes = g_ptr_array_new_with_free_func (g_free);
}

McpToolResult *
mcp_processed_result_get_result (McpProcessedResult *self)
{
  g_return_val_if_fail (MCP_IS_PROCESSED_RESULT (self), NULL);
  return self->result;
}

McpToolResult *
mcp_processed_result_get_original (McpProcessedResult *self)
{
  g_return_val_if_fail (MCP_IS_PROCESSED_RESULT (self), NULL);
  return self->original;
}

const char * const *
mcp_processed_result_get_files (McpProcessedResult *self)
{
  g_return_val_if_fail (MCP_IS_PROCESSED_RESULT (self), NULL);
  return (const char * const *) self->files->pdata;
}

const char *
mcp_processed_result_get_file_for_content (McpProcessedResult *self,
                                           guint               index)
{
  g_return_val_if_fail (MCP_IS_PROCESSED_RESULT (self), NULL);

  if (index >= self->content_files->len)
    return NULL;
  return g_ptr_array_index (self->content_files, index);
}

JsonNode *
mcp_processed_result_get_json_for_content (McpProcessedResult *self,
                                           guint               index)
{
  g_return_val_if_fail (MCP_IS_PROCESSED_RESULT (self), NULL);

  if (index >= self->content_json->len)
    return NULL;
  return g_ptr_array_index (self->content_json, index);
}

const char * const *
mcp_processed_result_get_notes (McpProcessedResult *self)
{
  g_return_val_if_fail (MCP_IS_PROCESSED_RESULT (self), NULL);
  return (const char * const *) self->notes->pdata;
}

gsize
mcp_processed_result_get_cut_characters (McpProcessedResult *self)
{
  g_return_val_if_fail (MCP_IS_PROCESSED_RESULT (self), 0);
  return self->cut;
}

/* ------------------------------------------------------------------------ */
/* Post-processing                                                          */

gsize
mcp_tool_call_get_max_output_characters (void)
{
  const char *value = g_getenv ("MAX_MCP_OUTPUT_TOKENS");
  guint64 tokens = MCP_DEFAULT_MAX_OUTPUT_TOKENS;

  if (value != NULL && value[0] != '\0')
    {
      g_autoptr(GError) error = NULL;
      guint64 parsed;

      if (g_ascii_string_to_unsigned (value, 10, 1, G_MAXSIZE / MCP_CHARACTERS_PER_TOKEN,
                                      &parsed, &error))
        tokens = parsed;
      else
        g_debug ("MAX_MCP_OUTPUT_TOKENS=%s is not a positive number (%s); using %u",
                 value, error->message, MCP_DEFAULT_MAX_OUTPUT_TOKENS);
    }

  return (gsize) tokens * MCP_CHARACTERS_PER_TOKEN;
}

char *
mcp_tool_call_dup_results_dir (void)
{
  return g_build_filename (g_get_user_cache_dir (), "plugboard", "results", NULL);
}

typedef struct
{
  McpToolResult *result;
  char          *name;
  char          *directory;
  gsize          max_characters;
} Process;

static void
process_free (gpointer data)
{
  Process *process = data;

  g_clear_object (&process->result);
  g_free (process->name);
  g_free (process->directory);
  g_free (process);
}

static const char *
extension_for (const char *mime_type)
{
  static const struct { const char *mime; const char *ext; } table[] = {
    { "image/png", "png" }, { "image/jpeg", "jpg" }, { "image/gif", "gif" },
    { "image/webp", "webp" }, { "image/svg+xml", "svg" },
    { "audio/wav", "wav" }, { "audio/x-wav", "wav" }, { "audio/wave", "wav" },
    { "audio/mpeg", "mp3" }, { "audio/ogg", "ogg" }, { "audio/flac", "flac" },
    { "audio/webm", "webm" }, { "application/pdf", "pdf" }, { "application/zip", "zip" },
    { "application/json", "json" }, { "text/plain", "txt" },
  };

  for (guint i = 0; mime_type != NULL && i < G_N_ELEMENTS (table); i++)
    if (g_ascii_strcasecmp (mime_type, table[i].mime) == 0)
      return table[i].ext;

  return "bin";
}

/* Writes @data to a new file of a unique name in @directory. */
static char *
save_file (Process       *process,
           const void    *data,
           gsize          length,
           const char    *extension,
           GError       **error)
{
  g_autofree char *template = NULL;
  g_autofree char *path = NULL;
  int fd;

  if (g_mkdir_with_parents (process->directory, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Could not create the folder %s for tool results: %s"),
                   process->directory, g_strerror (saved));
      return NULL;
    }

  template = g_strdup_printf ("%s-XXXXXX.%s", process->name, extension);
  path = g_build_filename (process->directory, template, NULL);
  fd = g_mkstemp_full (path, O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   _("Could not create a file in %s for a tool result: %s"),
                   process->directory, g_strerror (saved));
      return NULL;
    }
  g_close (fd, NULL);

  if (!g_file_set_contents_full (path, data, length, G_FILE_SET_CONTENTS_CONSISTENT, 0600, error))
    {
      g_prefix_error (error, _("Could not save a tool result: "));
      g_unlink (path);
      return NULL;
    }

  return g_steal_pointer (&path);
}

typedef struct
{
  int width;
  int height;
} ImageSize;

static void
on_size_prepared_cb (GdkPixbufLoader *loader,
                     int              width,
                     int              height,
                     gpointer         user_data)
{
  ImageSize *size = user_data;
  int longer = MAX (width, height);

  size->width = width;
  size->height = height;

  /* Scaling while decoding never holds the full-size image in memory. */
  if (longer > MCP_MAX_IMAGE_SIDE)
    {
      double scale = (double) MCP_MAX_IMAGE_SIDE / longer;

      gdk_pixbuf_loader_set_size (loader,
                                  MAX (1, (int) (width * scale + 0.5)),
                                  MAX (1, (int) (height * scale + 0.5)));
    }
}

static GdkPixbuf *
decode_image (GBytes     *data,
              ImageSize  *size,
              GError    **error)
{
  g_autoptr(GdkPixbufLoader) loader = gdk_pixbuf_loader_new ();
  GdkPixbuf *pixbuf;

  g_signal_connect (loader, "size-prepared", G_CALLBACK (on_size_prepared_cb), size);

  if (!gdk_pixbuf_loader_write_bytes (loader, data, error))
    {
      gdk_pixbuf_loader_close (loader, NULL);
      return NULL;
    }
  if (!gdk_pixbuf_loader_close (loader, error))
    return NULL;

  pixbuf = gdk_pixbuf_loader_get_pixbuf (loader);
  if (pixbuf == NULL)
    {
      g_set_error_literal (error, GDK_PIXBUF_ERROR, GDK_PIXBUF_ERROR_CORRUPT_IMAGE,
                           _("the image has no pixels"));
      return NULL;
    }

  return g_object_ref (pixbuf);
}

static JsonObject *
copy_object (JsonObject *object)
{
  JsonObject *copy = json_object_new ();
  JsonObjectIter iter;
  const char *member;
  JsonNode *node;

  json_object_iter_init (&iter, object);
  while (json_object_iter_next (&iter, &member, &node))
    json_object_set_member (copy, member, json_node_copy (node));

  return copy;
}

static void
add_note (McpProcessedResult *processed,
          char               *note)
{
  g_ptr_array_insert (processed->notes, processed->notes->len - 1, note);
}

static void
add_file (McpProcessedResult *processed,
          guint               index,
          const char         *path)
{
  g_ptr_array_insert (processed->files, processed->files->len - 1, g_strdup (path));
  g_free (g_ptr_array_index (processed->content_files, index));
  g_ptr_array_index (processed->content_files, index) = g_strdup (path);
}

/* @index counts the server's blocks (for the person), @out_index the
 * blocks that are kept. */
static gboolean
save_binary (Process             *process,
             McpProcessedResult  *processed,
             guint                index,
             guint                out_index,
             McpContent          *content,
             GBytes              *data,
             GError             **error)
{
  g_autofree char *path = NULL;
  g_autofree char *size = g_format_size (g_bytes_get_size (data));
  const char *mime_type = mcp_content_get_mime_type (content);

  path = save_file (process, g_bytes_get_data (data, NULL), g_bytes_get_size (data),
                    extension_for (mime_type), error);
  if (path == NULL)
    return FALSE;

  add_file (processed, out_index, path);
  add_note (processed, g_strdup_printf (_("Content %u (%s, %s) saved to %s"),
                                        index + 1,
                                        mime_type != NULL ? mime_type : mcp_content_get_type_name (content),
                                        size, path));
  return TRUE;
}

JsonNode *
mcp_tool_call_parse_json_text (const char *text,
                               gsize       max_bytes)
{
  const char *p = text;
  gsize length;

  g_return_val_if_fail (text != NULL, NULL);

  while (g_ascii_isspace (*p))
    p++;
  if (*p != '{' && *p != '[')
    return NULL;
  length = strnlen (p, max_bytes + 1);
  if (length > max_bytes)
    return NULL;
  return mcp_json_parse (p, length, NULL);
}

static void
process_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  Process *process = task_data;
  g_autoptr(McpProcessedResult) processed = g_object_new (MCP_TYPE_PROCESSED_RESULT, NULL);
  JsonObject *original = mcp_tool_result_get_json (process->result);
  GPtrArray *contents = mcp_tool_result_get_content (process->result);
  g_autoptr(JsonObject) root = copy_object (original);
  JsonArray *out_content = json_array_new ();
  JsonObject *cut_block = NULL;
  g_autofree char *cut_text = NULL;
  gsize used = 0;
  g_autoptr(GError) error = NULL;

  g_ptr_array_add (processed->files, NULL);
  g_ptr_array_add (processed->notes, NULL);
  g_ptr_array_set_size (processed->content_files, contents->len);
  json_object_set_array_member (root, "content", out_content);

  for (guint i = 0; i < contents->len; i++)
    {
      McpContent *content = g_ptr_array_index (contents, i);
      JsonObject *block = copy_object (mcp_content_get_json (content));
      McpContentKind kind = mcp_content_get_kind (content);
      /* Text past the cut goes, so later blocks move up. */
      guint out_index = json_array_get_length (out_content);

      if (g_task_return_error_if_cancelled (task))
        {
          json_object_unref (block);
          return;
        }

      if (kind == MCP_CONTENT_TEXT && mcp_content_get_text (content) != NULL)
        {
          const char *text = mcp_content_get_text (content);
          gsize length = g_utf8_strlen (text, -1);

          if (cut_block != NULL)
            {
              /* Past the limit already: the block goes, counted. */
              processed->cut += length;
              json_object_unref (block);
              continue;
            }
          if (used + length > process->max_characters)
            {
              gsize keep = process->max_characters - used;

              processed->cut += length - keep;
              cut_text = g_strndup (text, g_utf8_offset_to_pointer (text, keep) - text);
              cut_block = block;
            }
          used += MIN (length, process->max_characters - used);
        }
      else if (kind == MCP_CONTENT_IMAGE)
        {
          g_autoptr(GBytes) data = mcp_content_get_data (content, &error);
          g_autoptr(GdkPixbuf) pixbuf = NULL;
          ImageSize size = { 0, 0 };

          if (data == NULL)
            {
              add_note (processed, g_strdup_printf (_("Content %u: %s"), i + 1, error->message));
              g_clear_error (&error);
            }
          else if ((pixbuf = decode_image (data, &size, &error)) == NULL)
            {
              add_note (processed, g_strdup_printf (_("Content %u: the image could not be decoded (%s); saved as it came"),
                                                    i + 1, error->message));
              g_clear_error (&error);
              if (!save_binary (process, processed, i, out_index, content, data, &error))
                {
                  json_object_unref (block);
                  g_task_return_error (task, g_steal_pointer (&error));
                  return;
                }
            }
          else
            {
              g_autofree char *png = NULL;
              g_autofree char *path = NULL;
              gsize png_length = 0;
              int width = gdk_pixbuf_get_width (pixbuf);
              int height = gdk_pixbuf_get_height (pixbuf);

              if (!gdk_pixbuf_save_to_buffer (pixbuf, &png, &png_length, "png", &error, NULL) ||
                  (path = save_file (process, png, png_length, "png", &error)) == NULL)
                {
                  json_object_unref (block);
                  g_task_return_error (task, g_steal_pointer (&error));
                  return;
                }

              add_file (processed, out_index, path);
              if (width != size.width || height != size.height)
                {
                  g_autofree char *base64 = g_base64_encode ((const guchar *) png, png_length);

                  json_object_set_string_member (block, "data", base64);
                  json_object_set_string_member (block, "mimeType", "image/png");
                  add_note (processed, g_strdup_printf (_("Content %u: image of %d×%d scaled down to %d×%d and saved to %s"),
                                                        i + 1, size.width, size.height, width, height, path));
                }
              else
                {
                  add_note (processed, g_strdup_printf (_("Content %u: image of %d×%d saved to %s"),
                                                        i + 1, width, height, path));
                }
            }
        }
      else if (kind == MCP_CONTENT_AUDIO ||
               (kind == MCP_CONTENT_RESOURCE && mcp_content_get_data_base64 (content) != NULL))
        {
          g_autoptr(GBytes) data = mcp_content_get_data (content, &error);

          if (data == NULL)
            {
              add_note (processed, g_strdup_printf (_("Content %u: %s"), i + 1, error->message));
              g_clear_error (&error);
            }
          else if (!save_binary (process, processed, i, out_index, content, data, &error))
            {
              json_object_unref (block);
              g_task_return_error (task, g_steal_pointer (&error));
              return;
            }
        }

      json_array_add_object_element (out_content, block);
    }

  if (cut_block != NULL)
    {
      g_autofree char *note = NULL;
      g_autofree char *text = NULL;

      /* %lu, not G_GSIZE_FORMAT: xgettext cannot read GLib's macros. */
      note = g_strdup_printf (_("[Output truncated: %lu more characters cut. "
                                "The limit is %lu characters (MAX_MCP_OUTPUT_TOKENS "
                                "× %d); ask the tool for less, e.g. a page or a filter.]"),
                              (unsigned long) processed->cut, (unsigned long) process->max_characters,
                              MCP_CHARACTERS_PER_TOKEN);
      text = g_strconcat (cut_text, cut_text[0] != '\0' ? "\n\n" : "", note, NULL);
      json_object_set_string_member (cut_block, "text", text);
      add_note (processed, g_steal_pointer (&note));
    }

  processed->original = g_object_ref (process->result);
  processed->result = mcp_tool_result_new_from_json (root, &error);
  if (processed->result == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  /* Text that is a JSON document, parsed here rather than on the main
   * thread, where a front end would show it as a tree. */
  contents = mcp_tool_result_get_content (processed->result);
  g_ptr_array_set_size (processed->content_files, contents->len);
  g_ptr_array_set_size (processed->content_json, contents->len);
  for (guint i = 0; i < contents->len; i++)
    {
      const char *text = mcp_content_get_text (g_ptr_array_index (contents, i));

      if (g_task_return_error_if_cancelled (task))
        return;
      if (text != NULL)
        g_ptr_array_index (processed->content_json, i) = mcp_tool_call_parse_json_text (text, MCP_TOOL_CALL_MAX_JSON_BYTES);
    }

  g_task_return_pointer (task, g_steal_pointer (&processed), g_object_unref);
}

void
mcp_tool_result_process_async (McpToolResult       *result,
                               const char          *name,
                               const char          *directory,
                               gsize                max_characters,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Process *process;

  g_return_if_fail (MCP_IS_TOOL_RESULT (result));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  process = g_new0 (Process, 1);
  process->result = g_object_ref (result);
  process->name = g_strdup (name != NULL && name[0] != '\0' && strchr (name, '/') == NULL ? name : "result");
  process->directory = directory != NULL ? g_strdup (directory) : mcp_tool_call_dup_results_dir ();
  process->max_characters = max_characters != 0 ? max_characters : mcp_tool_call_get_max_output_characters ();

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_tool_result_process_async);
  g_task_set_task_data (task, process, process_free);
  g_task_run_in_thread (task, process_thread);
}

McpProcessedResult *
mcp_tool_result_process_finish (GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_tool_result_process_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ------------------------------------------------------------------------ */
/* The call                                                                 */

typedef struct
{
  McpPoolTool            *tool;
  JsonObject             *arguments;
  McpToolCallAskFunc      ask_func;
  McpToolCallOpenUrlFunc  open_url_func;
  McpProgressFunc         progress_func;
  McpToolCallAllowedFunc  allowed_func;
  gpointer                handler_data;
  McpPermissions         *permissions;       /* keeps decision.rule alive */
  McpPermissionDecision   decision;
  gboolean                retried_session;
  gboolean                retried_url;

  JsonNode               *elicitation_data;  /* error.data of a -32042 answer */
  GPtrArray              *urls;          /* (url, message) pairs */
  guint                   next_url;

  /* As a task */
  McpToolCallTaskFunc     task_func;
  gboolean                as_task;
  McpClient              *task_client;       /* the session the task lives in */
  McpTask                *task_state;        /* the latest reported */
  GCancellable           *task_cancellable;  /* tasks/result and tasks/get; cancelled at the end */
  GSource                *task_cancel_source; /* the call's cancellable */
  guint                   task_poll_id;
  gulong                  task_status_id;
  gboolean                task_done;
  gboolean                task_has_result;   /* tasks/result answered; no cancel now */
} Call;

static void task_stop (Call *call);

static void
call_free (gpointer data)
{
  Call *call = data;

  g_clear_object (&call->tool);
  g_clear_pointer (&call->arguments, json_object_unref);
  g_clear_object (&call->permissions);
  g_clear_pointer (&call->elicitation_data, json_node_unref);
  g_clear_pointer (&call->urls, g_ptr_array_unref);
  task_stop (call);
  g_clear_object (&call->task_client);
  g_clear_object (&call->task_state);
  g_clear_object (&call->task_cancellable);
  g_free (call);
}

static void call_send (GTask *task);

static void
on_processed_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  McpProcessedResult *processed;

  processed = mcp_tool_result_process_finish (result, &error);
  if (processed == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, processed, g_object_unref);
}

static void
on_reconnected_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Call *call = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!mcp_server_connection_reconnect_finish (MCP_SERVER_CONNECTION (object), result, &error))
    {
      g_prefix_error (&error, _("The session of server “%s” expired and a new one could not be started: "),
                      mcp_pool_tool_get_server_name (call->tool));
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  call_send (g_steal_pointer (&task));
}

static void open_next_url (GTask *task);

static void
on_url_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Call *call = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (error != NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_PERMISSION_DENIED,
                                 _("“%s” needs information given on a web page, and it was not given%s%s"),
                                 mcp_pool_tool_get_qualified_name (call->tool),
                                 error != NULL ? ": " : "",
                                 error != NULL ? error->message : "");
      return;
    }

  open_next_url (g_steal_pointer (&task));
}

static void
open_next_url (GTask *task)
{
  Call *call = g_task_get_task_data (task);
  GTask *done;
  const char *url;
  const char *message;

  if (call->next_url * 2 >= call->urls->len)
    {
      call_send (task);
      return;
    }

  url = g_ptr_array_index (call->urls, call->next_url * 2);
  message = g_ptr_array_index (call->urls, call->next_url * 2 + 1);
  call->next_url++;

  done = g_task_new (NULL, g_task_get_cancellable (task), on_url_done_cb, task);
  g_task_set_source_tag (done, open_next_url);
  call->open_url_func (call->tool, url, message, done, call->handler_data);
}

/* The largest output kept of a result of @call's server. */
static gsize
max_output_characters (Call *call)
{
  return mcp_server_connection_get_max_output_characters (mcp_pool_tool_get_connection (call->tool));
}

/* The URLs of error.data.elicitations[] (mode "url") that the URL policy
 * lets a browser open; @refused: why the first refused one was, when
 * none is left. */
static gboolean
collect_urls (Call    *call,
              GError **refused)
{
  JsonObject *data;
  JsonArray *elicitations;

  g_clear_pointer (&call->urls, g_ptr_array_unref);
  call->urls = g_ptr_array_new_with_free_func (g_free);
  call->next_url = 0;

  if (call->elicitation_data == NULL || !JSON_NODE_HOLDS_OBJECT (call->elicitation_data))
    return FALSE;
  data = json_node_get_object (call->elicitation_data);
  if (!json_object_has_member (data, "elicitations") ||
      !JSON_NODE_HOLDS_ARRAY (json_object_get_member (data, "elicitations")))
    return FALSE;

  elicitations = json_object_get_array_member (data, "elicitations");
  for (guint i = 0; i < json_array_get_length (elicitations); i++)
    {
      JsonNode *node = json_array_get_element (elicitations, i);
      JsonObject *elicitation;
      JsonNode *url;
      JsonNode *message;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      elicitation = json_node_get_object (node);
      url = json_object_get_member (elicitation, "url");
      message = json_object_get_member (elicitation, "message");
      if (url == NULL || json_node_get_value_type (url) != G_TYPE_STRING)
        continue;

      /* the front end checks again what it opens; here a refused URL is
       * not even offered */
      {
        g_autoptr(GError) error = NULL;

        if (!mcp_url_policy_check (json_node_get_string (url), MCP_URL_USE_BROWSER, NULL, &error))
          {
            g_debug ("%s: not offering the address of an elicitation: %s",
                     mcp_pool_tool_get_qualified_name (call->tool), error->message);
            if (refused != NULL && *refused == NULL)
              *refused = g_steal_pointer (&error);
            continue;
          }
      }

      g_ptr_array_add (call->urls, g_strdup (json_node_get_string (url)));
      g_ptr_array_add (call->urls,
                       message != NULL && json_node_get_value_type (message) == G_TYPE_STRING
                       ? g_strdup (json_node_get_string (message)) : NULL);
    }

  if (call->urls->len > 0)
    g_clear_error (refused);
  return call->urls->len > 0;
}

static void
on_called_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Call *call = g_task_get_task_data (task);
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autoptr(GError) error = NULL;

  GCancellable *cancellable = g_task_get_cancellable (task);

  tool_result = mcp_client_call_tool_finish (MCP_CLIENT (object), result, &error);

  if (tool_result != NULL)
    {
      mcp_tool_result_process_async (tool_result, mcp_pool_tool_get_qualified_name (call->tool),
                                     NULL, max_output_characters (call), cancellable,
                                     on_processed_cb, g_steal_pointer (&task));
      return;
    }

  if (g_error_matches (error, MCP_ERROR, MCP_ERROR_SESSION_EXPIRED) && !call->retried_session)
    {
      call->retried_session = TRUE;
      g_debug ("Session of “%s” expired during %s; reconnecting and trying once more",
               mcp_pool_tool_get_server_name (call->tool),
               mcp_pool_tool_get_qualified_name (call->tool));
      mcp_server_connection_reconnect_async (mcp_pool_tool_get_connection (call->tool),
                                             cancellable,
                                             on_reconnected_cb, g_steal_pointer (&task));
      return;
    }

  if (g_error_matches (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_URL_ELICITATION_REQUIRED))
    {
      JsonNode *data = mcp_jsonrpc_error_get_data (error);

      g_clear_pointer (&call->elicitation_data, json_node_unref);
      call->elicitation_data = data != NULL ? json_node_ref (data) : NULL;
    }

  if (g_error_matches (error, MCP_JSONRPC_ERROR, MCP_JSONRPC_URL_ELICITATION_REQUIRED) &&
      !call->retried_url && call->open_url_func != NULL)
    {
      g_autoptr(GError) refused = NULL;

      if (collect_urls (call, &refused))
        {
          call->retried_url = TRUE;
          open_next_url (g_steal_pointer (&task));
          return;
        }
      if (refused != NULL)
        {
          /* Translators: the first %s is a tool's name, the second why the address its server asks to open is refused */
          g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_FAILED,
                                   _("Calling %s failed: its server asks you to open an address Plugboard refuses: %s"),
                                   mcp_pool_tool_get_qualified_name (call->tool), refused->message);
          return;
        }
    }

  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_prefix_error (&error, _("Calling %s failed: "), mcp_pool_tool_get_qualified_name (call->tool));
  g_task_return_error (task, g_steal_pointer (&error));
}

/* ------------------------------------------------------------------------ */
/* The call as a task (2025-11-25, experimental)                            */

/* tasks/get polling: the server's pollInterval, within these bounds. */
#define TASK_POLL_DEFAULT_MS 1000
#define TASK_POLL_MIN_MS     100
#define TASK_POLL_MAX_MS     30000

static gboolean
runs_as_task (Call *call)
{
  const char *support = mcp_tool_get_task_support (mcp_pool_tool_get_tool (call->tool));

  if (g_strcmp0 (support, "required") == 0)
    return TRUE;
  return call->as_task && g_strcmp0 (support, "optional") == 0;
}

/* Ends the task's side work: polling, the status signal, the watch on the
 * call's cancellable, and any tasks/get or tasks/result still waiting. */
static void
task_stop (Call *call)
{
  call->task_done = TRUE;
  g_clear_handle_id (&call->task_poll_id, g_source_remove);
  if (call->task_status_id != 0 && call->task_client != NULL)
    g_clear_signal_handler (&call->task_status_id, call->task_client);
  if (call->task_cancel_source != NULL)
    {
      g_source_destroy (call->task_cancel_source);
      g_clear_pointer (&call->task_cancel_source, g_source_unref);
    }
  if (call->task_cancellable != NULL)
    g_cancellable_cancel (call->task_cancellable);
}

/* Tells the front end, when the status or its message changed. */
static void
task_report (Call    *call,
             McpTask *state)
{
  McpTask *last = call->task_state;

  if (last != NULL &&
      g_strcmp0 (mcp_task_get_status_string (last), mcp_task_get_status_string (state)) == 0 &&
      g_strcmp0 (mcp_task_get_status_message (last), mcp_task_get_status_message (state)) == 0)
    return;

  g_set_object (&call->task_state, state);
  if (call->task_func != NULL)
    call->task_func (call->tool, state, call->handler_data);
}

static void task_poll_schedule (GTask *task);

static void
on_task_polled_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Call *call = g_task_get_task_data (task);
  g_autoptr(McpTask) state = NULL;
  g_autoptr(GError) error = NULL;

  state = mcp_client_get_task_finish (MCP_CLIENT (object), result, &error);
  if (call->task_done)
    return;
  if (state == NULL)
    /* A missed poll is not the end of the task: tasks/result says that. */
    g_debug ("tasks/get for %s failed: %s", mcp_pool_tool_get_qualified_name (call->tool),
             error->message);
  else
    task_report (call, state);

  /* The poll holds no reference (see task_poll_schedule()): this one,
   * taken for tasks/get, is dropped here. Handing it on leaked the call. */
  if (state == NULL || !mcp_task_status_is_terminal (mcp_task_get_status (state)))
    task_poll_schedule (task);
}

static gboolean
task_poll_cb (gpointer user_data)
{
  GTask *task = user_data;
  Call *call = g_task_get_task_data (task);

  call->task_poll_id = 0;
  mcp_client_get_task_async (call->task_client, mcp_task_get_id (call->task_state),
                             call->task_cancellable, on_task_polled_cb, g_object_ref (task));
  return G_SOURCE_REMOVE;
}

static void
task_poll_schedule (GTask *task)
{
  Call *call = g_task_get_task_data (task);
  gint64 interval = mcp_task_get_poll_interval (call->task_state);

  if (call->task_done)
    return;
  if (interval < 0)
    interval = TASK_POLL_DEFAULT_MS;
  interval = CLAMP (interval, TASK_POLL_MIN_MS, TASK_POLL_MAX_MS);
  /* The source holds no reference: task_stop() removes it before the call
   * can end. */
  call->task_poll_id = g_timeout_add_full (G_PRIORITY_DEFAULT, (guint) interval,
                                           task_poll_cb, task, NULL);
  g_source_set_static_name (g_main_context_find_source_by_id (NULL, call->task_poll_id),
                            "[mcp-tool-call] tasks/get");
}

static void
on_task_status_cb (McpClient  *client,
                   McpMessage *message,
                   Call       *call)
{
  JsonObject *params = mcp_message_get_params_object (message);
  g_autoptr(McpTask) state = NULL;

  if (call->task_done || params == NULL ||
      g_strcmp0 (mcp_message_get_method (message), "notifications/tasks/status") != 0)
    return;
  state = mcp_task_new_from_json (params, NULL);
  if (state != NULL && g_strcmp0 (mcp_task_get_id (state), mcp_task_get_id (call->task_state)) == 0)
    task_report (call, state);
}

static void
task_finish_with_result (GTask         *task,
                         McpToolResult *tool_result)
{
  Call *call = g_task_get_task_data (task);

  task_stop (call);
  mcp_tool_result_process_async (tool_result, mcp_pool_tool_get_qualified_name (call->tool),
                                 NULL, max_output_characters (call), g_task_get_cancellable (task),
                                 on_processed_cb, task);
}

static void
on_task_final_state_cb (GObject      *object,
                        GAsyncResult *result,
                        gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Call *call = g_task_get_task_data (task);
  g_autoptr(McpToolResult) tool_result = g_object_steal_data (G_OBJECT (task), "mcp-task-result");
  g_autoptr(McpTask) state = mcp_client_get_task_finish (MCP_CLIENT (object), result, NULL);

  if (state != NULL)
    task_report (call, state);
  task_finish_with_result (g_steal_pointer (&task), tool_result);
}

static void
on_task_result_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Call *call = g_task_get_task_data (task);
  g_autoptr(McpToolResult) tool_result = NULL;
  g_autoptr(GError) error = NULL;

  tool_result = mcp_client_get_task_result_finish (MCP_CLIENT (object), result, &error);
  if (call->task_done)
    return;

  if (tool_result == NULL)
    {
      task_stop (call);
      g_prefix_error (&error, _("Calling %s failed (task %s): "),
                      mcp_pool_tool_get_qualified_name (call->tool),
                      mcp_task_get_id (call->task_state));
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  call->task_has_result = TRUE;

  /* The last state for the front end (the polls may have missed it), then
   * the result. */
  if (!mcp_task_status_is_terminal (mcp_task_get_status (call->task_state)))
    {
      g_clear_handle_id (&call->task_poll_id, g_source_remove);
      g_object_set_data_full (G_OBJECT (task), "mcp-task-result",
                              g_steal_pointer (&tool_result), g_object_unref);
      mcp_client_get_task_async (call->task_client, mcp_task_get_id (call->task_state),
                                 NULL, on_task_final_state_cb, g_steal_pointer (&task));
      return;
    }
  task_finish_with_result (g_steal_pointer (&task), tool_result);
}

static void
on_task_cancelled_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Call *call = g_task_get_task_data (task);
  g_autoptr(McpTask) state = NULL;
  g_autoptr(GError) error = NULL;

  state = mcp_client_cancel_task_finish (MCP_CLIENT (object), result, &error);
  if (state != NULL)
    task_report (call, state);
  else
    g_debug ("tasks/cancel for %s failed: %s", mcp_pool_tool_get_qualified_name (call->tool),
             error->message);

  g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                           _("%s was cancelled (task %s)"),
                           mcp_pool_tool_get_qualified_name (call->tool),
                           mcp_task_get_id (call->task_state));
}

/* The call's cancellable: tasks/cancel, then the call fails as cancelled. */
static gboolean
on_call_cancelled_cb (GCancellable *cancellable,
                      gpointer      user_data)
{
  GTask *task = user_data;
  Call *call = g_task_get_task_data (task);

  /* Too late to cancel a task whose result is in: the call ends cancelled
   * all the same (its processing watches the cancellable). */
  if (call->task_done || call->task_has_result)
    return G_SOURCE_REMOVE;
  task_stop (call);
  mcp_client_cancel_task_async (call->task_client, mcp_task_get_id (call->task_state), NULL,
                                on_task_cancelled_cb, g_object_ref (task));
  return G_SOURCE_REMOVE;
}

static void
on_task_created_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Call *call = g_task_get_task_data (task);
  McpClient *client = MCP_CLIENT (object);
  g_autoptr(McpTask) created = NULL;
  g_autoptr(GError) error = NULL;
  GCancellable *cancellable = g_task_get_cancellable (task);

  created = mcp_client_call_tool_as_task_finish (client, result, &error);
  if (created == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_prefix_error (&error, _("Calling %s as a task failed: "),
                        mcp_pool_tool_get_qualified_name (call->tool));
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  g_set_object (&call->task_client, client);
  call->task_done = FALSE;
  call->task_cancellable = g_cancellable_new ();
  task_report (call, created);

  if (mcp_task_status_is_terminal (mcp_task_get_status (created)) &&
      mcp_task_get_status (created) != MCP_TASK_STATUS_COMPLETED)
    {
      task_stop (call);
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_FAILED,
                               _("%s: task %s ended “%s”%s%s"),
                               mcp_pool_tool_get_qualified_name (call->tool),
                               mcp_task_get_id (created), mcp_task_get_status_string (created),
                               mcp_task_get_status_message (created) != NULL ? ": " : "",
                               mcp_task_get_status_message (created) != NULL
                               ? mcp_task_get_status_message (created) : "");
      return;
    }

  call->task_status_id = g_signal_connect (client, "notification",
                                           G_CALLBACK (on_task_status_cb), call);
  if (cancellable != NULL)
    {
      call->task_cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_static_name (call->task_cancel_source, "[mcp-tool-call] task cancelled");
      /* No reference: task_stop() destroys the source first. */
      g_source_set_callback (call->task_cancel_source, G_SOURCE_FUNC (on_call_cancelled_cb),
                             task, NULL);
      g_source_attach (call->task_cancel_source, g_main_context_get_thread_default ());
    }

  /* tasks/result at once: the server holds it until the task ends, and
   * sends what it needs to ask (elicitation, sampling) meanwhile. */
  mcp_client_get_task_result_async (client, mcp_task_get_id (created), call->task_cancellable,
                                    on_task_result_cb, g_object_ref (task));
  task_poll_schedule (task);
  /* The poll holds no reference; the waiting tasks/result does. */
}

static void
task_send (GTask     *task,
           McpClient *client)
{
  Call *call = g_task_get_task_data (task);

  mcp_client_call_tool_as_task_async (client,
                                      mcp_tool_get_name (mcp_pool_tool_get_tool (call->tool)),
                                      call->arguments, 0, g_task_get_cancellable (task),
                                      on_task_created_cb, task);
}

static void
call_send (GTask *task)
{
  Call *call = g_task_get_task_data (task);
  McpServerConnection *connection = mcp_pool_tool_get_connection (call->tool);
  McpClient *client = mcp_server_connection_get_client (connection);
  McpRequestOptions options = { 0 };

  if (client == NULL)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NOT_CONNECTED,
                               _("Server “%s” is not connected"),
                               mcp_pool_tool_get_server_name (call->tool));
      g_object_unref (task);
      return;
    }

  /* the config's toolTimeout, or the manager's tool-timeout */
  options.timeout_ms = mcp_server_connection_get_tool_timeout (connection);

  /* Each progress notification restarts the timeout (the client does it). */
  options.progress_func = call->progress_func;
  options.progress_data = call->handler_data;

  g_clear_pointer (&call->elicitation_data, json_node_unref);

  if (runs_as_task (call))
    {
      task_send (task, client);
      return;
    }

  mcp_client_call_tool_async (client,
                              mcp_tool_get_name (mcp_pool_tool_get_tool (call->tool)),
                              call->arguments, &options,
                              g_task_get_cancellable (task),
                              on_called_cb, task);
}

static void
on_connected_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;

  if (!mcp_server_connection_ensure_connected_finish (MCP_SERVER_CONNECTION (object), result, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  call_send (g_steal_pointer (&task));
}

static void
call_connect (GTask *task)
{
  Call *call = g_task_get_task_data (task);

  mcp_server_connection_ensure_connected_async (mcp_pool_tool_get_connection (call->tool),
                                                g_task_get_cancellable (task),
                                                on_connected_cb, task);
}

/* The permission check let the call go on: the front end hears it once. */
static void
call_allowed (GTask *task)
{
  Call *call = g_task_get_task_data (task);

  if (call->allowed_func != NULL)
    call->allowed_func (call->tool, &call->decision, call->handler_data);
  call_connect (task);
}

static void
on_answer_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Call *call = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;

  if (g_task_propagate_boolean (G_TASK (result), &error))
    {
      call_allowed (g_steal_pointer (&task));
      return;
    }

  if (error != NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_task_return_error (task, g_steal_pointer (&error));
  else if (error != NULL)
    g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_PERMISSION_DENIED,
                             _("%s was not allowed to run: %s"),
                             mcp_pool_tool_get_qualified_name (call->tool), error->message);
  else
    g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_PERMISSION_DENIED,
                             _("%s was not allowed to run: refused"),
                             mcp_pool_tool_get_qualified_name (call->tool));
}

static void
tool_call_start (McpPoolTool               *tool,
                 JsonObject                *arguments,
                 McpPermissions            *permissions,
                 const McpToolCallHandlers *handlers,
                 GCancellable              *cancellable,
                 GAsyncReadyCallback        callback,
                 gpointer                   user_data)
{
  g_autoptr(GTask) task = NULL;
  const char *name;
  Call *call;

  call = g_new0 (Call, 1);
  call->tool = g_object_ref (tool);
  call->arguments = arguments != NULL ? json_object_ref (arguments) : NULL;
  if (handlers != NULL)
    {
      call->ask_func = handlers->ask_func;
      call->open_url_func = handlers->open_url_func;
      call->progress_func = handlers->progress_func;
      call->allowed_func = handlers->allowed_func;
      call->handler_data = handlers->data;
      call->task_func = handlers->task_func;
      call->as_task = handlers->as_task;
    }

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_tool_call_async);
  g_task_set_task_data (task, call, call_free);

  /* The one permission check of the call. No evaluator: no rules, so the
   * default decides. */
  call->permissions = permissions != NULL ? g_object_ref (permissions)
                                          : mcp_permissions_new (NULL, NULL, NULL);
  mcp_permissions_decide_tool (call->permissions, tool, &call->decision);
  name = mcp_pool_tool_get_qualified_name (tool);

  switch (call->decision.permission)
    {
    case MCP_PERMISSION_DENY:
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_PERMISSION_DENIED,
                               _("%s is denied by the permission rule “%s”"), name,
                               call->decision.rule);
      return;

    case MCP_PERMISSION_ALLOW:
      call_allowed (g_steal_pointer (&task));
      return;

    case MCP_PERMISSION_ASK:
    default:
      if (call->ask_func == NULL)
        {
          g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_PERMISSION_DENIED,
                                   _("%s needs the person's approval (%s) and there is no one to ask"),
                                   name, call->decision.rule != NULL
                                         ? call->decision.rule
                                         : _("no permission rule allows it"));
          return;
        }
      {
        GTask *answer = g_task_new (NULL, cancellable, on_answer_cb, g_steal_pointer (&task));

        g_task_set_source_tag (answer, mcp_tool_call_async);
        call->ask_func (tool, arguments, call->decision.rule, answer, call->handler_data);
      }
      return;
    }
}

void
mcp_tool_call_async (McpPoolTool            *tool,
                     JsonObject             *arguments,
                     McpPermissions         *permissions,
                     McpToolCallAskFunc      ask_func,
                     McpToolCallOpenUrlFunc  open_url_func,
                     gpointer                handler_data,
                     GCancellable           *cancellable,
                     GAsyncReadyCallback     callback,
                     gpointer                user_data)
{
  McpToolCallHandlers handlers = {
    .ask_func = ask_func,
    .open_url_func = open_url_func,
    .progress_func = NULL,
    .data = handler_data,
  };

  g_return_if_fail (MCP_IS_POOL_TOOL (tool));
  g_return_if_fail (!permissions || MCP_IS_PERMISSIONS (permissions));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  tool_call_start (tool, arguments, permissions, &handlers, cancellable, callback, user_data);
}

void
mcp_tool_call_run_async (McpPoolTool               *tool,
                         JsonObject                *arguments,
                         McpPermissions            *permissions,
                         const McpToolCallHandlers *handlers,
                         GCancellable              *cancellable,
                         GAsyncReadyCallback        callback,
                         gpointer                   user_data)
{
  g_return_if_fail (MCP_IS_POOL_TOOL (tool));
  g_return_if_fail (!permissions || MCP_IS_PERMISSIONS (permissions));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  tool_call_start (tool, arguments, permissions, handlers, cancellable, callback, user_data);
}

McpProcessedResult *
mcp_tool_call_finish (GAsyncResult  *result,
                      GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  McpProcessedResult *processed;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_tool_call_async, NULL);

  processed = g_task_propagate_pointer (G_TASK (result), &local_error);
  if (local_error != NULL)
    {
      /* Where a call's failure leaves the engine: a transport's message
       * may name the command or URL as expanded, with its secrets. */
      g_auto(GStrv) secrets = mcp_redact_dup_secrets ();
      char *message = mcp_redact_text (local_error->message, (const char * const *) secrets);

      g_free (local_error->message);
      local_error->message = message;
      g_propagate_error (error, g_steal_pointer (&local_error));
    }

  return processed;
}
