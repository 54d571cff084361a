/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "mcp-client.h"

G_BEGIN_DECLS

/* “name” of the server (its serverInfo name, else what the transport
 * reaches), or "the server": for messages. */
char *mcp_client_describe_server (McpClient *self);

/* Turns the object a request answered into @task's value; NULL with
 * @error set when it is not what the method answers. */
typedef gpointer (*McpClientAnswerFunc) (McpClient   *self,
                                         GTask       *task,
                                         JsonObject  *result,
                                         GError     **error);

/* Sends @method with @params (taken) for @task (taken; its cancellable
 * cancels the request). An answer that is not an object fails it; else
 * @answer's value is returned (freed with @free_func), or TRUE when @answer
 * is NULL. @answer's error is prefixed with the method and the server. */
void     mcp_client_request_for_task (McpClient               *self,
                                      GTask                   *task,
                                      const char              *method,
                                      JsonObject              *params,
                                      const McpRequestOptions *options,
                                      McpClientAnswerFunc      answer,
                                      GDestroyNotify           free_func);

/* Fails @task with MCP_ERROR_NOT_CONNECTED before initialize answered, and
 * with MCP_ERROR_UNSUPPORTED ("… does not offer @capability") unless @has
 * says the server's capabilities offer it. */
gboolean mcp_client_check_offers     (McpClient   *self,
                                      GTask       *task,
                                      gboolean   (*has) (McpServerInfo *),
                                      const char  *capability,
                                      const char  *method);

/* The stateless revision has no resources/subscribe: the URIs go in the
 * filter of the subscriptions/listen stream, opened again when they change.
 * @task (taken) returns TRUE once the server acknowledged the new filter. */
void     mcp_client_stateless_subscribe (McpClient   *self,
                                         const char  *uri,
                                         gboolean     subscribe,
                                         GTask       *task);

G_END_DECLS
