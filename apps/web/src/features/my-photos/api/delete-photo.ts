import { WEB_MESSAGES } from '@aidressup/contract';
import { apiRequest, loadResponseSchemas } from '../../../lib/api-client';

/** DELETE /api/photos/:id: deletes one of the user's kept photos. */
export async function deletePhoto(id: string): Promise<void> {
  await apiRequest(
    `/api/photos/${encodeURIComponent(id)}`,
    loadResponseSchemas().then((s) => s.DeletePhotoResponseSchema),
    {
      method: 'DELETE',
      fallbackError: WEB_MESSAGES.deletePhotoFailed,
    },
  );
}
