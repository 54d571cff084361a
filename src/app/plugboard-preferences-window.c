/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Not written yet: see plugboard-preferences-window.h. */
#include "config.h"

#include "plugboard-preferences-window.h"
