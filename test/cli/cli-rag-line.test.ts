// The CLI's RAG line writes its threshold as Germans do ("≥ 0,35"), on the tiny models.
import assert from "node:assert/strict";
import { test } from "node:test";
import { runCliOnTinyModels } from "../helpers/run-script.js";

test("the RAG line says „ähnlich genug (≥ 0,35)“, not 0.35", async () => {
  const r = await runCliOnTinyModels(
    ["Wo liegt Rom?", "--offline", "--max-iterations", "2"],
    { TRAVEL_TODAY: "2026-01-29" },
    { input: "" },
  );
  assert.match(r.stdout, /^RAG: \d+ von \d+ Textstellen ähnlich genug \(≥ 0,35\)\.$/m, r.stdout + r.stderr);
});
