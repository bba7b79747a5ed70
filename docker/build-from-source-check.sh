#!/usr/bin/env bash
# build-from-source-check.sh — proves the Dockerfile's default path as a user meets it: a fresh clone of this
# repository's HEAD, `docker build` with BuildKit (the build stage compiles the jar with Maven), then the image run
# with its port published, a record produced and consumed back with kcat, and the image's own health check.
# Prints each step's time; exits 1 on the first failure, 3 (having printed why) when this machine cannot run the
# check: no engine, no BuildKit-capable client, no kcat, no builder image to be made. About a minute with Maven's downloads cached in
# BuildKit's cache mount, plus the downloads (~65 MB) the first time.
#
#   bash docker/build-from-source-check.sh
#
# Environment:
#   BASE_IMAGE      the runtime (default: MINIBROKER_BASE_IMAGE, else eclipse-temurin:17-jre)
#   BUILDER_IMAGE   the build stage (default: the Dockerfile's; with no registry reachable, make a local one with
#                   docker/builder-image.sh and pass its tag, or set MAKE_BUILDER=1 to have it made here)
#   MAVEN_SETTINGS  Maven settings handed to the build as the maven-settings secret (default ~/.m2/settings.xml
#                   when it exists; none otherwise, and Maven in the build stage uses the builder image's settings)
#   IMAGE           the tag built (default minibroker-src)
#   REMOVE_IMAGE    1: remove that image once checked (CI, so that runs do not pile up images)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
BASE_IMAGE="${BASE_IMAGE:-${MINIBROKER_BASE_IMAGE:-eclipse-temurin:17-jre}}"
IMAGE="${IMAGE:-minibroker-src}"
MAVEN_SETTINGS="${MAVEN_SETTINGS:-${HOME:-}/.m2/settings.xml}"

step_start=$SECONDS
step() { echo "check: $1 ($((SECONDS - step_start)) s)"; step_start=$SECONDS; }
fail() { echo "check: FAILED: $*" >&2; exit 1; }
cannot() { echo "check: SKIPPED: $*" >&2; exit 3; }

# A Docker client that builds with BuildKit: one with the buildx plugin, or one older than 23.0, whose own client
# does BuildKit when DOCKER_BUILDKIT=1 (a newer client without buildx refuses). The first such docker on PATH.
docker_cli=""
while read -r candidate; do
  if "$candidate" buildx version >/dev/null 2>&1; then docker_cli="$candidate"; break; fi
  major="$("$candidate" version --format '{{.Client.Version}}' 2>/dev/null | cut -d. -f1)"
  if [ -n "$major" ] && [ "$major" -lt 23 ] 2>/dev/null; then docker_cli="$candidate"; break; fi
done < <(type -ap docker)
[ -n "$docker_cli" ] || cannot "no docker client on PATH builds with BuildKit (install buildx, or use a 20.10-22.x client)"
"$docker_cli" info >/dev/null 2>&1 || cannot "no Docker engine answers"
command -v kcat >/dev/null 2>&1 || cannot "kcat is needed for the round trip"
git -C "$repo" rev-parse --verify -q HEAD >/dev/null || cannot "$repo is not a git clone with a commit"
"$docker_cli" image inspect "$BASE_IMAGE" >/dev/null 2>&1 \
  || timeout 120 "$docker_cli" pull -q "$BASE_IMAGE" >/dev/null 2>&1 || cannot "no base image $BASE_IMAGE here or to pull"

if [ "${MAKE_BUILDER:-0}" = 1 ]; then
  BUILDER_IMAGE="${BUILDER_IMAGE:-minibroker-builder:17}"
  BUILDER_IMAGE="$BUILDER_IMAGE" bash "$repo/docker/builder-image.sh" || cannot "no builder image $BUILDER_IMAGE"
fi
build_args=(--build-arg "BASE_IMAGE=$BASE_IMAGE")
if [ -n "${BUILDER_IMAGE:-}" ]; then build_args+=(--build-arg "BUILDER_IMAGE=$BUILDER_IMAGE"); fi
if [ -f "$MAVEN_SETTINGS" ]; then build_args+=(--secret "id=maven-settings,src=$MAVEN_SETTINGS"); fi

work="$(mktemp -d)"
container=""
cleanup() {
  if [ -n "$container" ]; then "$docker_cli" rm -f "$container" >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

git clone -q "$repo" "$work/clone"
step "cloned $(git -C "$work/clone" rev-parse --short HEAD) (committed work only)"

DOCKER_BUILDKIT=1 "$docker_cli" build "${build_args[@]}" -t "$IMAGE" "$work/clone" > "$work/build.log" 2>&1 \
  || { tail -n 40 "$work/build.log" >&2; fail "docker build (client $docker_cli)"; }
step "built $IMAGE from source with BuildKit (base $BASE_IMAGE, builder ${BUILDER_IMAGE:-as the Dockerfile defaults})"

# The published port is the advertised one, so that kcat's second connection (to the advertised address) lands too.
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
container="$("$docker_cli" run -d -p "127.0.0.1:$port:9092" \
  -e "KAFKA_ADVERTISED_LISTENERS=PLAINTEXT://127.0.0.1:$port" "$IMAGE")"
# The container's log, read whole into a file before it is searched: `docker logs | grep -q` fails under pipefail
# whenever grep stops at its match while docker logs still writes the lines after it (SIGPIPE).
container_log() {
  "$docker_cli" logs "$container" > "$work/container.log" 2>&1 || true
  cat "$work/container.log"
}
logged() { container_log > /dev/null; grep -q "$1" "$work/container.log"; }
for _ in $(seq 1 120); do                        # up to ~60 s; the broker starts in about 2 s
  if logged 'minibroker node 1 of cluster .* started'; then break; fi
  [ "$("$docker_cli" inspect -f '{{.State.Running}}' "$container")" = true ] || break
  sleep 0.5
done
logged 'started' || { container_log >&2; fail "the broker did not start"; }
[ "$("$docker_cli" inspect -f '{{.Config.User}}' "$container")" = 10001:10001 ] || fail "the image does not run as 10001"
step "started, running as uid 10001, on 127.0.0.1:$port"

record="from-source-$(date +%s%N)"
echo "$record" | timeout 30 kcat -P -b "127.0.0.1:$port" -t from-source-check || fail "kcat produce"
read_back="$(timeout 30 kcat -C -b "127.0.0.1:$port" -t from-source-check -o beginning -c 1 -e -q)" \
  || fail "kcat consume"
[ "$read_back" = "$record" ] || fail "read back '$read_back', wrote '$record'"
"$docker_cli" exec "$container" java -cp /opt/minibroker/minibroker.jar io.minibroker.server.HealthCheck localhost:9092 \
  >/dev/null || fail "the image's HealthCheck"
step "produced and consumed a record with kcat; HealthCheck passes"

"$docker_cli" stop -t 30 "$container" >/dev/null
logged 'cleanly' || { container_log >&2; fail "the broker did not close its logs cleanly on docker stop"; }
step "stopped cleanly"
if [ "${REMOVE_IMAGE:-0}" = 1 ]; then
  "$docker_cli" rm "$container" >/dev/null && container=""
  "$docker_cli" rmi "$IMAGE" >/dev/null
fi
echo "check: ok"
