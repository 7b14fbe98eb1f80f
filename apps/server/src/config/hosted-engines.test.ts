/**
 * The round-four engine settings: which variables enable vertex-tryon, replicate and cog, how the
 * service account is read (a file or inline JSON, its token_uri kept), which Replicate models are
 * known, COG_INPUTS, ENGINE_FALLBACK and ENGINE_COSTS, each refused with a readable problem.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { tempDir } from '../test/databases.js';
import { tryOnCostMicros } from './engine-costs.js';

const KEY = {
  type: 'service_account',
  project_id: 'p1',
  private_key_id: 'k1',
  private_key: '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n',
  client_email: 'svc@p1.iam.gserviceaccount.com',
  token_uri: 'https://oauth2.googleapis.com/token',
};

const problems = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
};

describe('vertex-tryon settings', () => {
  it('is enabled by VERTEX_PROJECT with a key file, with the documented defaults and the key’s token_uri', () => {
    const file = path.join(tempDir(), 'key.json');
    fs.writeFileSync(file, JSON.stringify(KEY));
    const { engines } = loadConfig({ VERTEX_PROJECT: 'p1', GOOGLE_APPLICATION_CREDENTIALS: file });
    expect(engines.vertex).toMatchObject({
      project: 'p1',
      location: 'us-central1',
      model: 'virtual-try-on-001',
      baseUrl: 'https://us-central1-aiplatform.googleapis.com',
      safetySetting: 'block_medium_and_above',
      personGeneration: 'allow_adult',
      baseSteps: undefined,
      credentials: { client_email: KEY.client_email, token_uri: KEY.token_uri },
    });
    const inline = loadConfig({
      VERTEX_PROJECT: 'p1',
      VERTEX_LOCATION: 'europe-west4',
      VERTEX_CREDENTIALS: JSON.stringify(KEY),
      VERTEX_SAFETY_SETTING: 'block-only-high',
      VERTEX_PERSON_GENERATION: 'allow_all',
      VERTEX_BASE_STEPS: '40',
    }).engines.vertex;
    expect(inline).toMatchObject({
      baseUrl: 'https://europe-west4-aiplatform.googleapis.com',
      safetySetting: 'block_only_high',
      personGeneration: 'allow_all',
      baseSteps: 40,
    });
  });

  it('refuses a project without a readable service-account key', () => {
    expect(problems({ VERTEX_PROJECT: 'p1' })[0]).toMatch(/needs a service account/);
    expect(problems({ VERTEX_PROJECT: 'p1', GOOGLE_APPLICATION_CREDENTIALS: '/nowhere/key.json' })[0]).toMatch(
      /cannot be read: ENOENT/,
    );
    expect(problems({ VERTEX_PROJECT: 'p1', VERTEX_CREDENTIALS: '{"type":"authorized_user"}' })[0]).toMatch(
      /not a service-account key/,
    );
    expect(
      problems({ VERTEX_PROJECT: 'p1', VERTEX_CREDENTIALS: JSON.stringify(KEY), VERTEX_SAFETY_SETTING: 'lenient' }),
    ).toHaveLength(1);
  });
});

describe('a service-account key’s token_uri', () => {
  const withUri = (token_uri: string, env: Record<string, string> = {}) =>
    problems({ VERTEX_PROJECT: 'p1', VERTEX_CREDENTIALS: JSON.stringify({ ...KEY, token_uri }), ...env });

  it('is https on a Google host, or refused at start with a readable problem', () => {
    for (const ok of [
      'https://oauth2.googleapis.com/token',
      'https://sts.googleapis.com/v1/token',
      'https://accounts.google.com/o/oauth2/token',
    ])
      expect(withUri(ok), ok).toEqual([]);
    for (const bad of [
      'http://oauth2.googleapis.com/token',
      'https://oauth2.googleapis.com:8443/token',
      'https://collector.example/token',
      'https://oauth2.googleapis.com.collector.example/token',
      'https://googleapis.com.collector.example/token',
      'https://127.0.0.1/token',
      'not a url',
    ]) {
      const found = withUri(bad);
      expect(found, bad).toHaveLength(1);
      expect(found[0]).toMatch(/token_uri/);
    }
  });

  it('may be on the origin VERTEX_BASE_URL names (a stand-in), and nowhere else', () => {
    expect(withUri('http://127.0.0.1:4010/token', { VERTEX_BASE_URL: 'http://127.0.0.1:4010' })).toEqual([]);
    expect(withUri('http://127.0.0.1:4011/token', { VERTEX_BASE_URL: 'http://127.0.0.1:4010' })).toHaveLength(1);
  });
});

describe('replicate and cog settings', () => {
  it('knows the named models by owner/name, with a version, or IDM-VTON by version; refuses others', () => {
    expect(loadConfig({ REPLICATE_API_TOKEN: 't' }).engines.replicate).toMatchObject({
      model: 'prunaai/p-image-try-on',
      version: undefined,
      preset: 'p-image-try-on',
    });
    const v = 'c871bb9b046607b680449ecbae55fd8c6d945e0a1948644bf2361b3d021d3ff4';
    expect(
      loadConfig({ REPLICATE_API_TOKEN: 't', REPLICATE_MODEL: `cuuupid/idm-vton:${v}` }).engines.replicate,
    ).toMatchObject({
      model: undefined,
      version: v,
      preset: 'idm-vton',
    });
    expect(problems({ REPLICATE_API_TOKEN: 't', REPLICATE_MODEL: 'someone/other-model' })[0]).toMatch(
      /only models whose inputs are known/,
    );
  });

  it('takes a Cog preset, or the input names COG_INPUTS gives', () => {
    expect(loadConfig({ COG_URL: 'http://gpu:5000/' }).engines.cog).toMatchObject({
      url: 'http://gpu:5000',
      preset: 'p-image-try-on',
      inputs: { person: 'person_image', garment: 'garment_images', garmentList: true },
    });
    const custom = loadConfig({
      COG_URL: 'http://gpu:5000',
      COG_INPUTS: '{"person":"model_image","garment":"garment_image","category":"category"}',
    }).engines.cog;
    expect(custom).toMatchObject({
      preset: undefined,
      inputs: { person: 'model_image', garmentList: false, category: 'category' },
    });
    expect(problems({ COG_URL: 'http://gpu:5000', COG_INPUTS: '{"person":1}' })[0]).toMatch(/COG_INPUTS must be JSON/);
  });
});

describe('ENGINE_FALLBACK and ENGINE_COSTS', () => {
  const three = {
    REPLICATE_API_TOKEN: 't',
    COG_URL: 'http://gpu:5000',
    VERTEX_PROJECT: 'p1',
    VERTEX_CREDENTIALS: JSON.stringify(KEY),
  };

  it('reads engine=next,next;engine=next among enabled engines', () => {
    const { engines } = loadConfig({ ...three, ENGINE_FALLBACK: 'vertex-tryon=replicate, cog; replicate=cog,local' });
    expect(Object.fromEntries(engines.fallback)).toEqual({
      'vertex-tryon': ['replicate', 'cog'],
      replicate: ['cog', 'local'],
    });
    expect(problems({ ...three, ENGINE_FALLBACK: 'vertex-tryon=fal' })[0]).toMatch(/names fal, not enabled/);
    expect(problems({ ...three, ENGINE_FALLBACK: 'cog=cog' })[0]).toMatch(/must not name itself/);
    expect(problems({ ...three, ENGINE_FALLBACK: 'cog' })[0]).toMatch(/is not engine=next,next/);
  });

  it('prices each engine from its provider’s list unless ENGINE_COSTS says otherwise, with the date read', () => {
    const { engines } = loadConfig({ ...three, ENGINE_COSTS: 'cog=0.004@2026-11-26' });
    expect(engines.prices.get('replicate')).toEqual({
      perImageMicros: 15_000,
      perExtraGarmentMicros: 8_000,
      source: 'price-list',
      readOn: '2026-11-27',
    });
    expect(engines.prices.get('cog')).toEqual({
      perImageMicros: 4_000,
      perExtraGarmentMicros: 0,
      source: 'configured',
      readOn: '2026-11-26',
    });
    expect(engines.prices.get('local')).toMatchObject({ perImageMicros: 0, source: 'own-hardware' });
    expect(engines.prices.get('vertex-tryon')).toMatchObject({ source: 'unknown', readOn: null });
    // A whole outfit in one call: one image and one extra garment; on an engine without outfits: two images.
    const prices = engines.prices;
    expect(tryOnCostMicros(prices, { engineId: 'replicate', images: 1, extraGarments: 1 })).toBe(23_000);
    expect(tryOnCostMicros(prices, { engineId: 'cog', images: 2, extraGarments: 0 })).toBe(8_000);
    expect(problems({ ...three, ENGINE_COSTS: 'cog=cheap' })[0]).toMatch(/is not engine=price/);
    expect(problems({ ...three, ENGINE_COSTS: 'cog=0.01@2026-02-30' })[0]).toMatch(/is not engine=price/);
    expect(problems({ ENGINE_COSTS: 'fal=0.01' })[0]).toMatch(/names fal, which is not an enabled engine/);
  });
});
