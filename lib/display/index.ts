// Showing results in notebooks (SVG diagrams, HTML tables, progress) with text fallbacks for terminals.
export { inNotebook, show, liveOutput, type LiveOutput, type RichOutput } from "../notebook/output.js";
export { showPlan, showTraceDiagram, showTraceTable, showTimeline, showKvReuse, showMetrics, showToolCatalog, type DiagramOptions } from "./show.js";
export { planGraph, traceGraph, callStatuses, lastToolPlan, type CallStatus, type GraphEdge, type GraphNode, type GraphStep, type PlanGraph, type PlanGraphOptions } from "./plan-graph.js";
export { planToDot, graphToDot, renderPlanSvg, renderTraceSvg } from "./plan-dot.js";
export { dotToSvg } from "./graphviz.js";
export { renderPlanMermaid, renderTraceMermaid, graphToMermaid } from "./plan-mermaid.js";
export { renderPlanText, renderTraceText, graphToText } from "./plan-text.js";
export { renderTraceTable } from "./trace-text.js";
export { voteHtml } from "./vote.js";
export { describeAgentEvent, describeVoteEvent, runStatusLabel, SCHEDULE_MODE_LABELS } from "./event-text.js";
export { renderTimelineSvg, renderTimelineText, timelineBars, type TimelineBar } from "./timeline.js";
export { traceTableHtml, kvReuseTableHtml, kvReuseRounds, metricsTableHtml, toolCatalogHtml, type KvRound } from "./tables.js";
export { escapeHtml, htmlTable, shortCell, type HtmlColumn } from "./html.js";
export { progressLine, type ProgressLine } from "../notebook/progress.js";
export { announcePracticeMode, forParticipants, germanPart, NOTEBOOK_ERROR_MARK } from "../notebook/notices.js";
