/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <glib.h>

/* What every fuzz target defines: libFuzzer's entry point, which
 * fuzz-driver.c also calls for each file of a corpus. */
int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static inline void
fuzz_log_handler (const char     *log_domain,
                  GLogLevelFlags  log_level,
                  const char     *message,
                  gpointer        user_data)
{
  if (log_level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING))
    {
      fprintf (stderr, "%s: %s\n", log_domain != NULL ? log_domain : "(no domain)", message);
      abort ();
    }

  g_log_default_handler (log_domain, log_level, message, user_data);
}

/* Makes a warning or a critical a crash. Not with g_log_set_always_fatal():
 * GLib ends a fatal message with SIGTRAP, which libFuzzer does not catch,
 * so it would keep no reproducer; abort() it does. */
static inline void
fuzz_abort_on_warnings (void)
{
  g_log_set_default_handler (fuzz_log_handler, NULL);
}
