#!/usr/bin/env bash
# Builds stand-ins for the Dockerfile's two base images where their registry is not reachable, and tags them with the
# exact names the Dockerfile uses so that `podman build --pull=never` builds the Dockerfile unchanged: Debian bookworm
# (debootstrap, minbase) with OpenJDK 17 from Debian, user 185 in group 0 and /deployments as in the UBI images; the
# build image also trusts the CA certificates the host trusts (Maven in the build stage downloads through the same
# network as the host). Does nothing when both tags exist. Needs root, debootstrap and podman.
#
#   src/test/image/stand-in-bases.sh [Dockerfile]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dockerfile=${1:-$here/../../../Dockerfile}
export CONTAINERS_CONF="${CONTAINERS_CONF:-$here/containers.conf}"
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

build_image=$(awk '/^FROM .* AS build$/ { print $2; exit }' "$dockerfile")
runtime_image=$(awk '/^FROM / { image = $2 } END { print image }' "$dockerfile")
if podman image exists "$build_image" && podman image exists "$runtime_image"; then
    echo "stand-in bases present: $build_image, $runtime_image"
    exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "debootstrap bookworm (minbase) from $mirror"
debootstrap --variant=minbase bookworm "$work/rootfs" "$mirror" >"$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log"; exit 1; }
tar -C "$work/rootfs" -c . | podman import --quiet - localhost/slot-keeper-stand-in/bookworm-minbase >/dev/null

mkdir -p "$work/runtime"
cat >"$work/runtime/Containerfile" <<'CONTAINERFILE'
FROM localhost/slot-keeper-stand-in/bookworm-minbase
RUN apt-get update -qq \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends openjdk-17-jre-headless \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --uid 185 --gid 0 --home-dir /home/default --create-home default \
    && mkdir -p /deployments && chown 185:0 /deployments && chmod 775 /deployments
ENV JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64
USER 185
WORKDIR /home/default
CONTAINERFILE
podman build --quiet --pull=never --network=host -t "$runtime_image" "$work/runtime" >/dev/null

mkdir -p "$work/build/ca"
if [ -d /usr/local/share/ca-certificates ]; then
    cp -r /usr/local/share/ca-certificates/. "$work/build/ca/"
fi
cat >"$work/build/Containerfile" <<CONTAINERFILE
FROM $runtime_image
USER 0
COPY ca/ /usr/local/share/ca-certificates/
RUN apt-get update -qq \\
    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends openjdk-17-jdk-headless \\
    && update-ca-certificates >/dev/null \\
    && rm -rf /var/lib/apt/lists/*
USER 185
CONTAINERFILE
podman build --quiet --pull=never --network=host -t "$build_image" "$work/build" >/dev/null
echo "stand-in bases built: $build_image, $runtime_image"
