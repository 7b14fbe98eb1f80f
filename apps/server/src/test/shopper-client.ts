/**
 * A shopper speaking HTTP to a server started as its own process (the built `dist/server.js`):
 * an anonymous sign-in, a demo purchase, the user's counters, the gallery and a try-on post.
 * Used by the suites that crash, stop or restart real processes (chaos, graceful shutdown).
 */
import { expect } from 'vitest';

export interface ShopperPhotos {
  person: Buffer;
  garment: Buffer;
}

export class ShopperClient {
  cookie = '';
  userId = '';
  /** `photos` is read when a try-on is posted (suites may load them in `beforeAll`). */
  constructor(
    readonly base: string,
    private readonly photos: () => ShopperPhotos,
    private readonly devicePrefix = 'shopper',
  ) {}

  async signIn(): Promise<void> {
    const res = await fetch(`${this.base}/api/auth/anonymous`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        deviceId: `${this.devicePrefix}_${Math.random().toString(36).slice(2, 12)}`,
        deviceInfo: { browser: 'Chrome', os: 'Linux' },
      }),
    });
    expect(res.status).toBe(200);
    this.cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
    this.userId = ((await res.json()) as { user: { id: string } }).user.id;
  }

  async buy(planId: string): Promise<void> {
    const res = await fetch(`${this.base}/api/billing/demo/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: this.cookie },
      body: JSON.stringify({ planId }),
    });
    expect(res.status).toBe(200);
  }

  /** The user's counters, from this server or another one on the same data. */
  async user(base = this.base): Promise<{ credits: number; free_trials_used: number }> {
    const res = await fetch(`${base}/api/auth/user/${this.userId}`, { headers: { cookie: this.cookie } });
    if (res.status !== 200) throw new Error(`user: ${res.status}`);
    return ((await res.json()) as { user: { credits: number; free_trials_used: number } }).user;
  }

  async credits(): Promise<number> {
    return (await this.user()).credits;
  }

  async gallery(): Promise<{ imageUrl: string }[]> {
    const res = await fetch(`${this.base}/api/tryons`, { headers: { cookie: this.cookie } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { items: { imageUrl: string }[] }).items;
  }

  /** Posts a try-on; `signal` gives up waiting for the answer. */
  tryOn(signal?: AbortSignal): Promise<Response> {
    const { person, garment } = this.photos();
    const form = new FormData();
    form.set('userImage', new Blob([new Uint8Array(person)], { type: 'image/jpeg' }), 'me.jpg');
    form.set('clothingImage', new Blob([new Uint8Array(garment)], { type: 'image/jpeg' }), 'shirt.jpg');
    form.set('category', 'upper_body');
    form.set('userId', this.userId);
    return fetch(`${this.base}/api/process-image`, {
      method: 'POST',
      body: form,
      headers: { cookie: this.cookie },
      ...(signal ? { signal } : {}),
    });
  }
}
