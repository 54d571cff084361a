/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include "mcp-error.h"
#include "mcp-redact.h"

#include "plugboard-cli-interaction.h"

/* PlugboardCliInteraction: the person at the terminal, as McpProject asks
 * them — may a tool run, open this address, answer this server's form or
 * write its model reply, sign in there. Questions go to stderr and are
 * answered a line at a time on the main loop (-terminal.c); the servers'
 * requests are dialogs, one at a time (-dialog.c, -form.c). */

struct _PlugboardCliInteraction
{
  McpInteraction  parent_instance;

  PlugboardCli   *cli;    /* borrowed: it outlives the project */
  gboolean        yes;
};

G_DEFINE_FINAL_TYPE (PlugboardCliInteraction, plugboard_cli_interaction, MCP_TYPE_INTERACTION)

static void
ask_tool_async (McpInteraction      *interaction,
                McpPoolTool         *tool,
                JsonObject          *arguments,
                const char          *rule,
                GCancellable        *cancellable,
                GAsyncReadyCallback  callback,
                gpointer             user_data)
{
  PlugboardCliInteraction *self = PLUGBOARD_CLI_INTERACTION (interaction);
  GTask *answer = g_task_new (self, cancellable, callback, user_data);
  PlugboardCli *cli = self->cli;
  g_autofree char *why = NULL;
  McpPermissionDecision decision;

  g_task_set_source_tag (answer, ask_tool_async);
  /* an allow rule suspended by a change: the person is told why */
  mcp_permissions_decide_tool (mcp_project_get_permissions (cli->project), tool, &decision);
  if (decision.reason == MCP_PERMISSION_REASON_CHANGED_SINCE_ALLOWED)
    why = mcp_permission_decision_describe (&decision);
  if (self->yes)
    {
      g_task_return_boolean (answer, TRUE);
      g_object_unref (answer);
      return;
    }

  /* Nobody to ask: no terminal, or output for a program (--json). */
  if (plugboard_cli_have_terminal () && !cli->json)
    {
      fflush (stdout);
      plugboard_cli_end_progress_line (cli);
      if (why != NULL)
        g_printerr ("%s\n", why);
      g_printerr (_("Allow %s? [y/N] "), mcp_pool_tool_get_qualified_name (tool));
      plugboard_cli_read_yes_no (cli, answer);
      return;
    }

  if (why == NULL)
    why = rule ? g_strdup_printf (_("the rule “%s” asks"), rule)
             : g_strdup (_("no permission rule allows it"));
  if (cli->json && plugboard_cli_have_terminal ())
    g_task_return_new_error (answer, MCP_ERROR, MCP_ERROR_PERMISSION_DENIED,
                             _("%s, and --json asks no questions; run again with --yes to allow it"),
                             why);
  else
    g_task_return_new_error (answer, MCP_ERROR, MCP_ERROR_PERMISSION_DENIED,
                             _("%s, and there is no terminal to ask on; run again with --yes to allow it"),
                             why);
  g_object_unref (answer);
}

static gboolean
yes_no_finish (McpInteraction  *interaction,
               GAsyncResult    *result,
               GError         **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

/* The person said whether to open the page: opened, they are asked
 * when they are done there (the call is tried again then). */
static void
on_open_answer_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  PlugboardCliInteraction *self = PLUGBOARD_CLI_INTERACTION (object);
  GTask *done = user_data;
  const char *url = g_task_get_task_data (done);
  g_autoptr(GError) error = NULL;
  gboolean open;

  open = g_task_propagate_boolean (G_TASK (result), &error);
  if (error != NULL)
    {
      g_task_return_error (done, g_steal_pointer (&error));
      g_object_unref (done);
      return;
    }
  if (!open)
    {
      g_task_return_boolean (done, FALSE);
      g_object_unref (done);
      return;
    }

  if (!plugboard_cli_open_browser (url))
    fprintf (stderr, _("No browser to open it: open the URL above yourself.\n"));
  fprintf (stderr, _("Done there? [y/N] "));
  fflush (stderr);
  plugboard_cli_read_yes_no (self->cli, done);
}

/* A tool call's -32042: the page shown with its host, opened only with the
 * person's yes; without a terminal, what to do to go on. */
static void
open_url_async (McpInteraction      *interaction,
                const char          *server_name,
                const char          *url,
                const char          *host,
                const char          *message,
                GCancellable        *cancellable,
                GAsyncReadyCallback  callback,
                gpointer             user_data)
{
  PlugboardCliInteraction *self = PLUGBOARD_CLI_INTERACTION (interaction);
  GTask *done = g_task_new (self, cancellable, callback, user_data);
  g_autofree char *text = message ? plugboard_cli_one_line (message) : NULL;
  g_autofree char *shown_url = plugboard_cli_escape (url);
  GTask *open;

  g_task_set_source_tag (done, open_url_async);
  g_task_set_task_data (done, g_strdup (url), g_free);
  fflush (stdout);
  /* Translators: the first %s is a server's name, the second an address, the
   * third its host, the rest the server's message */
  g_printerr (_("%s asks you to open %s (at %s)%s%s\n"), server_name, shown_url,
              host, text ? ": " : "", text ? text : "");
  if (!plugboard_cli_have_terminal ())
    {
      g_printerr (_("Open it in a browser, finish there, then run the command again.\n"));
      g_task_return_boolean (done, FALSE);
      g_object_unref (done);
      return;
    }

  open = g_task_new (self, cancellable, on_open_answer_cb, done);
  fprintf (stderr, _("Open %s in the browser? [y/N] "), host);
  fflush (stderr);
  plugboard_cli_read_yes_no (self->cli, open);
}

/* elicitation/create and sampling/createMessage: a dialog each. */
static void
answer_async (PlugboardCliInteraction *self,
              const char              *method,
              McpServerConnection     *connection,
              JsonObject              *params,
              GCancellable            *cancellable,
              GAsyncReadyCallback      callback,
              gpointer                 user_data)
{
  GTask *reply = g_task_new (self, cancellable, callback, user_data);

  g_task_set_source_tag (reply, answer_async);
  plugboard_cli_answer_request (self->cli, plugboard_cli_server_name (self->cli, connection),
                                method, params, reply);
}

static void
elicit_async (McpInteraction      *interaction,
              McpServerConnection *connection,
              JsonObject          *params,
              GCancellable        *cancellable,
              GAsyncReadyCallback  callback,
              gpointer             user_data)
{
  answer_async (PLUGBOARD_CLI_INTERACTION (interaction), "elicitation/create",
                connection, params, cancellable, callback, user_data);
}

static void
sample_async (McpInteraction      *interaction,
              McpServerConnection *connection,
              JsonObject          *params,
              GCancellable        *cancellable,
              GAsyncReadyCallback  callback,
              gpointer             user_data)
{
  answer_async (PLUGBOARD_CLI_INTERACTION (interaction), "sampling/createMessage",
                connection, params, cancellable, callback, user_data);
}

static JsonNode *
answer_finish (McpInteraction  *interaction,
               GAsyncResult    *result,
               GError         **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
show_sign_in_url (McpInteraction *interaction,
                  const char     *server_name,
                  const char     *url,
                  const char     *host)
{
  g_autofree char *name = mcp_escape_controls (server_name, MCP_ESCAPE_DEFAULT);

  /* The URL policy let it through: it does not begin with "-". */
  g_assert (url[0] != '-');

  /* Translators: the first %s is the server's name, the second the host the
   * sign-in address goes to, the third that address */
  g_print (_("To sign in to “%s” at %s, open:\n  %s\n"), name, host, url);
  fflush (stdout);
  plugboard_cli_open_browser (url);
  fputs (_("Waiting for the browser… (Ctrl-C to cancel)\n"), stderr);
  fflush (stderr);
}

/* Sampling and elicitation (form, and URL: the page shown, and opened
 * only with the person's yes), with a person at the terminal
 * (--interactive); without, none is declared. */
static JsonObject *
dup_capabilities (McpInteraction *interaction)
{
  PlugboardCliInteraction *self = PLUGBOARD_CLI_INTERACTION (interaction);
  JsonObject *capabilities = json_object_new ();
  JsonObject *elicitation;

  if (!plugboard_cli_is_interactive (self->cli))
    return capabilities;

  elicitation = json_object_new ();
  json_object_set_object_member (elicitation, "form", json_object_new ());
  json_object_set_object_member (elicitation, "url", json_object_new ());
  json_object_set_object_member (capabilities, "elicitation", elicitation);
  json_object_set_object_member (capabilities, "sampling", json_object_new ());
  return capabilities;
}

static void
plugboard_cli_interaction_class_init (PlugboardCliInteractionClass *klass)
{
  McpInteractionClass *interaction_class = MCP_INTERACTION_CLASS (klass);

  interaction_class->ask_tool_async = ask_tool_async;
  interaction_class->ask_tool_finish = yes_no_finish;
  interaction_class->open_url_async = open_url_async;
  interaction_class->open_url_finish = yes_no_finish;
  interaction_class->elicit_async = elicit_async;
  interaction_class->elicit_finish = answer_finish;
  interaction_class->sample_async = sample_async;
  interaction_class->sample_finish = answer_finish;
  interaction_class->show_sign_in_url = show_sign_in_url;
  interaction_class->dup_capabilities = dup_capabilities;
}

static void
plugboard_cli_interaction_init (PlugboardCliInteraction *self)
{
}

McpInteraction *
plugboard_cli_interaction_new (PlugboardCli *cli)
{
  PlugboardCliInteraction *self = g_object_new (PLUGBOARD_TYPE_CLI_INTERACTION, NULL);

  self->cli = cli;
  return MCP_INTERACTION (self);
}

void
plugboard_cli_interaction_set_yes (PlugboardCliInteraction *self,
                                   gboolean                 yes)
{
  g_return_if_fail (PLUGBOARD_IS_CLI_INTERACTION (self));

  self->yes = yes;
}
