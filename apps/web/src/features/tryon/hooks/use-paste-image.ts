import { useEffect, useRef } from 'react';

export interface PasteTarget {
  /** The card's element: paste goes to the card holding focus. */
  element: HTMLElement | null;
  isEmpty: boolean;
  select: (file: File) => void;
}

/** The first file on the clipboard (an image copied in most apps arrives as a file item). */
export function clipboardFile(data: DataTransfer | null): File | null {
  if (!data) return null;
  if (data.files && data.files.length > 0) return data.files[0] ?? null;
  for (const item of Array.from(data.items ?? [])) {
    if (item.kind === 'file') {
      const f = item.getAsFile();
      if (f) return f;
    }
  }
  return null;
}

/** Where a pasted photo goes: the card that has focus, else the first empty one, else nowhere. */
export function pasteTarget<T extends Pick<PasteTarget, 'element' | 'isEmpty'>>(
  targets: T[],
  active: Element | null,
): T | null {
  const focused = active ? targets.find((t) => t.element?.contains(active)) : undefined;
  if (focused) return focused;
  return targets.find((t) => t.isEmpty) ?? null;
}

function isTextEntry(el: Element | null): boolean {
  if (!el) return false;
  if (el instanceof HTMLTextAreaElement) return true;
  if (el instanceof HTMLInputElement)
    return !['button', 'checkbox', 'file', 'radio', 'range', 'reset', 'submit'].includes(el.type);
  return (el as HTMLElement).isContentEditable === true;
}

/**
 * Pasting a photo (Ctrl/Cmd+V) fills an upload card through the same checks as picking a file.
 * Text fields keep their own paste; nothing happens while `disabled` or when a dialog is open.
 */
export function usePasteImage(targets: PasteTarget[], disabled: boolean): void {
  const ref = useRef({ targets, disabled });
  ref.current = { targets, disabled };
  useEffect(() => {
    const onPaste = (e: ClipboardEvent) => {
      const { targets: ts, disabled: off } = ref.current;
      if (off || e.defaultPrevented) return;
      const active = document.activeElement;
      if (isTextEntry(active) || active?.closest('[role="dialog"], dialog')) return;
      const file = clipboardFile(e.clipboardData);
      if (!file) return;
      const target = pasteTarget(ts, active);
      if (!target) return;
      e.preventDefault();
      target.select(file);
    };
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
  }, []);
}
