/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-skills-view"

#include "config.h"

#include "plugboard-skills-view.h"

#include <string.h>

#include <glib/gi18n.h>

#include "mcp-error.h"
#include "mcp-server-info.h"
#include "mcp-skill.h"
#include "plugboard-markdown.h"

struct _PlugboardSkillsView
{
  PlugboardListDetail   parent_instance;

  /* Template widgets */
  GtkLabel             *title_label;
  GtkLabel             *uri_label;
  GtkLabel             *description_label;
  GtkLabel             *frontmatter_label;
  GtkLabel             *files_title_label;
  GtkListBox           *files_list;
  GtkButton            *load_button;
  GtkButton            *save_button;
  GtkSpinner           *load_spinner;
  GtkLabel             *saved_label;
  GtkLabel             *error_label;
  GtkStack             *content_stack;
  GtkLabel             *content_title_label;
  GtkLabel             *content_label;
  AdwStatusPage        *failed_page;

  /* Owned references */
  GListStore           *skills;            /* McpSkill of the connection's session */
  McpClient            *listed_for;        /* the client the list is of */
  GCancellable         *list_cancellable;
  GCancellable         *action_cancellable; /* a load, a file or a save */
  GtkFileChooserNative *chooser;
};

G_DEFINE_FINAL_TYPE (PlugboardSkillsView, plugboard_skills_view, PLUGBOARD_TYPE_LIST_DETAIL)

static McpSkill *
selected_skill (PlugboardSkillsView *self)
{
  GObject *item = plugboard_list_detail_get_selected (PLUGBOARD_LIST_DETAIL (self));

  return item != NULL ? MCP_SKILL (item) : NULL;
}

static void
update_action (PlugboardSkillsView *self)
{
  McpSkill *skill = selected_skill (self);
  gboolean dynamic = skill != NULL && mcp_skill_is_dynamic (skill);

  plugboard_list_detail_update_action (PLUGBOARD_LIST_DETAIL (self), self->action_cancellable != NULL,
                                       dynamic ? _("Its entry lists no digests: its content cannot be verified")
                                               : NULL);
  gtk_widget_set_sensitive (GTK_WIDGET (self->save_button),
                            gtk_widget_get_sensitive (GTK_WIDGET (self->load_button)));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->save_button),
                               gtk_widget_get_tooltip_text (GTK_WIDGET (self->load_button)));
  gtk_widget_set_sensitive (GTK_WIDGET (self->files_list), self->action_cancellable == NULL && !dynamic);
}

static void
stop_action (PlugboardSkillsView *self)
{
  g_cancellable_cancel (self->action_cancellable);
  g_clear_object (&self->action_cancellable);
}

/* ------------------------------------------------------------------------ */
/* The list                                                                 */

static gboolean
server_offers_skills (McpServerInfo *info)
{
  JsonObject *capabilities = mcp_server_info_get_capabilities (info);
  JsonNode *extensions = capabilities != NULL ? json_object_get_member (capabilities, "extensions") : NULL;

  return extensions != NULL && JSON_NODE_HOLDS_OBJECT (extensions)
         && json_object_has_member (json_node_get_object (extensions), MCP_SKILLS_EXTENSION);
}

static void
on_listed_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(PlugboardSkillsView) self = user_data;
  g_autoptr(GPtrArray) skills = NULL;
  g_autoptr(GError) error = NULL;

  skills = mcp_skills_list_finish (MCP_CLIENT (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->list_cancellable);
  if (skills == NULL)
    {
      g_message ("skills/list: %s", error->message);
      return;
    }
  g_list_store_splice (self->skills, 0, g_list_model_get_n_items (G_LIST_MODEL (self->skills)),
                       skills->pdata, skills->len);
}

/* Once per session of a server that declares the extension: the listing
 * reads none of a skill's files. */
static void
refresh_list (PlugboardSkillsView *self)
{
  McpClient *client = plugboard_list_detail_get_client (PLUGBOARD_LIST_DETAIL (self));
  McpServerInfo *info = plugboard_list_detail_get_server_info (PLUGBOARD_LIST_DETAIL (self));
  McpClient *target = client != NULL && info != NULL && server_offers_skills (info) ? client : NULL;

  if (target == self->listed_for)
    return;

  /* First, so that what the store's change sets off finds it done. */
  g_set_object (&self->listed_for, target);
  g_cancellable_cancel (self->list_cancellable);
  g_clear_object (&self->list_cancellable);
  stop_action (self);
  g_list_store_remove_all (self->skills);
  if (target == NULL)
    return;

  self->list_cancellable = g_cancellable_new ();
  mcp_skills_list_async (target, self->list_cancellable, on_listed_cb, g_object_ref (self));
}

static GListModel *
plugboard_skills_view_dup_items (PlugboardListDetail *list,
                                 McpServerConnection *connection)
{
  PlugboardSkillsView *self = PLUGBOARD_SKILLS_VIEW (list);

  return g_object_ref (G_LIST_MODEL (self->skills));
}

static gboolean
plugboard_skills_view_item_matches (PlugboardListDetail *list,
                                    gpointer             item,
                                    const char          *search)
{
  return plugboard_list_detail_text_matches (mcp_skill_get_name (item), search)
         || plugboard_list_detail_text_matches (mcp_skill_get_description (item), search)
         || plugboard_list_detail_text_matches (mcp_skill_get_uri (item), search);
}

static char *
files_text (McpSkill *skill)
{
  g_auto(GStrv) uris = NULL;
  guint n;

  if (mcp_skill_is_dynamic (skill))
    return g_strdup (_("Dynamic: no digests"));
  uris = mcp_skill_get_file_uris (skill);
  n = g_strv_length (uris);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u file", "%u files", n), n);
}

static void
on_row_setup_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 gpointer                  user_data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  const char *classes[] = { NULL, "caption", "caption" };

  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    {
      GtkWidget *label = gtk_label_new (NULL);

      gtk_label_set_xalign (GTK_LABEL (label), 0.0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 28);
      gtk_label_set_width_chars (GTK_LABEL (label), 24);
      if (classes[i] != NULL)
        {
          gtk_widget_add_css_class (label, classes[i]);
          gtk_widget_add_css_class (label, "dim-label");
        }
      gtk_box_append (GTK_BOX (box), label);
    }
  gtk_list_item_set_child (item, box);
}

static void
on_row_bind_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                gpointer                  user_data)
{
  McpSkill *skill = gtk_list_item_get_item (list_item);
  GtkWidget *box = gtk_list_item_get_child (list_item);
  GtkWidget *name = gtk_widget_get_first_child (box);
  GtkWidget *description = gtk_widget_get_next_sibling (name);
  GtkWidget *files = gtk_widget_get_next_sibling (description);
  g_autofree char *files_label = files_text (skill);

  gtk_label_set_text (GTK_LABEL (name), mcp_skill_get_name (skill));
  gtk_label_set_text (GTK_LABEL (description), mcp_skill_get_description (skill));
  gtk_label_set_text (GTK_LABEL (files), files_label);
}

/* ------------------------------------------------------------------------ */
/* The detail                                                               */

static void
show_content (PlugboardSkillsView *self,
              const char          *uri,
              GBytes              *bytes,
              gboolean             skill_md)
{
  gsize length;
  const char *data = g_bytes_get_data (bytes, &length);
  g_autofree char *text = NULL;
  g_autofree char *title = NULL;
  const char *body;

  title = g_strdup_printf (_("%s — verified: size, digest%s"), uri, skill_md ? _(", frontmatter") : "");
  gtk_label_set_text (self->content_title_label, title);

  if (data == NULL || !g_utf8_validate (data, length, NULL) || memchr (data, '\0', length) != NULL)
    {
      g_autofree char *binary = g_strdup_printf (_("Binary content, %lu bytes."), (unsigned long) length);

      gtk_label_set_use_markup (self->content_label, FALSE);
      gtk_label_set_text (self->content_label, binary);
    }
  else
    {
      text = g_strndup (data, length);
      body = text;
      /* The frontmatter is shown above, from the entry it was checked
       * against; the body is the Markdown. */
      if (skill_md && g_str_has_prefix (text, "---"))
        {
          const char *end = strstr (text + 3, "\n---");

          if (end != NULL)
            {
              body = strchr (end + 4, '\n');
              body = body != NULL ? body + 1 : "";
            }
        }
      if (skill_md || g_str_has_suffix (uri, ".md"))
        {
          g_autofree char *markup = plugboard_markdown_to_pango (body);

          gtk_label_set_markup (self->content_label, markup);
        }
      else
        {
          g_autofree char *escaped = g_markup_escape_text (body, -1);
          g_autofree char *markup = g_strdup_printf ("<tt>%s</tt>", escaped);

          gtk_label_set_markup (self->content_label, markup);
        }
    }
  gtk_stack_set_visible_child_name (self->content_stack, "content");
}

/* A mismatch is an error state of its own; anything else is said under
 * the buttons. */
static void
show_failure (PlugboardSkillsView *self,
              const GError        *error)
{
  if (g_error_matches (error, MCP_ERROR, MCP_ERROR_INVALID_MESSAGE))
    {
      adw_status_page_set_description (ADW_STATUS_PAGE (self->failed_page), error->message);
      gtk_stack_set_visible_child_name (self->content_stack, "failed");
      return;
    }
  plugboard_list_detail_show_error (PLUGBOARD_LIST_DETAIL (self), error->message);
}

typedef struct
{
  PlugboardSkillsView *self;
  char                *uri;      /* NULL: the SKILL.md, loaded */
} ReadCall;

static void
on_read_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  ReadCall *call = user_data;
  g_autoptr(PlugboardSkillsView) self = call->self;
  g_autofree char *uri = call->uri;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  McpSkill *skill;

  g_free (call);
  bytes = mcp_server_connection_read_skill_finish (MCP_SERVER_CONNECTION (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->action_cancellable);
  update_action (self);

  skill = selected_skill (self);
  if (bytes == NULL)
    show_failure (self, error);
  else if (skill != NULL)
    show_content (self, uri != NULL ? uri : mcp_skill_get_uri (skill), bytes, uri == NULL);
}

static void
start_read (PlugboardSkillsView *self,
            const char          *uri)
{
  McpServerConnection *connection = plugboard_list_detail_get_connection (PLUGBOARD_LIST_DETAIL (self));
  McpSkill *skill = selected_skill (self);
  ReadCall *call;

  if (skill == NULL || connection == NULL || self->action_cancellable != NULL)
    return;
  if (plugboard_list_detail_begin_action (PLUGBOARD_LIST_DETAIL (self),
                                          _("The server is not connected: reconnect it and load again.")) == NULL)
    return;

  gtk_widget_set_visible (GTK_WIDGET (self->saved_label), FALSE);
  self->action_cancellable = g_cancellable_new ();
  update_action (self);
  call = g_new0 (ReadCall, 1);
  call->self = g_object_ref (self);
  call->uri = g_strdup (uri);
  mcp_server_connection_read_skill_async (connection, skill, uri, self->action_cancellable, on_read_cb, call);
}

static void
on_load_clicked_cb (PlugboardSkillsView *self)
{
  start_read (self, NULL);
}

static void
on_file_clicked_cb (GtkButton           *button,
                    PlugboardSkillsView *self)
{
  start_read (self, g_object_get_data (G_OBJECT (button), "plugboard-uri"));
}

static void
on_saved_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(PlugboardSkillsView) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  guint n_files = 0;

  path = mcp_skill_save_finish (MCP_SKILL (object), result, &n_files, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->action_cancellable);
  update_action (self);
  if (path == NULL)
    {
      show_failure (self, error);
      return;
    }
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Saved %u verified file in %s",
                                       "Saved %u verified files in %s", n_files), n_files, path);
  gtk_label_set_text (self->saved_label, text);
  gtk_widget_set_visible (GTK_WIDGET (self->saved_label), TRUE);
}

static void
on_chooser_response_cb (PlugboardSkillsView  *self,
                        int                   response,
                        GtkFileChooserNative *chooser)
{
  g_autoptr(GFile) folder = NULL;
  g_autofree char *path = NULL;
  McpSkill *skill = selected_skill (self);
  McpClient *client;

  if (response == GTK_RESPONSE_ACCEPT)
    folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (chooser));
  if (self->chooser == chooser)
    g_clear_object (&self->chooser);
  if (folder == NULL || skill == NULL || self->action_cancellable != NULL)
    return;

  path = g_file_get_path (folder);
  if (path == NULL)
    {
      plugboard_list_detail_show_error (PLUGBOARD_LIST_DETAIL (self), _("Choose a local folder to save the skill in."));
      return;
    }
  client = plugboard_list_detail_begin_action (PLUGBOARD_LIST_DETAIL (self),
                                               _("The server is not connected: reconnect it and save again."));
  if (client == NULL)
    return;
  gtk_widget_set_visible (GTK_WIDGET (self->saved_label), FALSE);
  self->action_cancellable = g_cancellable_new ();
  update_action (self);
  mcp_skill_save_async (skill, client, path, FALSE, self->action_cancellable, on_saved_cb, g_object_ref (self));
}

static void
on_save_clicked_cb (PlugboardSkillsView *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if (self->chooser != NULL)
    {
      gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
      return;
    }
  self->chooser = gtk_file_chooser_native_new (_("Save Skill to Folder"),
                                               GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                               GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                               _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (on_chooser_response_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static GtkWidget *
file_row_new (PlugboardSkillsView *self,
              McpSkill            *skill,
              const char          *uri)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *button = gtk_button_new_with_mnemonic (_("_Show"));
  const char *digest = NULL;
  gint64 size = 0;
  g_autofree char *subtitle = NULL;
  g_autofree char *size_text = NULL;
  g_autofree char *tooltip = NULL;

  mcp_skill_get_file_info (skill, uri, &digest, &size);
  size_text = g_format_size_full (size, G_FORMAT_SIZE_IEC_UNITS);
  /* TRANSLATORS: a file's size, then its digest ("sha256:…") */
  subtitle = g_strdup_printf (_("%s · %s"), size_text, digest);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), mcp_skill_get_file_path (skill, uri));
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 1);
  gtk_widget_add_css_class (row, "property");

  tooltip = g_strdup_printf (_("Fetch %s and verify it"), uri);
  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (button, "flat");
  g_object_set_data_full (G_OBJECT (button), "plugboard-uri", g_strdup (uri), g_free);
  g_signal_connect (button, "clicked", G_CALLBACK (on_file_clicked_cb), self);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);
  return row;
}

static void
plugboard_skills_view_show_item (PlugboardListDetail *list,
                                 GObject             *item)
{
  PlugboardSkillsView *self = PLUGBOARD_SKILLS_VIEW (list);
  McpSkill *skill = item != NULL ? MCP_SKILL (item) : NULL;
  g_auto(GStrv) uris = NULL;
  GtkWidget *child;

  stop_action (self);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->files_list))) != NULL)
    gtk_list_box_remove (self->files_list, child);
  gtk_stack_set_visible_child_name (self->content_stack, "empty");
  gtk_widget_set_visible (GTK_WIDGET (self->saved_label), FALSE);
  plugboard_list_detail_show_error (list, NULL);
  if (skill == NULL)
    return;

  gtk_label_set_text (self->title_label, mcp_skill_get_name (skill));
  gtk_label_set_text (self->uri_label, mcp_skill_get_uri (skill));
  gtk_label_set_text (self->description_label, mcp_skill_get_description (skill));
  {
    g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), mcp_skill_get_frontmatter (skill));
    g_autofree char *json = json_to_string (node, TRUE);

    gtk_label_set_text (self->frontmatter_label, json);
  }

  uris = mcp_skill_get_file_uris (skill);
  if (mcp_skill_is_dynamic (skill))
    gtk_label_set_text (self->files_title_label, _("Files: dynamic (the entry lists no digests)"));
  else
    {
      g_autofree char *title = files_text (skill);

      gtk_label_set_text (self->files_title_label, title);
    }
  gtk_widget_set_visible (gtk_widget_get_parent (GTK_WIDGET (self->files_list)), uris[0] != NULL);
  for (guint i = 0; uris[i] != NULL; i++)
    gtk_list_box_append (self->files_list, file_row_new (self, skill, uris[i]));

  update_action (self);
}

static void
plugboard_skills_view_update (PlugboardListDetail *list)
{
  PlugboardSkillsView *self = PLUGBOARD_SKILLS_VIEW (list);

  refresh_list (self);
  update_action (self);
}

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */

static void
plugboard_skills_view_dispose (GObject *object)
{
  PlugboardSkillsView *self = PLUGBOARD_SKILLS_VIEW (object);

  g_cancellable_cancel (self->list_cancellable);
  g_clear_object (&self->list_cancellable);
  stop_action (self);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  g_clear_object (&self->listed_for);

  G_OBJECT_CLASS (plugboard_skills_view_parent_class)->dispose (object);
}

static void
plugboard_skills_view_finalize (GObject *object)
{
  PlugboardSkillsView *self = PLUGBOARD_SKILLS_VIEW (object);

  g_clear_object (&self->skills);

  G_OBJECT_CLASS (plugboard_skills_view_parent_class)->finalize (object);
}

static void
plugboard_skills_view_class_init (PlugboardSkillsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  PlugboardListDetailClass *list_class = PLUGBOARD_LIST_DETAIL_CLASS (klass);

  object_class->dispose = plugboard_skills_view_dispose;
  object_class->finalize = plugboard_skills_view_finalize;

  list_class->dup_items = plugboard_skills_view_dup_items;
  list_class->server_offers = server_offers_skills;
  list_class->item_matches = plugboard_skills_view_item_matches;
  list_class->show_item = plugboard_skills_view_show_item;
  list_class->update = plugboard_skills_view_update;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/plugboard/Plugboard/plugboard-skills-view.ui");
  gtk_widget_class_bind_template_child (widget_class, PlugboardSkillsView, title_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSkillsView, uri_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSkillsView, description_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSkillsView, frontmatter_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSkillsView, files_title_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSkillsView, files_list);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSkillsView, load_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSkillsView, save_button);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSkillsView, load_spinner);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSkillsView, saved_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSkillsView, error_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSkillsView, content_stack);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSkillsView, content_title_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSkillsView, content_label);
  gtk_widget_class_bind_template_child (widget_class, PlugboardSkillsView, failed_page);
  gtk_widget_class_bind_template_callback (widget_class, on_load_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_save_clicked_cb);
}

static void
plugboard_skills_view_init (PlugboardSkillsView *self)
{
  g_autoptr(GtkListItemFactory) factory = NULL;

  self->skills = g_list_store_new (MCP_TYPE_SKILL);

  gtk_widget_init_template (GTK_WIDGET (self));
  plugboard_list_detail_set_action (PLUGBOARD_LIST_DETAIL (self), GTK_WIDGET (self->load_button),
                                    self->load_spinner, self->error_label);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (on_row_setup_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (on_row_bind_cb), self);
  plugboard_list_detail_set_factory (PLUGBOARD_LIST_DETAIL (self), factory);
}

GtkWidget *
plugboard_skills_view_new (void)
{
  return g_object_new (PLUGBOARD_TYPE_SKILLS_VIEW, NULL);
}

void
plugboard_skills_view_set_connection (PlugboardSkillsView *self,
                                      McpServerConnection *connection)
{
  g_return_if_fail (PLUGBOARD_IS_SKILLS_VIEW (self));
  g_return_if_fail (connection == NULL || MCP_IS_SERVER_CONNECTION (connection));

  plugboard_list_detail_set_connection (PLUGBOARD_LIST_DETAIL (self), connection);
  refresh_list (self);
}
