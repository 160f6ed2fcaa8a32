// wirespeed: everything that runs on every runtime. Server adapters are separate entry points.
export * from './http1/index.js';
export * from './hpack/index.js';
export * from './router/index.js';
