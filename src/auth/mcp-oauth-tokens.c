/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Not written yet: see mcp-oauth-tokens.h. */
#include "config.h"

#include "mcp-oauth-tokens.h"
