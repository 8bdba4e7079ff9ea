import type { ApiRequest, ApiResponse } from './api-types';

/** The web console's files by the path they are served at: /, /console/app.js, /console/style.css. */
export type ConsoleAssets = ReadonlyMap<string, { readonly contentType: string; readonly body: string }>;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'style.css': 'text/css; charset=utf-8',
};

/** The console's files as built into one folder (bin/build-console.mjs), read by `read`. */
export function consoleAssets(read: (file: string) => string): ConsoleAssets {
  return new Map(
    Object.entries(CONTENT_TYPES).map(([file, contentType]) => [file === 'index.html' ? '/' : `/console/${file}`, { contentType, body: read(file) }]),
  );
}

/** A GET of one of the console's files, or undefined when the request is for something else. */
export function consoleResponse(request: ApiRequest, assets: ConsoleAssets | undefined): ApiResponse | undefined {
  const asset = request.method.toUpperCase() === 'GET' ? assets?.get(request.path) : undefined;
  if (!asset) return undefined;
  // The page reads only this API, and runs no script but its own.
  const policy = "default-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self' data:";
  return { statusCode: 200, headers: { 'content-type': asset.contentType, 'content-security-policy': policy, 'cache-control': 'no-cache' }, body: asset.body };
}
