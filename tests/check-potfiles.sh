#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Every source, template and data file with translatable strings is listed
# in po/POTFILES.in, and every file listed there exists. Run from meson with
# the source root as $1; TAP output.
set -u
root=$1
cd "$root" || exit 1

missing=""
for f in $(git ls-files 'src/*.c' 'ui/*.ui' 'data/*.in' 'data/*.xml' 2>/dev/null || find src ui data -name '*.c' -o -name '*.ui' -o -name '*.in' -o -name '*.xml'); do
  if grep -q -e '_("' -e 'N_("' -e 'C_("' -e 'g_dngettext\|ngettext (' -e 'translatable="yes"' -e '<_' "$f" 2>/dev/null ||
     case "$f" in *.desktop.in|*.metainfo.xml.in|*.gschema.xml) true ;; *) false ;; esac; then
    grep -qx "$f" po/POTFILES.in || missing="$missing $f"
  fi
done

gone=""
for f in $(grep -v '^#' po/POTFILES.in); do
  [ -f "$f" ] || gone="$gone $f"
done

echo "1..2"
if [ -z "$missing" ]; then
  echo "ok 1 - every file with translatable strings is in po/POTFILES.in"
else
  echo "not ok 1 - not in po/POTFILES.in:$missing"
fi
if [ -z "$gone" ]; then
  echo "ok 2 - every file po/POTFILES.in names exists"
else
  echo "not ok 2 - po/POTFILES.in names missing files:$gone"
fi
