/**
 * Row types of the database (kept separate from the API types of the contract).
 * Timestamps are ISO-8601 UTC strings (`Date#toISOString()`), which sort correctly as text
 * on both SQLite and PostgreSQL. JSON columns hold JSON text.
 */
import type { Selectable } from 'kysely';

export type GrantSource = 'demo' | 'paddle' | 'admin';
export type CreditEventType =
  | 'grant'
  | 'spend'
  | 'refund'
  | 'expire'
  | 'clawback'
  | 'trial_spend'
  | 'trial_refund'
  /** Credits leaving an anonymous user merged into an account (-N) and arriving there (+N). */
  | 'transfer_out'
  | 'transfer_in'
  /** Unspent credits given up when the person deleted their data (-N). */
  | 'forfeit'
  /** Credits an operator took back (-N), with the reason as note and the operator as actor. */
  | 'admin_remove';
type TryOnStatus = 'processing' | 'succeeded' | 'failed';
export type TryOnCharge = 'trial' | 'credit';

interface UsersTable {
  /** Unguessable random id (21 characters of base64url). */
  id: string;
  /** The device the user was created on: a signal that limits free trials, never a key. Null once deleted. */
  device_id: string | null;
  /** JSON text of the validated device info. */
  device_info: string;
  free_trials_used: number;
  created_at: string;
  last_seen_at: string;
  signup_ip_hash: string | null;
  subscription_id: string | null;
  subscription_status: string | null;
  subscription_plan_id: string | null;
  subscription_period_end: string | null;
  /** When the provider says the subscription last changed (Paddle's occurred_at); older events are ignored. */
  subscription_updated_at: string | null;
  /** Lower-case email of an account signed in by email; unique; null while anonymous. */
  email: string | null;
  /** Why the user started without free trials: 'device' or 'network'; null otherwise. */
  free_trials_withheld: string | null;
  /** The account this anonymous user was merged into at email sign-in. */
  merged_into: string | null;
  /** When the person deleted their data; the row stays (without personal data) for the ledger. */
  deleted_at: string | null;
  /** Paddle's customer id (ctm_…), for the customer portal. */
  paddle_customer_id: string | null;
  /** When an operator blocked the account; null when it is not blocked. */
  blocked_at: string | null;
}

/** Free trials spent on one device, by all of its users. */
interface DevicesTable {
  device_id: string;
  free_trials_used: number;
  created_at: string;
}

/** New users per (hashed) client address and UTC day. */
interface IpSignupsTable {
  ip_hash: string;
  day: string;
  count: number;
}

interface SessionsTable {
  /** SHA-256 of the session token (the cookie holds the token; the database never does). */
  id: string;
  user_id: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  /**
   * The cookie name the session was issued under (`aidu_session`, or `__Host-aidu_session` over
   * https); null for sessions issued before the name was recorded.
   */
  cookie_name: string | null;
  /** When this session signed in by email (operator routes need it recent); null for anonymous sessions. */
  email_signed_in_at: string | null;
}

interface EmailCodesTable {
  id: string;
  email: string;
  /** HMAC of the 6-digit code with the server secret. */
  code_hash: string;
  /** SHA-256 of the magic link's token. */
  token_hash: string;
  /** Codes tried from the client address that asked for the code; at 5 it is dead for that address. */
  attempts: number;
  /** Codes tried from any other client address; at 5 it is dead for all of them. */
  stranger_attempts: number;
  /** Keyed hash of the client address that asked for the code (null: codes from before it was kept). */
  requester: string | null;
  /** The address with its `+tag` removed, for the mail allowance. */
  mailbox: string | null;
  /** SHA-256 of the nonce in the asking browser's cookie (null: codes from before migration 013). */
  binding_hash: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** One wrong sign-in code: counted per client address and per email address. */
interface SignInFailuresTable {
  id: string;
  email: string;
  /** Keyed hash of the client address. */
  client: string;
  /** 1 when the client address had not asked for a code for this email (0 otherwise). */
  stranger: number;
  created_at: string;
}

interface CreditGrantsTable {
  id: string;
  user_id: string;
  source: GrantSource;
  plan_id: string | null;
  amount: number;
  remaining: number;
  /** null: never expires. */
  expires_at: string | null;
  /** Paddle transaction id or a demo reference; unique, so a purchase is granted once. */
  external_ref: string | null;
  created_at: string;
  /** What was paid, as a decimal string in `currency`; null when unknown. */
  amount_paid: string | null;
  currency: string | null;
}

interface CreditEventsTable {
  id: string;
  user_id: string;
  grant_id: string | null;
  tryon_id: string | null;
  type: CreditEventType;
  /**
   * Signed change: credits for grant (+N), spend (-1), refund (+1), expire (-N), clawback (-N);
   * free trials left for trial_spend (-1) and trial_refund (+1).
   */
  amount: number;
  created_at: string;
  note: string | null;
  /** The operator who made a manual change (admin grant or removal); null otherwise. */
  actor_id: string | null;
}

interface TryOnsTable {
  id: string;
  user_id: string;
  category: string;
  engine: string;
  status: TryOnStatus;
  charge: TryOnCharge;
  grant_id: string | null;
  result_name: string | null;
  error_code: string | null;
  created_at: string;
  finished_at: string | null;
  /** When the result is deleted (30 days after creation). */
  expires_at: string;
  /** The process (`processes.id`) running this try-on while it is `processing`; null for rows from before owners. */
  owner_id: string | null;
  /** The result's name, written just before the result is stored: after a crash, a stored result completes the row. */
  staged_result: string | null;
  /** A whole outfit's second unit: the main try-on this companion row settles with; null otherwise. */
  bundle_of: string | null;
  /** While the result is shared: the unguessable token of its public page (`/s/{token}`). */
  share_token: string | null;
  shared_at: string | null;
  /**
   * A quick preview's photos kept for "Make it photo-real": JSON text of their storage keys
   * (`{person, garment, lower?}`, under `uploads/`); null when none are kept.
   */
  kept_photos: string | null;
  /** Until when those photos are kept (they are deleted then); null when none are kept. */
  photos_until: string | null;
  /** The engine the try-on was asked of, when another one made it (ENGINE_FALLBACK); null otherwise. */
  requested_engine: string | null;
  /** What the engine charged for it, in millionths of the plans' currency (null: not recorded). */
  cost_micros: number | null;
  /**
   * When this unit's cost (its free trial or credit) was given back: by a failure's refund or a
   * report's; null while it stays spent. Set only by a guarded update, so at most once.
   */
  refunded_at: string | null;
}

/** A running API or worker process, for crash recovery: it refreshes `heartbeat_at` while alive. */
interface ProcessesTable {
  id: string;
  kind: 'api' | 'worker';
  host: string;
  pid: number;
  started_at: string;
  heartbeat_at: string;
}

interface BillingEventsTable {
  id: string;
  provider: string;
  event_id: string;
  event_type: string;
  occurred_at: string | null;
  /** JSON text of the verified payload. */
  payload: string;
  processed_at: string | null;
  created_at: string;
}

export type ReportStatus = 'pending' | 'refunded' | 'rejected';

/** A shopper's report of a bad result: refunded at once within the monthly allowance, else decided by an operator. */
interface TryOnReportsTable {
  id: string;
  /** The reported try-on (unique: one report per try-on); no foreign key, the report outlives a deleted try-on. */
  tryon_id: string;
  user_id: string;
  reason: string;
  note: string | null;
  status: ReportStatus;
  /** JSON text of `ReportUnit[]`: each unit's charge and grant, so a refund needs no try-on row. */
  units: string;
  created_at: string;
  decided_at: string | null;
  /** The operator who decided; null for an automatic refund or while pending. */
  decided_by: string | null;
  decision_note: string | null;
}

/**
 * The operator audit log: append-only (rows are inserted, never updated or deleted, except that
 * deleting an account blanks the personal data in rows about it).
 */
interface AuditLogTable {
  id: string;
  created_at: string;
  actor_id: string | null;
  actor_email: string | null;
  action: string;
  target_type: string;
  target_id: string;
  /** The user the action concerns (for the user's page and for deletion). */
  target_user_id: string | null;
  reason: string | null;
  /** JSON text of the values before and after, or null. */
  before: string | null;
  after: string | null;
}

/** The operator console's statistics of a closed UTC day, computed once (JSON text of the day's figures). */
interface AdminDailyStatsTable {
  day: string;
  data: string;
  computed_at: string;
}

/** A shop using the "Try it on" widget (docs/embed.md). Its credits are its ledger account's (`user_id`). */
interface MerchantsTable {
  id: string;
  name: string;
  /** The merchant's own ledger account: a bare user that never signs in. */
  user_id: string;
  /** pk_…: public by design. */
  publishable_key: string;
  /** SHA-256 of the secret key (sk_…), which is shown once. */
  secret_key_hash: string;
  /** JSON text: the origins allowed to frame the widget and open embed sessions. */
  allowed_origins: string;
  billing: 'merchant';
  daily_limit: number;
  shopper_daily_limit: number;
  /** Since when try-ons were refused for want of credits; null once credits were added. */
  out_of_credits_at: string | null;
  refused_no_credits: number;
  created_at: string;
  keys_rotated_at: string | null;
}

/** A shopper's short-lived embed session (the token's SHA-256 only). */
interface EmbedSessionsTable {
  id: string;
  merchant_id: string;
  token_hash: string;
  /** The shop page's origin the session is bound to. */
  origin: string;
  /** Keyed hash of the shopper's address (the per-shopper daily cap). */
  shopper_hash: string;
  created_at: string;
  expires_at: string;
}

/** A try-on made through the widget: its merchant, session and UTC day (caps and usage). */
export interface EmbedTryOnsTable {
  tryon_id: string;
  merchant_id: string;
  session_id: string;
  shopper_hash: string;
  day: string;
  created_at: string;
}

/** My photos: a person photo a shopper keeps for later try-ons; its files are sealed (storage/sealed-store.ts). */
interface KeptPhotosTable {
  id: string;
  user_id: string;
  /** 'pending' while its files are written, then 'kept'. */
  status: 'pending' | 'kept';
  photo_key: string;
  thumbnail_key: string;
  /** The built-in engine's analysis of the photo; null until made (it is made again when missing). */
  analysis_key: string | null;
  /** The normalised photo's type: image/jpeg or image/png. */
  mime_type: string;
  width: number;
  height: number;
  /** The id of the key that sealed the files. */
  key_id: string;
  created_at: string;
  last_used_at: string;
}

/**
 * Refusals of a shop's own garment photos in the widget, counted per merchant, garment image
 * (SHA-256 of its bytes, base64url), reason and UTC day. No shopper data.
 */
interface ProductPhotoRefusalsTable {
  merchant_id: string;
  garment_sha256: string;
  /** The refusal's code (`PRODUCT_PHOTO_REFUSAL_CODES`). */
  code: string;
  day: string;
  /** The image's address in the shop's page, when the widget told it (the latest one). */
  garment_url: string | null;
  refusals: number;
  last_at: string;
}

export interface Database {
  users: UsersTable;
  credit_grants: CreditGrantsTable;
  credit_events: CreditEventsTable;
  tryons: TryOnsTable;
  billing_events: BillingEventsTable;
  devices: DevicesTable;
  ip_signups: IpSignupsTable;
  sessions: SessionsTable;
  email_codes: EmailCodesTable;
  sign_in_failures: SignInFailuresTable;
  processes: ProcessesTable;
  tryon_reports: TryOnReportsTable;
  audit_log: AuditLogTable;
  admin_daily_stats: AdminDailyStatsTable;
  merchants: MerchantsTable;
  embed_sessions: EmbedSessionsTable;
  embed_tryons: EmbedTryOnsTable;
  person_photos: KeptPhotosTable;
  product_photo_refusals: ProductPhotoRefusalsTable;
}

export type UserRow = Selectable<UsersTable>;
export type CreditGrantRow = Selectable<CreditGrantsTable>;
export type CreditEventRow = Selectable<CreditEventsTable>;
export type TryOnRow = Selectable<TryOnsTable>;
export type KeptPhotoRow = Selectable<KeptPhotosTable>;
export type BillingEventRow = Selectable<BillingEventsTable>;
export type SessionRow = Selectable<SessionsTable>;
export type EmailCodeRow = Selectable<EmailCodesTable>;
export type ProcessRow = Selectable<ProcessesTable>;
export type TryOnReportRow = Selectable<TryOnReportsTable>;
export type AuditLogRow = Selectable<AuditLogTable>;
export type MerchantRow = Selectable<MerchantsTable>;
export type EmbedSessionRow = Selectable<EmbedSessionsTable>;
