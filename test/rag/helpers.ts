// Shared set-up for the lib/rag tests: the tiny ONNX model, temp folders, a fake Hugging Face hub.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { tinyModelPaths } from "../../lib/config.js";
import { ensureTinyModels } from "../../scripts/dev/tiny-models/ensure.js";

export const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));
export const FIXTURE_CORPUS = join(FIXTURES, "corpus");

/** The tiny BERT folder (generated on first use). */
export async function tinyBertDir(): Promise<string> {
  const dir = tinyModelPaths().embeddingDir;
  if (!existsSync(join(dir, "onnx", "model.onnx"))) await ensureTinyModels();
  return dir;
}

/** A temp folder removed by the returned cleanup function. */
export function tempDir(prefix = "rag-test-"): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Serves `<modelDir>` as hub model `<modelId>` on 127.0.0.1 in the hub's URL layout
 * (`/<id>/resolve/main/<file>`); counts the files it served.
 */
export async function startFakeHub(
  modelId: string,
  modelDir: string,
): Promise<{ url: string; served: string[]; close: () => Promise<void> }> {
  const served: string[] = [];
  const prefix = `/${modelId}/resolve/main/`;
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? "").split("?")[0] ?? "");
    const relative = path.startsWith(prefix) ? normalize(path.slice(prefix.length)) : "";
    const file = join(modelDir, relative);
    if (
      !relative ||
      relative.startsWith("..") ||
      !file.startsWith(modelDir + sep) ||
      !existsSync(file) ||
      !statSync(file).isFile()
    ) {
      res.writeHead(404).end("not found");
      return;
    }
    const body = readFileSync(file);
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": body.length });
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    served.push(relative);
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function norm(v: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += (v[i] ?? 0) ** 2;
  return Math.sqrt(s);
}

export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs((a[i] ?? 0) - (b[i] ?? 0)));
  return m;
}
