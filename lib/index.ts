// The kit's public names — nothing else lives here. Scripts: import { … } from "<repo>/lib/index.js".
export * from "./config.js";
export * from "./llm/index.js";
export * from "./rag/index.js";
export * from "./mcp/index.js";
export * from "./agent/index.js";
export * from "./exercises/index.js";
// Helpers the presentation notebooks call in one line (scripted plan, slow client, timeline, previews).
export * from "./agent/demo-helpers.js";
