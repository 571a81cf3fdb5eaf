// The in-notebook runtime that llm, rag and mcp use below lib/display: rich output, progress lines,
// German notices for participants, instances kept alive across re-run cells.
export { inNotebook, show, liveOutput, type LiveOutput, type RichOutput } from "./output.js";
export { progressLine, type ProgressLine } from "./progress.js";
export { displayWidth, OUTPUT_COLUMNS, wrapText } from "./wrap.js";
export { announcePracticeMode, forParticipants, germanPart, NOTEBOOK_ERROR_MARK } from "./notices.js";
export { escapeHtml } from "./escape-html.js";
export { escapeMarkdown, mathSafeHtml, mathSafeMarkdown, NO_MATH_CLASS } from "./math-safe.js";
export { endKernel, KERNEL_ENDS, KERNEL_STAYS_AFTER_RUN_ALL } from "./end-kernel.js";
