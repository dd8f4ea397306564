#!/usr/bin/env bash
# Makes sure a PostgreSQL answers on 127.0.0.1:5432 with a database `test` that user `postgres` reaches
# without a password, for the tests and benchmarks of the durable records: uses the one running
# (creating `test` in it when missing), or starts one of its own in /tmp/sizzle-postgres (installing
# Debian's postgresql with apt when no server binaries are found). Tests use a schema of their own per
# test and drop it after.
set -euo pipefail
port="${SIZZLE_TEST_POSTGRES_PORT:-5432}"
home=/tmp/sizzle-postgres
py="${VENV_PY:-.venv/bin/python}"

# Exit status: 0 the database answers, 3 the server answers without database `test`, 1 no server.
probe() { "$py" - "$port" <<'PY'
import asyncio, sys
import asyncpg

async def main(port: int) -> int:
    try:
        connection = await asyncpg.connect(host="127.0.0.1", port=port, user="postgres", database="test", timeout=2)
    except asyncpg.InvalidCatalogNameError:
        return 3
    except Exception:
        return 1
    await connection.close()
    return 0

sys.exit(asyncio.run(main(int(sys.argv[1]))))
PY
}

create_test_database() { "$py" - "$port" <<'PY'
import asyncio, sys
import asyncpg

async def main(port: int) -> None:
    connection = await asyncpg.connect(host="127.0.0.1", port=port, user="postgres", database="postgres", timeout=5)
    try:
        await connection.execute("CREATE DATABASE test")
    except asyncpg.DuplicateDatabaseError:
        pass
    finally:
        await connection.close()

asyncio.run(main(int(sys.argv[1])))
PY
}

status=0; probe || status=$?
if [ "$status" = 0 ]; then exit 0; fi
if [ "$status" = 3 ]; then create_test_database; exit 0; fi

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
bin_dir() {
  if command -v pg_ctl >/dev/null 2>&1 && command -v initdb >/dev/null 2>&1; then dirname "$(command -v pg_ctl)"; return; fi
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1
}
bin="$(bin_dir)"
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "PostgreSQL not found: installing Debian's postgresql"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  bin="$(bin_dir)"
fi
# The server refuses to run as root: as root it runs as the `postgres` user (created when missing).
run() { "$@"; }
if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || useradd --system --home-dir "$home" --shell /bin/sh postgres
  run() { runuser -u postgres -- "$@"; }
fi
mkdir -p "$home"
[ "$(id -u)" = 0 ] && chown postgres "$home"
if [ ! -f "$home/data/PG_VERSION" ]; then
  run "$bin/initdb" -D "$home/data" -U postgres --auth=trust -E UTF8 >"$home/initdb.log"
fi
run "$bin/pg_ctl" -D "$home/data" -l "$home/postgres.log" -w -t 30 \
  -o "-c listen_addresses=127.0.0.1 -p $port -k $home -c fsync=off" start >/dev/null
for _ in $(seq 100); do
  status=0; probe || status=$?
  if [ "$status" = 0 ]; then exit 0; fi
  if [ "$status" = 3 ]; then create_test_database; exit 0; fi
  sleep 0.1
done
echo "PostgreSQL did not start on 127.0.0.1:$port (see $home/postgres.log)" >&2; exit 1
