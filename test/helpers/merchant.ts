/**
 * The sandbox application every test and story pays as: the example id of the docs, so a
 * failure prints the id a reader has already seen.
 */
export const APP_ID = '3f2a1d4e-5b6c-4d7e-8f90-a1b2c3d4e5f6';
