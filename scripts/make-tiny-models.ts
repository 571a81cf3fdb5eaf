// CLI: `npm run models:tiny [-- --force]` — generate the tiny offline test models.
import { dirname } from "node:path";
import { ensureTinyModels } from "./tiny-models/ensure.js";

const paths = await ensureTinyModels({ force: process.argv.includes("--force"), log: console.log });
console.log(`tiny models ready in ${dirname(paths.gguf)}`);
