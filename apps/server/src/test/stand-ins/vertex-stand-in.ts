/**
 * Stand-in for Google's Vertex AI virtual try-on model and a service account's OAuth token
 * endpoint, for tests and benchmarks. It speaks the documented wire formats:
 * - `POST /token` (the key's `token_uri`): `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`
 *   and a JWT `assertion` signed RS256 by the key (iss = the client email, scope, aud, iat, exp),
 *   checked against the key pair the stand-in made → `{access_token, expires_in, token_type}`;
 * - `POST /v1/projects/{p}/locations/{l}/publishers/google/models/{model}:predict` with
 *   `Authorization: Bearer <that token>` and `{instances: [{personImage: {image:
 *   {bytesBase64Encoded}}, productImages: [{image: {bytesBase64Encoded}}]}], parameters:
 *   {sampleCount 1–4, safetySetting, personGeneration, baseSteps?, …}}` (each image at most 10 MB)
 *   → `{predictions: [{mimeType, bytesBase64Encoded}]}` at the person photo's size, or
 *   `{predictions: [{raiFilteredReason}]}` for an image the Responsible AI filters withheld;
 *   errors as `{error: {code, message, status}}`. It never calls Google.
 */
import { generateKeyPairSync, randomBytes, verify } from 'node:crypto';
import sharp from 'sharp';
import { VERTEX_PERSON_GENERATION, VERTEX_SAFETY_SETTINGS } from '@aidressup/contract';
import type { ServiceAccountKey } from '../../config/hosted-engines.js';
import {
  hang,
  makeResultImage,
  sendJson,
  sendMalformedJson,
  startStandInServer,
  type RecordedRequest,
  type StandInServer,
} from './stand-in-server.js';

export type VertexBehaviour =
  | { kind: 'ok' }
  | { kind: 'filtered'; reason?: string }
  | { kind: 'no-predictions' }
  | { kind: 'http'; status: number; grpcStatus?: string; message?: string }
  | { kind: 'malformed' }
  | { kind: 'hang' };

export interface VertexStandIn extends StandInServer {
  /** A service-account key whose `token_uri` is this stand-in. */
  readonly key: ServiceAccountKey & { type: 'service_account' };
  readonly project: string;
  readonly location: string;
  readonly model: string;
  reset(): void;
  enqueue(...b: VertexBehaviour[]): void;
  fallback: VertexBehaviour;
  /** Token requests refused from now on (a revoked key). */
  refuseTokens: boolean;
  tokenCalls(): RecordedRequest[];
  predictCalls(): RecordedRequest[];
  /** The claims of every assertion received, in order. */
  readonly assertions: Record<string, unknown>[];
}

export const VERTEX_MAX_IMAGE_BYTES = 10 * 1024 * 1024;

function b64url(s: string): Buffer {
  return Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

export async function startVertexStandIn(
  opts: { project?: string; location?: string; model?: string; instant?: boolean } = {},
): Promise<VertexStandIn> {
  const project = opts.project ?? 'stand-in-project';
  const location = opts.location ?? 'us-central1';
  const model = opts.model ?? 'virtual-try-on-001';
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const clientEmail = 'tryon@stand-in-project.iam.gserviceaccount.com';
  const tokens = new Set<string>();
  const queue: VertexBehaviour[] = [];
  const assertions: Record<string, unknown>[] = [];
  const state = { fallback: { kind: 'ok' } as VertexBehaviour, refuseTokens: false };
  let cached: Buffer | undefined;
  let base = '';

  const server = await startStandInServer(async (req, res) => {
    const path = req.url.split('?')[0]!;
    if (req.method === 'POST' && path === '/token') {
      const form = new URLSearchParams(req.body.toString('utf8'));
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
        return sendJson(res, 400, { error: 'unsupported_grant_type' });
      const parts = (form.get('assertion') ?? '').split('.');
      if (parts.length !== 3) return sendJson(res, 400, { error: 'invalid_grant', error_description: 'Invalid JWT' });
      const header = JSON.parse(b64url(parts[0]!).toString('utf8')) as { alg?: string };
      const claims = JSON.parse(b64url(parts[1]!).toString('utf8')) as Record<string, unknown>;
      assertions.push(claims);
      const signed = verify('RSA-SHA256', Buffer.from(`${parts[0]}.${parts[1]}`), publicKey, b64url(parts[2]!));
      const now = Date.now() / 1000;
      const aud = String(claims.aud);
      if (
        state.refuseTokens ||
        header.alg !== 'RS256' ||
        !signed ||
        claims.iss !== clientEmail ||
        !String(claims.scope ?? '').includes('https://www.googleapis.com/auth/cloud-platform') ||
        (aud !== `${base}/token` && aud !== 'https://oauth2.googleapis.com/token') ||
        !(Number(claims.exp) > now)
      )
        return sendJson(res, 400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
      const token = `ya29.stand-in-${randomBytes(12).toString('hex')}`;
      tokens.add(token);
      return sendJson(res, 200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
    }

    const m = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/google\/models\/([^/:]+):predict$/.exec(path);
    if (req.method === 'POST' && m) {
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!bearer || !tokens.has(bearer))
        return sendJson(res, 401, {
          error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' },
        });
      if (m[1] !== project || m[2] !== location)
        return sendJson(res, 403, { error: { code: 403, message: 'Permission denied', status: 'PERMISSION_DENIED' } });
      if (m[3] !== model)
        return sendJson(res, 404, {
          error: { code: 404, message: `Publisher Model ${m[3]} was not found.`, status: 'NOT_FOUND' },
        });
      const body = req.json as
        | {
            instances?: Array<{
              personImage?: { image?: { bytesBase64Encoded?: string } };
              productImages?: Array<{ image?: { bytesBase64Encoded?: string } }>;
            }>;
            parameters?: Record<string, unknown>;
          }
        | undefined;
      const invalid = (message: string) =>
        sendJson(res, 400, { error: { code: 400, message, status: 'INVALID_ARGUMENT' } });
      const instance = body?.instances?.[0];
      const person = instance?.personImage?.image?.bytesBase64Encoded;
      const products = instance?.productImages ?? [];
      if (body?.instances?.length !== 1 || typeof person !== 'string') return invalid('personImage is required.');
      if (products.length !== 1 || typeof products[0]?.image?.bytesBase64Encoded !== 'string')
        return invalid('productImages must hold one product image.');
      const images = [person, products[0].image.bytesBase64Encoded].map((b) => Buffer.from(b, 'base64'));
      if (images.some((i) => i.length > VERTEX_MAX_IMAGE_BYTES)) return invalid('Image exceeds the 10 MB limit.');
      const p = body.parameters ?? {};
      const count = p.sampleCount ?? 1;
      if (!(Number.isInteger(count) && Number(count) >= 1 && Number(count) <= 4))
        return invalid('sampleCount must be between 1 and 4.');
      const safety = String(p.safetySetting ?? 'block_medium_and_above')
        .toLowerCase()
        .replaceAll('-', '_');
      if (!(VERTEX_SAFETY_SETTINGS as readonly string[]).includes(safety)) return invalid('Invalid safetySetting.');
      if (
        p.personGeneration !== undefined &&
        !(VERTEX_PERSON_GENERATION as readonly string[]).includes(String(p.personGeneration))
      )
        return invalid('Invalid personGeneration.');
      const b = queue.shift() ?? state.fallback;
      if (b.kind === 'hang') return hang(res);
      if (b.kind === 'malformed') return sendMalformedJson(res);
      if (b.kind === 'http')
        return sendJson(res, b.status, {
          error: {
            code: b.status,
            message:
              b.message ??
              (b.status === 429
                ? 'Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model.'
                : 'Internal error encountered.'),
            status:
              b.grpcStatus ?? (b.status === 429 ? 'RESOURCE_EXHAUSTED' : b.status === 503 ? 'UNAVAILABLE' : 'INTERNAL'),
          },
        });
      if (b.kind === 'no-predictions') return sendJson(res, 200, {});
      if (b.kind === 'filtered')
        return sendJson(res, 200, {
          predictions: [
            { raiFilteredReason: b.reason ?? 'Your current safety filter threshold filtered out the generated image.' },
          ],
        });
      // The model answers at the person photo's size.
      const meta = await sharp(images[0]).metadata();
      const out =
        (opts.instant ? cached : undefined) ??
        (await makeResultImage(meta.width ?? 512, meta.height ?? 768, 'png', images[0]));
      if (opts.instant) cached = out;
      return sendJson(res, 200, {
        predictions: [{ mimeType: 'image/png', bytesBase64Encoded: out.toString('base64') }],
      });
    }
    return sendJson(res, 404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } });
  });
  base = server.url;

  return {
    ...server,
    get url() {
      return server.url;
    },
    key: {
      type: 'service_account',
      project_id: project,
      private_key_id: 'stand-in-key-1',
      private_key: pem,
      client_email: clientEmail,
      token_uri: `${server.url}/token`,
    },
    project,
    location,
    model,
    reset() {
      queue.length = 0;
      server.requests.length = 0;
      assertions.length = 0;
      state.fallback = { kind: 'ok' };
      state.refuseTokens = false;
    },
    enqueue: (...b) => void queue.push(...b),
    get fallback() {
      return state.fallback;
    },
    set fallback(b: VertexBehaviour) {
      state.fallback = b;
    },
    get refuseTokens() {
      return state.refuseTokens;
    },
    set refuseTokens(v: boolean) {
      state.refuseTokens = v;
    },
    tokenCalls: () => server.requests.filter((r) => r.url === '/token'),
    predictCalls: () => server.requests.filter((r) => r.url.endsWith(':predict')),
    assertions,
  };
}
