/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_WINDOW (plugboard_window_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardWindow, plugboard_window, PLUGBOARD, WINDOW, AdwApplicationWindow)

PlugboardWindow *plugboard_window_new (GtkApplication *application);

G_END_DECLS
