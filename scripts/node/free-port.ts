// A TCP port that was free a moment ago: the caller's server binds it right after.
import { createServer } from "node:net";

/** Asks the OS for a free port on `host` (default 127.0.0.1) and releases it. */
export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
