/**
 * Which Gemini models the key can use: the Gemini API's model list (`GET /v1beta/models`,
 * paginated with `pageToken`; each entry has `name` `models/{id}`, `displayName`,
 * `description` and `supportedGenerationMethods`), and the rules that pick a replacement when
 * GEMINI_MODEL is retired.
 *
 * Rules (docs/engines.md, "Model discovery and fallback"):
 * - An image model is one that supports `generateContent` and whose id has an `image` part
 *   (`gemini-3.1-flash-image`, `gemini-3-pro-image`), or whose description says it generates
 *   or edits images. Imagen (`predict`) and text models do not qualify.
 * - A model is marked deprecated when its display name or description says deprecated,
 *   retired, discontinued or shut down (the list has no dedicated field).
 * - The replacement is the first of GEMINI_FALLBACK_MODELS that is listed, supports
 *   generateContent and is not marked deprecated; else the newest listed image model: stable
 *   ids before `-preview`/`-exp` ones, then the highest Gemini version, then the same tier
 *   as the configured model (pro, flash, lite), then by name.
 */
import { parseJson, snippet, type HttpResult } from './hosted-http.js';

/** A GET through the engine's retrying fetch (a try-on's, or the background listing's own). */
export type GetFn = (url: string, init: RequestInit) => Promise<HttpResult>;

export interface ListedGeminiModel {
  /** The id without `models/`. */
  id: string;
  displayName: string;
  description: string;
  methods: readonly string[];
}

interface ListAnswer {
  models?: Array<{
    name?: string;
    displayName?: string;
    description?: string;
    supportedGenerationMethods?: string[];
  }>;
  nextPageToken?: string;
}

/** Pages followed at most (pageSize 1000 each: far more than Google lists). */
const MAX_PAGES = 20;

/** Every model the key may use, following `nextPageToken` to the last page. */
export async function listGeminiModels(get: GetFn, base: string, apiKey: string): Promise<ListedGeminiModel[]> {
  const out: ListedGeminiModel[] = [];
  let pageToken: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const url = `${base}/v1beta/models?pageSize=1000${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`;
    const res = await get(url, { method: 'GET', headers: { 'x-goog-api-key': apiKey } });
    if (res.status !== 200) throw new Error(`models list answered HTTP ${res.status}: ${snippet(res.body)}`);
    const answer = parseJson<ListAnswer>(res, 'nano-banana', 'models.list');
    for (const m of answer.models ?? []) {
      if (typeof m.name !== 'string' || m.name === '') continue;
      out.push({
        id: m.name.replace(/^models\//, ''),
        displayName: m.displayName ?? '',
        description: m.description ?? '',
        methods: Array.isArray(m.supportedGenerationMethods) ? m.supportedGenerationMethods : [],
      });
    }
    pageToken = answer.nextPageToken || undefined;
    if (!pageToken) return out;
  }
  return out;
}

export const generatesContent = (m: ListedGeminiModel) => m.methods.includes('generateContent');

export function isImageModel(m: ListedGeminiModel): boolean {
  if (!generatesContent(m)) return false;
  if (/(^|-)image(-|$)/i.test(m.id)) return true;
  return /\b(generat\w*|edit\w*|creat\w*)\b[^.]{0,40}\bimages?\b|\bimage (generation|editing|output)\b/i.test(
    m.description,
  );
}

export function isMarkedDeprecated(m: ListedGeminiModel): boolean {
  return /\b(deprecated|retired|discontinued|shut ?down)\b/i.test(`${m.displayName} ${m.description}`);
}

const isPreview = (id: string) => /-(preview|exp)\b/i.test(id);
function version(id: string): number {
  const v = /^gemini-(\d+)(?:\.(\d+))?/i.exec(id);
  return v ? Number(v[1]) * 1000 + Number(v[2] ?? 0) : 0;
}
function tier(id: string): string {
  return /-lite\b/i.test(id) ? 'lite' : /-pro\b/i.test(id) ? 'pro' : /-flash\b/i.test(id) ? 'flash' : '';
}

/** The best listed replacement for `configured` (never `configured` itself, nor one in `exclude`). */
export function pickFallback(
  listed: readonly ListedGeminiModel[],
  configured: string,
  preferred: readonly string[],
  exclude: readonly string[] = [],
): string | undefined {
  const usable = listed.filter(
    (m) => m.id !== configured && !exclude.includes(m.id) && generatesContent(m) && !isMarkedDeprecated(m),
  );
  for (const id of preferred) if (usable.some((m) => m.id === id)) return id;
  const wantedTier = tier(configured);
  const candidates = usable.filter(isImageModel).sort((a, b) => {
    const byStable = Number(isPreview(a.id)) - Number(isPreview(b.id));
    if (byStable !== 0) return byStable;
    const byVersion = version(b.id) - version(a.id);
    if (byVersion !== 0) return byVersion;
    const byTier = Number(tier(b.id) === wantedTier) - Number(tier(a.id) === wantedTier);
    if (byTier !== 0) return byTier;
    return a.id.localeCompare(b.id);
  });
  return candidates[0]?.id;
}

/** What the listing says about the configured model: undefined when it is listed and current. */
export function configuredModelProblem(
  listed: readonly ListedGeminiModel[],
  configured: string,
  preferred: readonly string[],
): string | undefined {
  const entry = listed.find((m) => m.id === configured);
  const why = !entry
    ? 'is not in the Gemini API model list (retired or unknown)'
    : !generatesContent(entry)
      ? 'does not support generateContent'
      : isMarkedDeprecated(entry)
        ? 'is marked deprecated in the Gemini API model list'
        : undefined;
  if (!why) return undefined;
  const instead = pickFallback(listed, configured, preferred);
  return `the Gemini model "${configured}" ${why}: set GEMINI_MODEL to ${instead ? `"${instead}"` : 'a current image model'}${instead ? ' (or list it first in GEMINI_FALLBACK_MODELS)' : ''}`;
}
