// The system's Chromium for tests that look at a page (playwright-core drives it; it downloads no browser).
import type { Browser } from "playwright-core";
import { existsSync } from "node:fs";

/** The Chromium executable: CHROMIUM_PATH, else Debian's or Ubuntu's; undefined where none is installed. */
export const CHROMIUM = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find(
  (p): p is string => Boolean(p) && existsSync(p as string),
);

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import("playwright-core");
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
}

/** Chromium where it is installed; undefined elsewhere (the page tests then skip). */
export function chromiumIfInstalled(): Promise<Browser | undefined> {
  return CHROMIUM ? launchChromium() : Promise.resolve(undefined);
}
