/**
 * The headless Chromium of the browser tests: the launcher lives in bench/chromium.ts, which the
 * viewer's frame-time benchmark shares (it is built with the bench; the tests run it from source).
 */
export { launchChromium, chromiumExecutable, type ChromiumExecutable } from '../../bench/chromium.js';
