/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Not written yet: see mcp-oauth-redirect-listener.h. */
#include "config.h"

#include "mcp-oauth-redirect-listener.h"
