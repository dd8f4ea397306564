#!/usr/bin/env bash
# Makes sure headless Chromium is there for the browser tests (tests/web/): Debian's `chromium`,
# installed with apt when missing. Playwright drives it through executable_path and never downloads
# a browser of its own.
set -euo pipefail
browser="${SIZZLE_TEST_CHROMIUM:-/usr/bin/chromium}"
if [ -x "$browser" ]; then exit 0; fi
echo "chromium not found: installing Debian's chromium"
if [ "$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; fi
