/**
 * What the anonymous sign-in needs and the first page does not: the device id, the device info and
 * the sign-in call. The session provider (hooks/use-session.tsx) imports this module once
 * fingerprinting is due (fingerprint-due.ts), and the device id loads FingerprintJS then, so none
 * of it is among the first page's scripts (e2e/specs/first-paint.spec.ts).
 */
export { getDeviceId } from './device-id';
export { collectDeviceInfo } from '../../../lib/device-info';
export { signInAnonymous } from '../api/sign-in-anonymous';
