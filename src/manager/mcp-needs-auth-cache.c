/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Not written yet: see mcp-needs-auth-cache.h. */
#include "config.h"

#include "mcp-needs-auth-cache.h"
