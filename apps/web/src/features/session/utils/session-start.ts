/**
 * What the anonymous sign-in needs and the first page does not: the device id (FingerprintJS
 * itself is loaded later still, when fingerprinting is due: device-id.ts), the device info and
 * the sign-in call. The session provider (hooks/use-session.tsx) imports this module after the
 * first render, so none of it is among the first page's scripts (e2e/specs/first-paint.spec.ts).
 */
export { getDeviceId } from './device-id';
export { collectDeviceInfo } from '../../../lib/device-info';
export { signInAnonymous } from '../api/sign-in-anonymous';
