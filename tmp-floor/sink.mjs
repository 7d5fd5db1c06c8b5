import { SMTPServer } from 'smtp-server';
const server = new SMTPServer({ authOptional: true, disabledCommands: ['STARTTLS'], logger: false,
  onData(stream, session, cb) { stream.on('data', () => {}); stream.on('end', () => cb()); } });
server.listen(0, '127.0.0.1', () => process.send(server.server.address().port));
process.on('message', () => server.close(() => process.exit(0)));
