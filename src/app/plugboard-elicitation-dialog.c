/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Not written yet: see plugboard-elicitation-dialog.h. */
#include "config.h"

#include "plugboard-elicitation-dialog.h"
