/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Not written yet: see mcp-token-store.h. */
#include "config.h"

#include "mcp-token-store.h"
