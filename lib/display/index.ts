// Everything the kit renders, for notebooks (SVG, HTML tables) and terminals (text): one plan-graph model
// (plan-graph.ts, internal) drawn as DOT/SVG, Mermaid and text; trace tables, timelines, the vote table and
// the Modell-Check table, German event texts, previews. escapeHtml is lib/notebook's.
export {
  showPlan,
  showTraceDiagram,
  showTraceTable,
  showTimeline,
  showKvReuse,
  showMetrics,
  showToolCatalog,
  type DiagramOptions,
} from "./show.js";
export { planToDot, renderPlanSvg, renderTraceSvg } from "./plan-dot.js";
export { renderPlanMermaid, renderTraceMermaid } from "./plan-mermaid.js";
export { renderPlanText, renderTraceText } from "./plan-text.js";
export { renderTraceTable } from "./trace-text.js";
export { renderTimelineSvg, renderTimelineText } from "./timeline.js";
export { voteHtml } from "./vote.js";
export { evalTableHtml } from "./eval.js";
export { describeAgentEvent, describeVoteEvent, runStatusLabel, SCHEDULE_MODE_LABELS } from "./event-text.js";
export { htmlTable, type HtmlColumn } from "./html.js";
export { firstLines, jsonPreview, shortJson } from "./preview.js";
