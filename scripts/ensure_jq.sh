#!/usr/bin/env bash
# Makes sure jq is on the PATH for the tests: the guides' grpcurl walk-throughs pipe into jq, and their
# tests run them as printed (tests/docs/grpcurl_walkthrough.py). Installs Debian's jq when missing.
set -euo pipefail
command -v jq >/dev/null 2>&1 && exit 0
echo "jq not found: installing Debian's jq"
if [ "$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq jq
else sudo apt-get update -qq && sudo apt-get install -y -qq jq; fi
