/** Test images generated with sharp, and multipart bodies for `app.inject`. */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import sharp from 'sharp';

export async function jpeg(width = 320, height = 480, color = '#3366cc'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

export async function png(width = 300, height = 300, color = '#ffffff'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: color } })
    .png()
    .toBuffer();
}

/** A photo-like noisy JPEG (hard to compress), e.g. for a ~3 MB upload. */
export async function noisyJpeg(width: number, height: number, quality = 92): Promise<Buffer> {
  const raw = randomBytes(width * height * 3);
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .jpeg({ quality })
    .toBuffer();
}

/** A JPEG whose EXIF says "rotate 90° clockwise" (orientation 6). */
export async function rotatedJpegWithExif(width = 400, height = 200): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#aa5500' } })
    .withMetadata({ orientation: 6, exif: { IFD0: { Copyright: 'test', Artist: 'someone' } } })
    .jpeg()
    .toBuffer();
}

export async function gif(): Promise<Buffer> {
  return sharp({ create: { width: 20, height: 20, channels: 3, background: '#ff0000' } })
    .gif()
    .toBuffer();
}

/** A valid JPEG cut short. */
export async function truncatedJpeg(): Promise<Buffer> {
  const full = await noisyJpeg(300, 300);
  return full.subarray(0, Math.floor(full.length * 0.6));
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(td) >>> 0);
  return Buffer.concat([len, td, crc]);
}

/** A PNG that claims to be width×height (a decompression bomb's header) with almost no data. */
export function pngHeaderOnly(width = 30000, height = 30000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  const idat = zlib.deflateSync(Buffer.alloc(64));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export interface FilePart {
  data: Buffer;
  filename?: string;
  contentType?: string;
}

/** Builds a multipart/form-data body. */
export function multipart(fields: Record<string, string | FilePart | undefined>): {
  payload: Buffer;
  headers: Record<string, string>;
} {
  const boundary = `----aidressup${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (typeof value === 'string') {
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
    } else {
      parts.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.filename ?? 'photo.jpg'}"\r\nContent-Type: ${value.contentType ?? 'image/jpeg'}\r\n\r\n`,
        ),
        value.data,
        Buffer.from('\r\n'),
      );
    }
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** POSTs a multipart form (`multipart`'s fields) with the session cookie, as the page does. */
export function postMultipart(
  app: FastifyInstance,
  url: string,
  fields: Record<string, string | FilePart | undefined>,
  cookie?: string,
): Promise<LightMyRequestResponse> {
  const body = multipart(fields);
  return app.inject({
    method: 'POST',
    url,
    headers: { ...body.headers, ...(cookie !== undefined ? { cookie } : {}) },
    payload: body.payload,
  });
}
