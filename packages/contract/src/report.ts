/** A shopper's report of a bad result: its reasons and states (the gallery shows them; see admin.ts). */
import { z } from 'zod';

export const REPORT_REASONS = ['wrong_garment', 'body_or_face_changed', 'badly_placed', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const REPORT_STATUSES = ['pending', 'refunded', 'rejected'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** A gallery item's report, when it has one. */
export const TryOnReportStateSchema = z.object({ status: z.enum(REPORT_STATUSES), reason: z.enum(REPORT_REASONS) });
export type TryOnReportState = z.infer<typeof TryOnReportStateSchema>;
