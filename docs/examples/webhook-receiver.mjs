// A receiver of Herald's webhooks that verifies each delivery with the Standard Webhooks reference library
// (npm install standardwebhooks). Herald's tests run this file against real deliveries (docs/webhooks.md).
//
//   WEBHOOK_SECRET=whsec_... PORT=3000 node webhook-receiver.mjs
import { createServer } from "node:http";
import { Webhook } from "standardwebhooks";

const webhook = new Webhook(process.env.WEBHOOK_SECRET); // the endpoint's secret, "whsec_..."
const MAX_BODY_BYTES = 1024 * 1024;

const server = createServer((request, response) => {
  const chunks = [];
  let length = 0;
  request.on("data", (chunk) => {
    length += chunk.length;
    if (length > MAX_BODY_BYTES) {
      response.writeHead(413).end();
      request.destroy();
      return;
    }
    chunks.push(chunk);
  });
  request.on("end", () => {
    let event;
    try {
      // The body exactly as it arrived: throws unless a v1 signature matches (any one of them, during a rotation)
      // and webhook-timestamp is within five minutes of this clock.
      event = webhook.verify(Buffer.concat(chunks), request.headers);
    } catch (refused) {
      response.writeHead(400, { "content-type": "text/plain" }).end(refused.message);
      return;
    }
    // Answer at once; do the work afterwards, once per webhook-id (a retry or replay carries the same id).
    response.writeHead(204).end();
    console.log(`verified ${request.headers["webhook-id"]} ${event.type}`);
  });
});

server.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? "0.0.0.0", () => {
  console.log(`listening on ${server.address().port}`);
});
