// GET /dashboard: the web dashboard, a single-page app built by `npm run build` (vite, from
// dashboard/) into dist/dashboard and served from memory by every node. It talks to the hub only
// through the public API with the key the user signs in with, so these routes need no key.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { textReply, type Reply } from '../http/index.js';
import { builtInDocs, type RouteRegistrar } from '../routes/index.js';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

const SECURITY: Readonly<Record<string, string>> = {
  // Everything comes from this origin; the key never leaves it (no third-party script can run).
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; " +
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

export interface DashboardFile {
  readonly body: Uint8Array;
  readonly type: string;
}

/** The project's dist/dashboard, from this file's place in the source tree or in dist/. */
export function defaultDashboardDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return join(dir, 'dist', 'dashboard');
}

/** Every file of the built app by its URL path under /dashboard/ (e.g. "assets/index-x.js"). */
export function loadDashboard(dir: string): Map<string, DashboardFile> {
  const files = new Map<string, DashboardFile>();
  if (!existsSync(dir)) return files;
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else {
        const type = TYPES[extname(name)] ?? 'application/octet-stream';
        files.set(relative(dir, full).split(sep).join('/'), { body: readFileSync(full), type });
      }
    }
  };
  walk(dir);
  return files;
}

export interface DashboardRoutesDeps {
  /** Where the built app is; defaultDashboardDir() when absent. */
  readonly dir?: string;
}

export function dashboardRoutes(d: DashboardRoutesDeps = {}): RouteRegistrar {
  const files = loadDashboard(d.dir ?? defaultDashboardDir());
  const serve = (path: string): Reply => {
    const index = files.get('index.html');
    if (index === undefined) {
      return textReply(
        404,
        'The dashboard is not built on this node: run `npm run build`.\n',
        'text/plain; charset=utf-8'
      );
    }
    const name = path.replace(/^\/dashboard\/?/, '');
    const file = files.get(name);
    // Built assets carry a content hash in their names; index.html must be asked for every time.
    if (file !== undefined && name.startsWith('assets/')) {
      return {
        status: 200,
        headers: {
          'content-type': file.type,
          'cache-control': 'public, max-age=31536000, immutable',
          ...SECURITY,
        },
        body: file.body,
      };
    }
    const page = file ?? index;
    return {
      status: file === undefined && name !== '' && name.includes('.') ? 404 : 200,
      headers: { 'content-type': page.type, 'cache-control': 'no-cache', ...SECURITY },
      body: page.body,
    };
  };
  return (table) => {
    const doc = builtInDocs.dashboard;
    table.add({ method: 'GET', pattern: '/dashboard', doc, handler: (req) => serve(req.path) });
    table.add({ method: 'GET', pattern: '/dashboard/*', doc, handler: (req) => serve(req.path) });
  };
}
