/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Not written yet: see mcp-form-field.h. */
#include "config.h"

#include "mcp-form-field.h"
