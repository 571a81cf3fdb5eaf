// The slides stage's truth check of a rehearsal run: the outputs the old rehearsal printed (issue 35) are
// caught — a scripted tokens/s, an unmarked answer after "Zuerst das echte Modell", three seeds with one
// sentence, a Modell-Check the script failed and its table without a word why; issue 44: a class server
// claimed, a token count without ≈, BM25 "beating" the test embedder unsaid — and the marked outputs pass.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { NbCell, Notebook } from "../../scripts/apps/slides/deck.js";
import { rehearsalTruthProblems } from "../../scripts/apps/slides/rehearsal-truth.js";

const md = (text: string): NbCell => ({ cell_type: "markdown", source: text });
const code = (source: string, text: string): NbCell => ({
  cell_type: "code",
  source,
  outputs: [{ output_type: "stream", name: "stdout", text }],
});

const before: Notebook = {
  cells: [
    code(
      "console.log(formatMeter(r2.meter));",
      "Prompt: 11 neu berechnet / 219 aus dem KV-Cache · Antwort: 19 Tokens · 97458 Tokens/s · erste Antwort nach 0 ms\n",
    ),
    md("Parallel. Zuerst das **echte Modell**:"),
    code(
      "const laufZwei = await runAgent({ llm });",
      "Status: beantwortet · Antwort: Heute – Barcelona: Regen, 8 bis 16 °C\n",
    ),
    code(
      "for (const seed of [1, 2, 3]) {}",
      "Seed 1: Barcelona verbindet Gaudí mit dem Meer.\nSeed 2: Barcelona verbindet Gaudí mit dem Meer.\nSeed 3: Barcelona verbindet Gaudí mit dem Meer.\n",
    ),
    code(
      "const modellCheck = await runModelCheck({ llm });",
      "koordinaten-1, Lauf 1: nicht bestanden – Aufruf geocode fehlt.\nkein-werkzeug-1, Lauf 1: bestanden\n",
    ),
    {
      cell_type: "code",
      source: "tslab.display.html(evalTableHtml(modellCheck));",
      outputs: [
        { output_type: "display_data", data: { "text/html": "<table><tr><td>Gesamt</td><td>20 %</td></tr></table>" } },
      ],
    },
    code("console.log(renderPrompt)", "Klassen-Server: Die Chat-Vorlage wendet der Server an, wir sehen sie nicht.\n"),
    code("console.log(fenster)", "Das Kontextfenster fasst beim Server unbekannt viele Tokens.\n"),
    code('console.log("Tokens erzeugt:", meter.generatedTokens);', "Tokens erzeugt: 9\n"),
    code("const embedder = await createEmbedder();", "🧮 Embedding-Modell: /kit/models/tiny/tiny-bert\n"),
    code(
      "import { Bm25Index }",
      "Embeddings         │ BM25               │ Frage\n·3 ·57 ·7          │ ·47 ✓12 ·7         │ In welcher Farbe?\n",
    ),
  ],
};

const after: Notebook = {
  cells: [
    code(
      "console.log(formatMeter(r2.meter));",
      "Prompt: ≈11 neu berechnet / ≈219 aus dem KV-Cache · Antwort: ≈19 Tokens · 🎭 Tempo nicht gemessen\n",
    ),
    md("Parallel. Zuerst das **echte Modell**:"),
    code(
      "const laufZwei = await runAgent({ llm });",
      "Status: beantwortet · Antwort: 🎭 Heute – Barcelona: Regen, 8 bis 16 °C\n",
    ),
    md("Jetzt ein **vorgespielter Plan**:"),
    code("const gespielt = scriptedPlan(schritte, antwort);", "Vorgespielter Plan – Antwort: Heute – Barcelona\n"),
    code(
      "for (const seed of [1, 2, 3]) {}",
      "Seed 1: 🎭 Barcelona verbindet Gaudí mit dem Meer.\nSeed 2: 🎭 Zwischen Sagrada Família und Meer.\nSeed 3: 🎭 Eine Stadt am Meer.\n",
    ),
    code(
      "const modellCheck = await runModelCheck({ llm });",
      "koordinaten-1, Lauf 1: bestanden\nkein-werkzeug-1, Lauf 1: bestanden\n",
    ),
    {
      cell_type: "code",
      source: "tslab.display.html(evalTableHtml(modellCheck));",
      outputs: [
        {
          output_type: "display_data",
          data: { "text/html": "<p>🎭 Vorgespielt: …</p><table><tr><td>Gesamt</td><td>100 %</td></tr></table>" },
        },
      ],
    },
    code("console.log(renderPrompt)", "🎭 Probelauf ohne Modell: Die Chat-Vorlage zeigt erst das echte Modell.\n"),
    code("console.log(fenster)", "Das Kontextfenster fasst im Probelauf (ohne Modell) unbekannt viele Tokens.\n"),
    code('console.log("Tokens erzeugt:", meter.generatedTokens);', "Tokens erzeugt: ≈ 9\n"),
    code(
      "console.log(tokens.describe(auszuege))",
      "Die Auszüge allein: ≈ 275 Tokens (geschätzt) · Antwort: ≈19 Tokens\n",
    ),
    code("const embedder = await createEmbedder();", "🧮 Embedding-Modell: /kit/models/tiny/tiny-bert\n"),
    code(
      "import { Bm25Index }",
      "Embeddings         │ BM25               │ Frage\n·3 ·57 ·7          │ ·47 ✓12 ·7         │ In welcher Farbe?\n🎭 Probelauf mit dem Test-Embedder (ohne gelernte Bedeutung): …\n",
    ),
  ],
};

test("the old rehearsal outputs are caught, one problem each", () => {
  const problems = rehearsalTruthProblems(before);
  assert.equal(problems.length, 10, problems.join("\n"));
  assert.match(problems[0]!, /shows a speed nobody measured: .*97458 Tokens\/s/);
  assert.match(problems.splice(1, 1)[0]!, /estimated token count without ≈: 19 Tokens/);
  assert.match(problems[1]!, /cell "const laufZwei.*follows "…echte Modell…" but shows no 🎭/);
  assert.match(problems[2]!, /different seeds give the same scripted sentence/);
  assert.match(problems[3]!, /Modell-Check in rehearsal has runs the script did not cover/);
  assert.match(problems[4]!, /Modell-Check table in rehearsal does not say that a script ran it/);
  assert.match(problems[5]!, /claims a class server in rehearsal: Klassen-Server: Die Chat-Vorlage/);
  assert.match(problems[6]!, /claims a class server in rehearsal: Das Kontextfenster fasst beim Server unbekannt/);
  assert.match(problems[7]!, /estimated token count without ≈: Tokens erzeugt: 9/);
  assert.match(problems[8]!, /compares BM25 with the test embedder's search without saying so/);
});

test("marked answers, an unmeasured speed line, different seeds and a covered Modell-Check pass", () => {
  assert.deepEqual(rehearsalTruthProblems(after), []);
});
