/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Not written yet: see mcp-json-schema.h. */
#include "config.h"

#include "mcp-json-schema.h"
