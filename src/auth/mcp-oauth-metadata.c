/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Not written yet: see mcp-oauth-metadata.h. */
#include "config.h"

#include "mcp-oauth-metadata.h"
