/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>
#include <json-glib/json-glib.h>

#include "mcp-processed-result.h"

G_BEGIN_DECLS

/* A text larger than this shows only its start … */
#define LARGE_TEXT_BYTES  (1024 * 1024)
/* … this much of it. */
#define LARGE_TEXT_SHOWN  (64 * 1024)

typedef enum
{
  PLUGBOARD_RESULT_BLOCK_TEXT,
  PLUGBOARD_RESULT_BLOCK_JSON,     /* a JSON value shown as a tree (or raw) */
  PLUGBOARD_RESULT_BLOCK_IMAGE,
  PLUGBOARD_RESULT_BLOCK_AUDIO,
  PLUGBOARD_RESULT_BLOCK_LINK,
  PLUGBOARD_RESULT_BLOCK_FILE,     /* a blob: Save As */
  PLUGBOARD_RESULT_BLOCK_MESSAGE,  /* a line of explanation (a failed read) */
  PLUGBOARD_RESULT_BLOCK_CHUNK,    /* a further piece of a long text block */
} PlugboardResultBlockKind;

#define PLUGBOARD_TYPE_RESULT_BLOCK (plugboard_result_block_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardResultBlock, plugboard_result_block, PLUGBOARD, RESULT_BLOCK, GObject)

/**
 * PlugboardResultBlock:
 *
 * One content item of a result, as PlugboardResultView shows it: the head
 * row of a section of the view's list (GListModel of rows) that it makes
 * and then belongs to. A record of the view's parts: they read and set its
 * fields (what a row shows, how far a read has come) directly, so the
 * structure is here rather than in the .c.
 */
struct _PlugboardResultBlock
{
  GObject      parent_instance;

  PlugboardResultBlockKind kind;
  char        *title;       /* the caption: "Image · image/png" */
  McpContent  *content;     /* nullable */
  char        *text;        /* text, or the JSON as sent */
  gboolean     text_borrowed; /* text is @content's (a 50 MB copy takes long) */
  JsonNode    *json;        /* PLUGBOARD_RESULT_BLOCK_JSON */
  char        *file;        /* the saved file, nullable */
  GBytes      *data;        /* decoded data when there is no file */
  char        *mime_type;
  GdkTexture  *texture;     /* PLUGBOARD_RESULT_BLOCK_IMAGE, loaded on first show */
  char        *markup;      /* the Markdown rendering, made on first show */
  int          markdown;    /* -1: not looked at yet */
  gboolean     raw;         /* PLUGBOARD_RESULT_BLOCK_JSON: shown as text */
  gsize        head_length; /* PLUGBOARD_RESULT_BLOCK_TEXT: bytes of the text the head row shows */
  GListStore  *chunks;      /* PLUGBOARD_RESULT_BLOCK_TEXT: the rows after the head (CHUNK), or NULL */
  gboolean     reading;     /* PLUGBOARD_RESULT_BLOCK_LINK */
  char        *status;      /* PLUGBOARD_RESULT_BLOCK_LINK: the read's outcome */

  /* The section (list model of rows) the block heads, and its parts; both
   * borrowed once the section is taken (the section owns the block). */
  GListStore  *parts;
  GListModel  *section;
  gboolean     owns_section;
};

PlugboardResultBlock *plugboard_result_block_new             (PlugboardResultBlockKind  kind,
                                                              const char               *title);
/* The block of @content, the @index-th item of @result's content (its
 * saved file and the JSON parsed off the main thread); @result NULL and
 * @index -1 for content that came another way (a resource read). */
PlugboardResultBlock *plugboard_result_block_new_for_content (McpProcessedResult       *result,
                                                              McpContent               *content,
                                                              int                       index);
/* The structuredContent of a result: a tree, or a line of JSON text. */
PlugboardResultBlock *plugboard_result_block_new_for_structured (JsonNode              *structured);

/* Makes the rows of the block's section again from its state (a JSON
 * block's tree or raw text, a link's read). */
void                  plugboard_result_block_set_rows        (PlugboardResultBlock     *self);
/* The section's reference: from now on the section keeps the block. */
GListModel           *plugboard_result_block_take_section    (PlugboardResultBlock     *self);
/* Whether the block's text looks like Markdown (looked at once). */
gboolean              plugboard_result_block_is_markdown     (PlugboardResultBlock     *self);
/* The image, from the saved file or the content's data, loaded once;
 * NULL with @error set when it cannot be read. */
GdkTexture           *plugboard_result_block_get_texture     (PlugboardResultBlock     *self,
                                                              GError                  **error);

G_END_DECLS
