// The value of a tool result that the model and later `$ref`s see.
import type { ToolCallResult } from "./types.js";

/** Structured data when present, else the text. */
export function toolResultValue(result: ToolCallResult): unknown {
  return result.data !== undefined && result.data !== null ? result.data : result.text;
}
