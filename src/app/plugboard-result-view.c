/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Not written yet: see plugboard-result-view.h. */
#include "config.h"

#include "plugboard-result-view.h"
