/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Not written yet: see plugboard-tool-list.h. */
#include "config.h"

#include "plugboard-tool-list.h"
