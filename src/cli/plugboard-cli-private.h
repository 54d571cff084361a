/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "mcp-client.h"
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
};

char     *one_line               (const char        *text);
void      end_progress_line      (Cli               *cli);
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

G_END_DECLS
