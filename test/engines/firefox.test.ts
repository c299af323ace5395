// @vitest-environment node
import { hostedJourneys } from './hosted';
import { journeys } from './journeys';
import { startFirefox } from './support/firefox';

journeys('firefox', startFirefox);
hostedJourneys('firefox', startFirefox);
