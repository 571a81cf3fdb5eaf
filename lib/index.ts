// The kit's public names — nothing else lives here. Scripts: import { … } from "<repo>/lib/index.js".
export * from "./config.js";
export * from "./llm/index.js";
export * from "./rag/index.js";
export * from "./mcp/index.js";
export * from "./agent/index.js";
export * from "./exercises/index.js";
export * from "./display/index.js";
