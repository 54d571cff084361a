/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include <string.h>

#include "plugboard-cli-private.h"

/* plugboard-cli subscribe: resources/subscribe to one URI, then a line for
 * each notifications/resources/updated about it until Ctrl-C, which
 * unsubscribes (as far as the server still answers) and exits 130. */

/* How long the goodbye (resources/unsubscribe) may take after Ctrl-C. */
#define UNSUBSCRIBE_BOUND_MS 3000

typedef struct
{
  PlugboardCli        *cli;
  McpServerConnection *connection;
  const char          *uri;
  gboolean             with_contents;
  gboolean             reading;   /* a read is under way */
} Subscription;

/* The text of each content block under the line, a binary one as its
 * size: what the resource is now. */
static void
print_contents (GPtrArray *contents)
{
  for (guint i = 0; i < contents->len; i++)
    {
      McpContent *block = g_ptr_array_index (contents, i);
      const char *text = mcp_content_get_text (block);

      if (text != NULL)
        plugboard_cli_print_indented ("  ", text);
      else
        {
          g_autoptr(GBytes) data = mcp_content_get_data (block, NULL);

          g_print (_("  %lu bytes of binary content\n"), (unsigned long) (data ? g_bytes_get_size (data) : 0));
        }
    }
}

static void
on_read_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Subscription *subscription = user_data;
  g_autoptr(GPtrArray) contents = NULL;
  g_autoptr(GError) error = NULL;

  /* The subscription waits for this before it goes, cancelled or not. */
  subscription->reading = FALSE;
  contents = mcp_client_read_resource_finish (MCP_CLIENT (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (contents == NULL)
    {
      g_autofree char *description = plugboard_cli_describe_error (error);

      fflush (stdout);
      g_printerr (_("%s: warning: reading %s failed: %s\n"), PROGRAM_NAME, subscription->uri, description);
      return;
    }
  print_contents (contents);
}

static void
on_resource_updated_cb (McpServerConnection *connection,
                        const char          *uri,
                        Subscription        *subscription)
{
  g_autoptr(GDateTime) now = NULL;
  g_autofree char *time = NULL;
  McpClient *client;

  if (g_strcmp0 (uri, subscription->uri) != 0)
    return;

  now = g_date_time_new_now_local ();
  time = g_date_time_format (now, "%Y-%m-%dT%H:%M:%S%:z");
  /* TRANSLATORS: the time of an update, then the resource's URI. */
  g_print (_("%s updated: %s\n"), time, uri);

  client = mcp_server_connection_get_client (connection);
  /* Updates faster than reads: the read under way shows the newest. */
  if (subscription->with_contents && client != NULL && !subscription->reading)
    {
      subscription->reading = TRUE;
      mcp_client_read_resource_async (client, subscription->uri, subscription->cli->cancellable,
                                      on_read_cb, subscription);
    }
}

static gboolean
on_unsubscribe_bound_cb (gpointer user_data)
{
  g_cancellable_cancel (user_data);
  return G_SOURCE_REMOVE;
}

/* After Ctrl-C: resources/unsubscribe, within a bound. */
static void
unsubscribe (PlugboardCli        *cli,
             McpServerConnection *connection,
             const char          *uri)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  guint bound;

  bound = g_timeout_add (UNSUBSCRIBE_BOUND_MS, on_unsubscribe_bound_cb, cancellable);
  mcp_server_connection_subscribe_async (connection, uri, FALSE, cancellable,
                                         plugboard_cli_store_result_cb, &result);
  plugboard_cli_wait_for_result (&result);
  if (!g_cancellable_is_cancelled (cancellable))
    g_source_remove (bound);
  if (!mcp_server_connection_subscribe_finish (connection, result, &error))
    g_debug ("Unsubscribing from %s: %s", uri, error->message);
}

int
plugboard_cli_subscribe (PlugboardCli *cli,
                         int           argc,
                         char        **argv)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *doing = NULL;
  McpServerConnection *connection;
  gboolean read_opt = FALSE;
  GOptionEntry entries[] = {
    { "read", 'r', 0, G_OPTION_ARG_NONE, &read_opt,
      N_("After each update, read the resource and print what it holds now"), NULL },
    { NULL }
  };
  Subscription subscription = { cli, NULL, NULL, FALSE, FALSE };
  const char *server;
  int status;

  if ((status = plugboard_cli_start_server_verb (cli, entries, FALSE, &argc, &argv, 1,
                                                 _("the URI of the resource"))) != 0)
    return status;
  subscription.uri = argv[2];
  subscription.with_contents = read_opt;

  if ((status = plugboard_cli_open_server (cli, argv[1], &connection)) != 0)
    return status;
  server = plugboard_cli_server_name (cli, connection);
  subscription.connection = connection;

  if (!plugboard_cli_server_declares (connection, "resources", "subscribe"))
    {
      plugboard_cli_print_failure (cli, _("“%s” does not offer subscriptions (its capabilities do not "
                                          "declare “resources.subscribe”)"), server);
      return EXIT_CONNECTION;
    }

  /* Connected before asking, so that an update sent right after the
   * answer is not missed. */
  g_signal_connect (connection, "resource-updated", G_CALLBACK (on_resource_updated_cb), &subscription);

  doing = g_strdup_printf (_("subscribing to %s of “%s” failed"), subscription.uri, server);
  mcp_server_connection_subscribe_async (connection, subscription.uri, TRUE, cli->cancellable,
                                         plugboard_cli_store_result_cb, &result);
  plugboard_cli_wait_for_result (&result);
  if (!mcp_server_connection_subscribe_finish (connection, result, &error))
    {
      g_signal_handlers_disconnect_by_data (connection, &subscription);
      return plugboard_cli_request_failure (cli, connection, doing, error);
    }

  g_printerr (_("Subscribed to %s of “%s”; Ctrl-C stops.\n"), subscription.uri, server);
  status = plugboard_cli_follow (cli, connection, server);
  /* A read cut short by Ctrl-C finishes (cancelled) before we go. */
  while (subscription.reading)
    g_main_context_iteration (NULL, TRUE);
  g_signal_handlers_disconnect_by_data (connection, &subscription);

  if (status == EXIT_INTERRUPTED)
    unsubscribe (cli, connection, subscription.uri);
  return status;
}
