import type { Institution } from 'servicepay';

// Logos are drawn here as PNG data: URLs, so the catalogue never touches the network. PNG,
// not SVG: the component shows base64 raster data URLs but refuses SVG ones (an SVG can
// carry script; docs/http-contract.md).
function logo(background: string, mark: string, foreground = '#fff'): string {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 80; // drawn at 2x for sharp 40 px tiles
  const g = canvas.getContext('2d');
  if (!g) return '';
  g.fillStyle = background;
  g.beginPath();
  g.roundRect(0, 0, 80, 80, 16);
  g.fill();
  g.fillStyle = foreground;
  g.font = '700 30px system-ui, sans-serif';
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.fillText(mark, 40, 42);
  return canvas.toDataURL('image/png');
}

/** Six UK banks, ids as an aggregator gives them; Nationwide has no logo (initials badge). */
export const BANKS: readonly Institution[] = [
  { id: 'ob-barclays', name: 'Barclays', iconUrl: logo('#00395d', 'B') },
  { id: 'ob-hsbc', name: 'HSBC UK', iconUrl: logo('#db0011', 'H') },
  { id: 'ob-lloyds', name: 'Lloyds Bank', iconUrl: logo('#006a4d', 'L') },
  { id: 'ob-monzo', name: 'Monzo', iconUrl: logo('#14233c', 'M', '#ff4f40') },
  { id: 'ob-natwest', name: 'NatWest', iconUrl: logo('#42145f', 'N') },
  { id: 'ob-nationwide', name: 'Nationwide' },
];

const MORE_NAMES = [
  'Allied Irish Bank (GB)',
  'Bank of Ireland UK',
  'Bank of Scotland',
  'Banco Santander',
  'BNP Paribas',
  'Chase UK',
  'Clydesdale Bank',
  'Co-operative Bank',
  'Coutts',
  'Crédit Agricole',
  'Crédit Mutuel',
  'Cumberland Building Society',
  'Danske Bank',
  'Deutsche Bank',
  'First Direct',
  'Halifax',
  'Handelsbanken',
  'ING',
  'Kroo',
  'Leeds Building Society',
  'Metro Bank',
  'Nordea',
  'Revolut',
  'Royal Bank of Scotland',
  'Santander UK',
  'Skipton Building Society',
  'Société Générale',
  'Starling Bank',
  'Tesco Bank',
  'Triodos Bank',
  'TSB',
  'Ulster Bank',
  'Virgin Money',
  'Wise',
  'Yorkshire Building Society',
  'Zopa',
  'Atom Bank',
  'Bank of America',
  'Barclaycard',
  'Caixa Geral',
  'Citibank',
  'Close Brothers',
  'Coventry Building Society',
  'C. Hoare & Co.',
  'Investec',
  'Lloyds Business',
  'Mettle',
  'Monument Bank',
  'Nationwide Business',
  'NatWest Business',
  'Norddeutsche Landesbank',
  'Nottingham Building Society',
  'Oaknorth',
  'Principality Building Society',
  'Raiffeisen Bank',
  'Sainsbury’s Bank',
  'Tide',
  'Unity Trust Bank',
];

const PALETTE = ['#1e3a8a', '#7c2d12', '#065f46', '#581c87', '#9f1239', '#134e4a', '#3f3f46'];

/** 64 banks: the six above and 58 more, some with accents, for the search field. */
export const MANY_BANKS: readonly Institution[] = [
  ...BANKS,
  ...MORE_NAMES.map((name, index) => ({
    id: `ob-${name
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .toLowerCase()}`,
    name,
    // Every seventh bank has no logo, as happens with real aggregators.
    ...(index % 7 === 3 ? {} : { iconUrl: logo(PALETTE[index % PALETTE.length]!, name[0]!) }),
  })),
];
