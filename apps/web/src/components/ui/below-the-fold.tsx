import { startTransition, useEffect, useState, type HTMLAttributes, type ReactNode } from 'react';
import { cn } from '../../lib/cn';

export interface BelowTheFoldProps extends HTMLAttributes<HTMLElement> {
  /** The element it is (it is there from the first render, with its id and attributes). */
  as?: 'section' | 'div';
  children: ReactNode;
}

/**
 * A part of a page below the first screen, whose content is rendered right after the page's first
 * render, as a transition of its own: the first render then lays out only what the first screen
 * shows, and the rest follows in separate, shorter tasks instead of one long one. Until then the
 * element is empty and a screen tall, so nothing after it (the footer) shows in the first screen
 * and then moves.
 */
export function BelowTheFold({ as: Element = 'div', children, className, ...rest }: BelowTheFoldProps) {
  const [shown, setShown] = useState(false);
  useEffect(() => startTransition(() => setShown(true)), []);
  return (
    <Element
      {...rest}
      className={cn(className, !shown && 'min-h-dvh')}
      data-below-the-fold={shown ? 'shown' : 'waiting'}
    >
      {shown ? children : null}
    </Element>
  );
}
