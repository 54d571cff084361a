/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "mcp-tool.h"

G_BEGIN_DECLS

/* A stand-in for McpServerConnection with the two properties McpToolPool
 * reads: "name", and "tools" (a GListModel of McpTool, which
 * test_fake_connection_replace_tools() replaces, notifying it). */

#define TEST_TYPE_FAKE_CONNECTION (test_fake_connection_get_type ())
G_DECLARE_FINAL_TYPE (TestFakeConnection, test_fake_connection, TEST, FAKE_CONNECTION, GObject)

struct _TestFakeConnection
{
  GObject     parent_instance;
  char       *name;
  GListStore *tools;
};

TestFakeConnection *test_fake_connection_new           (const char         *name);
/* Appends the tool @json describes (it must be valid). */
void                test_fake_connection_add_tool      (TestFakeConnection *self,
                                                        const char         *json);
void                test_fake_connection_replace_tools (TestFakeConnection *self,
                                                        GListStore         *tools);

/* The McpTool @json describes (it must be valid). */
McpTool            *test_tool_from_json                (const char         *json);

G_END_DECLS
