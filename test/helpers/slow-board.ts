// A stand-in for the class board's join endpoint that answers only once `together` joins are in flight (or
// after `fallbackMs`, below the hub's board timeout, so no login fails): it counts how many joins ran at
// once, which tells whether the hub checks logins one at a time.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface SlowBoard {
  url: string;
  maxInFlight: () => number;
  joined: string[];
  close: () => Promise<void>;
}

export async function slowBoard(together: number, fallbackMs = 1000): Promise<SlowBoard> {
  let inFlight = 0;
  let most = 0;
  const joined: string[] = [];
  const waiting: (() => void)[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      inFlight++;
      most = Math.max(most, inFlight);
      const answer = () => {
        inFlight--;
        joined.push((JSON.parse(body) as { name: string }).name);
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      };
      const timer = setTimeout(() => waiting.splice(waiting.indexOf(release), 1) && answer(), fallbackMs);
      const release = () => {
        clearTimeout(timer);
        answer();
      };
      waiting.push(release);
      if (waiting.length >= together) waiting.splice(0).forEach((r) => r());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    maxInFlight: () => most,
    joined,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
