/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* What the engine's tests need again and again, once. */

typedef gboolean (*TestCondition) (gpointer data);

/* Runs the main context until @condition holds; a test that hangs (60 s)
 * fails naming @what. Nothing is timed against that bound. */
void      test_iterate_until (TestCondition  condition,
                              gpointer       data,
                              const char    *what);

/* An async callback that keeps the result in the GAsyncResult * that
 * @user_data points to; test_result_set() is its TestCondition, and
 * test_wait_result() both. */
void      test_result_cb     (GObject       *object,
                              GAsyncResult  *result,
                              gpointer       user_data);
gboolean  test_result_set    (gpointer       data);
GAsyncResult *test_wait_result (GAsyncResult **result,
                                const char    *what);

/* Files: the folders on the way are made; failures fail the test. */
void      test_write_file    (const char    *path,
                              const char    *contents);
char     *test_read_file     (const char    *path);
void      test_remove_tree   (const char    *path);

G_END_DECLS
