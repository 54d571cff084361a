/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard-cli"

#include "config.h"

#include "mcp-error-detail.h"

#include "plugboard-cli-private.h"

/* A server's JSON-RPC error keeps its code and data in plugboard-cli's
 * failure lines and --json output (mcp-error-detail.c says how). */

char *
plugboard_cli_describe_error (const GError *error)
{
  return mcp_error_detail_describe (error);
}

/* With --json, a server's JSON-RPC error on stdout as
 * {"error": {"code": …, "message": …, "data": …}}; nothing for any other
 * error or without --json. */
void
plugboard_cli_print_json_error (PlugboardCli *cli,
                                const GError *error)
{
  g_autoptr(JsonObject) root = NULL;
  JsonObject *object;

  g_return_if_fail (error != NULL);

  if (!cli->json || (object = mcp_error_detail_dup_json (error)) == NULL)
    return;

  root = json_object_new ();
  json_object_set_object_member (root, "error", object);
  plugboard_cli_print_json_object (root);
}
