/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* What every fuzz target defines: libFuzzer's entry point, which
 * fuzz-driver.c also calls for each file of a corpus. */
int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);
