#!/usr/bin/env bash
# Makes sure a Redis answers on 127.0.0.1:6379 for the tests: uses the one running, or starts
# Debian's redis-server (installing it with apt when missing). Tests use their own database number
# and key prefix and clean up after themselves.
set -euo pipefail
port="${SIZZLE_TEST_REDIS_PORT:-6379}"
ping() { "${VENV_PY:-.venv/bin/python}" - "$port" <<'PY'
import sys, redis
try:
    redis.Redis(host="127.0.0.1", port=int(sys.argv[1]), socket_connect_timeout=1).ping()
except Exception:
    sys.exit(1)
PY
}
if ping; then exit 0; fi
if ! command -v redis-server >/dev/null 2>&1; then
  echo "redis-server not found: installing Debian's redis-server"
  if [ "$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq redis-server
  else sudo apt-get update -qq && sudo apt-get install -y -qq redis-server; fi
fi
mkdir -p /tmp/sizzle-redis
redis-server --daemonize yes --bind 127.0.0.1 --port "$port" --save "" --appendonly no \
  --dir /tmp/sizzle-redis --logfile /tmp/sizzle-redis/redis.log
for _ in $(seq 50); do ping && exit 0; sleep 0.1; done
echo "Redis did not start on 127.0.0.1:$port" >&2; exit 1
