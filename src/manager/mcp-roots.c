/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "mcp-roots.h"

#include "mcp-error.h"

/* STUB: the contract only; the implementation is being written. */

struct _McpRoots
{
  GObject  parent_instance;
  char    *project_dir;
};

G_DEFINE_FINAL_TYPE (McpRoots, mcp_roots, G_TYPE_OBJECT)

static void
mcp_roots_finalize (GObject *object)
{
  g_free (MCP_ROOTS (object)->project_dir);
  G_OBJECT_CLASS (mcp_roots_parent_class)->finalize (object);
}

static void
mcp_roots_class_init (McpRootsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mcp_roots_finalize;
  g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void mcp_roots_init (McpRoots *self) { }

McpRoots *
mcp_roots_new (const char *project_dir)
{
  McpRoots *self = g_object_new (MCP_TYPE_ROOTS, NULL);

  self->project_dir = g_strdup (project_dir);
  return self;
}

const char *mcp_roots_get_project_dir (McpRoots *self) { return self->project_dir; }
JsonArray *mcp_roots_dup_json (McpRoots *self, const char *server) { return json_array_new (); }
GStrv mcp_roots_dup_added (McpRoots *self, const char *server) { return g_new0 (char *, 1); }

gboolean
mcp_roots_add (McpRoots *self, const char *server, const char *path, GError **error)
{
  g_set_error (error, MCP_ERROR, MCP_ERROR_UNSUPPORTED, "Not implemented yet");
  return FALSE;
}

gboolean
mcp_roots_remove (McpRoots *self, const char *server, const char *path, GError **error)
{
  g_set_error (error, MCP_ERROR, MCP_ERROR_UNSUPPORTED, "Not implemented yet");
  return FALSE;
}
