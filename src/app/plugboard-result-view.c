/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-result-view"

#include "config.h"

#include "plugboard-result-view.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-config-file.h"
#include "mcp-error.h"
#include "mcp-json-private.h"
#include "mcp-json-schema.h"
#include "mcp-url-policy.h"
#include "plugboard-common.h"
#include "plugboard-markdown.h"

/* A text larger than this shows only its start … */
#define LARGE_TEXT_BYTES  (1024 * 1024)
/* … this much of it. */
#define LARGE_TEXT_SHOWN  (64 * 1024)
/* Text is shown in rows of about this much, cut at line ends, so that only
 * the rows in sight are laid out (a label lays out all of its text). GTK
 * 4.8's grid view makes about 30 rows, more than a screen of text at
 * this size; at 1 KiB their layout took twice as long (bench-large-result). */
#define TEXT_CHUNK_BYTES  256
/* Blocks are built in slices of this many microseconds, between frames. */
#define BUILD_SLICE_US    (8 * 1000)
/* Markdown is looked for in this much of a text, and rendered (in one
 * label) only when the text is no longer than this. */
#define MARKDOWN_MAX_BYTES (32 * 1024)
/* A wrapping label's narrowest width, in characters. Without one, GTK 4.8
 * measures a label's minimum width by laying its text out at width 0:
 * with PANGO_WRAP_WORD_CHAR a break after every character, each one
 * shaping the rest of the line again. For a row of 1 KiB that took about
 * 10 ms, and a 50 MB result's first screen held the main loop for
 * 300-400 ms (bench-large-result). */
#define WRAP_MIN_CHARS    20
/* Text that did not come through mcp_tool_result_process_async() (a
 * resource read here) is parsed as JSON on the main thread only up to
 * this size. */
#define MAIN_THREAD_JSON_BYTES (1024 * 1024)
/* A string in the JSON tree shows at most this much. */
#define MAX_JSON_STRING   (4 * 1024)
#define MAX_SHOWN_PROBLEMS 20

/* ------------------------------------------------------------------------ */
/* Blocks: one row of the list per content item                             */

typedef enum
{
  BLOCK_TEXT,
  BLOCK_JSON,        /* a JSON value shown as a tree (or raw) */
  BLOCK_IMAGE,
  BLOCK_AUDIO,
  BLOCK_LINK,
  BLOCK_FILE,        /* a blob: Save As */
  BLOCK_MESSAGE,     /* a line of explanation (a failed read) */
  BLOCK_CHUNK,       /* a further piece of a long text block */
} BlockKind;

#define PLUGBOARD_TYPE_RESULT_BLOCK (plugboard_result_block_get_type ())
G_DECLARE_FINAL_TYPE (PlugboardResultBlock, plugboard_result_block, PLUGBOARD, RESULT_BLOCK, GObject)

struct _PlugboardResultBlock
{
  GObject      parent_instance;

  BlockKind    kind;
  char        *title;       /* the caption: "Image · image/png" */
  McpContent  *content;     /* nullable */
  char        *text;        /* text, or the JSON as sent */
  gboolean     text_borrowed; /* text is @content's (a 50 MB copy takes long) */
  JsonNode    *json;        /* BLOCK_JSON */
  char        *file;        /* the saved file, nullable */
  GBytes      *data;        /* decoded data when there is no file */
  char        *mime_type;
  GdkTexture  *texture;     /* BLOCK_IMAGE, loaded on first show */
  char        *markup;      /* the Markdown rendering, made on first show */
  int          markdown;    /* -1: not looked at yet */
  gboolean     raw;         /* BLOCK_JSON: shown as text */
  gsize        head_length; /* BLOCK_TEXT: bytes of the text the head row shows */
  GListStore  *chunks;      /* BLOCK_TEXT: the rows after the head (BLOCK_CHUNK), or NULL */
  gboolean     reading;     /* BLOCK_LINK */
  char        *status;      /* BLOCK_LINK: the read's outcome */

  /* The section (list model of rows) the block heads, and its parts; both
   * borrowed once the section is taken (the section owns the block). */
  GListStore  *parts;
  GListModel  *section;
  gboolean     owns_section;
};

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
  /* A block may go in release_in_thread()'s thread; a renderer's data on
   * a texture goes on the main thread (g_main_context_invoke() would call
   * here when it can take the context). */
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

/* One member of a JSON object or element of an array, in the tree. */
#define PLUGBOARD_TYPE_JSON_ENTRY (plugboard_json_entry_get_type ())
G_DECLARE_FINAL_TYPE (PlugboardJsonEntry, plugboard_json_entry, PLUGBOARD, JSON_ENTRY, GObject)

struct _PlugboardJsonEntry
{
  GObject   parent_instance;
  char     *key;
  JsonNode *node;
};

G_DEFINE_FINAL_TYPE (PlugboardJsonEntry, plugboard_json_entry, G_TYPE_OBJECT)

static void
plugboard_json_entry_finalize (GObject *object)
{
  PlugboardJsonEntry *self = (PlugboardJsonEntry *) object;

  g_free (self->key);
  g_clear_pointer (&self->node, json_node_unref);

  G_OBJECT_CLASS (plugboard_json_entry_parent_class)->finalize (object);
}

static void
plugboard_json_entry_class_init (PlugboardJsonEntryClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = plugboard_json_entry_finalize;
}

static void
plugboard_json_entry_init (PlugboardJsonEntry *self)
{
}

static PlugboardJsonEntry *
json_entry_new (const char *key,
                JsonNode   *node)
{
  PlugboardJsonEntry *entry = g_object_new (PLUGBOARD_TYPE_JSON_ENTRY, NULL);

  entry->key = g_strdup (key);
  entry->node = json_node_ref (node);
  return entry;
}

/* The children of an object or array, made when a row is expanded. */
static GListModel *
json_children (JsonNode *node)
{
  GListStore *store;

  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *object = json_node_get_object (node);
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;

      if (json_object_get_size (object) == 0)
        return NULL;
      store = g_list_store_new (PLUGBOARD_TYPE_JSON_ENTRY);
      json_object_iter_init (&iter, object);
      while (json_object_iter_next (&iter, &name, &member))
        {
          g_autoptr(PlugboardJsonEntry) entry = json_entry_new (name, member);

          g_list_store_append (store, entry);
        }
      return G_LIST_MODEL (store);
    }

  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);
      guint length = json_array_get_length (array);
      g_autofree gpointer *entries = NULL;

      if (length == 0)
        return NULL;
      store = g_list_store_new (PLUGBOARD_TYPE_JSON_ENTRY);
      entries = g_new (gpointer, length);
      for (guint i = 0; i < length; i++)
        {
          char key[32];

          g_snprintf (key, sizeof key, "%u", i);
          entries[i] = json_entry_new (key, json_array_get_element (array, i));
        }
      g_list_store_splice (store, 0, 0, entries, length);
      for (guint i = 0; i < length; i++)
        g_object_unref (entries[i]);
      return G_LIST_MODEL (store);
    }

  return NULL;
}

static GListModel *
create_json_child_model (gpointer item,
                         gpointer user_data)
{
  return json_children (PLUGBOARD_JSON_ENTRY (item)->node);
}

/* ------------------------------------------------------------------------ */

struct _PlugboardResultView
{
  AdwBin               parent_instance;

  /* Template widgets */
  AdwToastOverlay     *toast_overlay;
  GtkLabel            *summary_label;
  GtkWidget           *error_box;
  GtkWidget           *schema_box;
  GtkImage            *schema_icon;
  GtkLabel            *schema_label;
  GtkLabel            *schema_problems_label;
  GtkWidget           *notes_box;
  GtkLabel            *notes_label;
  GtkWidget           *save_full_button;
  GtkStack            *content_stack;
  GtkGridView         *list_view;
  GtkSignalListItemFactory *factory;

  /* Owned */
  McpPoolTool         *tool;
  JsonObject          *arguments;
  McpProcessedResult  *result;
  GListStore          *sections;
  GtkSelectionModel   *selection;
  GtkFileChooserNative *chooser;
  GCancellable        *cancellable;

  guint                n_blocks;
  int                  schema_ok;
  gboolean             plain_text;
  gboolean             wrap;
  guint                build_source;  /* building the blocks in slices */
  guint                next_block;
};

G_DEFINE_FINAL_TYPE (PlugboardResultView, plugboard_result_view, ADW_TYPE_BIN)

enum {
  PROP_0,
  PROP_PLAIN_TEXT,
  PROP_WRAP,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
toast (PlugboardResultView *self,
       const char          *title)
{
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (title));
}

static char *
node_to_json (JsonNode *node,
                gboolean  pretty)
{
  g_autoptr(JsonGenerator) generator = json_generator_new ();

  json_generator_set_root (generator, node);
  json_generator_set_pretty (generator, pretty);
  json_generator_set_indent (generator, 2);
  return json_generator_to_data (generator, NULL);
}

/* At most @max bytes of @text, cut at a character boundary. */
static char *
utf8_prefix (const char *text,
             gsize       max)
{
  const char *end;

  if (strlen (text) <= max)
    return g_strdup (text);
  end = g_utf8_find_prev_char (text, text + max + 1);
  return g_strndup (text, end != NULL ? (gsize) (end - text) : 0);
}

/* Lets @label wrap anywhere, when @wrap, at a cost that does not grow
 * with its text (WRAP_MIN_CHARS). */
static void
label_set_wrapping (GtkWidget *label,
                    gboolean   wrap)
{
  gtk_label_set_wrap (GTK_LABEL (label), wrap);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_width_chars (GTK_LABEL (label), WRAP_MIN_CHARS);
}

/* ------------------------------------------------------------------------ */
/* Building the list                                                        */

static void
block_set_rows (PlugboardResultBlock *block)
{
  g_autoptr(GListStore) head = g_list_store_new (PLUGBOARD_TYPE_RESULT_BLOCK);

  g_list_store_append (head, block);
  g_list_store_remove_all (block->parts);
  g_list_store_append (block->parts, head);
  if (block->kind == BLOCK_TEXT && block->chunks != NULL)
    g_list_store_append (block->parts, block->chunks);

  if (block->kind == BLOCK_JSON && !block->raw)
    {
      GListModel *root = json_children (block->json);

      if (root != NULL)
        {
          g_autoptr(GtkTreeListModel) tree =
            gtk_tree_list_model_new (root, FALSE, FALSE, create_json_child_model, NULL, NULL);

          g_list_store_append (block->parts, tree);
        }
    }
}

static PlugboardResultBlock *
block_new (BlockKind   kind,
           const char *title)
{
  PlugboardResultBlock *block = g_object_new (PLUGBOARD_TYPE_RESULT_BLOCK, NULL);

  block->kind = kind;
  block->title = g_strdup (title);
  block->parts = g_list_store_new (G_TYPE_LIST_MODEL);
  block->section = G_LIST_MODEL (gtk_flatten_list_model_new (G_LIST_MODEL (block->parts)));
  block->owns_section = TRUE;
  return block;
}

/* The section's reference: from now on the section keeps the block. */
static GListModel *
block_take_section (PlugboardResultBlock *block)
{
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

  block->kind = BLOCK_CHUNK;
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
 * @json is @text parsed already (see content_block_new()). */
static PlugboardResultBlock *
text_block_new (const char *title,
                const char *text,
                McpContent *content,
                JsonNode   *json)
{
  PlugboardResultBlock *block = block_new (json != NULL ? BLOCK_JSON : BLOCK_TEXT, title);

  block->content = g_object_ref (content);
  block->text = (char *) text;
  block->text_borrowed = TRUE;
  block->json = json != NULL ? json_node_ref (json) : NULL;
  if (block->kind == BLOCK_TEXT)
    text_block_split (block);
  return block;
}

static gboolean
mime_is_json (const char *mime_type)
{
  return mime_type != NULL &&
         (g_str_equal (mime_type, "application/json") || g_str_has_suffix (mime_type, "+json"));
}

static PlugboardResultBlock *
content_block_new (McpProcessedResult *result,
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
      block = block_new (BLOCK_IMAGE, title);
      break;

    case MCP_CONTENT_AUDIO:
      title = g_strdup_printf (_("Audio · %s"), mime_type != NULL ? mime_type : _("unknown type"));
      block = block_new (BLOCK_AUDIO, title);
      break;

    case MCP_CONTENT_RESOURCE_LINK:
      block = block_new (BLOCK_LINK, mcp_content_get_name (content));
      break;

    case MCP_CONTENT_RESOURCE:
      {
        const char *uri = mcp_content_get_uri (content);
        const char *text = mcp_content_get_text (content);

        title = g_strdup_printf (_("Resource · %s"), uri != NULL ? uri : _("no URI"));
        if (text != NULL)
          {
            block = text_block_new (title, text, content, json);
            if (block->kind == BLOCK_TEXT && mime_is_json (mime_type))
              g_debug ("%s says JSON but does not parse as an object or array", uri);
          }
        else if (mime_type != NULL && g_str_has_prefix (mime_type, "image/"))
          block = block_new (BLOCK_IMAGE, title);
        else
          block = block_new (BLOCK_FILE, title);
      }
      break;

    case MCP_CONTENT_UNKNOWN:
    default:
      title = g_strdup_printf (_("Content of type “%s”"), mcp_content_get_type_name (content));
      block = block_new (BLOCK_JSON, title);
      block->json = json_node_init_object (json_node_alloc (), mcp_content_get_json (content));
      break;
    }

  if (block->content == NULL)
    block->content = g_object_ref (content);
  block->file = g_strdup (file);
  block->mime_type = g_strdup (mime_type);
  block_set_rows (block);
  return block;
}

static void
refresh_rows (PlugboardResultView *self)
{
  /* Rebinds every visible row with the new settings. */
  gtk_grid_view_set_model (self->list_view, NULL);
  gtk_grid_view_set_model (self->list_view, self->selection);
}

/* ------------------------------------------------------------------------ */
/* Saving                                                                   */

typedef struct
{
  PlugboardResultView *self;
  GBytes              *bytes;
  char                *source;
  char                *target;
} SaveData;

static void
save_data_free (SaveData *data)
{
  g_clear_object (&data->self);
  g_clear_pointer (&data->bytes, g_bytes_unref);
  g_free (data->source);
  g_free (data->target);
  g_free (data);
}

static void
saved (SaveData *data,
       gboolean  ok,
       GError   *error)
{
  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_autofree char *title = NULL;

      if (ok)
        title = g_strdup (_("Saved"));
      else
        title = g_strdup_printf (_("Could not save: %s"), error->message);
      toast (data->self, title);
    }
  save_data_free (data);
}

static void
saved_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  gboolean ok = g_task_propagate_boolean (G_TASK (result), &error);

  saved (user_data, ok, error);
}

static void
gio_saved_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  SaveData *data = user_data;
  g_autoptr(GError) error = NULL;
  gboolean ok;

  /* g_file_copy_finish() is called on the source */
  if (data->bytes != NULL)
    ok = g_file_replace_contents_finish (G_FILE (object), result, NULL, &error);
  else
    ok = g_file_copy_finish (G_FILE (object), result, &error);
  saved (data, ok, error);
}

/* Through a checked temporary file and a rename, as settings are written:
 * a full disk leaves a file that was there as it was (GLib 2.74's
 * g_file_replace_contents_async() puts the half-written one in its place). */
static void
save_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  SaveData *data = task_data;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  if (data->bytes != NULL)
    {
      bytes = g_bytes_ref (data->bytes);
    }
  else
    {
      g_autoptr(GMappedFile) mapped = g_mapped_file_new (data->source, FALSE, &error);

      if (mapped == NULL)
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      bytes = g_mapped_file_get_bytes (mapped);
    }

  if (!mcp_config_file_replace (data->target, bytes, 0644, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

static void
chooser_response_cb (GtkNativeDialog *dialog,
                     int              response,
                     gpointer         user_data)
{
  SaveData *data = user_data;
  PlugboardResultView *self = data->self;
  g_autoptr(GFile) target = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    target = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  if (self->chooser == GTK_FILE_CHOOSER_NATIVE (dialog))
    g_clear_object (&self->chooser);

  if (target == NULL)
    {
      save_data_free (data);
      return;
    }

  data->target = g_file_get_path (target);
  if (data->target == NULL)
    {
      /* not a local file (a remote folder through GVfs): GIO writes it */
      if (data->bytes != NULL)
        g_file_replace_contents_bytes_async (target, data->bytes, NULL, FALSE,
                                             G_FILE_CREATE_REPLACE_DESTINATION,
                                             self->cancellable, gio_saved_cb, data);
      else
        {
          g_autoptr(GFile) source = g_file_new_for_path (data->source);

          g_file_copy_async (source, target, G_FILE_COPY_OVERWRITE, G_PRIORITY_DEFAULT,
                             self->cancellable, NULL, NULL, gio_saved_cb, data);
        }
      return;
    }

  {
    g_autoptr(GTask) task = g_task_new (NULL, self->cancellable, saved_cb, data);

    g_task_set_source_tag (task, save_thread);
    g_task_set_task_data (task, data, NULL);
    g_task_run_in_thread (task, save_thread);
  }
}

/* Offers Save As for @bytes, or a copy of the file @source. */
static void
save_as (PlugboardResultView *self,
         const char          *suggested_name,
         GBytes              *bytes,
         const char          *source)
{
  SaveData *data = g_new0 (SaveData, 1);
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  data->self = g_object_ref (self);
  data->bytes = bytes != NULL ? g_bytes_ref (bytes) : NULL;
  data->source = g_strdup (source);

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);

  self->chooser = gtk_file_chooser_native_new (_("Save As"),
                                               GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                               GTK_FILE_CHOOSER_ACTION_SAVE,
                                               _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  if (suggested_name != NULL)
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), suggested_name);
  g_signal_connect (self->chooser, "response", G_CALLBACK (chooser_response_cb), data);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static char *
suggested_name (PlugboardResultView *self,
                const char          *extension)
{
  const char *tool = self->tool != NULL ? mcp_tool_get_name (mcp_pool_tool_get_tool (self->tool)) : "result";

  return g_strdup_printf ("%s-result.%s", tool, extension);
}

static void
save_block (PlugboardResultView  *self,
            PlugboardResultBlock *block)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *name = NULL;

  if (block->file != NULL && g_file_test (block->file, G_FILE_TEST_EXISTS))
    {
      g_autofree char *basename = g_path_get_basename (block->file);

      save_as (self, basename, NULL, block->file);
      return;
    }

  if (block->text != NULL)
    {
      bytes = g_bytes_new (block->text, strlen (block->text));
      name = suggested_name (self, block->json != NULL ? "json" : "txt");
    }
  else if (block->content != NULL)
    {
      g_autoptr(GError) error = NULL;

      bytes = mcp_content_get_data (block->content, &error);
      if (bytes == NULL)
        {
          g_autofree char *title = g_strdup_printf (_("Could not save: %s"),
                                                    error != NULL ? error->message : _("no data"));
          toast (self, title);
          return;
        }
      name = suggested_name (self, "bin");
    }
  else
    return;

  save_as (self, name, bytes, NULL);
}

/* ------------------------------------------------------------------------ */
/* Rows                                                                     */

static gboolean
activate_link_cb (GtkLabel   *label,
                  const char *uri,
                  gpointer    user_data)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (label));
  GtkWidget *view = gtk_widget_get_ancestor (GTK_WIDGET (label), PLUGBOARD_TYPE_RESULT_VIEW);
  g_autoptr(GError) refused = NULL;

  /* A link in a server's result: only what the URL policy lets through. */
  if (!mcp_url_policy_check (uri, MCP_URL_USE_BROWSER, NULL, &refused))
    {
      if (view != NULL)
        toast (PLUGBOARD_RESULT_VIEW (view), refused->message);
      return TRUE;
    }

  gtk_show_uri (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL, uri, GDK_CURRENT_TIME);
  return TRUE;
}

static GtkWidget *
caption_new (const char *icon_name,
             const char *text)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *image = gtk_image_new_from_icon_name (icon_name);
  GtkWidget *label = gtk_label_new (text);

  gtk_widget_add_css_class (image, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_add_css_class (label, "caption-heading");
  gtk_widget_add_css_class (label, "dim-label");
  gtk_box_append (GTK_BOX (box), image);
  gtk_box_append (GTK_BOX (box), label);
  return box;
}

static GtkWidget *
button_new (const char *label,
            const char *tooltip)
{
  GtkWidget *button = gtk_button_new_with_mnemonic (label);

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  if (tooltip != NULL)
    gtk_widget_set_tooltip_text (button, tooltip);
  return button;
}

static void
on_save_clicked_cb (GtkButton            *button,
                    PlugboardResultBlock *block)
{
  PlugboardResultView *self =
    PLUGBOARD_RESULT_VIEW (gtk_widget_get_ancestor (GTK_WIDGET (button), PLUGBOARD_TYPE_RESULT_VIEW));

  if (self != NULL)
    save_block (self, block);
}

static GtkWidget *
text_label_new (PlugboardResultView  *self,
                PlugboardResultBlock *block,
                const char           *text)
{
  GtkWidget *label = gtk_label_new (NULL);
  gboolean markdown = FALSE;

  if (!self->plain_text && text == block->text)
    {
      if (block->markdown < 0)
        block->markdown = text_is_markdown (block->text, strlen (block->text));
      markdown = block->markdown;
    }

  if (markdown)
    {
      if (block->markup == NULL)
        block->markup = plugboard_markdown_to_pango (block->text);
      gtk_label_set_markup (GTK_LABEL (label), block->markup);
      g_signal_connect (label, "activate-link", G_CALLBACK (activate_link_cb), NULL);
    }
  else
    gtk_label_set_text (GTK_LABEL (label), text);

  /* A chunk's raw: a piece of a text too large for anything but plain. */
  if (self->plain_text || block->kind == BLOCK_JSON || block->raw)
    gtk_widget_add_css_class (label, "monospace");
  if (self->result != NULL &&
      mcp_tool_result_get_is_error (mcp_processed_result_get_result (self->result)))
    gtk_widget_add_css_class (label, "error");
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_yalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  label_set_wrapping (label, self->wrap);
  gtk_widget_set_hexpand (label, TRUE);
  return label;
}

static GtkWidget *
text_widget_new (PlugboardResultView  *self,
                 PlugboardResultBlock *block,
                 const char           *text)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gsize length = strlen (text);
  gboolean split = block->kind == BLOCK_TEXT && text == block->text;

  if (length > LARGE_TEXT_BYTES)
    {
      /* A text block's rows hold the rest of what is shown (the chunks). */
      g_autofree char *start = split ? g_strndup (text, block->head_length) : utf8_prefix (text, LARGE_TEXT_SHOWN);
      g_autofree char *size = g_format_size (length);
      g_autofree char *shown = g_format_size (split ? MIN (length, LARGE_TEXT_SHOWN) : strlen (start));
      g_autofree char *note = g_strdup_printf (_("This text is %s; the first %s are shown."), size, shown);
      GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
      GtkWidget *label = gtk_label_new (note);
      GtkWidget *button = button_new (_("_Save All As…"), _("Save the whole text to a file"));
      GtkWidget *content = gtk_label_new (start);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_widget_set_hexpand (label, TRUE);
      gtk_widget_add_css_class (label, "dim-label");
      g_signal_connect_object (button, "clicked", G_CALLBACK (on_save_clicked_cb), block, 0);
      gtk_box_append (GTK_BOX (bar), label);
      gtk_box_append (GTK_BOX (bar), button);
      gtk_box_append (GTK_BOX (box), bar);

      gtk_label_set_xalign (GTK_LABEL (content), 0);
      gtk_label_set_selectable (GTK_LABEL (content), TRUE);
      label_set_wrapping (content, self->wrap);
      gtk_widget_add_css_class (content, "monospace");
      gtk_box_append (GTK_BOX (box), content);
      return box;
    }

  if (split && block->head_length < length)
    {
      g_autofree char *head = g_strndup (text, block->head_length);

      gtk_box_append (GTK_BOX (box), text_label_new (self, block, head));
      return box;
    }

  gtk_box_append (GTK_BOX (box), text_label_new (self, block, text));
  return box;
}

static gboolean
set_rows_idle_cb (gpointer data)
{
  GListModel *section = data;
  /* The section's first row is its block. */
  g_autoptr(GObject) block = g_list_model_get_item (section, 0);

  if (block != NULL && PLUGBOARD_IS_RESULT_BLOCK (block))
    block_set_rows (PLUGBOARD_RESULT_BLOCK (block));
  return G_SOURCE_REMOVE;
}

static void
on_raw_toggled_cb (GtkToggleButton      *button,
                   PlugboardResultBlock *block)
{
  block->raw = gtk_toggle_button_get_active (button);
  /* Replaces this block's rows (the tree goes, the text comes, or back),
   * which rebuilds this button: not while it is still emitting. The
   * section is kept rather than the block, whose parts it owns. */
  g_idle_add_full (G_PRIORITY_HIGH_IDLE, set_rows_idle_cb, g_object_ref (block->section), g_object_unref);
}

static GtkWidget *
json_widget_new (PlugboardResultView  *self,
                 PlugboardResultBlock *block)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *raw = gtk_toggle_button_new_with_mnemonic (_("_Raw"));
  g_autofree char *title = NULL;

  if (JSON_NODE_HOLDS_OBJECT (block->json))
    {
      guint n = json_object_get_size (json_node_get_object (block->json));
      title = g_strdup_printf (ngettext ("JSON object · %u member", "JSON object · %u members", n), n);
    }
  else
    {
      guint n = json_array_get_length (json_node_get_array (block->json));
      title = g_strdup_printf (ngettext ("JSON array · %u element", "JSON array · %u elements", n), n);
    }
  if (block->title != NULL)
    {
      char *with_title = g_strdup_printf ("%s — %s", block->title, title);

      g_free (title);
      title = with_title;
    }

  gtk_box_append (GTK_BOX (bar), caption_new ("text-x-generic-symbolic", title));
  gtk_widget_set_hexpand (gtk_widget_get_first_child (bar), TRUE);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (raw), block->raw);
  gtk_widget_set_tooltip_text (raw, _("Show the JSON as text"));
  gtk_widget_add_css_class (raw, "flat");
  gtk_widget_set_valign (raw, GTK_ALIGN_CENTER);
  g_signal_connect_object (raw, "toggled", G_CALLBACK (on_raw_toggled_cb), block, 0);
  gtk_box_append (GTK_BOX (bar), raw);
  gtk_box_append (GTK_BOX (box), bar);

  if (block->raw)
    {
      g_autofree char *pretty = NULL;
      const char *text = block->text;

      if (text == NULL || strlen (text) <= LARGE_TEXT_BYTES)
        text = pretty = node_to_json (block->json, TRUE);
      gtk_box_append (GTK_BOX (box), text_widget_new (self, block, text));
    }

  return box;
}

static GdkTexture *
block_texture (PlugboardResultBlock  *block,
               GError               **error)
{
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

static GtkWidget *
image_widget_new (PlugboardResultView  *self,
                  PlugboardResultBlock *block)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *save = button_new (_("_Save As…"), _("Save the image to a file"));
  g_autoptr(GError) error = NULL;
  GdkTexture *texture = block_texture (block, &error);
  g_autofree char *title = NULL;

  if (texture != NULL)
    title = g_strdup_printf (_("%s · %d × %d"), block->title,
                             gdk_texture_get_width (texture), gdk_texture_get_height (texture));
  gtk_box_append (GTK_BOX (bar), caption_new ("image-x-generic-symbolic", title != NULL ? title : block->title));
  gtk_widget_set_hexpand (gtk_widget_get_first_child (bar), TRUE);
  gtk_widget_add_css_class (save, "flat");
  g_signal_connect_object (save, "clicked", G_CALLBACK (on_save_clicked_cb), block, 0);
  gtk_box_append (GTK_BOX (bar), save);
  gtk_box_append (GTK_BOX (box), bar);

  if (texture != NULL)
    {
      GtkWidget *picture = gtk_picture_new_for_paintable (GDK_PAINTABLE (texture));
      int height = gdk_texture_get_height (texture);

      gtk_picture_set_can_shrink (GTK_PICTURE (picture), TRUE);
      gtk_picture_set_content_fit (GTK_PICTURE (picture), GTK_CONTENT_FIT_CONTAIN);
      gtk_widget_set_halign (picture, GTK_ALIGN_START);
      /* Scaled to fit the width, and never taller than a screenful. */
      gtk_widget_set_size_request (picture, -1, MIN (height, 480));
      gtk_accessible_update_property (GTK_ACCESSIBLE (picture),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, block->title, -1);
      gtk_box_append (GTK_BOX (box), picture);
    }
  else
    {
      g_autofree char *message = g_strdup_printf (_("The image could not be shown: %s"),
                                                  error != NULL ? error->message : "");
      GtkWidget *label = gtk_label_new (message);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_widget_add_css_class (label, "error");
      gtk_box_append (GTK_BOX (box), label);
    }

  return box;
}

static void
on_play_clicked_cb (GtkButton            *button,
                    PlugboardResultBlock *block)
{
  g_autoptr(GFile) file = NULL;
  g_autofree char *uri = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *view = gtk_widget_get_ancestor (GTK_WIDGET (button), PLUGBOARD_TYPE_RESULT_VIEW);
  g_autoptr(GdkAppLaunchContext) context =
    gdk_display_get_app_launch_context (gtk_widget_get_display (GTK_WIDGET (button)));

  if (block->file == NULL)
    return;
  file = g_file_new_for_path (block->file);
  uri = g_file_get_uri (file);
  if (!g_app_info_launch_default_for_uri (uri, G_APP_LAUNCH_CONTEXT (context), &error) && view != NULL)
    {
      g_autofree char *title = g_strdup_printf (_("Could not play: %s"), error->message);

      toast (PLUGBOARD_RESULT_VIEW (view), title);
    }
}

static GtkWidget *
file_widget_new (PlugboardResultView  *self,
                 PlugboardResultBlock *block,
                 const char           *icon_name,
                 gboolean             playable)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
  GtkWidget *save = button_new (_("_Save As…"), _("Save a copy to a file"));

  gtk_box_append (GTK_BOX (texts), caption_new (icon_name, block->title));
  if (block->file != NULL)
    {
      GtkWidget *path = gtk_label_new (block->file);

      gtk_label_set_xalign (GTK_LABEL (path), 0);
      gtk_label_set_selectable (GTK_LABEL (path), TRUE);
      gtk_label_set_ellipsize (GTK_LABEL (path), PANGO_ELLIPSIZE_MIDDLE);
      gtk_widget_add_css_class (path, "caption");
      gtk_box_append (GTK_BOX (texts), path);
    }
  gtk_widget_set_hexpand (texts, TRUE);
  gtk_box_append (GTK_BOX (box), texts);

  if (playable)
    {
      GtkWidget *play = button_new (_("_Play"), _("Play with the default player"));

      gtk_widget_set_sensitive (play, block->file != NULL);
      g_signal_connect_object (play, "clicked", G_CALLBACK (on_play_clicked_cb), block, 0);
      gtk_box_append (GTK_BOX (box), play);
    }
  g_signal_connect_object (save, "clicked", G_CALLBACK (on_save_clicked_cb), block, 0);
  gtk_box_append (GTK_BOX (box), save);
  return box;
}

/* The tool's connection, when it is a real one (tests use stand-ins). */
static McpServerConnection *
tool_connection (PlugboardResultView *self)
{
  GObject *connection;

  if (self->tool == NULL)
    return NULL;
  connection = G_OBJECT (mcp_pool_tool_get_connection (self->tool));
  return MCP_IS_SERVER_CONNECTION (connection) ? MCP_SERVER_CONNECTION (connection) : NULL;
}

/* Reading a resource link */

typedef struct
{
  PlugboardResultView  *self;
  PlugboardResultBlock *block;
  GListModel           *section;  /* keeps the block's parts alive */
} ReadData;

static void
read_data_free (ReadData *data)
{
  g_clear_object (&data->self);
  g_clear_object (&data->block);
  g_clear_object (&data->section);
  g_free (data);
}

static void
block_refresh_head (PlugboardResultBlock *block)
{
  block_set_rows (block);
}

static void
read_fail (ReadData     *data,
           const GError *error)
{
  g_free (data->block->status);
  data->block->status = g_strdup_printf (_("Could not read it: %s"), error->message);
  data->block->reading = FALSE;
  block_refresh_head (data->block);
  read_data_free (data);
}

static void
read_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  ReadData *data = user_data;
  PlugboardResultView *self = data->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = mcp_client_request_finish (MCP_CLIENT (object), result, &error);
  JsonArray *contents = NULL;
  guint position;
  guint n = 0;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      read_data_free (data);
      return;
    }
  if (node == NULL)
    {
      read_fail (data, error);
      return;
    }

  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonNode *member = json_object_get_member (json_node_get_object (node), "contents");

      if (member != NULL && JSON_NODE_HOLDS_ARRAY (member))
        contents = json_node_get_array (member);
    }
  if (contents == NULL)
    {
      g_autoptr(GError) bad = g_error_new_literal (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                                   _("the answer has no contents"));
      read_fail (data, bad);
      return;
    }

  if (!g_list_store_find (self->sections, data->block->section, &position))
    {
      read_data_free (data);
      return;
    }

  for (guint i = 0; i < json_array_get_length (contents); i++)
    {
      JsonNode *element = json_array_get_element (contents, i);
      g_autoptr(JsonObject) wrapper = NULL;
      g_autoptr(McpContent) content = NULL;
      g_autoptr(PlugboardResultBlock) block = NULL;
      g_autoptr(GError) content_error = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        continue;
      wrapper = json_object_new ();
      json_object_set_string_member (wrapper, "type", "resource");
      json_object_set_member (wrapper, "resource", json_node_copy (element));
      content = mcp_content_new_from_json (wrapper, &content_error);
      if (content == NULL)
        {
          block = block_new (BLOCK_MESSAGE, content_error->message);
          block_set_rows (block);
        }
      else
        block = content_block_new (NULL, content, -1);
      {
        g_autoptr(GListModel) section = block_take_section (block);

        g_list_store_insert (self->sections, position + 1 + n, section);
      }
      n++;
    }

  g_free (data->block->status);
  data->block->status = g_strdup_printf (ngettext ("Read: %u item below", "Read: %u items below", n), n);
  data->block->reading = FALSE;
  block_refresh_head (data->block);
  read_data_free (data);
}

static void
read_connected_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  ReadData *data = user_data;
  McpServerConnection *connection = MCP_SERVER_CONNECTION (object);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) params = NULL;
  McpClient *client;

  if (!mcp_server_connection_ensure_connected_finish (connection, result, &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        read_data_free (data);
      else
        read_fail (data, error);
      return;
    }

  client = mcp_server_connection_get_client (connection);
  if (client == NULL)
    {
      g_autoptr(GError) closed = g_error_new (MCP_ERROR, MCP_ERROR_CONNECTION_CLOSED,
                                              _("“%s” is not connected"),
                                              mcp_server_connection_get_name (connection));
      read_fail (data, closed);
      return;
    }

  params = json_object_new ();
  json_object_set_string_member (params, "uri", mcp_content_get_uri (data->block->content));
  mcp_client_request_async (client, "resources/read", params, NULL,
                            data->self->cancellable, read_done_cb, data);
}

static void
on_read_clicked_cb (GtkButton            *button,
                    PlugboardResultBlock *block)
{
  GtkWidget *widget = gtk_widget_get_ancestor (GTK_WIDGET (button), PLUGBOARD_TYPE_RESULT_VIEW);
  PlugboardResultView *self;
  ReadData *data;

  if (widget == NULL || block->reading)
    return;
  self = PLUGBOARD_RESULT_VIEW (widget);
  if (tool_connection (self) == NULL || mcp_content_get_uri (block->content) == NULL)
    return;

  data = g_new0 (ReadData, 1);
  data->self = g_object_ref (self);
  data->block = g_object_ref (block);
  data->section = g_object_ref (block->section);
  block->reading = TRUE;
  g_clear_pointer (&block->status, g_free);
  block_refresh_head (block);

  mcp_server_connection_ensure_connected_async (tool_connection (self),
                                                self->cancellable, read_connected_cb, data);
}

static GtkWidget *
dim_label_new (const char *text,
               const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  label_set_wrapping (label, TRUE);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

static GtkWidget *
link_widget_new (PlugboardResultView  *self,
                 PlugboardResultBlock *block)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
  McpContent *content = block->content;
  const char *description = mcp_content_get_description (content);
  GtkWidget *read;
  g_autofree char *title = g_strdup_printf (_("Resource link · %s"),
                                            block->mime_type != NULL ? block->mime_type : _("unknown type"));

  gtk_box_append (GTK_BOX (texts), caption_new ("insert-link-symbolic", title));
  if (mcp_content_get_name (content) != NULL)
    gtk_box_append (GTK_BOX (texts), dim_label_new (mcp_content_get_name (content), "heading"));
  if (mcp_content_get_uri (content) != NULL)
    gtk_box_append (GTK_BOX (texts), dim_label_new (mcp_content_get_uri (content), "monospace"));
  if (description != NULL)
    gtk_box_append (GTK_BOX (texts), dim_label_new (description, NULL));
  if (block->status != NULL)
    gtk_box_append (GTK_BOX (texts), dim_label_new (block->status, "dim-label"));
  gtk_widget_set_hexpand (texts, TRUE);
  gtk_box_append (GTK_BOX (box), texts);

  if (block->reading)
    {
      GtkWidget *spinner = gtk_spinner_new ();

      gtk_spinner_start (GTK_SPINNER (spinner));
      gtk_widget_set_valign (spinner, GTK_ALIGN_CENTER);
      gtk_box_append (GTK_BOX (box), spinner);
    }
  read = button_new (_("_Read"), _("Read the resource from the server and show it below"));
  gtk_widget_set_sensitive (read, tool_connection (self) != NULL && !block->reading &&
                                  mcp_content_get_uri (content) != NULL);
  g_signal_connect_object (read, "clicked", G_CALLBACK (on_read_clicked_cb), block, 0);
  gtk_box_append (GTK_BOX (box), read);
  return box;
}

static GtkWidget *
block_widget_new (PlugboardResultView  *self,
                  PlugboardResultBlock *block)
{
  GtkWidget *widget = NULL;

  switch (block->kind)
    {
    case BLOCK_TEXT:
      if (block->title != NULL)
        {
          widget = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
          gtk_box_append (GTK_BOX (widget), caption_new ("text-x-generic-symbolic", block->title));
          gtk_box_append (GTK_BOX (widget), text_widget_new (self, block, block->text));
        }
      else
        widget = text_widget_new (self, block, block->text);
      break;

    case BLOCK_JSON:
      widget = json_widget_new (self, block);
      break;

    case BLOCK_IMAGE:
      widget = image_widget_new (self, block);
      break;

    case BLOCK_AUDIO:
      widget = file_widget_new (self, block, "audio-x-generic-symbolic", TRUE);
      break;

    case BLOCK_FILE:
      widget = file_widget_new (self, block, "folder-documents-symbolic", FALSE);
      break;

    case BLOCK_LINK:
      widget = link_widget_new (self, block);
      break;

    case BLOCK_CHUNK:
      /* Continues the text above, without a gap. */
      return text_label_new (self, block, block->text);

    case BLOCK_MESSAGE:
    default:
      widget = dim_label_new (block->title, "error");
      break;
    }

  gtk_widget_set_margin_top (widget, 12);
  /* A split text's head row runs on into its chunk rows. */
  gtk_widget_set_margin_bottom (widget, block->kind == BLOCK_TEXT && block->chunks != NULL ? 0 : 6);
  return widget;
}

static GtkWidget *
json_row_new (PlugboardResultView *self,
              GtkTreeListRow      *row)
{
  PlugboardJsonEntry *entry = gtk_tree_list_row_get_item (row);
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *key = gtk_label_new (entry->key);
  GtkWidget *value = gtk_label_new (NULL);
  JsonNode *node = entry->node;
  g_autofree char *text = NULL;

  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander), row);
  gtk_label_set_xalign (GTK_LABEL (key), 0);
  gtk_label_set_yalign (GTK_LABEL (key), 0);
  gtk_label_set_selectable (GTK_LABEL (key), TRUE);
  gtk_widget_add_css_class (key, "heading");
  gtk_box_append (GTK_BOX (box), key);

  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      guint n = json_object_get_size (json_node_get_object (node));
      text = g_strdup_printf (ngettext ("{ %u member }", "{ %u members }", n), n);
      gtk_widget_add_css_class (value, "dim-label");
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      guint n = json_array_get_length (json_node_get_array (node));
      text = g_strdup_printf (ngettext ("[ %u element ]", "[ %u elements ]", n), n);
      gtk_widget_add_css_class (value, "dim-label");
    }
  else if (JSON_NODE_HOLDS_NULL (node))
    {
      text = g_strdup ("null");
      gtk_widget_add_css_class (value, "monospace");
      gtk_widget_add_css_class (value, "dim-label");
    }
  else if (json_node_get_value_type (node) == G_TYPE_STRING)
    {
      const char *string = json_node_get_string (node);

      if (strlen (string) > MAX_JSON_STRING)
        {
          g_autofree char *start = utf8_prefix (string, MAX_JSON_STRING);
          text = g_strdup_printf ("%s…", start);
        }
      else
        text = g_strdup (string);
    }
  else
    {
      text = node_to_json (node, FALSE);
      gtk_widget_add_css_class (value, "monospace");
    }

  gtk_label_set_text (GTK_LABEL (value), text);
  gtk_label_set_xalign (GTK_LABEL (value), 0);
  gtk_label_set_selectable (GTK_LABEL (value), TRUE);
  label_set_wrapping (value, TRUE);
  gtk_widget_set_hexpand (value, TRUE);
  gtk_box_append (GTK_BOX (box), value);

  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), box);
  gtk_widget_set_margin_top (expander, 2);
  gtk_widget_set_margin_bottom (expander, 2);
  return expander;
}

static void
clear_row (GtkWidget *box)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (box)) != NULL)
    gtk_box_remove (GTK_BOX (box), child);
}

static void
factory_setup_cb (GtkSignalListItemFactory *factory,
                  GtkListItem              *item,
                  PlugboardResultView      *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_list_item_set_activatable (item, FALSE);
  gtk_list_item_set_selectable (item, FALSE);
  gtk_list_item_set_child (item, box);
}

static void
factory_bind_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 PlugboardResultView      *self)
{
  gpointer object = gtk_list_item_get_item (item);
  GtkWidget *box = gtk_list_item_get_child (item);
  GtkWidget *widget;

  if (GTK_IS_TREE_LIST_ROW (object))
    widget = json_row_new (self, object);
  else
    widget = block_widget_new (self, object);

  clear_row (box);
  gtk_box_append (GTK_BOX (box), widget);
}

static void
factory_unbind_cb (GtkSignalListItemFactory *factory,
                   GtkListItem              *item,
                   PlugboardResultView      *self)
{
  GtkWidget *box = gtk_list_item_get_child (item);

  if (box != NULL)
    clear_row (box);
}

/* ------------------------------------------------------------------------ */
/* The result                                                               */

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

static void
show_schema_check (PlugboardResultView *self,
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
  g_task_set_source_tag (task, show_schema_check);
  g_task_set_task_data (task, check, (GDestroyNotify) schema_check_free);
  g_task_run_in_thread (task, schema_check_thread);
}

static void
show_notes (PlugboardResultView *self)
{
  const char * const *notes = mcp_processed_result_get_notes (self->result);
  g_autoptr(GString) text = g_string_new (NULL);
  gsize cut = mcp_processed_result_get_cut_characters (self->result);

  for (guint i = 0; notes != NULL && notes[i] != NULL; i++)
    {
      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, notes[i]);
    }
  if (cut > 0 && text->len == 0)
    g_string_append_printf (text, ngettext ("The result was cut at the output limit: %lu more character is not shown.",
                                            "The result was cut at the output limit: %lu more characters are not shown.",
                                            (unsigned long) cut), (unsigned long) cut);

  gtk_label_set_text (self->notes_label, text->str);
  gtk_widget_set_visible (self->save_full_button, cut > 0);
  gtk_widget_set_visible (self->notes_box, text->len > 0 || cut > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "result.save-full", cut > 0);
}

/* Builds blocks from self->next_block for about BUILD_SLICE_US and adds
 * them to the list; TRUE when some remain. */
static gboolean
build_slice (PlugboardResultView *self)
{
  GPtrArray *content = NULL;
  g_autoptr(GPtrArray) sections = g_ptr_array_new_with_free_func (g_object_unref);
  gint64 deadline = g_get_monotonic_time () + BUILD_SLICE_US;

  if (self->result != NULL)
    content = mcp_tool_result_get_content (mcp_processed_result_get_result (self->result));
  while (content != NULL && self->next_block < content->len)
    {
      PlugboardResultBlock *block =
        content_block_new (self->result, g_ptr_array_index (content, self->next_block), (int) self->next_block);

      self->next_block++;
      g_ptr_array_add (sections, block_take_section (block));
      g_object_unref (block);
      if (g_get_monotonic_time () >= deadline)
        break;
    }
  g_list_store_splice (self->sections, g_list_model_get_n_items (G_LIST_MODEL (self->sections)), 0,
                       sections->pdata, sections->len);
  return content != NULL && self->next_block < content->len;
}

static gboolean
build_idle_cb (gpointer data)
{
  PlugboardResultView *self = data;

  if (build_slice (self))
    return G_SOURCE_CONTINUE;
  self->build_source = 0;
  return G_SOURCE_REMOVE;
}

void
plugboard_result_view_set_result (PlugboardResultView *self,
                                  McpPoolTool         *tool,
                                  JsonObject          *arguments,
                                  McpProcessedResult  *result)
{
  McpToolResult *tool_result;
  GPtrArray *content;
  JsonNode *structured;
  g_autoptr(GPtrArray) sections = NULL;
  g_autofree char *summary = NULL;

  g_return_if_fail (PLUGBOARD_IS_RESULT_VIEW (self));
  g_return_if_fail (tool == NULL || MCP_IS_POOL_TOOL (tool));
  g_return_if_fail (MCP_IS_PROCESSED_RESULT (result));

  plugboard_result_view_clear (self);

  self->tool = tool != NULL ? g_object_ref (tool) : NULL;
  self->arguments = arguments != NULL ? json_object_ref (arguments) : NULL;
  self->result = g_object_ref (result);

  tool_result = mcp_processed_result_get_result (result);
  content = mcp_tool_result_get_content (tool_result);
  structured = mcp_tool_result_get_structured_content (tool_result);
  self->n_blocks = content != NULL ? content->len : 0;

  gtk_widget_set_visible (self->error_box, mcp_tool_result_get_is_error (tool_result));
  show_schema_check (self, tool_result);
  show_notes (self);

  /* The blocks are built in slices of BUILD_SLICE_US, each added in one
   * splice: the first now, the rest from an idle source below the
   * redraw priority, so that 10,000 blocks or 50 MB of text never hold
   * the main loop for long. */
  sections = g_ptr_array_new_with_free_func (g_object_unref);
  if (structured != NULL)
    {
      PlugboardResultBlock *block = block_new (BLOCK_JSON, _("Structured content"));

      if (JSON_NODE_HOLDS_OBJECT (structured) || JSON_NODE_HOLDS_ARRAY (structured))
        block->json = json_node_ref (structured);
      else
        {
          block->kind = BLOCK_TEXT;
          block->text = node_to_json (structured, FALSE);
        }
      block_set_rows (block);
      g_ptr_array_add (sections, block_take_section (block));
      g_object_unref (block);
    }
  g_list_store_splice (self->sections, 0, 0, sections->pdata, sections->len);
  self->next_block = 0;
  if (build_slice (self))
    self->build_source = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, build_idle_cb, self, NULL);

  if (self->n_blocks == 0 && structured == NULL)
    gtk_stack_set_visible_child_name (self->content_stack, "empty");
  else
    gtk_stack_set_visible_child_name (self->content_stack, "list");

  summary = g_strdup_printf (ngettext ("%u content block", "%u content blocks", self->n_blocks),
                             self->n_blocks);
  gtk_label_set_text (self->summary_label, summary);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "result.copy", TRUE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "result.copy-command", self->tool != NULL);
}

static gpointer
release_thread (gpointer data)
{
  g_ptr_array_unref (data);
  return NULL;
}

/* Drops the last references to @objects (a GPtrArray that frees GObjects)
 * in a thread of their own: freeing a result of 10,000 blocks, its rows
 * and its JSON held the main thread for 400 ms (bench-large-result).
 * Nothing in them needs the main thread but an image block's texture,
 * which its block hands back (plugboard_result_block_finalize()). */
static void
release_in_thread (GPtrArray *objects)
{
  g_autoptr(GError) error = NULL;
  GThread *thread;

  thread = g_thread_try_new ("plugboard-release", release_thread, objects, &error);
  if (thread == NULL)
    {
      g_debug ("No thread to free the last result in (%s); freeing it here", error->message);
      g_ptr_array_unref (objects);
      return;
    }
  g_thread_unref (thread);
}

/* Empties the list and lets go of the result, both freed in a thread. */
static void
release_result (PlugboardResultView *self)
{
  GPtrArray *objects = g_ptr_array_new_with_free_func (g_object_unref);

  if (self->sections != NULL)
    g_ptr_array_add (objects, g_steal_pointer (&self->sections));
  if (self->result != NULL)
    g_ptr_array_add (objects, g_steal_pointer (&self->result));

  /* The list lets go of the old sections here, on the main thread. */
  self->sections = g_list_store_new (G_TYPE_LIST_MODEL);
  if (self->selection != NULL)
    {
      GListModel *flat = gtk_no_selection_get_model (GTK_NO_SELECTION (self->selection));

      gtk_flatten_list_model_set_model (GTK_FLATTEN_LIST_MODEL (flat), G_LIST_MODEL (self->sections));
    }

  release_in_thread (objects);
}

void
plugboard_result_view_clear (PlugboardResultView *self)
{
  g_return_if_fail (PLUGBOARD_IS_RESULT_VIEW (self));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  g_clear_handle_id (&self->build_source, g_source_remove);
  release_result (self);
  g_clear_object (&self->tool);
  g_clear_pointer (&self->arguments, json_object_unref);
  self->n_blocks = 0;
  self->schema_ok = -1;

  gtk_widget_set_visible (self->error_box, FALSE);
  gtk_widget_set_visible (self->schema_box, FALSE);
  gtk_widget_set_visible (self->notes_box, FALSE);
  gtk_label_set_text (self->summary_label, "");
  gtk_stack_set_visible_child_name (self->content_stack, "empty");
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "result.copy", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "result.copy-command", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "result.save-full", FALSE);
}

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
      g_autofree char *json = node_to_json (structured, TRUE);
      append_text (out, json);
    }
  if (out->len == 0)
    {
      g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), mcp_tool_result_get_json (result));
      g_autofree char *json = node_to_json (node, TRUE);
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
      g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), self->arguments);
      g_autofree char *json = node_to_json (node, FALSE);

      g_string_append (line, " --args");
      plugboard_append_shell_word (line, json);
    }

  return g_string_free (line, FALSE);
}

guint
plugboard_result_view_get_n_blocks (PlugboardResultView *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_RESULT_VIEW (self), 0);

  return self->n_blocks;
}

int
plugboard_result_view_get_schema_ok (PlugboardResultView *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_RESULT_VIEW (self), -1);

  return self->schema_ok;
}

/* ------------------------------------------------------------------------ */
/* Actions                                                                  */

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
  toast (self, _("Result copied"));
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
  toast (self, _("Command copied"));
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
  name = suggested_name (self, "txt");
  save_as (self, name, bytes, NULL);
}

/* ------------------------------------------------------------------------ */

static void
plugboard_result_view_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  PlugboardResultView *self = PLUGBOARD_RESULT_VIEW (object);

  switch (prop_id)
    {
    case PROP_PLAIN_TEXT:
      g_value_set_boolean (value, self->plain_text);
      break;
    case PROP_WRAP:
      g_value_set_boolean (value, self->wrap);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
plugboard_result_view_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  PlugboardResultView *self = PLUGBOARD_RESULT_VIEW (object);
  gboolean new_value = g_value_get_boolean (value);

  switch (prop_id)
    {
    case PROP_PLAIN_TEXT:
      if (self->plain_text == new_value)
        return;
      self->plain_text = new_value;
      break;
    case PROP_WRAP:
      if (self->wrap == new_value)
        return;
      self->wrap = new_value;
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
    }

  refresh_rows (self);
  g_object_notify_by_pspec (object, pspec);
}

static void
plugboard_result_view_dispose (GObject *object)
{
  PlugboardResultView *self = PLUGBOARD_RESULT_VIEW (object);

  g_clear_handle_id (&self->build_source, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);

  /* AdwBin keeps its own pointer to the template's top child. */
  adw_bin_set_child (ADW_BIN (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), PLUGBOARD_TYPE_RESULT_VIEW);

  g_clear_object (&self->selection);
  if (self->sections != NULL)
    {
      release_result (self);
      g_clear_object (&self->sections);
    }
  g_clear_object (&self->tool);
  g_clear_pointer (&self->arguments, json_object_unref);

  G_OBJECT_CLASS (plugboard_result_view_parent_class)->dispose (object);
}

static void
plugboard_result_view_class_init (PlugboardResultViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = plugboard_result_view_get_property;
  object_class->set_property = plugboard_result_view_set_property;
  object_class->dispose = plugboard_result_view_dispose;

  /* Text shown as sent, in monospace, instead of rendered as Markdown. */
  properties[PROP_PLAIN_TEXT] =
    g_param_spec_boolean ("plain-text", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_WRAP] =
    g_param_spec_boolean ("wrap", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/plugboard/Plugboard/plugboard-result-view.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardResultView, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResultView, summary_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResultView, error_box);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResultView, schema_box);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResultView, schema_icon);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResultView, schema_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResultView, schema_problems_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResultView, notes_box);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResultView, notes_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResultView, save_full_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResultView, content_stack);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResultView, list_view);
  gtk_widget_class_bind_template_child (widget_class, PlugboardResultView, factory);

  gtk_widget_class_install_property_action (widget_class, "result.plain-text", "plain-text");
  gtk_widget_class_install_property_action (widget_class, "result.wrap", "wrap");
  gtk_widget_class_install_action (widget_class, "result.copy", NULL, copy_action);
  gtk_widget_class_install_action (widget_class, "result.copy-command", NULL, copy_command_action);
  gtk_widget_class_install_action (widget_class, "result.save-full", NULL, save_full_action);
}

static void
plugboard_result_view_init (PlugboardResultView *self)
{
  GtkFlattenListModel *flat;

  self->wrap = TRUE;
  self->schema_ok = -1;
  self->cancellable = g_cancellable_new ();

  gtk_widget_init_template (GTK_WIDGET (self));

  g_signal_connect (self->factory, "setup", G_CALLBACK (factory_setup_cb), self);
  g_signal_connect (self->factory, "bind", G_CALLBACK (factory_bind_cb), self);
  g_signal_connect (self->factory, "unbind", G_CALLBACK (factory_unbind_cb), self);

  self->sections = g_list_store_new (G_TYPE_LIST_MODEL);
  flat = gtk_flatten_list_model_new (G_LIST_MODEL (g_object_ref (self->sections)));
  self->selection = GTK_SELECTION_MODEL (gtk_no_selection_new (G_LIST_MODEL (flat)));
  gtk_grid_view_set_model (self->list_view, self->selection);

  plugboard_result_view_clear (self);
}

GtkWidget *
plugboard_result_view_new (void)
{
  return g_object_new (PLUGBOARD_TYPE_RESULT_VIEW, NULL);
}
