import { WEB_MESSAGES } from '@aidressup/contract';

/**
 * Why Try with AI sent nothing for want of a photo: the specification's 'Please upload both
 * photos!', then which photo is missing (null: both are there).
 */
export function missingPhotosNotice(hasPerson: boolean, hasClothing: boolean): string | null {
  if (hasPerson && hasClothing) return null;
  if (!hasPerson && !hasClothing) return WEB_MESSAGES.uploadBothMissing;
  return hasPerson ? WEB_MESSAGES.uploadClothingMissing : WEB_MESSAGES.uploadPersonMissing;
}
