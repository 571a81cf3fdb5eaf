// Every command of the kit by its name (the npm script's name): where its definition lives. Each is loaded
// only when it runs, so `npm run board` does not load the CLI's model libraries. scripts/kit.ts runs them;
// test/scripts/cli-usage.test.ts walks this list in-process.
import type { Command } from "./node/command.js";

type Loader = () => Promise<Command>;
const from =
  (load: () => Promise<{ command: object }>): Loader =>
  async () =>
    (await load()).command as Command;

export const COMMANDS = {
  start: from(() => import("./apps/cli/main.js")),
  doctor: from(() => import("./apps/doctor/main.js")),
  workshop: from(() => import("./apps/workshop/main.js")),
  "kernel:install": from(() => import("./apps/workshop/kernel-install.js")),
  board: from(() => import("./apps/board/main.js")),
  hub: from(() => import("./apps/hub/main.js")),
  klassenraum: from(() => import("./apps/klassenraum/main.js")),
  slides: from(() => import("./apps/slides/main.js")),
  "models:pull": from(() => import("./apps/models/pull.js")),
  "models:warm": from(() => import("./apps/models/warm.js")),
  "eval:rag": from(() => import("./apps/eval/rag.js")),
  "eval:agent": from(() => import("./apps/eval/agent.js")),
  test: from(() => import("./dev/test.js")),
  "test:notebooks": from(() => import("./dev/commands/test-notebooks.js")),
  "test:browser": from(() => import("./dev/commands/test-browser.js")),
  "test:slides": from(() => import("./dev/commands/test-slides.js")),
  "build:notebook-lib": from(() => import("./dev/commands/build-notebook-lib.js")),
  docs: from(() => import("./dev/api-docs.js")),
  "models:tiny": from(() => import("./dev/tiny-models/main.js")),
  "models:twin": from(() => import("./dev/commands/models-twin.js")),
  "llama:build": from(() => import("./dev/commands/llama-build.js")),
  "gpu:pack": from(() => import("./dev/gpu-pack.js")),
  bench: from(() => import("../bench/run.js")),
} satisfies Record<string, Loader>;

export type CommandName = keyof typeof COMMANDS;

export function isCommandName(name: string | undefined): name is CommandName {
  return name !== undefined && Object.hasOwn(COMMANDS, name);
}
