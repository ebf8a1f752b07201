// Loads the built course site in a real browser and checks what a reader sees.
//
// Serves site/ (built by scripts/build_docs.sh) on a free localhost port,
// drives Debian's Chromium with playwright-core, and checks:
//   - every page of the navigation loads: no failed request, no HTTP status
//     >= 400, no console error, no request leaving localhost (the site must
//     work offline);
//   - the chapter-1 page shows the code its Markdown quotes with
//     `--8<-- "file:section"`, highlighted at build time (Pygments spans);
//   - the "API reference" entry resolves to Doxygen's pages, which load;
//   - the site's search (a local index, no server) finds a word.
// Prints one line per check and a closing line "N passed, N failed"; exits
// non-zero when a check fails. Every wait is bounded, and a watchdog ends the
// run whatever happens.
//
//   cd tests/site && npm ci && node site_test.mjs     (or scripts/test_site.sh)
//
// Environment: SITE_DIR (default <repo>/site), CHROMIUM (default
// /usr/bin/chromium).

import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

import {chromium} from 'playwright-core';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SITE = path.resolve(process.env.SITE_DIR ?? path.join(REPO, 'site'));
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

// The navigation the site promises, by title, and the chapter whose quotes are checked.
const CHAPTERS = [
  {title: 'Chapter 1 — Tensors', source: 'chapters/01-tensors/README.md'},
  {title: 'Chapter 2 — Graph and Session', source: 'chapters/02-graph-and-session/README.md'},
  {title: 'Chapter 3 — Variables, autodiff and training', source: 'chapters/03-variables-and-autodiff/README.md'},
  {title: 'Chapter 4 — Devices and placement', source: 'chapters/04-device-placement/README.md'},
];
const NAV_TITLES = ['Home', ...CHAPTERS.map((c) => c.title), 'Exercises', 'API reference'];
const API_TITLE = 'API reference';
const SEARCH_WORD = 'Eigen';  // On the home page.

const PAGE_TIMEOUT_MS = 15_000;
const SETTLE_TIMEOUT_MS = 5_000;
const WATCHDOG_MS = 180_000;

const CHROMIUM_FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.gz': 'application/gzip',
  '.map': 'application/json',
};

// ---------------------------------------------------------------------------
// A static file server for site/, on 127.0.0.1 and a port the OS picks.

function serveSite(root) {
  const server = http.createServer((request, response) => {
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    } catch {
      response.writeHead(400).end();
      return;
    }
    let file = path.join(root, pathname);
    if (file !== root && !file.startsWith(root + path.sep)) {
      response.writeHead(403).end();
      return;
    }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    if (!fs.existsSync(file) || !fs.statSync(file).isFile()) {
      response.writeHead(404, {'Content-Type': 'text/plain'}).end(`not found: ${pathname}`);
      return;
    }
    const type = CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream';
    response.writeHead(200, {'Content-Type': type});
    fs.createReadStream(file).pipe(response);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

// ---------------------------------------------------------------------------
// The sections a chapter's Markdown quotes, and the first line of each.

const QUOTE_LINE = /^[ \t]*-+8<-+[ \t]+(["'])(.+?)\1[ \t]*$/;
const MARKER_LINE = /^[ \t]*(?:\/\/|#)[ \t]*-+8<-+[ \t]+\[[ \t]*(start|end)[ \t]*:[ \t]*([a-z][-_0-9a-z]*)[ \t]*\][ \t]*$/;

// Returns [{target, firstLine}] for each `--8<-- "file:section"` of `markdown`.
function quotedSections(markdown) {
  const quotes = [];
  for (const line of markdown.split('\n')) {
    const quote = QUOTE_LINE.exec(line);
    if (!quote) continue;
    const target = quote[2];
    const split = /^(.+?):([a-z][-_0-9a-z]*)$/.exec(target);
    if (!split) continue;
    const [, file, section] = split;
    const lines = fs.readFileSync(path.join(REPO, file), 'utf8').split('\n');
    const start = lines.findIndex((l) => {
      const m = MARKER_LINE.exec(l);
      return m && m[1] === 'start' && m[2] === section;
    });
    if (start < 0) throw new Error(`${target}: no start marker`);
    const firstLine = lines.slice(start + 1).find((l) => l.trim() && !MARKER_LINE.test(l));
    quotes.push({target, firstLine: firstLine.trim()});
  }
  return quotes;
}

// ---------------------------------------------------------------------------
// The browser, with every request, response and console message watched.

class Watcher {
  constructor(context, origin) {
    this.problems = [];
    context.on('requestfailed', (r) =>
      this.problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`));
    context.on('response', (r) => {
      if (r.status() >= 400) this.problems.push(`HTTP ${r.status()}: ${r.url()}`);
    });
    context.on('page', (page) => this.watchPage(page));
    for (const page of context.pages()) this.watchPage(page);
    this.origin = origin;
  }

  watchPage(page) {
    page.on('console', (m) => {
      if (m.type() === 'error') this.problems.push(`console error: ${m.text()}`);
    });
    page.on('pageerror', (e) => this.problems.push(`page error: ${e.message}`));
  }

  // Lets only requests to the local server through; anything else is a
  // resource the offline site must not need.
  async blockTheWorld(context) {
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(this.origin + '/') || url.startsWith('data:') || url.startsWith('blob:')) {
        return route.continue();
      }
      this.problems.push(`request leaves localhost: ${url}`);
      return route.abort('blockedbyclient');
    });
  }

  take() {
    const problems = this.problems;
    this.problems = [];
    return problems;
  }
}

// Loads `url` and waits for the page to settle; returns the main response.
async function load(page, url) {
  const response = await page.goto(url, {waitUntil: 'load', timeout: PAGE_TIMEOUT_MS});
  await page.waitForLoadState('networkidle', {timeout: SETTLE_TIMEOUT_MS}).catch(() => {});
  if (!response) throw new Error(`no response for ${url}`);
  if (!response.ok()) throw new Error(`HTTP ${response.status()} for ${url}`);
  return response;
}

// ---------------------------------------------------------------------------
// The checks. Each returns nothing or throws; problems seen by the Watcher
// while it ran also fail it.

async function navigationOf(page, base) {
  await load(page, base + '/');
  const links = await page.$$eval('.md-nav--primary a.md-nav__link[href]', (anchors) =>
    anchors.map((a) => ({title: a.textContent.trim(), url: a.href})));
  const nav = new Map();
  for (const {title, url} of links) {
    if (new URL(url).hash) continue;  // The table of contents of the current page.
    if (!nav.has(title)) nav.set(title, url);
  }
  return nav;
}

function makeChecks(page, base, nav) {
  const checks = [];
  checks.push([`navigation lists ${NAV_TITLES.join(', ')}`, async () => {
    const missing = NAV_TITLES.filter((t) => !nav.has(t));
    if (missing.length) {
      throw new Error(`missing: ${missing.join(', ')}; found: ${[...nav.keys()].join(', ')}`);
    }
  }]);

  for (const [title, url] of nav) {
    checks.push([`page "${title}" loads cleanly (${url.slice(base.length)})`, async () => {
      await load(page, url);
      if (!(await page.title())) throw new Error('the page has no title');
    }]);
  }

  for (const {title: CHAPTER_TITLE, source: CHAPTER_SOURCE} of CHAPTERS) {
  checks.push([`"${CHAPTER_TITLE}" shows its quoted code, highlighted`, async () => {
    const quotes = quotedSections(fs.readFileSync(path.join(REPO, CHAPTER_SOURCE), 'utf8'));
    if (!quotes.length) throw new Error(`${CHAPTER_SOURCE} quotes no section`);
    await load(page, nav.get(CHAPTER_TITLE));
    const blocks = await page.$$eval('.md-content .highlight', (divs) => divs.map((d) => ({
      text: d.textContent,
      spans: d.querySelectorAll('code span[class]').length,
    })));
    const highlighted = blocks.filter((b) => b.spans > 0);
    if (!highlighted.length) throw new Error('no code block with Pygments spans');
    for (const {target, firstLine} of quotes) {
      if (!highlighted.some((b) => b.text.includes(firstLine))) {
        throw new Error(`quote ${target} not shown highlighted (looked for "${firstLine}")`);
      }
    }
  }]);
  checks.push([`"${CHAPTER_TITLE}" shows every picture it draws`, async () => {
    await load(page, nav.get(CHAPTER_TITLE));
    const images = await page.$$eval('.md-content img', (imgs) => imgs.map((i) => ({
      src: i.getAttribute('src'), width: i.naturalWidth,
    })));
    const broken = images.filter((i) => !i.width).map((i) => i.src);
    if (broken.length) throw new Error(`pictures that did not load: ${broken.join(', ')}`);
  }]);
  }

  checks.push([`"${API_TITLE}" leads to Doxygen pages that load`, async () => {
    const apiUrl = nav.get(API_TITLE);
    await load(page, apiUrl);
    const generator = await page.$eval('meta[name="generator"]', (m) => m.content).catch(() => '');
    if (!generator.startsWith('Doxygen')) throw new Error(`not a Doxygen page: ${page.url()}`);
    const project = await page.$eval('#projectname', (e) => e.textContent).catch(() => '');
    if (!project.includes('minitf')) throw new Error(`project name is "${project.trim()}"`);
    // The file list, then the class list and the first class it links to.
    await load(page, new URL('files.html', apiUrl).href);
    await load(page, new URL('annotated.html', apiUrl).href);
    const firstClass = await page.$eval('table.directory a.el[href]', (a) => a.href);
    await load(page, firstClass);
  }]);

  checks.push([`search finds "${SEARCH_WORD}"`, async () => {
    await load(page, base + '/');
    // Real key strokes: Material's search listens for keyup, not for input.
    await page.click('input.md-search__input', {timeout: SETTLE_TIMEOUT_MS});
    await page.keyboard.type(SEARCH_WORD, {delay: 20});
    await page.waitForSelector('.md-search-result__item', {timeout: PAGE_TIMEOUT_MS});
  }]);
  return checks;
}

// ---------------------------------------------------------------------------

async function main() {
  let passed = 0;
  let failed = 0;
  const report = (name, problems) => {
    if (problems.length) {
      failed++;
      console.log(`FAIL ${name}`);
      for (const p of problems) console.log(`     ${p}`);
    } else {
      passed++;
      console.log(`ok   ${name}`);
    }
  };

  let server;
  let context;
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'minitf-site-test-'));
  const finish = async () => {
    await context?.close().catch(() => {});
    server?.close();
    server?.closeAllConnections?.();
    fs.rmSync(userDataDir, {recursive: true, force: true});
  };
  const watchdog = setTimeout(async () => {
    report(`the whole test finishes within ${WATCHDOG_MS / 1000} s`, ['watchdog fired']);
    console.log(`${passed} passed, ${failed} failed`);
    await Promise.race([finish(), new Promise((r) => setTimeout(r, 5_000))]);
    process.exit(1);
  }, WATCHDOG_MS);

  try {
    if (!fs.existsSync(path.join(SITE, 'index.html'))) {
      throw new Error(`${SITE}/index.html is missing; build the site first: scripts/build_docs.sh`);
    }
    server = await serveSite(SITE);
    const base = `http://127.0.0.1:${server.address().port}`;
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
      timeout: PAGE_TIMEOUT_MS * 2,
    });
    context.setDefaultTimeout(PAGE_TIMEOUT_MS);
    const watcher = new Watcher(context, base);
    await watcher.blockTheWorld(context);
    const page = context.pages()[0] ?? (await context.newPage());

    let nav = new Map();
    try {
      nav = await navigationOf(page, base);
      report('home page loads and shows the navigation', watcher.take());
    } catch (error) {
      report('home page loads and shows the navigation', [error.message, ...watcher.take()]);
    }
    for (const [name, check] of makeChecks(page, base, nav)) {
      try {
        await check();
        report(name, watcher.take());
      } catch (error) {
        report(name, [error.message.split('\n')[0], ...watcher.take()]);
      }
    }
  } catch (error) {
    report('set up: serve site/ and start Chromium', [error.message.split('\n')[0]]);
  } finally {
    clearTimeout(watchdog);
    await finish();
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main();
