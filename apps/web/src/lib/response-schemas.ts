/**
 * The contract's schemas that the first page's code checks answers (and the cached user) with.
 * They are loaded as a chunk of their own, through `loadResponseSchemas()` (api-client.ts), in
 * parallel with the page's messages and evaluated in a task of their own: building them is a
 * large part of the schema library's cost, and the first page's scripts do not carry it.
 * Import schemas from here only through that loader; a static import brings them back into the
 * first page.
 */
export {
  AuthResponseSchema,
  DeletePhotoResponseSchema,
  EngineBusyResponseSchema,
  GarmentWornResponseSchema,
  KeepPhotoResponseSchema,
  LeaveLineResponseSchema,
  ListPhotosResponseSchema,
  LogoutResponseSchema,
  NoCreditsResponseSchema,
  PublicConfigSchema,
  TryOnResponseSchema,
  UserResponseSchema,
  UserSchema,
} from '@aidressup/contract';
