/** Building blocks of the environment schemas (config.ts and its parts in this folder). */
import { z } from 'zod';

/** A trimmed string; empty counts as unset. */
export const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();
export const optionalUrl = (label: string) =>
  optionalString.refine((v) => v === undefined || URL.canParse(v), { message: `${label} must be a URL` });
export const int = (def: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(def);
/** `true`/`1` or `false`/`0` (empty: the default). */
export const flag = (def: boolean) =>
  z
    .enum(['true', 'false', '1', '0', ''])
    .default(def ? 'true' : 'false')
    .transform((v) => (v === '' ? def : v === 'true' || v === '1'));
