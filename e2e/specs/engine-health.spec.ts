/**
 * The page never offers an engine that health says is down, in Chromium on a server of its own
 * with vertex-tryon, replicate and cog pointed at their stand-ins (local HTTP servers speaking
 * Vertex AI's, Replicate's and Cog's wire formats): Google's service account gets no token and
 * the Cog server failed its setup, so both are `down` in /api/health; the engine choice offers the
 * built-in engine and Replicate only, preselects Replicate in place of the down default
 * (vertex-tryon), and a try-on there is made by Replicate; when Replicate then fails, the next
 * try-on moves on to the built-in engine and the result says which engine made it. The engine
 * choice and that result are photographed into /tmp/shots/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { HealthResponseSchema, TryOnResponseSchema } from '@aidressup/contract';
import { startCogStandIn, type CogStandIn } from '@aidressup/server/testing/stand-ins/cog-stand-in';
import { startReplicateStandIn, type ReplicateStandIn } from '@aidressup/server/testing/stand-ins/replicate-stand-in';
import { startVertexStandIn, type VertexStandIn } from '@aidressup/server/testing/stand-ins/vertex-stand-in';
import { expect, openSignedIn, test, uploadBoth } from '../fixtures';
import { startOwnServer, type OwnServer } from '../own-server';

const SHOTS = '/tmp/shots';
const TOKEN = 'r8_e2e-engine-health-000111';
// A port of its own next to the suite's (E2E_PORT), so parallel runs on other ports do not collide.
const PORT = Number(process.env.E2E_ENGINE_HEALTH_PORT ?? Number(process.env.E2E_PORT ?? 3100) + 3);
const BASE = `http://127.0.0.1:${PORT}`;

test.describe('engines that health says are down', () => {
  let vertex: VertexStandIn;
  let replicate: ReplicateStandIn;
  let cog: CogStandIn;
  let own: OwnServer | undefined;

  test.use({ baseURL: BASE });

  test.beforeAll(async () => {
    [vertex, replicate, cog] = await Promise.all([
      startVertexStandIn(),
      startReplicateStandIn({ token: TOKEN }),
      startCogStandIn(),
    ]);
    vertex.refuseTokens = true;
    cog.healthStatus = 'SETUP_FAILED';
    own = await startOwnServer('engine-health', PORT, {
      VERTEX_PROJECT: vertex.project,
      VERTEX_BASE_URL: vertex.url,
      VERTEX_CREDENTIALS: JSON.stringify(vertex.key),
      REPLICATE_API_TOKEN: TOKEN,
      REPLICATE_BASE_URL: replicate.url,
      // Replicate's delivery CDN stand-in is on another port of 127.0.0.1, trusted as a mirror would be.
      UPSTREAM_OUTPUT_ORIGINS: new URL(replicate.cdnUrl).origin,
      COG_URL: cog.url,
      DEFAULT_ENGINE: 'vertex-tryon',
      ENGINE_FALLBACK: 'vertex-tryon=replicate;replicate=local',
    });
  });

  test.afterAll(async () => {
    await own?.stop();
    await Promise.all([vertex?.close(), replicate?.close(), cog?.close()]);
  });

  test('are not offered: the choice holds the engines that are up, and a try-on is made by one of them', async ({
    page,
    request,
  }) => {
    // The engines are checked as the server starts (a token asked for, Cog's health check read).
    await expect
      .poll(async () => {
        const health = HealthResponseSchema.parse(await (await request.get('/api/health')).json());
        return Object.fromEntries(Object.entries(health.checks.engines).map(([id, c]) => [id, c.status]));
      })
      .toEqual({ local: 'ok', 'vertex-tryon': 'down', replicate: 'ok', cog: 'down' });

    await openSignedIn(page);
    const select = page.getByTestId('engine-select');
    await expect(select).toBeVisible();
    const offered = await select
      .locator('option')
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(offered).toEqual(['local', 'replicate']);
    // The default (vertex-tryon) is down: the first hosted engine that is up is preselected.
    await expect(select).toHaveValue('replicate');
    fs.mkdirSync(SHOTS, { recursive: true });
    await page.getByTestId('engine-choice').screenshot({ path: path.join(SHOTS, 'engine-choice-down.png') });

    await uploadBoth(page);
    const done = page.waitForResponse((r) => r.url().endsWith('/api/process-image'));
    await page.getByTestId('try-with-ai').click();
    const res = await done;
    expect(res.status(), await res.text()).toBe(200);
    expect(TryOnResponseSchema.parse(await res.json()).engine).toBe('replicate');
    await expect(page.getByTestId('result-image')).toBeVisible();
    expect(replicate.createCalls()).toHaveLength(1);
    expect(vertex.predictCalls()).toHaveLength(0);
    expect(cog.predictionCalls()).toHaveLength(0);
    await expect(page.getByTestId('made-by')).toHaveCount(0);

    // Replicate fails now: the try-on moves on to the built-in engine, and the result says so.
    replicate.fallback = { kind: 'http', status: 500 };
    const again = page.waitForResponse((r) => r.url().endsWith('/api/process-image'));
    await page.getByTestId('try-with-ai').click();
    const second = await again;
    expect(second.status(), await second.text()).toBe(200);
    expect(TryOnResponseSchema.parse(await second.json()).engine).toBe('local');
    await expect(page.getByTestId('made-by')).toHaveText(
      'Made with Built-in preview (fast): the engine you chose was not available.',
    );
    await expect(page.getByTestId('preview-badge')).toHaveText('Quick preview');
    await page
      .getByTestId('result-panel')
      .screenshot({ path: path.join(SHOTS, 'result-failed-over.png'), style: '.sticky{position:static!important}' });
  });
});
