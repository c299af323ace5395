// @vitest-environment node
import { journeys } from './journeys';
import { startChromium } from './support/chromium';

journeys('chromium', startChromium);
