/**
 * The Node.js major tickfeed runs on in Lambda. One number for everything that must agree: the
 * functions' runtime in the template (`nodejs<major>.x`), the bundles' esbuild target
 * (`node<major>`), and the Node CI installs from the npm registry to run the tests on
 * (.ci/run reads the line below; keep it a plain integer literal).
 * Node 24 is the active LTS and a Lambda runtime since late 2025; AWS SDK releases after early
 * January 2027 need Node ≥ 22. `npm start` and `npm test` still run on any Node ≥ 20.
 */
export const LAMBDA_NODE_MAJOR = 24;
