import { MESSAGES, type AuthResponse, type DeviceInfo } from '@aidressup/contract';
import { apiRequest, loadResponseSchemas } from '../../../lib/api-client';

/** POST /api/auth/anonymous: find-or-create the user of this device. */
export function signInAnonymous(deviceId: string, deviceInfo: DeviceInfo): Promise<AuthResponse> {
  return apiRequest(
    '/api/auth/anonymous',
    loadResponseSchemas().then((s) => s.AuthResponseSchema),
    {
      method: 'POST',
      json: { deviceId, deviceInfo },
      fallbackError: MESSAGES.authFailed,
    },
  );
}
