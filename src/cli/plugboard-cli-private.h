/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <stdio.h>

#include <gio/gio.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "mcp-content.h"
#include "mcp-project.h"
#include "mcp-processed-result.h"
#include "mcp-tool-result.h"

G_BEGIN_DECLS

/* Between the parts of plugboard-cli: plugboard-cli.c (main, the table of
 * verbs, signals, waiting), -options.c (the command line), -output.c
 * (printing), -terminal.c (reading lines, asking the person), -dialog.c
 * and -form.c (the servers' sampling and elicitation requests), -project.c
 * (the McpProject a verb runs on), and one file per group of verbs. */

#define PROGRAM_NAME "plugboard-cli"

#define EXIT_TOOL_ERROR   1
#define EXIT_USAGE        2
#define EXIT_CONNECTION   3
#define EXIT_PERMISSION   4
#define EXIT_SETTINGS     5
#define EXIT_INTERRUPTED  130

typedef struct _PlugboardCli PlugboardCli;

typedef struct
{
  const char *name;
  const char *parameter_string;
  const char *summary;
  int       (*run) (PlugboardCli  *cli,
                    int            argc,
                    char         **argv);
} PlugboardCliVerb;

struct _PlugboardCli
{
  const PlugboardCliVerb *verb;

  /* The settings' options (--project, --config-dir, --scope, --json) */
  char             *project_opt;
  char             *config_dir_opt;
  char             *scope_opt;
  gboolean          json;
  /* --client: whose settings files (issue 26); PLUGBOARD when not given */
  char             *client_opt;
  McpClientKind     client;

  /* An ad-hoc server's options: the server is on the command line */
  gboolean          ad_hoc;
  gboolean          verbose;
  char             *timeout_text;
  guint             timeout_ms;      /* 0: not given */
  GStrv             server_argv;
  char             *http_url;
  char             *sse_url;
  char             *ws_url;
  GStrv             headers;
  /* The words of a verb on one server in its ad-hoc form, NAME (argv[1])
   * left empty: see plugboard_cli_start_server_verb(). Borrowed strings. */
  char            **ad_hoc_words;

  /* Owned references */
  McpLimits        *limits;            /* the environment's, checked before any verb */
  McpProject       *project;
  GCancellable     *cancellable;
  char             *ad_hoc_cache_dir;  /* the ad-hoc manager's needs-auth cache */
  GPtrArray        *watched_logs;      /* the servers' log models followed */

  guint             n_signals;
  gboolean          interrupted;
  gboolean          said_cancelled;

  gboolean          show_server_log;   /* the servers' log messages on stderr without -v */
  gboolean          stderr_is_tty;
  gboolean          progress_line_open;

  /* --interactive: asked for, and whether it holds (a terminal on stdin
   * and stdout); decided once, by plugboard_cli_is_interactive(). */
  gboolean          interactive_requested;
  /* --trace FILE: where each server's trace goes when the verb ends */
  GOutputStream    *trace_stream;
  char             *trace_path;
  gboolean          interactive_decided;
  gboolean          interactive;

  /* The terminal, read a line at a time on the main loop (one buffer for
   * every question, so that typed-ahead lines are not lost): our own
   * descriptor of it, never waited on in read(); see -terminal.c. */
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

/* plugboard-cli.c: waiting on the main loop, and cancellation */
void        plugboard_cli_store_result_cb   (GObject        *object,
                                             GAsyncResult   *result,
                                             gpointer        user_data);
void        plugboard_cli_wait_for_result   (GAsyncResult  **slot);
int         plugboard_cli_cancelled         (PlugboardCli   *cli);
gboolean    plugboard_cli_check_limit       (PlugboardCli   *cli,
                                             McpLimit        limit,
                                             GError        **error);
void        plugboard_cli_print_verb_usage  (const PlugboardCliVerb *verb);
int         plugboard_cli_usage_error       (const PlugboardCliVerb *verb,
                                             const char             *format,
                                             ...) G_GNUC_PRINTF (2, 3);

/* plugboard-cli-options.c: the command line */
gboolean    plugboard_cli_is_ad_hoc         (int             argc,
                                             char          **argv);
void        plugboard_cli_split_server_command (int         *argc,
                                                char       **argv,
                                                GStrv       *out_server_argv);
gboolean    plugboard_cli_header_is_valid   (const char     *header);
char       *plugboard_cli_check_url         (const char     *option,
                                             const char     *url,
                                             const char    **schemes);
int         plugboard_cli_parse_settings_options (PlugboardCli   *cli,
                                                  GOptionEntry   *extra_entries,
                                                  gboolean        with_scope,
                                                  gboolean        with_json,
                                                  int            *argc,
                                                  char         ***argv);
int         plugboard_cli_parse_ad_hoc_options   (PlugboardCli   *cli,
                                                  GOptionEntry   *extra_entries,
                                                  gboolean        with_json,
                                                  int            *argc,
                                                  char         ***argv);
/* NAME and @min to @max more positional arguments (argv[0] is the verb). */
int         plugboard_cli_check_count       (PlugboardCli   *cli,
                                             int             argc,
                                             char          **argv,
                                             int             min,
                                             int             max,
                                             const char     *what);
/* --args: 0 and the object (NULL when @text is NULL), or the exit status. */
int         plugboard_cli_parse_arguments   (PlugboardCli   *cli,
                                             const char     *text,
                                             JsonObject    **out_arguments);
int         plugboard_cli_start_server_verb (PlugboardCli   *cli,
                                             GOptionEntry   *entries,
                                             gboolean        with_json,
                                             int            *argc,
                                             char         ***argv,
                                             int             n_more,
                                             const char     *what_more);
int         plugboard_cli_parse_pairs       (PlugboardCli       *cli,
                                             const char         *option,
                                             const char * const *pairs,
                                             JsonObject         *object);
int         plugboard_cli_start_server_verb_full (PlugboardCli   *cli,
                                                  GOptionEntry   *entries,
                                                  gboolean        with_json,
                                                  int            *argc,
                                                  char         ***argv,
                                                  int             min_more,
                                                  int             max_more,
                                                  const char     *what_more);
const char *plugboard_cli_scope_name        (McpConfigScope  scope);
int         plugboard_cli_parse_client      (PlugboardCli   *cli,
                                             const char     *option,
                                             const char     *text,
                                             McpClientKind  *out_kind);
gboolean    plugboard_cli_parse_scope       (const char     *text,
                                             McpConfigScope *out_scope);

/* plugboard-cli-output.c: every string from a server or a file reaches the
 * terminal escaped (mcp_escape_controls()) */
void        plugboard_cli_install_print_handlers (void);
char       *plugboard_cli_one_line          (const char     *text);
char       *plugboard_cli_escape            (const char     *text);
int         plugboard_cli_display_width     (const char     *text);
char       *plugboard_cli_pad_to_width      (const char     *text,
                                             int             width);
void        plugboard_cli_print_to          (FILE           *stream,
                                             const char     *format,
                                             ...) G_GNUC_PRINTF (2, 3);
void        plugboard_cli_end_progress_line (PlugboardCli   *cli);
void        plugboard_cli_print_failure     (PlugboardCli   *cli,
                                             const char     *format,
                                             ...) G_GNUC_PRINTF (2, 3);

/* plugboard-cli-error.c: a server's JSON-RPC error with its code and data */
char       *plugboard_cli_describe_error    (const GError   *error);
void        plugboard_cli_print_json_error  (PlugboardCli   *cli,
                                             const GError   *error);

void        plugboard_cli_print_table_row   (const int      *widths,
                                             guint           n_cells,
                                             const char    **cells);
char       *plugboard_cli_json_to_string    (JsonNode       *node,
                                             gboolean        pretty);
void        plugboard_cli_print_json        (JsonNode       *node);
void        plugboard_cli_print_json_object (JsonObject     *object);
void        plugboard_cli_print_json_objects (GListModel    *model,
                                              JsonObject  *(*get_json) (gpointer item));
void        plugboard_cli_print_text_block  (const char     *text);
/* @description on one line, after @indent. */
void        plugboard_cli_print_description (const char     *indent,
                                             const char     *description);
void        plugboard_cli_print_content_block (McpContent   *block);
void        plugboard_cli_print_tool_result (McpToolResult  *result);
/* What post-processing saved and noted, on @stream. */
void        plugboard_cli_print_processed_notes (FILE               *stream,
                                                 McpProcessedResult *processed,
                                                 gboolean            with_files);
void        plugboard_cli_show_progress     (PlugboardCli   *cli,
                                             double          progress,
                                             double          total,
                                             const char     *message);
void        plugboard_cli_print_task_status (PlugboardCli   *cli,
                                             McpTask        *task,
                                             char          **last_line);
void        plugboard_cli_print_stderr_tail (McpServerConnection *connection);

/* plugboard-cli-terminal.c */
gboolean    plugboard_cli_is_interactive    (PlugboardCli   *cli);
gboolean    plugboard_cli_have_terminal     (void);
void        plugboard_cli_read_line_async   (PlugboardCli        *cli,
                                             GCancellable        *cancellable,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
/* The line without its end; NULL without @error at the end of input. */
char       *plugboard_cli_read_line_finish  (PlugboardCli   *cli,
                                             GAsyncResult   *result,
                                             GError        **error);
/* Reads "y"/"yes" (TRUE) or anything else (FALSE) into @answer. */
void        plugboard_cli_read_yes_no       (PlugboardCli   *cli,
                                             GTask          *answer);
void        plugboard_cli_close_terminal    (PlugboardCli   *cli);
gboolean    plugboard_cli_is_yes            (const char     *line);

/* plugboard-cli-dialog.c: sampling/createMessage and elicitation/create,
 * asked on the terminal one request at a time */
typedef struct
{
  PlugboardCli *cli;
  char         *server;
  char         *method;
  JsonObject   *params;
  GTask        *reply;
  GCancellable *cancellable;    /* the reply's or the whole run's */
  gulong        reply_handler;
  gulong        cli_handler;

  /* sampling */
  GString      *text;

  /* elicitation (-form.c) */
  GPtrArray    *fields;
  guint         current;
  JsonObject   *content;
} PlugboardCliDialog;

void        plugboard_cli_answer_request    (PlugboardCli   *cli,
                                             const char     *server,
                                             const char     *method,
                                             JsonObject     *params,
                                             GTask          *reply);
/* After the sessions closed: the questions nobody will answer now. */
void        plugboard_cli_drop_dialogs      (PlugboardCli   *cli);
/* Answers the server (@result NULL: with @error) and goes on with the
 * next request waiting. */
void        plugboard_cli_dialog_finish     (PlugboardCliDialog *dialog,
                                             JsonNode           *result,
                                             GError             *error);
void        plugboard_cli_dialog_abort      (PlugboardCliDialog *dialog,
                                             GError             *error);
gboolean    plugboard_cli_dialog_take_line  (PlugboardCliDialog  *dialog,
                                             GAsyncResult        *result,
                                             char               **out_line);
void        plugboard_cli_print_indented    (const char     *indent,
                                             const char     *text);
char       *plugboard_cli_node_to_compact   (JsonNode       *node);

/* plugboard-cli-form.c: elicitation/create, form mode */
void        plugboard_cli_form_start        (PlugboardCliDialog *dialog);

/* plugboard-cli-url.c: elicitation/create, URL mode, and the browser */
void        plugboard_cli_url_start         (PlugboardCliDialog *dialog);
void        plugboard_cli_print_elicitation_complete (PlugboardCli *cli,
                                                      const char   *text);
/* Opens @url (the URL policy let it through) with $BROWSER, or the
 * desktop's browser when there is a display; FALSE when nothing opened it. */
gboolean    plugboard_cli_open_browser      (const char     *url);

/* plugboard-cli-field.c: one field of an elicitation form */
typedef enum
{
  PLUGBOARD_CLI_FIELD_STRING,
  PLUGBOARD_CLI_FIELD_NUMBER,
  PLUGBOARD_CLI_FIELD_INTEGER,
  PLUGBOARD_CLI_FIELD_BOOLEAN,
  PLUGBOARD_CLI_FIELD_CHOICE,       /* one of a list */
  PLUGBOARD_CLI_FIELD_CHOICES,      /* several of a list (an array of enum items) */
} PlugboardCliFieldKind;

typedef struct
{
  char                  *name;
  JsonObject            *schema;
  PlugboardCliFieldKind  kind;
  gboolean               required;
  GPtrArray             *values;   /* CHOICE(S): the JSON values (JsonNode) */
  GPtrArray             *labels;   /* their titles, or NULL entries */
} PlugboardCliField;

PlugboardCliField *plugboard_cli_field_new   (const char        *name,
                                              JsonObject        *schema,
                                              gboolean           required);
void               plugboard_cli_field_free  (PlugboardCliField *field);
void               plugboard_cli_field_print (PlugboardCliField *field,
                                              guint              index,
                                              guint              n_fields);
/* The JSON value @text gives @field, or NULL with @problem saying what
 * the field takes. */
JsonNode          *plugboard_cli_field_parse (PlugboardCliField  *field,
                                              const char         *text,
                                              char              **problem);
JsonArray         *plugboard_cli_array_member (JsonObject       *object,
                                               const char       *name);

/* plugboard-cli-session.c: log-level --follow and subscribe */
int         plugboard_cli_follow            (PlugboardCli        *cli,
                                             McpServerConnection *connection,
                                             const char          *server);

/* plugboard-cli-tool-args.c: call --tool-arg KEY=VALUE */
int         plugboard_cli_add_tool_args     (PlugboardCli        *cli,
                                             McpTool             *tool,
                                             const char * const  *tool_args,
                                             JsonObject         **arguments);

/* plugboard-cli-servers-json.c: list --json, get --json and instructions */
void        plugboard_cli_print_servers_json (PlugboardCli       *cli);
void        plugboard_cli_print_server_json (PlugboardCli        *cli,
                                             McpServerConfig     *config,
                                             McpServerConnection *connection);
void        plugboard_cli_print_instructions (McpServerConnection *connection);

/* plugboard-cli-project.c: the McpProject a verb runs on */
void        plugboard_cli_set_up_project    (PlugboardCli        *cli);
int         plugboard_cli_finish_loading    (PlugboardCli        *cli);
int         plugboard_cli_load_project      (PlugboardCli        *cli,
                                             const char * const  *connect_only);
int         plugboard_cli_settle            (PlugboardCli        *cli);
void        plugboard_cli_close_project     (PlugboardCli        *cli);
McpSettings *plugboard_cli_get_settings     (PlugboardCli        *cli);
McpServerManager *plugboard_cli_get_manager (PlugboardCli        *cli);
int         plugboard_cli_refuse_broken_files (PlugboardCli      *cli);
const McpSettingsProblem *plugboard_cli_find_file_problem (PlugboardCli *cli);
McpServerConfig *plugboard_cli_lookup_or_fail (PlugboardCli      *cli,
                                               const char        *name,
                                               int               *status);
/* The verbs on one server (configured, or ad hoc when the command line
 * gives one): connects it alone; 0 and the connection, or the exit status
 * after saying why. */
int         plugboard_cli_open_server       (PlugboardCli         *cli,
                                             const char           *name,
                                             McpServerConnection **out_connection);
int         plugboard_cli_require_connected (PlugboardCli        *cli,
                                             McpServerConnection *connection);
/* After a request failed with *@error: TRUE when the server's session had
 * expired and a new one started; the caller sends the request once more. */
gboolean    plugboard_cli_renew_session     (PlugboardCli        *cli,
                                             McpServerConnection *connection,
                                             gboolean            *retried,
                                             GError             **error);
/* plugboard-cli-ad-hoc.c */
int         plugboard_cli_open_ad_hoc       (PlugboardCli        *cli);
int         plugboard_cli_require_connected_ad_hoc (PlugboardCli        *cli,
                                                    McpServerConnection *connection);
char       *plugboard_cli_describe_state    (PlugboardCli        *cli,
                                             McpServerConnection *connection);
void        plugboard_cli_print_approval_changes (PlugboardCli   *cli,
                                                  const char     *name,
                                                  FILE           *out);
/* The name a server goes by in what is printed: its name in the settings,
 * or for an ad-hoc server the name it gives itself. */
const char *plugboard_cli_server_name       (PlugboardCli        *cli,
                                             McpServerConnection *connection);
/* The name a tool goes by: its qualified name (mcp__server__tool), or for
 * an ad-hoc server its own. */
const char *plugboard_cli_tool_name         (PlugboardCli        *cli,
                                             McpPoolTool         *tool);
int         plugboard_cli_request_failure   (PlugboardCli        *cli,
                                             McpServerConnection *connection,
                                             const char          *doing,
                                             const GError        *error);
/* Says whether the server's initialize declared @capability (and @member). */
gboolean    plugboard_cli_server_declares   (McpServerConnection *connection,
                                             const char          *capability,
                                             const char          *member);
void        plugboard_cli_print_none        (PlugboardCli        *cli,
                                             McpServerConnection *connection,
                                             const char          *what,
                                             const char          *capability,
                                             const char          *member);
int         plugboard_cli_start_listing     (PlugboardCli   *cli,
                                             int             argc,
                                             char          **argv,
                                             GListModel   *(*get_model) (McpServerConnection *connection),
                                             JsonObject   *(*get_json) (gpointer item),
                                             const char     *what,
                                             const char     *capability,
                                             GListModel    **out_model);
void        plugboard_cli_kill_servers      (PlugboardCli        *cli);

/* The verbs */
int plugboard_cli_list       (PlugboardCli *cli, int argc, char **argv);
int plugboard_cli_get        (PlugboardCli *cli, int argc, char **argv);
int plugboard_cli_add        (PlugboardCli *cli, int argc, char **argv);
int plugboard_cli_add_json   (PlugboardCli *cli, int argc, char **argv);
int plugboard_cli_remove     (PlugboardCli *cli, int argc, char **argv);
int plugboard_cli_set_enabled  (PlugboardCli *cli, int argc, char **argv);  /* enable, disable */
int plugboard_cli_set_approval (PlugboardCli *cli, int argc, char **argv);  /* approve, reject */
int plugboard_cli_tools      (PlugboardCli *cli, int argc, char **argv);
int plugboard_cli_call       (PlugboardCli *cli, int argc, char **argv);
int plugboard_cli_app        (PlugboardCli *cli, int argc, char **argv);

/* MCP Apps (plugboard-cli-app.c): a tool's interface in listings, after a
 * call, and saved by app --save. */
JsonObject *plugboard_cli_interface_to_json    (McpTool        *tool);
void        plugboard_cli_print_interface_line (McpTool        *tool);
void        plugboard_cli_note_interface       (PlugboardCli   *cli,
                                                McpPoolTool    *tool);
int         plugboard_cli_read_interface       (PlugboardCli        *cli,
                                                McpServerConnection *connection,
                                                McpPoolTool         *tool,
                                                McpUiResource      **out_resource);
int         plugboard_cli_save_interface       (PlugboardCli   *cli,
                                                const char     *dir,
                                                McpUiResource  *resource,
                                                JsonObject     *arguments,
                                                JsonObject     *result);
int plugboard_cli_ping       (PlugboardCli *cli, int argc, char **argv);
int plugboard_cli_doctor     (PlugboardCli *cli, int argc, char **argv);
int plugboard_cli_resources  (PlugboardCli *cli, int argc, char **argv);
int plugboard_cli_templates  (PlugboardCli *cli, int argc, char **argv);
int plugboard_cli_read       (PlugboardCli *cli, int argc, char **argv);
int plugboard_cli_skills     (PlugboardCli *cli, int argc, char **argv);
int plugboard_cli_skill      (PlugboardCli *cli, int argc, char **argv);
int plugboard_cli_prompts    (PlugboardCli *cli, int argc, char **argv);
int plugboard_cli_prompt     (PlugboardCli *cli, int argc, char **argv);
int plugboard_cli_log_level  (PlugboardCli *cli, int argc, char **argv);
int plugboard_cli_tasks      (PlugboardCli *cli, int argc, char **argv);
int plugboard_cli_changes    (PlugboardCli *cli, int argc, char **argv);
int plugboard_cli_login      (PlugboardCli *cli, int argc, char **argv);
int plugboard_cli_secret     (PlugboardCli *cli, int argc, char **argv);
int plugboard_cli_logout     (PlugboardCli *cli, int argc, char **argv);
int plugboard_cli_trace      (PlugboardCli *cli, int argc, char **argv);

/* plugboard-cli-trace.c: --trace FILE */
gboolean    plugboard_cli_open_trace        (PlugboardCli     *cli,
                                             const char       *path,
                                             GError          **error);
/* A --trace run keeps more of each server's traffic than the app. */
void        plugboard_cli_size_traces       (PlugboardCli     *cli,
                                             McpServerManager *manager);
/* Writes every server's trace to the --trace file and closes it. */
void        plugboard_cli_write_trace       (PlugboardCli     *cli,
                                             McpServerManager *manager);
int plugboard_cli_complete   (PlugboardCli *cli, int argc, char **argv);
int plugboard_cli_subscribe  (PlugboardCli *cli, int argc, char **argv);
/* plugboard-cli-clients.c and -registry.c (issue 26) */
int plugboard_cli_clients    (PlugboardCli *cli, int argc, char **argv);
int plugboard_cli_copy       (PlugboardCli *cli, int argc, char **argv);
int plugboard_cli_registry   (PlugboardCli *cli, int argc, char **argv);
/* plugboard-cli-import.c */
int plugboard_cli_import     (PlugboardCli *cli, int argc, char **argv);  /* import, add-from-claude-desktop */
int plugboard_cli_reset_project_choices (PlugboardCli *cli, int argc, char **argv);

G_END_DECLS
