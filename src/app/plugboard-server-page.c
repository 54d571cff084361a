/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Not written yet: see plugboard-server-page.h. */
#include "config.h"

#include "plugboard-server-page.h"
