/* SPDX-License-Identifier: GPL-3.0-or-later */
#define G_LOG_DOMAIN "plugboard"

#include "config.h"

#include <glib/gi18n.h>

#include "mcp-redact.h"
#include "plugboard-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(PlugboardApplication) app = NULL;
  const char *localedir;

  /* PLUGBOARD_LOCALEDIR runs a build tree's translations (build/po) without
   * installing them; tests use it. */
  localedir = g_getenv ("PLUGBOARD_LOCALEDIR");
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && *localedir != '\0' ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  /* G_MESSAGES_DEBUG output without the servers' secrets */
  g_log_set_writer_func (mcp_redact_log_writer, NULL, NULL);

  app = plugboard_application_new ();

  return g_application_run (G_APPLICATION (app), argc, argv);
}
