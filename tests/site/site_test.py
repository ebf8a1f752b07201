#!/usr/bin/python3
"""Loads the built course site in a real browser and checks what a reader sees.

Serves site/ (built by scripts/build_docs.sh) on a free localhost port, drives
Debian's Chromium through Debian's chromium-driver and python3-selenium, and
checks:
  - every page of the navigation loads: no failed request, no HTTP status
    >= 400, no console error, no request leaving localhost (the site must
    work offline);
  - each chapter page shows the code its Markdown quotes with
    `--8<-- "file:section"`, highlighted at build time (Pygments spans), and
    every picture it draws;
  - every picture on every page has alt text, and each SVG picture is
    legible at the window's 1280 px: its smallest label, as drawn at the
    width the page gives the picture, is at least half the body text's size
    (BOOK-STYLE.md, "Pictures");
  - the "API reference" entry resolves to Doxygen's pages, which load;
  - the site's search (a local index, no server) finds a word.
Prints one line per check and a closing line "N passed, N failed"; exits
non-zero when a check fails. Every wait is bounded, and a watchdog ends the
run whatever happens.

How the browser is watched: Chromium's DevTools network events (the
"performance" log) give every request, its status and its failures; its
console log gives errors; and a host-resolver rule makes every name but the
local server's unresolvable, so nothing can leave the machine even if a page
asks.

    scripts/build_docs.sh && scripts/test_site.sh      (or python3 this file)

Environment: SITE_DIR (default <repo>/site), CHROMIUM (default
/usr/bin/chromium), CHROMEDRIVER (default /usr/bin/chromedriver).
"""

import functools
import http.server
import json
import os
import pathlib
import re
import shutil
import signal
import sys
import tempfile
import threading
import time
import urllib.parse

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

REPO = pathlib.Path(__file__).resolve().parents[2]
SITE = pathlib.Path(os.environ.get("SITE_DIR", REPO / "site")).resolve()
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")

# The navigation the site promises, by title, and the chapters whose quotes are checked.
CHAPTERS = [
    ("Chapter 1 — Tensors", "chapters/01-tensors/README.md"),
    ("Chapter 1, part 2 — A CPU GEMM", "chapters/01-tensors/cpu-gemm.md"),
    ("Chapter 2 — Graph and Session", "chapters/02-graph-and-session/README.md"),
    ("Chapter 3 — Variables, autodiff and training",
     "chapters/03-variables-and-autodiff/README.md"),
    ("Chapter 4 — Devices and placement", "chapters/04-device-placement/README.md"),
    ("Chapter 5 — GPU kernels", "chapters/05-gpu-kernels/README.md"),
    ("Chapter 6 — Multi-GPU towers", "chapters/06-multi-gpu-towers/README.md"),
    ("Chapter 7 — PS and workers over gRPC", "chapters/07-ps-worker-distribution/README.md"),
    ("Chapter 7, part 2 — Sync training and recovery",
     "chapters/07-ps-worker-distribution/sync-and-recovery.md"),
]
API_TITLE = "API reference"
NAV_TITLES = (["Home"] + [title for title, _ in CHAPTERS] +
              ["Seed programs", "Exercises", API_TITLE])
SEARCH_WORD = "Eigen"  # On the home page.

PAGE_TIMEOUT_S = 30
SETTLE_TIMEOUT_S = 5
QUIET_S = 0.5  # No network event for this long: the page has settled.
WATCHDOG_S = 300

# Requests the browser makes of itself, never the site's: its own pages and
# resources (the new-tab page it opens with), and the /favicon.ico it asks
# every server for when a page names no icon (Doxygen's pages name none).
BROWSER_SCHEMES = ("chrome:", "chrome-untrusted:", "devtools:", "about:")
BROWSER_OWN_PATHS = ("/favicon.ico",)

# --host-resolver-rules: every host name but the server's fails to resolve,
# so a page that asks for a CDN or a web font gets nothing, and the log
# below names the request.
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage", "--window-size=1280,720",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]

# ---------------------------------------------------------------------------
# A static file server for site/, on 127.0.0.1 and a port the OS picks.


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve_site(root):
    handler = functools.partial(QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


# ---------------------------------------------------------------------------
# The sections a chapter's Markdown quotes, and the first line of each.

QUOTE_LINE = re.compile(r"""^[ \t]*-+8<-+[ \t]+(["'])(.+?)\1[ \t]*$""")
MARKER_LINE = re.compile(
    r"^[ \t]*(?://|#)[ \t]*-+8<-+[ \t]+\[[ \t]*(start|end)[ \t]*:[ \t]*"
    r"([a-z][-_0-9a-z]*)[ \t]*\][ \t]*$")
TARGET = re.compile(r"^(.+?):([a-z][-_0-9a-z]*)$")


def quoted_sections(markdown):
    """Returns [(target, first_line)] for each `--8<-- "file:section"` of `markdown`."""
    quotes = []
    for line in markdown.split("\n"):
        quote = QUOTE_LINE.match(line)
        if not quote:
            continue
        target = quote.group(2)
        split = TARGET.match(target)
        if not split:
            continue
        file, section = split.groups()
        lines = (REPO / file).read_text(encoding="utf-8").split("\n")
        starts = [i for i, l in enumerate(lines)
                  if (m := MARKER_LINE.match(l)) and m.groups() == ("start", section)]
        if not starts:
            raise AssertionError(f"{target}: no start marker")
        first = next(l for l in lines[starts[0] + 1:] if l.strip() and not MARKER_LINE.match(l))
        quotes.append((target, first.strip()))
    return quotes


# ---------------------------------------------------------------------------
# The browser, with every request, response and console message watched.


class Browser:
    """Chromium under chromedriver, and the problems seen since the last take()."""

    def __init__(self, origin, user_data_dir):
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in CHROMIUM_FLAGS + [f"--user-data-dir={user_data_dir}"]:
            options.add_argument(flag)
        options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
        # The driver is named, so Selenium never looks for (or fetches) one.
        self.driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
        self.driver.set_page_load_timeout(PAGE_TIMEOUT_S)
        self.origin = origin
        self.problems = []
        self.urls = {}  # DevTools request id -> URL, to name failed requests.
        self.driver.get("about:blank")
        self.take()  # What the browser did while starting is not the site's.

    def _local(self, url):
        return url.startswith((self.origin + "/", "data:", "blob:") + BROWSER_SCHEMES)

    def _browser_own(self, url):
        return url.startswith(BROWSER_SCHEMES) or any(
            url == self.origin + path for path in BROWSER_OWN_PATHS)

    def drain(self):
        """Reads the logs gathered so far; returns how many network events there were."""
        events = 0
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            method, params = message.get("method", ""), message.get("params", {})
            if not method.startswith("Network."):
                continue
            events += 1
            if method == "Network.requestWillBeSent":
                url = params["request"]["url"]
                self.urls[params["requestId"]] = url
                if not self._local(url):
                    self.problems.append(f"request leaves localhost: {url}")
            elif method == "Network.responseReceived":
                response = params["response"]
                if self._browser_own(response["url"]):
                    continue
                if response.get("status", 0) >= 400:
                    self.problems.append(f"HTTP {response['status']}: {response['url']}")
            elif method == "Network.loadingFailed":
                url = self.urls.get(params["requestId"], "?")
                # Outside requests are already named above.
                if self._local(url) and not self._browser_own(url):
                    self.problems.append(f"request failed: {url} ({params.get('errorText')})")
        for entry in self.driver.get_log("browser"):
            if entry["level"] == "SEVERE" and not self._browser_own(
                    entry["message"].split(" ", 1)[0]):
                self.problems.append(f"console error: {entry['message']}")
        return events

    def take(self):
        self.drain()
        problems, self.problems = self.problems, []
        return problems

    def load(self, url):
        """Loads `url`, waits for it to settle; raises if the page itself failed."""
        self.driver.get(url)
        deadline = time.monotonic() + SETTLE_TIMEOUT_S
        quiet_since = time.monotonic()
        while time.monotonic() < deadline:
            ready = self.driver.execute_script("return document.readyState") == "complete"
            if self.drain():
                quiet_since = time.monotonic()
            elif ready and time.monotonic() - quiet_since >= QUIET_S:
                break
            time.sleep(0.1)
        status = self.driver.execute_script(
            "const e = performance.getEntriesByType('navigation')[0];"
            "return e ? e.responseStatus || 0 : 0;")
        if status >= 400:
            raise AssertionError(f"HTTP {status} for {url}")

    def all(self, css, script):
        """Runs `script` over the elements matching `css` (as `elements`); returns its result."""
        return self.driver.execute_script(
            f"const elements = [...document.querySelectorAll({json.dumps(css)})]; {script}")

    def quit(self):
        self.driver.quit()


# ---------------------------------------------------------------------------
# The checks. Each returns nothing or raises; problems the browser saw while
# it ran also fail it.


def navigation_of(browser, base):
    browser.load(base + "/")
    links = browser.all(".md-nav--primary a.md-nav__link[href]",
                        "return elements.map((a) => [a.textContent.trim(), a.href]);")
    nav = {}
    for title, url in links:
        if urllib.parse.urlparse(url).fragment:
            continue  # The table of contents of the current page.
        nav.setdefault(title, url)
    return nav


# Each SVG picture is drawn again, off screen, inline and at the size the page
# gives its <img>, so that the browser resolves every label's font size
# (attributes, the SVG's own styles, inheritance) and the scale from the
# SVG's user units to the screen (viewBox, Graphviz's transforms); a label's
# size on screen is its font size times that scale. (An <img> scales an SVG
# without a viewBox too, as if it had one of its width and height.) Returns, per picture,
# [src, alt, rendered width, smallest label in px, that label's text].
MEASURE_PICTURES = """
const done = arguments[arguments.length - 1];
(async () => {
  const results = [];
  for (const img of document.querySelectorAll('.md-content img')) {
    const src = img.getAttribute('src');
    const box = img.getBoundingClientRect();
    const row = [src, img.getAttribute('alt') || '', Math.round(box.width), null, ''];
    results.push(row);
    if (!/\\.svg([?#].*)?$/.test(img.currentSrc || img.src) || !box.width) continue;
    const text = await (await fetch(img.currentSrc || img.src)).text();
    const parsed = new DOMParser().parseFromString(text, 'image/svg+xml').documentElement;
    if (parsed.nodeName !== 'svg') continue;
    const svg = document.importNode(parsed, true);
    // An <img> scales an SVG that has no viewBox as if it had one of its size.
    const [w, h] = [svg.getAttribute('width'), svg.getAttribute('height')].map(parseFloat);
    if (!svg.hasAttribute('viewBox') && w && h) svg.setAttribute('viewBox', `0 0 ${w} ${h}`);
    svg.setAttribute('width', box.width);
    svg.setAttribute('height', box.height);
    const holder = document.createElement('div');
    holder.style.cssText = 'position:absolute; left:-20000px; top:0';
    holder.appendChild(svg);
    document.body.appendChild(holder);
    for (const label of svg.querySelectorAll('text')) {
      if (!label.textContent.trim()) continue;
      const m = label.getScreenCTM();
      if (!m) continue;
      const px = parseFloat(getComputedStyle(label).fontSize) * Math.hypot(m.c, m.d);
      if (row[3] === null || px < row[3]) {
        row[3] = Math.round(px * 10) / 10;
        row[4] = label.textContent.trim().slice(0, 40);
      }
    }
    holder.remove();
  }
  done(results);
})().catch((error) => done(String(error)));
"""


def pictures_not_legible(browser):
    """What is wrong with the pictures of the page loaded: [problem]."""
    driver = browser.driver
    driver.set_script_timeout(PAGE_TIMEOUT_S)
    body = driver.execute_script(
        "const t = document.querySelector('.md-content .md-typeset');"
        "return t ? parseFloat(getComputedStyle(t).fontSize) : 16;")
    results = driver.execute_async_script(MEASURE_PICTURES)
    if isinstance(results, str):
        return [f"could not measure the pictures: {results}"]
    problems = []
    for src, alt, width, smallest, label in results:
        if not alt.strip():
            problems.append(f"{src} has no alt text")
        if smallest is not None and smallest < body / 2:
            problems.append(
                f'{src} drawn {width} px wide: its label "{label}" is {smallest} px, '
                f"under half the body text's {body:g} px")
    return problems


def make_checks(browser, base, nav):
    checks = []

    def check(name):
        def add(fn):
            checks.append((name, fn))
            return fn
        return add

    @check(f"navigation lists {', '.join(NAV_TITLES)}")
    def _():
        missing = [t for t in NAV_TITLES if t not in nav]
        if missing:
            raise AssertionError(f"missing: {', '.join(missing)}; found: {', '.join(nav)}")

    for title, url in nav.items():
        @check(f'page "{title}" loads cleanly ({url[len(base):]})')
        def _(url=url):
            browser.load(url)
            if not browser.driver.title:
                raise AssertionError("the page has no title")

    for title, source in CHAPTERS:
        @check(f'"{title}" shows its quoted code, highlighted')
        def _(title=title, source=source):
            quotes = quoted_sections((REPO / source).read_text(encoding="utf-8"))
            if not quotes:
                raise AssertionError(f"{source} quotes no section")
            browser.load(nav[title])
            blocks = browser.all(".md-content .highlight", """
                return elements.map((d) => [d.textContent,
                                            d.querySelectorAll('code span[class]').length]);""")
            highlighted = [text for text, spans in blocks if spans > 0]
            if not highlighted:
                raise AssertionError("no code block with Pygments spans")
            for target, first_line in quotes:
                if not any(first_line in text for text in highlighted):
                    raise AssertionError(
                        f'quote {target} not shown highlighted (looked for "{first_line}")')

        @check(f'"{title}" shows every picture it draws')
        def _(title=title):
            browser.load(nav[title])
            broken = browser.all(".md-content img", """
                return elements.filter((i) => !(i.complete && i.naturalWidth))
                               .map((i) => i.getAttribute('src'));""")
            if broken:
                raise AssertionError(f"pictures that did not load: {', '.join(broken)}")

    for title, url in nav.items():
        if title == API_TITLE:
            continue

        @check(f'"{title}": every picture has alt text and legible labels at 1280 px')
        def _(url=url):
            browser.load(url)
            problems = pictures_not_legible(browser)
            if problems:
                raise AssertionError("; ".join(problems))

    @check(f'"{API_TITLE}" leads to Doxygen pages that load')
    def _():
        api_url = nav[API_TITLE]
        browser.load(api_url)
        generator = browser.all('meta[name="generator"]',
                                "return elements.length ? elements[0].content : '';")
        if not generator.startswith("Doxygen"):
            raise AssertionError(f"not a Doxygen page: {browser.driver.current_url}")
        project = browser.all("#projectname",
                              "return elements.length ? elements[0].textContent : '';")
        if "minitf" not in project:
            raise AssertionError(f'project name is "{project.strip()}"')
        # The file list, then the class list and the first class it links to.
        browser.load(urllib.parse.urljoin(api_url, "files.html"))
        browser.load(urllib.parse.urljoin(api_url, "annotated.html"))
        first_class = browser.all("table.directory a.el[href]",
                                  "return elements.length ? elements[0].href : '';")
        if not first_class:
            raise AssertionError("the class list links to no class")
        browser.load(first_class)

    @check(f'search finds "{SEARCH_WORD}"')
    def _():
        browser.load(base + "/")
        # Real key strokes: Material's search listens for keyup, not for input.
        driver = browser.driver
        box = driver.find_element(By.CSS_SELECTOR, "input.md-search__input")
        driver.find_element(By.CSS_SELECTOR, "label.md-search__icon, .md-search__input").click()
        for key in SEARCH_WORD:
            box.send_keys(key)
            time.sleep(0.02)
        deadline = time.monotonic() + PAGE_TIMEOUT_S
        while not driver.find_elements(By.CSS_SELECTOR, ".md-search-result__item"):
            if time.monotonic() > deadline:
                raise AssertionError(f"no search result within {PAGE_TIMEOUT_S} s")
            time.sleep(0.1)

    return checks


# ---------------------------------------------------------------------------


def main():
    counts = {"passed": 0, "failed": 0}

    def report(name, problems):
        if problems:
            counts["failed"] += 1
            print(f"FAIL {name}")
            for p in problems:
                print(f"     {p}")
        else:
            counts["passed"] += 1
            print(f"ok   {name}")
        sys.stdout.flush()

    def closing_line():
        print(f"{counts['passed']} passed, {counts['failed']} failed")
        sys.stdout.flush()

    server = browser = None
    user_data_dir = tempfile.mkdtemp(prefix="minitf-site-test-")

    def finish():
        if browser:
            try:
                browser.quit()
            except WebDriverException:
                pass
        if server:
            server.shutdown()
        shutil.rmtree(user_data_dir, ignore_errors=True)

    def watchdog(*_):
        report(f"the whole test finishes within {WATCHDOG_S} s", ["watchdog fired"])
        closing_line()
        # The browser may be what hangs: end the driver and its children hard.
        if browser:
            try:
                browser.driver.service.process.kill()
            except Exception:  # noqa: BLE001 - the run ends whatever happened.
                pass
        shutil.rmtree(user_data_dir, ignore_errors=True)
        os._exit(1)

    signal.signal(signal.SIGALRM, watchdog)
    signal.alarm(WATCHDOG_S)
    try:
        if not (SITE / "index.html").exists():
            raise AssertionError(
                f"{SITE}/index.html is missing; build the site first: scripts/build_docs.sh")
        server = serve_site(SITE)
        base = f"http://127.0.0.1:{server.server_address[1]}"
        browser = Browser(base, user_data_dir)

        nav = {}
        try:
            nav = navigation_of(browser, base)
            report("home page loads and shows the navigation", browser.take())
        except (AssertionError, WebDriverException) as error:
            report("home page loads and shows the navigation",
                   [str(error).split("\n")[0]] + browser.take())
        for name, fn in make_checks(browser, base, nav):
            try:
                fn()
                report(name, browser.take())
            except (AssertionError, KeyError, WebDriverException) as error:
                report(name, [str(error).split("\n")[0]] + browser.take())
    except (AssertionError, OSError, WebDriverException) as error:
        report("set up: serve site/ and start Chromium", [str(error).split("\n")[0]])
    finally:
        signal.alarm(0)
        finish()
    closing_line()
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
