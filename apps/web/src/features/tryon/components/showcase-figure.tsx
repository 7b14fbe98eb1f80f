/** Drawn before/after illustrations for the showcase cards. */
export type Outfit = 'tee-jeans' | 'gown' | 'red-top' | 'stripe-top' | 'hoodie' | 'blazer';

const SKIN = '#e8b796';
const HAIR = '#3b2a22';

const TOP = 'M40 48 L52 44 Q60 51 68 44 L80 48 L91 66 L83 70 L78 61 L78 93 L42 93 L42 61 L37 70 L29 66 Z';
const LONG_SLEEVE_TOP = 'M40 48 L52 44 Q60 51 68 44 L80 48 L88 90 L80 92 L78 62 L78 95 L42 95 L42 62 L40 92 L32 90 Z';
const PANTS = 'M43 92 L77 92 L76 148 L63 148 L60 106 L57 148 L44 148 Z';
const GOWN = 'M49 44 Q60 51 71 44 L75 60 L71 78 L90 149 L30 149 L49 78 L45 60 Z';

function Arms({ long }: { long?: boolean }) {
  if (long) return <path d="M33 89 l-1 7 M87 89 l1 7" stroke={SKIN} strokeWidth="5" strokeLinecap="round" />;
  return <path d="M33 68 L34 96 M87 68 L86 96" stroke={SKIN} strokeWidth="6" strokeLinecap="round" />;
}

function Head({ hood }: { hood?: string }) {
  return (
    <g>
      {hood ? <circle cx="60" cy="32" r="17" fill={hood} /> : null}
      <rect x="56" y="38" width="8" height="9" rx="3" fill={SKIN} />
      <circle cx="60" cy="30" r="11" fill={SKIN} />
      <path d="M49 30 Q48 16 60 17 Q72 16 71 30 Q68 22 60 23 Q52 22 49 30 Z" fill={HAIR} />
    </g>
  );
}

function Shoes() {
  return <path d="M44 147 h12 v4 h-14 z M64 147 h12 l2 4 h-14 z" fill="#1f2937" />;
}

export function ShowcaseFigure({
  outfit,
  background,
  label,
}: {
  outfit: Outfit;
  background: [string, string];
  label: string;
}) {
  const id = `sc-${outfit}`;
  return (
    <svg viewBox="0 0 120 160" role="img" aria-label={label} className="h-full w-full">
      <defs>
        <linearGradient id={`${id}-bg`} x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor={background[0]} />
          <stop offset="1" stopColor={background[1]} />
        </linearGradient>
        <pattern id={`${id}-stripes`} width="6" height="6" patternUnits="userSpaceOnUse">
          <rect width="6" height="6" fill="#f8fafc" />
          <rect width="6" height="3" fill="#0f766e" />
        </pattern>
      </defs>
      <rect width="120" height="160" fill={`url(#${id}-bg)`} />
      <ellipse cx="60" cy="152" rx="34" ry="4" fill="#000" opacity="0.08" />
      {outfit === 'gown' ? (
        <g>
          <Arms />
          <Head />
          <path d={GOWN} fill="#7c2d5a" />
          <path d="M49 44 Q60 51 71 44 L73 52 Q60 58 47 52 Z" fill="#9d3b73" />
          <path d="M47 76 Q60 80 73 76" stroke="#f5d0e3" strokeWidth="2" fill="none" />
        </g>
      ) : (
        <g>
          <path d={PANTS} fill={outfit === 'blazer' ? '#1e293b' : outfit === 'hoodie' ? '#475569' : '#3b5b8c'} />
          <Shoes />
          <Arms long={outfit === 'hoodie' || outfit === 'blazer'} />
          <Head hood={outfit === 'hoodie' ? '#64748b' : undefined} />
          {outfit === 'tee-jeans' ? <path d={TOP} fill="#94a3b8" /> : null}
          {outfit === 'red-top' ? <path d={TOP} fill="#dc2626" /> : null}
          {outfit === 'stripe-top' ? (
            <path d={TOP} fill={`url(#${id}-stripes)`} stroke="#0f766e" strokeWidth="0.8" />
          ) : null}
          {outfit === 'hoodie' ? (
            <g>
              <path d={LONG_SLEEVE_TOP} fill="#64748b" />
              <path d="M50 78 h20 l-2 10 h-16 z" fill="#56657a" />
              <path d="M57 50 v10 M63 50 v10" stroke="#e2e8f0" strokeWidth="1.2" />
            </g>
          ) : null}
          {outfit === 'blazer' ? (
            <g>
              <path d={LONG_SLEEVE_TOP} fill="#1e293b" />
              <path d="M52 44 Q60 51 68 44 L64 70 L60 74 L56 70 Z" fill="#f8fafc" />
              <path d="M59 52 l1 14 l1 -14 z" fill="#7c3aed" />
              <path d="M52 44 L56 70 L50 60 L53 54 Z M68 44 L64 70 L70 60 L67 54 Z" fill="#334155" />
              <circle cx="60" cy="82" r="1.3" fill="#94a3b8" />
            </g>
          ) : null}
        </g>
      )}
    </svg>
  );
}
