// One place for the timing contract between the travel server and the agent: the server answers every
// tool call within its upstream deadline (from live data or, when the upstream is slow or down, from
// its offline fallback), and the agent waits longer than that by default, so the fallback always
// arrives before the agent gives up on the tool. No import.meta here (tslab loads lib as CommonJS).

/** Longest time one upstream request of the travel server may take (queue, attempts, backoff). */
export const TRAVEL_UPSTREAM_DEADLINE_MS = 6_000;

/** Time the server needs after its deadline to answer from offline data and send the result. */
export const FALLBACK_MARGIN_MS = 10_000;

/** The agent's default time limit per tool call (runAgent's toolTimeoutMs). */
export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;

/** The largest deadline TRAVEL_UPSTREAM_DEADLINE_MS may set without breaking the contract. */
export const MAX_TRAVEL_UPSTREAM_DEADLINE_MS = DEFAULT_TOOL_TIMEOUT_MS - FALLBACK_MARGIN_MS;
