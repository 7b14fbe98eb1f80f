import { describe, expect, it } from 'vitest';
import { clipboardFile, pasteTarget } from './use-paste-image';

describe('paste target', () => {
  const card = (empty: boolean) => {
    const element = document.createElement('section');
    const button = document.createElement('button');
    element.append(button);
    document.body.append(element);
    return { element, isEmpty: empty, button };
  };
  it('is the card holding focus, else the first empty card, else none', () => {
    const person = card(false);
    const clothing = card(true);
    expect(pasteTarget([person, clothing], clothing.button)).toBe(clothing);
    expect(pasteTarget([person, clothing], person.button)).toBe(person);
    expect(pasteTarget([person, clothing], document.body)).toBe(clothing);
    expect(pasteTarget([person, { ...clothing, isEmpty: false }], null)).toBeNull();
  });
});

describe('clipboard file', () => {
  it('takes the first file, from files or items', () => {
    const f = new File([new Uint8Array([1])], 'a.png', { type: 'image/png' });
    expect(clipboardFile({ files: [f], items: [] } as unknown as DataTransfer)).toBe(f);
    expect(
      clipboardFile({
        files: [],
        items: [
          { kind: 'string', getAsFile: () => null },
          { kind: 'file', getAsFile: () => f },
        ],
      } as unknown as DataTransfer),
    ).toBe(f);
    expect(clipboardFile({ files: [], items: [] } as unknown as DataTransfer)).toBeNull();
    expect(clipboardFile(null)).toBeNull();
  });
});
