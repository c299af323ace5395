// How `servicepay/vanilla` gets the component's extras (./extras: with their words in every
// shipped language) when its options ask for them: a chunk of its own, loaded then. The
// standalone script replaces this module with one that loads a second file beside it
// (./load-extras-script.ts).
export const loadExtras = () => import('./extras').then((module) => module.extras);
