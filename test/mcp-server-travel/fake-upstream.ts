// A scripted fake of the upstream HTTP services (Nominatim, Open-Meteo, Overpass) on 127.0.0.1.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: string;
  headers: IncomingMessage["headers"];
}

export interface FakeReply {
  status?: number;
  json?: unknown;
  /** Raw body (wins over json). */
  body?: string;
  headers?: Record<string, string>;
  /** Wait this long before answering (to provoke client timeouts). */
  delayMs?: number;
}

export type FakeHandler = (req: FakeRequest) => FakeReply | Promise<FakeReply>;

export interface FakeUpstream {
  url: string;
  requests: FakeRequest[];
  setHandler(handler: FakeHandler): void;
  close(): Promise<void>;
}

export async function startFakeUpstream(handler: FakeHandler): Promise<FakeUpstream> {
  let current = handler;
  const requests: FakeRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const url = new URL(req.url ?? "/", "http://fake");
      const fake: FakeRequest = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        body: Buffer.concat(chunks).toString("utf8"),
        headers: req.headers,
      };
      requests.push(fake);
      let reply: FakeReply;
      try {
        reply = await current(fake);
      } catch (error) {
        reply = { status: 599, body: String(error) };
      }
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status ?? 200, { "Content-Type": "application/json", ...reply.headers });
        res.end(reply.body ?? (reply.json === undefined ? "" : JSON.stringify(reply.json)));
      };
      if (reply.delayMs) {
        const t = setTimeout(() => {
          timers.delete(t);
          send();
        }, reply.delayMs);
        timers.add(t);
      } else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setHandler: (h) => {
      current = h;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** An Open-Meteo style daily response for the dates start..end with values from `f(i)`. */
export function openMeteoDaily(
  dates: string[],
  f: (
    i: number,
    date: string,
  ) => { tmin: number | null; tmax: number | null; precip: number | null; wind: number | null; code: number | null },
): unknown {
  const rows = dates.map((d, i) => f(i, d));
  return {
    latitude: 41.39,
    longitude: 2.17,
    daily_units: { time: "iso8601" },
    daily: {
      time: dates,
      temperature_2m_min: rows.map((r) => r.tmin),
      temperature_2m_max: rows.map((r) => r.tmax),
      precipitation_sum: rows.map((r) => r.precip),
      wind_speed_10m_max: rows.map((r) => r.wind),
      weather_code: rows.map((r) => r.code),
    },
  };
}

/** Inclusive list of ISO dates. */
export function isoDates(start: string, end: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${start}T00:00:00Z`); t <= Date.parse(`${end}T00:00:00Z`); t += 86_400_000)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}
