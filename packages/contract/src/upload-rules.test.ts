import { describe, expect, it } from 'vitest';
import { MESSAGES } from './messages.js';
import { claimsAllowedImageType, fileExtension, notAnImageMessage } from './upload-rules.js';

const text = (s: string) => new TextEncoder().encode(s);
const PDF = text('%PDF-1.7\n1 0 obj');
const GIF = text('GIF89a\x01\x00\x01\x00');

describe('fileExtension', () => {
  it('is the last dot’s extension in lower case, or null', () => {
    expect(fileExtension('Holiday.JPG')).toBe('.jpg');
    expect(fileExtension('a.b.webp')).toBe('.webp');
    expect(fileExtension('C:\\photos\\me.png')).toBe('.png');
    expect(fileExtension('photo')).toBeNull();
    expect(fileExtension('.hidden')).toBeNull();
    expect(fileExtension('dot.')).toBeNull();
    expect(fileExtension(undefined)).toBeNull();
  });
});

describe('claimsAllowedImageType', () => {
  it('needs an allowed MIME type and extension, or one of them with the other silent', () => {
    expect(claimsAllowedImageType({ type: 'image/jpeg', name: 'me.jpg' })).toBe(true);
    expect(claimsAllowedImageType({ type: 'image/jpg', name: 'me.jpeg' })).toBe(true);
    expect(claimsAllowedImageType({ type: 'IMAGE/PNG; charset=binary', name: 'me.PNG' })).toBe(true);
    expect(claimsAllowedImageType({ type: 'image/webp', name: 'garment' })).toBe(true);
    expect(claimsAllowedImageType({ type: 'application/octet-stream', name: 'me.webp' })).toBe(true);
    expect(claimsAllowedImageType({ type: 'text/plain', name: 'me.jpg' })).toBe(false);
    expect(claimsAllowedImageType({ type: 'image/jpeg', name: 'notes.txt' })).toBe(false);
    expect(claimsAllowedImageType({ type: 'image/gif', name: 'a.gif' })).toBe(false);
    expect(claimsAllowedImageType({ type: 'application/octet-stream', name: 'blob' })).toBe(false);
    expect(claimsAllowedImageType({})).toBe(false);
  });
});

describe('notAnImageMessage', () => {
  it('gives the specification’s message for a type that is not allowed, by MIME type or by extension', () => {
    expect(notAnImageMessage(text('hello'), { type: 'text/plain', name: 'notes.txt' })).toBe(
      'Unsupported format. Use JPG, PNG or WEBP.',
    );
    expect(notAnImageMessage(text('hello'), { type: 'text/plain', name: 'me.jpg' })).toBe(MESSAGES.unsupportedFormat);
    expect(notAnImageMessage(text('hello'), { type: 'image/jpeg', name: 'notes.txt' })).toBe(
      MESSAGES.unsupportedFormat,
    );
    expect(notAnImageMessage(PDF, { type: 'application/pdf', name: 'cv.pdf' })).toBe(MESSAGES.unsupportedFormat);
  });

  it('gives it for an image in another format whatever it claims to be', () => {
    expect(notAnImageMessage(GIF, { type: 'image/gif', name: 'a.gif' })).toBe(MESSAGES.unsupportedFormat);
    expect(notAnImageMessage(GIF, { type: 'image/jpeg', name: 'a.jpg' })).toBe(MESSAGES.unsupportedFormat);
  });

  it('keeps “not a photo we can read” for a file that claims an allowed type and is not one', () => {
    expect(notAnImageMessage(PDF, { type: 'image/jpeg', name: 'holiday.jpg' })).toBe(
      'This file is not a photo we can read. Use JPG, PNG or WEBP.',
    );
    expect(notAnImageMessage(PDF, { type: 'application/octet-stream', name: 'holiday.webp' })).toBe(MESSAGES.notAPhoto);
    expect(notAnImageMessage(PDF, { type: 'image/png', name: 'garment' })).toBe(MESSAGES.notAPhoto);
  });
});
