// Requires a CommonJS package on first use, resolved from lib/ — the same under tsx's ESM loader and in
// the notebooks' CommonJS build (lib code has no import.meta there). Used to keep heavy packages (ajv)
// out of `import "./lib/index"`; see lib/schema/validate.ts.
module.exports = (id) => require(id);
