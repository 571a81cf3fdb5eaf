// DOT → SVG in Node by Graphviz compiled to WebAssembly (@viz-js/viz): no browser, no Python, no network.

type Viz = { renderString(dot: string, options: { format: "svg"; engine?: string }): string };
let viz: Promise<Viz> | undefined;

async function graphviz(): Promise<Viz> {
  // Loaded on first use: the WebAssembly module is ~1 MB and not needed to import lib.
  viz ??= import("@viz-js/viz").then((m) => m.instance() as Promise<Viz>);
  return viz;
}

/** SVG of a DOT graph, sized to the container (never wider than the cell). */
export async function dotToSvg(dot: string): Promise<string> {
  const svg = (await graphviz()).renderString(dot, { format: "svg", engine: "dot" });
  // Drop the XML prolog and doctype (front ends embed the element), let it shrink to the cell width.
  return svg
    .slice(svg.indexOf("<svg"))
    .replace(
      /<svg width="(\d+(?:\.\d+)?)pt" height="(\d+(?:\.\d+)?)pt"/,
      (_m, w: string, h: string) =>
        `<svg class="kit-diagram" width="${w}pt" height="${h}pt" style="max-width:100%;height:auto"`,
    );
}
