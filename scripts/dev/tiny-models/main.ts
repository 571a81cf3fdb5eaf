// `npm run models:tiny [-- --force]` — generate the tiny offline test models.
import { dirname } from "node:path";
import { defineCommand } from "../../node/command.js";
import { ensureTinyModels } from "./ensure.js";

export const command = defineCommand({
  name: "models:tiny",
  invocation: "npm run models:tiny --",
  summary: "Erzeugt die winzigen Testmodelle (GGUF und ONNX) unter models/tiny.",
  options: { force: { type: "boolean", help: "neu erzeugen, auch wenn sie schon da sind" } },
  run: async ({ values }) => {
    const paths = await ensureTinyModels({ force: values.force === true, log: console.log });
    console.log(`tiny models ready in ${dirname(paths.gguf)}`);
  },
});
