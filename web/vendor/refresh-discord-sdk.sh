#!/usr/bin/env bash
# Refreshes the vendored Discord Embedded App SDK (the Activity page's script) from the npm
# registry: the package at one pinned version and its dependencies, bundled into one ES module
# for browsers, with the licences of everything bundled beside it. Node.js and npm are needed
# here only; building and running stikis need neither (the bundle is a committed file).
#
#   bash web/vendor/refresh-discord-sdk.sh            # the pinned version below
#   bash web/vendor/refresh-discord-sdk.sh 2.6.0      # another version (then update PINNED)
set -euo pipefail
PINNED=2.5.0
ESBUILD=0.24.2
version="${1:-$PINNED}"
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/../src"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
npm init -y >/dev/null
npm install --no-audit --no-fund --silent "@discord/embedded-app-sdk@$version" "esbuild@$ESBUILD"
echo "export { DiscordSDK, Events, Platform, patchUrlMappings } from '@discord/embedded-app-sdk';" > entry.mjs
{
  echo "// @discord/embedded-app-sdk $version, bundled for browsers by web/vendor/refresh-discord-sdk.sh."
  echo "// Licences: discord-sdk.LICENSES beside this file."
} > "$work/head.txt"
npx esbuild entry.mjs --bundle --format=esm --minify --legal-comments=none --target=es2020 \
  --outfile="$work/bundle.mjs" --log-level=warning
cat "$work/head.txt" "$work/bundle.mjs" > "$out/discord-sdk.mjs"
# The licence of each package in the bundle (the SDK and what it imports).
{
  echo "The Discord Embedded App SDK bundle (web/src/discord-sdk.mjs) holds these packages,"
  echo "each under its licence below."
  for pkg in $(cd node_modules && ls -d @discord/embedded-app-sdk big-integer decimal.js-light eventemitter3 lodash.transform uuid zod 2>/dev/null); do
    v=$(node -p "require('./node_modules/$pkg/package.json').version")
    lic=$(ls node_modules/"$pkg" | grep -i -m1 '^licen[cs]e' || true)
    echo
    echo "================================================================"
    echo "$pkg $v"
    echo "================================================================"
    if [ -n "$lic" ]; then cat "node_modules/$pkg/$lic"; else node -p "'License: ' + require('./node_modules/$pkg/package.json').license"; fi
  done
} > "$out/discord-sdk.LICENSES"
echo "web/src/discord-sdk.mjs: $(wc -c < "$out/discord-sdk.mjs") bytes (@discord/embedded-app-sdk $version)"
