#!/usr/bin/env bash
# The bench's nginx baseline without installing a service: Debian's nginx package is unpacked
# into bench/.tools/nginx (gitignored). No maintainer script runs, so nothing is configured or
# started, and nothing listens until the bench starts it on a loopback port of its own. Where
# there is no apt-get, the bench runs without its nginx baselines and says so in its results.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=bench/.tools/nginx
[ -x "$dest/usr/sbin/nginx" ] && exit 0
command -v apt-get >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1 || exit 0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if ! (cd "$work" && apt-get download -qq nginx >/dev/null 2>&1); then
  apt-get update -qq >/dev/null 2>&1 || true
  (cd "$work" && apt-get download -qq nginx >/dev/null 2>&1) || exit 0
fi
mkdir -p "$dest"
dpkg-deb -x "$work"/nginx_*.deb "$dest"
