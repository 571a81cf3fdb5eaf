// Everything the kit renders, for notebooks (SVG, HTML tables) and terminals (text): plan graphs, traces,
// timelines, tables, German event texts, short previews.
export { showPlan, showTraceDiagram, showTraceTable, showTimeline, showKvReuse, showMetrics, showToolCatalog, type DiagramOptions } from "./show.js";
export { planToDot, renderPlanSvg, renderTraceSvg, type PlanGraphOptions } from "./plan-graph.js";
export { renderTimelineSvg, renderTimelineText } from "./timeline.js";
export { describeAgentEvent, runStatusLabel, SCHEDULE_MODE_LABELS } from "./event-text.js";
export { escapeHtml, htmlTable, type HtmlColumn } from "./html.js";
export { renderTraceTable, renderPlanMermaid, renderTraceMermaid } from "../agent/trace.js";
export { describeVoteEvent, voteHtml } from "../patterns/vote.js";
export { firstLines, jsonPreview, shortJson, traceDurationMs } from "../testing/demo-helpers.js";
