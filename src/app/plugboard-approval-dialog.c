/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Not written yet: see plugboard-approval-dialog.h. */
#include "config.h"

#include "plugboard-approval-dialog.h"
