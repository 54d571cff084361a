/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Not written yet: see plugboard-markdown.h. */
#include "config.h"

#include "plugboard-markdown.h"
