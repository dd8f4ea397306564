#!/usr/bin/env bash
# Runs buf (npm's @bufbuild/buf, installed into .tools/ on first use).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .tools/node_modules/.bin/buf ]; then
  mkdir -p .tools
  exec 9>.tools/.install-lock && flock 9  # tests running side by side install it once
  if [ ! -x .tools/node_modules/.bin/buf ]; then
    npm install --silent --no-audit --no-fund --prefix .tools @bufbuild/buf@1.75.0 >/dev/null
  fi
  exec 9>&-
fi
exec .tools/node_modules/.bin/buf "$@"
