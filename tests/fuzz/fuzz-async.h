/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

/* For the fuzz targets that drive an _async/_finish pair: no time bound
 * here (a hang is libFuzzer's to catch), and nothing linked in. */

/* A GAsyncReadyCallback: keeps a reference to @result in the
 * GAsyncResult * that @user_data points at. */
static inline void
fuzz_result_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/* Runs the main context until *@result is set by fuzz_result_cb(); returns
 * it (still owned by *@result). */
static inline GAsyncResult *
fuzz_wait_for (GAsyncResult **result)
{
  while (*result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return *result;
}
