/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-processed-result"

/* McpProcessedResult: a tool's result (or a resource's contents) made fit
 * to show or hand on, off the main thread: text cut at the output limit,
 * images scaled and saved, binary content saved to files. */

#include "config.h"

#include "mcp-processed-result.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <gdk-pixbuf/gdk-pixbuf.h>

#include "mcp-json-private.h"

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
  McpStructuredCheck structured_check;
  char          *structured_message;
  GPtrArray     *structured_problems; /* char*, NULL-terminated */
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
  g_clear_pointer (&self->structured_message, g_free);
  g_clear_pointer (&self->structured_problems, g_ptr_array_unref);

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
  self->structured_problems = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->structured_problems, NULL);
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

McpStructuredCheck
mcp_processed_result_get_structured_check (McpProcessedResult *self)
{
  g_return_val_if_fail (MCP_IS_PROCESSED_RESULT (self), MCP_STRUCTURED_CHECK_NOT_CHECKED);
  return self->structured_check;
}

const char *
mcp_processed_result_get_structured_message (McpProcessedResult *self)
{
  g_return_val_if_fail (MCP_IS_PROCESSED_RESULT (self), NULL);
  return self->structured_message;
}

const char * const *
mcp_processed_result_get_structured_problems (McpProcessedResult *self)
{
  g_return_val_if_fail (MCP_IS_PROCESSED_RESULT (self), NULL);
  return (const char * const *) self->structured_problems->pdata;
}

/* ------------------------------------------------------------------------ */
/* Post-processing                                                          */

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
  gboolean       check_schema;
  char          *output_schema;  /* JSON text, parsed in the thread; NULL: none */
} Process;

static void
process_free (gpointer data)
{
  Process *process = data;

  g_clear_object (&process->result);
  g_free (process->name);
  g_free (process->directory);
  g_free (process->output_schema);
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

  /* in the server's order: --json prints the result as it came */
  json_object_iter_init_ordered (&iter, object);
  while (json_object_iter_next_ordered (&iter, &member, &node))
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

/* The original's structured content against the tool's output schema. */
static void
check_structured (Process            *process,
                  McpProcessedResult *processed)
{
  g_autoptr(JsonNode) schema = NULL;
  g_autoptr(GPtrArray) problems = NULL;

  if (!process->check_schema)
    return;

  /* a copy of our own: the caller's tree stays on its thread */
  if (process->output_schema != NULL)
    schema = mcp_json_parse (process->output_schema, strlen (process->output_schema), NULL);
  processed->structured_check =
    mcp_structured_content_check (schema,
                                  mcp_tool_result_get_structured_content (process->result),
                                  mcp_tool_result_get_is_error (process->result),
                                  &problems, &processed->structured_message);
  for (guint i = 0; i < problems->len; i++)
    g_ptr_array_insert (processed->structured_problems, processed->structured_problems->len - 1,
                        g_strdup (g_ptr_array_index (problems, i)));
}

/* structuredContent counts against the limit as the text does, after it:
 * past the limit it is left out of the result (a cut document would not
 * parse) and saved whole to a file, with a note saying where. */
static gboolean
limit_structured (Process             *process,
                  McpProcessedResult  *processed,
                  JsonObject          *root,
                  gsize                used,
                  GError             **error)
{
  JsonNode *structured = json_object_get_member (root, "structuredContent");
  g_autoptr(GString) text = NULL;
  g_autofree char *path = NULL;
  g_autofree char *size = NULL;
  g_autofree char *note = NULL;
  JsonObject *block;
  gsize length;

  if (structured == NULL || JSON_NODE_HOLDS_NULL (structured))
    return TRUE;

  text = g_string_new (NULL);
  mcp_json_append (text, structured);
  length = g_utf8_strlen (text->str, text->len);
  if (used + length <= process->max_characters)
    return TRUE;

  path = save_file (process, text->str, text->len, "json", error);
  if (path == NULL)
    return FALSE;
  g_ptr_array_insert (processed->files, processed->files->len - 1, g_strdup (path));
  json_object_remove_member (root, "structuredContent");
  size = g_format_size (text->len);
  /* %lu, not G_GSIZE_FORMAT: xgettext cannot read GLib's macros. */
  note = g_strdup_printf (_("[The structured content (%lu characters, %s) is over the output limit "
                            "of %lu characters (MAX_MCP_OUTPUT_TOKENS × %d): left out, and "
                            "saved whole to %s]"),
                          (unsigned long) length, size, (unsigned long) process->max_characters,
                          MCP_CHARACTERS_PER_TOKEN, path);

  /* In the result too, where whoever reads it (a model) finds it. */
  block = json_object_new ();
  json_object_set_string_member (block, "type", "text");
  json_object_set_string_member (block, "text", note);
  json_array_add_object_element (json_object_get_array_member (root, "content"), block);
  add_note (processed, g_steal_pointer (&note));
  return TRUE;
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

  check_structured (process, processed);

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

  if (!limit_structured (process, processed, root, used, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
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

static void
process_start (McpToolResult       *result,
               gboolean             check_schema,
               JsonObject          *output_schema,
               const char          *name,
               const char          *directory,
               gsize                max_characters,
               GCancellable        *cancellable,
               GAsyncReadyCallback  callback,
               gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  Process *process;

  process = g_new0 (Process, 1);
  process->check_schema = check_schema;
  if (output_schema != NULL)
    {
      g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), output_schema);
      g_autoptr(GString) text = g_string_new (NULL);

      mcp_json_append (text, node);
      process->output_schema = g_string_free (g_steal_pointer (&text), FALSE);
    }
  process->result = g_object_ref (result);
  process->name = g_strdup (name != NULL && name[0] != '\0' && strchr (name, '/') == NULL ? name : "result");
  process->directory = directory != NULL ? g_strdup (directory) : mcp_tool_call_dup_results_dir ();
  process->max_characters = max_characters != 0 ? max_characters
                                              : (gsize) MCP_DEFAULT_MAX_OUTPUT_TOKENS * MCP_CHARACTERS_PER_TOKEN;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_tool_result_process_async);
  g_task_set_task_data (task, process, process_free);
  g_task_run_in_thread (task, process_thread);
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
  g_return_if_fail (MCP_IS_TOOL_RESULT (result));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  process_start (result, FALSE, NULL, name, directory, max_characters, cancellable, callback, user_data);
}

void
mcp_tool_result_process_for_tool_async (McpToolResult       *result,
                                        JsonObject          *output_schema,
                                        const char          *name,
                                        const char          *directory,
                                        gsize                max_characters,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data)
{
  g_return_if_fail (MCP_IS_TOOL_RESULT (result));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  process_start (result, TRUE, output_schema, name, directory, max_characters, cancellable, callback, user_data);
}

void
mcp_contents_process_async (GPtrArray           *contents,
                            const char          *name,
                            gsize                max_characters,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(JsonObject) json = json_object_new ();
  g_autoptr(McpToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *array = json_array_new ();

  g_return_if_fail (contents != NULL);

  for (guint i = 0; i < contents->len; i++)
    json_array_add_object_element (array, json_object_ref (mcp_content_get_json (g_ptr_array_index (contents, i))));
  json_object_set_array_member (json, "content", array);

  result = mcp_tool_result_new_from_json (json, &error);
  if (result == NULL)
    {
      g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);

      g_task_set_source_tag (task, mcp_tool_result_process_async);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  mcp_tool_result_process_async (result, name, NULL, max_characters, cancellable, callback, user_data);
}

McpProcessedResult *
mcp_tool_result_process_finish (GAsyncResult  *result,
                                GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_tool_result_process_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
