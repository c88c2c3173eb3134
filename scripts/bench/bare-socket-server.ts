// The floor of a fan-out (issue 31 item 4): a bare Socket.IO server on the same box — no accounts, no
// rooms, no database — that broadcasts whatever task it is POSTed to every socket, as the product does
// with `task:updated`. The bench times the same screens against it and reports the product's fan-out as
// a ratio to this. Run as its own process (like the product's server): `node --import tsx <this file>`.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';

const server = http.createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/emit') {
    res.writeHead(404).end();
    return;
  }
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    // Parsed and encoded again, as the product's task leaves its presenter as an object.
    io.emit('task:updated', JSON.parse(body));
    res.writeHead(204).end();
  });
});
// The product's transport settings (server/realtime/io.ts): WebSocket only, no client served.
const io = new Server(server, { serveClient: false, transports: ['websocket'] });

server.listen(0, '127.0.0.1', () => {
  // The line startProcess() waits for, as the product's server prints it.
  console.log(`lista en http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.once('SIGTERM', () => {
  void io.close();
  process.exit(0);
});
