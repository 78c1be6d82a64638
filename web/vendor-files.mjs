// The npm files the page loads, by the name it asks for under vendor/: the dev server serves them from
// node_modules and the build copies them into dist/vendor/, so the page's import paths never change.
export const VENDOR_FILES = Object.freeze({
  'uPlot.esm.js': 'node_modules/uplot/dist/uPlot.esm.js',
  'uPlot.min.css': 'node_modules/uplot/dist/uPlot.min.css',
});
