/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <libsoup/soup.h>

#include "mcp-oauth-redirect-listener.h"

G_BEGIN_DECLS

/* Shared by mcp-oauth-redirect-listener.c (the server, the wait) and
 * mcp-oauth-redirect-listener-page.c (the answers, the page). */

#define CALLBACK_PATH "/callback"

typedef struct
{
  char *code;
  char *iss;
} Outcome;

struct _McpOAuthRedirectListener
{
  GObject     parent_instance;

  guint       port;
  guint       timeout_s;
  guint       refused;         /* callbacks with another state */

  /* owned */
  SoupServer *server;
  char       *expected_state;
  char       *expected_issuer; /* RFC 9207; NULL: "iss" is not checked */
  char       *redirect_uri;
  GTask      *task;            /* the wait in progress */
  GSource    *timeout_source;
  GSource    *cancel_source;
  GSource    *stop_source;     /* stops the server once the answer is sent */
  Outcome    *outcome;         /* the matching callback's code and iss */
  GError     *error;           /* or what it said went wrong */
  /* The matching callback with a code, paused until the sign-in is
   * finished (or HOLD_TIMEOUT_S passed): its page tells how it ended. */
  SoupServerMessage *held;
  GSource    *hold_source;
  /* The page is on its way: mcp_oauth_redirect_listener_answer_async(). */
  SoupServerMessage *answering;
  GTask      *answer_task;
  GSource    *answer_source;

  guint       matched : 1;
  guint       issuer_required : 1;
};


/* mcp-oauth-redirect-listener.c */
/* Ends the wait, if any, with @error (taken) or the outcome. */
void mcp_oauth_redirect_listener_finish_wait     (McpOAuthRedirectListener *self,
                                                  GError                   *error);

/* mcp-oauth-redirect-listener-page.c */
void mcp_oauth_redirect_listener_handle_callback (SoupServer               *server,
                                                  SoupServerMessage        *msg,
                                                  const char               *path,
                                                  GHashTable               *query,
                                                  gpointer                  user_data);
/* Answers the held page, if any, and lets it go. */
void mcp_oauth_redirect_listener_release_held    (McpOAuthRedirectListener *self,
                                                  guint                     status,
                                                  const char               *heading,
                                                  const char               *text);
/* The page has gone out, the browser went away, or it took too long. */
void mcp_oauth_redirect_listener_end_answer      (McpOAuthRedirectListener *self);

G_END_DECLS
