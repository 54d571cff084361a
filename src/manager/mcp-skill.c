/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "mcp-skill"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-skill.h"
#include "mcp-skill-private.h"

#include "mcp-error.h"
#include "mcp-server-info.h"

/* McpSkill: one entry of skills/list or skills/get (SEP-2640), checked
 * when it is read, and the listing itself (every page, bounded). Loading
 * and verifying are in mcp-skill-load.c and mcp-skill-verify.c. */

typedef struct
{
  char   *uri;
  char   *path;    /* under the skill's root */
  char   *digest;
  gint64  size;
} SkillFile;

struct _McpSkill
{
  GObject     parent_instance;

  char       *uri;
  JsonObject *entry;
  JsonObject *frontmatter;
  GPtrArray  *files;    /* SkillFile, the entry's order */
  gboolean    dynamic;
};

G_DEFINE_FINAL_TYPE (McpSkill, mcp_skill, G_TYPE_OBJECT)

static void
skill_file_free (gpointer data)
{
  SkillFile *file = data;

  g_free (file->uri);
  g_free (file->path);
  g_free (file->digest);
  g_free (file);
}

static void
mcp_skill_finalize (GObject *object)
{
  McpSkill *self = MCP_SKILL (object);

  g_free (self->uri);
  g_clear_pointer (&self->entry, json_object_unref);
  g_clear_pointer (&self->frontmatter, json_object_unref);
  g_clear_pointer (&self->files, g_ptr_array_unref);

  G_OBJECT_CLASS (mcp_skill_parent_class)->finalize (object);
}

static void
mcp_skill_class_init (McpSkillClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = mcp_skill_finalize;
}

static void
mcp_skill_init (McpSkill *self)
{
  self->files = g_ptr_array_new_with_free_func (skill_file_free);
}

guint
mcp_skill_json_depth (JsonNode *node)
{
  guint deepest = 0;

  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObjectIter iter;
      JsonNode *member;

      json_object_iter_init (&iter, json_node_get_object (node));
      while (json_object_iter_next (&iter, NULL, &member))
        deepest = MAX (deepest, mcp_skill_json_depth (member));
      return deepest + 1;
    }
  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        deepest = MAX (deepest, mcp_skill_json_depth (json_array_get_element (array, i)));
      return deepest + 1;
    }
  return 0;
}

static const char *
string_member (JsonObject *object,
               const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node)
      || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static gboolean
uri_is_acceptable (const char *uri)
{
  if (uri == NULL || *uri == '\0' || strlen (uri) > MCP_SKILL_MAX_URI_LENGTH)
    return FALSE;
  for (const char *p = uri; *p != '\0'; p++)
    if ((guchar) *p < 0x20 || *p == 0x7f)
      return FALSE;
  return g_utf8_validate (uri, -1, NULL);
}

/* A path under the skill's root that cannot leave it: no empty, "." or
 * ".." segment, no backslash. */
static gboolean
file_path_is_acceptable (const char *path)
{
  g_auto(GStrv) segments = NULL;

  if (*path == '\0' || strchr (path, '\\') != NULL)
    return FALSE;
  segments = g_strsplit (path, "/", -1);
  for (guint i = 0; segments[i] != NULL; i++)
    if (*segments[i] == '\0' || strcmp (segments[i], ".") == 0 || strcmp (segments[i], "..") == 0)
      return FALSE;
  return TRUE;
}

McpSkill *
mcp_skill_new_from_json (JsonObject  *entry,
                         GError     **error)
{
  g_autoptr(McpSkill) self = g_object_new (MCP_TYPE_SKILL, NULL);
  g_autofree char *root = NULL;
  g_autofree char *last = NULL;
  JsonNode *frontmatter;
  JsonNode *resources;
  const char *uri;
  const char *name;
  gboolean has_skill_md = FALSE;

  uri = string_member (entry, "uri");
  if (!uri_is_acceptable (uri))
    {
      g_set_error_literal (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("uri must be a non-empty string without control characters"));
      return NULL;
    }
  if (!g_str_has_suffix (uri, "/SKILL.md"))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("uri %s does not name a SKILL.md"), uri);
      return NULL;
    }
  root = g_strndup (uri, strlen (uri) - strlen ("/SKILL.md"));
  last = g_path_get_basename (root);

  frontmatter = json_object_get_member (entry, "frontmatter");
  if (frontmatter == NULL || !JSON_NODE_HOLDS_OBJECT (frontmatter))
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("%s: frontmatter must be an object"), uri);
      return NULL;
    }
  if (mcp_skill_json_depth (frontmatter) > MCP_SKILL_MAX_FRONTMATTER_DEPTH)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("%s: frontmatter is nested more than %d levels deep"),
                   uri, MCP_SKILL_MAX_FRONTMATTER_DEPTH);
      return NULL;
    }
  name = string_member (json_node_get_object (frontmatter), "name");
  if (name == NULL || string_member (json_node_get_object (frontmatter), "description") == NULL)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("%s: frontmatter.name and frontmatter.description must be strings"), uri);
      return NULL;
    }
  /* The extension: the skill path's last segment is the skill's name. */
  if (strcmp (name, last) != 0)
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("%s: frontmatter.name “%s” is not the last segment of the URI"), uri, name);
      return NULL;
    }

  resources = json_object_get_member (entry, "resources");
  if (resources != NULL && JSON_NODE_HOLDS_VALUE (resources)
      && g_strcmp0 (string_member (entry, "resources"), "dynamic") == 0)
    {
      self->dynamic = TRUE;
    }
  else if (resources != NULL && JSON_NODE_HOLDS_ARRAY (resources))
    {
      JsonArray *array = json_node_get_array (resources);
      g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
      guint n = json_array_get_length (array);

      if (n > MCP_SKILL_MAX_FILES)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       _("%s: resources lists %u files, more than %d"), uri, n, MCP_SKILL_MAX_FILES);
          return NULL;
        }
      for (guint i = 0; i < n; i++)
        {
          JsonNode *item = json_array_get_element (array, i);
          JsonObject *object;
          JsonNode *size_node;
          SkillFile *file;
          const char *file_uri;
          const char *digest;
          gint64 size;

          if (!JSON_NODE_HOLDS_OBJECT (item))
            {
              g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("%s: resources[%u] must be an object"), uri, i);
              return NULL;
            }
          object = json_node_get_object (item);
          file_uri = string_member (object, "uri");
          digest = string_member (object, "digest");
          size_node = json_object_get_member (object, "size");
          if (!uri_is_acceptable (file_uri))
            {
              g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("%s: resources[%u].uri must be a non-empty string without control characters"),
                           uri, i);
              return NULL;
            }
          if (strcmp (file_uri, uri) != 0
              && (!g_str_has_prefix (file_uri, root) || file_uri[strlen (root)] != '/'
                  || !file_path_is_acceptable (file_uri + strlen (root) + 1)))
            {
              g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("%s: resources[%u].uri %s is not a file in the skill's directory"),
                           uri, i, file_uri);
              return NULL;
            }
          if (!g_hash_table_add (seen, (gpointer) file_uri))
            {
              g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("%s: resources lists %s twice"), uri, file_uri);
              return NULL;
            }
          if (!mcp_skill_digest_is_valid (digest))
            {
              g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("%s: resources[%u].digest must be “sha256:” and 64 lowercase hexadecimal digits"),
                           uri, i);
              return NULL;
            }
          if (size_node == NULL || !JSON_NODE_HOLDS_VALUE (size_node)
              || json_node_get_value_type (size_node) != G_TYPE_INT64
              || (size = json_node_get_int (size_node)) < 0)
            {
              g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("%s: resources[%u].size must be a whole number of bytes"), uri, i);
              return NULL;
            }

          file = g_new0 (SkillFile, 1);
          file->uri = g_strdup (file_uri);
          file->path = g_strdup (strcmp (file_uri, uri) == 0 ? "SKILL.md" : file_uri + strlen (root) + 1);
          file->digest = g_strdup (digest);
          file->size = size;
          g_ptr_array_add (self->files, file);
          has_skill_md |= strcmp (file_uri, uri) == 0;
        }
      if (!has_skill_md)
        {
          g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                       _("%s: resources does not list the SKILL.md itself"), uri);
          return NULL;
        }
    }
  else
    {
      g_set_error (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                   _("%s: resources must be an array or “dynamic”"), uri);
      return NULL;
    }

  self->uri = g_strdup (uri);
  self->entry = json_object_ref (entry);
  self->frontmatter = json_object_ref (json_node_get_object (frontmatter));
  json_object_seal (self->entry);

  return g_steal_pointer (&self);
}

const char *
mcp_skill_get_uri (McpSkill *self)
{
  g_return_val_if_fail (MCP_IS_SKILL (self), NULL);

  return self->uri;
}

const char *
mcp_skill_get_name (McpSkill *self)
{
  g_return_val_if_fail (MCP_IS_SKILL (self), NULL);

  return string_member (self->frontmatter, "name");
}

const char *
mcp_skill_get_description (McpSkill *self)
{
  g_return_val_if_fail (MCP_IS_SKILL (self), NULL);

  return string_member (self->frontmatter, "description");
}

JsonObject *
mcp_skill_get_frontmatter (McpSkill *self)
{
  g_return_val_if_fail (MCP_IS_SKILL (self), NULL);

  return self->frontmatter;
}

JsonObject *
mcp_skill_get_entry (McpSkill *self)
{
  g_return_val_if_fail (MCP_IS_SKILL (self), NULL);

  return self->entry;
}

gboolean
mcp_skill_is_dynamic (McpSkill *self)
{
  g_return_val_if_fail (MCP_IS_SKILL (self), FALSE);

  return self->dynamic;
}

GStrv
mcp_skill_get_file_uris (McpSkill *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (MCP_IS_SKILL (self), NULL);

  for (guint i = 0; i < self->files->len; i++)
    g_strv_builder_add (builder, ((SkillFile *) g_ptr_array_index (self->files, i))->uri);
  return g_strv_builder_end (builder);
}

static SkillFile *
find_file (McpSkill   *self,
           const char *uri)
{
  for (guint i = 0; i < self->files->len; i++)
    {
      SkillFile *file = g_ptr_array_index (self->files, i);

      if (strcmp (file->uri, uri) == 0)
        return file;
    }
  return NULL;
}

gboolean
mcp_skill_get_file_info (McpSkill    *self,
                         const char  *uri,
                         const char **digest,
                         gint64      *size)
{
  SkillFile *file;

  g_return_val_if_fail (MCP_IS_SKILL (self), FALSE);
  g_return_val_if_fail (uri != NULL, FALSE);

  file = find_file (self, uri);
  if (file == NULL)
    return FALSE;
  if (digest != NULL)
    *digest = file->digest;
  if (size != NULL)
    *size = file->size;
  return TRUE;
}

const char *
mcp_skill_get_file_path (McpSkill   *self,
                         const char *uri)
{
  SkillFile *file;

  g_return_val_if_fail (MCP_IS_SKILL (self), NULL);
  g_return_val_if_fail (uri != NULL, NULL);

  file = find_file (self, uri);
  return file != NULL ? file->path : NULL;
}

/* ------------------------------------------------------------------------ */
/* skills/list, skills/get                                                  */

gboolean
mcp_skills_server_supports (McpClient *client)
{
  McpServerInfo *info;
  JsonObject *capabilities;
  JsonNode *extensions;

  g_return_val_if_fail (MCP_IS_CLIENT (client), FALSE);

  info = mcp_client_get_server_info (client);
  if (info == NULL || (capabilities = mcp_server_info_get_capabilities (info)) == NULL)
    return FALSE;
  extensions = json_object_get_member (capabilities, "extensions");
  if (extensions == NULL || !JSON_NODE_HOLDS_OBJECT (extensions))
    return FALSE;
  return json_object_has_member (json_node_get_object (extensions), MCP_SKILLS_EXTENSION);
}

static gboolean
check_supported (McpClient *client,
                 GTask     *task)
{
  if (mcp_client_get_server_info (client) == NULL)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_NOT_CONNECTED,
                               _("The server is not connected"));
      return FALSE;
    }
  if (!mcp_skills_server_supports (client))
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_UNSUPPORTED,
                               _("The server does not offer skills (it does not declare the %s extension)"),
                               MCP_SKILLS_EXTENSION);
      return FALSE;
    }
  return TRUE;
}

typedef struct
{
  GPtrArray  *skills;
  GHashTable *uris;
  char       *cursor;
  guint       pages;
} ListState;

static void
list_state_free (ListState *state)
{
  g_clear_pointer (&state->skills, g_ptr_array_unref);
  g_clear_pointer (&state->uris, g_hash_table_unref);
  g_free (state->cursor);
  g_free (state);
}

static void list_next_page (GTask *task);

static void
warn (McpClient  *client,
      const char *message)
{
  g_debug ("%s", message);
  g_signal_emit_by_name (client, "warning", message);
}

static void
on_list_page_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  McpClient *client = MCP_CLIENT (object);
  g_autoptr(GTask) task = user_data;
  ListState *state = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  JsonObject *page;
  JsonNode *skills;
  JsonNode *next;
  JsonArray *array;

  node = mcp_client_request_finish (client, result, &error);
  if (node == NULL)
    {
      g_prefix_error (&error, _("skills/list failed: "));
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (!JSON_NODE_HOLDS_OBJECT (node)
      || (skills = json_object_get_member (page = json_node_get_object (node), "skills")) == NULL
      || !JSON_NODE_HOLDS_ARRAY (skills))
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                               _("skills/list: the result's skills must be an array"));
      return;
    }
  state->pages++;

  array = json_node_get_array (skills);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *item = json_array_get_element (array, i);
      g_autoptr(GError) local_error = NULL;
      g_autoptr(McpSkill) skill = NULL;

      if (state->skills->len >= MCP_SKILL_MAX_SKILLS)
        {
          g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                   _("skills/list: the server lists more than %d skills"),
                                   MCP_SKILL_MAX_SKILLS);
          return;
        }
      if (!JSON_NODE_HOLDS_OBJECT (item))
        local_error = g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                                   _("the entry must be an object"));
      else
        skill = mcp_skill_new_from_json (json_node_get_object (item), &local_error);

      if (skill == NULL)
        {
          g_autofree char *message = g_strdup_printf (_("skills/list: page %u, skills[%u] left out: %s"),
                                                      state->pages, i, local_error->message);

          warn (client, message);
          continue;
        }
      if (!g_hash_table_add (state->uris, g_strdup (skill->uri)))
        {
          g_autofree char *message = g_strdup_printf (_("skills/list: %s is listed twice; the second entry is left out"),
                                                      skill->uri);

          warn (client, message);
          continue;
        }
      g_ptr_array_add (state->skills, g_steal_pointer (&skill));
    }

  next = json_object_get_member (page, "nextCursor");
  if (next == NULL || JSON_NODE_HOLDS_NULL (next))
    {
      g_task_return_pointer (task, g_steal_pointer (&state->skills), (GDestroyNotify) g_ptr_array_unref);
      return;
    }
  if (!JSON_NODE_HOLDS_VALUE (next) || json_node_get_value_type (next) != G_TYPE_STRING
      || g_strcmp0 (json_node_get_string (next), state->cursor) == 0)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                               _("skills/list: nextCursor must be a string other than the cursor sent"));
      return;
    }
  if (state->pages >= MCP_SKILL_MAX_PAGES)
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                               _("skills/list: the server sent more than %d pages"), MCP_SKILL_MAX_PAGES);
      return;
    }
  g_free (state->cursor);
  state->cursor = g_strdup (json_node_get_string (next));
  list_next_page (g_steal_pointer (&task));
}

static void
list_next_page (GTask *task)
{
  ListState *state = g_task_get_task_data (task);
  McpClient *client = g_task_get_source_object (task);
  g_autoptr(JsonObject) params = json_object_new ();

  if (state->cursor != NULL)
    json_object_set_string_member (params, "cursor", state->cursor);
  mcp_client_request_async (client, "skills/list", params, NULL,
                            g_task_get_cancellable (task), on_list_page_cb, task);
}

void
mcp_skills_list_async (McpClient           *client,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  ListState *state;

  g_return_if_fail (MCP_IS_CLIENT (client));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (client, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_skills_list_async);
  if (!check_supported (client, task))
    return;

  state = g_new0 (ListState, 1);
  state->skills = g_ptr_array_new_with_free_func (g_object_unref);
  state->uris = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_task_set_task_data (task, state, (GDestroyNotify) list_state_free);
  list_next_page (g_steal_pointer (&task));
}

GPtrArray *
mcp_skills_list_finish (McpClient     *client,
                        GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, client), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
on_get_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  McpClient *client = MCP_CLIENT (object);
  g_autoptr(GTask) task = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  const char *uri = g_task_get_task_data (task);
  JsonNode *entry;
  McpSkill *skill;

  node = mcp_client_request_finish (client, result, &error);
  if (node == NULL)
    {
      g_prefix_error (&error, _("skills/get of %s failed: "), uri);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (!JSON_NODE_HOLDS_OBJECT (node)
      || (entry = json_object_get_member (json_node_get_object (node), "skill")) == NULL
      || !JSON_NODE_HOLDS_OBJECT (entry))
    {
      g_task_return_new_error (task, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                               _("skills/get of %s: the result's skill must be an object"), uri);
      return;
    }
  skill = mcp_skill_new_from_json (json_node_get_object (entry), &error);
  if (skill != NULL && strcmp (skill->uri, uri) != 0)
    {
      g_clear_object (&skill);
      error = g_error_new (MCP_ERROR, MCP_ERROR_INVALID_MESSAGE,
                           _("the entry is for another skill"));
    }
  if (skill == NULL)
    {
      g_prefix_error (&error, _("skills/get of %s: "), uri);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_task_return_pointer (task, skill, g_object_unref);
}

void
mcp_skill_get_async (McpClient           *client,
                     const char          *uri,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(JsonObject) params = NULL;

  g_return_if_fail (MCP_IS_CLIENT (client));
  g_return_if_fail (uri != NULL);

  task = g_task_new (client, cancellable, callback, user_data);
  g_task_set_source_tag (task, mcp_skill_get_async);
  g_task_set_task_data (task, g_strdup (uri), g_free);
  if (!check_supported (client, task))
    return;

  params = json_object_new ();
  json_object_set_string_member (params, "uri", uri);
  mcp_client_request_async (client, "skills/get", params, NULL, cancellable,
                            on_get_cb, g_steal_pointer (&task));
}

McpSkill *
mcp_skill_get_finish (McpClient     *client,
                      GAsyncResult  *result,
                      GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, client), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
