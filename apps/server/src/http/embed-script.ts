/// <reference lib="dom" />
/**
 * GET /embed.js, the "Try it on" script a shop adds to its pages (docs/embed.md). No framework,
 * no cookies, no storage. It is written here as one self-contained function (type-checked and
 * linted like the rest) and served as its source text, so it must not use anything from outside
 * its body.
 *
 * What it does in the shop's page: any element with `data-aidressup-garment="<image URL>"`
 * (optionally `data-aidressup-category`) opens an accessible overlay (a modal dialog: focus kept
 * inside, Escape closes, focus returns to the opener) holding an iframe of `APP/embed?key=pk_…`.
 * The script fetches the garment image in the page (the shop's own image: the server never
 * fetches a URL it is given) and posts its bytes (with its address, which is only recorded when the
 * image is refused) to the frame, to our exact origin only. The
 * frame answers `aidressup:result` (no image, no personal data); the script also fires it as a
 * DOM event `aidressup:result` on `document`. `window.AIDressUp.open({ garmentImage, category })`
 * and `window.AIDressUp.close()` do the same from code.
 */

interface OpenOptions {
  garmentImage: string;
  category?: string | undefined;
}

/* The script's body: runs in the shop's page. */
function aiDressUpEmbed(): void {
  const w = window as unknown as Window & { AIDressUp?: { open(o: OpenOptions): void; close(): void } };
  if (w.AIDressUp) return;
  const current = (document.currentScript ??
    document.querySelector('script[src*="/embed.js"]')) as HTMLScriptElement | null;
  if (!current) return;
  const app = new URL(current.src, location.href).origin;
  const key = current.getAttribute('data-key') ?? '';
  const lang = (document.documentElement.lang || navigator.language || 'en').slice(0, 10);
  const closeLabels: Record<string, string> = {
    en: 'Close',
    de: 'Schließen',
    fr: 'Fermer',
    es: 'Cerrar',
    pt: 'Fechar',
    ar: 'إغلاق',
  };
  const titleLabels: Record<string, string> = {
    en: 'Try it on',
    de: 'Anprobieren',
    fr: 'Essayer',
    es: 'Pruébatelo',
    pt: 'Experimentar',
    ar: 'جرّبه',
  };
  const base = lang.toLowerCase().split('-')[0] ?? 'en';
  const closeLabel = closeLabels[base] ?? 'Close';
  const titleLabel = titleLabels[base] ?? 'Try it on';

  let overlay: HTMLDivElement | null = null;
  let frame: HTMLIFrameElement | null = null;
  let closer: HTMLButtonElement | null = null;
  let opener: Element | null = null;
  let garment: Promise<{ bytes: ArrayBuffer; type: string; url: string } | null> | null = null;
  let category = '';
  let previousOverflow = '';

  const el = <K extends keyof HTMLElementTagNameMap>(tag: K, css: string): HTMLElementTagNameMap[K] => {
    const node = document.createElement(tag);
    node.style.cssText = css;
    return node;
  };

  function close(): void {
    if (!overlay) return;
    overlay.remove();
    overlay = null;
    frame = null;
    closer = null;
    garment = null;
    document.documentElement.style.overflow = previousOverflow;
    document.removeEventListener('keydown', onKey, true);
    document.removeEventListener('focusin', onFocusIn, true);
    if (opener instanceof HTMLElement) opener.focus();
    opener = null;
  }

  function onKey(event: KeyboardEvent): void {
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    }
  }

  /** Focus that leaves the dialog comes back to it. */
  function onFocusIn(event: FocusEvent): void {
    if (overlay && event.target instanceof Node && !overlay.contains(event.target)) closer?.focus();
  }

  function sentinel(onFocus: () => void): HTMLSpanElement {
    const s = el('span', 'position:absolute;width:1px;height:1px;overflow:hidden');
    s.tabIndex = 0;
    s.addEventListener('focus', onFocus);
    return s;
  }

  function open(options: OpenOptions, from?: Element | null): void {
    if (overlay) close();
    opener = from ?? document.activeElement;
    category = options.category ?? '';
    const url = new URL(options.garmentImage, location.href).href;
    garment = fetch(url)
      .then((r) => (r.ok ? r.blob() : Promise.reject(new Error(String(r.status)))))
      .then(async (b) => ({ bytes: await b.arrayBuffer(), type: b.type, url }))
      .catch(() => null);

    overlay = el(
      'div',
      'position:fixed;inset:0;z-index:2147483647;background:rgba(15,12,30,.6);display:flex;align-items:center;justify-content:center;padding:12px;box-sizing:border-box',
    );
    overlay.setAttribute('data-aidressup-overlay', '');
    const dialog = el(
      'div',
      'position:relative;width:100%;max-width:960px;height:100%;max-height:760px;background:#fff;border-radius:16px;overflow:hidden;box-shadow:0 20px 60px rgba(0,0,0,.35)',
    );
    dialog.setAttribute('role', 'dialog');
    dialog.setAttribute('aria-modal', 'true');
    dialog.setAttribute('aria-label', titleLabel);
    closer = el(
      'button',
      'position:absolute;top:8px;inset-inline-end:8px;z-index:1;width:40px;height:40px;border:0;border-radius:999px;background:#fff;color:#1e1b2e;font:24px/40px system-ui,sans-serif;cursor:pointer;box-shadow:0 1px 4px rgba(0,0,0,.25)',
    );
    closer.type = 'button';
    closer.setAttribute('aria-label', closeLabel);
    closer.textContent = '×';
    closer.addEventListener('click', close);
    frame = el('iframe', 'width:100%;height:100%;border:0;display:block');
    frame.title = titleLabel;
    frame.allow = 'camera';
    frame.src = `${app}/embed?key=${encodeURIComponent(key)}&lang=${encodeURIComponent(lang)}`;
    dialog.append(closer, frame);
    overlay.append(
      sentinel(() => frame?.focus()),
      dialog,
      sentinel(() => closer?.focus()),
    );
    overlay.addEventListener('click', (event) => {
      if (event.target === overlay) close();
    });
    previousOverflow = document.documentElement.style.overflow;
    document.documentElement.style.overflow = 'hidden';
    document.body.append(overlay);
    document.addEventListener('keydown', onKey, true);
    document.addEventListener('focusin', onFocusIn, true);
    closer.focus();
  }

  window.addEventListener('message', (event: MessageEvent) => {
    if (event.origin !== app || !frame || event.source !== frame.contentWindow) return;
    const type = (event.data as { type?: unknown } | null)?.type;
    if (type === 'aidressup:ready' && garment) {
      const target = frame.contentWindow;
      void garment.then((g) => {
        if (!target || !frame || target !== frame.contentWindow) return;
        if (!g) target.postMessage({ type: 'aidressup:garment-error' }, app);
        else {
          // A copy each time: the frame may ask again (reloaded), and a sent buffer is gone.
          const image = g.bytes.slice(0);
          target.postMessage({ type: 'aidressup:garment', image, mime: g.type, url: g.url, category }, app, [image]);
        }
      });
    } else if (type === 'aidressup:close') close();
    else if (type === 'aidressup:result') document.dispatchEvent(new CustomEvent('aidressup:result'));
  });

  document.addEventListener('click', (event) => {
    const target = event.target instanceof Element ? event.target.closest('[data-aidressup-garment]') : null;
    if (!target) return;
    event.preventDefault();
    open(
      {
        garmentImage: target.getAttribute('data-aidressup-garment') ?? '',
        category: target.getAttribute('data-aidressup-category') ?? undefined,
      },
      target,
    );
  });

  w.AIDressUp = { open: (o: OpenOptions) => open(o), close };
}

/**
 * The script as served: the function's source, called once, in a scope of its own. Run from
 * source (tsx, Vitest), esbuild keeps function names by wrapping nested functions in `__name(…)`;
 * that helper is defined here for them (it returns the function), so the source works either way.
 */
export const EMBED_SCRIPT = `/*! AI Dress Up "Try it on" widget: docs/embed.md */\n(function () {\nvar __name = function (f) { return f; };\n(${aiDressUpEmbed.toString()})();\n})();\n`;
