// `npm run test:notebooks`: runs the notebooks (scripts/dev/run-notebooks.ts).
import { defineCommand } from "../../node/command.js";
import { runAllNotebooks } from "../run-notebooks.js";
import { testEnvironment } from "../test-env.js";

export const command = defineCommand({
  name: "test:notebooks",
  invocation: "npm run test:notebooks --",
  summary:
    "Führt die Notebooks aus (Standard: auf den winzigen Testmodellen); NAMENSTEIL: nur Notebooks, deren Name das enthält.",
  options: {
    "use-configured-models": { type: "boolean", help: "mit den eingestellten Modellen statt der winzigen Testmodelle" },
    keep: { type: "boolean", help: "ausgeführte Notebooks in .cache/notebooks/ behalten" },
  },
  positionals: "[NAMENSTEIL …]",
  run: ({ values, positionals }) => main(positionals, values["use-configured-models"] === true, values.keep === true),
});

async function main(positionals: string[], configured: boolean, keep: boolean): Promise<number> {
  const env = configured
    ? { ...process.env, ...(await testEnvironment({ tinyModels: false })) }
    : await testEnvironment({ tinyModels: true });
  const results = await runAllNotebooks(positionals, env, keep);
  const failed = results.filter((r) => !r.ok).length;
  console.log(`notebooks: ${results.length - failed} passed, ${failed} failed`);
  return failed > 0 ? 1 : 0;
}
