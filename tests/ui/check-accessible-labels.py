#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Issue 21, view 14: every icon-only button in the .ui files (a GtkButton,
# GtkToggleButton or GtkMenuButton with an icon and no label, or whose
# AdwButtonContent has none) has a tooltip and an accessible label, which
# GTK 4.8 gives no way to read back at run time (test-window's
# /ui/window/accessible walks the running window for the tooltips).
# Prints "1..1" and "ok 1"/"not ok 1" (TAP), each offender on its own line.

import glob
import os
import sys
import xml.etree.ElementTree as ET

BUTTONS = ('GtkButton', 'GtkToggleButton', 'GtkMenuButton')


def properties(obj):
    return {p.get('name'): (p.text or '') for p in obj.findall('property')}


def content_of(obj):
    child = None
    for c in obj.findall('child'):
        if c.find('object') is not None:
            child = c.find('object')
    prop = obj.find("property[@name='child']")
    if prop is not None and prop.find('object') is not None:
        child = prop.find('object')
    return child


def icon_only(obj):
    props = properties(obj)
    if props.get('label'):
        return False
    if 'icon-name' in props:
        return True
    child = content_of(obj)
    if child is None:
        return False
    if child.get('class') == 'GtkImage':
        return True
    return child.get('class') == 'AdwButtonContent' and not properties(child).get('label')


def main(paths):
    bad = []
    looked_at = 0
    for path in paths:
        for obj in ET.parse(path).iter('object'):
            if obj.get('class') not in BUTTONS or not icon_only(obj):
                continue
            looked_at += 1
            accessibility = obj.find('accessibility')
            label = accessibility is not None and accessibility.find("property[@name='label']") is not None
            tooltip = bool(properties(obj).get('tooltip-text'))
            if not label or not tooltip:
                bad.append('%s: %s %s lacks %s' % (path, obj.get('class'), obj.get('id') or '(no id)',
                                                   ' and '.join(w for w, ok in (('a tooltip', tooltip),
                                                                                ('an accessible label', label))
                                                                if not ok)))
    print('1..1')
    print('# %d icon-only buttons in %d files' % (looked_at, len(paths)))
    if looked_at == 0:
        bad.append('no icon-only button found: the check reads nothing')
    for line in bad:
        print('# ' + line)
    print(('not ok' if bad else 'ok') + ' 1 icon-only buttons are described')
    return 1 if bad else 0


if __name__ == '__main__':
    # a folder stands for its .ui files
    files = []
    for arg in sys.argv[1:]:
        files += sorted(glob.glob(os.path.join(arg, '*.ui'))) if os.path.isdir(arg) else [arg]
    sys.exit(main(files))
