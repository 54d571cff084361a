/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <libsoup/soup.h>

#include "mcp-client.h"
#include "mcp-token-store.h"
#include "mcp-doctor.h"

G_BEGIN_DECLS

/* Between the parts of McpDoctor only:
 *
 * mcp-doctor.c          the object, the run: steps in order, skipped
 *                       after a failure, each bounded in time; a bounded
 *                       helper command
 * mcp-doctor-stdio.c    the checks of a stdio server
 * mcp-doctor-http.c     the checks of a remote server
 * mcp-doctor-sign-in.c  the first sign-in check (the OAuth metadata a
 *                       server that answered 401 or 403 publishes)
 */

/* A helper command's output is kept up to this many bytes. */
#define MCP_DOCTOR_MAX_OUTPUT 4096
/* What a check shows of something a server wrote, at most. */
#define MCP_DOCTOR_MAX_SHOWN 200
/* How many stderr lines a check shows. */
#define MCP_DOCTOR_STDERR_LINES 10
/* A helper command (`node --version`, the login shell) gets this long at
 * most, or the timeout when that is shorter. */
#define MCP_DOCTOR_COMMAND_TIMEOUT_MS 10000

typedef void (*McpDoctorStepFunc) (McpDoctor *self);

typedef struct
{
  const char        *id;
  const char        *title;   /* N_() */
  McpDoctorStepFunc  func;
  /* Runs even after a failure (it decides for itself whether it applies). */
  gboolean           always;
} McpDoctorStep;

/* mcp-doctor-auth.c: @inner's credentials on every request, its
 * challenges never answered. */
#define MCP_TYPE_DOCTOR_AUTH (mcp_doctor_auth_get_type ())
G_DECLARE_FINAL_TYPE (McpDoctorAuth, mcp_doctor_auth, MCP, DOCTOR_AUTH, GObject)
McpAuthProvider *mcp_doctor_auth_new (McpAuthProvider *inner);

struct _McpDoctor
{
  GObject              parent_instance;

  /* owned */
  McpServerConfig     *config;
  char               **environ;
  char                *authorization;   /* the stored sign-in's header value; nullable */
  McpAuthProvider     *auth;            /* puts the stored sign-in on requests; nullable */
  gboolean             nonce_retried;   /* the initialize POST was sent again with a DPoP nonce */
  McpTokenStore       *token_store;     /* where a stored sign-in is; NULL: the default */
  guint                timeout;
  GListStore          *checks;

  /* the run */
  GTask               *task;
  const McpDoctorStep *steps;
  guint                n_steps;
  guint                step;
  gint64               step_start;
  GCancellable        *step_cancellable;  /* the run's, or the step's timeout */
  guint                step_timeout_id;
  gboolean             step_timed_out;
  char                *blocked_by;        /* the title of the check that failed */
  char                *block_reason;      /* why later checks cannot run; nullable */
  gboolean             failed;
  McpServerConfig     *expanded;
  char               **secrets;

  /* stdio */
  char                *program;           /* the command's full path */
  char                *interpreter;       /* the basename of the interpreter; nullable */
  McpClient           *client;
  GError              *connect_error;
  char                *invalid_line;
  gint64               connect_time;      /* µs the connect took */
  gboolean             exited;
  int                  wait_status;
  char               **stderr_lines;

  /* remote */
  GUri                *uri;
  SoupSession         *session;
  guint                auth_status;       /* 401 or 403 from the POST; 0: none */
  char                *www_authenticate;
  gboolean             legacy;            /* a legacy HTTP+SSE server */
  char                *session_id;
};

/* mcp-doctor.c */
/* Ends the running step with @status; @seen (transfer full) and @fix are
 * masked with the server's secrets. Goes on with the next step. */
void      mcp_doctor_step_done          (McpDoctor        *self,
                                         McpDoctorStatus   status,
                                         char             *seen,
                                         const char       *fix);
/* Later checks (except those that always run) are skipped with @reason. */
void      mcp_doctor_block              (McpDoctor        *self,
                                         const char       *reason);
/* For a step's callback: TRUE when the run was cancelled (the callback
 * returns at once; the run has ended), FALSE to go on. */
gboolean  mcp_doctor_step_aborted       (McpDoctor        *self);
/* Cancelled when the run is or when the step's time is up. */
GCancellable *mcp_doctor_step_get_cancellable (McpDoctor  *self);
/* Masks @secret (nullable) too in what the checks say from now on. */
void      mcp_doctor_add_secret         (McpDoctor        *self,
                                         const char       *secret);
/* The timeout in whole seconds (at least 1), for messages. */
guint     mcp_doctor_timeout_seconds    (McpDoctor        *self);
/* The value of @name the server starts with: its config's env first, then
 * the doctor's environment. */
const char *mcp_doctor_getenv           (McpDoctor        *self,
                                         const char       *name);
/* @text cut to MCP_DOCTOR_MAX_SHOWN characters and escaped. */
char     *mcp_doctor_quote              (const char       *text);
/* The last MCP_DOCTOR_STDERR_LINES of @lines, escaped, one per line with
 * a prefix, or NULL when there are none. */
char     *mcp_doctor_format_lines       (const char * const *lines);

/* Runs @argv (no shell, no terminal, stdin closed, stderr with stdout)
 * for at most MCP_DOCTOR_COMMAND_TIMEOUT_MS, keeping MCP_DOCTOR_MAX_OUTPUT
 * bytes of its output. */
void      mcp_doctor_run_command_async  (McpDoctor           *self,
                                         const char * const  *argv,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data);
/* The output (NUL-terminated), or NULL with @error (a timeout is
 * G_IO_ERROR_TIMED_OUT). @wait_status as waitpid(). */
char     *mcp_doctor_run_command_finish (McpDoctor           *self,
                                         GAsyncResult        *result,
                                         int                 *wait_status,
                                         GError             **error);

/* mcp-doctor-stdio.c */
/* "Protocol version V (the … era)." of a connected @client. */
char     *mcp_doctor_describe_era       (McpClient        *client);
extern const McpDoctorStep mcp_doctor_stdio_steps[];
extern const guint         mcp_doctor_n_stdio_steps;
void      mcp_doctor_stdio_reset        (McpDoctor        *self);

/* mcp-doctor-http.c */
extern const McpDoctorStep mcp_doctor_http_steps[];
extern const guint         mcp_doctor_n_http_steps;
void      mcp_doctor_http_reset         (McpDoctor        *self);
/* The headers of the settings plus the stored sign-in, for a request. */
void      mcp_doctor_http_add_headers   (McpDoctor        *self,
                                         SoupMessage      *message);

/* mcp-doctor-sign-in.c */
void      mcp_doctor_check_sign_in      (McpDoctor        *self);
/* Loads the stored sign-in of a remote server (no sign-in is started),
 * so that the checks send what a connection would; then calls @then. */
void      mcp_doctor_load_sign_in       (McpDoctor        *self,
                                         McpDoctorStepFunc then);

G_END_DECLS
