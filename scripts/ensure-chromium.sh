#!/usr/bin/env bash
# Makes sure Debian's Chromium is at /usr/bin/chromium for the browser tests.
# Installs it with apt-get when it is missing and we are root; otherwise exits non-zero with a
# reason on stderr so the tests can skip with that reason.
# Usage: scripts/ensure-chromium.sh   (exit 0: chromium present; 1: missing and not installable)
# NOTES_CHROMIUM overrides the path checked (the script's own tests use it).
set -u
CHROMIUM=${NOTES_CHROMIUM:-/usr/bin/chromium}
LOCK=/tmp/quintet-apt.lock

if [ -x "$CHROMIUM" ]; then exit 0; fi
if [ "$(id -u)" != "0" ]; then
  echo "ensure-chromium: $CHROMIUM is missing and we are not root, cannot apt-get install chromium" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $CHROMIUM is missing and apt-get is not available" >&2
  exit 1
fi

# Several test processes may arrive here at once: serialize, then look again.
exec 9>"$LOCK"
flock 9
if [ -x "$CHROMIUM" ]; then exit 0; fi
echo "ensure-chromium: installing chromium with apt-get (one time)" >&2
export DEBIAN_FRONTEND=noninteractive
if ! apt-get update -qq >&2; then
  echo "ensure-chromium: apt-get update failed" >&2
  exit 1
fi
if ! apt-get install -y -qq --no-install-recommends chromium >&2; then
  echo "ensure-chromium: apt-get install chromium failed" >&2
  exit 1
fi
[ -x "$CHROMIUM" ] || { echo "ensure-chromium: installed, but $CHROMIUM is still missing" >&2; exit 1; }
exit 0
