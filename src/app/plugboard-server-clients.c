/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-server-clients"

/* PlugboardServerClients: a server's place in the other clients' files,
 * and what its own client's file has that Plugboard does not use. Made
 * anew from each scan: a handful of rows. */

#include "config.h"

#include "plugboard-server-clients.h"

#include <glib/gi18n.h>

#include "plugboard-common.h"

struct _PlugboardServerClients
{
  AdwBin         parent_instance;

  /* Owned references */
  GPtrArray     *summaries;
  char          *name;
  McpClientKind  current;
};

G_DEFINE_FINAL_TYPE (PlugboardServerClients, plugboard_server_clients, ADW_TYPE_BIN)

static const McpClientServer *
find_own (GPtrArray     *found,
          McpClientKind  current)
{
  for (guint i = 0; i < found->len; i++)
    {
      const McpClientServer *server = g_ptr_array_index (found, i);

      if (server->kind == current)
        return server;
    }

  return NULL;
}

static GtkWidget *
notes_group (const McpClientServer *own)
{
  g_autofree char *description = NULL;
  GtkWidget *group;

  if (own == NULL || own->kind == MCP_CLIENT_KIND_PLUGBOARD ||
      own->notes == NULL || own->notes[0] == NULL)
    return NULL;

  group = adw_preferences_group_new ();
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _("Not Used by Plugboard"));
  /* Translators: %s is an MCP client's name ("Claude Code") */
  description = g_strdup_printf (_("What %s’s file has for this server that Plugboard does not use. It is kept as it is."),
                                 mcp_client_kind_get_display_name (own->kind));
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group), description);

  for (guint i = 0; own->notes[i] != NULL; i++)
    {
      GtkWidget *row = adw_action_row_new ();

      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), own->notes[i]);
      adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 0);
      gtk_widget_add_css_class (row, "client-note");
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);
    }

  return group;
}

static GtkWidget *
other_row (const McpClientServer *server,
           const McpClientServer *own,
           const char            *name)
{
  g_autofree char *path = plugboard_dup_display_path (server->file);
  g_autofree char *subtitle = NULL;
  g_autofree char *open_label = NULL;
  gboolean same = own != NULL &&
                  json_object_equal (own->entry, server->entry);
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *badge;
  GtkWidget *button;

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row),
                                 mcp_client_kind_get_display_name (server->kind));
  /* Translators: a scope ("User") and a settings file's path */
  subtitle = g_strdup_printf (_("%s · %s"), plugboard_scope_label (server->scope), path);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 2);

  badge = gtk_label_new (same ? _("Same") : _("Differs"));
  gtk_widget_add_css_class (badge, "caption");
  gtk_widget_add_css_class (badge, same ? "dim-label" : "warning");
  gtk_widget_set_valign (badge, GTK_ALIGN_CENTER);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), badge);

  button = gtk_button_new_with_mnemonic (_("_Open"));
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  /* Translators: %s is an MCP client's name */
  open_label = g_strdup_printf (_("Open in %s"), mcp_client_kind_get_display_name (server->kind));
  gtk_widget_set_tooltip_text (button, open_label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, open_label,
                                  -1);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "win.open-client-server");
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (button),
                                          g_variant_new ("(ss)",
                                                         mcp_client_kind_to_id (server->kind),
                                                         name));
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);

  return row;
}

static GtkWidget *
others_group (GPtrArray     *found,
              McpClientKind  current,
              const char    *name,
              gboolean       scanned)
{
  const McpClientServer *own = find_own (found, current);
  GtkWidget *group = adw_preferences_group_new ();
  GtkWidget *copy_button;
  guint n_rows = 0;

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _("In Other Clients"));

  copy_button = gtk_button_new_with_mnemonic (_("_Copy to Other Clients…"));
  gtk_widget_add_css_class (copy_button, "flat");
  gtk_widget_set_valign (copy_button, GTK_ALIGN_CENTER);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (copy_button), "win.copy-server");
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (copy_button),
                                          g_variant_new_string (name));
  adw_preferences_group_set_header_suffix (ADW_PREFERENCES_GROUP (group), copy_button);

  for (guint i = 0; i < found->len; i++)
    {
      const McpClientServer *server = g_ptr_array_index (found, i);

      if (server->kind == current)
        continue;
      adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), other_row (server, own, name));
      n_rows++;
    }

  if (n_rows == 0)
    adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group),
                                           scanned ? _("No other client on this computer has a server of this name.")
                                                   : _("Looking through the other clients’ settings…"));

  return group;
}

void
plugboard_server_clients_set (PlugboardServerClients *self,
                              GPtrArray              *summaries,
                              McpClientKind           current,
                              const char             *name)
{
  g_autoptr(GPtrArray) found = NULL;
  gboolean differ = FALSE;
  GtkWidget *box;
  GtkWidget *notes;

  g_return_if_fail (PLUGBOARD_IS_SERVER_CLIENTS (self));

  if (summaries != self->summaries)
    {
      g_clear_pointer (&self->summaries, g_ptr_array_unref);
      self->summaries = summaries != NULL ? g_ptr_array_ref (summaries) : NULL;
    }
  g_free (self->name);
  self->name = g_strdup (name);
  self->current = current;

  if (name == NULL)
    {
      adw_bin_set_child (ADW_BIN (self), NULL);
      return;
    }

  found = summaries != NULL ? mcp_clients_find_server (summaries, name, &differ)
                            : g_ptr_array_new ();
  if (found == NULL)
    found = g_ptr_array_new ();

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 24);
  notes = notes_group (find_own (found, current));
  if (notes != NULL)
    gtk_box_append (GTK_BOX (box), notes);
  gtk_box_append (GTK_BOX (box), others_group (found, current, name, summaries != NULL));
  adw_bin_set_child (ADW_BIN (self), box);
}

static void
plugboard_server_clients_finalize (GObject *object)
{
  PlugboardServerClients *self = PLUGBOARD_SERVER_CLIENTS (object);

  g_clear_pointer (&self->summaries, g_ptr_array_unref);
  g_clear_pointer (&self->name, g_free);

  G_OBJECT_CLASS (plugboard_server_clients_parent_class)->finalize (object);
}

static void
plugboard_server_clients_class_init (PlugboardServerClientsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = plugboard_server_clients_finalize;
}

static void
plugboard_server_clients_init (PlugboardServerClients *self)
{
}

GtkWidget *
plugboard_server_clients_new (void)
{
  return g_object_new (PLUGBOARD_TYPE_SERVER_CLIENTS, NULL);
}
