// Works around an SDK bug (v1.x up to at least 1.32.2, modelcontextprotocol/typescript-sdk#2559, fix
// proposed in #2747): with `enableJsonResponse` the transport answers a POST by resolving the pending
// response, but never removes that POST's entry from its stream map. A session then keeps every answer it
// ever sent (the Response with its JSON body) until it is closed: measured ~15 KB per get_parks call and
// ~50 KB per tools/list, for the whole life of a classroom session. After each request the entries of
// answered POSTs are dropped here. An entry still waiting for an answer always has a request id pointing
// to it (both are set together, and removed together once all answers are in), so it is left alone.
// Once the SDK removes its entries itself this finds nothing to do; the test
// (test/mcp-server-travel/sessions-memory.test.ts) notices if the internals it reads change.
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

interface TransportInternals {
  _streamMapping?: Map<string, { resolveJson?: unknown }>;
  _requestToStreamMapping?: Map<unknown, string>;
}

function internals(transport: StreamableHTTPServerTransport): Required<TransportInternals> | undefined {
  const inner = (transport as unknown as { _webStandardTransport?: TransportInternals })._webStandardTransport;
  const streams = inner?._streamMapping;
  const pending = inner?._requestToStreamMapping;
  return streams instanceof Map && pending instanceof Map
    ? { _streamMapping: streams, _requestToStreamMapping: pending }
    : undefined;
}

/** Drops the stream entries of JSON-mode POSTs that have been answered. */
export function releaseAnsweredJsonStreams(transport: StreamableHTTPServerTransport): void {
  const inner = internals(transport);
  if (!inner || inner._streamMapping.size === 0) return;
  const waiting = new Set(inner._requestToStreamMapping.values());
  for (const [id, stream] of inner._streamMapping) {
    if (stream.resolveJson !== undefined && !waiting.has(id)) inner._streamMapping.delete(id);
  }
}

/** How many per-POST stream entries the transport holds (undefined if the SDK internals changed). For tests. */
export function heldStreamCount(transport: StreamableHTTPServerTransport): number | undefined {
  return internals(transport)?._streamMapping.size;
}

/** Whether the transport holds the session's standalone GET event stream (undefined if the SDK internals changed). For tests. */
export function holdsGetStream(transport: StreamableHTTPServerTransport): boolean | undefined {
  return internals(transport)?._streamMapping.has("_GET_stream");
}
