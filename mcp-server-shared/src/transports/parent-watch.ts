// Ends a server started as a child process when its parent is gone (shared by the travel and math servers).

/** Calls shutdown once the parent's pid disappears or (HTTP mode) our stdin pipe closes. */
export function watchParent(parentPid: number, stdinIsOurs: boolean, shutdown: (why: string) => void): void {
  const timer = setInterval(() => {
    try {
      process.kill(parentPid, 0);
    } catch {
      shutdown(`Elternprozess ${parentPid} beendet`);
    }
  }, 1000);
  timer.unref();
  if (stdinIsOurs && !process.stdin.isTTY) {
    process.stdin.on("end", () => shutdown("stdin geschlossen (Elternprozess beendet)"));
    process.stdin.on("error", () => shutdown("stdin-Fehler (Elternprozess beendet)"));
    process.stdin.resume();
  }
}
