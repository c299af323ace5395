// `npm run size`: min+gzip bytes as a merchant's production bundle receives them
// (NODE_ENV=production, so development-only checks are dropped as bundlers do).
const production = (config) => ({
  ...config,
  define: { ...config.define, 'process.env.NODE_ENV': '"production"' },
});

module.exports = [
  {
    name: "import { ServicePay } from 'servicepay' (react external)",
    path: 'dist/index.mjs',
    import: '{ ServicePay }',
    ignore: ['react', 'react-dom'],
    gzip: true,
    limit: '6 KB',
    modifyEsbuildConfig: production,
  },
  {
    name: 'servicepay/core (whole entry)',
    path: 'dist/core.mjs',
    gzip: true,
    limit: '5 KB',
    modifyEsbuildConfig: production,
  },
];
