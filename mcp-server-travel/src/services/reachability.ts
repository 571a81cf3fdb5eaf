// A quick, bounded check whether the upstream hosts answer at all (any HTTP status counts as reachable).

export interface ReachabilityResult {
  reachable: boolean;
  /** One German line per host that did not answer. */
  problems: string[];
}

export async function checkReachable(
  urls: string[],
  timeoutMs: number,
  userAgent: string,
): Promise<ReachabilityResult> {
  const problems: string[] = [];
  await Promise.all(
    urls.map(async (url) => {
      try {
        const response = await fetch(url, {
          method: "HEAD",
          signal: AbortSignal.timeout(timeoutMs),
          headers: { "User-Agent": userAgent },
        });
        await response.body?.cancel();
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause?.code;
        const name = (error as { name?: string }).name;
        problems.push(
          `${url}: ${name === "TimeoutError" ? `keine Antwort in ${timeoutMs} ms` : (cause ?? String(error))}`,
        );
      }
    }),
  );
  return { reachable: problems.length === 0, problems };
}
