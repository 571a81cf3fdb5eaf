#!/bin/sh
# The kit's tslab kernel (kernel.json's argv: tslab-kernel.sh kernel --config-path FILE). Starts from the V8
# startup snapshot in .cache/kernel-snapshot/ (TypeScript loaded, its declaration files parsed: about half the
# CPU of a start) when the snapshot was built and checked for this node binary and these NODE_OPTIONS
# (kernel-snapshot.ts writes node.stamp only then); otherwise, or with KIT_KERNEL_SNAPSHOT=0, the plain tslab.
kit=$(cd "$(dirname "$0")/../../../.." && pwd)
dir=${KIT_KERNEL_SNAPSHOT_DIR:-$kit/.cache/kernel-snapshot}
if [ "${KIT_KERNEL_SNAPSHOT:-1}" != 0 ] && [ -r "$dir/kernel.blob" ] && [ -r "$dir/node.stamp" ]; then
  node=$(readlink -f "$(command -v node)" 2>/dev/null)
  if [ -n "$node" ] && [ "$(cat "$dir/node.stamp")" = "$node $(stat -c '%s %Y' "$node") $NODE_OPTIONS" ]; then
    exec "$node" --snapshot-blob "$dir/kernel.blob" "$@"
  fi
fi
exec "$kit/node_modules/tslab/bin/tslab" "$@"
