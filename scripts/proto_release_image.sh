#!/usr/bin/env bash
# Writes the descriptor image of the protos of a released commit to protos/releases/<version>.binpb,
# the contract `buf breaking` holds every later change to (scripts/buf_breaking.sh, in make lint).
# Usage: scripts/proto_release_image.sh <git ref of the release> <version>
#        scripts/proto_release_image.sh cbabedb v0.1.0      (the image committed for v0.1.0)
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { echo "usage: $0 <git ref> <version, e.g. v0.2.0>" >&2; exit 2; }
ref="$1" version="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
git archive "$ref" protos buf.yaml | tar -x -C "$work"
mkdir -p protos/releases
scripts/buf.sh build "$work" --exclude-source-info -o "protos/releases/$version.binpb"
echo "wrote protos/releases/$version.binpb (the protos of $(git rev-parse --short "$ref"))"
