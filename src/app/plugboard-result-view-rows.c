/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-result-view"

#include "config.h"

#include "plugboard-result-view.h"

#include <glib/gi18n.h>

#include "plugboard-result-view-private.h"

/* PlugboardResultView's list rows: the factory that makes each row from a
 * block or a JSON tree row, and the rows of images, audio, files, links
 * and messages. */

/* A wrapping label's narrowest width, in characters. Without one, GTK 4.8
 * measures a label's minimum width by laying its text out at width 0:
 * with PANGO_WRAP_WORD_CHAR a break after every character, each one
 * shaping the rest of the line again. For a row of 1 KiB that took about
 * 10 ms, and a 50 MB result's first screen held the main loop for
 * 300-400 ms (bench-large-result). */
#define WRAP_MIN_CHARS    20

void
plugboard_result_view_label_set_wrapping (GtkWidget *label,
                                          gboolean   wrap)
{
  gtk_label_set_wrap (GTK_LABEL (label), wrap);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_width_chars (GTK_LABEL (label), WRAP_MIN_CHARS);
}

GtkWidget *
plugboard_result_view_caption_new (const char *icon_name,
                                   const char *text)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *image = gtk_image_new_from_icon_name (icon_name);
  GtkWidget *label = gtk_label_new (text);

  gtk_widget_add_css_class (image, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_add_css_class (label, "caption-heading");
  gtk_widget_add_css_class (label, "dim-label");
  gtk_box_append (GTK_BOX (box), image);
  gtk_box_append (GTK_BOX (box), label);
  return box;
}

GtkWidget *
plugboard_result_view_button_new (const char *label,
                                  const char *tooltip)
{
  GtkWidget *button = gtk_button_new_with_mnemonic (label);

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  if (tooltip != NULL)
    gtk_widget_set_tooltip_text (button, tooltip);
  return button;
}

static GtkWidget *
dim_label_new (const char *text,
               const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  plugboard_result_view_label_set_wrapping (label, TRUE);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

static GtkWidget *
image_widget_new (PlugboardResultView  *self,
                  PlugboardResultBlock *block)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *save = plugboard_result_view_save_button_new (block, _("_Save As…"), _("Save the image to a file"));
  g_autoptr(GError) error = NULL;
  GdkTexture *texture = plugboard_result_block_get_texture (block, &error);
  g_autofree char *title = NULL;

  if (texture != NULL)
    title = g_strdup_printf (_("%s · %d × %d"), block->title,
                             gdk_texture_get_width (texture), gdk_texture_get_height (texture));
  gtk_box_append (GTK_BOX (bar),
                  plugboard_result_view_caption_new ("image-x-generic-symbolic", title != NULL ? title : block->title));
  gtk_widget_set_hexpand (gtk_widget_get_first_child (bar), TRUE);
  gtk_widget_add_css_class (save, "flat");
  gtk_box_append (GTK_BOX (bar), save);
  gtk_box_append (GTK_BOX (box), bar);

  if (texture != NULL)
    {
      GtkWidget *picture = gtk_picture_new_for_paintable (GDK_PAINTABLE (texture));
      int height = gdk_texture_get_height (texture);

      gtk_picture_set_can_shrink (GTK_PICTURE (picture), TRUE);
      gtk_picture_set_content_fit (GTK_PICTURE (picture), GTK_CONTENT_FIT_CONTAIN);
      gtk_widget_set_halign (picture, GTK_ALIGN_START);
      /* Scaled to fit the width, and never taller than a screenful. */
      gtk_widget_set_size_request (picture, -1, MIN (height, 480));
      gtk_accessible_update_property (GTK_ACCESSIBLE (picture),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, block->title, -1);
      gtk_box_append (GTK_BOX (box), picture);
    }
  else
    {
      g_autofree char *message = g_strdup_printf (_("The image could not be shown: %s"),
                                                  error != NULL ? error->message : "");
      GtkWidget *label = gtk_label_new (message);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_widget_add_css_class (label, "error");
      gtk_box_append (GTK_BOX (box), label);
    }

  return box;
}

static void
on_play_clicked_cb (GtkButton            *button,
                    PlugboardResultBlock *block)
{
  g_autoptr(GFile) file = NULL;
  g_autofree char *uri = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *view = gtk_widget_get_ancestor (GTK_WIDGET (button), PLUGBOARD_TYPE_RESULT_VIEW);
  g_autoptr(GdkAppLaunchContext) context =
    gdk_display_get_app_launch_context (gtk_widget_get_display (GTK_WIDGET (button)));

  if (block->file == NULL)
    return;
  file = g_file_new_for_path (block->file);
  uri = g_file_get_uri (file);
  if (!g_app_info_launch_default_for_uri (uri, G_APP_LAUNCH_CONTEXT (context), &error) && view != NULL)
    {
      g_autofree char *title = g_strdup_printf (_("Could not play: %s"), error->message);

      plugboard_result_view_toast (PLUGBOARD_RESULT_VIEW (view), title);
    }
}

static GtkWidget *
file_widget_new (PlugboardResultView  *self,
                 PlugboardResultBlock *block,
                 const char           *icon_name,
                 gboolean             playable)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
  GtkWidget *save = plugboard_result_view_save_button_new (block, _("_Save As…"), _("Save a copy to a file"));

  gtk_box_append (GTK_BOX (texts), plugboard_result_view_caption_new (icon_name, block->title));
  if (block->file != NULL)
    {
      GtkWidget *path = gtk_label_new (block->file);

      gtk_label_set_xalign (GTK_LABEL (path), 0);
      gtk_label_set_selectable (GTK_LABEL (path), TRUE);
      gtk_label_set_ellipsize (GTK_LABEL (path), PANGO_ELLIPSIZE_MIDDLE);
      gtk_widget_add_css_class (path, "caption");
      gtk_box_append (GTK_BOX (texts), path);
    }
  gtk_widget_set_hexpand (texts, TRUE);
  gtk_box_append (GTK_BOX (box), texts);

  if (playable)
    {
      GtkWidget *play = plugboard_result_view_button_new (_("_Play"), _("Play with the default player"));

      gtk_widget_set_sensitive (play, block->file != NULL);
      g_signal_connect_object (play, "clicked", G_CALLBACK (on_play_clicked_cb), block, 0);
      gtk_box_append (GTK_BOX (box), play);
    }
  gtk_box_append (GTK_BOX (box), save);
  return box;
}

static void
on_read_clicked_cb (GtkButton            *button,
                    PlugboardResultBlock *block)
{
  GtkWidget *view = gtk_widget_get_ancestor (GTK_WIDGET (button), PLUGBOARD_TYPE_RESULT_VIEW);

  if (view != NULL)
    plugboard_result_view_read_link (PLUGBOARD_RESULT_VIEW (view), block);
}

static GtkWidget *
link_widget_new (PlugboardResultView  *self,
                 PlugboardResultBlock *block)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
  McpContent *content = block->content;
  const char *description = mcp_content_get_description (content);
  GtkWidget *read;
  g_autofree char *title = g_strdup_printf (_("Resource link · %s"),
                                            block->mime_type != NULL ? block->mime_type : _("unknown type"));

  gtk_box_append (GTK_BOX (texts), plugboard_result_view_caption_new ("insert-link-symbolic", title));
  if (mcp_content_get_name (content) != NULL)
    gtk_box_append (GTK_BOX (texts), dim_label_new (mcp_content_get_name (content), "heading"));
  if (mcp_content_get_uri (content) != NULL)
    gtk_box_append (GTK_BOX (texts), dim_label_new (mcp_content_get_uri (content), "monospace"));
  if (description != NULL)
    gtk_box_append (GTK_BOX (texts), dim_label_new (description, NULL));
  if (block->status != NULL)
    gtk_box_append (GTK_BOX (texts), dim_label_new (block->status, "dim-label"));
  gtk_widget_set_hexpand (texts, TRUE);
  gtk_box_append (GTK_BOX (box), texts);

  if (block->reading)
    {
      GtkWidget *spinner = gtk_spinner_new ();

      gtk_spinner_start (GTK_SPINNER (spinner));
      gtk_widget_set_valign (spinner, GTK_ALIGN_CENTER);
      gtk_box_append (GTK_BOX (box), spinner);
    }
  read = plugboard_result_view_button_new (_("_Read"), _("Read the resource from the server and show it below"));
  gtk_widget_set_sensitive (read, plugboard_result_view_get_connection (self) != NULL && !block->reading &&
                                  mcp_content_get_uri (content) != NULL);
  g_signal_connect_object (read, "clicked", G_CALLBACK (on_read_clicked_cb), block, 0);
  gtk_box_append (GTK_BOX (box), read);
  return box;
}

static GtkWidget *
block_widget_new (PlugboardResultView  *self,
                  PlugboardResultBlock *block)
{
  GtkWidget *widget = NULL;

  switch (block->kind)
    {
    case PLUGBOARD_RESULT_BLOCK_TEXT:
      if (block->title != NULL)
        {
          widget = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
          gtk_box_append (GTK_BOX (widget),
                          plugboard_result_view_caption_new ("text-x-generic-symbolic", block->title));
          gtk_box_append (GTK_BOX (widget), plugboard_result_view_text_widget_new (self, block, block->text));
        }
      else
        widget = plugboard_result_view_text_widget_new (self, block, block->text);
      break;

    case PLUGBOARD_RESULT_BLOCK_JSON:
      widget = plugboard_result_view_json_widget_new (self, block);
      break;

    case PLUGBOARD_RESULT_BLOCK_IMAGE:
      widget = image_widget_new (self, block);
      break;

    case PLUGBOARD_RESULT_BLOCK_AUDIO:
      widget = file_widget_new (self, block, "audio-x-generic-symbolic", TRUE);
      break;

    case PLUGBOARD_RESULT_BLOCK_FILE:
      widget = file_widget_new (self, block, "folder-documents-symbolic", FALSE);
      break;

    case PLUGBOARD_RESULT_BLOCK_LINK:
      widget = link_widget_new (self, block);
      break;

    case PLUGBOARD_RESULT_BLOCK_CHUNK:
      /* Continues the text above, without a gap. */
      return plugboard_result_view_text_label_new (self, block, block->text);

    case PLUGBOARD_RESULT_BLOCK_MESSAGE:
    default:
      widget = dim_label_new (block->title, "error");
      break;
    }

  gtk_widget_set_margin_top (widget, 12);
  /* A split text's head row runs on into its chunk rows. */
  gtk_widget_set_margin_bottom (widget,
                                block->kind == PLUGBOARD_RESULT_BLOCK_TEXT && block->chunks != NULL ? 0 : 6);
  return widget;
}

static void
clear_row (GtkWidget *box)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (box)) != NULL)
    gtk_box_remove (GTK_BOX (box), child);
}

static void
factory_setup_cb (GtkSignalListItemFactory *factory,
                  GtkListItem              *item,
                  PlugboardResultView      *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_list_item_set_activatable (item, FALSE);
  gtk_list_item_set_selectable (item, FALSE);
  gtk_list_item_set_child (item, box);
}

static void
factory_bind_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *item,
                 PlugboardResultView      *self)
{
  gpointer object = gtk_list_item_get_item (item);
  GtkWidget *box = gtk_list_item_get_child (item);
  GtkWidget *widget;

  if (GTK_IS_TREE_LIST_ROW (object))
    widget = plugboard_result_view_json_row_new (self, object);
  else
    widget = block_widget_new (self, object);

  clear_row (box);
  gtk_box_append (GTK_BOX (box), widget);
}

static void
factory_unbind_cb (GtkSignalListItemFactory *factory,
                   GtkListItem              *item,
                   PlugboardResultView      *self)
{
  GtkWidget *box = gtk_list_item_get_child (item);

  if (box != NULL)
    clear_row (box);
}

void
plugboard_result_view_init_rows (PlugboardResultView *self)
{
  g_signal_connect (self->factory, "setup", G_CALLBACK (factory_setup_cb), self);
  g_signal_connect (self->factory, "bind", G_CALLBACK (factory_bind_cb), self);
  g_signal_connect (self->factory, "unbind", G_CALLBACK (factory_unbind_cb), self);
}
