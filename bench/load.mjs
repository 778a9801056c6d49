// A small HTTP/1.1 load generator for part 8: `connections` kept-alive sockets, each sending one request,
// reading its whole answer (status line, headers, `content-length` bytes of body) and sending the next,
// for a fixed time. It runs in a worker thread (its own event loop, so that the servers measured in the
// main thread keep theirs), and reads answers with a few byte scans rather than Node's HTTP parser,
// so that the client costs less than the servers it measures. autocannon does the same; it is not a
// dependency of the project.
import { connect } from 'node:net';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';

/** Starts the load thread: `run({ port, request, ms, connections })` resolves to `{ answers, perSecond, statuses }`. */
export function startLoad() {
  const worker = new Worker(new URL(import.meta.url));
  let pending;
  worker.on('message', (result) => pending?.resolve(result));
  worker.on('error', (error) => pending?.reject(error));
  return {
    run(job) {
      return new Promise((resolve, reject) => {
        pending = { resolve, reject };
        worker.postMessage(job);
      });
    },
    close: () => worker.terminate(),
  };
}

const HEAD_END = Buffer.from('\r\n\r\n');

/** One connection's loop: resolves when `until` has passed and its answer in flight is read. */
function drive(port, request, until, tally) {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', noDelay: true });
    let buffered = Buffer.alloc(0);
    let bodyLeft = -1; // -1: reading a head
    const next = () => {
      if (performance.now() >= until) {
        socket.destroy();
        return resolve();
      }
      socket.write(request);
    };
    socket.on('connect', next);
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      for (;;) {
        if (bodyLeft < 0) {
          const end = buffered.indexOf(HEAD_END);
          if (end < 0) return;
          const head = buffered.toString('latin1', 0, end);
          const status = head.slice(9, 12);
          if (/\r\ntransfer-encoding:/i.test(head)) return reject(new Error('a chunked answer: this client reads content-length only'));
          const length = /\r\ncontent-length: *(\d+)/i.exec(head);
          bodyLeft = status === '304' || status === '204' ? 0 : length ? Number(length[1]) : 0;
          tally.statuses[status] = (tally.statuses[status] ?? 0) + 1;
          buffered = buffered.subarray(end + 4);
        }
        if (buffered.length < bodyLeft) {
          bodyLeft -= buffered.length;
          buffered = Buffer.alloc(0);
          return;
        }
        buffered = buffered.subarray(bodyLeft);
        bodyLeft = -1;
        tally.answers++;
        next();
        if (buffered.length === 0) return;
      }
    });
  });
}

if (!isMainThread) {
  parentPort.on('message', async ({ port, request, ms, connections }) => {
    const tally = { answers: 0, statuses: {} };
    const start = performance.now();
    await Promise.all(Array.from({ length: connections }, () => drive(port, request, start + ms, tally)));
    const seconds = (performance.now() - start) / 1000;
    parentPort.postMessage({ answers: tally.answers, perSecond: tally.answers / seconds, statuses: tally.statuses });
  });
}
