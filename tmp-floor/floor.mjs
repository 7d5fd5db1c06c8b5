// CPU of smtp-connection alone: 5 connections, prebuilt messages, to a sink in another process.
import { fork } from 'node:child_process';
import SMTPConnection from 'nodemailer/lib/smtp-connection/index.js';
import crypto from 'node:crypto';
const N = 10000;
const sink = fork(new URL('./sink.mjs', import.meta.url));
const port = await new Promise((r) => sink.once('message', r));
const body = Buffer.from(('X'.repeat(76) + '\r\n').repeat(40));
const msgs = Array.from({ length: N }, (_, i) => Buffer.concat([Buffer.from(`From: a@x.test\r\nTo: r${i}@y.test\r\nSubject: hi ${i}\r\n\r\n`), body]));
const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
let t = performance.now(); for (let i = 0; i < 2000; i++) crypto.sign('sha256', msgs[i].subarray(0, 200), privateKey); console.log('RSA-2048 sign ms', ((performance.now() - t) / 2000).toFixed(3));
const connect = () => new Promise((res, rej) => { const c = new SMTPConnection({ host: '127.0.0.1', port, ignoreTLS: true }); c.connect(() => res(c)); c.once('error', rej); });
const conns = await Promise.all(Array.from({ length: 5 }, connect));
let next = 0; const cpu = process.cpuUsage(); t = performance.now();
await Promise.all(conns.map(async (c) => { while (next < N) { const i = next++; await new Promise((res, rej) => c.send({ from: 'a@x.test', to: [`r${i}@y.test`] }, msgs[i], (e) => e ? rej(e) : res())); } }));
const used = process.cpuUsage(cpu); const s = (performance.now() - t) / 1000;
console.log(`smtp-connection alone: ${(N / s).toFixed(0)} msg/s, CPU ${((used.user + used.system) / 1000 / N).toFixed(3)} ms per message (${body.length + 60} bytes)`);
conns.forEach((c) => c.quit()); sink.send('stop');
