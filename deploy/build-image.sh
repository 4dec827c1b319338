#!/usr/bin/env bash
# Builds Coffer's container image from this machine's own packages and writes it as an image
# archive (`podman load -i` / `docker load -i` reads it). No registry is needed: the base is a
# Debian minbase made here with debootstrap, Node is the binary the project pins (the `node`
# npm package), and Coffer is the packed tarball (`npm pack`) with its production dependencies.
# All podman state lives in a private root in a temporary folder, removed on exit whatever
# happens (docs/deploy.md, "The container image"; ../shared/anchors/containers.md).
#
#   deploy/build-image.sh --out coffer-image.tar [--base-tar FILE]
#   deploy/build-image.sh --podman-root DIR [--base-tar FILE]
#
# --base-tar FILE: reuse the minbase root filesystem archived in FILE, or write it there when
# FILE does not exist yet (debootstrap takes 1–3 minutes; the base changes only with Debian).
# --podman-root DIR: leave the image in the podman root DIR/storage (runroot DIR/run) instead of
# writing an archive; the caller owns and removes DIR (the image test does, saving a save and a load).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage="usage: deploy/build-image.sh --out FILE | --podman-root DIR [--base-tar FILE]"

out="" base_tar="" podman_root=""
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$2; shift 2 ;;
    --base-tar) base_tar=$2; shift 2 ;;
    --podman-root) podman_root=$2; shift 2 ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
[ -n "$out" ] || [ -n "$podman_root" ] || { echo "$usage" >&2; exit 2; }
[ -z "$out" ] || out=$(realpath -m "$out")
for tool in podman runc debootstrap; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "build-image: $tool is missing (apt-get install podman runc debootstrap)" >&2
    exit 3
  }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/coffer-image.XXXXXX")
podman_dir=${podman_root:-$work}
pod() { podman --root "$podman_dir/storage" --runroot "$podman_dir/run" "$@"; }
cleanup() {
  [ -n "$podman_root" ] || pod system reset -f >/dev/null 2>&1 || true
  rm -rf "$work"
}
step() { echo "build-image: $* (at ${SECONDS}s)"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir -p "$work/tmp" "$work/context"
export TMPDIR="$work/tmp"
# This VM: runc (crun refuses the hybrid cgroup layout), cgroupfs, ulimits within the hard limits.
cat >"$work/containers.conf" <<EOF
[containers]
default_ulimits = ["nofile=$(ulimit -Hn):$(ulimit -Hn)", "nproc=32768:32768"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
EOF
export CONTAINERS_CONF="$work/containers.conf"

# 1. The base: Debian bookworm minbase from the mirror apt already uses.
if [ -n "$base_tar" ] && [ -s "$base_tar" ]; then
  step "base from $base_tar"
  pod import --quiet "$base_tar" localhost/debian-bookworm-minbase:local >/dev/null
else
  mirror=$(apt-get indextargets --format '$(REPO_URI)' 'Identifier: Packages' 'Codename: bookworm' 2>/dev/null | head -1)
  step "debootstrap --variant=minbase bookworm from ${mirror:-deb.debian.org}"
  debootstrap --variant=minbase bookworm "$work/rootfs" "${mirror:-http://deb.debian.org/debian/}" >"$work/debootstrap.log" 2>&1 ||
    { tail -20 "$work/debootstrap.log" >&2; exit 1; }
  rm -rf "$work/rootfs/var/cache/apt/archives/"*.deb "$work/rootfs/var/lib/apt/lists/"*
  tar -C "$work/rootfs" -cf "$work/base.tar" .
  rm -rf "$work/rootfs"
  pod import --quiet "$work/base.tar" localhost/debian-bookworm-minbase:local >/dev/null
  if [ -n "$base_tar" ]; then cp "$work/base.tar" "$base_tar"; fi
fi

# 2. Coffer as a node would install it: the packed tarball and its production dependencies.
step "npm pack and install --omit=dev"
(cd "$root" && npm pack --silent --pack-destination "$work/context" >"$work/pack.log" 2>&1) ||
  { tail -20 "$work/pack.log" >&2; exit 1; }
tarball=$(cd "$work/context" && ls coffer-*.tgz)
mkdir -p "$work/context/app"
echo '{"private":true}' >"$work/context/app/package.json"
(cd "$work/context/app" &&
  npm install "../$tarball" --omit=dev --prefer-offline --no-audit --no-fund --loglevel=error >/dev/null)
rm "$work/context/$tarball"
cp "$root/node_modules/node/bin/node" "$work/context/node"
cp "$root/deploy/healthcheck.mjs" "$work/context/healthcheck.mjs"

# 3. The image. Docker format: the OCI image format has no HEALTHCHECK (podman drops it).
step "podman build"
version=$(node -p 'require(process.argv[1]).version' "$root/package.json" 2>/dev/null ||
  "$root/node_modules/node/bin/node" -p 'require(process.argv[1]).version' "$root/package.json")
pod build --quiet --format docker --network none --file "$root/deploy/Containerfile" \
  --tag "localhost/coffer:$version" --tag localhost/coffer:latest "$work/context" >/dev/null
pod run --rm --network none --no-healthcheck localhost/coffer:latest --version
if [ -n "$out" ]; then
  rm -f "$out"
  pod save --quiet --format docker-archive --output "$out" "localhost/coffer:$version" localhost/coffer:latest
  step "wrote $out (localhost/coffer:$version, localhost/coffer:latest)"
else
  step "built localhost/coffer:$version and localhost/coffer:latest in $podman_dir/storage"
fi
