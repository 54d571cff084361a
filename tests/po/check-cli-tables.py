#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# plugboard-cli's tables line up in every language: run `plugboard-cli list`
# with the build tree's translations (PLUGBOARD_LOCALEDIR) in English, German
# and Simplified Chinese, and check that each column starts at the same
# terminal column (East Asian wide characters count two) in the header and in
# every row, and that the header really is translated. TAP output.
#
# argv: plugboard-cli, the build tree's po directory, a scratch directory.
import json
import os
import subprocess
import sys
import unicodedata

cli, localedir, work = sys.argv[1:4]


def width(text):
    w = 0
    for ch in text:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ('Mn', 'Me', 'Cf'):
            continue
        w += 2 if unicodedata.east_asian_width(ch) in ('W', 'F') else 1
    return w


def column_starts(line, cells):
    """The display column where each of CELLS starts in LINE, searched left to right."""
    starts = []
    pos = 0
    for cell in cells:
        i = line.find(cell, pos)
        if i < 0:
            return None
        starts.append(width(line[:i]))
        pos = i + len(cell)
    return starts


config = os.path.join(work, 'config')
project = os.path.join(work, 'project')
os.makedirs(config, exist_ok=True)
os.makedirs(project, exist_ok=True)
# Servers that fail at once and need no network: a missing program, and
# a URL on a port nothing listens on (the discard port on loopback).
servers = {
    'a': {'command': os.path.join(work, 'no-such-program')},
    'a-much-longer-server-name': {'type': 'http', 'url': 'http://127.0.0.1:9/mcp'},
}
with open(os.path.join(config, 'settings.json'), 'w') as f:
    json.dump({'mcpServers': servers}, f)

# The header each language must show, and the cells of each row.
headers = {
    'C': ['NAME', 'SCOPE', 'TRANSPORT', 'STATE'],
    'de': ['NAME', 'BEREICH', 'TRANSPORT', 'ZUSTAND'],
    'zh_CN': ['名称', '范围', '传输方式', '状态'],
}
rows = [['a', 'user', 'stdio'], ['a-much-longer-server-name', 'user', 'http']]

print('1..%d' % (2 * len(headers)))
n = 0
for lang, header in headers.items():
    env = dict(os.environ, LANG='C.UTF-8', LC_ALL='', LANGUAGE=lang,
               PLUGBOARD_LOCALEDIR=localedir, XDG_DATA_HOME=os.path.join(work, 'data'),
               XDG_CACHE_HOME=os.path.join(work, 'cache'), DBUS_SESSION_BUS_ADDRESS='disabled:')
    env.pop('LC_MESSAGES', None)
    out = subprocess.run([cli, 'list', '--config-dir', config, '--project', project],
                         env=env, capture_output=True, text=True, timeout=120)
    lines = out.stdout.splitlines()

    n += 1
    first = column_starts(lines[0], header) if lines else None
    if first is None:
        print('not ok %d - %s: the header is %r, not %s' % (n, lang, lines[:1], ' '.join(header)))
        print('not ok %d - %s: no header to align with' % (n + 1, lang))
        n += 1
        continue
    print('ok %d - %s: the header is %s' % (n, lang, '  '.join(header)))

    n += 1
    bad = []
    for cells in rows:
        line = next((l for l in lines[1:] if l.startswith(cells[0] + ' ')), None)
        starts = column_starts(line, cells) if line else None
        # The state is the last column: it starts where the header's does.
        state_start = None
        if starts is not None:
            after = line.find(cells[-1], line.find(cells[1], len(cells[0]))) + len(cells[-1])
            rest = line[after:]
            state_start = width(line[:after]) + (len(rest) - len(rest.lstrip(' ')))
        if starts is None or starts != first[:3] or state_start != first[3]:
            bad.append('%r (columns at %s, state at %s; header at %s)' % (line, starts, state_start, first))
    if bad:
        print('not ok %d - %s: rows do not line up with the header: %s' % (n, lang, '; '.join(bad)))
    else:
        print('ok %d - %s: every column starts at the same terminal column as its header' % (n, lang))
