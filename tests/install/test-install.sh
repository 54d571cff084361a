#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# `meson install --destdir` of the build, then the files a distribution
# expects are under the prefix and the installed programs run from there.
# With a display and a session bus, the installed app is started and driven
# over D-Bus with `gapplication action` (open-project) and its actions are
# listed. TAP output. Environment from tests/install/meson.build.
set -u

n=0
failed=0
ok () { n=$((n + 1)); echo "ok $n - $1"; }
not_ok () { n=$((n + 1)); failed=1; echo "not ok $n - $1"; }
skip () { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
check () { desc=$1; shift; if "$@"; then ok "$desc"; else not_ok "$desc"; fi; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/plugboard-install-XXXXXX")
app_pid=
cleanup () {
  if [ -n "$app_pid" ]; then kill "$app_pid" 2>/dev/null; wait "$app_pid" 2>/dev/null; fi
  if [ -n "${bus_pid:-}" ]; then kill "$bus_pid" 2>/dev/null; wait "$bus_pid" 2>/dev/null; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

dest=$tmp/dest
root=$dest$PREFIX
bin=$root/$BINDIR
data=$root/$DATADIR

if "$MESON" install -C "$BUILD_ROOT" --destdir "$dest" --no-rebuild --quiet >"$tmp/install.log" 2>&1; then
  ok "meson install --destdir"
else
  not_ok "meson install --destdir"
  sed 's/^/# /' "$tmp/install.log"
  echo "1..$n"
  exit 1
fi

# The engine and the CLI build without GTK (-Dapp=disabled): then there is
# no app, nor its data.
check "bin/plugboard-cli is installed and executable" test -x "$bin/plugboard-cli"
check "share/man/man1/plugboard-cli.1 is installed" test -f "$root/$MANDIR/man1/plugboard-cli.1"

if [ "$BUILD_APP" = 1 ]; then
  check "bin/plugboard is installed and executable" test -x "$bin/plugboard"
fi

desktop=$data/applications/$APP_ID.desktop
metainfo=$data/metainfo/$APP_ID.metainfo.xml
schema=$data/glib-2.0/schemas/$APP_ID.gschema.xml
service=$data/dbus-1/services/$APP_ID.service
icon=$data/icons/hicolor/scalable/apps/$APP_ID.svg
symbolic=$data/icons/hicolor/symbolic/apps/$APP_ID-symbolic.svg
for f in "$desktop" "$metainfo" "$schema" "$service" "$icon" "$symbolic"; do
  check "${f#"$dest"} is installed" test -s "$f"
done

# The ids inside the files follow the build's id (.Devel or not).
check "the desktop file's icon is the installed icon" grep -qx "Icon=$APP_ID" "$desktop"
check "the desktop file is D-Bus activatable" grep -qx "DBusActivatable=true" "$desktop"
check "the metainfo's id is $APP_ID" grep -q "<id>$APP_ID</id>" "$metainfo"
check "the schema's id is $APP_ID" grep -q "<schema id=\"$APP_ID\"" "$schema"
check "the D-Bus service is named $APP_ID" grep -qx "Name=$APP_ID" "$service"
check "the D-Bus service starts the installed plugboard as a service" \
  grep -qx "Exec=$PREFIX/$BINDIR/plugboard --gapplication-service" "$service"
check "the installed schema compiles (--strict)" \
  glib-compile-schemas --strict --targetdir="$data/glib-2.0/schemas" "$data/glib-2.0/schemas"

# One message catalogue per language in po/LINGUAS (as configured).
langs=${LINGUAS:-}
if [ -z "$langs" ]; then
  skip "translations are installed" "po/LINGUAS lists no language"
else
  for lang in $langs; do
    check "share/locale/$lang/LC_MESSAGES/plugboard.mo is installed" \
      test -s "$root/$LOCALEDIR/$lang/LC_MESSAGES/plugboard.mo"
  done
fi

# The installed programs run from the prefix.
out=$("$bin/plugboard-cli" --version 2>&1)
check "installed plugboard-cli --version prints $PACKAGE_VERSION" \
  sh -c 'case "$1" in *"$2"*) exit 0 ;; *) echo "# $1"; exit 1 ;; esac' sh "$out" "$PACKAGE_VERSION"
out=$("$bin/plugboard-cli" --help 2>&1)
check "installed plugboard-cli --help lists the commands" \
  sh -c 'printf "%s\n" "$1" | grep -q "Commands:" && printf "%s\n" "$1" | grep -q "  call "' sh "$out"

if [ "$BUILD_APP" = 1 ]; then
  out=$("$bin/plugboard" --help 2>&1)
  status=$?
  check "installed plugboard --help exits 0 and shows its options" \
    sh -c '[ "$1" -eq 0 ] && printf "%s\n" "$2" | grep -q -- "--help-gapplication"' sh "$status" "$out"
  out=$("$bin/plugboard" --help-gapplication 2>&1)
  check "installed plugboard has --gapplication-service (the D-Bus service's Exec)" \
    sh -c 'printf "%s\n" "$1" | grep -q -- "--gapplication-service"' sh "$out"
fi

# The installed app on the session bus, driven by gapplication.
if [ "$BUILD_APP" != 1 ]; then
  :
elif [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] || [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ]; then
  skip "gapplication drives the installed app" "no display or session bus (run under dbus-run-session and xvfb-run)"
elif ! command -v gapplication >/dev/null 2>&1 || ! command -v gdbus >/dev/null 2>&1; then
  skip "gapplication drives the installed app" "gapplication or gdbus is not installed"
elif gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
       --method org.freedesktop.DBus.NameHasOwner "$APP_ID" 2>/dev/null | grep -q true; then
  skip "gapplication drives the installed app" "$APP_ID is already running on this bus"
else
  project=$tmp/project
  mkdir -p "$project" "$tmp/config" "$tmp/data"
  settings_file=$tmp/config/glib-2.0/settings/keyfile

  # Only the installed schema; settings in a key file the test reads back.
  XDG_CONFIG_HOME=$tmp/config XDG_DATA_HOME=$tmp/data HOME=$tmp \
  GSETTINGS_SCHEMA_DIR=$data/glib-2.0/schemas GSETTINGS_BACKEND=keyfile \
  G_DEBUG= "$bin/plugboard" >"$tmp/app.log" 2>&1 &
  app_pid=$!

  # A bound on a hang, not a timing assertion: the app owns its name once
  # it has started.
  tries=0
  until gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
          --method org.freedesktop.DBus.NameHasOwner "$APP_ID" 2>/dev/null | grep -q true; do
    tries=$((tries + 1))
    if [ $tries -gt 600 ] || ! kill -0 "$app_pid" 2>/dev/null; then break; fi
    sleep 0.1
  done
  check "the installed app owns $APP_ID on the session bus" kill -0 "$app_pid"

  # The actions the app exports (org.gtk.Actions), with their parameter types.
  described=$(gdbus call --session --dest "$APP_ID" --object-path "/$(echo "$APP_ID" | tr . /)" \
                --method org.gtk.Actions.DescribeAll 2>&1)
  echo "# $described"
  for action in "open-project:s" "show-server:s" "reconnect-all:"; do
    name=${action%%:*}
    type=${action#*:}
    check "the app exports app.$name (parameter type '$type')" \
      sh -c 'printf "%s\n" "$1" | grep -Eq "'"'"'$2'"'"': \(true, (signature )?'"'"'$3'"'"'"' sh "$described" "$name" "$type"
  done

  check "gapplication action app.open-project is accepted" \
    gapplication action "$APP_ID" open-project "'$project'"
  # The window remembers the project it shows (GSettings recent-projects).
  tries=0
  until grep -q "recent-projects=.*'$project'" "$settings_file" 2>/dev/null; do
    tries=$((tries + 1))
    if [ $tries -gt 600 ] || ! kill -0 "$app_pid" 2>/dev/null; then break; fi
    sleep 0.1
  done
  check "app.open-project opened $project (it is in recent-projects)" \
    grep -q "recent-projects=.*'$project'" "$settings_file"
  check "gapplication action app.reconnect-all is accepted" \
    gapplication action "$APP_ID" reconnect-all

  gapplication action "$APP_ID" quit
  tries=0
  while kill -0 "$app_pid" 2>/dev/null; do
    tries=$((tries + 1))
    [ $tries -gt 600 ] && break
    sleep 0.1
  done
  if kill -0 "$app_pid" 2>/dev/null; then
    not_ok "app.quit ends the installed app"
  else
    wait "$app_pid"
    ok "app.quit ends the installed app (status $?)"
    app_pid=
  fi
  if [ $failed -ne 0 ]; then sed 's/^/# app: /' "$tmp/app.log"; fi
fi

# D-Bus activation through the installed service file: a bus of the test's
# own that knows only that file (its Exec pointed into the DESTDIR), and
# gapplication asking it for an action of the app that is not running.
bus_pid=
if [ "$BUILD_APP" != 1 ]; then
  :
elif [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  skip "D-Bus activation by the installed service file" "no display (run under xvfb-run)"
elif ! command -v dbus-daemon >/dev/null 2>&1 || ! command -v gapplication >/dev/null 2>&1; then
  skip "D-Bus activation by the installed service file" "dbus-daemon or gapplication is not installed"
else
  mkdir -p "$tmp/bus/services" "$tmp/bus/config" "$tmp/bus/project"
  sed "s|^Exec=$PREFIX/$BINDIR/|Exec=$bin/|" "$service" >"$tmp/bus/services/$APP_ID.service"
  cat >"$tmp/bus/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=$tmp/bus</listen>
  <servicedir>$tmp/bus/services</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
CONF
  # The activated app inherits the bus's environment.
  XDG_CONFIG_HOME=$tmp/bus/config XDG_DATA_HOME=$tmp/data HOME=$tmp \
  GSETTINGS_SCHEMA_DIR=$data/glib-2.0/schemas GSETTINGS_BACKEND=keyfile G_DEBUG= \
  dbus-daemon --config-file="$tmp/bus/bus.conf" --nofork --print-address=3 \
    3>"$tmp/bus/address" >"$tmp/bus/daemon.log" 2>&1 &
  bus_pid=$!
  tries=0
  until [ -s "$tmp/bus/address" ]; do
    tries=$((tries + 1))
    if [ $tries -gt 600 ] || ! kill -0 "$bus_pid" 2>/dev/null; then break; fi
    sleep 0.1
  done
  address=$(head -n 1 "$tmp/bus/address")
  settings_file=$tmp/bus/config/glib-2.0/settings/keyfile

  if DBUS_SESSION_BUS_ADDRESS=$address gapplication action "$APP_ID" open-project "'$tmp/bus/project'" \
       >"$tmp/bus/gapplication.log" 2>&1; then
    ok "gapplication action starts the app through the service file (--gapplication-service)"
  else
    not_ok "gapplication action starts the app through the service file (--gapplication-service)"
    sed 's/^/# /' "$tmp/bus/gapplication.log" "$tmp/bus/daemon.log"
  fi
  tries=0
  until grep -q "recent-projects=.*'$tmp/bus/project'" "$settings_file" 2>/dev/null; do
    tries=$((tries + 1))
    [ $tries -gt 600 ] && break
    sleep 0.1
  done
  check "the activated app opened the project it was asked for" \
    grep -q "recent-projects=.*'$tmp/bus/project'" "$settings_file"
  DBUS_SESSION_BUS_ADDRESS=$address gapplication action "$APP_ID" quit >/dev/null 2>&1
  kill "$bus_pid" 2>/dev/null
  wait "$bus_pid" 2>/dev/null
  bus_pid=
fi

echo "1..$n"
exit $failed
