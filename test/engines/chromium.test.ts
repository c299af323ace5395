// @vitest-environment node
import { hostedJourneys } from './hosted';
import { journeys } from './journeys';
import { startChromium } from './support/chromium';

journeys('chromium', startChromium);
hostedJourneys('chromium', startChromium);
