/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Not written yet: see mcp-oauth-provider.h. */
#include "config.h"

#include "mcp-oauth-provider.h"
