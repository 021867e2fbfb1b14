/**
 * A headless Chromium for the browser tests and the viewer benchmark, on a machine that has only Node.
 *
 * The executable is, in order: the one named by VINCULUM_CHROMIUM; Debian's /usr/bin/chromium when
 * present; otherwise the headless Chromium shipped inside the npm package @sparticuz/chromium (a
 * devDependency), which renders WebGL2 in software (SwiftShader). That package unpacks its
 * brotli archives into `os.tmpdir()` and reuses whatever it finds there under the same names
 * (`chromium`, `libGLESv2.so`, …), so files left by another version of the package make the launch
 * fail. Here it unpacks instead into a folder of the project's own under the temporary directory,
 * named by the package's version: a child Node process runs the package's `executablePath()` with
 * TMPDIR pointing at a fresh staging folder, which is then renamed into place. The rename is
 * atomic, so test files launching at once (vitest threads) either find the complete folder or
 * unpack their own copy and drop it when another one won.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

/**
 * flags for every executable: no sandbox (containers, root), headless, nothing phoning home, and
 * a plain language tag: under LANG=C the packaged Chromium reports navigator.language
 * "en-US@posix", which Intl (uPlot's number format, made when it loads) rejects
 */
const COMMON_ARGS = ['--no-sandbox', '--headless', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--lang=en-US'];

/** for a system Chromium: WebGL through ANGLE on SwiftShader, as the packaged one is launched */
const SYSTEM_ARGS = ['--disable-dev-shm-usage', '--ignore-gpu-blocklist', '--use-gl=angle',
  '--use-angle=swiftshader', '--enable-unsafe-swiftshader'];

const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/** staging folders older than this are left by a killed run and are removed */
const STALE_STAGING_MS = 3_600_000;

/** an executable and the flags it is launched with (besides COMMON_ARGS) */
export interface ChromiumExecutable {
  path: string;
  args: string[];
  /** where it came from: 'VINCULUM_CHROMIUM', 'debian' or '@sparticuz/chromium@<version>' */
  origin: string;
}

/** launches the headless Chromium chosen by {@link chromiumExecutable} through playwright-core */
export async function launchChromium(): Promise<Browser> {
  const exe = await chromiumExecutable();
  return chromium.launch({ executablePath: exe.path, args: [...exe.args, ...COMMON_ARGS], timeout: 60_000 });
}

/** the Chromium to launch: VINCULUM_CHROMIUM, then /usr/bin/chromium, then @sparticuz/chromium unpacked */
export async function chromiumExecutable(): Promise<ChromiumExecutable> {
  const named = process.env['VINCULUM_CHROMIUM'];
  if (named) {
    if (!existsSync(named)) throw new Error(`VINCULUM_CHROMIUM names ${named}, which does not exist`);
    return { path: named, args: SYSTEM_ARGS, origin: 'VINCULUM_CHROMIUM' };
  }
  if (existsSync(DEBIAN_CHROMIUM)) return { path: DEBIAN_CHROMIUM, args: SYSTEM_ARGS, origin: 'debian' };
  return packagedChromium();
}

/** @sparticuz/chromium's Chromium, unpacked (once per version and user) under the temporary directory */
async function packagedChromium(): Promise<ChromiumExecutable> {
  const pkg = packageRoot();
  const { version } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { version: string };
  const module = (await import(entryUrl(pkg))) as { default: { args: string[] } };
  const name = `vinculum-chromium-${version}-${process.getuid?.() ?? 0}`;
  const folder = join(tmpdir(), name);
  const executable = join(folder, 'chromium');
  if (!existsSync(executable)) {
    removeStaleStaging(name);
    const staging = mkdtempSync(join(tmpdir(), `${name}.staging-`));
    try {
      await unpack(pkg, staging);
      renameSync(staging, folder);
    } catch (e) {
      rmSync(staging, { recursive: true, force: true });
      // another launcher renamed its complete copy into place first
      if (!existsSync(executable)) throw e;
    }
  }
  return { path: executable, args: module.default.args, origin: `@sparticuz/chromium@${version}` };
}

/** the folder of the installed @sparticuz/chromium (its exports map hides package.json) */
function packageRoot(): string {
  const require = createRequire(import.meta.url);
  let entry: string;
  try {
    entry = require.resolve('@sparticuz/chromium');
  } catch {
    throw new Error('browser tests need Chromium: npm ci installs @sparticuz/chromium, or set VINCULUM_CHROMIUM');
  }
  // the entry is <root>/build/cjs/index.cjs
  return join(dirname(entry), '..', '..');
}

/** the URL of the package's ES module entry */
function entryUrl(pkg: string): string {
  return pathToFileURL(join(pkg, 'build', 'esm', 'index.js')).href;
}

/** runs the package's own unpacking in a child Node whose temporary directory is `into` */
function unpack(pkg: string, into: string): Promise<void> {
  const script = `const { default: c } = await import(${JSON.stringify(entryUrl(pkg))});`
    + ' process.stdout.write(await c.executablePath());';
  const options = { env: { ...process.env, TMPDIR: into }, timeout: 120_000 };
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--input-type=module', '-e', script], options, (error, stdout, stderr) => {
      const fail = (why: string) => reject(new Error(`@sparticuz/chromium could not unpack into ${into}: ${why}`));
      if (error) fail(stderr.trim() || error.message);
      else if (stdout !== join(into, 'chromium')) fail(`it answered ${stdout}`);
      else resolve();
    });
  });
}

/** removes staging folders of `name` left by runs killed while unpacking */
function removeStaleStaging(name: string): void {
  const now = Date.now();
  for (const entry of readdirSync(tmpdir())) {
    if (!entry.startsWith(`${name}.staging-`)) continue;
    const path = join(tmpdir(), entry);
    try {
      if (now - statSync(path).mtimeMs > STALE_STAGING_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // gone already, or another user's
    }
  }
}
