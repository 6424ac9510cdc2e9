// The train team's task queue: SearchTrains and BookTrains declare it, and the worker serving them listens on it
// (`npm run tool-worker -- train-tools`, or in-process under `npm start`). Not a tool (no default export).
export const TRAIN_TOOLS_QUEUE = 'train-tools';
