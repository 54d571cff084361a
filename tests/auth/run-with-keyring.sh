#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Runs its arguments against a Secret Service of their own: a private D-Bus
# session (dbus-run-session) with gnome-keyring-daemon's secrets component,
# its login keyring unlocked with a test password. HOME, XDG_DATA_HOME,
# XDG_CONFIG_HOME, XDG_CACHE_HOME and XDG_RUNTIME_DIR point into a fresh
# temporary folder, removed afterwards, so the person's own keyring is never
# touched. The folder is in PLUGBOARD_TEST_KEYRING_HOME for the test to
# inspect. With PLUGBOARD_TEST_KEYRING_NO_LOGIN=1 the keyring runs without a
# login keyring (not unlocked, nothing to store into: a fresh session that
# cannot prompt). Exits 77 (skip) when dbus-run-session or gnome-keyring-daemon is
# missing.

set -eu

if [ "$#" -eq 0 ]; then
  echo "usage: $0 COMMAND [ARGUMENT…]" >&2
  exit 2
fi

for tool in dbus-run-session gnome-keyring-daemon; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "1..0 # SKIP $tool is not installed (packages dbus and gnome-keyring)"
    exit 77
  fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/plugboard-keyring.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM HUP

mkdir -m 700 "$tmp/home" "$tmp/data" "$tmp/config" "$tmp/cache" "$tmp/runtime"
HOME="$tmp/home"
XDG_DATA_HOME="$tmp/data"
XDG_CONFIG_HOME="$tmp/config"
XDG_CACHE_HOME="$tmp/cache"
XDG_RUNTIME_DIR="$tmp/runtime"
PLUGBOARD_TEST_KEYRING_HOME="$tmp"
export HOME XDG_DATA_HOME XDG_CONFIG_HOME XDG_CACHE_HOME XDG_RUNTIME_DIR PLUGBOARD_TEST_KEYRING_HOME
# Nothing may reach the person's session: not its bus, not its keyring.
unset DBUS_SESSION_BUS_ADDRESS GNOME_KEYRING_CONTROL SSH_AUTH_SOCK DISPLAY WAYLAND_DISPLAY

# Inside the private session: start the keyring (it daemonizes once it is
# ready; without the test's G_DEBUG=fatal-warnings, which is for the code
# under test, not for the keyring), wait until it owns
# org.freedesktop.secrets, then run the command.
# dbus-run-session ends the bus, and with it the keyring, when the command
# exits. Not exec'd, so that the trap removes the folder.
status=0
dbus-run-session -- sh -c '
  set -eu
  if [ "${PLUGBOARD_TEST_KEYRING_NO_LOGIN:-0}" = 1 ]; then
    env -u G_DEBUG -u G_MESSAGES_DEBUG -u MALLOC_CHECK_ \
      gnome-keyring-daemon --start --components=secrets >/dev/null
  else
    printf "%s" "plugboard-test-password" |
      env -u G_DEBUG -u G_MESSAGES_DEBUG -u MALLOC_CHECK_ \
        gnome-keyring-daemon --unlock --components=secrets >/dev/null
  fi
  tries=0
  until dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
          org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null |
        grep -q "boolean true"; do
    tries=$((tries + 1))
    if [ "$tries" -ge 100 ]; then
      echo "Bail out! gnome-keyring-daemon did not take org.freedesktop.secrets within 10 s"
      exit 1
    fi
    sleep 0.1
  done
  "$@"
' sh "$@" || status=$?
exit "$status"
