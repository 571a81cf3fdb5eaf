// Does Jupyter speak the workshop's language? The English UI words a participant saw before the kit had a
// German catalog (issue 47), per screen, and a look at what a page shows (visible text only: a closed menu's
// items do not count). Used by the browser stage (`npm run workshop`, scripts/dev/browser-check.ts) and by the
// hub's test (test/scripts/hub-german.test.ts). A German browser must see none of them; an English one must
// still see its English words.
import type { Page } from "playwright-core";

export type Screen = "fileList" | "notebook" | "hubHome" | "waiting";

/** Whole words or phrases, case-sensitive. */
export const ENGLISH_UI: Record<Screen, string[]> = {
  fileList: [
    "Select items to perform actions on them",
    "Files",
    "Running",
    "Upload",
    "New",
    "Last Modified",
    "File size",
    "Logout",
    "Control Panel",
    "Quit",
  ],
  notebook: [
    "File",
    "Edit",
    "View",
    "Insert",
    "Cell",
    "Help",
    "Not Trusted",
    "Trusted",
    "Logout",
    "Control Panel",
    "Last Checkpoint",
    "Run",
  ],
  hubHome: ["Home", "Token", "My Server", "Stop My Server", "Start My Server", "Logout"],
  waiting: ["Your server is starting up", "Spawning server", "Server requested", "Event log", "Logout"],
};

/** The words of `words` that `text` contains as whole words. */
export function englishWordsIn(text: string, words: string[]): string[] {
  return words.filter((w) =>
    new RegExp(`(?<![\\p{L}\\p{N}])${w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}\\p{N}])`, "u").test(text),
  );
}

/** What the page shows inside `selector` (innerText: rendered, visible text). */
export async function visibleText(page: Page, selector = "body"): Promise<string> {
  return (await page.locator(selector).first().innerText()).replace(/\s+/g, " ");
}

/** The part of each screen that is Jupyter's own UI (a notebook's cells are the kit's German text). */
export const UI_PART: Record<Screen, string> = {
  fileList: "body",
  notebook: "#header",
  hubHome: "body",
  waiting: "body",
};

/**
 * Problems on one screen: for a German browser every English word found, for an English one every word of
 * `expectEnglish` missing (so a check that passes because nothing rendered cannot pass).
 */
export async function languageProblems(
  page: Page,
  screen: Screen,
  locale: "de" | "en",
  expectEnglish: string[] = [],
): Promise<string[]> {
  const text = await visibleText(page, UI_PART[screen]);
  if (locale === "de") {
    const found = englishWordsIn(text, ENGLISH_UI[screen]);
    return found.length ? [`${screen} (de-DE) shows English: ${found.map((w) => `"${w}"`).join(", ")}`] : [];
  }
  const missing = expectEnglish.filter((w) => englishWordsIn(text, [w]).length === 0);
  return missing.length
    ? [`${screen} (en-US) lacks English: ${missing.map((w) => `"${w}"`).join(", ")} — text: ${text.slice(0, 200)}`]
    : [];
}
