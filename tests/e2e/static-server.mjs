// The static server every browser script serves a build of the app with: files from `dist`, and
// index.html for any extension-less path (the app's routes, e.g. /sudoku), 404 otherwise.

import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json', '.bpk': 'application/octet-stream' };

/** Serves `dist` on a free local port: `{ server, base }` with base `http://127.0.0.1:PORT`. */
export async function serve(dist) {
  const root = path.resolve(dist);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    let file = path.join(root, decodeURIComponent(url.pathname));
    if (!file.startsWith(root) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      if (path.extname(url.pathname)) { res.writeHead(404); res.end('not found'); return; }
      file = path.join(root, 'index.html');
    }
    const body = fs.readFileSync(file);
    res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream', 'content-length': body.length });
    res.end(body);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { server, base: `http://127.0.0.1:${server.address().port}` };
}

/** A plain static file server, as a school's web host is: `dir` served under `mount` (e.g.
 * `/latent/`), a folder's index.html for the folder, a redirect that adds the slash to a folder
 * named without it (keeping the query), `404.html` with status 404 for anything else, and
 * nothing outside `mount`. No rewrite rules: every route must exist as a file. */
export async function servePlain(dir, mount) {
  const root = path.resolve(dir);
  const requests = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    requests.push(url.pathname);
    const notFound = () => {
      const page = path.join(root, '404.html');
      const body = fs.existsSync(page) ? fs.readFileSync(page) : Buffer.from('not found');
      res.writeHead(404, { 'content-type': 'text/html', 'content-length': body.length });
      res.end(body);
    };
    if (!url.pathname.startsWith(mount)) { res.writeHead(404); res.end('outside the site'); return; }
    let file = path.join(root, decodeURIComponent(url.pathname.slice(mount.length)));
    if (!file.startsWith(root) || !fs.existsSync(file)) return notFound();
    if (fs.statSync(file).isDirectory()) {
      if (!url.pathname.endsWith('/')) { res.writeHead(301, { location: `${url.pathname}/${url.search}` }); res.end(); return; }
      file = path.join(file, 'index.html');
      if (!fs.existsSync(file)) return notFound();
    }
    const body = fs.readFileSync(file);
    res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream', 'content-length': body.length });
    res.end(body);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { server, base: `http://127.0.0.1:${server.address().port}`, requests };
}
