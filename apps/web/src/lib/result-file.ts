/** The file extension of a result image's URL for its download name (`jpg`, `png` or `webp`; `png` when unknown). */
function resultExtension(url: string): string {
  const ext = /\.(png|jpe?g|webp)(?:$|\?)/i.exec(url)?.[1]?.toLowerCase() ?? 'png';
  return ext === 'jpeg' ? 'jpg' : ext;
}

/**
 * A result's download name, the one the server gives it too (`ai-dress-up-<try-on id>.<ext>`), so
 * that two results never save under one name; `ai-dress-up-result.<ext>` when its id is not known.
 */
export function resultFileName(tryonId: string | null | undefined, url: string): string {
  return `ai-dress-up-${tryonId || 'result'}.${resultExtension(url)}`;
}
