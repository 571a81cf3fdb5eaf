#!/usr/bin/env bash
# `npm run workshop` — opens notebooks/ in Jupyter with the project's TypeScript kernel.
# Uses JupyterLab when installed, else the classic Notebook (Debian: jupyter-notebook).
set -euo pipefail
cd "$(dirname "$0")/.."
export JUPYTER_PATH="$PWD/.jupyter-prefix/share/jupyter${JUPYTER_PATH:+:$JUPYTER_PATH}"
if [ ! -f .jupyter-prefix/share/jupyter/kernels/tslab/kernel.json ]; then
  echo "Der TypeScript-Kernel ist nicht registriert: bitte zuerst 'npm run setup' ausführen." >&2
  exit 1
fi
extra=()
# Jupyter refuses to run as root (containers, VMs) unless asked explicitly.
[ "$(id -u)" -eq 0 ] && extra+=(--allow-root)
if jupyter lab --version >/dev/null 2>&1; then
  exec jupyter lab --notebook-dir=notebooks "${extra[@]}" "$@"
elif jupyter notebook --version >/dev/null 2>&1; then
  exec jupyter notebook --notebook-dir=notebooks "${extra[@]}" "$@"
else
  echo "Jupyter fehlt: 'sudo apt-get install jupyter-notebook' (Debian/Ubuntu) oder 'python3 -m pip install jupyterlab'." >&2
  exit 1
fi
