#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks the shape of the Flatpak manifests (TAP).

The runtime cannot be fetched where the tests run, so this checks what can
be checked without it: the JSON, the app ids, runtime and SDK, the command,
the permissions (exactly the documented set, and each one documented in
README.md), the modules and the development configuration of .Devel.

Usage: check-manifest.py SOURCE_ROOT
"""

import json
import os
import re
import sys

BASE_ID = "org.plugboard.Plugboard"
OLDEST_RUNTIME = 47

# Every permission the app has, and why. Nothing else may be added without
# a reason here and in README.md ("Flatpak permissions").
FINISH_ARGS = {
    "--share=network": "remote MCP servers (HTTP, SSE, WebSocket) and the loopback OAuth redirect listener on 127.0.0.1",
    "--share=ipc": "shared memory for X11 (fallback-x11 needs it)",
    "--socket=wayland": "the window, on Wayland",
    "--socket=fallback-x11": "the window, on X11 only when there is no Wayland",
    "--device=dri": "GTK 4 renders with the GPU (GL/Vulkan); without it, software rendering",
    "--talk-name=org.freedesktop.secrets": "OAuth tokens in the user's keyring (Secret Service), shared with plugboard-cli on the host",
    "--talk-name=org.freedesktop.Flatpak": "stdio servers (npx, uvx, …) run on the host through flatpak-spawn --host",
    "--filesystem=home": "project folders (.mcp.json) and other MCP clients' settings (import) anywhere in home",
}

results = []


def check(ok, description, detail=None):
    results.append((bool(ok), description, detail))
    return ok


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        check(False, f"{os.path.basename(path)} is valid JSON", str(e))
        return None


def check_manifest(root, name, devel):
    path = os.path.join(root, "flatpak", name)
    m = load(path)
    if m is None:
        return None
    check(isinstance(m, dict), f"{name} is valid JSON (an object)")
    app_id = BASE_ID + (".Devel" if devel else "")
    check(m.get("id") == app_id, f"{name}: id is {app_id}", repr(m.get("id")))
    check("app-id" not in m, f"{name}: uses id, not the old app-id")
    check(m.get("runtime") == "org.gnome.Platform", f"{name}: runtime is org.gnome.Platform",
          repr(m.get("runtime")))
    check(m.get("sdk") == "org.gnome.Sdk", f"{name}: sdk is org.gnome.Sdk", repr(m.get("sdk")))
    version = str(m.get("runtime-version", ""))
    check(version.isdigit() and int(version) >= OLDEST_RUNTIME,
          f"{name}: runtime-version is a GNOME release, {OLDEST_RUNTIME} or later", repr(version))
    check(m.get("command") == "plugboard", f"{name}: command is plugboard", repr(m.get("command")))

    args = m.get("finish-args", [])
    check(len(args) == len(set(args)), f"{name}: no finish-arg twice", repr(args))
    extra = sorted(set(args) - set(FINISH_ARGS))
    missing = sorted(set(FINISH_ARGS) - set(args))
    check(not extra, f"{name}: no finish-arg beyond the documented set", f"extra: {extra}")
    check(not missing, f"{name}: every documented finish-arg is there", f"missing: {missing}")

    modules = m.get("modules", [])
    check(isinstance(modules, list) and modules, f"{name}: has modules")
    if not modules:
        return m
    app = modules[-1]
    check(isinstance(app, dict) and app.get("name") == "plugboard",
          f"{name}: the last module is plugboard", repr(app.get("name") if isinstance(app, dict) else app))
    check(app.get("buildsystem") == "meson", f"{name}: plugboard builds with meson")
    check(app.get("sources") == [{"type": "dir", "path": ".."}],
          f"{name}: plugboard is built from this checkout", repr(app.get("sources")))
    opts = app.get("config-opts", [])
    check("-Dapp=enabled" in opts, f"{name}: the GTK app is built (-Dapp=enabled)", repr(opts))
    if devel:
        check("-Ddevelopment=true" in opts, f"{name}: development build (-Ddevelopment=true)", repr(opts))
    else:
        check(not any(o.startswith("-Ddevelopment") for o in opts) or "-Ddevelopment=false" in opts,
              f"{name}: not a development build", repr(opts))

    # Every dependency the runtime lacks is pinned by checksum.
    names = [mod.get("name") for mod in modules if isinstance(mod, dict)]
    check("cmark" in names, f"{name}: builds cmark (not in the GNOME runtime)", repr(names))
    for mod in modules[:-1]:
        for src in mod.get("sources", []):
            if src.get("type") in ("archive", "file"):
                check(re.fullmatch(r"[0-9a-f]{64}", src.get("sha256", "")) is not None,
                      f"{name}: {mod.get('name')} source has a sha256", repr(src))
            elif src.get("type") == "git":
                check(re.fullmatch(r"[0-9a-f]{40}", src.get("commit", "")) is not None,
                      f"{name}: {mod.get('name')} git source pins a commit", repr(src))
    return m


def main():
    root = sys.argv[1]
    stable = check_manifest(root, BASE_ID + ".json", devel=False)
    devel = check_manifest(root, BASE_ID + ".Devel.json", devel=True)

    if stable is not None and devel is not None:
        check(stable.get("runtime-version") == devel.get("runtime-version"),
              "both manifests use the same runtime version")
        check(stable.get("finish-args") == devel.get("finish-args"),
              "both manifests have the same permissions")

    # The build knows the development option and the app id it gives.
    with open(os.path.join(root, "meson_options.txt"), encoding="utf-8") as f:
        check(re.search(r"option\('development',\s*type:\s*'boolean'", f.read()),
              "meson_options.txt has the boolean development option")
    with open(os.path.join(root, "meson.build"), encoding="utf-8") as f:
        build = f.read()
    check(f"'{BASE_ID}'" in build and "'.Devel'" in build,
          "meson.build derives the .Devel app id from the same base id")
    with open(os.path.join(root, "src", "app", "meson.build"), encoding="utf-8") as f:
        check(re.search(r"executable\(\s*'plugboard'", f.read()),
              "src/app/meson.build builds the plugboard command")

    # README documents every permission and how to build with network.
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    for arg in FINISH_ARGS:
        check(f"`{arg}`" in readme, f"README.md explains {arg}")
    for name in (BASE_ID + ".json", BASE_ID + ".Devel.json"):
        check(re.search(r"flatpak-builder --user --install --force-clean \S+ flatpak/" + re.escape(name), readme),
              f"README.md shows how to build flatpak/{name}")

    print(f"1..{len(results)}")
    for i, (ok, description, detail) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {i} - {description}")
        if not ok and detail:
            print(f"# {detail}")
    return 0 if all(ok for ok, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
