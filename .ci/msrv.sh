#!/usr/bin/env bash
# Checks the declared minimum Rust versions (`rust-version` of each crate of the workspace)
# against Cargo.lock, and that the README names them:
#
#     bash .ci/msrv.sh
#
# For each crate of the workspace, every locked package it builds with (its dependencies,
# their dependencies, and its own dev-dependencies, as `cargo metadata` resolves them for the
# whole workspace, for every platform) must declare a `rust_version` no newer than the crate's
# own; and README.md must say "X or newer" for the terminal game's minimum and for the
# highest one (the test command builds every crate). A package that declares no rust_version
# is not checked (cargo has nothing to go on either); the script says how many there are.
#
# What this does not do: compile with the declared toolchain. Only one toolchain can be
# installed on the machines this runs on, so an older compiler is never tried; a dependency
# that declares too low a rust_version, or code of ours that needs a newer compiler than we
# declare, goes unnoticed here. It catches the common case: a `cargo update` that pulls in a
# crate needing a newer Rust than the README promises.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v python3 >/dev/null 2>&1 || { echo "msrv.sh: python3 is needed" >&2; exit 1; }

# An assignment, not a pipe or eval, so that a failing cargo (a Cargo.lock that needs
# updating: --locked) stops the script under set -e.
meta="$(cargo metadata --format-version 1 --locked)"

check="$(cat <<'PY'
import json, re, sys

meta = json.load(sys.stdin)
# Words only: a line break may fall anywhere in the README's sentence.
readme = " ".join(open("README.md", encoding="utf-8").read().split())
packages = {p["id"]: p for p in meta["packages"]}
nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}


def version(v):
    """'1.88' and '1.88.0' as the same comparable tuple."""
    parts = [int(x) for x in re.match(r"^(\d+(?:\.\d+){0,2})", v).group(1).split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


def built_with(member):
    """Every package `member` builds with: normal and build dependencies all the way down,
    and the member's own dev-dependencies (its tests)."""
    seen, todo = set(), [member]
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        for dep in nodes[pid]["deps"]:
            kinds = [k["kind"] for k in dep["dep_kinds"]]
            if pid == member or any(k != "dev" for k in kinds):
                todo.append(dep["pkg"])
    seen.discard(member)
    return seen


failures = []
declared = {}
unchecked = set()
for member in meta["workspace_members"]:
    name = packages[member]["name"]
    own = packages[member].get("rust_version")
    if not own:
        failures.append(f"{name} declares no rust-version")
        continue
    declared[name] = own
    needed = (0, 0, 0)
    for pid in built_with(member):
        p = packages[pid]
        rv = p.get("rust_version")
        if not rv:
            unchecked.add(pid)
            continue
        needed = max(needed, version(rv))
        if version(rv) > version(own):
            failures.append(f"{name} declares rust-version {own}, but {p['name']} {p['version']} needs {rv}")
    print(f"{name}: declares {own}; its locked dependencies need {'.'.join(map(str, needed[:2]))}")

if declared:
    game = declared.get("stikis")
    highest = max(declared.values(), key=version)
    for v, what in [(game, "the terminal game's (stikis)"), (highest, "the workspace's highest")]:
        if v and f"{v} or newer" not in readme:
            failures.append(f'README.md does not say "{v} or newer" ({what} rust-version)')

print(f"{len(unchecked)} locked packages declare no rust_version and are not checked")
for f in failures:
    print(f"msrv.sh: {f}", file=sys.stderr)
sys.exit(1 if failures else 0)
PY
)"

python3 -c "$check" <<<"$meta"
