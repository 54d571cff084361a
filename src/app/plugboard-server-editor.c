/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Not written yet: see plugboard-server-editor.h. */
#include "config.h"

#include "plugboard-server-editor.h"
