#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# run-conformance-trace.sh NODE_MODULES CLIENT EXPECTED_FAILURES OUTPUT_DIR SCENARIO STEP…
#
# The sign-in debugger against the conformance suite's authorization
# servers (issue 24): runs SCENARIO with run-conformance.sh, the client
# writing its trace as JSON Lines (PLUGBOARD_TRACE_FILE), then checks that
# the trace has the sign-in steps STEP… in this order (others may come
# between) and no unmasked Authorization value. Exit 77 when the suite is
# not installed.

set -u

if [ $# -lt 6 ]; then
  echo "usage: $0 NODE_MODULES CLIENT EXPECTED_FAILURES OUTPUT_DIR SCENARIO STEP…" >&2
  exit 2
fi

here=$(dirname "$0")
node_modules=$1
client=$2
expected_failures=$3
output_dir=$4
scenario=$5
shift 5

mkdir -p "$output_dir" || exit 1
trace=$(mktemp "$output_dir/trace-$(echo "$scenario" | tr / _).XXXXXX") || exit 1
trap 'rm -f "$trace"' EXIT
PLUGBOARD_TRACE_FILE=$trace
export PLUGBOARD_TRACE_FILE

sh "$here/run-conformance.sh" "$node_modules" "$client" "$expected_failures" "$output_dir" "$scenario"
rc=$?
[ $rc -eq 0 ] || exit $rc

# The steps in the order recorded, one a line.
steps=$(grep -o '"kind":"auth","server":"[^"]*","step":"[a-z-]*"' "$trace" | sed 's/.*"step":"\([a-z-]*\)"/\1/')
echo "steps: $(echo $steps)"

rest=$steps
for want in "$@"; do
  found=no
  remaining=""
  for step in $rest; do
    if [ $found = yes ]; then
      remaining="$remaining $step"
    elif [ "$step" = "$want" ]; then
      found=yes
    fi
  done
  if [ $found = no ]; then
    echo "the trace of $scenario has no step “$want” where expected; steps: $(echo $steps)"
    exit 1
  fi
  rest=$remaining
done

# Every Authorization value is masked.
if grep -o '"Authorization","[^"]*"' "$trace" | grep -v '"Authorization","\(Bearer \|Basic \)\?\*\*\*"' | grep -q .; then
  echo "the trace of $scenario holds an unmasked Authorization value"
  exit 1
fi
echo "ok: the trace of $scenario has the steps $*"
exit 0
