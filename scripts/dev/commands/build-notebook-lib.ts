// `npm run build:notebook-lib`: lib compiled for the notebooks (scripts/dev/build-notebook-lib.ts).
import { defineCommand } from "../../node/command.js";
import { ensureNotebookLib, NotebookLibBuildError, notebookLibPaths, notebookLibState } from "../build-notebook-lib.js";

export const command = defineCommand({
  name: "build:notebook-lib",
  invocation: "npm run build:notebook-lib --",
  summary: "Baut lib für die Notebooks (CommonJS), wenn sie veraltet ist.",
  options: {
    check: { type: "boolean", help: "nur prüfen, ob die Notebook-Bibliothek aktuell ist (Exit-Code 1: nicht)" },
    force: { type: "boolean", help: "neu bauen, auch wenn sie aktuell ist" },
  },
  run: ({ values }) => {
    try {
      if (values.check) {
        const state = notebookLibState();
        console.log(`notebook lib: ${state}`);
        return state === "fresh" ? 0 : 1;
      }
      console.log(ensureNotebookLib(notebookLibPaths(), values.force === true));
      return 0;
    } catch (error) {
      if (!(error instanceof NotebookLibBuildError)) throw error;
      console.error(error.message);
      return 1;
    }
  },
});
