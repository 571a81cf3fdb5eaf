#!/usr/bin/env bash
# Makes faiss-node's native addon available without downloads from GitHub.
# 1. already loadable → done; 2. prebuilt download (works on machines with internet);
# 3. compile faiss-node's own src/faiss.cc against the system libfaiss (Debian: libfaiss-dev).
set -euo pipefail
cd "$(dirname "$0")/../.."
pkg=node_modules/faiss-node

loads() { node -e "require('faiss-node').IndexFlatIP" >/dev/null 2>&1; }

if loads; then echo "faiss-node: native addon loads."; exit 0; fi

if [ "${SKIP_PREBUILT_DOWNLOAD:-}" != "1" ]; then
  echo "faiss-node: trying the prebuilt binary (needs GitHub access) ..."
  if (cd "$pkg" && timeout 60 ../.bin/prebuild-install --runtime napi >/dev/null 2>&1) && loads; then
    echo "faiss-node: prebuilt binary installed."; exit 0
  fi
fi

if [ ! -f /usr/include/faiss/Index.h ]; then
  echo "faiss-node: no prebuilt binary and no system faiss found." >&2
  echo "  Debian/Ubuntu: sudo apt-get install libfaiss-dev libopenblas-dev   (then rerun npm run setup)" >&2
  echo "  macOS:         brew install faiss   (then rerun npm run setup)" >&2
  exit 1
fi

echo "faiss-node: compiling against the system libfaiss ..."
work=.cache/faiss-build
rm -rf "$work"; mkdir -p "$work"
cp scripts/dev/faiss/binding.gyp scripts/dev/faiss/faiss-compat.h "$pkg/src/faiss.cc" "$work/"
# node-gyp ships with npm; use that copy rather than adding another dependency.
gyp="$(dirname "$(readlink -f "$(command -v npm)")")/../node_modules/node-gyp/bin/node-gyp.js"
[ -f "$gyp" ] || gyp="$(npm root -g)/npm/node_modules/node-gyp/bin/node-gyp.js"
nodedir=()
# Use the installed Node headers when present (no download from nodejs.org needed).
[ -f /usr/include/node/node_api.h ] && nodedir=(--nodedir=/usr)
(cd "$work" && NODE_PATH="$(cd ../../node_modules && pwd)" node "$gyp" rebuild "${nodedir[@]}" >build.log 2>&1) || {
  echo "faiss-node: compile failed; log:" >&2; tail -30 "$work/build.log" >&2; exit 1; }
mkdir -p "$pkg/build/Release"
cp "$work/build/Release/faiss-node.node" "$pkg/build/Release/faiss-node.node"
loads || { echo "faiss-node: built, but the addon does not load." >&2; exit 1; }
echo "faiss-node: built from source against the system libfaiss."
