// Loads an ESM-only package (e.g. node-llama-cpp) from code that tslab compiles to CommonJS.
// tslab rewrites `import()` into `require()`, which fails for ESM graphs with top-level await;
// a real dynamic import inside a .cjs file is left alone. See docs/notebook-authoring.md.
module.exports = (specifier) => import(specifier);
