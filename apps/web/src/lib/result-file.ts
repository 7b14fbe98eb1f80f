/** The file extension of a result image's URL for its download name (`jpg`, `png` or `webp`; `png` when unknown). */
export function resultExtension(url: string): string {
  const ext = /\.(png|jpe?g|webp)(?:$|\?)/i.exec(url)?.[1]?.toLowerCase() ?? 'png';
  return ext === 'jpeg' ? 'jpg' : ext;
}
