/* SPDX-License-Identifier: GPL-3.0-or-later */
/* placeholder: prints a TAP skip until the tests are written */
#include <stdio.h>
int main (void);
int main (void) { printf ("1..0 # SKIP not written yet\n"); return 0; }
