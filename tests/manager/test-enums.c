/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-enums"

#include "config.h"

#include "mcp-call.h"
#include "mcp-client.h"
#include "mcp-error.h"
#include "mcp-history-entry.h"
#include "mcp-log-entry.h"
#include "mcp-oauth-client-info.h"
#include "mcp-redact.h"
#include "mcp-server-config.h"
#include "mcp-server-connection.h"
#include "mcp-settings.h"

/* The enum GTypes glib-mkenums generates for each layer, and the properties
 * that hold them: templates bind these, so their types are API. */

static GParamSpec *
find_property (GType       object_type,
               const char *name)
{
  g_autoptr(GTypeClass) klass = g_type_class_ref (object_type);
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_CLASS (klass), name);

  g_assert_nonnull (pspec);
  return pspec;
}

static void
assert_enum_property (GType       object_type,
                      const char *name,
                      GType       enum_type,
                      int         default_value)
{
  GParamSpec *pspec = find_property (object_type, name);

  g_assert_true (G_IS_PARAM_SPEC_ENUM (pspec));
  g_assert_true (pspec->value_type == enum_type);
  g_assert_cmpint (G_PARAM_SPEC_ENUM (pspec)->default_value, ==, default_value);
}

static void
assert_nick (GType       enum_type,
             const char *nick,
             int         value)
{
  g_autoptr(GTypeClass) klass = g_type_class_ref (enum_type);
  GEnumValue *enum_value = g_enum_get_value_by_nick (G_ENUM_CLASS (klass), nick);

  g_assert_nonnull (enum_value);
  g_assert_cmpint (enum_value->value, ==, value);
}

static void
test_properties (void)
{
  GParamSpec *pspec;

  assert_enum_property (MCP_TYPE_CLIENT, "state", MCP_TYPE_CLIENT_STATE, MCP_CLIENT_STATE_NEW);
  assert_enum_property (MCP_TYPE_CLIENT, "era", MCP_TYPE_PROTOCOL_ERA, MCP_PROTOCOL_ERA_UNKNOWN);
  assert_enum_property (MCP_TYPE_SERVER_CONNECTION, "state", MCP_TYPE_SERVER_STATE, MCP_SERVER_STATE_PENDING);
  assert_enum_property (MCP_TYPE_LOG_ENTRY, "kind", MCP_TYPE_LOG_ENTRY_KIND, MCP_LOG_ENTRY_STDERR);
  assert_enum_property (MCP_TYPE_HISTORY_ENTRY, "outcome", MCP_TYPE_HISTORY_OUTCOME, MCP_HISTORY_OUTCOME_RUNNING);

  pspec = find_property (MCP_TYPE_CALL, "flags");
  g_assert_true (G_IS_PARAM_SPEC_FLAGS (pspec));
  g_assert_true (pspec->value_type == MCP_TYPE_CALL_FLAGS);
  g_assert_cmpuint (G_PARAM_SPEC_FLAGS (pspec)->default_value, ==, MCP_CALL_FLAGS_NONE);
}

static void
test_types (void)
{
  /* one of each layer's */
  assert_nick (MCP_TYPE_JSONRPC_ERROR, "parse-error", MCP_JSONRPC_ERROR_PARSE_ERROR);
  assert_nick (MCP_TYPE_OAUTH_CLIENT_KIND, "dynamic", MCP_OAUTH_CLIENT_DYNAMIC);
  assert_nick (MCP_TYPE_PROTOCOL_ERA, "modern", MCP_PROTOCOL_ERA_MODERN);
  assert_nick (MCP_TYPE_CONFIG_SCOPE, "local", MCP_CONFIG_SCOPE_LOCAL);
  assert_nick (MCP_TYPE_APPROVAL, "changed", MCP_APPROVAL_CHANGED);
  assert_nick (MCP_TYPE_SERVER_STATE, "needs-auth", MCP_SERVER_STATE_NEEDS_AUTH);
  assert_nick (MCP_TYPE_LOG_ENTRY_KIND, "warning", MCP_LOG_ENTRY_WARNING);

  /* "1 << n" members make flags types */
  g_assert_true (G_TYPE_IS_FLAGS (MCP_TYPE_CALL_FLAGS));
  g_assert_true (G_TYPE_IS_FLAGS (MCP_TYPE_ESCAPE_FLAGS));
  g_assert_true (G_TYPE_IS_FLAGS (MCP_TYPE_PERMISSION_HINTS));
  g_assert_true (G_TYPE_IS_ENUM (MCP_TYPE_PERMISSION));
}

/* A log entry's kind reads back as its enum, and still into an int. */
static void
test_log_entry_kind (void)
{
  g_autoptr(McpLogEntry) entry = mcp_log_entry_new (MCP_LOG_ENTRY_NOTIFICATION, "notifications/tools/list_changed");
  g_auto(GValue) value = G_VALUE_INIT;
  int kind = -1;

  g_value_init (&value, MCP_TYPE_LOG_ENTRY_KIND);
  g_object_get_property (G_OBJECT (entry), "kind", &value);
  g_assert_cmpint (g_value_get_enum (&value), ==, MCP_LOG_ENTRY_NOTIFICATION);

  g_object_get (entry, "kind", &kind, NULL);
  g_assert_cmpint (kind, ==, MCP_LOG_ENTRY_NOTIFICATION);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/manager/enums/properties", test_properties);
  g_test_add_func ("/manager/enums/types", test_types);
  g_test_add_func ("/manager/enums/log-entry-kind", test_log_entry_kind);

  return g_test_run ();
}
