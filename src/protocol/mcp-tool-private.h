/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-tool.h"

G_BEGIN_DECLS

/* Shared by the parts of McpTool: mcp-tool.c (the object, reading a
 * tool, its getters) and mcp-tool-param-headers.c (x-mcp-header). */

struct _McpTool
{
  GObject      parent_instance;

  guint        read_only_hint : 1;
  guint        destructive_hint : 1;
  guint        idempotent_hint : 1;
  guint        open_world_hint : 1;

  /* borrowed from object */
  const char  *name;
  const char  *title;
  const char  *description;
  const char  *task_support;
  JsonObject  *output_schema;
  JsonObject  *annotations;
  JsonArray   *icons;
  JsonObject  *meta;
  const char  *ui_resource_uri;     /* valid (mcp_ui_uri_is_valid) or NULL */
  McpToolVisibility ui_visibility;

  /* owned */
  JsonObject  *object;
  JsonObject  *input_schema;
  GPtrArray   *param_headers;       /* ParamHeader, in schema order */
  GError      *param_headers_error; /* why the x-mcp-header use is invalid */
};

/* Finds the input schema's x-mcp-header uses: self->param_headers, or
 * self->param_headers_error when one is invalid. */
void mcp_tool_read_param_headers (McpTool *self);

G_END_DECLS
