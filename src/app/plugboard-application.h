/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define PLUGBOARD_TYPE_APPLICATION (plugboard_application_get_type ())

G_DECLARE_FINAL_TYPE (PlugboardApplication, plugboard_application, PLUGBOARD, APPLICATION, AdwApplication)

PlugboardApplication *plugboard_application_new (void);

G_END_DECLS
