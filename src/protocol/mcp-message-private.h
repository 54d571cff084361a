/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-message.h"

G_BEGIN_DECLS

/* Shared by the parts of McpMessage: mcp-message.c (the object, its
 * constructors and getters), mcp-message-write.c (to a tree, to text) and
 * mcp-message-parse.c (from text or a tree, checked). */

struct _McpMessage
{
  GObject         parent_instance;

  McpMessageKind  kind;
  int             error_code;

  /* owned */
  JsonObject     *object;         /* the object this was read from, if any */
  JsonNode       *id;
  char           *method;
  JsonNode       *params;
  JsonNode       *result;
  char           *error_message;
  JsonNode       *error_data;
  GHashTable     *headers;        /* HTTP request headers; never serialised */
};

/* An integer or a string. */
gboolean    mcp_message_id_is_valid   (JsonNode       *id);
/* A new message of @kind with @id (may be NULL), nothing else set. */
McpMessage *mcp_message_new_with_kind (McpMessageKind  kind,
                                       JsonNode       *id);

G_END_DECLS
