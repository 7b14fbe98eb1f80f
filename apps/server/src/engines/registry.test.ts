import { describe, expect, it } from 'vitest';
import { CATEGORY_VALUES } from '@aidressup/contract';
import { loadConfig } from '../config.js';
import { createEngineDouble } from '../test/engine-double.js';
import { createEngineRegistry } from './registry.js';

describe('engine registry', () => {
  it('enables only the built-in engine on embedded defaults', () => {
    const reg = createEngineRegistry(loadConfig({}));
    expect(reg.list().map((e) => e.id)).toEqual(['local']);
    expect(reg.defaultEngine).toBe('local');
    expect(reg.has('nano-banana')).toBe(false);
  });

  it('makes nano-banana the default when Gemini is configured, unless DEFAULT_ENGINE says otherwise', () => {
    const gemini = createEngineRegistry(loadConfig({ GEMINI_API_KEY: 'k', FASHN_API_KEY: 'f' }));
    expect(gemini.list().map((e) => e.id)).toEqual(['local', 'nano-banana', 'fashn']);
    expect(gemini.defaultEngine).toBe('nano-banana');
    expect(createEngineRegistry(loadConfig({ GEMINI_API_KEY: 'k', DEFAULT_ENGINE: 'local' })).defaultEngine).toBe(
      'local',
    );
  });

  it('uses injected engines instead of configured ones, and creates each once', async () => {
    const double = createEngineDouble({ id: 'double' });
    const reg = createEngineRegistry(loadConfig({}), { double });
    // An engine that declares no categories offers the three clothing ones.
    expect(reg.list()).toEqual([
      { id: 'double', label: double.label, categories: CATEGORY_VALUES, takesWornGarments: false },
    ]);
    expect(reg.defaultEngine).toBe('double');
    expect(await reg.get('double')).toBe(double);
    await expect(reg.get('local')).rejects.toThrow(/not enabled/);
    await reg.warmAll();
    expect(reg.status()).toEqual({ double: { status: 'ok', warmed: true } });
  });

  it('knows which engines dress from a photo of the garment being worn (the built-in one does not)', () => {
    const worn = (env: Record<string, string>) =>
      Object.fromEntries(
        createEngineRegistry(loadConfig(env))
          .list()
          .map((e) => [e.id, e.takesWornGarments]),
      );
    expect(worn({ GEMINI_API_KEY: 'k', FASHN_API_KEY: 'f', FAL_KEY: 'x' })).toEqual({
      local: false,
      'nano-banana': true,
      fashn: true,
      // FASHN's model on fal (the default) documents on-model garment photos; the others do not.
      fal: true,
    });
    expect(worn({ FAL_KEY: 'x', FAL_MODEL: 'fal-ai/leffa/virtual-tryon' })).toEqual({ local: false, fal: false });
    // An engine injected under a known id (a stand-in) takes what that engine takes.
    const injected = createEngineRegistry(loadConfig({}), {
      local: createEngineDouble({ id: 'local' }),
      'nano-banana': createEngineDouble({ id: 'nano-banana' }),
    });
    expect(injected.list().map((e) => [e.id, e.takesWornGarments])).toEqual([
      ['local', false],
      ['nano-banana', true],
    ]);
  });

  it('reports an engine that fails to warm up as down', async () => {
    const double = createEngineDouble({ id: 'broken' });
    double.warm = async () => {
      throw new Error('model missing');
    };
    const reg = createEngineRegistry(loadConfig({}), { broken: double });
    const failures: string[] = [];
    await reg.warmAll((id) => failures.push(id));
    expect(failures).toEqual(['broken']);
    expect(reg.status().broken?.status).toBe('down');
  });
});
