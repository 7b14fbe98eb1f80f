/**
 * Settings of the hosted engines added in round four: Google's dedicated try-on model on Vertex AI
 * (`vertex-tryon`), models on Replicate (`replicate`) and a Cog server the operator runs (`cog`).
 * Each is switched on by its first variable (VERTEX_PROJECT, REPLICATE_API_TOKEN, COG_URL).
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import {
  REPLICATE_DEFAULT_MODEL,
  REPLICATE_PRESET_MODELS,
  TRYON_MODEL_PRESETS,
  VERTEX_DEFAULT_LOCATION,
  VERTEX_DEFAULT_MODEL,
  VERTEX_DEFAULT_PERSON_GENERATION,
  VERTEX_DEFAULT_SAFETY_SETTING,
  VERTEX_PERSON_GENERATION,
  VERTEX_SAFETY_SETTINGS,
  type TryOnModelPreset,
  type VertexPersonGeneration,
  type VertexSafetySetting,
} from '@aidressup/contract';
import { optionalString, optionalUrl } from './env.js';

export const HostedEngineEnv = {
  VERTEX_PROJECT: optionalString,
  VERTEX_LOCATION: z
    .string()
    .trim()
    .default(VERTEX_DEFAULT_LOCATION)
    .refine((v) => /^[a-z0-9-]+$/.test(v), { message: 'VERTEX_LOCATION must be a region such as us-central1' }),
  VERTEX_MODEL: z.string().trim().min(1).default(VERTEX_DEFAULT_MODEL),
  /** Default: Google's regional endpoint, `https://{VERTEX_LOCATION}-aiplatform.googleapis.com`. */
  VERTEX_BASE_URL: optionalUrl('VERTEX_BASE_URL'),
  /** A service-account key file (JSON); its `token_uri` is where access tokens are asked for. */
  GOOGLE_APPLICATION_CREDENTIALS: optionalString,
  /** The same key inline (its JSON text), for platforms that pass secrets as variables. */
  VERTEX_CREDENTIALS: optionalString,
  VERTEX_SAFETY_SETTING: z
    .string()
    .trim()
    .toLowerCase()
    .transform((v) => v.replaceAll('-', '_'))
    .pipe(z.enum(VERTEX_SAFETY_SETTINGS))
    .default(VERTEX_DEFAULT_SAFETY_SETTING),
  VERTEX_PERSON_GENERATION: z.enum(VERTEX_PERSON_GENERATION).default(VERTEX_DEFAULT_PERSON_GENERATION),
  /** Diffusion steps (Google's default 32 when unset): more is slower and finer. */
  VERTEX_BASE_STEPS: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce.number().int().min(1).max(100).optional(),
  ),
  REPLICATE_API_TOKEN: optionalString,
  /** `owner/name` (an official model, its latest version), `owner/name:version`, or a version id. */
  REPLICATE_MODEL: z.string().trim().min(1).default(REPLICATE_DEFAULT_MODEL),
  REPLICATE_BASE_URL: optionalUrl('REPLICATE_BASE_URL'),
  COG_URL: optionalUrl('COG_URL'),
  COG_MODEL: z.enum(TRYON_MODEL_PRESETS).default('p-image-try-on'),
  /**
   * The Cog model's input names when it is none of the presets, as JSON: `{"person": "...",
   * "garment": "...", "category"?: "...", "categories"?: {upper_body, lower_body, dresses},
   * "extra"?: {...}}`.
   */
  COG_INPUTS: optionalString,
};
type Env = z.infer<z.ZodObject<typeof HostedEngineEnv>>;

/** A Google service-account key: what the JWT flow needs. */
export interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  private_key_id?: string | undefined;
  /** Where the signed assertion is exchanged for an access token (default Google's). */
  token_uri?: string | undefined;
  project_id?: string | undefined;
}

export interface VertexConfig {
  project: string;
  location: string;
  model: string;
  baseUrl: string;
  credentials: ServiceAccountKey;
  safetySetting: VertexSafetySetting;
  personGeneration: VertexPersonGeneration;
  baseSteps: number | undefined;
}

/** How a model's inputs are named: a preset's, or the operator's (COG_INPUTS). */
export interface ModelInputs {
  person: string;
  garment: string;
  /** Several garments in one list (`garment_images`): the model dresses a whole outfit in one call. */
  garmentList: boolean;
  category: string | undefined;
  /** Our category → the model's word (default: our own names). */
  categories: Record<'upper_body' | 'lower_body' | 'dresses', string> | undefined;
  /** Fixed inputs sent with every call. */
  extra: Record<string, unknown>;
}

export interface ReplicateConfig {
  token: string;
  baseUrl: string | undefined;
  /** `owner/name` for an official model, else undefined (a version is run). */
  model: string | undefined;
  version: string | undefined;
  preset: TryOnModelPreset;
}

export interface CogConfig {
  url: string;
  preset: TryOnModelPreset | undefined;
  inputs: ModelInputs;
}

/** The inputs of the models we name, as their schemas on Replicate give them. */
export const PRESET_INPUTS: Record<TryOnModelPreset, ModelInputs> = {
  'p-image-try-on': {
    person: 'person_image',
    garment: 'garment_images',
    garmentList: true,
    category: undefined,
    categories: undefined,
    extra: { output_format: 'jpg', output_quality: 95, preserve_input_size: true },
  },
  'idm-vton': {
    person: 'human_img',
    garment: 'garm_img',
    garmentList: false,
    category: 'category',
    categories: { upper_body: 'upper_body', lower_body: 'lower_body', dresses: 'dresses' },
    extra: { garment_des: '', crop: false, steps: 30 },
  },
};

/**
 * Why a key's `token_uri` may not receive its signed assertion, or undefined when it may: `https` on
 * a Google host, or the origin VERTEX_BASE_URL names (a proxy or the tests' stand-in). A key file
 * naming anything else would hand a signed assertion to a stranger.
 */
function tokenUriRefusal(tokenUri: string, vertexBaseUrl: string | undefined): string | undefined {
  let url: URL;
  try {
    url = new URL(tokenUri);
  } catch {
    return 'token_uri must be a URL';
  }
  if (vertexBaseUrl && URL.canParse(vertexBaseUrl) && url.origin === new URL(vertexBaseUrl).origin) return undefined;
  const host = url.hostname.toLowerCase();
  const google = host === 'oauth2.googleapis.com' || host.endsWith('.googleapis.com') || host === 'accounts.google.com';
  if (url.protocol === 'https:' && google && !url.port) return undefined;
  return `token_uri ${url.origin} is not https on a Google host (oauth2.googleapis.com); only VERTEX_BASE_URL's origin may be another`;
}

function readServiceAccount(e: Env, problems: string[]): ServiceAccountKey | undefined {
  let text = e.VERTEX_CREDENTIALS;
  const from = text ? 'VERTEX_CREDENTIALS' : `GOOGLE_APPLICATION_CREDENTIALS (${e.GOOGLE_APPLICATION_CREDENTIALS})`;
  if (!text && e.GOOGLE_APPLICATION_CREDENTIALS) {
    try {
      text = readFileSync(e.GOOGLE_APPLICATION_CREDENTIALS, 'utf8');
    } catch (err) {
      problems.push(`${from} cannot be read: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
      return undefined;
    }
  }
  if (!text) {
    problems.push(
      'VERTEX_PROJECT needs a service account: GOOGLE_APPLICATION_CREDENTIALS (its JSON key file) or VERTEX_CREDENTIALS (the JSON itself)',
    );
    return undefined;
  }
  let key: Partial<ServiceAccountKey> & { type?: string };
  try {
    key = JSON.parse(text) as typeof key;
  } catch {
    problems.push(`${from} is not JSON`);
    return undefined;
  }
  if (typeof key.client_email !== 'string' || typeof key.private_key !== 'string') {
    problems.push(`${from} is not a service-account key (client_email and private_key are missing)`);
    return undefined;
  }
  if (key.token_uri !== undefined) {
    const refused = tokenUriRefusal(key.token_uri, e.VERTEX_BASE_URL);
    if (refused) {
      problems.push(`${from}: ${refused}`);
      return undefined;
    }
  }
  return {
    client_email: key.client_email,
    private_key: key.private_key,
    private_key_id: key.private_key_id,
    token_uri: key.token_uri,
    project_id: key.project_id,
  };
}

/** `owner/name`, `owner/name:version` or a bare 64-character version id. */
function parseReplicateModel(
  value: string,
): { model: string | undefined; version: string | undefined; preset: TryOnModelPreset | undefined } | undefined {
  const m = /^([a-z0-9][\w.-]*\/[\w.-]+)(?::([a-f0-9]{64}))?$/i.exec(value);
  if (m) {
    const name = m[1]!.toLowerCase();
    const preset = (Object.keys(REPLICATE_PRESET_MODELS) as TryOnModelPreset[]).find(
      (p) => REPLICATE_PRESET_MODELS[p] === name,
    );
    return { model: m[2] ? undefined : name, version: m[2]?.toLowerCase(), preset };
  }
  if (/^[a-f0-9]{64}$/i.test(value)) return { model: undefined, version: value.toLowerCase(), preset: undefined };
  return undefined;
}

const CogInputsSchema = z
  .object({
    person: z.string().min(1),
    garment: z.string().min(1),
    garmentList: z.boolean().optional(),
    category: z.string().min(1).optional(),
    categories: z.object({ upper_body: z.string(), lower_body: z.string(), dresses: z.string() }).optional(),
    extra: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

/** The hosted engines configured by their own settings (each undefined when off). */
export function hostedEnginesConfig(e: Env, problems: string[]) {
  let vertex: VertexConfig | undefined;
  if (e.VERTEX_PROJECT) {
    const credentials = readServiceAccount(e, problems);
    if (credentials) {
      vertex = {
        project: e.VERTEX_PROJECT,
        location: e.VERTEX_LOCATION,
        model: e.VERTEX_MODEL,
        baseUrl: (e.VERTEX_BASE_URL ?? `https://${e.VERTEX_LOCATION}-aiplatform.googleapis.com`).replace(/\/+$/, ''),
        credentials,
        safetySetting: e.VERTEX_SAFETY_SETTING,
        personGeneration: e.VERTEX_PERSON_GENERATION,
        baseSteps: e.VERTEX_BASE_STEPS,
      };
    }
  }

  let replicate: ReplicateConfig | undefined;
  if (e.REPLICATE_API_TOKEN) {
    const parsed = parseReplicateModel(e.REPLICATE_MODEL);
    if (!parsed) {
      problems.push(
        `REPLICATE_MODEL must be owner/name, owner/name:version or a version id (got ${e.REPLICATE_MODEL})`,
      );
    } else if (!parsed.preset) {
      problems.push(
        `REPLICATE_MODEL=${e.REPLICATE_MODEL}: only models whose inputs are known can be used (${Object.values(REPLICATE_PRESET_MODELS).join(', ')}, optionally with :version)`,
      );
    } else {
      replicate = {
        token: e.REPLICATE_API_TOKEN,
        baseUrl: e.REPLICATE_BASE_URL,
        model: parsed.model,
        version: parsed.version,
        preset: parsed.preset,
      };
    }
  }

  let cog: CogConfig | undefined;
  if (e.COG_URL) {
    let inputs: ModelInputs = PRESET_INPUTS[e.COG_MODEL];
    let preset: TryOnModelPreset | undefined = e.COG_MODEL;
    if (e.COG_INPUTS) {
      let json: unknown;
      try {
        json = JSON.parse(e.COG_INPUTS);
      } catch {
        json = undefined;
      }
      const custom = CogInputsSchema.safeParse(json);
      if (!custom.success) {
        problems.push(
          'COG_INPUTS must be JSON such as {"person":"model_image","garment":"garment_image","category":"category"}',
        );
      } else {
        preset = undefined;
        inputs = {
          person: custom.data.person,
          garment: custom.data.garment,
          garmentList: custom.data.garmentList ?? false,
          category: custom.data.category,
          categories: custom.data.categories,
          extra: custom.data.extra ?? {},
        };
      }
    }
    cog = { url: e.COG_URL.replace(/\/+$/, ''), preset, inputs };
  }
  return { vertex, replicate, cog };
}
