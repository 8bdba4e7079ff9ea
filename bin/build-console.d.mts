/** Writes the console's three files (app.js, index.html, style.css) to `outdir`. */
export function buildConsole(outdir: string): Promise<void>;
