/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Not written yet: see plugboard-schema-form.h. */
#include "config.h"

#include "plugboard-schema-form.h"
