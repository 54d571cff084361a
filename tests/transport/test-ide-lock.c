/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "test-ide-lock"

#include "config.h"

#include <string.h>
#include <sys/stat.h>
#include <utime.h>

#include <glib/gstdio.h>

#include "mcp-error.h"
#include "mcp-ide-lock.h"
#include "mcp-server-connection-private.h"
#include "mcp-sse-transport.h"
#include "mcp-websocket-transport.h"

typedef struct
{
  char *dir;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("plugboard-ide-lock-XXXXXX", &error);
  g_assert_no_error (error);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GDir) dir = g_dir_open (f->dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (f->dir, name, NULL);

      g_assert_cmpint (g_remove (path), ==, 0);
    }
  g_assert_cmpint (g_rmdir (f->dir), ==, 0);
  g_free (f->dir);
}

static GFile *
write_lock (Fixture    *f,
            const char *name,
            const char *json)
{
  g_autofree char *path = g_build_filename (f->dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (path, json, -1, &error));
  g_assert_no_error (error);
  return g_file_new_for_path (path);
}

static void
set_mtime (GFile  *file,
           time_t  mtime)
{
  g_autofree char *path = g_file_get_path (file);
  struct utimbuf times = { mtime, mtime };

  g_assert_cmpint (utime (path, &times), ==, 0);
}

#define VALID_WS \
  "{\"pid\":4242,\"workspaceFolders\":[\"/home/me/project\",\"/tmp/other\"]," \
  "\"ideName\":\"Visual Studio Code\",\"transport\":\"ws\",\"runningInWindows\":false," \
  "\"authToken\":\"0f1e2d3c-token\"}"

static void
test_valid (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(GFile) file = write_lock (f, "43117.lock", VALID_WS);
  g_autoptr(GError) error = NULL;
  g_autoptr(McpIdeLock) lock = NULL;
  g_autofree char *url = NULL;
  g_auto(GStrv) headers = NULL;
  const char * const *folders;

  lock = mcp_ide_lock_new_from_file (file, &error);
  g_assert_no_error (error);
  g_assert_nonnull (lock);

  g_assert_cmpuint (mcp_ide_lock_get_port (lock), ==, 43117);
  g_assert_cmpstr (mcp_ide_lock_get_ide_name (lock), ==, "Visual Studio Code");
  g_assert_cmpstr (mcp_ide_lock_get_transport (lock), ==, "ws");
  g_assert_cmpstr (mcp_ide_lock_get_auth_token (lock), ==, "0f1e2d3c-token");
  folders = mcp_ide_lock_get_workspace_folders (lock);
  g_assert_cmpuint (g_strv_length ((GStrv) folders), ==, 2);
  g_assert_cmpstr (folders[0], ==, "/home/me/project");
  g_assert_cmpstr (folders[1], ==, "/tmp/other");

  url = mcp_ide_lock_dup_url (lock);
  g_assert_cmpstr (url, ==, "ws://127.0.0.1:43117");
  headers = mcp_ide_lock_dup_headers (lock);
  g_assert_cmpuint (g_strv_length (headers), ==, 1);
  g_assert_cmpstr (headers[0], ==, "X-Claude-Code-Ide-Authorization: 0f1e2d3c-token");

  /* The ws-ide variant: the WebSocket transport to that URL. */
  {
    g_autoptr(McpTransport) transport = mcp_server_connection_new_ide_transport (lock);

    g_assert_true (MCP_IS_WEBSOCKET_TRANSPORT (transport));
    g_assert_cmpstr (mcp_websocket_transport_get_url (MCP_WEBSOCKET_TRANSPORT (transport)), ==, url);
  }
}

static void
test_sse (Fixture       *f,
          gconstpointer  data)
{
  g_autoptr(GFile) file = write_lock (f, "whatever.lock",
                                      "{\"port\":5000,\"workspaceFolders\":[],\"ideName\":\"IntelliJ IDEA\","
                                      "\"transport\":\"sse\",\"authToken\":\"t\"}");
  g_autoptr(GError) error = NULL;
  g_autoptr(McpIdeLock) lock = NULL;
  g_autofree char *url = NULL;
  g_auto(GStrv) headers = NULL;

  lock = mcp_ide_lock_new_from_file (file, &error);
  g_assert_no_error (error);
  /* "port" wins over the file name. */
  g_assert_cmpuint (mcp_ide_lock_get_port (lock), ==, 5000);
  g_assert_cmpuint (g_strv_length ((GStrv) mcp_ide_lock_get_workspace_folders (lock)), ==, 0);
  url = mcp_ide_lock_dup_url (lock);
  g_assert_cmpstr (url, ==, "http://127.0.0.1:5000/sse");
  headers = mcp_ide_lock_dup_headers (lock);
  g_assert_cmpstr (headers[0], ==, MCP_IDE_AUTH_HEADER ": t");
  g_assert_null (headers[1]);

  /* The sse-ide variant: the legacy SSE transport to that URL. */
  {
    g_autoptr(McpTransport) transport = mcp_server_connection_new_ide_transport (lock);

    g_assert_true (MCP_IS_SSE_TRANSPORT (transport));
    g_assert_cmpstr (mcp_sse_transport_get_url (MCP_SSE_TRANSPORT (transport)), ==, url);
  }
}

static void
test_port_from_name (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GFile) with_port = write_lock (f, "1234.lock",
                                           "{\"port\":65535,\"workspaceFolders\":[],\"ideName\":\"A\","
                                           "\"transport\":\"ws\",\"authToken\":\"t\"}");
  g_autoptr(GFile) without = write_lock (f, "65000.lock",
                                         "{\"workspaceFolders\":[],\"ideName\":\"A\","
                                         "\"transport\":\"ws\",\"authToken\":\"t\"}");
  g_autoptr(GFile) bad_name = write_lock (f, "ide.lock",
                                          "{\"workspaceFolders\":[],\"ideName\":\"A\","
                                          "\"transport\":\"ws\",\"authToken\":\"t\"}");
  g_autoptr(GFile) zero_name = write_lock (f, "0.lock",
                                           "{\"workspaceFolders\":[],\"ideName\":\"A\","
                                           "\"transport\":\"ws\",\"authToken\":\"t\"}");
  g_autoptr(McpIdeLock) a = NULL;
  g_autoptr(McpIdeLock) b = NULL;
  g_autoptr(McpIdeLock) c = NULL;
  g_autoptr(McpIdeLock) d = NULL;
  g_autoptr(GError) error = NULL;

  a = mcp_ide_lock_new_from_file (with_port, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mcp_ide_lock_get_port (a), ==, 65535);

  b = mcp_ide_lock_new_from_file (without, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (mcp_ide_lock_get_port (b), ==, 65000);

  c = mcp_ide_lock_new_from_file (bad_name, &error);
  g_assert_null (c);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "ide.lock"));
  g_assert_nonnull (strstr (error->message, "“port”"));
  g_clear_error (&error);

  d = mcp_ide_lock_new_from_file (zero_name, &error);
  g_assert_null (d);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_FAILED);
}

typedef struct
{
  const char *json;
  const char *member;   /* named in the message */
} InvalidCase;

static void
test_invalid_members (Fixture       *f,
                      gconstpointer  data)
{
  static const InvalidCase cases[] = {
    { "{\"ideName\":\"A\",\"transport\":\"ws\",\"authToken\":\"t\"}", "“workspaceFolders” is missing" },
    { "{\"workspaceFolders\":\"/x\",\"ideName\":\"A\",\"transport\":\"ws\",\"authToken\":\"t\"}",
      "“workspaceFolders” must be an array" },
    { "{\"workspaceFolders\":[\"/x\",3],\"ideName\":\"A\",\"transport\":\"ws\",\"authToken\":\"t\"}",
      "“workspaceFolders[1]” must be a string" },
    { "{\"workspaceFolders\":[],\"pid\":\"12\",\"ideName\":\"A\",\"transport\":\"ws\",\"authToken\":\"t\"}",
      "“pid” must be a positive integer" },
    { "{\"workspaceFolders\":[],\"pid\":-1,\"ideName\":\"A\",\"transport\":\"ws\",\"authToken\":\"t\"}",
      "“pid” must be a positive integer" },
    { "{\"workspaceFolders\":[],\"transport\":\"ws\",\"authToken\":\"t\"}", "“ideName” is missing" },
    { "{\"workspaceFolders\":[],\"ideName\":7,\"transport\":\"ws\",\"authToken\":\"t\"}",
      "“ideName” must be a string" },
    { "{\"workspaceFolders\":[],\"ideName\":\"A\",\"authToken\":\"t\"}", "“transport” is missing" },
    { "{\"workspaceFolders\":[],\"ideName\":\"A\",\"transport\":\"http\",\"authToken\":\"t\"}",
      "“transport” must be “ws” or “sse”" },
    { "{\"workspaceFolders\":[],\"ideName\":\"A\",\"transport\":\"ws\"}", "“authToken” is missing" },
    { "{\"workspaceFolders\":[],\"ideName\":\"A\",\"transport\":\"ws\",\"authToken\":null}",
      "“authToken” must be a string" },
    { "{\"workspaceFolders\":[],\"ideName\":\"A\",\"transport\":\"ws\",\"authToken\":\"\"}",
      "“authToken” is empty" },
    { "{\"workspaceFolders\":[],\"ideName\":\"A\",\"transport\":\"ws\",\"authToken\":\"a\\r\\nX-Evil: 1\"}",
      "“authToken” holds control characters" },
    { "{\"workspaceFolders\":[],\"ideName\":\"A\",\"transport\":\"ws\",\"authToken\":\"t\",\"port\":70000}",
      "“port” must be an integer from 1 to 65535" },
    { "{\"workspaceFolders\":[],\"ideName\":\"A\",\"transport\":\"ws\",\"authToken\":\"t\",\"port\":1.5}",
      "“port” must be an integer from 1 to 65535" },
    { "{\"workspaceFolders\":[],\"ideName\":\"A\",\"transport\":\"ws\",\"authToken\":\"t\",\"port\":\"80\"}",
      "“port” must be an integer from 1 to 65535" },
    { "[1,2]", "must hold a JSON object" },
    { "{\"workspaceFolders\":[", "is not valid JSON" },
    { "", "is empty" },
    { "  \n", "is empty" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GFile) file = write_lock (f, "4000.lock", cases[i].json);
      g_autoptr(GError) error = NULL;
      g_autoptr(McpIdeLock) lock = NULL;
      g_autofree char *path = g_file_get_path (file);

      g_test_message ("case %u: %s", i, cases[i].json);
      lock = mcp_ide_lock_new_from_file (file, &error);
      g_assert_null (lock);
      g_assert_error (error, MCP_ERROR, MCP_ERROR_FAILED);
      g_assert_nonnull (strstr (error->message, path));
      if (strstr (error->message, cases[i].member) == NULL)
        g_error ("case %u: “%s” does not say “%s”", i, error->message, cases[i].member);
    }
}

static void
test_token_never_in_errors (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(GFile) file = write_lock (f, "4001.lock",
                                      "{\"workspaceFolders\":[],\"ideName\":\"A\",\"transport\":\"tcp\","
                                      "\"authToken\":\"very-secret-token\"}");
  g_autoptr(GError) error = NULL;
  g_autoptr(McpIdeLock) lock = mcp_ide_lock_new_from_file (file, &error);

  g_assert_null (lock);
  g_assert_nonnull (error);
  g_assert_null (strstr (error->message, "very-secret-token"));
}

static void
test_unreadable (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *missing_path = g_build_filename (f->dir, "9.lock", NULL);
  g_autoptr(GFile) missing = g_file_new_for_path (missing_path);
  g_autoptr(GFile) directory = g_file_new_for_path (f->dir);
  g_autoptr(GError) error = NULL;
  g_autoptr(McpIdeLock) lock = NULL;
  g_autofree char *big = NULL;
  g_autoptr(GFile) big_file = NULL;

  lock = mcp_ide_lock_new_from_file (missing, &error);
  g_assert_null (lock);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, missing_path));
  g_clear_error (&error);

  lock = mcp_ide_lock_new_from_file (directory, &error);
  g_assert_null (lock);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "not a regular file"));
  g_clear_error (&error);

  /* Bounded: a huge file is refused before it is read. */
  big = g_malloc (2 * 1024 * 1024 + 1);
  memset (big, ' ', 2 * 1024 * 1024);
  big[2 * 1024 * 1024] = '\0';
  big_file = write_lock (f, "4002.lock", big);
  lock = mcp_ide_lock_new_from_file (big_file, &error);
  g_assert_null (lock);
  g_assert_error (error, MCP_ERROR, MCP_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "too large"));
}

static void
test_list (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(GFile) directory = g_file_new_for_path (f->dir);
  g_autoptr(GFile) old = write_lock (f, "1001.lock",
                                     "{\"workspaceFolders\":[],\"ideName\":\"Old\",\"transport\":\"ws\",\"authToken\":\"a\"}");
  g_autoptr(GFile) newest = write_lock (f, "1002.lock",
                                        "{\"workspaceFolders\":[],\"ideName\":\"Newest\",\"transport\":\"sse\",\"authToken\":\"b\"}");
  g_autoptr(GFile) middle = write_lock (f, "1003.lock",
                                        "{\"workspaceFolders\":[],\"ideName\":\"Middle\",\"transport\":\"ws\",\"authToken\":\"c\"}");
  g_autoptr(GFile) broken = write_lock (f, "1004.lock", "{not json");
  g_autoptr(GFile) other = write_lock (f, "notes.txt", "{}");
  g_autoptr(GPtrArray) locks = NULL;
  g_autoptr(GError) error = NULL;
  time_t now = time (NULL);

  set_mtime (old, now - 300);
  set_mtime (newest, now - 10);
  set_mtime (middle, now - 100);
  set_mtime (broken, now);

  locks = mcp_ide_lock_list (directory, &error);
  g_assert_no_error (error);
  g_assert_nonnull (locks);
  /* The broken one and the non-.lock file are skipped. */
  g_assert_cmpuint (locks->len, ==, 3);
  g_assert_cmpstr (mcp_ide_lock_get_ide_name (g_ptr_array_index (locks, 0)), ==, "Newest");
  g_assert_cmpuint (mcp_ide_lock_get_port (g_ptr_array_index (locks, 0)), ==, 1002);
  g_assert_cmpstr (mcp_ide_lock_get_ide_name (g_ptr_array_index (locks, 1)), ==, "Middle");
  g_assert_cmpstr (mcp_ide_lock_get_ide_name (g_ptr_array_index (locks, 2)), ==, "Old");
}

static void
test_list_missing_and_bad_directory (Fixture       *f,
                                     gconstpointer  data)
{
  g_autofree char *missing_path = g_build_filename (f->dir, "nope", NULL);
  g_autoptr(GFile) missing = g_file_new_for_path (missing_path);
  g_autoptr(GFile) file = write_lock (f, "5.lock", "{}");
  g_autoptr(GPtrArray) locks = NULL;
  g_autoptr(GPtrArray) none = NULL;
  g_autoptr(GError) error = NULL;

  /* No directory: no IDE has written a lock yet. */
  locks = mcp_ide_lock_list (missing, &error);
  g_assert_no_error (error);
  g_assert_nonnull (locks);
  g_assert_cmpuint (locks->len, ==, 0);

  none = mcp_ide_lock_list (file, &error);
  g_assert_null (none);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "5.lock"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("/ide-lock/file/valid-ws", test_valid);
  ADD ("/ide-lock/file/valid-sse", test_sse);
  ADD ("/ide-lock/file/port-from-name", test_port_from_name);
  ADD ("/ide-lock/file/invalid-members", test_invalid_members);
  ADD ("/ide-lock/file/token-never-in-errors", test_token_never_in_errors);
  ADD ("/ide-lock/file/unreadable", test_unreadable);
  ADD ("/ide-lock/list/newest-first", test_list);
  ADD ("/ide-lock/list/missing-and-bad-directory", test_list_missing_and_bad_directory);

#undef ADD

  return g_test_run ();
}
