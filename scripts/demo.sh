#!/usr/bin/env bash
# The main job on the embedded local engine: build, create and send a Bundle, have it signed,
# then download its signed files and verify them; a webhook receiver verifies every event.
# Everything happens in a data and config directory of its own, removed at the end: the user's
# own data, profiles and environment (a remote profile, ESIGN_BASE_URL) are never touched.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d node_modules ] || npm ci --no-audit --no-fund
# The test suite builds dist/ once before its workers start; a rebuild here would empty it under them.
[ -n "${ESIGN_DEMO_BUILT:-}" ] || npm run --silent build
esign() { node bin/esign.js "$@"; }

work=$(mktemp -d "${TMPDIR:-/tmp}/esign-demo.XXXXXX")
listener=
cleanup() {
  [ -n "$listener" ] && kill "$listener" 2> /dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
unset ESIGN_BASE_URL ESIGN_API_KEY ESIGN_PROFILE
export ESIGN_DATA_DIR="$work/data" ESIGN_CONFIG_DIR="$work/config"

echo "== A webhook receiver (esign webhook listen checks each delivery's signature)"
esign webhook listen --port 0 --count 7 > "$work/events" 2> "$work/listen.log" &
listener=$!
until grep -q 'Listening on' "$work/listen.log"; do sleep 0.1; done
url=$(sed -n 's/.*Listening on \(http[^ ]*\).*/\1/p' "$work/listen.log")
hook=$(esign webhook create --name demo --url "$url" -q \
  --events bundle_sent,packet_viewed,packet_complete,bundle_complete,bundle_docs_ready)
echo "listening on $url, webhook $hook"
echo

echo "== Creating a Bundle: one contract, two signers, signed in order"
slug=$(esign bundle create --file fixtures/contract.pdf \
  --signer "Ada Lovelace <ada@example.com>" --signer "Bob Example <bob@example.com>" \
  --label "Services agreement" --in-order -q)
esign bundle get "$slug"
echo
echo "== Its audit trail"
esign bundle events "$slug"
echo
echo "== The messages the engine recorded instead of sending (outbox)"
esign local outbox --bundle "$slug"
echo
echo "== The signers sign, in order (esign local sign acts as each of them)"
packets=$(esign bundle get "$slug" --json | node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(0)).packets.map((p) => p.id).join(" "))')
for p in $packets; do esign local sign "$p" -q; done
esign bundle get "$slug"
echo
echo "== The webhook events received, each with its signature verified"
wait "$listener" || true
cat "$work/events"
echo
echo "== The signed PDF, the combined PDF and the Certificates of Evidence, downloaded and verified"
out="$work/files"
esign bundle files "$slug" --download "$out"
esign verify "$out"/*
echo
echo "== Bundles in the demo's own data directory (removed when the demo ends)"
esign bundle list --limit 5
