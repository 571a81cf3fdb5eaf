#!/usr/bin/env bash
# One set-up command for a fresh machine: `npm run setup` (or `bash scripts/setup.sh`).
# Idempotent: re-running skips what is already done. Works offline (npm registry + apt only)
# and on laptops with internet. Never installs anything globally except missing apt packages.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

step() { printf '\n==> %s\n' "$*"; }
die() { printf '\nsetup: %s\n' "$*" >&2; exit 1; }

step "Node.js"
node -e '
const [maj, min] = process.versions.node.split(".").map(Number);
if (maj < 20 || (maj === 20 && min < 19)) { console.error("Node.js >= 20.19 is required, found " + process.versions.node); process.exit(1); }
console.log("Node.js " + process.versions.node + " ok");' || die "please install Node.js 20.19 or newer (https://nodejs.org)."

# --- system packages ------------------------------------------------------------------------
# faiss (only needed when faiss-node's prebuilt binary cannot be downloaded) and Jupyter
# (nbconvert for the notebook tests, the classic Notebook UI for `npm run workshop`).
apt_packages=(libfaiss-dev libopenblas-dev jupyter-nbconvert jupyter-client jupyter-notebook)
step "System packages"
if command -v apt-get >/dev/null 2>&1 && command -v dpkg-query >/dev/null 2>&1; then
  missing=()
  for p in "${apt_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "installing with apt: ${missing[*]}"
    sudo_cmd=()
    [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq || true
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null \
      || die "apt-get install failed. Install these packages yourself: ${missing[*]}"
  else
    echo "all present: ${apt_packages[*]}"
  fi
else
  command -v jupyter >/dev/null 2>&1 || cat >&2 <<'MSG'
No apt-get here (macOS or another Linux). Please install yourself:
  - Jupyter (nbconvert + Notebook or JupyterLab):  python3 -m pip install --user jupyterlab nbconvert
    or on macOS:                                   brew install jupyterlab
  - only if faiss-node's prebuilt binary cannot be downloaded later:  brew install faiss
Then run `npm run setup` again.
MSG
fi

# --- npm dependencies ----------------------------------------------------------------------
# Install scripts are decided per package in package.json "allowScripts"; onnxruntime-node's
# CUDA download is skipped (CPU binaries are bundled). npm ci only when the lock file changed.
step "npm dependencies"
lock_hash=$(node -e 'const c=require("crypto");process.stdout.write(c.createHash("sha256").update(require("fs").readFileSync("package-lock.json")).digest("hex"))')
stamp=node_modules/.setup-lock-hash
# npm reads "allowScripts" from 11.16 on; older versions run every install script.
npm_honours_allow_scripts=$(npm --version | awk -F. '{ print ($1 > 11 || ($1 == 11 && $2 >= 16)) ? "yes" : "no" }')
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$lock_hash" ]; then
  echo "node_modules up to date"
elif [ "$npm_honours_allow_scripts" = yes ]; then
  ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund
  echo "$lock_hash" > "$stamp"
else
  # This npm ignores "allowScripts" and would run every install script (faiss-node's downloads from
  # GitHub). Apply the same decisions by hand: no scripts, then only the allowed ones (esbuild).
  echo "npm $(npm --version) ignores allowScripts: installing with --ignore-scripts, then running the allowed ones"
  ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund --ignore-scripts
  npm rebuild esbuild
  echo "$lock_hash" > "$stamp"
fi

step "faiss-node native addon"
bash scripts/build-faiss.sh

# --- Jupyter kernel, project-local -----------------------------------------------------------
step "tslab kernel (project-local, .jupyter-prefix/)"
kernel_dir="$root/.jupyter-prefix/share/jupyter/kernels/tslab"
mkdir -p "$kernel_dir"
cat > "$kernel_dir/kernel.json" <<JSON
{
  "argv": ["$root/node_modules/.bin/tslab", "kernel", "--config-path", "{connection_file}"],
  "display_name": "TypeScript (Workshop)",
  "language": "typescript"
}
JSON
echo "kernel 'tslab' registered in $kernel_dir"

# tslab only compiles files under the notebook's folder: notebooks/lib points at ../lib
# (committed as a symlink; recreated here for checkouts that lost it, e.g. a zip download).
if [ ! -e notebooks/lib ]; then ln -sfn ../lib notebooks/lib && echo "notebooks/lib -> ../lib created"; fi

# --- tiny offline test models -------------------------------------------------------------
step "tiny test models (generated, no download)"
npx tsx scripts/make-tiny-models.ts

step "done"
cat <<'MSG'
Next:
  npm test                                                  # all checks, on the tiny models
  npm run models:pull                                       # download Llama 3.1 8B (needs internet)
  npm start -- "Wie ist heute das Wetter in Barcelona?"     # the agent from the command line
  npm run workshop                                          # open the notebooks in Jupyter
MSG
