// Builds the client into bookstore/static/dist and writes the index.html that Flask serves.
//
//   node client/build.mjs            one production build, then print bundle sizes
//   node client/build.mjs --watch    rebuild on every change until stopped (no terminal needed)
//
// Every file name but index.html carries a content hash, so Flask can cache them for a year;
// index.html goes out with no-cache and is the only place the current names are written.
// A lazy chunk with its own styles imports them as `import href from "./x.css?url"` and links
// them when it loads (see stylesheetUrls), so they never weigh on the first page.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, unwatchFile, watchFile, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants as zlibConstants, gzipSync } from "node:zlib";
import * as esbuild from "esbuild";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUTDIR = path.join(ROOT, "bookstore", "static", "dist");
const TEMPLATE = path.join(ROOT, "client", "index.html");
const ENTRY = "client/src/main.jsx";
const PUBLIC_PATH = "/static/dist/";
const watching = process.argv.includes("--watch");
// Issues 4 and 16: a shopper's first visit to home, /books, a book or an exam page downloads at most
// this much JavaScript, gzipped.
const JS_BUDGET_KB = 100;

/** @type {esbuild.BuildOptions} */
const options = {
  absWorkingDir: ROOT,
  entryPoints: [ENTRY],
  outdir: OUTDIR,
  publicPath: PUBLIC_PATH,
  bundle: true,
  splitting: true,
  format: "esm",
  target: "es2020",
  minify: true,
  sourcemap: true,
  metafile: true,
  jsx: "automatic",
  entryNames: "[name]-[hash]",
  chunkNames: "[name]-[hash]",
  assetNames: "assets/[name]-[hash]",
  loader: { ".png": "file", ".jpg": "file", ".svg": "file", ".webp": "file", ".woff2": "file" },
  define: { "process.env.NODE_ENV": '"production"' },
  logLevel: "warning",
  plugins: [
    builtInSyncExternalStore(),
    oneInitialChunk(),
    stylesheetUrls(),
    { name: "bookstore-index", setup: (build) => build.onEnd(afterBuild) },
  ],
};

let lastMetafile = null;
// Files written by stylesheetUrls, by source stylesheet: kept by pruneStale, listed by printSizes.
const stylesheetOutputs = new Map();

/**
 * wouter (lib/router.jsx) imports useSyncExternalStore from the use-sync-external-store shim, which
 * only hands out React's own hook when React has one (React 18 and later) and else carries its own
 * copy: with React 19 that copy is dead weight, so the import goes straight to React.
 */
function builtInSyncExternalStore() {
  return {
    name: "built-in-sync-external-store",
    setup(build) {
      build.onResolve({ filter: /^use-sync-external-store\/shim(\/index\.js)?$/ }, () => ({
        path: "use-sync-external-store", namespace: "react-built-in",
      }));
      build.onLoad({ filter: /.*/, namespace: "react-built-in" }, () => ({
        contents: 'export { useSyncExternalStore } from "react";',
        loader: "js",
        resolveDir: ROOT,
      }));
    },
  };
}

// The root of what the entry imports statically, besides react-dom/client and the stylesheet.
const APP_ROOT = path.join(ROOT, "client", "src", "app", "router.jsx");

/**
 * esbuild puts code shared by the entry and lazy chunks into shared chunks, one per set of chunks
 * that use it: the first visit downloaded fourteen of them (some of 200 bytes), and on HTTP/1.1 each
 * took its turn on one of six connections, a round trip each on a phone network. Every lazy chunk
 * (each target of an import()) is made to import the app's root as well; a lazy chunk only ever
 * runs after the entry, so this changes nothing it runs, but the entry's whole static graph is
 * then used by every chunk alike and esbuild writes it as one file.
 */
function oneInitialChunk() {
  return {
    name: "one-initial-chunk",
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind !== "dynamic-import" || args.pluginData?.skip) return undefined;
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: { skip: true },
        });
        if (resolved.errors.length > 0 || !/\.jsx?$/.test(resolved.path)) return resolved;
        return { ...resolved, pluginData: { lazyEntry: true } };
      });
      build.onLoad({ filter: /\.jsx?$/ }, async (args) => {
        if (!args.pluginData?.lazyEntry) return undefined;
        const source = readFileSync(args.path, "utf8");
        return {
          contents: `${source}\nimport ${JSON.stringify(APP_ROOT)};\n`,
          loader: args.path.endsWith(".jsx") ? "jsx" : "js",
          resolveDir: path.dirname(args.path),
        };
      });
    },
  };
}

/**
 * `import href from "./admin.css?url"` bundles and minifies that stylesheet into its own hashed
 * file and makes the import its public URL. esbuild writes the CSS of a lazy chunk to a file but
 * nothing links it; with its URL in the chunk's code the chunk adds the <link> itself, and its own
 * hash changes whenever the stylesheet does, so a year of caching stays safe.
 */
function stylesheetUrls() {
  return {
    name: "stylesheet-url",
    setup(build) {
      build.onResolve({ filter: /\.css\?url$/ }, (args) => ({
        path: path.resolve(args.resolveDir, args.path.slice(0, -"?url".length)),
        namespace: "stylesheet-url",
      }));
      build.onLoad({ filter: /.*/, namespace: "stylesheet-url" }, async (args) => {
        let result;
        try {
          result = await esbuild.build({
            absWorkingDir: ROOT,
            entryPoints: [args.path],
            outdir: OUTDIR,
            publicPath: PUBLIC_PATH,
            bundle: true,
            minify: true,
            sourcemap: true,
            metafile: true,
            entryNames: options.entryNames,
            assetNames: options.assetNames,
            loader: options.loader,
            target: options.target,
            logLevel: "silent",
          });
        } catch (failure) {
          return { errors: failure.errors, warnings: failure.warnings };
        }
        const outputs = Object.keys(result.metafile.outputs);
        stylesheetOutputs.set(args.path, outputs);
        const stylesheet = outputs.find((output) => output.endsWith(".css"));
        return {
          contents: `export default ${JSON.stringify(publicUrl(stylesheet))};`,
          loader: "js",
          watchFiles: Object.keys(result.metafile.inputs).map((input) => path.join(ROOT, input)),
        };
      });
    },
  };
}

/** Empty the output folder; refuses any folder but bookstore/static/dist. */
function cleanOutdir() {
  if (path.relative(ROOT, OUTDIR) !== path.join("bookstore", "static", "dist")) {
    throw new Error(`Refusing to clean ${OUTDIR}`);
  }
  rmSync(OUTDIR, { recursive: true, force: true });
  mkdirSync(OUTDIR, { recursive: true });
}

/** The public URL of an output file named by esbuild's metafile (a path relative to ROOT). */
function publicUrl(outputPath) {
  return PUBLIC_PATH + path.relative(OUTDIR, path.join(ROOT, outputPath)).split(path.sep).join("/");
}

/**
 * The entry's stylesheet, split so it never blocks the first paint: the rules the shell in
 * client/index.html uses (header, page frame, tokens) go inline in a <style>, and the whole sheet is
 * preloaded; main.jsx links it and renders once it has loaded, so no screen paints unstyled. Without
 * JavaScript, <noscript> links it the ordinary way.
 */
function entryStyles(metafile, template) {
  const [, entry] = Object.entries(metafile.outputs).find(([, out]) => out.entryPoint === ENTRY);
  if (!entry.cssBundle) return [];
  const href = publicUrl(entry.cssBundle);
  const critical = criticalCss(readFileSync(path.join(ROOT, entry.cssBundle), "utf8"), shellMarkup(template));
  return [
    `<style>${critical}</style>`,
    `<link rel="preload" as="style" href="${href}" data-app-styles>`,
    `<noscript><link rel="stylesheet" href="${href}"></noscript>`,
  ];
}

/** The entry's script and a modulepreload for each chunk it imports statically. */
function entryScripts(metafile) {
  const [entryPath, entry] = Object.entries(metafile.outputs).find(([, out]) => out.entryPoint === ENTRY);
  const preloads = entry.imports
    .filter((imported) => imported.kind === "import-statement" && !imported.external)
    .map((imported) => `<link rel="modulepreload" href="${publicUrl(imported.path)}">`);
  return [...preloads, `<script type="module" src="${publicUrl(entryPath)}"></script>`];
}

/** The markup painted before the app runs: the template's <div id="root">. */
function shellMarkup(template) {
  const start = template.indexOf('<div id="root">');
  const end = template.indexOf("<noscript>", start);
  if (start < 0 || end < 0) throw new Error('client/index.html lacks <div id="root"> before <noscript>');
  return template.slice(start, end);
}

/**
 * The rules of `css` (esbuild's minified output) that can match the shell's markup: a selector stays
 * when every class and element it names occurs in the markup (attribute and pseudo parts are not
 * checked, so a few extra rules may stay). @media and @supports keep their fitting rules; keyframes go.
 */
function criticalCss(css, markup) {
  const classes = new Set([...markup.matchAll(/class="([^"]*)"/g)].flatMap((match) => match[1].split(/\s+/)));
  const tags = new Set(["html", "body", ...[...markup.matchAll(/<([a-z][a-z0-9]*)/g)].map((match) => match[1])]);
  const fits = (selector) => {
    const bare = selector.replace(/\[[^\]]*\]/g, "").replace(/::?[\w-]+(\((?:[^()]|\([^()]*\))*\))?/g, "");
    return [...bare.matchAll(/\.([\w-]+)/g)].every((match) => classes.has(match[1]))
      && [...bare.matchAll(/(?:^|[\s>+~])([a-z][a-z0-9-]*)/g)].every((match) => tags.has(match[1]));
  };
  return filterRules(css, fits);
}

/** Index of the character that ends the quoted string or block starting at css[start] (scan helper). */
function scan(css, start, onChar) {
  let quote = null;
  for (let i = start; i < css.length; i += 1) {
    const ch = css[i];
    if (quote) {
      if (ch === "\\") i += 1;
      else if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (onChar(ch, i)) return i;
  }
  return -1;
}

/** Split a selector list at its top-level commas (commas inside :is(...), [...] and strings stay). */
function splitTopLevel(text) {
  const parts = [];
  let depth = 0;
  let start = 0;
  scan(text, 0, (ch, i) => {
    if (ch === "(" || ch === "[") depth += 1;
    else if (ch === ")" || ch === "]") depth -= 1;
    else if (ch === "," && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
    return false;
  });
  parts.push(text.slice(start));
  return parts;
}

/** The rules of a minified stylesheet whose selectors pass `fits`, nested in their @media/@supports. */
function filterRules(css, fits) {
  let out = "";
  let i = 0;
  while (i < css.length) {
    const open = scan(css, i, (ch) => ch === "{" || ch === ";");
    if (open < 0) break;
    if (css[open] === ";") { // a statement such as @charset
      out += css.slice(i, open + 1);
      i = open + 1;
      continue;
    }
    let depth = 0;
    const close = scan(css, open, (ch) => {
      if (ch === "{") depth += 1;
      else if (ch === "}") depth -= 1;
      return depth === 0;
    });
    if (close < 0) throw new Error("unbalanced braces in the entry's stylesheet");
    const prelude = css.slice(i, open).trim();
    const body = css.slice(open + 1, close);
    if (/^@(media|supports|layer)\b/.test(prelude)) {
      const inner = filterRules(body, fits);
      if (inner) out += `${prelude}{${inner}}`;
    } else if (/^@font-face\b/.test(prelude)) {
      out += `${prelude}{${body}}`;
    } else if (!prelude.startsWith("@")) {
      const kept = splitTopLevel(prelude).filter((selector) => fits(selector.trim()));
      if (kept.length > 0) out += `${kept.join(",")}{${body}}`;
    }
    i = close + 1;
  }
  return out;
}

/** Write dist/index.html from the template, filling its two placeholders. */
function writeIndex(metafile) {
  const template = readFileSync(TEMPLATE, "utf8");
  for (const marker of ["<!-- build:styles -->", "<!-- build:scripts -->"]) {
    if (!template.includes(marker)) throw new Error(`client/index.html lacks the ${marker} placeholder`);
  }
  const html = template
    .replace("<!-- build:styles -->", entryStyles(metafile, template).join("\n    "))
    .replace("<!-- build:scripts -->", entryScripts(metafile).join("\n    "));
  writeFileSync(path.join(OUTDIR, "index.html"), html);
}

const ROUTES_DIR = "client/src/app/routes/";

/**
 * Write dist/routes.json: for each screen (by route file name, "books" for routes/books.jsx), the
 * scripts of the lazy chunk that holds it beyond the first visit's. Flask links them as
 * modulepreload in the HTML of that screen's address, so the browser fetches the screen with the
 * entry instead of after it.
 */
function writeRouteManifest(metafile) {
  const initial = initialOutputs(metafile);
  const routes = {};
  for (const [outputPath, output] of Object.entries(metafile.outputs)) {
    if (!output.entryPoint || output.entryPoint === ENTRY || outputPath.endsWith(".map")) continue;
    const needed = [...staticImports(metafile, outputPath, initial)];
    for (const input of Object.keys(output.inputs)) {
      if (input.startsWith(ROUTES_DIR)) routes[input.slice(ROUTES_DIR.length).replace(/\.jsx?$/, "")] = needed.map(publicUrl);
    }
  }
  writeFileSync(path.join(OUTDIR, "routes.json"), `${JSON.stringify(routes, null, 1)}\n`);
}

/** Every file this build wrote: esbuild's outputs and the stylesheets bundled for lazy chunks. */
function builtFiles(metafile) {
  return [...Object.keys(metafile.outputs), ...[...stylesheetOutputs.values()].flat()];
}

// Swagger UI for /api/docs, from the pinned swagger-ui-dist package: the shop serves it itself, never a CDN.
const SWAGGER_UI_DIR = path.join(OUTDIR, "swagger-ui");
const SWAGGER_UI_FILES = ["swagger-ui-bundle.js", "swagger-ui.css"].map((name) => path.join(SWAGGER_UI_DIR, name));

/** Copy Swagger UI's script and stylesheet into dist/swagger-ui, each with a .gz beside it. */
function copySwaggerUi() {
  mkdirSync(SWAGGER_UI_DIR, { recursive: true });
  for (const file of SWAGGER_UI_FILES) {
    copyFileSync(path.join(ROOT, "node_modules", "swagger-ui-dist", path.basename(file)), file);
    writeFileSync(`${file}.gz`, gzipSync(readFileSync(file), { level: 9 }));
  }
}

/** Delete outputs of earlier rebuilds, so a long watch session does not pile up old bundles. */
function pruneStale(metafile) {
  const keep = new Set(builtFiles(metafile).flatMap((out) => {
    const file = path.join(ROOT, out);
    return watching ? [file] : [file, `${file}.gz`, `${file}.br`];
  }));
  keep.add(path.join(OUTDIR, "index.html"));
  keep.add(path.join(OUTDIR, "routes.json"));
  for (const file of SWAGGER_UI_FILES) keep.add(file).add(`${file}.gz`);
  for (const entry of readdirSync(OUTDIR, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && !keep.has(file)) rmSync(file);
  }
}

function formatKb(bytes) {
  return `${(bytes / 1024).toFixed(1)} KB`.padStart(9);
}

/** `start` and every output it imports statically, skipping those in `known` (and what only they import). */
function staticImports(metafile, start, known = new Set()) {
  const seen = new Set();
  const stack = [start];
  while (stack.length > 0) {
    const file = stack.pop();
    if (seen.has(file) || known.has(file)) continue;
    seen.add(file);
    for (const imported of metafile.outputs[file].imports) {
      if (imported.kind === "import-statement" && !imported.external) stack.push(imported.path);
    }
  }
  return seen;
}

/** The entry and every chunk it imports statically: what a first visit to any screen downloads. */
function initialOutputs(metafile) {
  const [entryPath] = Object.entries(metafile.outputs).find(([, out]) => out.entryPoint === ENTRY);
  const seen = staticImports(metafile, entryPath);
  const css = metafile.outputs[entryPath].cssBundle;
  if (css) seen.add(css);
  return seen;
}

/**
 * Write a .gz (level 9) and a .br (quality 11) beside every JS, CSS and map file, so the server
 * sends the smallest encoding a browser accepts without compressing on each request.
 */
function precompress(metafile) {
  for (const file of builtFiles(metafile)) {
    if (!/\.(js|css)$/.test(file)) continue;
    const raw = readFileSync(path.join(ROOT, file));
    writeFileSync(path.join(ROOT, `${file}.gz`), gzipSync(raw, { level: 9 }));
    writeFileSync(path.join(ROOT, `${file}.br`), brotliCompressSync(raw, {
      params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: raw.length },
    }));
  }
}

/** Print raw and gzip sizes of every JS and CSS output, and the total of the first visit's files. */
function printSizes(metafile) {
  const initial = initialOutputs(metafile);
  // A stylesheet linked by a lazy chunk loads with that chunk, so it counts as lazy.
  const lazyStyles = [...stylesheetOutputs.values()].flat().map((file) => [file, { entryPoint: "lazy" }]);
  const rows = [...Object.entries(metafile.outputs), ...lazyStyles]
    .filter(([file]) => /\.(js|css)$/.test(file))
    .map(([file, out]) => {
      const raw = readFileSync(path.join(ROOT, file));
      const kind = out.entryPoint === ENTRY ? "entry" : initial.has(file) ? "initial" : out.entryPoint ? "lazy" : "shared";
      return { name: path.relative(OUTDIR, path.join(ROOT, file)), kind, raw: raw.length, gzip: gzipSync(raw, { level: 9 }).length };
    })
    .sort((a, b) => b.raw - a.raw);
  const width = Math.max(...rows.map((row) => row.name.length), 4);
  console.log(`${"file".padEnd(width)}  ${"kind".padEnd(7)}  ${"raw".padStart(9)}  ${"gzip".padStart(9)}`);
  for (const row of rows) {
    console.log(`${row.name.padEnd(width)}  ${row.kind.padEnd(7)}  ${formatKb(row.raw)}  ${formatKb(row.gzip)}`);
  }
  // What a first visit downloads before any screen's own chunk: the entry, its static imports, its CSS.
  const first = rows.filter((row) => row.kind === "entry" || row.kind === "initial");
  const sum = (list, key) => list.reduce((total, row) => total + row[key], 0);
  const scripts = first.filter((row) => row.name.endsWith(".js"));
  console.log(`${"initial load".padEnd(width)}  ${"".padEnd(7)}  ${formatKb(sum(first, "raw"))}  ${formatKb(sum(first, "gzip"))}`);
  console.log(`${"initial JavaScript".padEnd(width)}  ${"".padEnd(7)}  ${formatKb(sum(scripts, "raw"))}  ${formatKb(sum(scripts, "gzip"))}`
    + `  (budget ${JS_BUDGET_KB} KB gzip for each first visit)`);
  // Other screens' first visits add the scripts spa.py preloads for them (dist/routes.json).
  const byName = new Map(rows.map((row) => [PUBLIC_PATH + row.name, row]));
  const routes = JSON.parse(readFileSync(path.join(OUTDIR, "routes.json"), "utf8"));
  for (const route of ["books", "book", "exam"]) {
    const own = (routes[route] ?? []).map((url) => byName.get(url)).filter(Boolean);
    const label = `first visit to ${route} (${own.length} more)`;
    console.log(`${label.padEnd(width)}  ${"".padEnd(7)}  ${formatKb(sum([...scripts, ...own], "raw"))}`
      + `  ${formatKb(sum([...scripts, ...own], "gzip"))}`);
  }
}

/** After every (re)build: on success write index.html, drop stale files and report. */
function afterBuild(result) {
  const stamp = new Date().toLocaleTimeString("en-GB");
  if (result.errors.length > 0) {
    console.error(`[${stamp}] build failed with ${result.errors.length} error(s); index.html not written`);
    return;
  }
  // A throw here is reported by esbuild as a build error (a one-off build then exits non-zero).
  writeIndex(result.metafile);
  writeRouteManifest(result.metafile);
  lastMetafile = result.metafile;
  if (!watching) precompress(result.metafile);
  copySwaggerUi();
  pruneStale(result.metafile);
  console.log(`[${stamp}] built ${path.relative(ROOT, OUTDIR)}/index.html`);
  printSizes(result.metafile);
}

async function buildOnce() {
  try {
    await esbuild.build(options);
  } catch {
    process.exitCode = 1; // esbuild has already printed the errors
  }
}

async function watch() {
  const context = await esbuild.context(options);
  await context.watch();
  // esbuild does not see the HTML template; rewrite index.html when it changes.
  watchFile(TEMPLATE, { interval: 500 }, () => {
    if (!lastMetafile) return;
    try {
      writeIndex(lastMetafile);
      console.log("client/index.html changed: index.html rewritten");
    } catch (error) {
      console.error(error.message);
    }
  });
  // ctx.watch() does not hold the process open by itself when there is no terminal.
  const keepAlive = setInterval(() => {}, 1 << 30);
  const stop = async () => {
    clearInterval(keepAlive);
    unwatchFile(TEMPLATE);
    await context.dispose();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  console.log("watching client/ for changes (Ctrl+C or SIGTERM to stop)");
}

if (!existsSync(TEMPLATE)) throw new Error("client/index.html is missing");
cleanOutdir();
await (watching ? watch() : buildOnce());
