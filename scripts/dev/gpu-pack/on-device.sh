#!/usr/bin/env bash
# Runs on a GPU machine without internet, in the repository root, after `npm run gpu:pack` here:
#   bash .gpu-pack/on-device.sh [command …]
# Unpacks Node, node_modules and llama.cpp's source from .gpu-pack/, builds node-llama-cpp's CUDA
# backend (CUDA architectures from GPU_PACK_CUDA_ARCH, default 90 = H100/H200), then runs the
# command (default: the tempo bench on the 8B twin). GPU_PACK_CONFIGURE_ONLY=1 stops after an
# offline CMake configure without CUDA — the check this pack gets on a machine without a GPU.
set -euo pipefail
repo="$(pwd)"
pack="$repo/.gpu-pack"
work="${GPU_PACK_WORK:-/tmp/gpu-pack}"
arch="${GPU_PACK_CUDA_ARCH:-90}"
step() { printf '\n[gpu-pack %(%H:%M:%S)T] %s\n' -1 "$*"; }

step "unpacking Node"
mkdir -p "$work/bin"
[ -x "$work/bin/node" ] || xz -dc "$pack/node.xz" > "$work/bin/node"
chmod +x "$work/bin/node"
export PATH="$work/bin:$PATH"
node_version="$(node -v)"
echo "node $node_version"

step "unpacking node_modules and llama.cpp source"
[ -d "$repo/node_modules/node-llama-cpp" ] || tar -C "$repo" -xJf "$pack/node_modules.tar.xz"
llama_dir="$repo/node_modules/node-llama-cpp/llama"
mkdir -p "$llama_dir/llama.cpp/.git"   # node-llama-cpp treats the folder as a clone when .git exists
[ -f "$llama_dir/llama.cpp/CMakeLists.txt" ] || tar -C "$llama_dir/llama.cpp" -xJf "$pack/llama-cpp-src.tar.xz"

# cmake-js looks for Node's headers under ~/.cmake-js/node-x64/<version> before downloading them.
headers="$HOME/.cmake-js/node-x64/$node_version"
mkdir -p "$headers"
[ -f "$headers/include/node/node_api.h" ] || tar -C "$headers" -xJf "$pack/node-headers.tar.xz"

# node-llama-cpp starts CMake through `npm run cmake-js-llama`; without npm on the machine this does it.
cat > "$work/bin/npm" <<SHIM
#!/usr/bin/env bash
# shim: only 'npm run -s cmake-js-llama -- ARGS' (node-llama-cpp's build) is supported
[ "\$1 \$2 \$3 \$4" = "run -s cmake-js-llama --" ] || { echo "npm shim: unsupported: \$*" >&2; exit 2; }
shift 4
cd "$llama_dir" && exec node "$repo/node_modules/cmake-js/bin/cmake-js" "\$@"
SHIM
chmod +x "$work/bin/npm"

common=(--CDLLAMA_BUILD_TESTS=OFF --CDLLAMA_BUILD_EXAMPLES=OFF --CDLLAMA_BUILD_TOOLS=OFF --CDLLAMA_CURL=OFF)
if [ "${GPU_PACK_CONFIGURE_ONLY:-0}" = "1" ]; then
  step "offline CMake configure (no CUDA)"
  out="$work/configure-check"
  rm -rf "$out"
  (cd "$llama_dir" && node "$repo/node_modules/cmake-js/bin/cmake-js" configure --log-level warn \
    --out "$out" --runtime-version="${node_version#v}" "${common[@]}" --CDGGML_CUDA=OFF --CDGGML_METAL=OFF \
    --CDNLC_CURRENT_PLATFORM=linux-x64 --CDNLC_TARGET_PLATFORM=linux-x64 --CDNLC_VARIANT=check)
  echo "configure ok: $out"
  exit 0
fi

step "building node-llama-cpp for CUDA (sm_$arch)"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
export NODE_LLAMA_CPP_CMAKE_OPTION_CMAKE_CUDA_ARCHITECTURES="$arch"
export NODE_LLAMA_CPP_CMAKE_OPTION_LLAMA_BUILD_TESTS=OFF NODE_LLAMA_CPP_CMAKE_OPTION_LLAMA_BUILD_TOOLS=OFF
export NODE_LLAMA_CPP_CMAKE_OPTION_LLAMA_BUILD_EXAMPLES=OFF
start=$SECONDS
node "$repo/node_modules/node-llama-cpp/dist/cli/cli.js" source build --gpu cuda --noUsageExample
echo "build: $((SECONDS - start)) s"

if [ "$#" -eq 0 ]; then
  set -- node --import tsx bench/tempo.bench.ts
  export BENCH_TWINS="${BENCH_TWINS:-llama-3.1-8b}"
fi
step "running: $*"
exec "$@"
