// The notebooks' first cell is fast because tslab type-checks it against lib's built declaration files
// only: no package's declarations (zod, node-llama-cpp, the MCP SDK) may be reachable from lib/index.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ensureNotebookLib, packagesReadByCell } from "../../scripts/dev/build-notebook-lib.js";

test("a cell importing the built lib reads no package declarations besides Node's", () => {
  ensureNotebookLib();
  assert.deepEqual(packagesReadByCell(), []);
});
