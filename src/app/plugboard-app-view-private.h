/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "config.h"

#include <adwaita.h>

#if HAVE_WEBKIT
#include <webkit/webkit.h>
#endif

#include "plugboard-app-view.h"

G_BEGIN_DECLS

/* The page's height before it says its own, and the limits it is kept in:
 * an interface can neither vanish nor push the page out of reach. */
#define PLUGBOARD_APP_VIEW_DEFAULT_HEIGHT 400
#define PLUGBOARD_APP_VIEW_MIN_HEIGHT     80
#define PLUGBOARD_APP_VIEW_MAX_HEIGHT     1600

struct _PlugboardAppView
{
  GtkWidget parent_instance;

  /* owned references */
  McpAppBridge *bridge;
  GSignalGroup *bridge_signals;
  GtkWidget *unsupported;
#if HAVE_WEBKIT
  WebKitWebContext *context;
  WebKitNetworkSession *session;
  WebKitWebView *web_view;
  GtkWindow *fullscreen_window;
  char *document_uri;
  /* Said by the top frame's script with each message, so a frame of
   * another origin cannot speak for the page. */
  char *token;
#endif

  int container_width;
  guint loaded : 1;
};

/* plugboard-app-view-web.c: the web view, its context and its sandbox. */
#if HAVE_WEBKIT
void     plugboard_app_view_web_start     (PlugboardAppView *self);
void     plugboard_app_view_web_stop      (PlugboardAppView *self);
void     plugboard_app_view_web_post      (PlugboardAppView *self,
                                           const char       *text);
#endif
void     plugboard_app_view_set_loaded    (PlugboardAppView *self,
                                           gboolean          loaded);

/* plugboard-app-view-context.c: the host context from the desktop. */
void     plugboard_app_view_context_start (PlugboardAppView *self);
void     plugboard_app_view_context_size  (PlugboardAppView *self,
                                           int               width);
char    *plugboard_app_view_dup_locale    (void);

G_END_DECLS
