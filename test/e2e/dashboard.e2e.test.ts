// The web dashboard in headless Chromium (Debian's chromium, driven by playwright-core) against a
// real hub: sign-in (keyboard only, the key kept out of the URL), an agent created with its key
// shown once, visibility changed and seen in the public directory, a webhook added and a test
// delivery received, a task watched arriving on the live feed and canceled, a key rotated and the
// old one refused. Every page is photographed at desktop and phone widths into
// test/.artifacts/dashboard/ for review.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNatsServer, type NatsServerHandle } from '../support/nats-server.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { rpc, text } from '../support/rpc.js';
import { testHubConfig, until } from '../support/test-hub.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { silentLogger } from '../../runtime/log/index.js';
import { startHub, type Hub } from '../../infra/bin/start-hub.js';
import { createAgent, createTenant, issueAdminKey } from '../../infra/db/index.js';

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = join(import.meta.dirname, '..', '.artifacts', 'dashboard');
const ADMIN_TOKEN = 'operator-token-for-the-dashboard-test';
const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };

let nats: NatsServerHandle;
let db: TestDatabase;
let hub: Hub;
let receiver: WebhookReceiver;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const keys = { admin: '', sender: '', created: '' };
let senderId = '';
let createdId = '';

async function shoot(name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}-desktop.png`), fullPage: true });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: join(SHOTS, `${name}-phone.png`), fullPage: true });
  await page.setViewportSize(DESKTOP);
}

async function open(fragment: string, heading: string): Promise<void> {
  await page.goto(`${hub.url}/dashboard/#/${fragment}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

/** The directory's search form (an official agent is also named "Search"). */
async function searchDirectory(words: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Search the directory' });
  await form.getByRole('textbox', { name: 'Search', exact: true }).fill(words);
  await form.getByRole('button', { name: 'Search' }).click();
}

async function api(path: string, key: string, init: RequestInit = {}) {
  const res = await fetch(`${hub.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  // The hub serves what `npm run build` puts in dist/dashboard: build it as CI's clean clone lacks it.
  await build({
    configFile: join(import.meta.dirname, '..', '..', 'dashboard', 'vite.config.mjs'),
  });
  mkdirSync(SHOTS, { recursive: true });
  nats = await startNatsServer();
  db = await createTestDatabase();
  hub = await startHub(testHubConfig(nats, db, { PARTITIONS: '4', ADMIN_TOKEN }), silentLogger);
  receiver = await startWebhookReceiver();
  const acme = await createTenant(hub.sql, { name: 'Acme' });
  keys.admin = (await issueAdminKey(hub.sql, acme.id)).key;
  const sender = await createAgent(hub.sql, { tenantId: acme.id, name: 'Dispatcher' });
  keys.sender = sender.apiKey;
  senderId = sender.agent.id;
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  context = await browser.newContext({ viewport: DESKTOP });
  page = await context.newPage();
  // Confirmations (delete, rotate, cancel) are accepted as a person would.
  page.on('dialog', (d) => void d.accept());
});

afterAll(async () => {
  await browser?.close();
  await hub?.stop();
  await receiver?.close();
  await nats?.close();
  await db?.drop();
});

describe('the dashboard', () => {
  it('is served at /dashboard with a strict content security policy', async () => {
    const res = await fetch(`${hub.url}/dashboard`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('content-security-policy')).toContain("connect-src 'self'");
    expect(await res.text()).toContain('/dashboard/assets/');
  });

  it('refuses a wrong key in words, then signs in with the keyboard alone', async () => {
    await page.goto(`${hub.url}/dashboard/`);
    await page.getByLabel('Tenant admin key').fill('burrow_wrong_key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain('refused the admin key');
    await shoot('sign-in');

    await page.getByLabel('Tenant admin key').fill('');
    await page.getByLabel('Tenant admin key').focus();
    await page.keyboard.type(keys.admin);
    await page.keyboard.press('Tab');
    await page.keyboard.type(ADMIN_TOKEN);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Agents' }).waitFor();
    // The key is in this tab's session storage only: never in the address or persistent storage.
    expect(page.url()).not.toContain(keys.admin);
    // A string: this code runs in the page, whose DOM types the hub's tsconfig does not load.
    const stored = await page.evaluate(
      `({ session: sessionStorage.getItem('burrow.adminKey'), local: localStorage.length,
          cookie: document.cookie })`
    );
    expect(stored).toEqual({ session: keys.admin, local: 0, cookie: '' });
    await expect.poll(() => page.locator(`[data-agent="${senderId}"]`).count()).toBe(1);
  });

  it('creates an agent and shows its key once', async () => {
    await page.getByText('Create an agent').click();
    await page.getByLabel('Name').fill('Weather Watcher');
    await page.getByLabel('Description').first().fill('Forecasts for the dashboard test');
    await page.getByLabel('Category').first().fill('weather');
    await page.getByRole('button', { name: 'Create agent' }).click();
    const secret = page.getByTestId('secret-API key');
    await secret.waitFor();
    keys.created = await secret.inputValue();
    expect(keys.created.length).toBeGreaterThan(20);
    const me = await rpc<{ agentId: string }>(hub.url, keys.created, 'x-burrow/agent.me', {});
    expect(me.result?.agentId).toBeTruthy();
    createdId = me.result?.agentId ?? '';
    await page.locator(`[data-agent="${createdId}"]`).waitFor();
    await shoot('agents-created');
    // Once: after "I have copied it", and after a reload, the key is nowhere on the page.
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.reload();
    await page.locator(`[data-agent="${createdId}"]`).waitFor();
    expect(await page.content()).not.toContain(keys.created);
  });

  it('makes the agent public and finds it in the directory', async () => {
    await open('directory', 'Directory');
    await searchDirectory('Weather Watcher');
    await expect.poll(() => page.getByText('No agent matches.').count()).toBe(1);

    await open('agents', 'Agents');
    await page.locator(`[data-agent="${createdId}"]`).getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Edit Weather Watcher' });
    await form.getByLabel('Visibility').selectOption('public');
    await form.getByLabel('Tags (comma-separated)').fill('forecast, rain');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => page.locator(`[data-agent="${createdId}"] td`).nth(3).textContent())
      .toBe('public');

    await open('directory', 'Directory');
    await searchDirectory('Weather Watcher');
    await page.locator(`[data-directory-agent="${createdId}"]`).waitFor();
    await page.getByRole('button', { name: 'Weather Watcher' }).click();
    await shoot('directory');
  });

  it('adds a webhook and sees a test delivery arrive', async () => {
    await open('webhooks', 'Webhooks');
    await page.getByLabel('Receiver URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const secret = page.getByTestId('secret-Signing secret');
    await secret.waitFor();
    receiver.secret = await secret.inputValue();
    await page.getByRole('button', { name: 'Send a test' }).click();
    await expect
      .poll(() => page.getByTestId('webhook-result').textContent())
      .toContain('Test delivered');
    const test = receiver.received.find((r) => r.json.event === 'webhook.test');
    expect(test?.signatureValid).toBe(true);
    await page.getByRole('button', { name: 'Recent deliveries' }).click();
    await page.getByText('Recent deliveries of events').waitFor();
    await shoot('webhooks');
  });

  it('shows a new task live, its detail, and cancels it', async () => {
    await open('tasks', 'Tasks');
    await page.locator('[data-feed="live"]').waitFor();
    // The new agent is offline (WebSocket, not connected): the message waits, cancelable.
    const sent = await rpc<{ id: string }>(hub.url, keys.sender, 'SendMessage', {
      message: text('Will it rain tomorrow?'),
      configuration: { agentId: createdId },
    });
    const taskId = sent.result?.id ?? '';
    expect(taskId).not.toBe('');
    const row = page.locator(`[data-task="${taskId}"]`);
    await row.waitFor({ timeout: 15_000 });
    expect(await row.textContent()).toContain('submitted');
    await shoot('tasks');

    await row.getByRole('link').click();
    await page.getByText('Will it rain tomorrow?').waitFor();
    await page.getByRole('button', { name: 'Cancel task' }).click();
    await expect.poll(() => page.locator('.facts .pill').textContent()).toBe('canceled');
    await shoot('task-detail');
    const after = await api(`/api/tasks/${taskId}`, keys.admin);
    expect((after.body.task as { status: { state: string } }).status.state).toBe('canceled');
  });

  it('rotates a key: the new key is shown once and the old one is refused', async () => {
    await open('agents', 'Agents');
    const before = await api(`/api/agents/${createdId}`, keys.created);
    expect(before.status).toBe(200);
    await page
      .locator(`[data-agent="${createdId}"]`)
      .getByRole('button', { name: 'Rotate key' })
      .click();
    const secret = page.getByTestId('secret-API key');
    await secret.waitFor();
    const fresh = await secret.inputValue();
    expect(fresh).not.toBe(keys.created);
    await until(async () => (await api(`/api/agents/${createdId}`, keys.created)).status === 401);
    expect((await api(`/api/agents/${createdId}`, fresh)).status).toBe(200);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await shoot('agents');
  });

  it('draws usage charts, alerts and credits', async () => {
    await open('usage', 'Usage and messages');
    await page.getByRole('img', { name: 'Messages per day' }).waitFor();
    await expect.poll(() => page.locator('.cards dd').first().textContent()).toBe('1');
    await shoot('usage');

    await open('credits', 'Alerts and credits');
    await page.getByLabel('Buy credits (minor units, e.g. cents)').fill('2500');
    await page.getByRole('button', { name: 'Buy' }).click();
    await expect.poll(() => page.getByTestId('balance').textContent()).toBe('25.00 USD');
    await page.getByLabel('Low-balance threshold (minor units; empty clears it)').fill('1000');
    await page.getByRole('button', { name: 'Set threshold' }).click();
    await expect.poll(() => page.locator('.cards dd').nth(1).textContent()).toBe('10.00 USD');
    await shoot('credits');
  });

  it('shows the cluster and draws a state machine for the operator', async () => {
    await open('cluster', 'Cluster');
    await page.getByText('Answered by node').waitFor();
    await page.getByRole('img', { name: 'State machine task' }).waitFor();
    expect(await page.locator('.graph .state').count()).toBeGreaterThanOrEqual(7);
    expect(await page.locator('.partitions li').count()).toBe(4);
    await shoot('cluster');
  });

  it('signs out when the key stops working, saying why', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Tenant admin key').waitFor();
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
  });
});
