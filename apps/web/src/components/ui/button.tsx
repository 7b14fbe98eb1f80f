import type { ButtonHTMLAttributes } from 'react';
import { cn } from '../../lib/cn';

type Variant = 'primary' | 'secondary' | 'ghost' | 'danger' | 'destructive';
type Size = 'sm' | 'md' | 'lg';

const variants: Record<Variant, string> = {
  primary:
    'bg-gradient-to-r from-brand-600 to-fuchsia-600 text-white shadow-lg shadow-brand-600/25 hover:from-brand-700 hover:to-fuchsia-700',
  secondary: 'bg-white text-ink-800 ring-1 ring-inset ring-ink-200 hover:bg-ink-50',
  ghost: 'text-ink-700 hover:bg-ink-100',
  danger: 'bg-white text-red-700 ring-1 ring-inset ring-red-200 hover:bg-red-50',
  /** The confirming button of an action that cannot be undone. */
  destructive: 'bg-red-600 text-white shadow-sm shadow-red-600/25 hover:bg-red-700',
};
const sizes: Record<Size, string> = {
  // At least this tall, taller when a long label wraps (it never spills out of its box).
  sm: 'min-h-9 py-1 px-3 text-sm gap-1.5',
  md: 'min-h-11 py-1.5 px-5 text-sm gap-2',
  lg: 'min-h-14 py-2 px-8 text-base gap-2.5',
};

export function buttonClasses(variant: Variant = 'primary', size: Size = 'md', className?: string) {
  return cn(
    'inline-flex items-center justify-center rounded-xl text-center font-semibold transition-colors select-none [&>svg]:shrink-0',
    'focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand-500',
    'disabled:cursor-not-allowed disabled:opacity-50 aria-disabled:cursor-not-allowed aria-disabled:opacity-50',
    variants[variant],
    sizes[size],
    className,
  );
}

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; size?: Size };

export function Button({ variant = 'primary', size = 'md', className, type = 'button', ...props }: ButtonProps) {
  return <button type={type} className={buttonClasses(variant, size, className)} {...props} />;
}
