/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-ide-lock"

#include "config.h"

#include "mcp-ide-lock.h"

#include <string.h>

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "mcp-error.h"
#include "mcp-json-private.h"

/* A lock file is a few hundred bytes; anything this big is not one. */
#define MAX_LOCK_FILE_SIZE (1024 * 1024)

struct _McpIdeLock
{
  GObject  parent_instance;

  /* Owned references */
  char    *path;
  char    *ide_name;
  char    *transport;
  char    *auth_token;
  GStrv    workspace_folders;

  gint64   pid;
  guint16  port;
};

G_DEFINE_FINAL_TYPE (McpIdeLock, mcp_ide_lock, G_TYPE_OBJECT)

static void
mcp_ide_lock_finalize (GObject *object)
{
  McpIdeLock *self = (McpIdeLock *)object;

  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->ide_name, g_free);
  g_clear_pointer (&self->transport, g_free);
  /* The token is a secret: do not leave it in freed memory. */
  if (self->auth_token != NULL)
    memset (self->auth_token, 0, strlen (self->auth_token));
  g_clear_pointer (&self->auth_token, g_free);
  g_clear_pointer (&self->workspace_folders, g_strfreev);

  G_OBJECT_CLASS (mcp_ide_lock_parent_class)->finalize (object);
}

static void
mcp_ide_lock_class_init (McpIdeLockClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = mcp_ide_lock_finalize;
}

static void
mcp_ide_lock_init (McpIdeLock *self)
{
}

static gpointer
invalid (GError     **error,
         const char  *path,
         const char  *member,
         const char  *what)
{
  g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
               /* Translators: %s is the lock file's path, then a JSON member name, then
                * what is wrong with it (“is missing”, “must be a string”, …). An IDE
                * lock file is what an editor writes so that Plugboard can connect to it. */
               _("IDE lock file “%s”: “%s” %s"), path, member, what);
  return NULL;
}

static gboolean
read_string (JsonObject  *object,
             const char  *path,
             const char  *member,
             gboolean     required,
             char       **out,
             GError     **error)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL)
    {
      if (required)
        {
          /* Translators: completes “IDE lock file “%s”: “%s” %s”. */
          invalid (error, path, member, _("is missing"));
          return FALSE;
        }
      return TRUE;
    }

  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      /* Translators: completes “IDE lock file “%s”: “%s” %s”. */
      invalid (error, path, member, _("must be a string"));
      return FALSE;
    }

  /* json-glib 1.6 passes bytes that are not UTF-8 on in strings (found by
   * fuzz-ide-lock); what is shown or sent is made valid */
  *out = g_utf8_make_valid (json_node_get_string (node), -1);
  return TRUE;
}

static gboolean
read_integer (JsonObject  *object,
              const char  *member,
              gint64      *out)
{
  JsonNode *node = json_object_get_member (object, member);

  if (!JSON_NODE_HOLDS_VALUE (node))
    return FALSE;

  if (json_node_get_value_type (node) == G_TYPE_INT64)
    {
      *out = json_node_get_int (node);
      return TRUE;
    }

  if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
    {
      double d = json_node_get_double (node);

      if (d == (double) (gint64) d && d >= -9e15 && d <= 9e15)
        {
          *out = (gint64) d;
          return TRUE;
        }
    }

  return FALSE;
}

static gboolean
port_from_basename (const char *basename,
                    guint16    *port)
{
  g_autofree char *digits = NULL;
  guint64 value;

  if (!g_str_has_suffix (basename, ".lock"))
    return FALSE;

  digits = g_strndup (basename, strlen (basename) - strlen (".lock"));
  if (!g_ascii_string_to_unsigned (digits, 10, 1, G_MAXUINT16, &value, NULL))
    return FALSE;

  *port = (guint16) value;
  return TRUE;
}

static gboolean
has_control_chars (const char *text)
{
  for (const char *p = text; *p != '\0'; p++)
    if ((guchar) *p < 0x20 || *p == 0x7f)
      return TRUE;
  return FALSE;
}

static McpIdeLock *
parse_lock (const char  *path,
            const char  *basename,
            const char  *contents,
            gsize        length,
            GError     **error)
{
  g_autoptr(McpIdeLock) self = g_object_new (MCP_TYPE_IDE_LOCK, NULL);
  g_autoptr(JsonNode) parsed = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GPtrArray) folders = NULL;
  JsonObject *root;
  JsonNode *node;

  self->path = g_strdup (path);

  if ((parsed = mcp_json_parse (contents, length, &local_error)) == NULL)
    {
      /* json-glib quotes the text it stopped at, which need not be UTF-8
       * (found by fuzz-ide-lock: "\ude00" in a string) */
      g_autofree char *reason = g_utf8_make_valid (local_error->message, -1);

      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("IDE lock file “%s” is not valid JSON: %s"), path, reason);
      return NULL;
    }

  node = parsed;
  if (node == NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("IDE lock file “%s” is empty"), path);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("IDE lock file “%s” must hold a JSON object"), path);
      return NULL;
    }
  root = json_node_get_object (node);

  /* workspaceFolders */
  node = json_object_get_member (root, "workspaceFolders");
  if (node == NULL)
    /* Translators: completes “IDE lock file “%s”: “%s” %s”. */
    return invalid (error, path, "workspaceFolders", _("is missing"));
  if (!JSON_NODE_HOLDS_ARRAY (node))
    /* Translators: completes “IDE lock file “%s”: “%s” %s”. */
    return invalid (error, path, "workspaceFolders", _("must be an array of strings"));
  folders = g_ptr_array_new_with_free_func (g_free);
  {
    JsonArray *array = json_node_get_array (node);

    for (guint i = 0; i < json_array_get_length (array); i++)
      {
        JsonNode *element = json_array_get_element (array, i);

        if (!JSON_NODE_HOLDS_VALUE (element) ||
            json_node_get_value_type (element) != G_TYPE_STRING)
          {
            g_autofree char *member = g_strdup_printf ("workspaceFolders[%u]", i);

            /* Translators: completes “IDE lock file “%s”: “%s” %s”. */
            return invalid (error, path, member, _("must be a string"));
          }
        g_ptr_array_add (folders, g_utf8_make_valid (json_node_get_string (element), -1));
      }
  }
  g_ptr_array_add (folders, NULL);
  self->workspace_folders = (GStrv) g_ptr_array_free (g_steal_pointer (&folders), FALSE);

  /* pid (optional) */
  if (json_object_has_member (root, "pid"))
    {
      if (!read_integer (root, "pid", &self->pid) || self->pid <= 0 || self->pid > G_MAXINT32)
        /* Translators: completes “IDE lock file “%s”: “%s” %s”. */
        return invalid (error, path, "pid", _("must be a positive integer"));
    }

  /* ideName */
  if (!read_string (root, path, "ideName", TRUE, &self->ide_name, error))
    return NULL;

  /* transport */
  if (!read_string (root, path, "transport", TRUE, &self->transport, error))
    return NULL;
  if (!g_str_equal (self->transport, "ws") && !g_str_equal (self->transport, "sse"))
    /* Translators: completes “IDE lock file “%s”: “%s” %s”. */
    return invalid (error, path, "transport", _("must be “ws” or “sse”"));

  /* authToken: never put its value in a message. */
  if (!read_string (root, path, "authToken", TRUE, &self->auth_token, error))
    return NULL;
  if (self->auth_token[0] == '\0')
    /* Translators: completes “IDE lock file “%s”: “%s” %s”. */
    return invalid (error, path, "authToken", _("is empty"));
  if (has_control_chars (self->auth_token))
    /* Translators: completes “IDE lock file “%s”: “%s” %s”. */
    return invalid (error, path, "authToken", _("holds control characters"));

  /* port, else the file name */
  if (json_object_has_member (root, "port"))
    {
      gint64 port;

      if (!read_integer (root, "port", &port) || port < 1 || port > G_MAXUINT16)
        /* Translators: completes “IDE lock file “%s”: “%s” %s”. */
        return invalid (error, path, "port", _("must be an integer from 1 to 65535"));
      self->port = (guint16) port;
    }
  else if (!port_from_basename (basename, &self->port))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   /* Translators: %s is the lock file's path; “port” is a JSON member
                    * name, keep it; <port> stands for a port number. */
                   _("IDE lock file “%s” has no “port” and its name is not “<port>.lock”"),
                   path);
      return NULL;
    }

  return g_steal_pointer (&self);
}

McpIdeLock *
mcp_ide_lock_new_from_file (GFile   *file,
                            GError **error)
{
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *basename = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;

  g_return_val_if_fail (G_IS_FILE (file), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  path = g_file_get_parse_name (file);
  basename = g_file_get_basename (file);

  info = g_file_query_info (file,
                            G_FILE_ATTRIBUTE_STANDARD_SIZE "," G_FILE_ATTRIBUTE_STANDARD_TYPE,
                            G_FILE_QUERY_INFO_NONE, NULL, &local_error);
  if (info == NULL)
    {
      g_set_error (error, local_error->domain, local_error->code,
                   _("Could not read IDE lock file “%s”: %s"), path, local_error->message);
      return NULL;
    }

  if (g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("IDE lock file “%s” is not a regular file"), path);
      return NULL;
    }

  if (g_file_info_get_size (info) > MAX_LOCK_FILE_SIZE)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("IDE lock file “%s” is too large (over 1 MiB) to be a lock file"), path);
      return NULL;
    }

  if (!g_file_load_contents (file, NULL, &contents, &length, NULL, &local_error))
    {
      g_set_error (error, local_error->domain, local_error->code,
                   _("Could not read IDE lock file “%s”: %s"), path, local_error->message);
      return NULL;
    }

  if (length > MAX_LOCK_FILE_SIZE)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_FAILED,
                   _("IDE lock file “%s” is too large (over 1 MiB) to be a lock file"), path);
      return NULL;
    }

  return parse_lock (path, basename, contents, length, error);
}

typedef struct
{
  McpIdeLock *lock;
  guint64     mtime;
  char       *name;
} Entry;

static void
entry_clear (gpointer data)
{
  Entry *entry = data;

  g_clear_object (&entry->lock);
  g_clear_pointer (&entry->name, g_free);
}

static int
compare_entries (gconstpointer a,
                 gconstpointer b)
{
  const Entry *ea = a;
  const Entry *eb = b;

  if (ea->mtime != eb->mtime)
    return ea->mtime > eb->mtime ? -1 : 1;
  return g_strcmp0 (ea->name, eb->name);
}

GPtrArray *
mcp_ide_lock_list (GFile   *directory,
                   GError **error)
{
  g_autoptr(GFileEnumerator) enumerator = NULL;
  g_autoptr(GArray) entries = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *dir_path = NULL;
  GPtrArray *locks;

  g_return_val_if_fail (G_IS_FILE (directory), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  dir_path = g_file_get_parse_name (directory);
  enumerator = g_file_enumerate_children (directory,
                                          G_FILE_ATTRIBUTE_STANDARD_NAME ","
                                          G_FILE_ATTRIBUTE_STANDARD_TYPE ","
                                          G_FILE_ATTRIBUTE_TIME_MODIFIED ","
                                          G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC,
                                          G_FILE_QUERY_INFO_NONE, NULL, &local_error);
  if (enumerator == NULL)
    {
      /* No directory: no IDE has ever written a lock file. */
      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        return g_ptr_array_new_with_free_func (g_object_unref);

      g_set_error (error, local_error->domain, local_error->code,
                   _("Could not read the IDE lock directory “%s”: %s"),
                   dir_path, local_error->message);
      return NULL;
    }

  entries = g_array_new (FALSE, TRUE, sizeof (Entry));
  g_array_set_clear_func (entries, entry_clear);

  for (;;)
    {
      g_autoptr(GError) file_error = NULL;
      g_autoptr(GFile) child = NULL;
      GFileInfo *info = NULL;
      const char *name;
      Entry entry = { 0 };

      if (!g_file_enumerator_iterate (enumerator, &info, NULL, NULL, &local_error))
        {
          g_set_error (error, local_error->domain, local_error->code,
                       _("Could not read the IDE lock directory “%s”: %s"),
                       dir_path, local_error->message);
          return NULL;
        }
      if (info == NULL)
        break;

      name = g_file_info_get_name (info);
      if (!g_str_has_suffix (name, ".lock") || name[0] == '.')
        continue;

      child = g_file_get_child (directory, name);
      entry.lock = mcp_ide_lock_new_from_file (child, &file_error);
      if (entry.lock == NULL)
        {
          g_debug ("Skipping IDE lock file: %s", file_error->message);
          continue;
        }

      entry.mtime = g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED) * G_USEC_PER_SEC +
                    g_file_info_get_attribute_uint32 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC);
      entry.name = g_strdup (name);
      g_array_append_val (entries, entry);
    }

  g_array_sort (entries, compare_entries);

  locks = g_ptr_array_new_full (entries->len, g_object_unref);
  for (guint i = 0; i < entries->len; i++)
    g_ptr_array_add (locks, g_steal_pointer (&g_array_index (entries, Entry, i).lock));

  return locks;
}

guint16
mcp_ide_lock_get_port (McpIdeLock *self)
{
  g_return_val_if_fail (MCP_IS_IDE_LOCK (self), 0);

  return self->port;
}

const char *
mcp_ide_lock_get_ide_name (McpIdeLock *self)
{
  g_return_val_if_fail (MCP_IS_IDE_LOCK (self), NULL);

  return self->ide_name;
}

const char *
mcp_ide_lock_get_transport (McpIdeLock *self)
{
  g_return_val_if_fail (MCP_IS_IDE_LOCK (self), NULL);

  return self->transport;
}

const char *
mcp_ide_lock_get_auth_token (McpIdeLock *self)
{
  g_return_val_if_fail (MCP_IS_IDE_LOCK (self), NULL);

  return self->auth_token;
}

const char * const *
mcp_ide_lock_get_workspace_folders (McpIdeLock *self)
{
  g_return_val_if_fail (MCP_IS_IDE_LOCK (self), NULL);

  return (const char * const *) self->workspace_folders;
}

char *
mcp_ide_lock_dup_url (McpIdeLock *self)
{
  g_return_val_if_fail (MCP_IS_IDE_LOCK (self), NULL);

  if (g_str_equal (self->transport, "sse"))
    return g_strdup_printf ("http://127.0.0.1:%u/sse", self->port);

  return g_strdup_printf ("ws://127.0.0.1:%u", self->port);
}

GStrv
mcp_ide_lock_dup_headers (McpIdeLock *self)
{
  GStrv headers;

  g_return_val_if_fail (MCP_IS_IDE_LOCK (self), NULL);

  headers = g_new0 (char *, 2);
  headers[0] = g_strdup_printf (MCP_IDE_AUTH_HEADER ": %s", self->auth_token);

  return headers;
}
