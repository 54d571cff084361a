/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Not written yet: see mcp-log-entry.h. */
#include "config.h"

#include "mcp-log-entry.h"
