/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Not written yet: see mcp-tool-history.h. */
#include "config.h"

#include "mcp-tool-history.h"
