/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "mcp-server-connection.h"
#include "mcp-tool-pool.h"

G_BEGIN_DECLS

#define MCP_TYPE_INTERACTION (mcp_interaction_get_type ())

G_DECLARE_DERIVABLE_TYPE (McpInteraction, mcp_interaction, MCP, INTERACTION, GObject)

/**
 * McpInteraction:
 *
 * What a server or a call asks of a person, the way GIO's GTlsInteraction
 * asks for a password: McpProject calls these when a tool call needs the
 * person's yes, a server asks the person to open a web page or to sign in,
 * or sends elicitation/create or sampling/createMessage. The app implements
 * it once with dialogs, plugboard-cli once on the terminal. A front end
 * never decides: it asks the person and reports the answer.
 *
 * Every method has an _async/_finish pair, with the cancellable of what
 * asked (the call, or the server's request: cancelled when the server
 * cancels it or goes away). A class that leaves a method NULL does not
 * handle it: the default fails with G_IO_ERROR_NOT_SUPPORTED, and
 * McpProject declares no capability for it (see dup_capabilities).
 *
 * URLs reach an McpInteraction only after the engine's URL policy let them
 * (mcp_url_policy_check()); @host is the host the policy saw, to show the
 * person where the address leads.
 */
struct _McpInteractionClass
{
  GObjectClass parent_class;

  /* May @tool run with @arguments? @rule: the ask rule that matched, or
   * NULL when the tool's annotations made the default ask. Finish: TRUE to
   * go on, FALSE when the person said no. */
  void        (*ask_tool_async)      (McpInteraction       *self,
                                      McpPoolTool          *tool,
                                      JsonObject           *arguments,
                                      const char           *rule,
                                      GCancellable         *cancellable,
                                      GAsyncReadyCallback   callback,
                                      gpointer              user_data);
  gboolean    (*ask_tool_finish)     (McpInteraction       *self,
                                      GAsyncResult         *result,
                                      GError              **error);

  /* The server @server_name asks the person to open @url (a tool call's
   * URL elicitation, error -32042), with its @message (nullable). The
   * front end opens it and asks the person to say when they are done.
   * Finish: TRUE when they are (the call is tried again), FALSE to give
   * up. */
  void        (*open_url_async)      (McpInteraction       *self,
                                      const char           *server_name,
                                      const char           *url,
                                      const char           *host,
                                      const char           *message,
                                      GCancellable         *cancellable,
                                      GAsyncReadyCallback   callback,
                                      gpointer              user_data);
  gboolean    (*open_url_finish)     (McpInteraction       *self,
                                      GAsyncResult         *result,
                                      GError              **error);

  /* elicitation/create from @connection (form or URL mode, @params as the
   * server sent them). Finish: the result object ({"action": "accept",
   * "content": {…}} / "decline" / "cancel"), or an error. */
  void        (*elicit_async)        (McpInteraction       *self,
                                      McpServerConnection  *connection,
                                      JsonObject           *params,
                                      GCancellable         *cancellable,
                                      GAsyncReadyCallback   callback,
                                      gpointer              user_data);
  JsonNode   *(*elicit_finish)       (McpInteraction       *self,
                                      GAsyncResult         *result,
                                      GError              **error);

  /* sampling/createMessage from @connection. Finish: the result object
   * (role, content, model, stopReason), or an error (a refusal is an
   * MCP_JSONRPC_ERROR with the code to send). */
  void        (*sample_async)        (McpInteraction       *self,
                                      McpServerConnection  *connection,
                                      JsonObject           *params,
                                      GCancellable         *cancellable,
                                      GAsyncReadyCallback   callback,
                                      gpointer              user_data);
  JsonNode   *(*sample_finish)       (McpInteraction       *self,
                                      GAsyncResult         *result,
                                      GError              **error);

  /* A sign-in of @server_name needs the person at @url (an OAuth
   * authorization URL). Must not block: the sign-in waits for the browser
   * to come back on its own. */
  void        (*show_sign_in_url)    (McpInteraction       *self,
                                      const char           *server_name,
                                      const char           *url,
                                      const char           *host);

  /* The client capabilities this interaction can answer, e.g.
   * {"sampling": {}, "elicitation": {"form": {}, "url": {}}}. Default:
   * "sampling" when sample_async is set, "elicitation" with both modes
   * when elicit_async is. */
  JsonObject *(*dup_capabilities)    (McpInteraction       *self);

  /* An MCP Apps view of @server_name asks to open @url (ui/open-link),
   * already let through the URL policy; @host is where it leads. The
   * front end shows the host and opens the link if the person agrees.
   * Finish: TRUE when opened, FALSE when the person said no. */
  void        (*open_link_async)     (McpInteraction       *self,
                                      const char           *server_name,
                                      const char           *url,
                                      const char           *host,
                                      GCancellable         *cancellable,
                                      GAsyncReadyCallback   callback,
                                      gpointer              user_data);
  gboolean    (*open_link_finish)    (McpInteraction       *self,
                                      GAsyncResult         *result,
                                      GError              **error);

  /* An MCP Apps view of @server_name offers a file (ui/download-file):
   * @name is the name it suggests (a bare file name, already cleaned),
   * @content_type its MIME type (nullable). The front end asks the person
   * where to save it (a file chooser) and writes it. Finish: TRUE when
   * saved, FALSE when the person cancelled. */
  void        (*save_file_async)     (McpInteraction       *self,
                                      const char           *server_name,
                                      const char           *name,
                                      const char           *content_type,
                                      GBytes               *contents,
                                      GCancellable         *cancellable,
                                      GAsyncReadyCallback   callback,
                                      gpointer              user_data);
  gboolean    (*save_file_finish)    (McpInteraction       *self,
                                      GAsyncResult         *result,
                                      GError              **error);

  gpointer padding[4];
};

void        mcp_interaction_ask_tool_async   (McpInteraction       *self,
                                              McpPoolTool          *tool,
                                              JsonObject           *arguments,
                                              const char           *rule,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
gboolean    mcp_interaction_ask_tool_finish  (McpInteraction       *self,
                                              GAsyncResult         *result,
                                              GError              **error);
void        mcp_interaction_open_url_async   (McpInteraction       *self,
                                              const char           *server_name,
                                              const char           *url,
                                              const char           *host,
                                              const char           *message,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
gboolean    mcp_interaction_open_url_finish  (McpInteraction       *self,
                                              GAsyncResult         *result,
                                              GError              **error);
void        mcp_interaction_elicit_async     (McpInteraction       *self,
                                              McpServerConnection  *connection,
                                              JsonObject           *params,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
JsonNode   *mcp_interaction_elicit_finish    (McpInteraction       *self,
                                              GAsyncResult         *result,
                                              GError              **error);
void        mcp_interaction_sample_async     (McpInteraction       *self,
                                              McpServerConnection  *connection,
                                              JsonObject           *params,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
JsonNode   *mcp_interaction_sample_finish    (McpInteraction       *self,
                                              GAsyncResult         *result,
                                              GError              **error);
void        mcp_interaction_show_sign_in_url (McpInteraction       *self,
                                              const char           *server_name,
                                              const char           *url,
                                              const char           *host);
JsonObject *mcp_interaction_dup_capabilities (McpInteraction       *self);
void        mcp_interaction_open_link_async  (McpInteraction       *self,
                                              const char           *server_name,
                                              const char           *url,
                                              const char           *host,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
gboolean    mcp_interaction_open_link_finish (McpInteraction       *self,
                                              GAsyncResult         *result,
                                              GError              **error);
void        mcp_interaction_save_file_async  (McpInteraction       *self,
                                              const char           *server_name,
                                              const char           *name,
                                              const char           *content_type,
                                              GBytes               *contents,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
gboolean    mcp_interaction_save_file_finish (McpInteraction       *self,
                                              GAsyncResult         *result,
                                              GError              **error);

G_END_DECLS
