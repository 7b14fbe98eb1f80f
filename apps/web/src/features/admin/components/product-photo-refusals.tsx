import type { ProductPhotoRefusal, ProductPhotoRefusalCode } from '@aidressup/contract';
import { formatDateTime, formatNumber } from '../utils/format';
import { Panel, TableScroll, tdClass, thClass } from './admin-ui';

/** Why the widget could not use a shop's garment image, in the operator's words. */
const REASON: Record<ProductPhotoRefusalCode, string> = {
  GARMENT_WORN: 'Shows the garment being worn',
  GARMENT_NOT_SEPARABLE: 'Garment not separable from its background',
  UNSUPPORTED_FORMAT: 'Not a JPG, PNG or WEBP',
  IMAGE_UNREADABLE: 'Image could not be read',
  IMAGE_TOO_MANY_PIXELS: 'Over 40 megapixels',
  IMAGE_TOO_SMALL: 'Too small',
};

const COLUMNS = ['Product photo', 'SHA-256', 'Reason', 'Refusals', 'Last refused'] as const;

/**
 * A merchant's garment images the widget refused (its shoppers were told the product cannot be
 * previewed there, and nothing was charged), the most refused first, so the shop can replace them.
 */
export function ProductPhotoRefusals({ items }: { items: ProductPhotoRefusal[] }) {
  return (
    <Panel title="Product photos refused (last 30 days)">
      {items.length === 0 ? (
        <p className="text-sm text-ink-600">No product photo was refused.</p>
      ) : (
        <>
          <p className="mb-3 text-sm text-ink-700">
            Shoppers were told these products cannot be previewed here; nothing was charged. A photo of the garment on
            its own (laid flat, on a hanger or a ghost mannequin) works.
          </p>
          <TableScroll label="Product photos refused">
            <table className="w-full min-w-[40rem] border-collapse" data-testid="merchant-refused-photos">
              <thead>
                <tr className="border-b border-ink-200">
                  {COLUMNS.map((c) => (
                    <th key={c} scope="col" className={thClass}>
                      {c}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {items.map((r) => (
                  <tr key={`${r.garmentSha256}:${r.code}`} className="border-b border-ink-100">
                    <td className={`${tdClass} font-mono text-xs break-all`}>{r.garmentUrl ?? 'Address not given'}</td>
                    <td className={`${tdClass} font-mono text-xs`} title={r.garmentSha256}>
                      {r.garmentSha256.slice(0, 12)}…
                    </td>
                    <td className={tdClass}>{REASON[r.code]}</td>
                    <td className={`${tdClass} tabular-nums`}>{formatNumber(r.refusals)}</td>
                    <td className={`${tdClass} whitespace-nowrap`}>{formatDateTime(r.lastRefusedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </>
      )}
    </Panel>
  );
}
