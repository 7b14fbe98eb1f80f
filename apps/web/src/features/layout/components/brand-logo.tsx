export function BrandMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" className={className} aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id="brand-mark-gradient" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#7c3aed" />
          <stop offset="1" stopColor="#c026d3" />
        </linearGradient>
      </defs>
      <rect width="64" height="64" rx="16" fill="url(#brand-mark-gradient)" />
      <path d="M23 14 15 19l-3 9 6 2.5V50h28V30.5l6-2.5-3-9-8-5c-1.2 3-4.4 5-9 5s-7.8-2-9-5Z" fill="#fff" />
    </svg>
  );
}
