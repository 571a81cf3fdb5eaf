// The slides stage of `npm test` on its own (scripts/dev/slides-check.ts).
import { defineCommand } from "../../node/command.js";
import { formatSlidesCheck, runSlidesCheck } from "../slides-check.js";

export const command = defineCommand({
  name: "test:slides",
  invocation: "npx tsx scripts/kit.ts test:slides",
  summary:
    "Baut die Foliensätze im Probelauf und prüft sie (die Stufe slides von npm test); NAMENSTEIL: nur diese Notebooks.",
  options: {},
  positionals: "[NAMENSTEIL …]",
  run: async ({ positionals }) => {
    const r = await runSlidesCheck(positionals);
    console.log(formatSlidesCheck(r));
    console.log(
      `slides: ${r.checks.filter((c) => c.ok).length} ok, ${r.checks.filter((c) => !c.ok).length} failed (${r.seconds.toFixed(1)} s)`,
    );
    return r.checks.length > 0 && r.checks.every((c) => c.ok) ? 0 : 1;
  },
});
