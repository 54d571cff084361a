/* SPDX-License-Identifier: GPL-3.0-or-later */
/* placeholder */
int main (void);
int main (void) { return 77; }
