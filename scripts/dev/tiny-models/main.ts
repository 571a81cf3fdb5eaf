// CLI: `npm run models:tiny [-- --force]` — generate the tiny offline test models.
import { dirname } from "node:path";
import { parseArgsGerman, printUsageError, UsageError } from "../../node/parse-args-german.js";
import { ensureTinyModels } from "./ensure.js";

const USAGE =
  "Aufruf: npm run models:tiny [-- --force]\n" +
  "  --force      neu erzeugen, auch wenn sie schon da sind\n" +
  "  -h, --help   diese Hilfe";

try {
  const { values } = parseArgsGerman({ args: process.argv.slice(2), options: { force: { type: "boolean" }, help: { type: "boolean", short: "h" } } }, USAGE);
  const paths = await ensureTinyModels({ force: values.force === true, log: console.log });
  console.log(`tiny models ready in ${dirname(paths.gguf)}`);
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  process.exitCode = printUsageError(error);
}
