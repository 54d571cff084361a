/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <stdio.h>

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "mcp-client.h"
#include "mcp-content.h"
#include "mcp-tool-result.h"
#include "mcp-transport.h"

G_BEGIN_DECLS

/* Between plugboard-cli.c (the ad-hoc verbs, shared output and waiting)
 * and plugboard-cli-settings.c (the verbs on the settings). */

#define PROGRAM_NAME "plugboard-cli"

#define EXIT_TOOL_ERROR   1
#define EXIT_USAGE        2
#define EXIT_CONNECTION   3
#define EXIT_PERMISSION   4
#define EXIT_SETTINGS     5
#define EXIT_INTERRUPTED  130

typedef struct _Cli Cli;

/* What the ad-hoc subcommands share: where the server is and how to talk
 * to it. */
typedef struct
{
  gboolean   json;
  gboolean   verbose;
  char      *timeout_text;
  guint      timeout_ms;      /* 0: not given */
  GStrv      server_argv;
  char      *http_url;
  char      *sse_url;
  char      *ws_url;
  GStrv      headers;
} CommonOptions;

typedef struct
{
  const char *name;
  const char *parameter_string;
  const char *summary;
  int       (*run) (Cli   *cli,
                    int    argc,
                    char **argv);
} Subcommand;

struct _Cli
{
  const Subcommand *subcommand;
  CommonOptions     common;

  /* Owned references */
  McpTransport     *transport;
  McpClient        *client;
  GCancellable     *cancellable;

  guint             connect_timeout_ms;
  gboolean          connect_timed_out;
  guint             n_signals;
  gboolean          interrupted;
  gboolean          said_cancelled;

  gboolean          stderr_is_tty;
  gboolean          progress_line_open;

  /* --interactive: asked for, and whether it holds (a terminal on stdin
   * and stdout); decided once, by cli_is_interactive(). */
  gboolean          interactive_requested;
  gboolean          interactive_decided;
  gboolean          interactive;

  /* The terminal, read a line at a time on the main loop (one buffer for
   * every question, so that typed-ahead lines are not lost): our own
   * descriptor of it, never waited on in read(); see cli_read_line_async(). */
  GString          *typed;      /* read but not handed out yet; NULL: not open */
  gboolean          typed_end;  /* read() said end of input (Ctrl-D) */
  int               terminal_fd;
  gboolean          terminal_fd_owned;
  GSource          *terminal_source;
  GQueue           *reads;      /* GTasks waiting for a line, the first one watched */
  /* The servers' requests waiting for the person, one asked at a time. */
  GQueue           *dialogs;
  gpointer          dialog;
};

char     *one_line               (const char        *text);
char     *cli_escape             (const char        *text);
int       display_width          (const char        *text);
char     *pad_to_width           (const char        *text,
                                  int                width);
void      end_progress_line      (Cli               *cli);
/* As fprintf(), with control characters escaped (newlines kept), as
 * every g_print() and g_printerr() of plugboard-cli is. */
void      print_to               (FILE              *stream,
                                  const char        *format,
                                  ...) G_GNUC_PRINTF (2, 3);
void      print_failure          (Cli               *cli,
                                  const char        *format,
                                  ...) G_GNUC_PRINTF (2, 3);
void      print_subcommand_usage (const Subcommand  *subcommand);
int       usage_error            (const Subcommand  *subcommand,
                                  const char        *format,
                                  ...) G_GNUC_PRINTF (2, 3);
void      print_json             (JsonNode          *node);
void      print_json_object      (JsonObject        *object);
void      print_tool_result      (McpToolResult     *result);
void      print_content_block    (McpContent        *block);
void      print_task_status      (Cli               *cli,
                                  McpTask           *task,
                                  char             **last_line);
void      show_progress          (Cli               *cli,
                                  double             progress,
                                  double             total,
                                  const char        *message);
gboolean  read_env_ms            (const char        *name,
                                  guint              default_value,
                                  guint             *out_value,
                                  GError           **error);
void      store_result_cb        (GObject           *object,
                                  GAsyncResult      *result,
                                  gpointer           user_data);
void      wait_for_result        (GAsyncResult     **slot);
int       cancelled              (Cli               *cli);
gboolean  header_is_valid        (const char        *header);
char     *check_url              (const char        *option,
                                  const char        *url,
                                  const char       **schemes);
void      split_server_command   (int               *argc,
                                  char             **argv,
                                  GStrv             *out_server_argv);

/* The terminal and the servers' requests (plugboard-cli.c) */
gboolean  cli_is_interactive     (Cli               *cli);
void      cli_read_line_async    (Cli               *cli,
                                  GCancellable      *cancellable,
                                  GAsyncReadyCallback callback,
                                  gpointer           user_data);
/* The line without its end; NULL without @error at the end of input. */
char     *cli_read_line_finish   (Cli               *cli,
                                  GAsyncResult      *result,
                                  GError           **error);
/* sampling/createMessage and elicitation/create: asked on the terminal,
 * one request at a time. */
void      cli_answer_request     (Cli               *cli,
                                  const char        *server,
                                  const char        *method,
                                  JsonObject        *params,
                                  GTask             *reply);
JsonObject *cli_sampling_capabilities    (void);
JsonObject *cli_elicitation_capabilities (void);

/* plugboard-cli-settings.c */
gboolean  cli_is_ad_hoc          (int                argc,
                                  char             **argv);
int       cmd_settings_list      (Cli   *cli, int argc, char **argv);
int       cmd_settings_get       (Cli   *cli, int argc, char **argv);
int       cmd_settings_add       (Cli   *cli, int argc, char **argv);
int       cmd_settings_add_json  (Cli   *cli, int argc, char **argv);
int       cmd_settings_remove    (Cli   *cli, int argc, char **argv);
int       cmd_settings_enable    (Cli   *cli, int argc, char **argv);
int       cmd_settings_disable   (Cli   *cli, int argc, char **argv);
int       cmd_settings_approve   (Cli   *cli, int argc, char **argv);
int       cmd_settings_reject    (Cli   *cli, int argc, char **argv);
int       cmd_settings_tools     (Cli   *cli, int argc, char **argv);
int       cmd_settings_call      (Cli   *cli, int argc, char **argv);
int       cmd_settings_ping      (Cli   *cli, int argc, char **argv);
int       cmd_settings_login     (Cli   *cli, int argc, char **argv);
int       cmd_settings_logout    (Cli   *cli, int argc, char **argv);
int       cmd_settings_resources (Cli   *cli, int argc, char **argv);
int       cmd_settings_templates (Cli   *cli, int argc, char **argv);
int       cmd_settings_read      (Cli   *cli, int argc, char **argv);
int       cmd_settings_prompts   (Cli   *cli, int argc, char **argv);
int       cmd_settings_prompt    (Cli   *cli, int argc, char **argv);
int       cmd_settings_log_level (Cli   *cli, int argc, char **argv);
int       cmd_settings_tasks     (Cli   *cli, int argc, char **argv);

G_END_DECLS
