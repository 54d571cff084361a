#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The verbs `plugboard-cli --help` lists are the verbs the man page's
# COMMANDS section and the README's plugboard-cli section describe, no more
# and no fewer. Run from meson with the built plugboard-cli as $1 and the
# source root as $2; TAP output.
set -u
cli=$1
root=$2

# "  NAME      Summary…" lines between "Commands:" and the next blank line.
help_verbs=$(LC_ALL=C "$cli" --help 2>&1 | awk '
  /^Commands:/ { on = 1; next }
  on && /^$/ { exit }
  on && /^  [a-z]/ { print $1 }' | sort -u)

# The .B/.BI line after each .TP/.TQ of the COMMANDS section.
man_verbs=$(awk '
  /^\.SH / { on = ($2 == "COMMANDS"); next }
  on && /^\.(TP|TQ)/ { tag = 1; next }
  on && tag && /^\.(B|BI) / { v = $2; gsub(/"/, "", v); gsub(/\\-/, "-", v); print v }
  { tag = 0 }' \
  "$root/data/plugboard-cli.1" | sort -u)

# "plugboard-cli VERB" in the README's "## plugboard-cli" section.
readme_verbs=$(awk '
  /^## / { on = ($0 == "## plugboard-cli"); next }
  on' "$root/README.md" |
  grep -o 'plugboard-cli \(--interactive \)\?[a-z][a-z-]*' | awk '{ print $NF }' | sort -u)

n=0
status=0
echo "1..3"
if [ -z "$help_verbs" ]; then
  echo "not ok 1 - $cli --help lists no commands"
  exit 1
fi
echo "ok 1 - --help lists $(echo "$help_verbs" | wc -l) commands"

check () {
  label=$1
  listed=$2
  missing=$(printf '%s\n' "$help_verbs" | while read -r v; do
    printf '%s\n' "$listed" | grep -qx -- "$v" || printf ' %s' "$v"
  done)
  extra=$(printf '%s\n' "$listed" | while read -r v; do
    printf '%s\n' "$help_verbs" | grep -qx -- "$v" || printf ' %s' "$v"
  done)
  n=$((n + 1))
  if [ -z "$missing$extra" ]; then
    echo "ok $((n + 1)) - $label describes every command and no other"
  else
    echo "not ok $((n + 1)) - $label: missing:${missing:- none}; not a command:${extra:- none}"
    status=1
  fi
}

check "the man page's COMMANDS" "$man_verbs"
check "the README's plugboard-cli section" "$readme_verbs"
exit $status
