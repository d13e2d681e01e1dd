#!/usr/bin/env bash
# Runs a command with Node.js <major> first on the PATH, installing that Node from the npm
# registry (the `node` package ships the official binaries) into a cache the first time, so
# CI needs no download other than npm's.
# Usage: scripts/with-node.sh <major> <command> [args...]
# QUINTET_NODE_CACHE: where the Node installs are kept (default ~/.cache/quintet-node).
set -euo pipefail
if [ $# -lt 2 ] || ! [[ "$1" =~ ^[0-9]+$ ]]; then
  echo "usage: scripts/with-node.sh <major> <command> [args...]" >&2
  exit 2
fi
major="$1"
shift
# The Node already on the PATH serves when it is that major.
if command -v node >/dev/null && [ "$(node -p 'process.versions.node.split(".")[0]')" = "$major" ]; then
  echo "with-node: $(node -v) (already on the PATH)" >&2
  exec "$@"
fi
prefix="${QUINTET_NODE_CACHE:-$HOME/.cache/quintet-node}/$major"
bin="$prefix/node_modules/node/bin"
# Reuse an earlier install only when it is really that major (an interrupted one is redone).
if ! [ -x "$bin/node" ] || [ "$("$bin/node" -p 'process.versions.node.split(".")[0]' 2>/dev/null)" != "$major" ]; then
  echo "with-node: installing Node $major from the npm registry into $prefix" >&2
  rm -rf "$prefix"
  mkdir -p "$prefix"
  npm install --prefix "$prefix" --no-save --no-audit --no-fund --loglevel=error "node@$major" >&2
fi
export PATH="$bin:$PATH"
echo "with-node: $(node -v) at $bin" >&2
exec "$@"
