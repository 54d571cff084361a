/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Not written yet: see mcp-client-import.h. */
#include "config.h"

#include "mcp-client-import.h"
