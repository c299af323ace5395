// How `servicepay/vanilla` gets the component's extras (./extras) when its options ask for
// them: a chunk of its own, loaded then. The standalone script replaces this module with one
// that loads a second file beside it (src/vanilla/load-extras-script.ts). React pages hand
// them in themselves (`<ServicePay extras={extras}>`), so the root entry imports neither.
export const loadExtras = () => import('./extras').then((module) => module.extras);

export type { ServicePayExtras as Extras } from './extras-contract';
