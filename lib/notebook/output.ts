// The bridge to the notebook front end: inside a tslab kernel, rich outputs (HTML, SVG) go through
// tslab's display API; everywhere else (CLI, tests, logs) the text form is printed.
// tslab is required lazily from the project folder, so scripts never load it.
import { createRequire } from "node:module";
import { join } from "node:path";
import { findProjectRoot } from "../config.js";
import { mathSafeHtml } from "./math-safe.js";
import { installOutputWrap, outputWrapOn } from "./wrap.js";

/** One thing to show, in the forms a front end may pick from. `text` is what terminals get. */
export interface RichOutput {
  text: string;
  html?: string;
  svg?: string;
}

interface TslabDisplay {
  html(s: string): void;
  svg(s: string): void;
  text(s: string): void;
}

interface Tslab {
  display: TslabDisplay;
  newDisplay(): TslabDisplay;
}

let tslab: Tslab | undefined;

/** True inside a tslab kernel (tslab puts `__tslab__` on the global object before running cells). */
export function inNotebook(): boolean {
  return typeof (globalThis as { __tslab__?: unknown }).__tslab__ === "object";
}

function fromProject(id: string): unknown {
  return createRequire(join(findProjectRoot(), "package.json"))(id);
}

function tslabModule(): Tslab {
  tslab ??= fromProject("tslab") as Tslab;
  return tslab;
}

/** Identity of the cell being run (tslab swaps its display writer per execute request); else undefined. */
export function currentCell(): unknown {
  if (!inNotebook()) return undefined;
  try {
    return (fromProject("tslab/dist/jupyter") as { lastWriteDisplayData?: unknown }).lastWriteDisplayData ?? undefined;
  } catch {
    return undefined;
  }
}

// Every HTML output goes out MathJax-safe: the kit's texts are full of "$ref" (see math-safe.ts).
function emit(target: TslabDisplay, output: RichOutput): void {
  if (output.svg !== undefined) target.svg(output.svg);
  else if (output.html !== undefined) target.html(mathSafeHtml(output.html));
  else target.text(output.text);
}

/** Shows `output` in the cell (SVG, else HTML, else text); outside a notebook prints `output.text`. */
export function show(output: RichOutput, print: (line: string) => void = (line) => console.log(line)): void {
  if (!inNotebook()) {
    print(output.text);
    return;
  }
  emit(tslabModule().display, output);
}

/** One output that later calls replace in place (tslab's display id); outside a notebook: `null`. */
export interface LiveOutput {
  update(output: RichOutput): void;
}

export function liveOutput(): LiveOutput | null {
  if (!inNotebook()) return null;
  const target = tslabModule().newDisplay();
  return { update: (output) => emit(target, output) };
}

// Text lines fit the cell, broken at word boundaries (wrap.ts); installed when lib loads in a kernel.
if (inNotebook() && outputWrapOn()) installOutputWrap();
