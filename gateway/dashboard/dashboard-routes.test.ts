// /dashboard over a built app in a temporary folder: index.html for the app's paths, hashed assets
// cached for good, an unknown file 404, security headers on everything, and a clear answer when
// the dashboard was never built.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../test-gateway.js';
import { dashboardRoutes, loadDashboard } from './index.js';

describe('/dashboard', () => {
  let dir: string;
  let gw: TestGateway;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dashboard-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
    gw = await startTestGateway({ routes: [dashboardRoutes({ dir })] });
  });
  afterAll(() => {
    gw.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads every file of the build by its path', () => {
    expect([...loadDashboard(dir).keys()].sort()).toEqual(['assets/index-abc123.js', 'index.html']);
    expect(loadDashboard(join(dir, 'missing')).size).toBe(0);
  });

  it.each(['/dashboard', '/dashboard/', '/dashboard/agents'])(
    'answers %s with the app, not cached, under a strict policy',
    async (path) => {
      const res = await fetch(`${gw.base}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await res.text()).toContain('<title>app</title>');
    }
  );

  it('serves hashed assets for a year, and 404s a file it does not have', async () => {
    const js = await fetch(`${gw.base}/dashboard/assets/index-abc123.js`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toContain('immutable');
    expect(await js.text()).toBe('console.log(1)');
    expect((await fetch(`${gw.base}/dashboard/assets/gone-000.js`)).status).toBe(404);
  });

  it('says how to build it when the build is missing', async () => {
    const bare = await startTestGateway({ routes: [dashboardRoutes({ dir: join(dir, 'none') })] });
    try {
      const res = await fetch(`${bare.base}/dashboard`);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain('npm run build');
    } finally {
      bare.close();
    }
  });
});
