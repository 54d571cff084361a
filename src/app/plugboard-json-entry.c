/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-json-entry"

#include "config.h"

#include "plugboard-json-entry.h"

/* PlugboardJsonEntry: a row of the result view's JSON tree, and the tree
 * model that makes a row's children when it is expanded. */

struct _PlugboardJsonEntry
{
  GObject   parent_instance;
  char     *key;
  JsonNode *node;
};

G_DEFINE_FINAL_TYPE (PlugboardJsonEntry, plugboard_json_entry, G_TYPE_OBJECT)

static void
plugboard_json_entry_finalize (GObject *object)
{
  PlugboardJsonEntry *self = (PlugboardJsonEntry *) object;

  g_free (self->key);
  g_clear_pointer (&self->node, json_node_unref);

  G_OBJECT_CLASS (plugboard_json_entry_parent_class)->finalize (object);
}

static void
plugboard_json_entry_class_init (PlugboardJsonEntryClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = plugboard_json_entry_finalize;
}

static void
plugboard_json_entry_init (PlugboardJsonEntry *self)
{
}

static PlugboardJsonEntry *
json_entry_new (const char *key,
                JsonNode   *node)
{
  PlugboardJsonEntry *entry = g_object_new (PLUGBOARD_TYPE_JSON_ENTRY, NULL);

  entry->key = g_strdup (key);
  entry->node = json_node_ref (node);
  return entry;
}

const char *
plugboard_json_entry_get_key (PlugboardJsonEntry *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_JSON_ENTRY (self), NULL);

  return self->key;
}

JsonNode *
plugboard_json_entry_get_node (PlugboardJsonEntry *self)
{
  g_return_val_if_fail (PLUGBOARD_IS_JSON_ENTRY (self), NULL);

  return self->node;
}

/* The children of an object or array, made when a row is expanded. */
static GListModel *
json_children (JsonNode *node)
{
  GListStore *store;

  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *object = json_node_get_object (node);
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;

      if (json_object_get_size (object) == 0)
        return NULL;
      store = g_list_store_new (PLUGBOARD_TYPE_JSON_ENTRY);
      json_object_iter_init (&iter, object);
      while (json_object_iter_next (&iter, &name, &member))
        {
          g_autoptr(PlugboardJsonEntry) entry = json_entry_new (name, member);

          g_list_store_append (store, entry);
        }
      return G_LIST_MODEL (store);
    }

  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);
      guint length = json_array_get_length (array);
      g_autofree gpointer *entries = NULL;

      if (length == 0)
        return NULL;
      store = g_list_store_new (PLUGBOARD_TYPE_JSON_ENTRY);
      entries = g_new (gpointer, length);
      for (guint i = 0; i < length; i++)
        {
          char key[32];

          g_snprintf (key, sizeof key, "%u", i);
          entries[i] = json_entry_new (key, json_array_get_element (array, i));
        }
      g_list_store_splice (store, 0, 0, entries, length);
      for (guint i = 0; i < length; i++)
        g_object_unref (entries[i]);
      return G_LIST_MODEL (store);
    }

  return NULL;
}

static GListModel *
create_json_child_model (gpointer item,
                         gpointer user_data)
{
  return json_children (PLUGBOARD_JSON_ENTRY (item)->node);
}

GtkTreeListModel *
plugboard_json_entry_tree_new (JsonNode *node)
{
  GListModel *root;

  g_return_val_if_fail (node != NULL, NULL);

  root = json_children (node);
  if (root == NULL)
    return NULL;
  return gtk_tree_list_model_new (root, FALSE, FALSE, create_json_child_model, NULL, NULL);
}
