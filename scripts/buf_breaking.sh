#!/usr/bin/env bash
# `buf breaking` of protos/ against the newest release image in protos/releases/ (written by
# scripts/proto_release_image.sh), with buf.yaml's rules (FILE): the contract only grows. Run by make lint.
set -euo pipefail
cd "$(dirname "$0")/.."
against="$(ls protos/releases/*.binpb | sort -V | tail -n 1)"
scripts/buf.sh breaking --against "$against" "$@"
echo "buf breaking: no breaking change against $against"
