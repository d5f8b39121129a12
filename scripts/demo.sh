#!/usr/bin/env bash
# `make demo`: the main job end to end on the bundled example app (Examples/PatchShop), in demo-work/:
# init (config, keys, prepare) → edit a pricing rule → build the patch module → run it as a device
# would → release it to a local signed store → verify the store → a second edit released as a
# BSDIFF40 diff → serve the store and ask it for an update exactly as the SDK does.
set -euo pipefail
cd "$(dirname "$0")/.."

patchcli=$(realpath "${1:-.build/debug/patchcli}")
work=$(realpath -m demo-work)
project=$work/PatchShop
store=$work/store
keys=$work/keys
build=$project/.patch/build
pricing=$project/Sources/ShopCore/Pricing.swift

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
show() { printf '$ patchcli %s\n' "$*"; "$patchcli" "$@"; }
# The packed-ABI export the generated thunk calls for a declaration, read from the build manifest.
symbol_for() { python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print(next(e["symbol"] for e in m["exports"] if e["declarationId"].startswith(sys.argv[2])))' "$build/manifest.json" "$1"; }
sha256_of() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sha256"])' "$build/manifest.json"; }
# The shipped build's fingerprint (devices send it in every check), recorded in the build manifest.
fingerprint_of() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["baselineFingerprint"])' "$build/manifest.json"; }

rm -rf "$work"
mkdir -p "$work"
cp -R Examples/PatchShop "$project"

step "1. init: patch.json, the store's signing keys (one per TUF role, outside the project), prepare"
show init --project "$project" --key-dir "$keys"
show prepare --project "$project" --check

step "2. a developer lowers the free-shipping threshold from 50.00 to 30.00 and states a probe"
cp "$pricing" "$work/Pricing.shipped.swift"
python3 - "$pricing" <<'EOF'
import sys
path = sys.argv[1]
edited = []
for line in open(path).read().split("\n"):
    if "func shippingFee(" in line:
        edited.append('    // @probe {"subtotal":{"cents":4000,"currency":"USD"},"region":"domestic"} -> {"value":{"cents":0,"currency":"USD"}}')
    edited.append(line.replace("case .domestic: return subtotal.cents >= 5_000", "case .domestic: return subtotal.cents >= 3_000"))
open(path, "w").write("\n".join(edited))
EOF
git --no-pager diff --no-index "$work/Pricing.shipped.swift" "$pricing" | sed -n '5,$p' || true

step "3. build: what changed since the baseline, compiled to a wasm module (Embedded Swift → wasm32)"
show build --project "$project"
fingerprint=$(fingerprint_of)

step "4. run: the module in the device's interpreter, called exactly as the thunk calls it"
shipping=$(symbol_for "Pricing.shippingFee(")
show run "$build/module.wasm" --smoke
show run "$build/module.wasm" "$shipping" --input '{"subtotal":{"cents":4000,"currency":"USD"},"region":"domestic"}'

step "5. release: prove (parity, probes, fallback), compress, sign and publish for the shipped build's fingerprint"
# Run in the project, the store commands sign with the keys init made (signing.keyDirectory).
cd "$project"
show release init --store "$store"
show release "$build/module.wasm" --store "$store" --notes "Free domestic shipping from 30.00"
cp "$build/module.wasm" "$work/v1.wasm"
# The update server starts here, so it sees devices take v1 as their first update: the SDK applies a
# diff to its previous slot when it has one, and serve offers a diff only to a device whose slots its
# earlier checks settle (docs/serve.md "Which diff a device gets").
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
"$patchcli" serve --store "$store" --host 127.0.0.1 --port "$port" --events "$work/events.sqlite" >"$work/serve.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
request_for() { printf '{"app_key":"patchshop","fingerprint":"%s","channel":"production","device_id":"%s","current_version":"%s","os_version":"17.5.0","app_version":"1.0.0","sdk_version":"1.2.0"}' "$fingerprint" "$1" "$2"; }
check() { curl -fsS -X POST -H 'Content-Type: application/json' -d "$(request_for "$1" "$2")" "http://127.0.0.1:$port/api/v1/modules/check"; }
for _ in $(seq 1 100); do check demo-device-0001 0.0.0 >/dev/null 2>&1 && break; sleep 0.1; done
# Twenty fresh installs (current_version 0.0.0) are offered v1 and take it.
for n in $(seq 2 20); do check "$(printf 'demo-device-%04d' "$n")" 0.0.0 >/dev/null; done

step "6. a second edit (Europe from 100.00), released: devices on v1 download a BSDIFF40 diff"
sed -i.bak 's/case .europe: return subtotal.cents >= 12_000/case .europe: return subtotal.cents >= 10_000/' "$pricing" && rm -f "$pricing.bak"
show build --project "$project"
show release "$build/module.wasm" --store "$store" --rollout 50% --notes "Europe from 100.00"
cp "$build/module.wasm" "$work/v2.wasm"
show diff "$work/v1.wasm" "$work/v2.wasm" -o "$work/v1-to-v2.bsdiff" --verify
show diff apply "$work/v1.wasm" "$work/v1-to-v2.bsdiff" -o "$work/v2-from-diff.wasm" --sha256 "$(sha256_of)"

step "7. verify: every signature, hash, version, expiry and module of the store"
show release list --store "$store"
show verify "$store"

step "8. serve: the SDK's update protocol over the store, on loopback (running since v1; it picked up v2 itself)"
# A device on v1 (the first release's version), as the SDK sends it.
v1_version=$("$patchcli" release list --store "$store" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["result"]["channels"][0]["history"][0]["version"])')
# The 50% rollout reaches the devices whose bucket, SHA-256("<module sha256>:<device id>") mod 100
# (docs/release.md "Rollout buckets"), is below 50: one such device and one outside it, both on v1.
read -r inside outside < <(python3 - "$(sha256_of)" <<'PY'
import hashlib, sys
def bucket(device): return int(hashlib.sha256(f"{sys.argv[1]}:{device}".encode()).hexdigest()[:8], 16) % 100
devices = [f"demo-device-{n:04d}" for n in range(1, 21)]
print(next(d for d in devices if bucket(d) < 50), next(d for d in devices if bucket(d) >= 50))
PY
)
for device in "$inside" "$outside"; do
    printf '$ curl -X POST http://127.0.0.1:%s/api/v1/modules/check -d %s\n' "$port" "$(request_for "$device" "$v1_version")"
    check "$device" "$v1_version" | python3 -m json.tool
done
# The demo fails unless exactly the device inside the rollout is offered v2, as a diff from v1.
offered() { check "$1" "$v1_version" | python3 -c 'import json,sys; a=json.load(sys.stdin); print(a["has_update"], "diff_url" in a)'; }
[ "$(offered "$inside")" = "True True" ] && [ "$(offered "$outside")" = "False False" ] || { echo "demo: the rollout did not split the two devices as their buckets say" >&2; exit 1; }
event=$(printf '{"app_key":"patchshop","device_id":"%s","event_type":"activation","module_version":"%s"}' "$inside" "$v1_version")
curl -fsS -X POST -H 'Content-Type: application/json' -d "$event" "http://127.0.0.1:$port/api/v1/events" >/dev/null
kill $server 2>/dev/null || true
wait $server 2>/dev/null || true
trap - EXIT
show status --events "$work/events.sqlite" --store "$store"

printf '\nDemo finished: everything it wrote is in %s\n' "$work"
