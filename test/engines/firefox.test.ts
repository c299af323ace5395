// @vitest-environment node
import { hostedJourneys } from './hosted';
import { journeys } from './journeys';
import { onePerFile } from './support/page';
import { startFirefox } from './support/firefox';

const start = onePerFile(startFirefox);
journeys('firefox', start);
hostedJourneys('firefox', start);
