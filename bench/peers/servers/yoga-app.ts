// The GraphQL Yoga app of the `server` suite's Yoga groups, the same on wirespeed/node (its `fetch`)
// and on node:http (`createServer(yoga)`, Yoga's own Node path, through @whatwg-node/server):
//   GET /graphql?query={hello} → a query answered as JSON.
import { createSchema, createYoga } from 'graphql-yoga';
import { HELLO } from './app.js';

export function yogaApp() {
  const schema = createSchema({ typeDefs: 'type Query { hello: String! }', resolvers: { Query: { hello: () => HELLO } } });
  return createYoga({ schema, logging: false, graphiql: false });
}
