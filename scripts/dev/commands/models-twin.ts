// `npm run models:twin`: writes a twin of a large model (scripts/dev/twins/main.ts).
import { errorText } from "../../../lib/util.js";
import { defineCommand } from "../../node/command.js";
import { parseArgsGerman, UsageError } from "../../node/parse-args-german.js";
import { writeTwin } from "../twins/main.js";
import { TWIN_QUANTS, TWIN_SHAPES, type TwinQuant } from "../twins/shapes.js";

export const command = defineCommand({
  name: "models:twin",
  invocation: "npm run models:twin --",
  summary: "Schreibt einen Zwilling eines großen Modells: gleiche Form, Zufallsgewichte (für Tempo-Messungen).",
  options: {
    out: { type: "string", value: "DATEI.gguf", help: "wohin der Zwilling geschrieben wird" },
    quant: { type: "string", value: "Q", help: `Quantisierung: ${TWIN_QUANTS.join("|")} (Standard q4_k_m)` },
    layers: { type: "string", value: "N", help: "nur so viele Schichten" },
  },
  positionals: "<modell>",
  notes: `Modelle: ${TWIN_SHAPES.map((s) => s.id).join(", ")}`,
  run: ({ argv }) => run(argv),
});
const USAGE = command.usage;

function parseTwinArgs(argv: string[]): { id: string; out: string; quant: TwinQuant; layers?: number } {
  const { values, positionals } = parseArgsGerman(
    { args: argv, allowPositionals: true, options: command.options },
    USAGE,
  );
  const quant = (values.quant ?? "q4_k_m") as TwinQuant;
  if (positionals.length !== 1)
    throw new UsageError(
      `Bitte genau ein Modell nennen${positionals.length ? `, nicht ${positionals.join(", ")}` : ""}.\n\n${USAGE}`,
    );
  if (!values.out)
    throw new UsageError(
      `--out fehlt: wohin der Zwilling geschrieben wird, z. B. --out .cache/twins/zwilling.gguf.\n\n${USAGE}`,
    );
  if (!TWIN_QUANTS.includes(quant)) throw new UsageError(`Unbekannte --quant "${values.quant}".\n${USAGE}`);
  const layers = values.layers === undefined ? undefined : Number(values.layers);
  return { id: positionals[0] as string, out: values.out, quant, layers };
}

async function run(argv: string[]): Promise<number> {
  try {
    const args = parseTwinArgs(argv);
    const started = performance.now();
    let shown = 0;
    const bytes = await writeTwin(args.id, args.out, {
      quant: args.quant,
      layers: args.layers,
      onProgress: (written, total) => {
        const pct = Math.floor((written / total) * 10);
        if (pct > shown) process.stdout.write(`${(shown = pct) * 10} % `);
      },
    });
    console.log(
      `\n${args.out} geschrieben: ${(bytes / 1e6).toFixed(1)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    return 0;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    console.error(`Zwilling nicht geschrieben: ${errorText(err)}`);
    return 1;
  }
}
