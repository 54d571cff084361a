/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Not written yet: see plugboard-import-dialog.h. */
#include "config.h"

#include "plugboard-import-dialog.h"
