// Settings of the travel server: upstream base URLs, cache, timeouts. Env vars override the defaults,
// constructor options override env vars (tests point everything at a fake upstream on 127.0.0.1).
import { join } from "node:path";
import { findProjectRoot } from "../../lib/config.js";
import { MAX_TRAVEL_UPSTREAM_DEADLINE_MS, TRAVEL_UPSTREAM_DEADLINE_MS } from "../../lib/timeouts.js";

export interface UpstreamConfig {
  nominatimUrl: string;
  forecastUrl: string;
  archiveUrl: string;
  overpassUrl: string;
  userAgent: string;
  /** Per-attempt timeout in milliseconds (never longer than what is left of the deadline). */
  timeoutMs: number;
  /** Longest time one upstream request may take in all; then the offline fallback answers (lib/timeouts.ts). */
  deadlineMs: number;
  /** How long an upstream that just failed is skipped (circuit breaker); 0 turns the breaker off. */
  breakerOpenMs: number;
  /** Extra attempts after the first one on 429, 5xx, network errors and timeouts. */
  retries: number;
  /** First backoff delay; doubles per retry (with jitter, capped by maxBackoffMs). */
  backoffMs: number;
  maxBackoffMs: number;
  /** Minimum gap between two Nominatim requests (their usage policy: at most one per second). */
  nominatimIntervalMs: number;
  /** Most Overpass requests running at once (their usage policy asks for few parallel queries). */
  overpassConcurrency: number;
  /** Folder of the file cache, or null to disable caching. */
  cacheDir: string | null;
}

export interface ServerDataConfig {
  /** Folder with cities.json and places.json. */
  dataDir: string;
}

export const DEFAULT_USER_AGENT =
  "agentic-ai-workshop-kit/0.1 (MCP travel server for a workshop; set TRAVEL_USER_AGENT to add your contact)";

function num(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === "") return fallback;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

export function upstreamConfigFromEnv(env: NodeJS.ProcessEnv = process.env, root?: string): UpstreamConfig {
  const cache = env.TRAVEL_CACHE_DIR;
  return {
    nominatimUrl: trimSlash(env.TRAVEL_NOMINATIM_URL || "https://nominatim.openstreetmap.org"),
    forecastUrl: trimSlash(env.TRAVEL_FORECAST_URL || "https://api.open-meteo.com"),
    archiveUrl: trimSlash(env.TRAVEL_ARCHIVE_URL || "https://archive-api.open-meteo.com"),
    overpassUrl: trimSlash(env.TRAVEL_OVERPASS_URL || "https://overpass-api.de/api/interpreter"),
    userAgent: env.TRAVEL_USER_AGENT || DEFAULT_USER_AGENT,
    timeoutMs: num(env.TRAVEL_HTTP_TIMEOUT_MS, 15_000),
    deadlineMs: Math.min(
      num(env.TRAVEL_UPSTREAM_DEADLINE_MS, TRAVEL_UPSTREAM_DEADLINE_MS),
      MAX_TRAVEL_UPSTREAM_DEADLINE_MS,
    ),
    breakerOpenMs: num(env.TRAVEL_BREAKER_OPEN_MS, 30_000),
    retries: num(env.TRAVEL_HTTP_RETRIES, 2),
    backoffMs: num(env.TRAVEL_HTTP_BACKOFF_MS, 500),
    maxBackoffMs: 8_000,
    nominatimIntervalMs: num(env.TRAVEL_NOMINATIM_INTERVAL_MS, 1_000),
    overpassConcurrency: Math.max(1, Math.min(2, num(env.TRAVEL_OVERPASS_CONCURRENCY, 2))),
    cacheDir: cache === "off" ? null : cache ? cache : join(root ?? findProjectRoot(), ".cache", "travel"),
  };
}

export function dataConfigFromEnv(env: NodeJS.ProcessEnv = process.env, root?: string): ServerDataConfig {
  return { dataDir: env.TRAVEL_DATA_DIR || join(root ?? findProjectRoot(), "data", "travel") };
}
