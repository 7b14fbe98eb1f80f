import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, it } from 'vitest';
import rule from './no-literal-ui-text.js';

RuleTester.describe = describe;
RuleTester.it = it;

const tester = new RuleTester({
  languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } },
});

tester.run('no-literal-ui-text', rule, {
  valid: [
    { code: 'const a = <p>{t("home.title")}</p>;' },
    { code: 'const a = <button aria-label={t("nav.open")} className="px-2 text-sm" />;' },
    { code: 'const a = <span>{count} · {price}</span>;' },
    { code: 'const a = <b>AI Dress Up</b>;', options: [{ allow: ['AI Dress Up'] }] },
    { code: 'const a = <title>{`${title} · AI Dress Up`}</title>;', options: [{ allow: ['AI Dress Up'] }] },
    { code: 'const a = <svg><path d="M4 7h16" /></svg>;' },
    { code: 'const a = <input type="email" autoComplete="email" data-testid="email-input" />;' },
  ],
  invalid: [
    { code: 'const a = <p>Upload a photo</p>;', errors: [{ messageId: 'text' }] },
    { code: 'const a = <a aria-label="AI Dress Up, home" />;', options: [{ allow: ['AI Dress Up'] }], errors: 1 },
    { code: 'const a = <button aria-label="Close menu" />;', errors: [{ messageId: 'text' }] },
    { code: 'const a = <img alt={ok ? "Result" : "Before"} />;', errors: 2 },
    { code: 'const a = <p>{busy ? "Loading…" : name}</p>;', errors: 1 },
    { code: 'const a = <input placeholder={`you@example.com`} title="Your email" />;', errors: 2 },
  ],
});
