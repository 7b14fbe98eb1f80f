#!/usr/bin/env bash
# CI for the containers (.ci/run calls it after the tests): builds the image, then
#  1. runs it alone with the embedded defaults (SQLite, files on a volume, read-only root) and does
#     a real try-on through it; stops it with a try-on in flight and checks nothing was lost;
#  2. brings up the compose stack (API, worker, PostgreSQL, Redis, S3 store; PostgreSQL and Redis
#     from compose.local-images.yaml where the official images cannot be pulled) and does a
#     try-on through the API and the worker; stops the worker, then the API, each with a try-on in
#     flight, and checks that every try-on answered 200 is charged and stored and every other one
#     refunded.
# Each stop must end within STOP_LIMIT_S (10 s). Prints the image size, the build time, the stop
# times and its own time. Cleans up after itself (containers, volumes, network) whatever happens.
# Needs root for apt-get and mmdebstrap when podman or the base image are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
export CONTAINERS_CONF="$root/deploy/podman/containers.conf"

IMAGE="${IMAGE:-localhost/aidressup:latest}"
EMBEDDED=aidressup-ci-embedded
PROJECT=aidressup-ci
STOP_LIMIT_S=10
# The try-ons' grace on SIGTERM, below STOP_LIMIT_S: a stop ends in time however loaded the machine
# is, and either way (finished or refunded past the grace) nothing may be lost.
GRACE_MS=8000
PERSON="$root/e2e/fixtures/person.jpg"
GARMENT="$root/e2e/fixtures/garment-upper.jpg"
started_all=$(date +%s)
work="$(mktemp -d)"
summary=()

say() { echo "ci-containers: [$(($(date +%s) - started_all)) s] $*"; }
# podman without systemd complains about health-check timers on every run; those lines are noise.
quiet() { grep -v 'systemd' || true; }
fail() {
  echo "ci-containers: FAILED: $*" >&2
  for c in $(podman ps -a --format '{{.Names}}' 2>/dev/null | grep -E "^($EMBEDDED|${PROJECT}_)" || true); do
    echo "---- logs of $c (last 40 lines)" >&2
    podman logs --tail 40 "$c" 2>&1 | quiet | cut -c1-400 >&2
  done
  exit 1
}

cleanup() {
  set +e
  podman rm -f -v -t 0 "$EMBEDDED" >/dev/null 2>&1
  podman volume rm -f "$EMBEDDED-data" >/dev/null 2>&1
  for c in $(podman ps -a -q --filter "label=io.podman.compose.project=$PROJECT" 2>/dev/null); do
    podman rm -f -v -t 0 "$c" >/dev/null 2>&1
  done
  for v in $(podman volume ls -q 2>/dev/null | grep "^${PROJECT}_"); do podman volume rm -f "$v" >/dev/null 2>&1; done
  podman network rm -f "${PROJECT}_default" >/dev/null 2>&1
  rm -rf "$work"
}

# ---- tools
need=()
command -v podman >/dev/null || need+=(podman runc buildah)
command -v mmdebstrap >/dev/null || need+=(mmdebstrap)
command -v podman-compose >/dev/null || need+=(podman-compose)
# Podman 4.3 on CNI resolves the compose services' names (postgres, redis, s3) only with the dnsname
# plugin, which podman merely recommends: without it the API cannot find "postgres".
[ -x /usr/lib/cni/dnsname ] || need+=(golang-github-containernetworking-plugin-dnsname)
if [ ${#need[@]} -gt 0 ]; then
  say "installing ${need[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
command -v curl >/dev/null || fail "curl is missing"
trap cleanup EXIT
cleanup
mkdir -p "$work"

free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
json() { node -e "let d='';process.stdin.on('data',c=>d+=c).on('end',()=>{const v=JSON.parse(d);const r=($1);console.log(typeof r==='object'?JSON.stringify(r):r)})"; }

# wait_healthy URL SECONDS: /api/health answers 200 (podman-compose ignores health conditions).
wait_healthy() {
  local until=$(($(date +%s) + $2))
  while [ "$(date +%s)" -lt "$until" ]; do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$1/api/health" || true)" = 200 ] && return 0
    sleep 1
  done
  curl -s "$1/api/health" || true
  fail "$1/api/health did not answer 200 within $2 s"
}

# A shopper: sign_in BASE NAME writes the cookie jar and prints the user id.
sign_in() {
  curl -sf -c "$work/$2.jar" -H 'content-type: application/json' \
    -d "{\"deviceId\":\"ci_$2_$RANDOM$RANDOM\",\"deviceInfo\":{\"browser\":\"curl\",\"os\":\"Linux\"}}" \
    "$1/api/auth/anonymous" | json 'v.user.id'
}
buy_credits() {
  curl -sf -b "$work/$2.jar" -H 'content-type: application/json' -d '{"planId":"monthly"}' \
    "$1/api/billing/demo/checkout" >/dev/null || fail "demo checkout failed"
}
# try_on BASE NAME USERID OUT: the answer's body in OUT, its status printed.
try_on() {
  curl -s -o "$4" -w '%{http_code}' -b "$work/$2.jar" --max-time 150 \
    -F "userImage=@$PERSON;type=image/jpeg" -F "clothingImage=@$GARMENT;type=image/jpeg" \
    -F category=upper_body -F "userId=$3" "$1/api/process-image" || echo 000
}
# charged BASE NAME USERID: try-ons charged (free trials used + credits spent since the purchase).
charged() {
  curl -sf -b "$work/$2.jar" "$1/api/auth/user/$3" | json "v.user.free_trials_used + ($4 - v.user.credits)"
}
gallery_count() { curl -sf -b "$work/$2.jar" "$1/api/tryons" | json 'v.items.length'; }
credits_now() { curl -sf -b "$work/$2.jar" "$1/api/auth/user/$3" | json 'v.user.credits'; }

# stop_busy CONTAINER WATCHED BASE NAME USERID LOGMARK: posts a try-on and, once it is in flight
# (LOGMARK seen once more in WATCHED's log), stops CONTAINER; sets stop_ms and busy_status.
stop_busy() {
  local container="$1" watched="$2" out="$work/busy-$RANDOM.json" before
  before=$(podman logs "$watched" 2>&1 | grep -c "$6" || true)
  try_on "$3" "$4" "$5" "$out" >"$out.status" &
  local pid=$! until=$(($(date +%s) + 60))
  until [ "$(podman logs "$watched" 2>&1 | grep -c "$6" || true)" -gt "$before" ]; do
    [ "$(date +%s)" -lt "$until" ] || fail "no try-on reached $watched"
    sleep 0.1
  done
  local t0 t1 code
  t0=$(date +%s%N)
  podman stop -t 30 "$container" >/dev/null 2>&1 || fail "podman stop $container failed"
  t1=$(date +%s%N)
  wait "$pid" || true
  code=$(podman inspect "$container" --format '{{.State.ExitCode}}')
  [ "$code" = 0 ] || fail "$container exited $code after SIGTERM"
  stop_ms=$(((t1 - t0) / 1000000))
  busy_status=$(cat "$out.status")
  [ "$stop_ms" -lt $((STOP_LIMIT_S * 1000)) ] || fail "stopping $container took $stop_ms ms"
  [ "$busy_status" = 200 ] && ok=$((ok + 1))
  return 0
}

# wait_log CONTAINER TEXT COUNT: TEXT appears COUNT times in CONTAINER's log.
wait_log() {
  local until=$(($(date +%s) + 90))
  until [ "$(podman logs "$1" 2>&1 | grep -c "$2" || true)" -ge "$3" ]; do
    [ "$(date +%s)" -lt "$until" ] || fail "$1 did not log '$2' $3 times"
    sleep 0.5
  done
}

# ---- 1. the image
say "building $IMAGE (and the service images for compose.local-images.yaml)"
build_started=$(date +%s)
IMAGE="$IMAGE" tools/image-build.sh --services >"$work/build.log" 2>&1 || { tail -40 "$work/build.log"; fail "image build failed"; }
grep '^image-build:' "$work/build.log" || true
# Older build leftovers go (the last two days' stay: they are the cache of the next build).
podman image prune -f --filter until=48h >/dev/null 2>&1 || true
build_s=$(($(date +%s) - build_started))
size_mb=$(($(podman image inspect "$IMAGE" --format '{{.Size}}') / 1000000))
summary+=("image $IMAGE: ${size_mb} MB, built in ${build_s} s (with the service images)")
[ "$size_mb" -lt 600 ] || fail "the image is ${size_mb} MB (limit 600)"
[ "$(podman image inspect "$IMAGE" --format '{{.Config.User}}')" = "10001:10001" ] || fail "the image does not run as 10001"
podman image inspect "$IMAGE" --format '{{json .Config.Healthcheck}}' | grep -q '/api/health' || fail "no HEALTHCHECK"

# ---- 2. one container, embedded defaults
port=$(free_port)
base="http://127.0.0.1:$port"
say "embedded: podman run --read-only on port $port"
podman run -d --pull=never --name "$EMBEDDED" --read-only -p "127.0.0.1:$port:3000" \
  -e "SHUTDOWN_GRACE_MS=$GRACE_MS" -v "$EMBEDDED-data:/data" "$IMAGE" >/dev/null 2>&1 || fail "podman run failed"
wait_healthy "$base" 90
user=$(sign_in "$base" embedded)
buy_credits "$base" embedded
credits0=$(credits_now "$base" embedded "$user")
status=$(try_on "$base" embedded "$user" "$work/e1.json")
[ "$status" = 200 ] || fail "embedded try-on answered $status: $(cat "$work/e1.json")"
image_url=$(json 'v.imageUrl' <"$work/e1.json")
[ "$(curl -s -o /dev/null -w '%{content_type}' -b "$work/embedded.jar" "$base$image_url")" = image/jpeg ] ||
  fail "the result $image_url is not served"
ok=1
stop_busy "$EMBEDDED" "$EMBEDDED" "$base" embedded "$user" 'POST","url":"/api/process-image'
summary+=("embedded: stop with a try-on in flight $stop_ms ms (try-on answered $busy_status)")
podman start "$EMBEDDED" >/dev/null 2>&1 || fail "podman start $EMBEDDED failed"
wait_healthy "$base" 60
[ "$(charged "$base" embedded "$user" "$credits0")" = "$ok" ] || fail "embedded: charged $(charged "$base" embedded "$user" "$credits0"), succeeded $ok"
[ "$(gallery_count "$base" embedded)" = "$ok" ] || fail "embedded: gallery $(gallery_count "$base" embedded), succeeded $ok"
say "embedded: $ok try-ons answered 200, each charged and stored once; nothing else charged"
podman rm -f -v -t 0 "$EMBEDDED" >/dev/null 2>&1
podman volume rm -f "$EMBEDDED-data" >/dev/null 2>&1

# ---- 3. the compose stack
port=$(free_port)
base="http://127.0.0.1:$port"
# podman-compose reads .env beside the compose file: a copy of the files in a folder of our own.
cp compose.yaml compose.local-images.yaml "$work/"
ln -s "$root/deploy" "$work/deploy"
{
  echo "SESSION_SECRET=$(head -c 36 /dev/urandom | base64 | tr -d '/+=')"
  echo "POSTGRES_PASSWORD=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')"
  echo "API_PORTS=$port"
  echo "AIDRESSUP_IMAGE=$IMAGE"
  echo "SHUTDOWN_GRACE_MS=$GRACE_MS"
} >"$work/.env"
compose() { (cd "$work" && podman-compose -p "$PROJECT" -f compose.yaml -f compose.local-images.yaml "$@"); }
say "compose: up (API on port $port)"
compose up -d >"$work/compose-up.log" 2>&1 || { cat "$work/compose-up.log"; fail "compose up failed"; }
wait_healthy "$base" 180
wait_log "${PROJECT}_worker_1" 'engines warmed' 1
user=$(sign_in "$base" stack)
buy_credits "$base" stack
credits0=$(credits_now "$base" stack "$user")
status=$(try_on "$base" stack "$user" "$work/s1.json")
[ "$status" = 200 ] || fail "compose try-on answered $status: $(cat "$work/s1.json")"
tryon_id=$(json 'v.tryonId' <"$work/s1.json")
podman logs "${PROJECT}_worker_1" 2>&1 | grep 'try-on job finished' | grep -q "$tryon_id" ||
  fail "the worker did not run try-on $tryon_id"
ok=1
stop_busy "${PROJECT}_worker_1" "${PROJECT}_worker_1" "$base" stack "$user" 'try-on job started'
summary+=("compose: worker stop with a try-on in flight $stop_ms ms (try-on answered $busy_status)")
podman start "${PROJECT}_worker_1" >/dev/null 2>&1 || fail "podman start worker failed"
wait_log "${PROJECT}_worker_1" 'engines warmed' 2
stop_busy "${PROJECT}_api_1" "${PROJECT}_worker_1" "$base" stack "$user" 'try-on job started'
summary+=("compose: API stop with a try-on in flight $stop_ms ms (try-on answered $busy_status)")
podman start "${PROJECT}_api_1" >/dev/null 2>&1 || fail "podman start api failed"
wait_healthy "$base" 90
[ "$(charged "$base" stack "$user" "$credits0")" = "$ok" ] || fail "compose: charged $(charged "$base" stack "$user" "$credits0"), succeeded $ok"
[ "$(gallery_count "$base" stack)" = "$ok" ] || fail "compose: gallery $(gallery_count "$base" stack), succeeded $ok"
say "compose: $ok try-ons answered 200, each charged and stored once; nothing else charged"

cleanup
trap - EXIT
for line in "${summary[@]}"; do say "$line"; done
say "done in $(($(date +%s) - started_all)) s"
