// The kit's German catalog for the classic Notebook 6 (scripts/apps/workshop/i18n/, notebook-ui.ts): every
// message the installed Notebook uses has a German text, and a real Notebook server with the kit's extension
// answers a German browser in German and an English (or French) one as before.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { findProjectRoot } from "../../lib/config.js";
import { compileGermanCatalog, germanNotebookSetup, germanSourceDir } from "../../scripts/apps/workshop/notebook-ui.js";
import { englishWordsIn } from "../../scripts/dev/german-ui-check.js";
import { spawnNotebookServer } from "../../scripts/dev/notebook-server.js";

const root = findProjectRoot();
const poDir = join(germanSourceDir(root), "de", "LC_MESSAGES");
const catalog = compileGermanCatalog(["nbjs.po", "nbui.po"].map((f) => join(poDir, f)));
const table = catalog.jed.locale_data.nbjs as Record<string, string[]>;

/** Where Debian's (or pip's) Notebook 6 lives, if it is installed. */
function notebookPackage(): string | undefined {
  const r = spawnSync("/usr/bin/python3", ["-c", "import notebook, os; print(os.path.dirname(notebook.__file__))"], {
    encoding: "utf8",
  });
  const dir = r.status === 0 ? r.stdout.trim() : "";
  return dir && existsSync(join(dir, "templates", "tree.html")) ? dir : undefined;
}
const notebookDir = notebookPackage();

/** The message ids Notebook's own sources use: `{% trans %}` in its templates, `i18n.msg._(…)` in its JavaScript. */
function messageIds(dir: string): Set<string> {
  const ids = new Set<string>();
  for (const file of readdirSync(join(dir, "templates")).filter((f) => f.endsWith(".html"))) {
    const html = readFileSync(join(dir, "templates", file), "utf8");
    for (const m of html.matchAll(/{%-?\s*trans\s*-?%}([\s\S]*?){%-?\s*endtrans\s*-?%}/g))
      ids.add(m[1]!.replace(/{{\s*(\w+)\s*}}/g, "%($1)s"));
  }
  const literal = String.raw`(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')`;
  const call = new RegExp(String.raw`i18n\.msg\.(?:_|ngettext)\(\s*(${literal}(?:\s*\+\s*${literal})*)`, "g");
  const text = (joined: string) =>
    [...joined.matchAll(new RegExp(literal, "g"))]
      .map(
        ([s]) =>
          JSON.parse(s.startsWith("'") ? `"${s.slice(1, -1).replace(/\\'/g, "'").replace(/"/g, '\\"')}"` : s) as string,
      )
      .join("");
  const walk = (d: string): string[] =>
    readdirSync(d).flatMap((f) =>
      statSync(join(d, f)).isDirectory() ? (f === "components" ? [] : walk(join(d, f))) : [join(d, f)],
    );
  for (const file of walk(join(dir, "static")).filter((f) => f.endsWith(".js") && !f.endsWith(".min.js"))) {
    for (const m of readFileSync(file, "utf8").matchAll(call)) ids.add(text(m[1]!));
  }
  return ids;
}

test("the catalog translates every message of its .po files; the words the issue names are German", () => {
  assert.equal(catalog.translated, catalog.messages, "every message has a German text");
  assert.ok(catalog.messages >= 650, `${catalog.messages} messages`);
  const de = (id: string) => table[id]?.[0];
  for (const [en, german] of [
    ["File", "Datei"],
    ["Edit", "Bearbeiten"],
    ["View", "Ansicht"],
    ["Insert", "Einfügen"],
    ["Cell", "Zelle"],
    ["Help", "Hilfe"],
    ["Upload", "Hochladen"],
    ["New", "Neu"],
    ["Logout", "Abmelden"],
    ["Running", "Laufend"],
    ["Not Trusted", "Nicht vertrauenswürdig"],
    ["Control Panel", "Übersicht"],
  ]) {
    assert.equal(de(en!), german, en);
  }
  assert.equal(de("Kernel"), "Kernel", "technical words German users keep stay");
  assert.equal(de("Markdown"), "Markdown");
  assert.deepEqual(table["%d match"], ["%d Treffer", "%d Treffer"], "plural forms");
});

test("the language check finds whole English words only", () => {
  assert.deepEqual(englishWordsIn("Datei Bearbeiten Neuer Ordner Newer Filesystem", ["File", "New", "Edit"]), []);
  assert.deepEqual(
    englishWordsIn("Files Running Upload New ▾ Logout", ["Files", "Running", "Upload", "New", "Logout", "Quit"]),
    ["Files", "Running", "Upload", "New", "Logout"],
  );
  assert.deepEqual(englishWordsIn("Kernel bereit Not Trusted", ["Not Trusted", "Trusted"]), ["Not Trusted", "Trusted"]);
});

test(
  "every message the installed Notebook 6 uses has a German text",
  { skip: notebookDir ? undefined : "no classic Notebook 6 installed" },
  () => {
    const ids = messageIds(notebookDir!);
    assert.ok(ids.size > 600, `${ids.size} message ids found in Notebook's sources`);
    const untranslated = [...ids].filter((id) => !table[id]?.[0]);
    assert.deepEqual(untranslated, []);
  },
);

test(
  "a Notebook server with the kit's extension: German for de-DE, English for en-US, French stays French",
  { skip: notebookDir ? undefined : "no classic Notebook 6 installed" },
  async () => {
    const german = await germanNotebookSetup(root, {});
    assert.ok(german.args.some((a) => a.includes("kurs_jupyter_de")));
    const server = await spawnNotebookServer(
      join(root, "notebooks"),
      { ...process.env, ...german.env },
      { extraArgs: german.args },
    );
    try {
      await server.ready(60_000);
      const page = async (path: string, language: string) => {
        const res = await fetch(`${server.base}${path}?token=${server.token}`, {
          headers: { "accept-language": language },
        });
        assert.equal(res.status, 200);
        return res.text();
      };
      const visible = (html: string) =>
        html
          .replace(/<script[\s\S]*?<\/script>/g, "")
          .replace(/<[^>]+>/g, " ")
          .replace(/\s+/g, " ");
      const treeDe = visible(await page("/tree", "de-DE,de;q=0.9,en;q=0.8"));
      for (const word of ["Hochladen", "Laufend", "Abmelden", "Zuletzt geändert", "Wähle Einträge aus"])
        assert.ok(treeDe.includes(word), word);
      assert.doesNotMatch(treeDe, /Upload|Last Modified|Select items/);
      const treeEn = visible(await page("/tree", "en-US,en;q=0.9"));
      for (const word of ["Upload", "Running", "Logout", "Last Modified"]) assert.ok(treeEn.includes(word), word);
      assert.doesNotMatch(treeEn, /Hochladen|Abmelden/);
      // English first, German second: English (as Notebook ranks its own catalogs).
      assert.match(visible(await page("/tree", "en-US,en;q=0.9,de;q=0.8")), /Upload/);
      const notebookDe = await page(`/notebooks/00-start.ipynb`, "de");
      for (const word of [">Datei<", ">Bearbeiten<", ">Ansicht<", ">Einfügen<", ">Zelle<", ">Hilfe<"])
        assert.ok(notebookDe.includes(word), word);
      assert.match(
        notebookDe,
        /"Not Trusted": \["Nicht vertrauensw/,
        "the browser side gets the German table with the page",
      );
      const french = await page("/tree", "fr-FR");
      assert.match(french, /"Cancel": \["Annuler"\]/, "the system's French catalog still answers");
      assert.doesNotMatch(french, /Nicht vertrauensw/);
    } finally {
      await server.stop();
    }
  },
);
