import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '@lingui/core';
import { ENGINE_ESTIMATE_SECONDS, MESSAGES } from '@aidressup/contract';
import {
  defaultOfferedEngine,
  engineEstimate,
  engineKind,
  estimatedProgress,
  estimateNote,
  firstHostedEngine,
  offeredEngines,
  stageLabel,
} from './progress-copy';
import { activateLocale } from '../../../i18n/i18n';
import type { Translate } from '../../../i18n/use-t';

const t: Translate = (id, values) => i18n._(id, values);

describe('engine kind and estimate', () => {
  it('takes the server’s kind, else knows the built-in engine by its id', () => {
    expect(engineKind({ id: 'x', kind: 'local' })).toBe('local');
    expect(engineKind({ id: 'local' })).toBe('local');
    expect(engineKind({ id: 'nano-banana' })).toBe('hosted');
    expect(engineKind(undefined)).toBe('hosted');
  });
  it('takes the engine’s estimate, else the contract’s for its kind', () => {
    expect(engineEstimate({ id: 'local', label: 'Built-in', estimateSeconds: { min: 2, max: 8 } })).toEqual({
      min: 2,
      max: 8,
    });
    expect(engineEstimate({ id: 'local', label: 'Built-in' })).toEqual(ENGINE_ESTIMATE_SECONDS.local);
    expect(engineEstimate({ id: 'fashn', label: 'FASHN' })).toEqual(ENGINE_ESTIMATE_SECONDS.hosted);
  });
  it('finds the first hosted engine', () => {
    const engines = [
      { id: 'local', label: 'Built-in', kind: 'local' as const },
      { id: 'fashn', label: 'FASHN', kind: 'hosted' as const },
    ];
    expect(firstHostedEngine({ engines })?.label).toBe('FASHN');
    expect(firstHostedEngine({ engines: engines.slice(0, 1) })).toBeUndefined();
  });
  it('never offers an engine health says is down: the default falls back to the next one up', () => {
    const engines = [
      { id: 'local', label: 'Built-in', kind: 'local' as const, status: 'ok' as const },
      { id: 'vertex-tryon', label: 'Google', kind: 'hosted' as const, status: 'down' as const },
      { id: 'replicate', label: 'Replicate', kind: 'hosted' as const, status: 'degraded' as const },
    ];
    expect(offeredEngines({ engines }).map((e) => e.id)).toEqual(['local', 'replicate']);
    expect(defaultOfferedEngine({ engines, defaultEngine: 'vertex-tryon' })).toBe('replicate');
    expect(defaultOfferedEngine({ engines, defaultEngine: 'local' })).toBe('local');
    expect(firstHostedEngine({ engines })?.id).toBe('replicate');
    const allHostedDown = engines.map((e) => (e.id === 'replicate' ? { ...e, status: 'down' as const } : e));
    expect(defaultOfferedEngine({ engines: allHostedDown, defaultEngine: 'vertex-tryon' })).toBe('local');
    expect(offeredEngines(null)).toEqual([]);
  });
});

describe('estimate note', () => {
  it('keeps the spec’s words for hosted engines', () => {
    expect(estimateNote(t, 'hosted', { min: 30, max: 60 })).toBe(MESSAGES.processingNote);
    expect(estimateNote(t, 'hosted', { min: 5, max: 10 })).toBe(MESSAGES.processingNote);
  });
  it('gives a hosted engine’s own estimate when it is longer (FASHN’s Try-On Max)', () => {
    expect(estimateNote(t, 'hosted', { min: 50, max: 120 })).toBe('Usually ready in 50-120 seconds.');
  });
  it('says seconds for the built-in engine', () => {
    expect(estimateNote(t, 'local', ENGINE_ESTIMATE_SECONDS.local)).toBe('Usually ready in a few seconds.');
    expect(estimateNote(t, 'local', { min: 5, max: 20 })).toBe('Usually ready in 5-20 seconds.');
    expect(estimateNote(t, 'local', { min: 20, max: 20 })).toBe('Usually ready in about 20 seconds.');
  });

  describe('in other languages', () => {
    afterEach(() => activateLocale('en'));
    it('translates the estimate with the language’s plurals', async () => {
      await activateLocale('es');
      expect(estimateNote(t, 'local', { min: 20, max: 20 })).toBe('Suele estar listo en unos 20 segundos.');
      expect(estimateNote(t, 'local', { min: 5, max: 20 })).toBe('Suele estar listo en 5-20 segundos.');
      expect(stageLabel(t, 'fitting')).toBe('Ajustando la prenda…');
      await activateLocale('ar');
      expect(estimateNote(t, 'local', { min: 20, max: 20 })).toBe('يكون جاهزًا عادةً خلال 20 ثانية تقريبًا.');
      expect(estimateNote(t, 'local', { min: 1, max: 3 })).toBe('يكون جاهزًا عادةً خلال ثوانٍ قليلة.');
    });
  });
});

describe('stages and the bar', () => {
  it('names each stage in words', () => {
    expect(stageLabel(t, 'queued')).toBe('Waiting for a free engine…');
    expect(stageLabel(t, 'reading')).toBe('Reading your photos…');
    expect(stageLabel(t, 'fitting')).toBe('Fitting the garment…');
    expect(stageLabel(t, 'finishing')).toBe('Finishing…');
    expect(stageLabel(t, 'failed')).toBeNull();
  });
  it('moves with the estimate, never past 95 %, never below the stage’s floor', () => {
    expect(estimatedProgress(0)).toBe(3);
    expect(estimatedProgress(25_000)).toBeGreaterThan(55);
    expect(estimatedProgress(10 * 60_000)).toBe(95);
    expect(estimatedProgress(3_000, { min: 1, max: 5 })).toBeGreaterThan(75);
    expect(estimatedProgress(0, { min: 30, max: 60 }, 'fitting')).toBe(30);
  });
});
