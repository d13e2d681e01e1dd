#!/usr/bin/env bash
# Makes the pgvector extension available to the local PostgreSQL server, building it from the
# source archive in ../shared/pgvector/ when the server lacks it. Idempotent: a server that
# already offers `vector` is left alone (--force rebuilds and reinstalls anyway).
# Needs root for apt (postgresql-server-dev-<major>, build-essential) and `make install`.
# No server restart is needed: CREATE EXTENSION vector loads the library.
#
# Environment: PGVECTOR_URL (default postgres://postgres@127.0.0.1:5432/postgres) is the server
# asked; PGVECTOR_ARCHIVE the source archive (default ../shared/pgvector/pgvector-*.tar.gz).
# Exit status: 0 when the server offers the extension afterwards, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
url="${PGVECTOR_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
force=0
[ "${1:-}" = "--force" ] && force=1

say() { echo "ensure-pgvector: $*" >&2; }
sql() { psql "$url" -XAtqc "$1"; }

if ! command -v psql >/dev/null; then
  say "psql is not installed; cannot ask the server"
  exit 1
fi
if ! sql "SELECT 1" >/dev/null 2>&1; then
  say "no PostgreSQL answers at $url"
  exit 1
fi
available() { sql "SELECT default_version FROM pg_available_extensions WHERE name = 'vector'"; }
if [ "$force" = 0 ] && [ -n "$(available)" ]; then
  say "the server already offers pgvector $(available)"
  exit 0
fi

major="$(sql "SHOW server_version_num")"
major="$((major / 10000))"
pg_config="/usr/lib/postgresql/$major/bin/pg_config"
# The server package ships pg_config too; building needs the server headers (postgres.h),
# which only postgresql-server-dev-<major> installs.
has_headers() {
  [ -x "$pg_config" ] && [ -f "$("$pg_config" --includedir-server)/postgres.h" ]
}
if ! has_headers; then
  if [ "$(id -u)" != 0 ]; then
    say "building pgvector needs postgresql-server-dev-$major; run this script as root"
    exit 1
  fi
  say "installing postgresql-server-dev-$major and build-essential with apt"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "postgresql-server-dev-$major" build-essential >&2
fi

archive="${PGVECTOR_ARCHIVE:-}"
if [ -z "$archive" ]; then
  archive="$(ls ../shared/pgvector/pgvector-*.tar.gz 2>/dev/null | sort -V | tail -n 1 || true)"
fi
if ! [ -f "$archive" ]; then
  say "no pgvector source archive (looked for ../shared/pgvector/pgvector-*.tar.gz; set PGVECTOR_ARCHIVE)"
  exit 1
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tar -xzf "$archive" -C "$work"
src="$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -n 1)"
say "building $(basename "$src") against PostgreSQL $major"
make -C "$src" -s -j "$(nproc)" PG_CONFIG="$pg_config" >&2
make -C "$src" -s install PG_CONFIG="$pg_config" >&2

if [ -z "$(available)" ]; then
  say "installed, but the server at $url still does not offer vector"
  exit 1
fi
say "the server now offers pgvector $(available)"
