import { WEB_MESSAGES, type KeptPhoto } from '@aidressup/contract';
import { apiRequest, loadResponseSchemas } from '../../../lib/api-client';

/** POST /api/photos (multipart `photo`): keeps a person photo for later try-ons. */
export async function keepPhoto(photo: File): Promise<KeptPhoto> {
  const form = new FormData();
  form.append('photo', photo);
  const res = await apiRequest(
    '/api/photos',
    loadResponseSchemas().then((s) => s.KeepPhotoResponseSchema),
    {
      method: 'POST',
      body: form,
      fallbackError: WEB_MESSAGES.keepPhotoFailed,
    },
  );
  return res.photo;
}
