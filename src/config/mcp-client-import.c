/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-client-import"

#include "config.h"

#include "mcp-client-import-private.h"

#include <glib/gi18n.h>

#include "mcp-config-file.h"

/* Importing other MCP clients' servers: the scan of the files they keep
 * in a worker thread. One file is read in mcp-client-import-read.c, VS
 * Code's variables converted in mcp-client-import-vscode.c. */

typedef struct
{
  GPtrArray *candidates;
  GPtrArray *problems;
} ScanResult;
void
mcp_import_candidate_free (McpImportCandidate *self)
{
  if (self == NULL)
    return;

  g_free (self->client);
  g_free (self->file);
  g_free (self->name);
  g_clear_pointer (&self->entry, json_object_unref);
  g_free (self->note);
  g_free (self);
}

static void
scan_data_free (ScanData *data)
{
  g_free (data->home);
  g_free (data->project_dir);
  g_free (data);
}

static void
scan_result_free (ScanResult *result)
{
  g_clear_pointer (&result->candidates, g_ptr_array_unref);
  g_clear_pointer (&result->problems, g_ptr_array_unref);
  g_free (result);
}

void
mcp_client_import_add_problem (Scan       *scan,
                               const char *format,
                               ...)
{
  va_list args;
  char *message;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_debug ("%s", message);
  g_ptr_array_add (scan->problems, message);
}

/* The file's bytes; NULL when there is no file (silently) or it cannot be
 * read (a problem). */
static GBytes *
load_file (Scan       *scan,
           const char *path)
{
  g_autoptr(GError) error = NULL;
  GBytes *bytes;

  /* a regular file of at most 16 MiB: a FIFO or a device never blocks */
  bytes = mcp_config_file_read (path, &error);
  if (bytes == NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    mcp_client_import_add_problem (scan, _("%s (its servers are not imported)"), error->message);

  return bytes;
}

static void
scan_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  const ScanData *data = task_data;
  g_autoptr(GError) error = NULL;
  ScanResult *result;
  Scan scan = {
    .data = data,
    .candidates = g_ptr_array_new_with_free_func ((GDestroyNotify) mcp_import_candidate_free),
    .problems = g_ptr_array_new_with_free_func (g_free),
  };
  struct
  {
    McpImportFormat  format;
    char            *file;
    McpConfigScope   scope;
  } files[] = {
    { MCP_IMPORT_CLAUDE_DESKTOP,
      g_build_filename (data->home, ".config", "Claude", "claude_desktop_config.json", NULL),
      MCP_CONFIG_SCOPE_USER },
    { MCP_IMPORT_CLAUDE_CODE, g_build_filename (data->home, ".claude.json", NULL), MCP_CONFIG_SCOPE_USER },
    { MCP_IMPORT_VSCODE, g_build_filename (data->home, ".config", "Code", "User", "mcp.json", NULL),
      MCP_CONFIG_SCOPE_USER },
    { MCP_IMPORT_VSCODE_SETTINGS,
      g_build_filename (data->home, ".config", "Code", "User", "settings.json", NULL),
      MCP_CONFIG_SCOPE_USER },
    { MCP_IMPORT_VSCODE,
      data->project_dir != NULL ? g_build_filename (data->project_dir, ".vscode", "mcp.json", NULL) : NULL,
      MCP_CONFIG_SCOPE_PROJECT },
    { MCP_IMPORT_CURSOR, g_build_filename (data->home, ".cursor", "mcp.json", NULL),
      MCP_CONFIG_SCOPE_USER },
    { MCP_IMPORT_CURSOR,
      data->project_dir != NULL ? g_build_filename (data->project_dir, ".cursor", "mcp.json", NULL) : NULL,
      MCP_CONFIG_SCOPE_PROJECT },
  };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      if (error == NULL && g_cancellable_set_error_if_cancelled (cancellable, &error))
        g_debug ("Import scan cancelled");

      if (error == NULL && files[i].file != NULL)
        {
          g_autoptr(GBytes) bytes = load_file (&scan, files[i].file);

          if (bytes != NULL)
            mcp_client_import_text (&scan, files[i].format, files[i].file,
                                    g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                    files[i].scope);
        }

      g_free (files[i].file);
    }

  if (error != NULL)
    {
      g_ptr_array_unref (scan.candidates);
      g_ptr_array_unref (scan.problems);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  result = g_new0 (ScanResult, 1);
  result->candidates = scan.candidates;
  result->problems = scan.problems;
  g_task_return_pointer (task, result, (GDestroyNotify) scan_result_free);
}

void
mcp_client_import_scan_async (const char          *home,
                              const char          *project_dir,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  ScanData *data;

  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  data = g_new0 (ScanData, 1);
  data->home = g_strdup (home != NULL ? home : g_get_home_dir ());
  data->project_dir = project_dir != NULL ? g_canonicalize_filename (project_dir, NULL) : NULL;

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_client_import_scan_async);
  g_task_set_task_data (task, data, (GDestroyNotify) scan_data_free);
  g_task_run_in_thread (task, scan_thread);
}

/**
 * mcp_client_import_scan_finish:
 * @problems: (out) (optional): a GPtrArray of messages (char *), maybe empty
 */
GPtrArray *
mcp_client_import_scan_finish (GAsyncResult  *result,
                               GPtrArray    **problems,
                               GError       **error)
{
  ScanResult *scan_result;
  GPtrArray *candidates;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == mcp_client_import_scan_async, NULL);

  if (problems != NULL)
    *problems = NULL;

  scan_result = g_task_propagate_pointer (G_TASK (result), error);
  if (scan_result == NULL)
    return NULL;

  candidates = g_steal_pointer (&scan_result->candidates);
  if (problems != NULL)
    *problems = g_steal_pointer (&scan_result->problems);
  scan_result_free (scan_result);

  return candidates;
}
