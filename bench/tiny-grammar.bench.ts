// The grammar soak on the tiny GGUF (moved out of the unit tests; test/tiny-models/tiny-llama.test.ts keeps 4
// runs a schema): every schema of test/helpers/grammar-rounds.ts 18 times, at temperatures 0 to 1. Goal:
// every answer is complete JSON that its schema accepts, and no number is written in exponent form.
import { getLlama, LlamaChatSession, LlamaLogLevel } from "node-llama-cpp";
import { tinyModelPaths } from "../lib/config.js";
import { grammarRounds } from "../test/helpers/grammar-rounds.js";
import { reportGoal } from "./summary.js";

const llama = await getLlama({ gpu: false, build: "never", maxThreads: 1, logLevel: LlamaLogLevel.error });
const model = await llama.loadModel({ modelPath: tinyModelPaths().gguf });
const context = await model.createContext({ contextSize: 1024, threads: 1, sequences: 1 });
const sequence = context.getSequence();
const session = new LlamaChatSession({ contextSequence: sequence });
try {
  const r = await grammarRounds(llama, session, sequence, 18);
  console.log(r.summary);
  for (const failure of r.failures) console.log(`  ${failure}`);
  reportGoal({
    metric: "tiny GGUF: JSON under a JSON-schema grammar",
    goal: "every answer valid, no exponent form",
    measured: `${r.valid}/${r.runs} valid, ${r.exponentForms} in exponent form`,
    met: r.failures.length === 0 && r.exponentForms === 0,
  });
} finally {
  session.dispose();
  await context.dispose();
  await model.dispose();
  await llama.dispose();
}
