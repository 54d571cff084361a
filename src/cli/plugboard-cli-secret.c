/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include "plugboard-cli-private.h"

#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "mcp-secret-store.h"

/* plugboard-cli secret set ID | clear ID | list: the secrets a server's
 * settings refer to as ${secret:ID} (a client secret, a private key), in
 * the keyring (McpSecretStore). A value is never an argument (it would be
 * in the shell's history and the process list): it is typed without echo
 * on a terminal, else read from stdin (all of it: a PEM key has many
 * lines; one trailing newline cut), or taken from an environment
 * variable with --from-env. It is never printed. */

#define SECRET_MAX (64 * 1024)

/* Overwrites and frees */
static void
free_secret (char *secret)
{
  if (secret != NULL)
    memset (secret, 0, strlen (secret));
  g_free (secret);
}

/* A line typed without echo on the terminal */
static char *
ask_hidden (const char *prompt)
{
  struct termios saved, quiet;
  char line[4096];
  gboolean restore;
  char *value;

  fprintf (stderr, "%s", prompt);
  fflush (stderr);
  restore = tcgetattr (STDIN_FILENO, &saved) == 0;
  if (restore)
    {
      quiet = saved;
      quiet.c_lflag &= ~(tcflag_t) ECHO;
      tcsetattr (STDIN_FILENO, TCSAFLUSH, &quiet);
    }
  if (fgets (line, sizeof line, stdin) == NULL)
    line[0] = '\0';
  if (restore)
    tcsetattr (STDIN_FILENO, TCSAFLUSH, &saved);
  fprintf (stderr, "\n");
  line[strcspn (line, "\r\n")] = '\0';
  value = g_strdup (line);
  memset (line, 0, sizeof line);
  return value;
}

/* All of stdin, at most SECRET_MAX bytes; one trailing newline cut */
static char *
read_stdin (GError **error)
{
  GString *text = g_string_new (NULL);
  char buffer[4096];
  size_t n;

  while ((n = fread (buffer, 1, sizeof buffer, stdin)) > 0)
    {
      g_string_append_len (text, buffer, (gssize) n);
      if (text->len > SECRET_MAX)
        {
          memset (text->str, 0, text->len);
          g_string_free (text, TRUE);
          memset (buffer, 0, sizeof buffer);
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                       _("The secret on standard input is larger than 64 KiB"));
          return NULL;
        }
    }
  memset (buffer, 0, sizeof buffer);
  if (text->len > 0 && text->str[text->len - 1] == '\n')
    g_string_truncate (text, text->len - 1);
  if (text->len > 0 && text->str[text->len - 1] == '\r')
    g_string_truncate (text, text->len - 1);
  return g_string_free (text, FALSE);
}

static int
secret_failure (PlugboardCli *cli,
                GError       *error)
{
  if (cli->interrupted || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return plugboard_cli_cancelled (cli);
  plugboard_cli_print_failure (cli, "%s", error->message);
  return EXIT_CONNECTION;
}

static int
secret_set (PlugboardCli *cli,
            const char   *id,
            const char   *from_env)
{
  g_autoptr(McpSecretStore) store = mcp_secret_store_get_default ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  char *value = NULL;
  gboolean ok;

  if (!mcp_secret_store_id_is_valid (id))
    return plugboard_cli_usage_error (cli->verb, _("A secret ID is 1 to 128 letters, digits, “.”, “_” or “-”"));

  if (from_env != NULL)
    {
      const char *env = g_getenv (from_env);

      if (env == NULL)
        {
          g_autofree char *shown = plugboard_cli_escape (from_env);

          plugboard_cli_print_failure (cli, _("The environment variable %s is not set"), shown);
          return EXIT_USAGE;
        }
      value = g_strdup (env);
    }
  else if (isatty (STDIN_FILENO) && isatty (STDERR_FILENO))
    {
      g_autofree char *prompt = g_strdup_printf (_("Value of the secret “%s” (not shown): "), id);

      value = ask_hidden (prompt);
    }
  else if ((value = read_stdin (&error)) == NULL)
    {
      plugboard_cli_print_failure (cli, "%s", error->message);
      return EXIT_USAGE;
    }

  if (*value == '\0' || strlen (value) > SECRET_MAX)
    {
      free_secret (value);
      plugboard_cli_print_failure (cli, _("No value for the secret “%s”: nothing was stored"), id);
      return EXIT_USAGE;
    }

  mcp_secret_store_store_async (store, id, value, cli->cancellable,
                                plugboard_cli_store_result_cb, &result);
  free_secret (value);
  plugboard_cli_wait_for_result (&result);
  ok = mcp_secret_store_store_finish (store, result, &error);
  if (!ok)
    return secret_failure (cli, error);
  g_print (_("Stored the secret “%s”; refer to it as ${secret:%s}.\n"), id, id);
  return 0;
}

static int
secret_clear (PlugboardCli *cli,
              const char   *id)
{
  g_autoptr(McpSecretStore) store = mcp_secret_store_get_default ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  if (!mcp_secret_store_id_is_valid (id))
    return plugboard_cli_usage_error (cli->verb, _("A secret ID is 1 to 128 letters, digits, “.”, “_” or “-”"));

  mcp_secret_store_clear_async (store, id, cli->cancellable, plugboard_cli_store_result_cb, &result);
  plugboard_cli_wait_for_result (&result);
  if (!mcp_secret_store_clear_finish (store, result, &error))
    return secret_failure (cli, error);
  g_print (_("Removed the secret “%s”.\n"), id);
  return 0;
}

static int
secret_list (PlugboardCli *cli)
{
  g_autoptr(McpSecretStore) store = mcp_secret_store_get_default ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) ids = NULL;

  mcp_secret_store_list_async (store, cli->cancellable, plugboard_cli_store_result_cb, &result);
  plugboard_cli_wait_for_result (&result);
  ids = mcp_secret_store_list_finish (store, result, &error);
  if (ids == NULL)
    return secret_failure (cli, error);
  for (guint i = 0; ids[i] != NULL; i++)
    {
      g_autofree char *shown = plugboard_cli_escape (ids[i]);

      g_print ("%s\n", shown);
    }
  return 0;
}

int
plugboard_cli_secret (PlugboardCli *cli,
                      int           argc,
                      char        **argv)
{
  g_autofree char *from_env = NULL;
  GOptionEntry entries[] = {
    { "from-env", 0, 0, G_OPTION_ARG_STRING, &from_env,
      N_("set: take the value from this environment variable"), N_("VAR") },
    { NULL }
  };
  int status;

  /* --config-dir and --project are taken (and mean nothing here) */
  if ((status = plugboard_cli_parse_settings_options (cli, entries, FALSE, FALSE, &argc, &argv)) != 0)
    return status;

  if (argc == 3 && g_str_equal (argv[1], "set"))
    return secret_set (cli, argv[2], from_env);
  if (from_env != NULL)
    return plugboard_cli_usage_error (cli->verb, _("--from-env goes with secret set"));
  if (argc == 3 && g_str_equal (argv[1], "clear"))
    return secret_clear (cli, argv[2]);
  if (argc == 2 && g_str_equal (argv[1], "list"))
    return secret_list (cli);
  return plugboard_cli_usage_error (cli->verb, _("Give set ID, clear ID or list"));
}
