// The peer of the auth-me benchmark: a bare Fastify route with nothing in front of it, the
// physical floor for "one JSON response from this machine's Fastify".
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ ok: true }));
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.send?.({ ready: app.server.address().port });
