#!/usr/bin/env bash
# Builds the table's script (GET /play/play.js) from web/play.ts and the client in clients/typescript:
# openapi-typescript turns openapi/openapi.json into clients/typescript/openapi.d.ts, tsc --strict checks
# the page and the client against it, esbuild bundles them into one file. The tools are the ones pinned in
# tests/typescript (npm ci there first). OUT_DIR (default api/static) receives play.js.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-api/static}"
tools=tests/typescript/node_modules/.bin
if [ ! -x "$tools/esbuild" ]; then
    (cd tests/typescript && npm ci --no-audit --no-fund)
fi
"$tools/openapi-typescript" openapi/openapi.json --output clients/typescript/openapi.d.ts >/dev/null
"$tools/tsc" -p web/tsconfig.json
"$tools/esbuild" web/play.ts --bundle --minify --format=iife --target=es2020 --charset=utf8 --legal-comments=none \
    --log-level=warning --outfile="$out/play.js"
