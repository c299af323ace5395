// globalSetup of the engines project: says once, before the journeys, which engine cannot run
// here, one line each; those journeys are skipped. Under CI (CI set, as .ci/run runs) a
// missing engine is a failure instead: CI must test both.
import { ENGINES, missingEngine } from './engines';

export default function checkEngines(): void {
  const missing = ENGINES.map(missingEngine).filter((line) => line !== null);
  if (missing.length && process.env.CI) {
    throw new Error(
      `servicepay tests: CI must run the journeys in every engine. ${missing.join('. ')}.`,
    );
  }
  for (const line of missing) console.log(`${line}: its journeys are skipped.`);
}
