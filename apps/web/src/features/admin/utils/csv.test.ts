import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from './csv';

describe('CSV', () => {
  it('writes plain text and numbers as they are', () => {
    expect(csvField('alice@example.com')).toBe('alice@example.com');
    expect(csvField(42)).toBe('42');
    expect(csvField(-3)).toBe('-3');
    expect(csvField(true)).toBe('true');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(Number.NaN)).toBe('');
  });

  it('quotes fields with commas, quotes, line breaks or edge spaces, doubling the quotes', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\r\nlf')).toBe('"cr\r\nlf"');
    expect(csvField(' padded')).toBe('" padded"');
    expect(csvField('"')).toBe('""""');
  });

  it('keeps text a spreadsheet would run as a formula as text', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-2')).toBe("'-2");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\tx')).toBe("'\tx");
  });

  it('joins rows with CRLF after a header', () => {
    expect(
      toCsv(
        ['id', 'reason', 'amount'],
        [
          ['e1', 'goodwill, after "ticket 7"', 5],
          ['e2', null, -1],
        ],
      ),
    ).toBe('id,reason,amount\r\ne1,"goodwill, after ""ticket 7""",5\r\ne2,,-1\r\n');
  });
});
