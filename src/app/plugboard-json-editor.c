/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Not written yet: see plugboard-json-editor.h. */
#include "config.h"

#include "plugboard-json-editor.h"
