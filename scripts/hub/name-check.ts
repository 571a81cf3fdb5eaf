// The board's name rules for the hub's login, in one place: JupyterHub's authenticator (Python) asks this
// small loopback endpoint of `npm run hub` instead of copying the rules (boardNameProblem, cleanBoardName
// and participantKey), so a name the hub accepts is one the board shows under the same key.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { boardNameProblem, cleanBoardName } from "../../lib/exercises/board-record.js";
import { participantKey } from "../board/state.js";

/** What the endpoint answers for one name. */
export type NameCheck = { name: string; key: string } | { problem: string };

export function checkName(raw: string): NameCheck {
  const problem = boardNameProblem(raw);
  if (problem !== undefined) return { problem };
  const name = cleanBoardName(raw)!;
  return { name, key: participantKey(name) };
}

export interface NameCheckServer {
  url: string;
  /** Sent in `x-kurs-token`; only the hub (settings file, mode 600) knows it. */
  token: string;
  close(): Promise<void>;
}

export function startNameCheck(): Promise<NameCheckServer> {
  const token = randomBytes(16).toString("hex");
  const server = createServer((req, res) => {
    const given = Buffer.from(String(req.headers["x-kurs-token"] ?? ""));
    if (req.method !== "POST" || given.length !== token.length || !timingSafeEqual(given, Buffer.from(token))) {
      res.writeHead(403).end();
      return;
    }
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
      if (body.length > 4096) req.destroy();
    });
    req.on("end", () => {
      let raw = "";
      try {
        raw = String((JSON.parse(body) as { name?: unknown }).name ?? "");
      } catch {
        // an empty name is refused below
      }
      res.writeHead(200, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify(checkName(raw)));
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}/name`, token, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}
