// @vitest-environment node
import { journeys } from './journeys';
import { startFirefox } from './support/firefox';

journeys('firefox', startFirefox);
