import type { SandboxInstitution } from './types';

/**
 * The banks the sandbox offers by default: the UK's large retail banks and the app banks
 * shoppers most often pick, so a checkout looks and searches as it will in production.
 * Colours approximate each brand; icons are generated locally (no external URLs).
 */
export const DEFAULT_INSTITUTIONS: readonly SandboxInstitution[] = Object.freeze(
  [
    { id: 'barclays', name: 'Barclays', colour: '#00395d' },
    { id: 'hsbc', name: 'HSBC UK', colour: '#db0011' },
    { id: 'lloyds', name: 'Lloyds Bank', colour: '#006a4d' },
    { id: 'natwest', name: 'NatWest', colour: '#5a287d' },
    { id: 'santander', name: 'Santander UK', colour: '#ec0000' },
    { id: 'nationwide', name: 'Nationwide', colour: '#002f6c' },
    { id: 'monzo', name: 'Monzo', colour: '#ff4f40' },
    { id: 'starling', name: 'Starling Bank', colour: '#6935d3' },
    { id: 'revolut', name: 'Revolut', colour: '#191c1f' },
    { id: 'halifax', name: 'Halifax', colour: '#005eb8' },
    { id: 'tsb', name: 'TSB', colour: '#0055a4' },
    { id: 'co-operative-bank', name: 'Co-operative Bank', colour: '#00b1e7' },
    { id: 'metro-bank', name: 'Metro Bank', colour: '#c8102e' },
    { id: 'first-direct', name: 'first direct', colour: '#000000' },
    { id: 'bank-of-scotland', name: 'Bank of Scotland', colour: '#0a3d7e' },
    { id: 'rbs', name: 'Royal Bank of Scotland', colour: '#0a2f64' },
    { id: 'virgin-money', name: 'Virgin Money', colour: '#c4003d' },
    { id: 'chase', name: 'Chase UK', colour: '#117aca' },
    { id: 'danske', name: 'Danske Bank', colour: '#003755' },
    { id: 'ulster-bank', name: 'Ulster Bank', colour: '#00305e' },
  ].map((institution) => Object.freeze(institution)),
);
