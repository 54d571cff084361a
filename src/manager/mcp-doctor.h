/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "mcp-doctor-check.h"
#include "mcp-server-config.h"
#include "mcp-server-connection.h"

G_BEGIN_DECLS

#define MCP_TYPE_DOCTOR (mcp_doctor_get_type ())

G_DECLARE_FINAL_TYPE (McpDoctor, mcp_doctor, MCP, DOCTOR, GObject)

/**
 * McpDoctor:
 *
 * Why a server fails: a connection doctor that runs the checks of the
 * server's transport in order and keeps each outcome (McpDoctorCheck) in a
 * GListModel that fills in as each check finishes, for the app and the CLI
 * alike.
 *
 * stdio: the command found (in the PATH the server gets, else by the
 * person's login shell), executable, its interpreter and version, then a
 * fresh McpClient over a fresh McpStdioTransport — the real ones: whether
 * the process stays up, writes only JSON-RPC to stdout, answers initialize
 * in time and speaks a version Plugboard supports.
 *
 * Remote (http, sse, ws): the URL, the name resolved, a TCP connection,
 * the TLS handshake (certificate problems in plain words), the initialize
 * POST's status and content type, the Mcp-Session-Id header, the GET event
 * stream, the era probe (a real McpClient), and when the server asked for
 * sign-in the OAuth metadata it publishes.
 *
 * Once a check fails, the later ones that need it are skipped, saying
 * why. Every check is bounded by the connect timeout and in what it reads;
 * every text is masked with the server's secrets. Nothing is written to
 * the settings and the server's own connection is left alone.
 *
 * Property: running (gboolean).
 */

/* @config as written (it is expanded the way a connection expands it),
 * @environ the environment ${VAR} expands from and the server starts with
 * (NULL: the process's). */
McpDoctor   *mcp_doctor_new                 (McpServerConfig     *config,
                                             const char * const  *environ);
/* The doctor of @connection: its config, its environment, its connect
 * timeout and its stored sign-in (when it has one, the HTTP checks send
 * it as the connection would). */
McpDoctor   *mcp_doctor_new_for_connection  (McpServerConnection *connection);

/* Bounds each check that waits (default MCP_CLIENT_DEFAULT_CONNECT_TIMEOUT_MS;
 * the config's own timeout wins when it sets one). */
void         mcp_doctor_set_timeout         (McpDoctor           *self,
                                             guint                timeout_ms);
guint        mcp_doctor_get_timeout         (McpDoctor           *self);

const char  *mcp_doctor_get_server_name     (McpDoctor           *self);
/* McpDoctorCheck, in order; cleared when a run starts. */
GListModel  *mcp_doctor_get_checks          (McpDoctor           *self);
gboolean     mcp_doctor_get_running         (McpDoctor           *self);
/* TRUE when a check of the last run failed. */
gboolean     mcp_doctor_has_failure         (McpDoctor           *self);

/* Runs every check. Finishes TRUE once all ran (whatever their outcome:
 * see the model and mcp_doctor_has_failure()); FALSE only when cancelled or
 * already running. */
void         mcp_doctor_run_async           (McpDoctor           *self,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
gboolean     mcp_doctor_run_finish          (McpDoctor           *self,
                                             GAsyncResult        *result,
                                             GError             **error);

/* The outcome as text, one check after another ("[fail] Title\n  seen\n
 * fix: …"), for "Copy report". */
char        *mcp_doctor_dup_report          (McpDoctor           *self);

G_END_DECLS
