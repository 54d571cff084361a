/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Not written yet: see plugboard-tool-page.h. */
#include "config.h"

#include "plugboard-tool-page.h"
