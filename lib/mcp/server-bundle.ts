// The travel and math servers prebuilt into one ES module each (scripts/dev/build-mcp-bundles.ts writes them to
// .cache/mcp-servers/). Node starts a bundle with about half the CPU and ~30 MB less memory than tsx compiling the
// server's ~50 source files (bench/mcp-start.bench.ts), which a classroom pays once per notebook that starts one.
// A bundle counts only while every source file it was built from is unchanged; otherwise the sources run.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";

export const MCP_BUNDLE_DIR = join(".cache", "mcp-servers");

/** `<folder>.json` beside the bundle: each input as [path relative to the root, size, mtimeMs] when it was built. */
export interface ServerBundleManifest {
  bundle: string;
  inputs: [file: string, size: number, mtimeMs: number][];
}

export function manifestPath(root: string, folder: string): string {
  return join(root, MCP_BUNDLE_DIR, `${folder}.json`);
}

/** The bundle of `folder` (e.g. "mcp-server-travel") when it exists and matches its sources, else undefined. */
export function freshServerBundle(root: string, folder: string): string | undefined {
  let manifest: ServerBundleManifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPath(root, folder), "utf8")) as ServerBundleManifest;
  } catch {
    return undefined; // not built (or a half-written manifest, which the builder's rename rules out): run the sources
  }
  const unchanged = manifest.inputs.every(([file, size, mtimeMs]) => {
    const now = statSync(join(root, file), { throwIfNoEntry: false });
    return now !== undefined && now.size === size && now.mtimeMs === mtimeMs;
  });
  const bundle = join(root, MCP_BUNDLE_DIR, manifest.bundle);
  return unchanged && statSync(bundle, { throwIfNoEntry: false })?.isFile() ? bundle : undefined;
}
