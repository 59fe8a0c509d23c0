// Paths and the generator version shared by the dataset modules.
'use strict';
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const DIST = path.join(ROOT, 'dist', 'src');
/** Stored in the manifest: a database built by another generator version is never reused. */
const GENERATOR_VERSION = 4;

module.exports = { ROOT, DIST, GENERATOR_VERSION };
