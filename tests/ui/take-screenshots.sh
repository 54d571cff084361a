#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Takes the screenshots of every view at 1280x800 and at 360x720 (the
# README's, data/screenshots/) from the built app, driven as a person
# drives it: Xvfb, xdotool clicks, `import`. Needs xvfb, xdotool,
# imagemagick and the test servers (npm ci --prefix tests). Usage, from the
# top of the tree after `ninja -C _build`:
#     tests/ui/take-screenshots.sh [OUT]      (default: /tmp/plugboard-screenshots)
# then look at each, and copy what is current into data/screenshots/.
set -u
TOP=$(pwd)
BUILD=$TOP/_build
WORK=$(mktemp -d /tmp/plugboard-shots-XXXXXX)
export DISPLAY=:78
OUT=${1:-/tmp/plugboard-screenshots}; rm -rf "$OUT"; mkdir -p "$OUT"
pkill -f "Xvfb :78" ; sleep 0.5
Xvfb :78 -screen 0 1280x800x24 >/dev/null 2>&1 &
sleep 1
run_app () {
  pkill -f "$BUILD/src/app/plugboard" ; sleep 0.5
  rm -rf $WORK/cfg $WORK/data $WORK/state $WORK/cache $WORK/proj; mkdir -p $WORK/cfg/plugboard $WORK/proj $WORK/cfg/glib-2.0/settings
  cat > $WORK/cfg/plugboard/settings.json <<JSON
{
  "mcpServers": {
    "everything": {"command": "$TOP/tests/node_modules/.bin/mcp-server-everything", "args": ["stdio"]},
    "files": {"command": "$TOP/tests/node_modules/.bin/mcp-server-filesystem", "args": ["$TOP/data"]},
    "broken": {"command": "/nonexistent/server"},
    "off": {"command": "true", "enabled": false}
  },
  "permissions": {"allow": ["mcp__everything__echo"], "deny": ["mcp__everything__get-env"]}
}
JSON
  printf '[org/plugboard/Plugboard]\nwindow-width=%d\nwindow-height=%d\n' $1 $2 > $WORK/cfg/glib-2.0/settings/keyfile
  export XDG_CONFIG_HOME=$WORK/cfg XDG_DATA_HOME=$WORK/data XDG_STATE_HOME=$WORK/state XDG_CACHE_HOME=$WORK/cache GSETTINGS_BACKEND=keyfile GSETTINGS_SCHEMA_DIR=$BUILD/data LANG=C.UTF-8
  (dbus-run-session -- $BUILD/src/app/plugboard $WORK/proj > $WORK/app-$1.log 2>&1 &)
  sleep 9
}
shot () { sleep ${2:-1.2}; import -window root -crop "${W}x${H}+0+0" "$OUT/$1.png"; }
W=1280; H=800; run_app 1280 800
shot wide-start
# the view switcher's tabs at 1280 px (x of each)
i=0
for view in overview:490 tools:615 log:740 resources:865 prompts:993 tasks:1120; do
  xdotool mousemove ${view##*:} 70 click 1; shot wide-server-${view%%:*}
done
# a prompt's arguments form
xdotool mousemove 993 70 click 1; sleep 1; xdotool mousemove 410 209 click 1; shot wide-server-prompts 1.5
xdotool mousemove 490 70 click 1; sleep 0.5
xdotool mousemove 170 265 click 1; shot wide-server-failed
xdotool mousemove 170 320 click 1; shot wide-server-disabled
xdotool mousemove 250 70 click 1; shot wide-all-tools
xdotool mousemove 120 170 click 1; shot wide-tool-page
# Permissions, from the main menu
xdotool mousemove 310 28 click 1; sleep 1; xdotool mousemove 252 176 click 1; sleep 1.5
xdotool mousemove 300 400 click 5 click 5 click 5; shot wide-permissions
xdotool key Escape; sleep 0.5
# Add Server, a command, Try
xdotool mousemove 28 28 click 1; sleep 1.5; xdotool mousemove 200 395 click 1; sleep 0.5
xdotool type --delay 5 "$TOP/tests/node_modules/.bin/mcp-server-everything"; sleep 0.8
xdotool mousemove 489 28 click 1; shot wide-tried-server 5
W=360; H=720; run_app 360 720
shot narrow-start
xdotool mousemove 150 160 click 1; shot narrow-server 1.5
for view in tools:98 log:155 resources:213 prompts:271 tasks:330; do
  xdotool mousemove ${view##*:} 80 click 1; shot narrow-server-${view%%:*}
done
xdotool mousemove 271 80 click 1; sleep 1; xdotool mousemove 150 260 click 1; shot narrow-server-prompts 1.5
xdotool mousemove 28 28 click 1; sleep 1
xdotool mousemove 270 70 click 1; shot narrow-all-tools
xdotool mousemove 120 170 click 1; shot narrow-tool-page 1.5
W=360; H=720; run_app 360 720
# dialogs open at their own size on this 1280 px screen: made 360 px wide
xdotool mousemove 228 28 click 1; sleep 1; xdotool mousemove 169 176 click 1; sleep 1.5
xdotool search --name '^Permissions$' windowsize 360 720; sleep 1
xdotool mousemove 180 500 click 5 click 5 click 5; shot narrow-permissions
xdotool key Escape; sleep 0.5
xdotool mousemove 28 28 click 1; sleep 1.5
xdotool search --name '^Add Server$' windowsize 360 720; sleep 1
xdotool mousemove 150 427 click 1; sleep 0.5
xdotool type --delay 5 "$TOP/tests/node_modules/.bin/mcp-server-everything"; sleep 0.8
xdotool mousemove 249 28 click 1; shot narrow-tried-server 5
pkill -f "$BUILD/src/app/plugboard"; pkill -f "Xvfb :78"
for f in "$OUT"/*.png; do convert "$f" -strip -define png:compression-level=9 "$f"; done
rm -rf "$WORK"
echo "screenshots in $OUT"
