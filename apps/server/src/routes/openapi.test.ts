/**
 * The OpenAPI document at GET /api/openapi.json: OpenAPI 3, generated from the route schemas,
 * listing every /api route the app registers (a route added without documentation fails here),
 * with path parameters written `{name}`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { testApps, type TestApp } from '../test/app.js';

const PADDLE_ENV = {
  PADDLE_ENV: 'sandbox',
  PADDLE_CLIENT_TOKEN: 'test_clienttoken',
  PADDLE_WEBHOOK_SECRET: 'pdl_ntfset_openapi_test_secret',
  PADDLE_PRICE_WEEKLY: 'pri_w',
  PADDLE_PRICE_MONTHLY: 'pri_m',
  PADDLE_PRICE_YEARLY: 'pri_y',
  PADDLE_PRICE_CREDITS_200: 'pri_c',
};

interface Operation {
  summary?: string;
  parameters?: { in: string; name: string }[];
  requestBody?: {
    content: Record<string, { schema: { properties?: Record<string, { format?: string }>; required?: string[] } }>;
  };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
interface Document {
  openapi: string;
  info: { title: string; version: string };
  components?: { schemas?: Record<string, unknown> };
  paths: Record<string, Record<string, Operation>>;
}

/** `/api/results/:name` as OpenAPI writes it: `/api/results/{name}`. */
const openapiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe.each([
  ['demo billing', {}],
  ['Paddle billing', PADDLE_ENV],
] as const)('the OpenAPI document with %s', (_name, env) => {
  const make = testApps('sqlite');
  let t: TestApp;
  let doc: Document;
  beforeAll(async () => {
    t = await make({ env });
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    doc = res.json() as Document;
  });

  it('is an OpenAPI 3 document', () => {
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBeTruthy();
    expect(doc.info.version).toBeTruthy();
    expect(Object.keys(doc.paths).length).toBeGreaterThan(0);
    // Every reference points at a component the document holds (the shared error answer).
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs).toContain('Error');
    for (const ref of new Set(refs)) expect(doc.components?.schemas?.[ref], ref).toBeDefined();
  });

  it('lists every /api route the app registers, and nothing else', () => {
    const registered = t.app.registeredRoutes
      .filter((r) => r.url.startsWith('/api/') && r.method !== 'HEAD')
      .map((r) => `${r.method} ${openapiPath(r.url)}`);
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(registered.length).toBeGreaterThan(10);
    expect(documented.sort()).toEqual([...new Set(registered)].sort());
    expect(documented).not.toContain('GET /metrics');
  });

  it('documents each operation: a summary, a success answer with its schema, and the error answer', () => {
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const where = `${method.toUpperCase()} ${path}`;
        expect(op.summary, where).toBeTruthy();
        const success = op.responses['200'];
        expect(success?.content, where).toBeDefined();
        expect(Object.values(success!.content!)[0]!.schema, where).toBeDefined();
        expect(op.responses['4XX']?.content?.['application/json']?.schema, where).toBeDefined();
      }
    }
  });

  it('writes path parameters as {name} and declares them', () => {
    for (const [path, ops] of Object.entries(doc.paths)) {
      expect(path, path).not.toMatch(/:[A-Za-z]/);
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      for (const op of Object.values(ops)) {
        const declared = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
        expect(declared.sort(), path).toEqual(names.sort());
      }
    }
    expect(doc.paths['/api/results/{name}']?.get).toBeDefined();
    expect(doc.paths['/api/auth/user/{id}']?.get).toBeDefined();
  });

  it('describes the try-on upload as a multipart form with two binary files (the person photo or a kept one), an optional bottom and the text fields', () => {
    const body = doc.paths['/api/process-image']?.post?.requestBody;
    const schema = body?.content['multipart/form-data']?.schema;
    expect(schema?.properties?.userImage?.format).toBe('binary');
    expect(schema?.properties?.clothingImage?.format).toBe('binary');
    expect(schema?.properties?.lowerClothingImage?.format).toBe('binary');
    expect(Object.keys(schema?.properties ?? {}).sort()).toEqual([
      'api',
      'category',
      'clothingImage',
      'lineTicket',
      'lowerClothingImage',
      'personPhotoId',
      'progressId',
      'userId',
      'userImage',
    ]);
    expect(schema?.required).not.toContain('lowerClothingImage');
    expect(schema?.required).not.toContain('lineTicket');
    // The person photo, or instead of it one of the shopper's kept photos (`personPhotoId`).
    expect(schema?.required).not.toContain('userImage');
    expect(schema?.required).not.toContain('personPhotoId');
    expect(schema?.required).toEqual(expect.arrayContaining(['clothingImage', 'category', 'userId']));
    // HTTP 402 NO_CREDITS carries the user.
    expect(JSON.stringify(doc.paths['/api/process-image']?.post?.responses['402'])).toContain('free_trials_used');
    // HTTP 503 ENGINE_BUSY carries the place in line, the expected wait and the ticket.
    const busy = JSON.stringify(doc.paths['/api/process-image']?.post?.responses['503']);
    for (const field of ['place', 'waitSeconds', 'retryAfterSeconds', 'ticket']) expect(busy).toContain(field);
  });

  it('includes the JSON request bodies from the contract schemas', () => {
    const anonymous = doc.paths['/api/auth/anonymous']?.post?.requestBody?.content['application/json']?.schema;
    expect(Object.keys(anonymous?.properties ?? {})).toContain('deviceId');
    const checkout = doc.paths['/api/billing/demo/checkout']?.post?.requestBody?.content['application/json']?.schema;
    expect(Object.keys(checkout?.properties ?? {})).toEqual(['planId']);
  });
});
