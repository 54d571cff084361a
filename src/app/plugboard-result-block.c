/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-result-block"

#include "config.h"

#include "plugboard-result-block.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "plugboard-common.h"
#include "plugboard-json-entry.h"
#include "plugboard-markdown.h"

/* PlugboardResultBlock: what a content item becomes in the result view —
 * its kind, its caption, a long text cut into rows, the JSON parsed — and
 * the section of rows it heads. */

/* Text is shown in rows of about this much, cut at line ends, so that only
 * the rows in sight are laid out (a label lays out all of its text). GTK
 * 4.8's grid view makes about 30 rows, more than a screen of text at
 * this size; at 1 KiB their layout took twice as long (bench-large-result). */
#define TEXT_CHUNK_BYTES  256
/* Markdown is looked for in this much of a text, and rendered (in one
 * label) only when the text is no longer than this. */
#define MARKDOWN_MAX_BYTES (32 * 1024)
/* Text that did not come through mcp_tool_result_process_async() (a
 * resource read here) is parsed as JSON on the main thread only up to
 * this size. */
#define MAIN_THREAD_JSON_BYTES (1024 * 1024)

G_DEFINE_FINAL_TYPE (PlugboardResultBlock, plugboard_result_block, G_TYPE_OBJECT)

static gboolean
unref_cb (gpointer object)
{
  g_object_unref (object);
  return G_SOURCE_REMOVE;
}

static void
plugboard_result_block_finalize (GObject *object)
{
  PlugboardResultBlock *self = (PlugboardResultBlock *) object;

  g_free (self->title);
  g_clear_object (&self->content);
  if (!self->text_borrowed)
    g_free (self->text);
  g_clear_pointer (&self->json, json_node_unref);
  g_free (self->file);
  g_clear_pointer (&self->data, g_bytes_unref);
  g_free (self->mime_type);
  /* A block may go in the result view's release thread (release_in_thread()
   * in plugboard-result-view.c); a renderer's data on a texture goes on the
   * main thread (g_main_context_invoke() would call here when it can take
   * the context). */
  if (self->texture != NULL)
    g_idle_add_full (G_PRIORITY_DEFAULT, unref_cb, g_steal_pointer (&self->texture), NULL);
  g_free (self->markup);
  g_free (self->status);
  g_clear_object (&self->chunks);
  if (self->owns_section)
    g_object_unref (self->section);

  G_OBJECT_CLASS (plugboard_result_block_parent_class)->finalize (object);
}

static void
plugboard_result_block_class_init (PlugboardResultBlockClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = plugboard_result_block_finalize;
}

static void
plugboard_result_block_init (PlugboardResultBlock *self)
{
  self->markdown = -1;
}


void
plugboard_result_block_set_rows (PlugboardResultBlock *block)
{
  g_autoptr(GListStore) head = g_list_store_new (PLUGBOARD_TYPE_RESULT_BLOCK);

  g_list_store_append (head, block);
  g_list_store_remove_all (block->parts);
  g_list_store_append (block->parts, head);
  if (block->kind == PLUGBOARD_RESULT_BLOCK_TEXT && block->chunks != NULL)
    g_list_store_append (block->parts, block->chunks);

  if (block->kind == PLUGBOARD_RESULT_BLOCK_JSON && !block->raw)
    {
      g_autoptr(GtkTreeListModel) tree = plugboard_json_entry_tree_new (block->json);

      if (tree != NULL)
        g_list_store_append (block->parts, tree);
    }
}

PlugboardResultBlock *
plugboard_result_block_new (PlugboardResultBlockKind  kind,
                            const char               *title)
{
  PlugboardResultBlock *block = g_object_new (PLUGBOARD_TYPE_RESULT_BLOCK, NULL);

  block->kind = kind;
  block->title = g_strdup (title);
  block->parts = g_list_store_new (G_TYPE_LIST_MODEL);
  block->section = G_LIST_MODEL (gtk_flatten_list_model_new (G_LIST_MODEL (block->parts)));
  block->owns_section = TRUE;
  return block;
}

GListModel *
plugboard_result_block_take_section (PlugboardResultBlock *block)
{
  g_return_val_if_fail (PLUGBOARD_IS_RESULT_BLOCK (block), NULL);

  g_assert (block->owns_section);
  block->owns_section = FALSE;
  return block->section;
}

/* The length of the next piece of @text (@length bytes) to show in one
 * row: about TEXT_CHUNK_BYTES, cut after a line end when there is one in
 * the second half, else after a space there, else at a character
 * boundary. */
static gsize
chunk_length (const char *text,
              gsize       length)
{
  const char *end;
  const char *nl;

  if (length <= TEXT_CHUNK_BYTES)
    return length;
  end = text + TEXT_CHUNK_BYTES;
  nl = g_strrstr_len (text + TEXT_CHUNK_BYTES / 2, TEXT_CHUNK_BYTES / 2, "\n");
  if (nl != NULL)
    return (gsize) (nl - text);
  /* No line end: after a space, so that words stay whole. */
  nl = g_strrstr_len (text + TEXT_CHUNK_BYTES / 2, TEXT_CHUNK_BYTES / 2, " ");
  if (nl != NULL)
    return (gsize) (nl + 1 - text);
  end = g_utf8_find_prev_char (text, end + 1);
  return end != NULL && end > text ? (gsize) (end - text) : TEXT_CHUNK_BYTES;
}

static PlugboardResultBlock *
chunk_block_new (const char *text,
                 gsize       length)
{
  PlugboardResultBlock *block = g_object_new (PLUGBOARD_TYPE_RESULT_BLOCK, NULL);

  block->kind = PLUGBOARD_RESULT_BLOCK_CHUNK;
  block->text = g_strndup (text, length);
  block->markdown = 0;
  return block;
}

/* Whether @text looks like Markdown, from its start only: a long text is
 * never rendered as Markdown, and looking costs no more than a short one. */
static gboolean
text_is_markdown (const char *text,
                  gsize       length)
{
  g_autofree char *start = NULL;

  if (length > MARKDOWN_MAX_BYTES)
    return FALSE;
  start = g_strndup (text, length);
  return plugboard_markdown_detect (start);
}

/* A text block shows the start of a text larger than LARGE_TEXT_BYTES
 * (LARGE_TEXT_SHOWN), in rows of TEXT_CHUNK_BYTES: the head row holds the
 * first, block->chunks the others. Markdown stays in one row. */
static void
text_block_split (PlugboardResultBlock *block)
{
  gsize length = strlen (block->text);
  gsize shown = length;
  const char *p;
  const char *end;

  if (length > LARGE_TEXT_BYTES)
    {
      const char *cut = g_utf8_find_prev_char (block->text, block->text + LARGE_TEXT_SHOWN + 1);

      shown = cut != NULL ? (gsize) (cut - block->text) : 0;
    }

  block->markdown = length <= MARKDOWN_MAX_BYTES ? text_is_markdown (block->text, length) : FALSE;
  if (block->markdown || shown <= TEXT_CHUNK_BYTES)
    {
      block->head_length = shown;
      return;
    }

  block->head_length = chunk_length (block->text, shown);
  block->chunks = g_list_store_new (PLUGBOARD_TYPE_RESULT_BLOCK);
  p = block->text + block->head_length;
  end = block->text + shown;
  while (p < end)
    {
      gsize n;
      g_autoptr(PlugboardResultBlock) chunk = NULL;

      /* The line end that closed the previous piece starts no row. */
      if (*p == '\n')
        p++;
      if (p >= end)
        break;
      n = chunk_length (p, (gsize) (end - p));
      chunk = chunk_block_new (p, n);
      chunk->raw = length > LARGE_TEXT_BYTES;
      g_list_store_append (block->chunks, chunk);
      p += n;
    }
}

/* @text is @content's: the block keeps @content rather than a copy.
 * @json is @text parsed already (see plugboard_result_block_new_for_content()). */
static PlugboardResultBlock *
text_block_new (const char *title,
                const char *text,
                McpContent *content,
                JsonNode   *json)
{
  PlugboardResultBlock *block =
    plugboard_result_block_new (json != NULL ? PLUGBOARD_RESULT_BLOCK_JSON : PLUGBOARD_RESULT_BLOCK_TEXT, title);

  block->content = g_object_ref (content);
  block->text = (char *) text;
  block->text_borrowed = TRUE;
  block->json = json != NULL ? json_node_ref (json) : NULL;
  if (block->kind == PLUGBOARD_RESULT_BLOCK_TEXT)
    text_block_split (block);
  return block;
}

static gboolean
mime_is_json (const char *mime_type)
{
  return mime_type != NULL &&
         (g_str_equal (mime_type, "application/json") || g_str_has_suffix (mime_type, "+json"));
}

PlugboardResultBlock *
plugboard_result_block_new_for_content (McpProcessedResult *result,
                                        McpContent         *content,
                                        int                 index)
{
  const char *mime_type = mcp_content_get_mime_type (content);
  const char *file = index >= 0 && result != NULL
    ? mcp_processed_result_get_file_for_content (result, (guint) index) : NULL;
  PlugboardResultBlock *block = NULL;
  g_autofree char *title = NULL;
  g_autoptr(JsonNode) json = NULL;

  /* A processed result's JSON was parsed off the main thread. */
  if (index >= 0 && result != NULL)
    {
      JsonNode *parsed = mcp_processed_result_get_json_for_content (result, (guint) index);

      json = parsed != NULL ? json_node_ref (parsed) : NULL;
    }
  else if (mcp_content_get_text (content) != NULL)
    json = mcp_tool_call_parse_json_text (mcp_content_get_text (content), MAIN_THREAD_JSON_BYTES);

  switch (mcp_content_get_kind (content))
    {
    case MCP_CONTENT_TEXT:
      block = text_block_new (NULL, mcp_content_get_text (content) != NULL ? mcp_content_get_text (content) : "", content, json);
      break;

    case MCP_CONTENT_IMAGE:
      title = g_strdup_printf (_("Image · %s"), mime_type != NULL ? mime_type : _("unknown type"));
      block = plugboard_result_block_new (PLUGBOARD_RESULT_BLOCK_IMAGE, title);
      break;

    case MCP_CONTENT_AUDIO:
      title = g_strdup_printf (_("Audio · %s"), mime_type != NULL ? mime_type : _("unknown type"));
      block = plugboard_result_block_new (PLUGBOARD_RESULT_BLOCK_AUDIO, title);
      break;

    case MCP_CONTENT_RESOURCE_LINK:
      block = plugboard_result_block_new (PLUGBOARD_RESULT_BLOCK_LINK, mcp_content_get_name (content));
      break;

    case MCP_CONTENT_RESOURCE:
      {
        const char *uri = mcp_content_get_uri (content);
        const char *text = mcp_content_get_text (content);

        title = g_strdup_printf (_("Resource · %s"), uri != NULL ? uri : _("no URI"));
        if (text != NULL)
          {
            block = text_block_new (title, text, content, json);
            if (block->kind == PLUGBOARD_RESULT_BLOCK_TEXT && mime_is_json (mime_type))
              g_debug ("%s says JSON but does not parse as an object or array", uri);
          }
        else if (mime_type != NULL && g_str_has_prefix (mime_type, "image/"))
          block = plugboard_result_block_new (PLUGBOARD_RESULT_BLOCK_IMAGE, title);
        else
          block = plugboard_result_block_new (PLUGBOARD_RESULT_BLOCK_FILE, title);
      }
      break;

    case MCP_CONTENT_UNKNOWN:
    default:
      title = g_strdup_printf (_("Content of type “%s”"), mcp_content_get_type_name (content));
      block = plugboard_result_block_new (PLUGBOARD_RESULT_BLOCK_JSON, title);
      block->json = json_node_init_object (json_node_alloc (), mcp_content_get_json (content));
      break;
    }

  if (block->content == NULL)
    block->content = g_object_ref (content);
  block->file = g_strdup (file);
  block->mime_type = g_strdup (mime_type);
  plugboard_result_block_set_rows (block);
  return block;
}

PlugboardResultBlock *
plugboard_result_block_new_for_structured (JsonNode *structured)
{
  PlugboardResultBlock *block;

  g_return_val_if_fail (structured != NULL, NULL);

  block = plugboard_result_block_new (PLUGBOARD_RESULT_BLOCK_JSON, _("Structured content"));
  if (JSON_NODE_HOLDS_OBJECT (structured) || JSON_NODE_HOLDS_ARRAY (structured))
    block->json = json_node_ref (structured);
  else
    {
      block->kind = PLUGBOARD_RESULT_BLOCK_TEXT;
      block->text = plugboard_dup_json (structured, FALSE);
    }
  plugboard_result_block_set_rows (block);
  return block;
}

gboolean
plugboard_result_block_is_markdown (PlugboardResultBlock *block)
{
  g_return_val_if_fail (PLUGBOARD_IS_RESULT_BLOCK (block), FALSE);

  if (block->markdown < 0)
    block->markdown = text_is_markdown (block->text, strlen (block->text));
  return block->markdown;
}

GdkTexture *
plugboard_result_block_get_texture (PlugboardResultBlock  *block,
                                    GError               **error)
{
  g_return_val_if_fail (PLUGBOARD_IS_RESULT_BLOCK (block), NULL);

  if (block->texture != NULL)
    return block->texture;

  if (block->file != NULL && g_file_test (block->file, G_FILE_TEST_EXISTS))
    {
      g_autoptr(GFile) file = g_file_new_for_path (block->file);

      block->texture = gdk_texture_new_from_file (file, error);
    }
  else
    {
      g_autoptr(GBytes) bytes = mcp_content_get_data (block->content, error);

      if (bytes != NULL)
        block->texture = gdk_texture_new_from_bytes (bytes, error);
      else if (error != NULL && *error == NULL)
        g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE, _("The image has no data"));
    }

  return block->texture;
}
